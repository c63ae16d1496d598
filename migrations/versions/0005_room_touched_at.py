"""When each room was last used, so that lobbies nobody comes back to expire.

``rooms.touched_at``: set when the room is created and each time it is put away after use
(unloaded from memory); existing rows take their ``created_at``. ``ix_rooms_status_touched_at``
lets the periodic expiry find old lobby rooms without reading the others.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02 00:00:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEX = "ix_rooms_status_touched_at"


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("touched_at", sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE rooms SET touched_at = created_at")
    op.create_index(INDEX, "rooms", ["status", "touched_at"])


def downgrade() -> None:
    op.drop_index(INDEX, table_name="rooms")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("touched_at")
