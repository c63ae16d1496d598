"""Every message of the WebSocket protocol, as pydantic models.

``docs/protocol.md`` is generated from this module (``python -m tools.protocol_doc``, ``make docs``)
and a test keeps the two in step.

Client frames are parsed with orjson and validated with one discriminated-union
adapter; the room formats its state frames (``patch`` and ``snapshot``) directly
as strings of the same shape as :class:`Patch` and :class:`Snapshot` (a test
validates real frames against these models).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter

from app.validation import ACTION, MAX_SAFE_INT, forbidden_char


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- client → server -------------------------------------------------------


def _plain(value: str) -> str:
    # Ids are echoed in answers and stored in the event log (PostgreSQL refuses NUL).
    bad = forbidden_char(value)
    if bad is not None:
        raise ValueError(f"may not contain {bad}")
    return value


PlayerRef = Annotated[str, Field(min_length=1, max_length=64, pattern="^[0-9A-Za-z_-]+$")]
"""A player id as a client names it (ids are hex; anything else is no player of ours)."""

ClientId = Annotated[str, Field(min_length=1, max_length=64), AfterValidator(_plain)]
"""An action or admin id: 1 to 64 characters of plain text (no control or format characters)."""


class Hello(_Msg):
    """First message on a new connection: authenticates it (the token is never put in the URL)."""

    type: Literal["hello"]
    token: str = Field(max_length=200, description="The guest token from `POST /api/players`.")


class Action(_Msg):
    """A game action for the sender's own seat. Answered by `ack` or `reject` with the same `id`."""

    type: Literal["action"]
    id: ClientId = Field(
        description="Client-chosen id (1-64 chars, no control characters); a retry with the same id is "
        "applied at most once.",
    )
    action: dict[str, Any] = Field(
        description='The game action, e.g. `{"type": "slap", "flip": 7}`; in any two-player game '
        '`{"type": "resign"}` resigns (the other seat wins; `NOT_TWO_PLAYERS` with more seats). '
        "An object, bounded: at most "
        f"{ACTION.max_keys} keys per object, nested at most {ACTION.max_depth} deep, lists of at most "
        f"{ACTION.max_items} items, strings of at most {ACTION.max_str} characters, integers within "
        f"±{MAX_SAFE_INT}, finite numbers; otherwise a `reject` `BAD_ACTION`."
    )
    seat: int | None = Field(default=None, description="Optional; if given it must be the sender's own seat.")


class Resync(_Msg):
    """Ask for a fresh `snapshot` (after a sequence gap or any doubt)."""

    type: Literal["resync"]


class Ping(_Msg):
    """Client clock sync: the server answers `pong` with its receive and send times."""

    type: Literal["ping"]
    id: int
    t0: float = Field(description="Client time (ms) when the ping was sent.")


class Pong(_Msg):
    """Answer to a server `ping`: echo its `id` and `t`, and give your receive and send times.

    With `t2` and `t3` the server measures the round trip without your own delay in answering and
    estimates your clock's offset (NTP style); a pong without them is not counted.
    """

    type: Literal["pong"]
    id: int
    t: int = Field(description="The server time of the ping being answered, echoed back.")
    t2: float | None = Field(
        default=None, description="Your clock (ms) when the ping arrived; send together with `t3`."
    )
    t3: float | None = Field(
        default=None,
        description="Your clock (ms) when you sent this pong; the same clock you count down with.",
    )


class Admin(_Msg):
    """A host command, the same as the lobby's HTTP call of that name. Answered by `ack` (its effect
    is in frame `seq`) or `reject` with the same `id`; anyone but the host gets `NOT_HOST`.
    """

    type: Literal["admin"]
    id: ClientId = Field(
        description="Client-chosen id (1-64 chars, no control characters), echoed in the answer."
    )
    command: Literal["seat_bot", "assign_teams", "end_match", "end_game", "remove"] = Field(
        description="seat_bot: a bot in an empty chair (`seat`, optional), before the start; "
        "assign_teams: the teams before the match (`teams`, as `PUT /api/rooms/{code}/teams`), "
        "teammates are seated opposite; end_match: end a decided match at once; end_game: end the "
        "running game as it stands, any game (scores so far, no winner; `POST .../end-game`); "
        "remove: remove `player` (in a running game only one who left; `DELETE .../members/{id}`)."
    )
    seat: int | None = Field(
        default=None, description="seat_bot: the empty seat (omitted: the first free one)."
    )
    player: PlayerRef | None = Field(default=None, description="remove: the player to remove.")
    teams: list[Annotated[list[PlayerRef], Field(max_length=8)]] | None = Field(
        default=None, max_length=8, description="assign_teams: player ids per team, e.g. `[[a, c], [b, d]]`."
    )


