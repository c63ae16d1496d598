"""Leaving a running game, and the host's end of any game in the event log.

``room_members.role`` gains ``'left'`` (a player who left a running game: a stand-in plays the
seat until they take it back or the host removes them); ``game_events.kind`` gains ``'stop'``
(the host ended the game as it stood).

Revision ID: 0007_leaving
Revises: 0006_audit
Create Date: 2026-12-02 00:00:00

"""

from collections.abc import Sequence

from alembic import op

revision: str = "0007_leaving"
down_revision: str | Sequence[str] | None = "0006_audit"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KIND = "ck_game_events_kind"
ROLE = "ck_room_members_role"
ROLE_0001 = "ck_room_members_ck_room_members_role"  # 0001's name went through the naming convention twice


def _check(table: str, column: str, allowed: str, old: str, new: str) -> None:
    with op.batch_alter_table(table) as batch:
        batch.drop_constraint(op.f(old), type_="check")
        batch.create_check_constraint(op.f(new), f"{column} IN ({allowed})")


def upgrade() -> None:
    _check("game_events", "kind", "'move', 'tick', 'end', 'stop'", KIND, KIND)
    _check("room_members", "role", "'seat', 'spectator', 'left'", ROLE_0001, ROLE)


def downgrade() -> None:
    # A stopped game loses its last input (it reads as still running); a player who left watches.
    op.execute("DELETE FROM game_events WHERE kind = 'stop'")
    op.execute("UPDATE room_members SET role = 'spectator', seat = NULL WHERE role = 'left'")
    _check("room_members", "role", "'seat', 'spectator'", ROLE, ROLE_0001)
    _check("game_events", "kind", "'move', 'tick', 'end'", KIND, KIND)
