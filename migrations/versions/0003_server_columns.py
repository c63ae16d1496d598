"""The server's data of a logged input in its own columns; a durable room-clock checkpoint per game.

``game_events.timing`` (object) and ``game_events.rulings`` (list of objects) take what
the server used to keep inside the client's action JSON under ``_timing`` and
``_rulings``; existing rows are carried over (a tick whose action is left empty gets a
NULL action) and the downgrade puts them back. ``games.clock_at``: the latest room-clock
ms known durable for the game.

The carry-over decodes and re-encodes the JSON in Python (the engine's orjson codec,
see ``env.py``), so it needs a live connection: ``alembic upgrade --sql`` cannot emit it.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-07 00:00:00

"""

from collections.abc import Iterator, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import context, op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


TIMING_KEY = "_timing"
RULINGS_KEY = "_rulings"
#: Rows read and rewritten per round trip: bounded memory on a long log.
CHUNK = 1000

# The migration's own view of the table, frozen here: later model changes must not alter it.
NullableJSON = sa.JSON(none_as_null=True)
events = sa.table(
    "game_events",
    sa.column("game_id", sa.Integer()),
    sa.column("seq", sa.Integer()),
    sa.column("kind", sa.String()),
    sa.column("action", NullableJSON),
    sa.column("timing", NullableJSON),
    sa.column("rulings", NullableJSON),
)


def _rows(where: sa.ColumnElement[bool], *columns: sa.ColumnClause[Any]) -> Iterator[Sequence[sa.Row[Any]]]:
    """Chunks of the rows matching ``where``, in key order (keyset paging: rewriting them is safe)."""
    bind = op.get_bind()
    game_id, seq = -1, -1
    while True:
        after = sa.or_(events.c.game_id > game_id, sa.and_(events.c.game_id == game_id, events.c.seq > seq))
        query = (
            sa.select(events.c.game_id, events.c.seq, *columns)
            .where(after, where)
            .order_by(events.c.game_id, events.c.seq)
            .limit(CHUNK)
        )
        chunk = bind.execute(query).all()
        if not chunk:
            return
        yield chunk
        game_id, seq = chunk[-1][0], chunk[-1][1]


def _rewrite(values: list[dict[str, Any]], **columns: sa.BindParameter[Any]) -> None:
    if values:
        statement = (
            events.update()
            .where(events.c.game_id == sa.bindparam("b_game_id"), events.c.seq == sa.bindparam("b_seq"))
            .values(**columns)
        )
        op.get_bind().execute(statement, values)


def _json(name: str) -> sa.BindParameter[Any]:
    return sa.bindparam(name, type_=NullableJSON)


def _require_online() -> None:
    if context.is_offline_mode():
        raise RuntimeError("migration 0003 moves JSON between columns in Python: run it online, not --sql")


def upgrade() -> None:
    _require_online()
    with op.batch_alter_table("games", recreate="never") as batch:
        batch.add_column(sa.Column("clock_at", sa.BigInteger(), nullable=True))
    with op.batch_alter_table("game_events", recreate="never") as batch:
        batch.add_column(sa.Column("timing", NullableJSON, nullable=True))
        batch.add_column(sa.Column("rulings", NullableJSON, nullable=True))

    # A cheap text prefilter (a superset: '_' is LIKE's any-character); Python decides exactly.
    text = sa.cast(events.c.action, sa.Text)
    maybe = sa.or_(text.like(f"%{TIMING_KEY}%"), text.like(f"%{RULINGS_KEY}%"))
    for chunk in _rows(maybe, events.c.kind, events.c.action):
        values = []
        for game_id, seq, kind, action in chunk:
            if not isinstance(action, dict) or not (TIMING_KEY in action or RULINGS_KEY in action):
                continue
            rest = {k: v for k, v in action.items() if k not in (TIMING_KEY, RULINGS_KEY)}
            values.append(
                {
                    "b_game_id": game_id,
                    "b_seq": seq,
                    # A tick's action only ever carried rulings: nothing left means no action.
                    "b_action": None if kind == "tick" and not rest else rest,
                    "b_timing": action.get(TIMING_KEY),
                    "b_rulings": action.get(RULINGS_KEY),
                }
            )
        _rewrite(values, action=_json("b_action"), timing=_json("b_timing"), rulings=_json("b_rulings"))


def downgrade() -> None:
    _require_online()
    moved = sa.or_(events.c.timing.is_not(None), events.c.rulings.is_not(None))
    for chunk in _rows(moved, events.c.action, events.c.timing, events.c.rulings):
        values = []
        for game_id, seq, action, timing, rulings in chunk:
            if action is not None and not isinstance(action, dict):
                continue  # never written: only a move carries timing, and a move's action is an object
            # Appended after the player's keys, timing first: where Move.logged_action and the room put them.
            logged = dict(action or {})
            if timing is not None:
                logged[TIMING_KEY] = timing
            if rulings is not None:
                logged[RULINGS_KEY] = rulings
            values.append({"b_game_id": game_id, "b_seq": seq, "b_action": logged})
        _rewrite(values, action=_json("b_action"))

    # Native ALTER TABLE ... DROP COLUMN (SQLite >= 3.35), never a table copy: rebuilding
    # ``games`` would DROP it, and with foreign keys on that cascades into game_events.
    with op.batch_alter_table("game_events", recreate="never") as batch:
        batch.drop_column("rulings")
        batch.drop_column("timing")
    with op.batch_alter_table("games", recreate="never") as batch:
        batch.drop_column("clock_at")
