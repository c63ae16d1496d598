"""Bot players, and the host's early end of a decided match in the event log.

``players.bot``: a player row the server plays for (seated by a host, never given
a token). ``game_events.kind`` gains ``'end'``.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 00:00:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


KIND = "ck_game_events_kind"
KIND_0001 = "ck_game_events_ck_game_events_kind"  # 0001's name went through the naming convention twice


def _kinds(allowed: str, old: str, new: str) -> None:
    with op.batch_alter_table("game_events") as batch:
        batch.drop_constraint(op.f(old), type_="check")
        batch.create_check_constraint(op.f(new), f"kind IN ({allowed})")


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("bot", sa.Boolean(), server_default=sa.false(), nullable=False))
    _kinds("'move', 'tick', 'end'", KIND_0001, KIND)


def downgrade() -> None:
    op.execute("DELETE FROM game_events WHERE kind = 'end'")
    _kinds("'move', 'tick'", KIND, KIND_0001)
    with op.batch_alter_table("players") as batch:
        batch.drop_column("bot")
