"""Indexes for the paged public room list and the count of rooms a player hosts.

``ix_rooms_status_public_created_at_code``: ``GET /api/rooms`` reads public lobby rooms newest
first, a page at a time from a (created_at, code) cursor; the index serves the filter and the
order, so a page costs its own rows whatever the number of rooms.
``ix_rooms_host_id_status``: the unfinished rooms a player hosts, counted at each room creation.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-14 00:00:00

"""

from collections.abc import Sequence

from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LISTING = "ix_rooms_status_public_created_at_code"
HOSTED = "ix_rooms_host_id_status"


def upgrade() -> None:
    op.create_index(LISTING, "rooms", ["status", "public", "created_at", "code"])
    op.create_index(HOSTED, "rooms", ["host_id", "status"])


def downgrade() -> None:
    op.drop_index(HOSTED, table_name="rooms")
    op.drop_index(LISTING, table_name="rooms")
