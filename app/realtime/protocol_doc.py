"""Generates ``docs/protocol.md``, the WebSocket protocol reference, from the code.

The message sections come from the pydantic models of :mod:`app.realtime.messages`
(docstrings, JSON schemas), the code tables from ``Code``/``CODE_DOCS`` and
``CLOSE_CODES``, the limits from :class:`app.config.Settings` defaults, and the
examples from a real (in-memory) Slap table run through the engine, the room's
view builder and its diff. Output is deterministic: no timestamps, no randomness.

Run ``python -m app.realtime.protocol_doc`` to rewrite the file, or with
``--check`` to exit 1 when the file on disk is stale (the tests do the same).

>>> text = render()
>>> text.startswith("# Bordet WebSocket protocol")
True
>>> text == render()
True
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from pydantic import BaseModel

from app.config import Settings
from app.db.store import EventLog, GameRec, Store
from app.engines import get_engine, race
from app.engines.base import IllegalAction, Move, seed_hash
from app.engines.slap import FlipKind, Phase, SlapOptions
from app.engines.slap.engine import MAX_REACTION_MS
from app.realtime.messages import (
    CLIENT_MESSAGES,
    CLOSE_CODES,
    CODE_DOCS,
    SERVER_MESSAGES,
    Ack,
    Action,
    Admin,
    Code,
    Error,
    Hello,
    Patch,
    Ping,
    Pong,
    Reject,
    Resync,
    ServerPing,
    ServerPong,
    Snapshot,
    Welcome,
)
from app.rooms.clock import ManualClock
from app.rooms.diff import diff
from app.rooms.errors import RoomError
from app.rooms.lobby import Member, validate_options
from app.rooms.replay import seat_setups
from app.rooms.room import Room
from app.rooms.table import Table
from app.security import TokenSigner
from app.validation import ACTION, MAX_SAFE_INT, NAME_MAX, OPTIONS, PREFS

ROOT = Path(__file__).resolve().parents[2]
DOC_PATH = ROOT / "docs" / "protocol.md"
WIDTH = 100
"""JSON examples are printed compactly up to this width, then broken over lines."""

# --- maintained tables (the tests keep them in step with the code) ----------------

SLAP_RULE_CODES: dict[str, tuple[str, str]] = {
    "BAD_ACTION": (
        "reject",
        "The action is malformed: not an object, no `type`, unknown extra fields, a slap without an "
        f"integer `flip`, or a `reaction_ms` that is not a whole number from 0 to {MAX_REACTION_MS}.",
    ),
    "UNKNOWN_ACTION": ("reject", "Slap has no action of that `type` (there are `nu` and `slap`)."),
    "GAME_OVER": ("reject", "The game is over: no more moves."),
    "NOT_SEATED": (
        "reject",
        "The seat is not at this table (the room normally answers the transport `NOT_SEATED` first).",
    ),
    "NU_MODE_AUTO": ("reject", 'The table plays with `nu_mode: "auto"`: the server calls Nu! itself.'),
    "WRONG_PHASE": ("reject", "Nu! is only possible in phase `AWAIT_NU` (between flips)."),
    "NOT_STARTER": ("reject", "Only the current starter (`game.starter`) may call Nu!."),
    "STALE_SLAP": (
        "reject",
        "The slap names another flip than the current one, or no cards are face up right now "
        "(before the reveal or after the flip closed). It does not count, not even as a penalty.",
    ),
    "ALREADY_SLAPPED": ("reject", "This seat already slapped the current flip."),
    "BAD_PLAYER_COUNT": (
        "HTTP 422 from `POST /api/rooms/{code}/start`",
        "Slap needs 2 to 4 players (the lobby normally answers `NOT_ENOUGH_PLAYERS` first).",
    ),
    "BAD_OPTIONS": (
        "HTTP 422 from `POST /api/rooms/{code}/start`",
        "`first_starter` names a seat beyond the players seated.",
    ),
}
"""Every ``IllegalAction`` code the Slap engine can raise: code -> (how it reaches the client, meaning)."""

RACE_FLAGS = (
    race.ABOVE_WINDOW,
    race.BELOW_WINDOW,
    race.INHUMAN,
    race.NO_SYNC,
    race.NO_REACTION,
    race.NO_STIMULUS,
)

SLAP_SHARED_MODULES = ("step", "inputs", "race", "cards", "rng", "seats", "timing")
"""Modules of ``app.engines`` that Slap uses; their ``IllegalAction`` codes would be Slap's too."""

ROOM_VIEW_KEYS: dict[str, str] = {
    "code": "The room code (also in the URL).",
    "game": 'The game id, e.g. `"slap"`.',
    "title": "The game's display title.",
    "status": '`"lobby"`, `"playing"` or `"finished"`.',
    "public": "Listed in `GET /api/rooms` while in the lobby.",
    "host": "Player id of the host.",
    "options": "The table options (validated, with every default filled in).",
    "min_players": "Players needed to start.",
    "max_players": "Seats at the table.",
    "seats": "One entry per seat: `null` (free) or `{player_id, name, connected, seat, prefs}`.",
    "spectators": "Watchers: `{player_id, name, connected}`.",
    "match": "`null` before the first game; then `{id, seed_hash, seed, started_at, result}`: `seed` and "
    "`result` stay `null` until the game ends (check `sha256(seed) == seed_hash` then).",
}

