"""Initial schema: players, server_keys, rooms, room_members, games, game_events.

Revision ID: 0001
Revises:
Create Date: 2026-01-01 00:00:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_players"),
    )
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_server_keys"),
    )
    op.create_table(
        "rooms",
        sa.Column("code", sa.String(length=8), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("host_id", sa.String(length=32), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["host_id"], ["players.id"], name="fk_rooms_host_id_players"),
        sa.PrimaryKeyConstraint("code", name="pk_rooms"),
    )
    op.create_index("ix_rooms_status_public", "rooms", ["status", "public"])
    op.create_table(
        "room_members",
        sa.Column("room_code", sa.String(length=8), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("prefs", sa.JSON(), nullable=False),
        sa.CheckConstraint("role IN ('seat', 'spectator')", name="ck_room_members_role"),
        sa.ForeignKeyConstraint(
            ["room_code"], ["rooms.code"], name="fk_room_members_room_code_rooms", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name="fk_room_members_player_id_players"),
        sa.PrimaryKeyConstraint("room_code", "player_id", name="pk_room_members"),
        # Spectators' seats are NULL, and NULLs never collide in a unique constraint.
        sa.UniqueConstraint("room_code", "seat", name="uq_room_members_room_code_seat"),
    )
    op.create_index("ix_room_members_player_id", "room_members", ["player_id"])
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("room_code", sa.String(length=8), nullable=False),
        sa.Column("engine", sa.String(length=32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("seed", sa.String(length=128), nullable=False),
        sa.Column("seed_hash", sa.String(length=128), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("result", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("started_at", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["room_code"], ["rooms.code"], name="fk_games_room_code_rooms"),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
    )
    op.create_index("ix_games_room_code_id", "games", ["room_code", "id"])
    op.create_index("ix_games_status", "games", ["status"])
    op.create_table(
        "game_events",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("action", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("at", sa.BigInteger(), nullable=False),
        sa.Column("rtt", sa.Integer(), nullable=True),
        sa.Column("client_id", sa.String(length=64), nullable=True),
        sa.CheckConstraint("kind IN ('move', 'tick')", name="ck_game_events_kind"),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_game_events_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "seq", name="pk_game_events"),
        # A retried client action id can never be stored twice.
        sa.UniqueConstraint("game_id", "seat", "client_id", name="uq_game_events_game_id_seat_client_id"),
    )


def downgrade() -> None:
    op.drop_table("game_events")
    op.drop_index("ix_games_status", table_name="games")
    op.drop_index("ix_games_room_code_id", table_name="games")
    op.drop_table("games")
    op.drop_index("ix_room_members_player_id", table_name="room_members")
    op.drop_table("room_members")
    op.drop_index("ix_rooms_status_public", table_name="rooms")
    op.drop_table("rooms")
    op.drop_table("server_keys")
    op.drop_table("players")
