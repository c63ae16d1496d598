"""A real WebSocket client of the Bordet protocol, for tests and benchmarks.

It keeps the patched view exactly as a browser would, checks the frame
sequence, answers server pings and records every raw frame it received.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import time
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from app.rooms.patch import apply_patch
from tests.integration.server import ServerProcess

TIMEOUT = float(os.environ.get("BORDET_TEST_TIMEOUT", "10"))


def clock_ms() -> float:
    """The client's clock for clock sync (any monotonic clock will do)."""
    return time.monotonic() * 1000


class ProtocolBroken(AssertionError):
    pass


class Client:
    def __init__(self, ws_base: str, code: str, token: str) -> None:
        self.url = f"{ws_base}/ws/rooms/{code}"
        self.token = token
        self.ws: ClientConnection | None = None
        self.view: dict[str, Any] | None = None
        self.seq = 0
        self.frames: list[str] = []
        self.replies: dict[str, dict[str, Any]] = {}
        self.errors: list[dict[str, Any]] = []
        self.welcome: dict[str, Any] | None = None
        self.snapshots = 0
        self.resyncs = 0
        self.resync_before: dict[str, Any] | None = None
        self.closed: tuple[int | None, str | None] | None = None
        self.finished_frame: int | None = None
        """Index of the first frame after which the room showed the match as finished."""
        self._ids = itertools.count(1)
        self.pings: list[dict[str, Any]] = []
        """Every server ping received (the later ones carry the server's clock-sync estimates)."""

    async def open(self, hello: bool = True) -> Client:
        self.ws = await connect(self.url, max_size=2**22)
        if hello:
            await self.send({"type": "hello", "token": self.token})
            async with asyncio.timeout(TIMEOUT):
                while self.view is None:
                    await self.recv()
        return self

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def send(self, msg: Any) -> None:
        assert self.ws is not None
        await self.ws.send(msg if isinstance(msg, str | bytes) else json.dumps(msg))

    async def recv(self) -> dict[str, Any]:
        assert self.ws is not None
        try:
            text = await self.ws.recv()
        except Exception:
            self.closed = (self.ws.close_code, self.ws.close_reason)
            raise
        received = clock_ms()
        assert isinstance(text, str)
        self.frames.append(text)
        msg: dict[str, Any] = json.loads(text)
        kind = msg["type"]
        if kind == "snapshot":
            if msg["seq"] <= self.seq:
                raise ProtocolBroken(f"snapshot seq {msg['seq']} after {self.seq}")
            self.seq = msg["seq"]
            if msg["reason"] == "resync":
                self.resync_before = self.view
            self.view = msg["view"]
            self.snapshots += 1
            if msg["reason"] == "resync":
                self.resyncs += 1
        elif kind == "patch":
            if msg["seq"] != self.seq + 1:
                raise ProtocolBroken(f"gap: patch {msg['seq']} after {self.seq}")
            assert self.view is not None
            self.view = apply_patch(self.view, msg["ops"])
            self.seq = msg["seq"]
        if kind in ("snapshot", "patch") and self.finished_frame is None:
            assert self.view is not None
            if self.view["room"]["status"] == "finished":
                self.finished_frame = len(self.frames) - 1
        if kind == "ping":
            # NTP style: when the ping arrived and when the pong leaves, on this client's clock.
            pong = {"type": "pong", "id": msg["id"], "t": msg["t"], "t2": received, "t3": clock_ms()}
            await self.send(pong)
            self.pings.append(msg)
        elif kind in ("ack", "reject"):
            self.replies[msg["id"]] = msg
        elif kind == "welcome":
            self.welcome = msg
        elif kind == "error":
            self.errors.append(msg)
        return msg

    async def act(self, action: dict[str, Any], action_id: str | None = None) -> dict[str, Any]:
        """Send an action and wait for its ack or reject (and for the frame carrying its effect)."""
        action_id = action_id or f"a{next(self._ids)}"
        self.replies.pop(action_id, None)
        await self.send({"type": "action", "id": action_id, "action": action})
        return await self.reply(action_id)

    async def admin(self, command: str, **fields: Any) -> dict[str, Any]:
        """Send a host command and wait for its ack or reject."""
        admin_id = f"h{next(self._ids)}"
        await self.send({"type": "admin", "id": admin_id, "command": command, **fields})
        return await self.reply(admin_id)

    async def reply(self, action_id: str) -> dict[str, Any]:
        async with asyncio.timeout(TIMEOUT):
            while action_id not in self.replies:
                await self.recv()
        return self.replies[action_id]

    async def until(self, predicate: Any) -> None:
        """Read frames until ``predicate(view)`` holds."""
        async with asyncio.timeout(TIMEOUT):
            while self.view is None or not predicate(self.view):
                await self.recv()

    async def next_error(self) -> dict[str, Any]:
        count = len(self.errors)
        async with asyncio.timeout(TIMEOUT):
            while len(self.errors) == count:
                await self.recv()
        return self.errors[-1]

    async def check_in_sync(self) -> dict[str, Any]:
        """Ask for a snapshot; the view patched so far must equal it exactly."""
        before, errors = self.resyncs, len(self.errors)
        await self.send({"type": "resync"})
        async with asyncio.timeout(TIMEOUT):
            while self.resyncs == before:
                await self.recv()
                if len(self.errors) > errors:
                    raise ProtocolBroken(f"resync refused: {self.errors[-1]}")
        assert self.resync_before == self.view, (
            f"patched view drifted from the server view: {self.resync_before} != {self.view}"
        )
        assert self.view is not None
        return self.view

    @property
    def game(self) -> dict[str, Any]:
        assert self.view is not None and self.view["game"] is not None
        game: dict[str, Any] = self.view["game"]
        return game