SLAP_VIEW_KEYS: dict[str, str] = {
    "game": '`"slap"`.',
    "phase": "Where the flip cycle stands (see the phases below).",
    "round": "Current round, from 1.",
    "rounds": "Rounds in the match.",
    "flip": "Flips so far in the match; grows when Nu! is called. A slap names this number.",
    "starter": "The seat that calls the next Nu!.",
    "nu_mode": '`"starter"` or `"auto"` (the server calls Nu!).',
    "deadline": "Room time (ms) of the phase's next timer; `null` while a flip is open (it would tell "
    "whether the flip holds a pair).",
    "reveal_at": "Room time (ms) when the called flip turns (or turned) face up; set in `NU_CALLED`, "
    "`FLIP_OPEN`, `RACE`.",
    "round_started_at": "Room time (ms) the round began.",
    "time_limit_at": "Room time (ms) of the round's time limit, or `null` without one.",
    "seats": "One entry per seat: `{colour, pile, card, penalties, slapped}`.",
    "totals": "Match points per seat.",
    "scores": "One record per finished round: `{round, end, counts, placement, penalties, scores}`.",
    "last": "The last closed flip: `{flip, kind, winner, tied, pairs, claims, reveal_at, closed_at}`; "
    "each claim is `{seat, arrival, at, reaction, claimed, credit, flags}` (see the race ruling below). "
    "No card ids.",
    "winners": "Winning seats once the match is over, else `[]`.",
    "you": "Your seat, or `null` for spectators.",
    "legal": "The actions you may send right now (see above).",
}

SLAP_SEAT_KEYS: dict[str, str] = {
    "colour": "`Y`, `G`, `P` or `B`.",
    "pile": "Cards left face down in the seat's pile (a count, never the cards).",
    "card": "The seat's face-up card while a flip is open, else `null`. A card id is the colour and a "
    'two-digit number 01-10, e.g. `"G07"`.',
    "penalties": "Slaps on flips without a pair this round.",
    "slapped": "Whether the seat has slapped the current flip.",
}

SLAP_ACTIONS = [
    ("Nu!", '`AWAIT_NU`, by the starter, with `nu_mode: "starter"`', '`{"type": "nu"}` (no other fields)'),
    (
        "Slap",
        "`FLIP_OPEN` or `RACE`, once per flip",
        '`{"type": "slap", "flip": <game.flip>, "reaction_ms": <int, optional>}`',
    ),
]

SLAP_PHASES: dict[str, str] = {
    "ROUND_SETUP": "Transient while dealing; never seen in a view.",
    "AWAIT_NU": "Between flips: the starter may call Nu! (the server does after `nu_auto_ms`).",
    "NU_CALLED": "Nu! was called; the cards turn at `reveal_at`.",
    "FLIP_OPEN": "One card per seat is face up; slap now if two show the same number.",
    "RACE": "Someone slapped a pair; later slaps count until nobody who has not slapped could still win "
    "(at most `race_window_ms` after the first).",
    "FLIP_RESULT": "The flip closed; `last` tells how. Pause, then `AWAIT_NU`.",
    "ROUND_OVER": "The round ended; `scores` has its record. Pause, then the next round.",
    "MATCH_OVER": "The match ended; `winners` is set.",
}

FIELD_NOTES: dict[tuple[str, str], str] = {
    ("Ping", "id"): "Client-chosen; echoed in the `pong`.",
    ("Pong", "id"): "The `id` of the server `ping` being answered.",
    ("Welcome", "room"): "The room code.",
    ("Welcome", "player_id"): "Your player id (as in the view's `seats` and `spectators`).",
    ("Welcome", "name"): "Your display name.",
    ("Welcome", "role"): "Whether you hold a seat or watch; `left`: you left the running game and watch "
    "while a bot plays your seat, until you take it back (`POST /api/rooms/{code}/seats`).",
    ("Welcome", "seat"): "Your seat number, or `null` for a spectator.",
    ("Patch", "seq"): "Exactly one more than the previous `snapshot`/`patch` on this connection.",
    ("Patch", "ops"): "RFC 6902 operations (`add`, `remove`, `replace`) on the view; apply in order.",
    ("Ack", "id"): "The `id` of the action.",
    ("Ack", "seq"): "The frame (`snapshot`/`patch`) that carries the action's effect, already sent.",
    ("Ack", "code"): "`DUPLICATE_ACTION` on a duplicate, else absent.",
    ("Reject", "id"): "The `id` of the action.",
    ("Reject", "code"): "A transport code (below) or a game rule code (below).",
    ("Reject", "message"): "For the player; do not match on it.",
    ("Error", "code"): "A transport code (below).",
    ("Error", "message"): "For the player; do not match on it.",
    ("ServerPong", "id"): "The `id` of your `ping`.",
    ("ServerPong", "t0"): "Your `t0`, echoed.",
    ("ServerPing", "id"): "Answer with a `pong` carrying this `id`.",
    ("ServerPing", "t"): "Server time (room clock, ms) when sent; echo it in the `pong`.",
}
"""Field descriptions for fields whose schema has none (the schema's own description wins)."""


