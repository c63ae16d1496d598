"""Request and response bodies of the HTTP API (kept apart from the DB and engine types)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, WithJsonSchema
from pydantic_core import PydanticCustomError

from app.validation import NAME_MAX, OPTIONS, PREFS, BoundsError, JsonBounds, check_json, clean_name


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _name(value: str) -> str:
    try:
        return clean_name(value)
    except ValueError as exc:
        # A custom error: the 422 then reads "body.name: a name may not contain U+0000 (...)",
        # without pydantic's "Value error, " prefix, and its detail type is "bad_name".
        raise PydanticCustomError("bad_name", str(exc)) from None


DisplayName = Annotated[
    str,
    AfterValidator(_name),
    WithJsonSchema({"type": "string", "minLength": 1, "maxLength": NAME_MAX}),
]
"""A player's display name: no control, format or bidi characters; 1 to 40 characters once trimmed."""


def _bounded(bounds: JsonBounds, kind: str) -> AfterValidator:
    def check(value: dict[str, Any]) -> dict[str, Any]:
        try:
            check_json(value, bounds)
        except BoundsError as exc:
            raise PydanticCustomError(f"bad_{kind}", str(exc)) from None
        return value

    return AfterValidator(check)


Prefs = Annotated[dict[str, Any], _bounded(PREFS, "prefs")]
"""Seat prefs, bounded (app.validation.PREFS); the room checks them against the game's own schema."""
Options = Annotated[dict[str, Any], _bounded(OPTIONS, "options")]
"""Table options, bounded in size (app.validation.OPTIONS); the game's options model checks the rest."""
PlayerId = Annotated[str, StringConstraints(min_length=1, max_length=64, pattern="^[0-9A-Za-z_-]+$")]


class PlayerCreate(_In):
    name: DisplayName = Field(description="Display name shown at the table (trimmed, 1 to 40 characters).")


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
    options: Options = Field(default_factory=dict)
    public: bool = True


class RoomUpdate(_In):
    options: Options | None = Field(
        default=None, description="Options to change; the others keep their current values."
    )
    public: bool | None = None


class SeatRequest(_In):
    seat: int | None = Field(default=None, description="A seat number; omitted = the first free seat.")
    prefs: Prefs = Field(
        default_factory=dict,
        description='Per-seat choices, e.g. `{"colour": "G"}`: at most 8 keys of a-z and _ (1 to 32 '
        "characters), each null, true/false, a string of up to 64 characters or an integer.",
    )


class BotRequest(_In):
    seat: int | None = Field(default=None, description="An empty seat; omitted = the first free seat.")


class TeamsRequest(_In):
    teams: list[Annotated[list[PlayerId], Field(max_length=8)]] = Field(
        description="Player ids per team, e.g. two teams of two for Leekha 2 vs 2; "
        "teammates are then seated opposite each other.",
        max_length=8,
    )


class SeatOut(BaseModel):
    seat: int
    player_id: str
    name: str
    connected: bool
    prefs: dict[str, Any]
    bot: bool = Field(default=False, description="A bot the host seated plays this seat.")
    standin: bool = Field(
        default=False,
        description="A bot plays for the player: gone past the seat-hold time, or left the running game.",
    )
    left: bool = Field(
        default=False,
        description="The player left the running game; they can take the seat back (`POST .../seats`) "
        "or the host can remove them (`DELETE .../members/{player_id}`).",
    )
    removed: bool = Field(
        default=False, description="The host removed the player who left; a bot plays the seat to the end."
    )


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


class RoomPageOut(BaseModel):
    rooms: list[RoomSummary] = Field(description="Public rooms waiting for players, newest first.")
    next: str | None = Field(
        description="Pass as `cursor` for the following page; null on the last page.",
    )


class MembershipOut(BaseModel):
    role: str
    seat: int | None


