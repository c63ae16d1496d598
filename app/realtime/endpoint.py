"""``WebSocket /ws/rooms/{code}``: authenticate, join the room's stream, relay actions.

Parsing, validation, rate limiting and clock sync happen here, per connection;
everything that touches the game goes to the room actor.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from starlette.types import Message

from app.api.deps import client_key
from app.cluster.wire import RELAYED
from app.db.store import UNANSWERED
from app.realtime import transport
from app.realtime.connection import Connection
from app.realtime.frame_reader import frame_reader
from app.realtime.messages import Action, Admin, Code, Hello, Ping, Pong, Resync, client_message
from app.realtime.ping_schedule import ping_schedule
from app.realtime.ratelimit import TokenBucket
from app.realtime.round_trip import RoundTrip
from app.rooms.errors import DATABASE_AWAY, MOVED, RoomError
from app.rooms.room import Room
from app.services import Services
from app.validation import ACTION, BoundsError, check_json, forbidden_char

router = APIRouter()

log = logging.getLogger(__name__)


class _Refused(Exception):
    """A frame refused with a protocol code: answered by a ``reject`` when it names a usable ``id``
    (an action or admin frame), else by an ``error``; ``close`` ends the connection afterwards."""

    def __init__(self, code: Code, message: str, close: int | None = None, id: str | None = None) -> None:
        self.code, self.message, self.close_code, self.id = code, message, close, id


def _usable_id(raw: dict[str, Any]) -> str | None:
    """The frame's ``id`` if an answer may carry it back (the same rule as the models' ids)."""
    if raw.get("type") not in ("action", "admin"):
        return None
    frame_id = raw.get("id")
    if isinstance(frame_id, str) and 1 <= len(frame_id) <= 64 and forbidden_char(frame_id) is None:
        return frame_id
    return None


def _parse(text: str, limit: int) -> Any:
    """Parse one client frame; raises _Refused with the protocol's code (and the frame's id, so
    that a bad action or admin frame still gets the one answer its id was promised)."""
    if len(text) > limit // 4 and len(text.encode()) > limit:
        raise _Refused(Code.TOO_LARGE, f"Frames are limited to {limit // 1024} KiB.")
    try:
        raw = orjson.loads(text)
    except orjson.JSONDecodeError:
        raise _Refused(Code.BAD_JSON, "That frame is not valid JSON.") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        raise _Refused(Code.BAD_MESSAGE, "A message is a JSON object with a string 'type'.")
    if raw["type"] not in {"hello", "action", "admin", "resync", "ping", "pong"}:
        raise _Refused(Code.UNKNOWN_TYPE, f"Unknown message type {raw['type']!r}.")
    frame_id = _usable_id(raw)
    if frame_id is not None and raw["type"] == "action" and not isinstance(raw.get("action"), dict):
        raise _Refused(Code.BAD_ACTION, "The action must be a JSON object.", id=frame_id)
    try:
        msg = client_message.validate_python(raw)
    except ValidationError as exc:
        first = exc.errors(include_input=False, include_url=False)[0]
        # Only the model's own field names: a key the client made up is not echoed.
        where = ".".join(str(p) for p in first["loc"][1:] if isinstance(p, int) or str(p).isidentifier())
        raise _Refused(
            Code.BAD_MESSAGE, f"Bad field '{where or 'message'}': {first['msg']}.", id=frame_id
        ) from None
    if isinstance(msg, Action):
        # Every accepted action can be stored in the event log and shown to the others.
        try:
            check_json(msg.action, ACTION)
        except BoundsError as exc:
            raise _Refused(Code.BAD_ACTION, f"Bad action: {exc}.", id=msg.id) from None
    return msg


async def _receive_text(ws: WebSocket) -> str:
    return _text_of(await ws.receive())


def _text_of(message: Message) -> str:
    """A received message's text; a disconnect raises ``WebSocketDisconnect``, a binary frame is refused."""
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    if message.get("text") is not None:
        return str(message["text"])
    raise _Refused(Code.BINARY_FRAME, "Send JSON text frames, not binary.")


async def _send_error(ws: WebSocket, code: Code, message: str) -> None:
    await ws.send_text(orjson.dumps({"type": "error", "code": code, "message": message}).decode())


async def _authenticate(ws: WebSocket, services: Services, code: str) -> tuple[Room, str, str]:
    settings = services.settings
    try:
        async with asyncio.timeout(settings.hello_timeout_s):
            text = await _receive_text(ws)
        msg = _parse(text, settings.max_frame_bytes)
    except TimeoutError:
        raise _Refused(Code.AUTH_REQUIRED, "Send a hello with your token first.", 4001) from None
    except _Refused as exc:  # a binary or malformed first frame is not a hello either
        raise _Refused(
            Code.AUTH_REQUIRED, f"Send a hello with your token first ({exc.message})", 4001
        ) from None
    if not isinstance(msg, Hello):
        raise _Refused(Code.AUTH_REQUIRED, "The first message must be a hello with your token.", 4001)
    player_id = services.signer.verify(msg.token)
    try:
        player = await services.store.get_player(player_id) if player_id else None
        if player is None:
            raise _Refused(Code.BAD_TOKEN, "That token is not valid here; create a player first.", 4001)
        room = await services.rooms.get(code)
    except RoomError as exc:  # expired (gone for good), or the server is full just now
        if exc.status == 503:
            raise _Refused(Code.SERVER_ERROR, exc.message, 1011) from None
        raise _Refused(Code.UNKNOWN_ROOM, exc.message, 4004) from None
    except UNANSWERED as exc:  # nothing was joined: the client's reconnect tries again
        log.warning("hello for room %s: database error: %r", code, exc)
        raise _Refused(Code.SERVER_ERROR, DATABASE_AWAY[1], 1011) from None
    if room is None:
        raise _Refused(Code.UNKNOWN_ROOM, f"There is no room with code {code!r}.", 4004)
    return room, player.id, player.name


