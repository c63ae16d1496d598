"""docs/protocol.md is generated and current, and the models it documents match what the server sends.

The last two tests run a real server (tests/integration) and validate every frame
the clients receive against the server message model of its ``type``.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel
from websockets.exceptions import ConnectionClosed

import tools.protocol_doc as protocol_doc
from app.engines import ENGINES
from app.realtime.messages import (
    CLIENT_MESSAGES,
    CLOSE_CODES,
    SERVER_MESSAGES,
    Ack,
    Code,
    Patch,
    ServerPong,
    Snapshot,
    client_message,
)
from tests.integration.client import TIMEOUT, Api, Client

# The real-server fixtures (imported here: they are used by name).
from tests.integration.conftest import api, server, sqlite_url  # noqa: F401
from tests.integration.server import ServerProcess
from tests.integration.slap_driver import step
from tools.protocol_doc import render
from tools.protocol_doc.examples import build_examples
from tools.protocol_doc.games import COMMON_RULE_CODES
from tools.protocol_doc.markdown import FIELD_NOTES, field_rows, message_heading, message_type, wire
from tools.protocol_doc.paths import DOC_PATH, ROOT
from tools.protocol_doc.transport import ROOM_VIEW_KEYS

SERVER_MODELS: dict[str, type[BaseModel]] = {message_type(m): m for m in SERVER_MESSAGES}

KNOWN_UNDOCUMENTED: set[str | int] = set()
"""Codes the server sends on the socket that messages.py does not document (none today)."""


@pytest.fixture(scope="module")
def doc() -> str:
    return render()


def section(doc: str, heading: str) -> str:
    """The text under ``heading`` up to the next heading of the same or a higher level."""
    start = doc.index(heading + "\n")
    level = heading.split(" ", 1)[0]
    ends = [doc.find(f"\n{'#' * n} ", start + len(heading)) for n in range(2, len(level) + 1)]
    ends = [e for e in ends if e != -1]
    return doc[start : min(ends)] if ends else doc[start:]


# --- the document -----------------------------------------------------------------


def test_doc_on_disk_is_current(doc: str) -> None:
    on_disk = DOC_PATH.read_text(encoding="utf-8") if DOC_PATH.exists() else ""
    assert on_disk == doc, "docs/protocol.md is stale: run python -m tools.protocol_doc"


def test_render_is_deterministic(doc: str) -> None:
    assert render() == doc


def test_check_mode_reports_a_stale_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "protocol.md"
    assert protocol_doc.main(["--check"], path=path) == 1
    assert protocol_doc.main([], path=path) == 0
    assert protocol_doc.main(["--check"], path=path) == 0
    path.write_text(path.read_text(encoding="utf-8") + "edited\n", encoding="utf-8")
    assert protocol_doc.main(["--check"], path=path) == 1
    assert "run python -m tools.protocol_doc" in capsys.readouterr().err


@pytest.mark.parametrize("model", [*CLIENT_MESSAGES, *SERVER_MESSAGES], ids=lambda m: m.__name__)
def test_every_message_is_documented(doc: str, model: type[BaseModel]) -> None:
    where = "## Client → server messages" if model in CLIENT_MESSAGES else "## Server → client messages"
    text = section(section(doc, where), message_heading(model))
    assert " ".join((model.__doc__ or "").split()) in text
    for name, field in model.model_fields.items():
        assert f"| `{name}` |" in text, f"{model.__name__}.{name} is not in the field table"
        if field.description:
            assert " ".join(field.description.split()).replace("|", "\\|") in text
    assert "```json" in text


def test_every_field_has_a_description() -> None:
    for model in (*CLIENT_MESSAGES, *SERVER_MESSAGES):
        for name, _type, _required, description in field_rows(model):
            assert description, f"{model.__name__}.{name} has no description"


def test_field_notes_are_not_stale() -> None:
    by_name = {m.__name__: m for m in (*CLIENT_MESSAGES, *SERVER_MESSAGES)}
    for model_name, field_name in FIELD_NOTES:
        model = by_name[model_name]
        assert field_name in model.model_fields, (model_name, field_name)
        assert not model.model_fields[field_name].description, (
            f"{model_name}.{field_name} now has a description of its own; drop it from FIELD_NOTES"
        )


def test_every_code_is_documented(doc: str) -> None:
    codes = section(doc, "## Transport error codes")
    for code in Code:
        assert f"| `{code.value}` |" in codes
    closes = section(doc, "## Close codes")
    for close in CLOSE_CODES:
        assert f"| `{close}` |" in closes


def test_examples_validate() -> None:
    ex = build_examples()
    for model, examples in ex.client.items():
        for example in examples:
            parsed = client_message.validate_json(json.dumps(wire(example)))
            assert type(parsed) is model and parsed == example
    for model, examples in ex.server.items():
        for example in examples:
            raw = wire(example)
            assert SERVER_MODELS[raw["type"]] is model
            assert model.model_validate_json(json.dumps(raw), strict=True) == example


# --- the tables kept by hand --------------------------------------------------------------


def _socket_codes() -> Iterator[tuple[str, int, str | int]]:
    """Error codes and close codes written as literals where the server answers on the socket."""
    paths = sorted([*(ROOT / "app" / "rooms").glob("*.py"), *(ROOT / "app" / "realtime").glob("*.py")])
    for path in paths:
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = (
                    node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                )
                if name in {"close", "_close_peers", "_reject", "reject", "_send_error", "_Refused"}:
                    for arg in [*node.args, *(k.value for k in node.keywords)]:
                        if isinstance(arg, ast.Constant) and isinstance(arg.value, int | str):
                            value = arg.value
                            if isinstance(value, int) or (value.isupper() and " " not in value):
                                yield rel, node.lineno, value
            elif isinstance(node, ast.Dict):
                pairs = {
                    k.value: v
                    for k, v in zip(node.keys, node.values, strict=True)
                    if isinstance(k, ast.Constant)
                }
                code = pairs.get("code")
                if "type" in pairs and isinstance(code, ast.Constant) and isinstance(code.value, str):
                    yield rel, node.lineno, code.value


def test_codes_sent_on_the_socket_are_documented() -> None:
    documented: set[str | int] = {c.value for c in Code} | set(COMMON_RULE_CODES) | set(CLOSE_CODES)
    documented |= {code for engine in ENGINES.values() for code in engine.protocol.rule_codes}
    found = list(_socket_codes())
    assert {v for _, _, v in found} >= {"NO_GAME", "TOO_SLOW", 4008}, "the scan found too little"
    undocumented = {v for _, _, v in found if v not in documented}
    where = sorted(f"{p}:{line} {v!r}" for p, line, v in found if v in undocumented)
    assert undocumented - KNOWN_UNDOCUMENTED == set(), f"undocumented codes on the socket: {where}"
    assert KNOWN_UNDOCUMENTED - undocumented == set(), (
        f"{sorted(map(str, KNOWN_UNDOCUMENTED - undocumented))} are documented now: "
        "drop them from KNOWN_UNDOCUMENTED"
    )


# --- real frames against the models --------------------------------------------------------


def check_frames(frames: list[str], *, first: str = "welcome", lossless: bool = True) -> Counter[str]:
    """Validate every frame of one connection; returns how many of each type (and snapshot reason).

    ``lossless``: no send queue overflowed, so state frames are gap-free and acks name the latest one.
    """
    seen: Counter[str] = Counter()
    last_seq = 0
    for index, text in enumerate(frames):
        raw: dict[str, Any] = json.loads(text)
        model = SERVER_MODELS[raw["type"]]
        msg = model.model_validate_json(text, strict=True)
        seen[raw["type"]] += 1
        if index == 0:
            assert raw["type"] == first, frames[:2]
        if isinstance(msg, Snapshot):
            seen[f"snapshot:{msg.reason}"] += 1
            if msg.reason == "reset" or not lossless:
                assert msg.seq > last_seq
            else:
                assert msg.seq == last_seq + 1, f"snapshot {msg.seq} after {last_seq}"
            last_seq = msg.seq
            assert list(msg.view) == ["room", "game"]
            assert list(msg.view["room"]) == list(ROOM_VIEW_KEYS)
            game = msg.view["game"]
            assert game is None or list(game) == list(ENGINES["slap"].protocol.view)
        elif isinstance(msg, Patch):
            assert msg.seq == last_seq + 1 or (not lossless and msg.seq > last_seq), (msg.seq, last_seq)
            last_seq = msg.seq
            for op in msg.ops:
                assert op["op"] in {"add", "remove", "replace"}, op
                assert set(op) == ({"op", "path"} if op["op"] == "remove" else {"op", "path", "value"}), op
                assert op["path"].startswith(("/room", "/game")), op
        elif isinstance(msg, Ack):
            # The ack names the latest state frame, which carries the action's effect.
            if lossless:
                assert msg.seq == last_seq, f"ack for {msg.id} names seq {msg.seq}, latest is {last_seq}"
            assert msg.duplicate == (msg.code == Code.DUPLICATE_ACTION)
        elif isinstance(msg, ServerPong):
            assert msg.t1 <= msg.t2
    return seen


async def recv_until(client: Client, kind: str) -> dict[str, Any]:
    async with asyncio.timeout(TIMEOUT):
        while True:
            msg = await client.recv()
            if msg["type"] == kind:
                return msg


async def recv_until_closed(client: Client) -> None:
    """Read until the server closes, including frames still buffered when answering a ping failed."""
    assert client.ws is not None
    async with asyncio.timeout(TIMEOUT):
        with contextlib.suppress(ConnectionClosed):
            while True:
                await client.recv()
        with contextlib.suppress(ConnectionClosed):
            while True:
                text = await client.ws.recv()
                assert isinstance(text, str)
                client.frames.append(text)
                msg = json.loads(text)
                if msg["type"] == "error":
                    client.errors.append(msg)
    assert client.ws.close_code is not None


async def test_real_frames_match_the_models(server: ServerProcess, api: Api) -> None:  # noqa: F811
    ana, bo, eve = await api.player("Ana"), await api.player("Bo"), await api.player("Eve")
    room = await api.create_room(ana["token"], "slap", {"first_starter": 0, "rounds": 1})
    code = room["code"]
    await api.sit(bo["token"], code)
    a = await Client(server.ws, code, ana["token"]).open()
    b = await Client(server.ws, code, bo["token"]).open()
    e = await Client(server.ws, code, eve["token"]).open()
    everyone = [a, b, e]

    await a.send({"type": "ping", "id": 1, "t0": 52341.5})
    pong = await recv_until(a, "pong")
    assert pong["id"] == 1 and pong["t0"] == 52341.5
    for client in everyone:  # the server's pings: a burst right after the join
        while not any('"type":"ping"' in f for f in client.frames):
            await recv_until(client, "ping")

    await api.start(ana["token"], code)
    for client in everyone:
        await client.check_in_sync()
    assert (await a.act({"type": "nu"}, "nu-1"))["type"] == "ack"
    assert (await b.act({"type": "nu"}))["code"] == "WRONG_PHASE"
    assert (await e.act({"type": "nu"}))["code"] == "NOT_SEATED"
    again = await a.act({"type": "nu"}, "nu-1")
    assert again["type"] == "ack" and again["duplicate"] is True and again["code"] == "DUPLICATE_ACTION"
    await api.advance_to_next_deadline(code)
    await a.until(lambda v: v["game"]["phase"] == "FLIP_OPEN")
    flip = a.game["flip"]
    assert (await a.act({"type": "slap", "flip": flip, "reaction_ms": 250}))["type"] == "ack"
    assert (await a.act({"type": "slap", "flip": flip}))["code"] == "ALREADY_SLAPPED"
    assert (await b.act({"type": "slap", "flip": flip + 7}))["code"] == "STALE_SLAP"
    assert (await b.act({"type": "dance"}))["code"] == "UNKNOWN_ACTION"
    await a.send({"type": "action", "id": "x1", "action": {"type": "nu"}, "seat": 1})
    assert (await a.reply("x1"))["code"] == "NOT_YOUR_SEAT"
    await a.send("{not json")
    assert (await a.next_error())["code"] == "BAD_JSON"
    await a.send({"type": "teleport"})
    assert (await a.next_error())["code"] == "UNKNOWN_TYPE"

    rng = random.Random(11)
    for _ in range(25):
        if a.game["phase"] == "MATCH_OVER":
            break
        await step(api, code, [a, b], rng)
    for client in everyone:
        await client.check_in_sync()

    # A seated player leaving during the game: an error frame, then the close.
    r = await api.call("POST", f"/api/rooms/{code}/leave", bo["token"])
    assert r.status_code == 204
    await recv_until_closed(b)
    assert b.ws is not None and b.ws.close_code == 1000
    assert b.errors[-1]["code"] == "LEFT"
    await a.close()
    await e.close()

    seen: Counter[str] = Counter()
    for client in everyone:
        seen += check_frames(client.frames)
    assert {t for t in seen if ":" not in t} == set(SERVER_MODELS), seen
    assert {"snapshot:join", "snapshot:seat", "snapshot:resync"} <= set(seen), seen


async def test_reset_snapshots_and_too_slow_match_the_models(
    sqlite_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    """With a send backlog of a few bytes (one frame always fits an empty one), every room turn
    that sends a connection two frames overflows it: each bot the host seats (the patch and the
    ack). A resync after each gets the reset snapshot, so every bot is an overflow of its own;
    the fourth closes the connection as too slow."""
    env = {"BORDET_SEND_BACKLOG_BYTES": "8"}
    srv = ServerProcess(database_url=sqlite_url, log_path=tmp_path / "server.log", env=env)
    srv.start()
    client_api = Api(srv.http)
    try:
        ana = await client_api.player("Ana")
        room = await client_api.create_room(ana["token"], "uffda", {})
        a = await Client(srv.ws, room["code"], ana["token"]).open()
        assert a.snapshots >= 1
        assert a.ws is not None
        with contextlib.suppress(ConnectionClosed):
            for i in range(6):
                await a.ws.send(json.dumps({"type": "admin", "id": f"h{i}", "command": "seat_bot"}))
                await a.ws.send(json.dumps({"type": "resync"}))
                await recv_until(a, "snapshot")
        await recv_until_closed(a)
        assert a.ws.close_code == 4008
        assert a.errors[-1]["code"] == "TOO_SLOW"
        seen = check_frames(a.frames, first="snapshot", lossless=False)
        assert seen["snapshot:reset"] >= 1, seen
    finally:
        await client_api.aclose()
        srv.stop()


def test_the_lifecycle_overview_covers_the_essentials(doc: str) -> None:
    overview = section(doc, "## Connection lifecycle")
    for fact in (
        "/ws/rooms/{code}",
        "never** put in the URL",
        '`reason: "resync"`',
        '`reason: "reset"`',
        "`add`, `remove` and `replace`",
        "offset = ((t1 - t0) + (t2 - t3)) / 2",
        "`duplicate: true`",
        "`TOO_SLOW` and close code 4008",
        "64 KiB",
        "256 KiB of frames",
        "5 s",
    ):
        assert fact in overview, fact


def test_every_table_row_has_its_header_s_cells(doc: str) -> None:
    """A ``|`` left unescaped in a cell (code spans included) would split it and shift the row."""
    columns = None
    for line in doc.splitlines():
        if not line.startswith("|"):
            columns = None
            continue
        cells = len(re.split(r"(?<!\\)\|", line)) - 2
        if columns is None:
            columns = cells
        assert cells == columns, line
