"""Ownership fences: a process that lost a room can never write to its event log again.

``rooms.fence``: the fencing number of the room's current owner (0 when one process serves
everything). A process that takes a room over raises it to the number its Redis lease came
with; ``events.fence``: the number the writing process held. On PostgreSQL a trigger refuses
an event whose fence is not the room's current one, and it reads the room row ``FOR SHARE``,
so a takeover's raise waits for an append in flight and an append after it sees the new
number. Events written without a fence (one process, no Redis) skip the check (the trigger's
``WHEN``), so the single-process path pays nothing.

Revision ID: 0008_redis
Revises: 0007_leaving
Create Date: 2026-12-02 04:00:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_redis"
down_revision: str | Sequence[str] | None = "0007_leaving"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

STALE_OWNER = "BF001"
"""The SQLSTATE the trigger raises; app.db.store recognises it."""

_CHECK = f"""
CREATE FUNCTION bordet_check_fence() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    current BIGINT;
BEGIN
    SELECT r.fence INTO current FROM rooms r JOIN games g ON g.room_code = r.code
        WHERE g.id = NEW.game_id FOR SHARE OF r;
    IF current IS DISTINCT FROM NEW.fence THEN
        RAISE EXCEPTION 'room fence is %, this writer holds %', current, NEW.fence
            USING ERRCODE = '{STALE_OWNER}';
    END IF;
    RETURN NEW;
END $$;
"""
_TRIGGER = """
CREATE TRIGGER events_fence BEFORE INSERT ON game_events
    FOR EACH ROW WHEN (NEW.fence IS NOT NULL) EXECUTE FUNCTION bordet_check_fence();
"""


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("fence", sa.BigInteger(), nullable=False, server_default="0"))
    with op.batch_alter_table("game_events") as batch:
        batch.add_column(sa.Column("fence", sa.BigInteger(), nullable=True))
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_CHECK)
        op.execute(_TRIGGER)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER events_fence ON game_events")
        op.execute("DROP FUNCTION bordet_check_fence()")
    for table in ("game_events", "rooms"):
        if op.get_bind().dialect.name == "sqlite":
            # SQLite drops a column in place; a batch copy of ``rooms`` would drop the table that
            # members' and games' rows point at, which foreign keys refuse.
            op.execute(f"ALTER TABLE {table} DROP COLUMN fence")
        else:
            op.drop_column(table, "fence")