COUNTED = "bordet.socket_counted"
"""Set in the scope of a room socket whose place among its address's sockets is held already: by
the process the client connected to, when it carries the socket to the room's owner
(:mod:`app.cluster.relay`), so the owner does not count it a second time."""


async def counted(ws: WebSocket, services: Services, serve: Callable[[], Awaitable[None]]) -> None:
    """Run ``serve`` holding one of the socket places of ``ws``'s client address, or refuse the
    socket (``TOO_MANY_CONNECTIONS``, close 4029) if it has none left. Counted where the client
    connected, from before the hello: a socket that never says hello holds its place too. A socket
    relayed from another process was counted there."""
    if ws.scope.get(COUNTED) or ws.scope.get(RELAYED):
        await serve()
        return
    address = client_key(ws, services)
    sockets = services.limits.sockets
    if not sockets.acquire(address):
        await ws.accept()
        with contextlib.suppress(Exception):
            message = f"At most {sockets.limit} connections at once from one address."
            await _send_error(ws, Code.TOO_MANY_CONNECTIONS, message)
            await ws.close(code=4029, reason=message[:120])
        return
    ws.scope[COUNTED] = True
    try:
        await serve()
    finally:
        sockets.release(address)


async def room_socket(ws: WebSocket) -> None:
    # A plain Starlette route, not FastAPI's: no dependency solving and its three exit stacks
    # (a few KB) held for the whole life of every connection.
    code: str = ws.path_params["code"]
    services: Services = ws.app.state.services
    await counted(ws, services, lambda: _serve_counted(ws, services, code))


async def _serve_counted(ws: WebSocket, services: Services, code: str) -> None:
    with services.metrics.connections_open.track_inprogress():
        await _serve(ws, services, code)


async def _serve(ws: WebSocket, services: Services, code: str) -> None:
    settings = services.settings
    await ws.accept()
    transport.cap_send_buffer(ws)
    try:
        room, player_id, name = await _authenticate(ws, services, code)
    except _Refused as exc:
        with contextlib.suppress(Exception):
            await _send_error(ws, exc.code, exc.message)
            await ws.close(code=exc.close_code or 1008, reason=exc.message[:120])
        return
    except WebSocketDisconnect:
        return

    conn = Connection(
        ws,
        player_id,
        room.now,
        room_code=room.code,
        backlog_bytes=settings.send_backlog_bytes,
        write_timeout_s=settings.write_timeout_s,
        metrics=services.metrics.connection,
        round_trip=RoundTrip.of(
            ws.client.host if ws.client else None,
            ws.headers.items(),
            transport.socket_of(ws),
            settings.trusted_proxies,
        ),
    )
    conn.start()

    async def join() -> None:
        member = await room.connect(conn, name)
        _tell(
            room,
            conn,
            {
                "type": "welcome",
                "room": room.code,
                "player_id": player_id,
                "name": name,
                "role": member.role,
                "seat": member.seat,
                "server_time": room.now(),
            },
        )

    try:
        await room.call(join)
    except RoomError as exc:  # the room could not take the connection (e.g. its database write failed)
        conn.close(1011, exc.code, exc.message)
        await conn.closed.wait()
        return
    conn.start_pings(
        ping_schedule(settings.ping_interval_s, settings.ping_racing_max_s, settings.ping_watching_s)
    )
    # Actions and resyncs have buckets of their own, so an action flood never blocks a resync.
    actions = TokenBucket(settings.rate_per_s, settings.rate_burst, time.monotonic())
    resyncs = TokenBucket(settings.resync_per_s, settings.resync_burst, time.monotonic())
    try:
        await _read_loop(ws, conn, room, actions, resyncs, settings.max_frame_bytes)
    except WebSocketDisconnect:
        pass
    except RoomError:  # the room left this process (app.cluster) or was put away meanwhile
        conn.close(*MOVED)  # unless it is closing already: the client reconnects to where it is now
    finally:
        with contextlib.suppress(RoomError):
            await room.call(lambda: room.disconnect(conn))
        await conn.stop()