ClientMessage = Annotated[Hello | Action | Admin | Resync | Ping | Pong, Field(discriminator="type")]
client_message: TypeAdapter[Hello | Action | Admin | Resync | Ping | Pong] = TypeAdapter(ClientMessage)


# --- server → client -------------------------------------------------------


class Welcome(_Msg):
    """Sent once after a successful `hello`, before the first `snapshot`."""

    type: Literal["welcome"] = "welcome"
    room: str
    player_id: str
    name: str
    role: Literal["seat", "spectator", "left"]
    seat: int | None
    server_time: int = Field(description="Room clock (ms) when this was sent.")


class Snapshot(_Msg):
    """The full view for this connection: on join, on `resync`, after a slow-client reset."""

    type: Literal["snapshot"] = "snapshot"
    seq: int = Field(description="Per-connection frame number; the next `patch` has seq + 1.")
    reason: Literal["join", "resync", "seat", "reset"] = Field(
        description="join: first view; resync: you asked; seat: your view changed seat (game start); "
        "reset: your send queue overflowed and its backlog was replaced by this snapshot."
    )
    view: dict[str, Any] = Field(description='`{"room": ..., "game": ... | null}`.')


class Patch(_Msg):
    """One change of the view as RFC 6902 JSON Patch ops. `seq` is gap-free per connection."""

    type: Literal["patch"] = "patch"
    seq: int
    ops: list[dict[str, Any]]


class Ack(_Msg):
    """The action with this `id` was accepted and durably logged; its effect is in frame `seq`."""

    type: Literal["ack"] = "ack"
    id: str
    seq: int
    duplicate: bool = Field(
        default=False, description="True when this id had already been applied (code DUPLICATE_ACTION)."
    )
    code: str | None = None


class Reject(_Msg):
    """The action with this `id` was refused; nothing changed."""

    type: Literal["reject"] = "reject"
    id: str
    code: str
    message: str
    detail: dict[str, Any] | None = Field(
        default=None,
        description="Structured reasons where the game gives them, e.g. Rummy's rejected table: "
        '`{"problems": [{"code", "set", "cards", "points"?}]}` (`set` is the index of the set at fault, '
        "null for the whole table).",
    )


class Error(_Msg):
    """A problem with a frame that carries no action id (or with the connection itself)."""

    type: Literal["error"] = "error"
    code: str
    message: str


class ServerPong(_Msg):
    """Answer to a client `ping`."""

    type: Literal["pong"] = "pong"
    id: int
    t0: float
    t1: int = Field(description="Server time (room clock, ms) the ping was received.")
    t2: int = Field(description="Server time (room clock, ms) this pong was sent.")


class ServerPing(_Msg):
    """Sent by the server in a burst after the join, then every couple of seconds; answer with `pong`.

    Once the server has measured the connection it adds its estimates: show countdowns as
    `deadline - (your clock + offset)`, with the clock you put in `t2`/`t3`.
    """

    type: Literal["ping"] = "ping"
    id: int
    t: int
    offset: float | None = Field(
        default=None,
        description="Room time minus your clock (ms), from the fastest recent round trip; absent until "
        "a pong with `t2`/`t3` was measured.",
    )
    rtt: int | None = Field(
        default=None, description="The connection's round trip (ms): the smallest of the recent samples."
    )
    jitter: int | None = Field(
        default=None, description="How far (ms) the slower recent round trips lie above `rtt`."
    )


SERVER_MESSAGES: list[type[_Msg]] = [Welcome, Snapshot, Patch, Ack, Reject, Error, ServerPong, ServerPing]
CLIENT_MESSAGES: list[type[_Msg]] = [Hello, Action, Admin, Resync, Ping, Pong]


