"""Request and response bodies of the HTTP API (kept apart from the DB and engine types)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PlayerCreate(_In):
    name: str = Field(min_length=1, max_length=40, description="Display name shown at the table.")


class PlayerOut(BaseModel):
    id: str
    name: str


class PlayerWithToken(PlayerOut):
    token: str = Field(description="Send as `Authorization: Bearer <token>` and in the WebSocket hello.")


class GameInfo(BaseModel):
    id: str
    title: str
    min_players: int
    max_players: int
    options_schema: dict[str, Any] = Field(description="JSON Schema of the game's options.")


class RoomCreate(_In):
    game: str = Field(description="A game id from `GET /api/games`.")
    options: dict[str, Any] = Field(default_factory=dict)
    public: bool = True


class RoomUpdate(_In):
    options: dict[str, Any] | None = None
    public: bool | None = None


class SeatRequest(_In):
    seat: int | None = Field(default=None, description="A seat number; omitted = the first free seat.")
    prefs: dict[str, Any] = Field(
        default_factory=dict, description='Per-seat choices, e.g. `{"colour": "G"}`.'
    )


class SeatOut(BaseModel):
    seat: int
    player_id: str
    name: str
    connected: bool
    prefs: dict[str, Any]


class MemberOut(BaseModel):
    player_id: str
    name: str
    connected: bool


class MatchOut(BaseModel):
    id: int
    seed_hash: str
    seed: str | None = Field(description="Revealed when the game ends: check sha256(seed) == seed_hash.")
    started_at: int
    result: dict[str, Any] | None


class RoomOut(BaseModel):
    code: str
    link: str
    game: str
    title: str
    status: str
    public: bool
    host: str
    options: dict[str, Any]
    min_players: int
    max_players: int
    seats: list[SeatOut | None]
    spectators: list[MemberOut]
    match: MatchOut | None


class RoomSummary(BaseModel):
    code: str
    link: str
    game: str
    title: str
    status: str
    players: int
    max_players: int


class MembershipOut(BaseModel):
    role: str
    seat: int | None


class ErrorOut(BaseModel):
    code: str
    message: str


class Health(BaseModel):
    status: str
    rooms: int