# --- source scans -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CodeSite:
    """One place in the source that raises an error with a literal code."""

    code: str | None
    """None when the code is not a string literal (the scan cannot tell it)."""
    path: str
    line: int
    message: str
    status: int | None = None


def _call_name(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _text(node: ast.expr | None) -> str:
    """A message argument as text; f-string fields become ``{expression}``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        out = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                out.append(str(part.value))
            elif isinstance(part, ast.FormattedValue):
                out.append("{" + ast.unparse(part.value) + "}")
        return "".join(out)
    return "" if node is None else "{" + ast.unparse(node) + "}"


def _calls(paths: Iterable[Path], name: str) -> Iterator[tuple[str, ast.Call]]:
    for path in sorted(paths):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        rel = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.as_posix()
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _call_name(node) == name:
                yield rel, node


def _arg(node: ast.Call, index: int, keyword: str) -> ast.expr | None:
    if len(node.args) > index:
        return node.args[index]
    return next((k.value for k in node.keywords if k.arg == keyword), None)


def _literal(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def slap_source_paths() -> list[Path]:
    engines = ROOT / "app" / "engines"
    return sorted([*(engines / "slap").glob("*.py"), *(engines / f"{m}.py" for m in SLAP_SHARED_MODULES)])


def illegal_action_sites(paths: Iterable[Path] | None = None) -> list[CodeSite]:
    """Every ``IllegalAction(code, message)`` construction in the Slap engine's source."""
    found = []
    for rel, call in _calls(slap_source_paths() if paths is None else paths, IllegalAction.__name__):
        code_arg, message_arg = _arg(call, 0, "code"), _arg(call, 1, "message")
        found.append(CodeSite(_literal(code_arg), rel, call.lineno, _text(message_arg)))
    return found


def lobby_sites() -> list[CodeSite]:
    """Every ``RoomError(code, message, status)`` in ``app/`` and every literal JSON error response."""
    paths = [p for p in (ROOT / "app").rglob("*.py") if p.name != "protocol_doc.py"]
    default_status = RoomError("X", "x").status
    found = []
    for rel, call in _calls(paths, RoomError.__name__):
        status_arg = _arg(call, 2, "status")
        status = default_status if status_arg is None else ast.literal_eval(status_arg)
        code_arg, message_arg = _arg(call, 0, "code"), _arg(call, 1, "message")
        found.append(CodeSite(_literal(code_arg), rel, call.lineno, _text(message_arg), status))
    for rel, call in _calls(paths, "JSONResponse"):
        body, status_arg = _arg(call, 0, "content"), _arg(call, 1, "status_code")
        if not isinstance(body, ast.Dict) or not isinstance(status_arg, ast.Constant):
            continue
        if not isinstance(status_arg.value, int):
            continue
        fields = {_literal(k): v for k, v in zip(body.keys, body.values, strict=True) if k is not None}
        code = _literal(fields.get("code"))
        if code is not None:
            message = _text(fields.get("message"))
            found.append(CodeSite(code, rel, call.lineno, message, status_arg.value))
    return found


# --- an example table, run through the real engine, room views and diff ------------------------


ANA = "5f0c1b2a9e8d4c3b8a7f6e5d4c3b2a19"
BO = "7a6b5c4d3e2f40a1b2c3d4e5f6a7b8c9"
EVE = "0e1d2c3b4a5948372615f4e3d2c1b0a9"
ROOM_CODE = "K7MPQ2"
START = 1_000_000


@dataclass(frozen=True, slots=True)
class Examples:
    client: dict[type[BaseModel], list[BaseModel]]
    server: dict[type[BaseModel], list[BaseModel]]
    room_view: dict[str, Any]
    game_view: dict[str, Any]
    reveal_ops: list[dict[str, Any]]


def _jsonable(value: Any) -> Any:
    """A deep copy through JSON (the diff's ops share objects with the views)."""
    return json.loads(json.dumps(value))


def build_examples() -> Examples:
    """A two-seat Slap table with a spectator: join, start, Nu!, a refused Nu!, the reveal."""
    engine = get_engine("slap")
    clock = ManualClock(start=START)
    room = Room(
        code=ROOM_CODE,
        game="slap",
        options=validate_options(engine, {"first_starter": 0}),
        public=True,
        host_id=ANA,
        status="lobby",
        # The view builders never touch the store or the log; no I/O happens here.
        store=cast(Store, None),
        event_log=cast(EventLog, None),
        clock=clock,
    )
    room.lobby.members = {
        ANA: Member(ANA, "Ana", "seat", 0, {"colour": "Y"}, connections=1),
        BO: Member(BO, "Bo", "seat", 1, {"colour": "B"}, connections=1),
        EVE: Member(EVE, "Eve", "spectator", None, connections=1),
    }
    lobby = _jsonable(room.view_for(room.key_of(ANA)))
    welcome = Welcome(room=ROOM_CODE, player_id=ANA, name="Ana", role="seat", seat=0, server_time=room.now())
    join = Snapshot(seq=1, reason="join", view=lobby)

    # What start_game does, without the database.
    seats = [{"player_id": m.player_id, "name": m.name, "prefs": m.prefs} for m in room.members.values()]
    seats = [s for s in seats if s["player_id"] != EVE]
    seed = "0123456789abcdef0123456789abcdef"
    state = engine.start(seat_setups(seats), engine.options_model.model_validate(room.options), seed, START)
    rec = GameRec(
        id=1,
        room_code=ROOM_CODE,
        engine="slap",
        options=room.options,
        seats=seats,
        seed=seed,
        seed_hash=seed_hash(seed),
        status="running",
        result=None,
        started_at=START,
    )
    game = Table(rec=rec, engine=engine, state=state, committed=state, next_seq=1)
    room.game, room.lobby.status = game, "playing"
    room.frames.invalidate()
    started = _jsonable(room.view_for(0))

    clock.advance(640)
    game.state = engine.apply(game.state, Move(seat=0, action={"type": "nu"}, at=room.now(), rtt=48))
    called = _jsonable(room.view_for(0))
    nu_patch = Patch(seq=3, ops=_jsonable(diff(started, called)))
    try:
        engine.apply(game.state, Move(seat=1, action={"type": "nu"}, at=room.now() + 25, rtt=61))
        raise AssertionError("the example's second Nu! should have been refused")
    except IllegalAction as exc:
        refused = Reject(id="b1", code=exc.code, message=exc.message)

    reveal_at = engine.next_deadline(game.state)
    assert reveal_at is not None
    clock.advance(reveal_at - room.now())
    game.state = engine.tick(game.state, room.now())
    revealed = _jsonable(room.view_for(0))
    flip = revealed["game"]["flip"]

    token = TokenSigner("example-secret").sign(ANA)
    client: dict[type[BaseModel], list[BaseModel]] = {
        Hello: [Hello(type="hello", token=token)],
        Action: [
            Action(type="action", id="a1", action={"type": "nu"}),
            Action(type="action", id="a2", action={"type": "slap", "flip": flip, "reaction_ms": 312}),
        ],
        Admin: [
            Admin(type="admin", id="h1", command="seat_bot", seat=3),
            Admin(type="admin", id="h2", command="assign_teams", teams=[[ANA, "p3"], ["p2", "p4"]]),
            Admin(type="admin", id="h3", command="end_match"),
        ],
        Resync: [Resync(type="resync")],
        Ping: [Ping(type="ping", id=1, t0=52341.5)],
        Pong: [Pong(type="pong", id=4, t=START + 2140, t2=52360.2, t3=52360.9)],
    }
    server: dict[type[BaseModel], list[BaseModel]] = {
        Welcome: [welcome],
        Snapshot: [join],
        Patch: [nu_patch],
        Ack: [
            Ack(id="a1", seq=3),
            Ack(id="a1", seq=5, duplicate=True, code=Code.DUPLICATE_ACTION),
        ],
        Reject: [refused],
        Error: [Error(code=Code.BAD_JSON, message="That frame is not valid JSON.")],
        ServerPong: [ServerPong(id=1, t0=52341.5, t1=START + 23, t2=START + 23)],
        ServerPing: [
            ServerPing(id=1, t=START + 1),
            ServerPing(id=4, t=START + 2140, offset=START - 52341.5 + 9.3, rtt=48, jitter=5),
        ],
    }
    return Examples(client, server, lobby["room"], revealed["game"], _jsonable(diff(called, revealed)))


# --- rendering ------------------------------------------------------------------------


def pretty(value: Any, level: int = 0, start: int = 0) -> str:
    """JSON, one line when it fits in ``WIDTH`` columns, else one member per line.

    >>> print(pretty({"a": [1, 2], "b": {"c": None}}))
    {"a": [1, 2], "b": {"c": null}}
    >>> print(pretty({"k": "x" * 60, "l": ["y" * 40, 1]}))
    {
      "k": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
      "l": ["yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy", 1]
    }
    """
    flat = json.dumps(value, ensure_ascii=False)
    if start + len(flat) < WIDTH or not isinstance(value, dict | list) or not value:
        return flat
    pad = "  " * (level + 1)
    if isinstance(value, dict):
        items = []
        for key, item in value.items():
            head = f"{pad}{json.dumps(key, ensure_ascii=False)}: "
            items.append(head + pretty(item, level + 1, len(head)))
        return "{\n" + ",\n".join(items) + "\n" + "  " * level + "}"
    items = [pad + pretty(item, level + 1, len(pad)) for item in value]
    return "[\n" + ",\n".join(items) + "\n" + "  " * level + "]"


def wire(msg: BaseModel) -> dict[str, Any]:
    """A message as it travels: ``type`` always, other fields left at their default omitted."""
    data = msg.model_dump(mode="json")
    fields = type(msg).model_fields
    return {
        k: v
        for k, v in data.items()
        if k == "type" or fields[k].is_required() or v != fields[k].get_default(call_default_factory=True)
    }


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


def _schema_type(schema: dict[str, Any]) -> str:
    if "const" in schema:
        return f"`{json.dumps(schema['const'])}`"
    if "enum" in schema:
        return " \\| ".join(f"`{json.dumps(v)}`" for v in schema["enum"])
    if "anyOf" in schema:
        return " \\| ".join(_schema_type(s) for s in schema["anyOf"])
    kind = schema.get("type")
    if kind == "array":
        return f"array of {_schema_type(schema['items'])}" if "items" in schema else "array"
    if kind == "string":
        low, high = schema.get("minLength"), schema.get("maxLength")
        if low is not None and high is not None:
            return f"string ({low}-{high} chars)"
        if high is not None:
            return f"string (max {high} chars)"
        return "string"
    return str(kind)


def field_rows(model: type[BaseModel]) -> list[tuple[str, str, str, str]]:
    """(name, type, required, description) for each field, from the model's JSON schema."""
    schema = model.model_json_schema()
    required = set(schema.get("required", []))
    rows = []
    for name, prop in schema["properties"].items():
        description = prop.get("description") or FIELD_NOTES.get((model.__name__, name), "")
        if name == "type":
            description = description or "The message type."
        if "default" in prop and name != "type":
            description = f"{description} Default `{json.dumps(prop['default'])}`.".strip()
        # ``type`` has a default only for building server messages in Python; it is always sent.
        is_required = name in required or name == "type"
        rows.append((f"`{name}`", _schema_type(prop), "yes" if is_required else "no", _cell(description)))
    return rows


def message_type(model: type[BaseModel]) -> str:
    const = model.model_json_schema()["properties"]["type"]["const"]
    return str(const)


def message_heading(model: type[BaseModel]) -> str:
    return f"### `{message_type(model)}` (`{model.__name__}`)"


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _json_block(value: Any) -> str:
    return "```json\n" + pretty(value) + "\n```"


def _doc(model: type[BaseModel]) -> str:
    return " ".join((model.__doc__ or "").split())


def _message_section(model: type[BaseModel], examples: list[BaseModel]) -> str:
    rows = field_rows(model)
    parts = [message_heading(model), "", _doc(model), ""]
    parts.append(_table(["Field", "Type", "Required", "Description"], rows))
    for example in examples:
        parts += ["", _json_block(wire(example))]
    return "\n".join(parts)


def _lifecycle(settings: Settings, ex: Examples) -> str:
    kib = settings.max_frame_bytes // 1024
    return f"""\
## Connection lifecycle

1. **Get a token.** `POST /api/players` with `{{"name": "Ana"}}` returns a guest `token`. Lobby
   actions (create a room, take a seat, start) are HTTP calls with `Authorization: Bearer <token>`.
2. **Connect** to `ws(s)://<host>/ws/rooms/{{code}}` (one socket per room). The URL carries no
   credentials: the token is **never** put in the URL, where logs and proxies would keep it.
3. **Say hello.** The first frame must be `hello` with the token, within {settings.hello_timeout_s:g} s.
   Anything else (another message, a binary or malformed frame, or nothing) gets an `error` with
   `AUTH_REQUIRED` and close code 4001; a bad token gets `BAD_TOKEN` (4001) and an unknown room
   `UNKNOWN_ROOM` (4004). A client address that already has {settings.sockets_per_address}
   connections open gets `TOO_MANY_CONNECTIONS` and close code 4029 at once, before its `hello`.
4. **Welcome, then snapshot.** The server answers `welcome` (who you are, your role and seat, the room
   clock), then a `snapshot` (`reason: "join"`) with the full view for this connection. A player who
   is not a member yet joins as a spectator; seats are taken over HTTP.
5. **Patches.** Every later change of your view arrives as a `patch`. Snapshots and patches share one
   per-connection counter `seq` that has no gaps: each state frame has `seq` = previous + 1. A client
   that sees a gap, fails to apply a patch or has any doubt sends `resync` and gets a `snapshot` with
   `reason: "resync"`; the snapshot replaces the view, and patches continue from its `seq`.
6. **Act.** Send `action` frames with an `id` you choose. Each gets exactly one answer with that `id`:
   an `ack` (accepted and durably logged) or a `reject` (refused; nothing changed).
7. **Keep time.** Answer every server `ping` at once with a `pong` carrying your receive and send
   times; the server's next pings tell you the offset of the room clock (see clock sync).
8. **Leave** by closing the socket. The seat is kept; reconnect and say `hello` again to resume
   (you get a fresh `join` snapshot, `seq` restarts at 1 on the new connection).

### The view

Every snapshot carries the whole view of this connection, and every patch edits it:

```json
{{"room": {{...}}, "game": {{...}} | null}}
```

`room` is the lobby part, the same for everyone in the room. `game` is `null` until a game starts,
then the game's view for **your seat** (spectators get the public view, which shows no more than any
player sees). When a game starts, seated players' views switch to their seat: they get a snapshot with
`reason: "seat"`. The keys of `room`:

{_table(["Key", "Meaning"], ((f"`{k}`", _cell(v)) for k, v in ROOM_VIEW_KEYS.items()))}

### Patches

A patch's `ops` are [RFC 6902](https://www.rfc-editor.org/rfc/rfc6902) JSON Patch operations on the
view, applied in order. The server only sends `add`, `remove` and `replace`; `path` is a JSON Pointer
([RFC 6901](https://www.rfc-editor.org/rfc/rfc6901), `~` escaped as `~0`, `/` as `~1`) from the view's
root, e.g. `/game/seats/1/pile`. An `add` whose path ends in `/-` appends to a list. Lists that changed
other than at their end are replaced whole. One patch is sent per connection per server turn, so a
patch may carry the effect of several actions and timers. This is how the cards of a flip appear:

{_json_block({"type": "patch", "seq": 4, "ops": ex.reveal_ops})}

### Acks, rejects and duplicates

A server turn applies the queued actions and due timers, writes them to the game's event log and
waits for the commit, then sends the state frames, then the acks. So when an `ack` arrives, the frame
whose `seq` it names (the latest state frame sent to you) has already arrived and contains the
action's effect. Rejects are sent at once, before the state frames of that turn. Actions are only
ever applied for the sender's own seat.

An action `id` is remembered per seat for the whole game, also across a server restart: a retry with
an `id` that was already applied (after a reconnect, say) is not applied again but answered `ack` with
`duplicate: true` and `code: "DUPLICATE_ACTION"` (its `seq` is then the latest state frame). So a
client may safely resend an action whose answer it never saw.

### Clock sync, both ways

All server times are **room-clock** milliseconds (integers), the clock every deadline and
`reveal_at` in the view uses.

* **Server to client** (the one that matters). The server sends `ping` with its time `t` right after
  the join (six pings within 0.25 s, three more within the next 2 s), then every
  {settings.ping_interval_s:g} s. Answer at once with `pong` echoing `id` and `t`, with `t2` = your clock
  when the ping arrived and `t3` = your clock when you send the pong (use one monotonic clock for
  everything, e.g. `performance.timeOrigin + performance.now()` in a browser). The server measures,
  per sample, `rtt = (t4 - t1) - (t3 - t2)` and `offset = ((t1 - t2) + (t4 - t3)) / 2` (t1 = `t`,
  t4 = when the pong arrived; room time = your time + offset). Over the last 16 samples it keeps the
  smallest round trip (`rtt`), the jitter band (the 90th percentile minus that) and the offset of the
  fastest sample, and sends all three in its next `ping`s. **Show every countdown as
  `deadline - (your clock + offset)`.** The round trip and jitter bound what a reaction race may
  credit (see the race ruling under Slap). A `pong` without `t2`/`t3` still gives a round trip
  (including your delay in answering) but no offset.
* **Client to server** (optional, if you want your own estimate). Send `ping` with `t0` = your clock;
  the server answers `pong` with `t0`, `t1` (when it received the ping) and `t2` (when it sent the
  pong). With `t3` = your clock on receipt: `offset = ((t1 - t0) + (t2 - t3)) / 2` and
  `round_trip = (t3 - t0) - (t2 - t1)`. Keep the offset of the samples with the smallest round trip.

### Limits

* Frames are JSON text: at most {kib} KiB (`TOO_LARGE`, the connection stays open); binary frames get
  `BINARY_FRAME` (before the `hello`: `AUTH_REQUIRED` and close 4001). Frames far above the limit are
  cut off by the WebSocket layer itself (close 1009 at 1 MiB).
* A frame that is not a valid message gets one answer. An `action` or `admin` frame with a usable `id`
  (a string of 1-64 characters without control characters) gets a `reject` with that `id`: code
  `BAD_ACTION` when its `action` is not an object or is out of the bounds below, else `BAD_MESSAGE`.
  Any other bad frame gets an `error` (`BAD_JSON`, `BAD_MESSAGE`, `UNKNOWN_TYPE`), with no `id`.
* Rate limits are token buckets per connection: `action` frames {settings.rate_per_s:g}/s with
  bursts of {settings.rate_burst} (over the limit: `reject` with `RATE_LIMITED`), `resync` frames
  {settings.resync_per_s:g}/s with bursts of {settings.resync_burst} (`error` with `RATE_LIMITED`).
  Pings, pongs and invalid frames are not counted. A dropped frame changes nothing; the connection
  stays open. Frames are read one at a time, and the server stops reading while this connection's
  send queue is half full: a burst is slowed down instead of overflowing the queue with its answers.
* Every connection has a send backlog bounded in bytes ({settings.send_backlog_bytes // 1024} KiB of frames;
  one frame always fits an empty backlog) and in time. The server never waits for a slow client: when
  a frame does not fit, the whole backlog is emptied (state frames, acks, rejects, pongs alike; the
  frame that did not fit is dropped too) and at the room's next turn the client gets one `snapshot`
  with `reason: "reset"` that replaces its view (its `seq` jumps forward). Frames queued after the drop
  but before that turn (the rest of the same turn, say) still go out first, so a `seq` gap may show
  before the reset snapshot arrives; resyncing on it is harmless (the view is replaced either way).
  Dropped acks and rejects are not sent again: resend (with the same `id`) an action that got no
  answer. A server `ping` that does not fit is skipped and does not count as an overflow.
  A connection that keeps overflowing is closed: the first three overflows each get a reset snapshot,
  the fourth ends the connection with an `error` `TOO_SLOW` and close code 4008.
* A frame the client does not take within {settings.write_timeout_s:g} s (it stopped reading and its
  network buffers are full) ends the connection at once: the server aborts it without a closing
  handshake (the client sees an abnormal closure, 1006) and frees what it held; the seat shows as
  disconnected to the others. So a client that stops reading during a busy game is gone within
  {settings.write_timeout_s:g} s of its first stuck write, with the `TOO_SLOW` close if it could still
  take it. Reconnecting gives a fresh snapshot.

### Bounds on what clients send

Checked where the input arrives, before any room sees it (the game then checks what it means, e.g.
that a Slap `colour` is one of Y, G, P, B). A string may never hold a control character (Unicode
category Cc, NUL included), an invisible format character (category Cf: U+200B..U+200F, U+FEFF, ...),
a bidirectional control (U+202A..U+202E, U+2066..U+2069, U+061C), U+2028/U+2029 or a lone surrogate.
Integers must lie within ±{MAX_SAFE_INT} (2^53 - 1, exact in every JSON reader).

{_bounds_table()}

Over HTTP a refusal is a 422 with code `BAD_REQUEST`, a `message` naming the place and the rule
(`body.prefs: colour: strings are at most {PREFS.max_str} characters`) and a `detail` list of at most
10 `{{loc, msg, type}}` (`type` is `bad_name`, `bad_prefs` or `bad_options` for the rules here; a
message never quotes what was sent: a character is named by its code point, e.g. `U+202E`). A body
that is not UTF-8 gets a 400 `BAD_REQUEST`. On the socket an action out of bounds gets a `reject`
`BAD_ACTION`.
"""


def _bounds_table() -> str:
    def lists(items: int) -> str:
        return f"at most {items} items" if items else "none"

    rows = [
        (
            "Display name (`POST /api/players`)",
            f"1 to {NAME_MAX} characters once trimmed (spaces at the ends are removed)",
            "-",
            "-",
        ),
        (
            "Seat prefs (`POST /api/rooms/{code}/seats`)",
            f"at most {PREFS.max_keys} keys of a-z and _ (1 to {PREFS.max_key} characters); each value "
            f"null, true, false, a string of at most {PREFS.max_str} characters or an integer",
            "flat",
            lists(PREFS.max_items),
        ),
        (
            "Table options (`POST /api/rooms`, `PATCH /api/rooms/{code}`)",
            f"at most {OPTIONS.max_keys} keys (1 to {OPTIONS.max_key} characters) per object, strings of "
            f"at most {OPTIONS.max_str} characters, finite numbers, {OPTIONS.max_nodes} values in all",
            f"{OPTIONS.max_depth}",
            lists(OPTIONS.max_items),
        ),
        (
            "The `action` of an `action` frame",
            f"at most {ACTION.max_keys} keys (1 to {ACTION.max_key} characters) per object, strings of "
            f"at most {ACTION.max_str} characters, finite numbers, {ACTION.max_nodes} values in all",
            f"{ACTION.max_depth}",
            lists(ACTION.max_items),
        ),
        ("Action and admin `id`", "1 to 64 characters", "-", "-"),
    ]
    return _table(["What", "Bounds", "Nesting", "Lists"], rows)


def _codes_section() -> str:
    missing = [c for c in Code if c not in CODE_DOCS]
    if missing:
        raise ValueError(f"Code members without CODE_DOCS entries: {missing}")
    codes = _table(["Code", "Meaning"], ((f"`{c.value}`", _cell(CODE_DOCS[c])) for c in Code))
    closes = _table(["Close code", "Meaning"], ((f"`{k}`", _cell(v)) for k, v in sorted(CLOSE_CODES.items())))
    return f"""\
## Transport error codes

Sent in `error` frames (no action involved) or `reject` frames (answering an `action`). Match on the
code, never on the message.

{codes}

## Close codes

The server sends an `error` frame with the reason, then closes with one of these codes.

{closes}
"""


def _slap_codes_section() -> str:
    rows = ((f"`{code}`", _cell(where), _cell(meaning)) for code, (where, meaning) in SLAP_RULE_CODES.items())
    return f"""\
## Game rule codes (Slap)

Raised by the Slap engine for moves its rules do not allow. During a game they come back as a `reject`
of the action; the two raised when a game starts come back from the HTTP start call.

{_table(["Code", "Sent as", "Meaning"], rows)}
"""


def _lobby_section() -> str:
    by_code: dict[str, tuple[set[int], list[str]]] = {}
    for site in lobby_sites():
        if site.code is None:
            continue
        statuses, messages = by_code.setdefault(site.code, (set(), []))
        if site.status is not None:
            statuses.add(site.status)
        message = site.message + (" (test-clock servers only)" if site.path == "app/api/testing.py" else "")
        if message not in messages:
            messages.append(message)
    rows = (
        (f"`{code}`", ", ".join(str(s) for s in sorted(statuses)), _cell(" / ".join(messages)))
        for code, (statuses, messages) in sorted(by_code.items())
    )
    return f"""\
## Lobby (HTTP) error codes

The HTTP API answers errors with `{{"code": ..., "message": ...}}` and the status below (collected from
the source). Engine codes raised when a game starts (above) come back with status 422.

{_table(["Code", "HTTP status", "Message"], rows)}
"""


def _slap_section(ex: Examples) -> str:
    options = SlapOptions.model_json_schema()["properties"]
    option_rows = (
        (f"`{name}`", f"`{json.dumps(prop.get('default'))}`", _cell(prop.get("description", "")))
        for name, prop in options.items()
    )
    return f"""\
## Slap actions and view

Slap has two actions, sent as the `action` of an `action` frame. The view's `legal` lists the ones you
may send right now (a `slap` is offered on every open flip, pair or not: it would give the pair away).

{_table(["Action", "When", "Shape"], SLAP_ACTIONS)}

`reaction_ms` is the time from the cards being painted on your screen to your slap (0 to
{MAX_REACTION_MS}): the first animation frame after the frame that turned them over was applied to
the page, to the input event's own timestamp. A slap on a flip without a pair is accepted but counts
as a penalty.

**The race ruling.** A slap is ranked by its effective reaction time, worked out from the time the
server wrote the reveal to *your* connection, your slap's arrival, your `reaction_ms` and your link's
clock-sync figures. The network time your slap implies (`arrival - sent - reaction_ms`) is credited as
long as it lies in what the clock sync observed (your round trip, up to your jitter band plus one
frame above it) and at most `max_credit_ms`; what lies outside is not credited and the claim is
flagged. So an honest client is judged by its own reaction time whatever its latency, and a client
that under-reports gains at most its jitter plus one frame. Reaction times within `tie_margin_ms` are
a tie (a seeded draw), except that a claim flagged `ABOVE_WINDOW` or `INHUMAN` loses a tie to an
unflagged one. The race closes as soon as no seat that has not slapped could still win or tie. Each
claim of `last.claims`: `reaction` (effective, ms after your screen showed the cards: "Ana 212 ms,
Bo 231 ms"), `claimed` (your `reaction_ms`), `credit` (network time forgiven), `at` (the ranking
time: `reveal_at` + `reaction`, never less than 100 ms after it), `arrival` and `flags`:
{", ".join(f"`{f}`" for f in RACE_FLAGS)}. The full ruling with every input is kept in the game's
event log.

The game view (`view.game`) has these keys:

{_table(["Key", "Meaning"], ((f"`{k}`", _cell(v)) for k, v in SLAP_VIEW_KEYS.items()))}

Each entry of `seats`:

{_table(["Key", "Meaning"], ((f"`{k}`", _cell(v)) for k, v in SLAP_SEAT_KEYS.items()))}

Phases (`phase`):

{_table(["Phase", "Meaning"], ((f"`{p.value}`", _cell(SLAP_PHASES[p.value])) for p in Phase))}

A closed flip's `last.kind` is one of {", ".join(f"`{k.value}`" for k in FlipKind)}.
Seat 0's view of an open flip:

{_json_block(ex.game_view)}

Table options (`room.options`, set in the lobby):

{_table(["Option", "Default", "Meaning"], option_rows)}
"""


def render() -> str:
    """The whole of ``docs/protocol.md``."""
    settings = Settings()
    ex = build_examples()
    for model in (*CLIENT_MESSAGES, *SERVER_MESSAGES):
        if model not in ex.client and model not in ex.server:
            raise ValueError(f"no example for {model.__name__}")
    toc = [
        "- [Connection lifecycle](#connection-lifecycle)",
        "- [Client → server messages](#client--server-messages)",
        "- [Server → client messages](#server--client-messages)",
        "- [Transport error codes](#transport-error-codes), [close codes](#close-codes)",
        "- [Game rule codes (Slap)](#game-rule-codes-slap)",
        "- [Slap actions and view](#slap-actions-and-view)",
        "- [Lobby (HTTP) error codes](#lobby-http-error-codes)",
    ]
    parts = [
        "# Bordet WebSocket protocol",
        "",
        "<!-- Generated by `python -m app.realtime.protocol_doc` from app/realtime/messages.py and the "
        "engines; do not edit by hand. -->",
        "",
        "Real-time play goes over one WebSocket per room and player. Every frame is a JSON object with a "
        "`type`. The server is the referee: clients send intentions (`action`), the server decides and "
        "sends everyone the resulting view.",
        "",
        *toc,
        "",
        _lifecycle(settings, ex),
        "## Client → server messages",
        "",
        "\n\n".join(_message_section(m, ex.client[m]) for m in CLIENT_MESSAGES),
        "",
        "## Server → client messages",
        "",
        "\n\n".join(_message_section(m, ex.server[m]) for m in SERVER_MESSAGES),
        "",
        _codes_section(),
        _slap_codes_section(),
        _slap_section(ex),
        _lobby_section(),
    ]
    return "\n".join(parts).rstrip() + "\n"


def main(argv: Sequence[str] | None = None, path: Path = DOC_PATH) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.realtime.protocol_doc", description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 if the file on disk is not current")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current != text:
            print(f"{path} is stale; run python -m app.realtime.protocol_doc", file=sys.stderr)
            return 1
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