async def _read_loop(
    ws: WebSocket, conn: Connection, room: Room, actions: TokenBucket, resyncs: TokenBucket, limit: int
) -> None:
    def take(message: Message) -> bool:
        if conn.closed.is_set():
            return False
        # The frame goes straight into _take: nothing of this reader holds it (or what it parsed
        # to) while the connection waits for the next one, often for many seconds.
        try:
            _take(_text_of(message), conn, room, actions, resyncs, limit)
        except _Refused as exc:
            if exc.id is not None:
                _reject(room, conn, exc.id, exc.code, exc.message)
            else:
                _tell(room, conn, {"type": "error", "code": exc.code, "message": exc.message})
        return True

    reader = frame_reader(ws)
    if reader is not None:
        await reader.run(take, conn)
        return
    while not conn.closed.is_set() and take(await ws.receive()):
        await _pause(conn)


def _take(
    text: str, conn: Connection, room: Room, actions: TokenBucket, resyncs: TokenBucket, limit: int
) -> None:
    received = room.now()  # before parsing: the arrival time of actions and pongs alike
    _handle(_parse(text, limit), conn, room, actions, resyncs, received)


async def _pause(conn: Connection) -> None:
    """Wait for the connection's writer while its queue is half full.

    A burst of frames already buffered is read without the reader ever suspending; every frame's
    answer (a reject, a pong) goes on the send queue, and a burst of 200 would overflow it and
    lose answers if the reader never let the writer catch up. Waiting for the writer also pushes
    back on a client that sends faster than it reads: its frames wait in the network, not here.
    (Yielding after every frame instead would cost the room its batching: a turn per message.)
    """
    await conn.drained()


def _handle(
    msg: Any, conn: Connection, room: Room, actions: TokenBucket, resyncs: TokenBucket, received: int
) -> None:
    """Answer or forward one valid client message."""
    if isinstance(msg, Pong):
        _measure(conn, msg, received)
        return
    if isinstance(msg, Ping):
        t1 = room.now()
        _tell(room, conn, {"type": "pong", "id": msg.id, "t0": msg.t0, "t1": t1, "t2": room.now()})
        return
    bucket = resyncs if isinstance(msg, Resync) else actions
    if not bucket.take(time.monotonic()):
        if isinstance(msg, Action | Admin):
            _reject(room, conn, msg.id, Code.RATE_LIMITED, "Too many messages; slow down.")
        else:
            _tell(
                room,
                conn,
                {"type": "error", "code": Code.RATE_LIMITED, "message": "Too many messages; slow down."},
            )
        return
    if isinstance(msg, Action):
        member = room.members.get(conn.player_id)
        if msg.seat is not None and (member is None or member.seat != msg.seat):
            _reject(room, conn, msg.id, Code.NOT_YOUR_SEAT, "You can only act for your own seat.")
            return
        room.post_action(conn, msg.id, msg.action, received)
    elif isinstance(msg, Admin):
        _admin(room, conn, msg)
    elif isinstance(msg, Resync):
        room.request_snapshot(conn)
    elif isinstance(msg, Hello):
        _tell(room, conn, {"type": "error", "code": Code.BAD_MESSAGE, "message": "Already authenticated."})


def _admin(room: Room, conn: Connection, msg: Admin) -> None:
    host = conn.player_id
    if msg.command == "seat_bot":
        room.post_admin(conn, msg.id, lambda: room.desk.seat_bot(host, msg.seat))
    elif msg.command == "end_match":
        room.post_admin(conn, msg.id, lambda: room.desk.end_match(host))
    elif msg.command == "end_game":
        room.post_admin(conn, msg.id, lambda: room.desk.end_game(host))
    elif msg.command == "remove":
        if msg.player is None:
            _reject(room, conn, msg.id, Code.BAD_MESSAGE, "remove needs `player`.")
            return
        target = msg.player
        room.post_admin(conn, msg.id, lambda: room.desk.remove_player(host, target))
    elif msg.teams is None:
        _reject(room, conn, msg.id, Code.BAD_MESSAGE, "assign_teams needs `teams`.")
    else:
        teams = msg.teams
        room.post_admin(conn, msg.id, lambda: room.desk.assign_teams(host, teams))


def _measure(conn: Connection, pong: Pong, t4: int) -> None:
    """One clock-sync sample from a pong; the ping's send time is the server's own record, not the echo.
    A pong without the client's receive and send times is not counted: a client that held it back
    would make its link look slower than it is (and its race claims more forgivable)."""
    t1 = conn.pings.pop(pong.id, None)
    if t1 is None:
        return  # not a ping of ours (or answered twice)
    if pong.t2 is not None and pong.t3 is not None:
        conn.sync.add(t1, pong.t2, pong.t3, t4)
    conn.check_link()


def _reject(room: Room, conn: Connection, frame_id: str, code: Code, message: str) -> None:
    room.metrics.rejected(code)
    _tell(room, conn, {"type": "reject", "id": frame_id, "code": code, "message": message})


def _tell(room: Room, conn: Connection, message: dict[str, object]) -> None:
    """Send an answer from the reader; an overflow it causes is the room's to handle (a reset)."""
    if not conn.send_json(message):
        room.overflowed(conn)


router.add_websocket_route("/ws/rooms/{code}", room_socket)