class ErrorOut(BaseModel):
    code: str = Field(description="Stable error code, e.g. SEAT_TAKEN.")
    message: str = Field(description="A sentence for the player.")


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error bodies a router answers with, for the OpenAPI document: 422 for bad bodies and
    503 ``SERVER_ERROR`` (with ``Retry-After``) when the database could not answer are included."""
    return {status: {"model": ErrorOut} for status in sorted({*statuses, 422, 503})}


class Health(BaseModel):
    status: str = Field(description='"ok".')
    database: str = Field(description='"ok": a trivial query answered in time.')
    rooms: int = Field(description="Rooms held in memory.")
    process: str | None = Field(
        default=None, description="This process's id among those sharing the rooms (BORDET_REDIS_URL)."
    )
    redis: str | None = Field(
        default=None, description='With BORDET_REDIS_URL, "ok": Redis answered a PING in time.'
    )


class HealthDegraded(ErrorOut):
    """The 503 answer: the server runs but cannot reach its database (code DATABASE_UNREACHABLE),
    or, sharing the rooms with other processes, Redis (code REDIS_UNREACHABLE)."""

    status: str = Field(description='"degraded".')
    database: str = Field(description='"unreachable": the trivial query failed or timed out; else "ok".')
    redis: str | None = Field(
        default=None, description='With BORDET_REDIS_URL, database up: "unreachable" (no PONG in time).'
    )


class MatchSeatOut(BaseModel):
    seat: int
    name: str
    bot: bool = Field(description="A bot the host seated played this seat from the start.")
    prefs: dict[str, Any]


class MatchAuditOut(BaseModel):
    """A finished match, everything needed to check it (docs/verification.md says how)."""

    id: int
    room: str
    game: str
    options: dict[str, Any] = Field(description="The options as the engine started with them.")
    players: list[MatchSeatOut]
    seed: str
    seed_hash: str = Field(description="sha256(seed), shown to every player from the start.")
    started_at: int = Field(description="Room-clock ms of the deal.")
    result: dict[str, Any] | None
    created_at: datetime
    finished_at: datetime | None
    events: int = Field(description="How many inputs the log holds.")


class MatchEventOut(BaseModel):
    seq: int
    kind: str = Field(description='"move" (a seat\'s action), "tick" (the clock), "end" (the host ended it).')
    seat: int | None
    by: str = Field(
        description='Who made it: "player", "bot" (seated by the host), "standin" (a bot playing '
        'for a person gone past the seat hold), "clock" or "host".'
    )
    action: dict[str, Any] | None = Field(description="Exactly what was sent.")
    at: int = Field(description="Room-clock ms the server took the input.")
    rtt: int | None
    timing: dict[str, Any] | None = Field(description="The race timing the server recorded with a move.")
    rulings: list[dict[str, Any]] | None = Field(description="Race rulings this input produced, with inputs.")


class MatchEventPageOut(BaseModel):
    events: list[MatchEventOut]
    next: int | None = Field(description="Pass as `after` for the following page; null on the last page.")


class ReplayFrameOut(BaseModel):
    step: int = Field(description="0 is the deal; step i follows the event at position i - 1.")
    event: MatchEventOut | None
    view: dict[str, Any] = Field(description="The game view the chosen seat (or a spectator) had.")
    hands: list[Any] = Field(
        description="Every seat's hidden cards at this step: its hand, Slap's face-down pile (top first)."
    )


class ReplayPageOut(BaseModel):
    steps: int = Field(description="How many steps the whole replay has (events + 1).")
    frames: list[ReplayFrameOut]
    next: int | None = Field(description="Pass as `start` for the following page; null on the last page.")
    result: dict[str, Any] | None = Field(description="The replayed outcome, on the page reaching the end.")


class PlayedMatchOut(BaseModel):
    id: int
    room: str
    game: str
    title: str
    status: str = Field(description='"running" or "finished" (only a finished match can be opened).')
    seat: int
    created_at: datetime
    finished_at: datetime | None


class PlayedMatchPageOut(BaseModel):
    matches: list[PlayedMatchOut] = Field(description="Newest first.")
    next: int | None = Field(description="Pass as `before` for the following page; null on the last page.")