class Api:
    """The HTTP lobby, as a test user drives it."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = httpx.AsyncClient(base_url=base, timeout=TIMEOUT)

    async def aclose(self) -> None:
        await self.http.aclose()

    async def player(self, name: str) -> dict[str, Any]:
        r = await self.http.post("/api/players", json={"name": name})
        r.raise_for_status()
        data: dict[str, Any] = r.json()
        return data

    async def call(self, method: str, path: str, token: str | None = None, **kw: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        headers.update(kw.pop("headers", None) or {})
        return await self.http.request(method, path, headers=headers, **kw)

    async def create_room(
        self, token: str, game: str = "slap", options: dict[str, Any] | None = None, public: bool = True
    ) -> dict[str, Any]:
        r = await self.call(
            "POST", "/api/rooms", token, json={"game": game, "options": options or {}, "public": public}
        )
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        return data

    async def sit(self, token: str, code: str, seat: int | None = None, **prefs: Any) -> dict[str, Any]:
        r = await self.call("POST", f"/api/rooms/{code}/seats", token, json={"seat": seat, "prefs": prefs})
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    async def start(self, token: str, code: str) -> dict[str, Any]:
        r = await self.call("POST", f"/api/rooms/{code}/start", token)
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    async def advance_to(self, code: str, until: int) -> None:
        r = await self.http.post("/api/_test/clock", json={"room": code, "until": until})
        r.raise_for_status()

    async def advance_to_next_deadline(self, code: str) -> None:
        """Move the manual clock to the room's next timer (some deadlines are not in the view)."""
        r = await self.http.post("/api/_test/clock", json={"room": code, "next_deadline": True})
        r.raise_for_status()


async def frames_until_closed(client: Client) -> tuple[list[dict[str, Any]], int | None]:
    """Every frame the server still sends, read raw until it closes the socket; and the close code.

    Raw reads: ``Client.recv`` answers pings, and a pong sent after the server's close
    frame would fail before the frames already received were read.
    """
    ws = client.ws
    assert ws is not None
    frames: list[dict[str, Any]] = []
    try:
        async with asyncio.timeout(TIMEOUT):
            while True:
                frames.append(json.loads(await ws.recv()))
    except ConnectionClosed:
        return frames, ws.close_code


async def crash_and_restart(server: ServerProcess, clients: list[Client]) -> ServerProcess:
    """SIGKILL the server, drop its clients' sockets, and start a new server on the same database."""
    server.kill()
    for c in clients:
        await c.close()
    return server.reborn()