class Code(StrEnum):
    """Transport-level error codes (game rule codes come from the engines)."""

    BAD_JSON = "BAD_JSON"
    BAD_MESSAGE = "BAD_MESSAGE"
    BAD_ACTION = "BAD_ACTION"
    UNKNOWN_TYPE = "UNKNOWN_TYPE"
    TOO_LARGE = "TOO_LARGE"
    BINARY_FRAME = "BINARY_FRAME"
    AUTH_REQUIRED = "AUTH_REQUIRED"
    BAD_TOKEN = "BAD_TOKEN"
    UNKNOWN_ROOM = "UNKNOWN_ROOM"
    NOT_SEATED = "NOT_SEATED"
    NOT_YOUR_SEAT = "NOT_YOUR_SEAT"
    NO_GAME = "NO_GAME"
    DUPLICATE_ACTION = "DUPLICATE_ACTION"
    RATE_LIMITED = "RATE_LIMITED"
    SERVER_ERROR = "SERVER_ERROR"
    TOO_SLOW = "TOO_SLOW"
    TOO_MANY_CONNECTIONS = "TOO_MANY_CONNECTIONS"
    REMOVED = "REMOVED"
    LEFT = "LEFT"


CODE_DOCS: dict[Code, str] = {
    Code.BAD_JSON: "The frame is not valid JSON (error; connection stays open).",
    Code.BAD_MESSAGE: "Valid JSON but fields are missing or of the wrong type: a `reject` when the frame is "
    "an `action` or `admin` with a usable string `id`, else an `error`.",
    Code.BAD_ACTION: "The `action` of an `action` frame is not a JSON object or is out of bounds (too many "
    "keys, too deep, a list, string or integer too large, a number that is not finite, a control "
    "character); a `reject` with the frame's `id`. Games use this code too for actions their rules "
    "cannot read.",
    Code.UNKNOWN_TYPE: "The message `type` is not one of the client messages (error).",
    Code.TOO_LARGE: "The frame is over 64 KiB (error; connection stays open).",
    Code.BINARY_FRAME: "Binary frames are not part of the protocol (error; connection stays open).",
    Code.AUTH_REQUIRED: "The first frame was not a `hello` (any other message, a binary or malformed frame) "
    "or came too late (error, then close 4001).",
    Code.BAD_TOKEN: "The token is missing, malformed or not signed by this server (error, then close 4001).",
    Code.UNKNOWN_ROOM: "No room has this code, or it expired unused (error, then close 4004).",
    Code.NOT_SEATED: "Spectators cannot act; take a seat first (reject).",
    Code.NOT_YOUR_SEAT: "The action names another player's seat (reject).",
    Code.NO_GAME: "The room has no game running (reject).",
    Code.DUPLICATE_ACTION: "This action id was already applied; sent in an `ack` with `duplicate: true`.",
    Code.RATE_LIMITED: "Too many messages; this one was dropped (reject/error; connection stays open).",
    Code.SERVER_ERROR: (
        "Something failed inside the server while handling this input (an engine bug, a refused "
        "database write, a value the log cannot store; logged): it was not applied and nothing "
        "changed. Try again (reject; HTTP 503; error then close 1011 when joining)."
    ),
    Code.TOO_SLOW: "The send backlog kept overflowing despite reset snapshots (error, then close 4008).",
    Code.TOO_MANY_CONNECTIONS: "This client address already has as many WebSocket connections open as "
    "the server allows (`BORDET_SOCKETS_PER_ADDRESS`); sent at once, before any `hello` (error, then "
    "close 4029). Close another connection first.",
    Code.REMOVED: "The host removed this player from the room (error, then close 4003).",
    Code.LEFT: "This player left the room (`POST /api/rooms/{code}/leave`); error, then close 1000. "
    "Leaving a running game keeps the seat in the game: a bot plays it at once, and the player takes it "
    "back with `POST /api/rooms/{code}/seats` (or the host removes them).",
}

CLOSE_CODES: dict[int, str] = {
    1000: "normal close: the player left the room (LEFT)",
    4001: "authentication failed (AUTH_REQUIRED, BAD_TOKEN)",
    4003: "removed from the room by the host (REMOVED)",
    4004: "unknown room (UNKNOWN_ROOM)",
    4008: "too slow to keep up (TOO_SLOW)",
    4029: "too many connections open from this client address (TOO_MANY_CONNECTIONS)",
    1011: "the room could not take the connection just now (SERVER_ERROR: a failed write, or the server "
    "holds as many rooms as it can); reconnect",
    1009: "frame far above the limit (closed by the server's WebSocket layer at 1 MiB)",
    1012: "the room moved to another server process (several share the rooms, BORDET_REDIS_URL: its "
    "process lost the room, or the process relaying this connection lost the room's owner); reconnect",
    1013: "the server process holding the room did not answer and the room has no new one yet; reconnect",
}
