"""The audit of finished games: who played each match, and moves a stand-in made.

``game_seats``: one row per seat of each game (its player), so that a player's own matches are
listed from an index (``ix_game_seats_player_id_game_id``) rather than by reading every game's
``seats`` JSON; existing games get theirs from that JSON.
``game_events.actor``: NULL for a move by the seat's own player (a person, or a bot the host
seated there), ``'standin'`` for a move a bot made for a person gone past the seat hold.

Revision ID: 0006_audit
Revises: 0005
Create Date: 2026-12-02 04:00:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_audit"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEX = "ix_game_seats_player_id_game_id"


def upgrade() -> None:
    op.create_table(
        "game_seats",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_game_seats_game_id_games", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name="fk_game_seats_player_id_players"),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_game_seats"),
    )
    op.create_index(INDEX, "game_seats", ["player_id", "game_id"])
    with op.batch_alter_table("game_events") as batch:
        batch.add_column(sa.Column("actor", sa.String(length=16), nullable=True))
        batch.create_check_constraint("actor", "actor IN ('standin')")
    games = sa.table("games", sa.column("id", sa.Integer()), sa.column("seats", sa.JSON()))
    seats = sa.table(
        "game_seats",
        sa.column("game_id", sa.Integer()),
        sa.column("seat", sa.Integer()),
        sa.column("player_id", sa.String()),
    )
    bind = op.get_bind()
    rows = [
        {"game_id": game_id, "seat": seat, "player_id": entry["player_id"]}
        for game_id, entries in bind.execute(sa.select(games.c.id, games.c.seats))
        for seat, entry in enumerate(entries or [])
    ]
    if rows:
        bind.execute(sa.insert(seats), rows)


def downgrade() -> None:
    with op.batch_alter_table("game_events") as batch:
        batch.drop_constraint("actor", type_="check")
        batch.drop_column("actor")
    op.drop_index(INDEX, table_name="game_seats")
    op.drop_table("game_seats")
