"""The room actor: one asyncio task per room owns its members, its game state and its clock.

Everything that changes a room goes through its inbox and is handled by that
one task, in order: player actions, timer ticks, connections coming and going,
and the host's lobby commands. One turn of the loop:

1. drain the inbox; apply each action to the engine (rejects are answered at once);
2. fire due deadlines as ticks, through the same path as actions;
3. append every accepted input to the game's event log and wait for the commit
   (many rooms' inputs share one transaction, see ``EventLog``);
4. only then broadcast: one view per seat, diffed against what that seat last
   got, one frame per connection; then the acks.

Reaction races (:mod:`app.engines.race`) need to know when each player was
actually sent a stimulus. The room stays game-agnostic: an engine that has races
names its live stimuli (``stimuli(state)``); after each broadcast the room notes,
per connection, the frame that first carried each one, and the connection's
writer notes when that frame went out. A move made while a stimulus is live
carries every seat's send time and link statistics (``Move.timing``), and they
are logged inside the move's action under a server-only key, so a replay
reproduces every ruling. Rulings the engine reports (``rulings(state)``) are
logged with the input that produced them, for audits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from app.db.store import EventLog, EventRec, GameRec, Store
from app.engines import get_engine
from app.engines.base import (
    JSON,
    RULINGS_KEY,
    SERVER_KEYS,
    Engine,
    IllegalAction,
    Link,
    Move,
    Timing,
    seed_hash,
)
from app.rooms.clock import Clock
from app.rooms.diff import diff
from app.rooms.errors import RoomError
from app.rooms.peer import Peer
from app.rooms.replay import seat_setups

log = logging.getLogger(__name__)

PUBLIC = None  # the view key of spectators (and of everyone before a game starts)


@dataclass(slots=True)
class Member:
    player_id: str
    name: str
    role: str  # "seat" | "spectator"
    seat: int | None
    prefs: dict[str, Any] = field(default_factory=dict)
    connections: int = 0


@dataclass(slots=True)
class GameRun:
    rec: GameRec
    engine: Engine[Any, Any]
    state: Any
    committed: Any
    next_seq: int
    applied: dict[tuple[int, str], int] = field(default_factory=dict)
    """(seat, client action id) → event seq: retries are answered, never re-applied."""


@dataclass(slots=True)
class _Action:
    peer: Peer
    client_id: str
    action: dict[str, Any]
    at: int


@dataclass(slots=True)
class _Call:
    fn: Callable[[], Awaitable[Any]]
    done: asyncio.Future[Any]


@dataclass(slots=True)
class _Resync:
    peer: Peer
    reason: str


@dataclass(slots=True)
class _Pending:
    peer: Peer
    client_id: str


def _dumps(obj: Any) -> str:
    return orjson.dumps(obj).decode()


class Room:
    def __init__(
        self,
        *,
        code: str,
        game: str,
        options: dict[str, Any],
        public: bool,
        host_id: str,
        status: str,
        store: Store,
        event_log: EventLog,
        clock: Clock,
        clock_offset: int = 0,
    ) -> None:
        self.code = code
        self.engine: Engine[Any, Any] = get_engine(game)
        self.game_name = game
        self.options = options
        self.public = public
        self.host_id = host_id
        self.status = status
        self.members: dict[str, Member] = {}
        self.game: GameRun | None = None
        self.peers: list[Peer] = []
        self._store = store
        self._log = event_log
        self._clock = clock
        self._offset = clock_offset
        self._inbox: deque[_Action | _Call | _Resync] = deque()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._pending_events: list[EventRec] = []
        self._pending_acks: list[_Pending] = []
        self._room_view: dict[str, Any] | None = None
        self._game_views: dict[int | None, dict[str, Any]] = {}
        self._game_views_of: Any = None
        self._last_sent: dict[Any, dict[str, Any]] = {}
        self._rulings_of: tuple[Any, list[JSON]] | None = None

    # --- clock -------------------------------------------------------------

    def now(self) -> int:
        return self._clock.now() + self._offset

    def resume_clock_at(self, room_time: int) -> None:
        """After a restart the room clock continues from ``room_time``: downtime is a pause."""
        self._offset = room_time - self._clock.now()

    # --- lifecycle ---------------------------------------------------------

    def start_actor(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"room-{self.code}")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    # --- inbox (called from connection handlers and HTTP routes) ------------

    def post_action(self, peer: Peer, client_id: str, action: dict[str, Any], at: int | None = None) -> None:
        # The arrival time is stamped on receipt (by the caller, or here), not when the actor gets to it.
        self._inbox.append(_Action(peer, client_id, action, self.now() if at is None else at))
        self._wake.set()

    async def call(self, fn: Callable[[], Awaitable[Any]]) -> Any:
        """Run ``fn`` inside the actor (lobby commands, connects); returns its result."""
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._inbox.append(_Call(fn, done))
        self._wake.set()
        return await done

    # --- the actor loop ----------------------------------------------------

    async def _run(self) -> None:
        while True:
            if not self._inbox:
                self._wake.clear()
                deadline = self._deadline()
                await self._clock.wait(self._wake, None if deadline is None else deadline - self._offset)
            try:
                await self._turn()
            except asyncio.CancelledError:
                raise
            except Exception:  # a bug must not kill the room; the state stays at the last good one
                log.exception("room %s: turn failed", self.code)

    async def _turn(self) -> None:
        batch = list(self._inbox)
        self._inbox.clear()
        for item in batch:
            if isinstance(item, _Action):
                self._handle_action(item)
            elif isinstance(item, _Resync):
                item.peer.needs_snapshot = True
                item.peer.snapshot_reason = item.reason
            else:
                try:
                    item.done.set_result(await item.fn())
                except Exception as exc:
                    if not item.done.done():
                        item.done.set_exception(exc)
        self._fire_due(self.now())
        await self._commit()
        await self._after_commit()
        self.broadcast()
        self._send_acks()

    def next_deadline(self) -> int | None:
        """The room-clock time of the game's next timer, if any."""
        return self._deadline()

    def _deadline(self) -> int | None:
        if self.game is None or self.status != "playing":
            return None
        result: int | None = self.game.engine.next_deadline(self.game.state)
        return result

    def _fire_due(self, now: int) -> None:
        game = self.game
        if game is None or self.status != "playing":
            return
        deadline = game.engine.next_deadline(game.state)
        if deadline is None or deadline > now:
            return
        new = game.engine.tick(game.state, now)
        if new is not game.state:
            rulings = self._new_rulings(game.state, new)
            game.state = new
            self._pending_events.append(
                EventRec(
                    seq=game.next_seq,
                    kind="tick",
                    seat=None,
                    action={RULINGS_KEY: rulings} if rulings else None,
                    at=now,
                    rtt=None,
                    client_id=None,
                )
            )
            game.next_seq += 1

    # --- reaction races ------------------------------------------------------

    def _stimuli(self, state: Any) -> tuple[str, ...]:
        hook = getattr(self.engine, "stimuli", None)
        if hook is None or self.status != "playing":
            return ()
        keys: tuple[str, ...] = tuple(hook(state))
        return keys

    def _rulings(self, state: Any) -> list[JSON]:
        cached = self._rulings_of
        if cached is not None and cached[0] is state:
            return cached[1]
        hook = getattr(self.engine, "rulings", None)
        rulings: list[JSON] = [] if hook is None else list(hook(state))
        self._rulings_of = (state, rulings)
        return rulings

    def _new_rulings(self, old: Any, new: Any) -> list[JSON]:
        """Rulings the engine reports for ``new`` that it did not report for ``old``."""
        before = self._rulings(old)
        return [r for r in self._rulings(new) if r not in before]

    def _note_stimuli(self, by_key: dict[int | None, list[Peer]]) -> None:
        """After a broadcast: note, per seated connection, the frame that first showed each live stimulus."""
        game = self.game
        keys = self._stimuli(game.state) if game is not None else ()
        now = self.now()
        for key, peers in by_key.items():
            if key is None:
                continue  # spectators do not race
            for peer in peers:
                notes = peer.stimuli
                for stale in [k for k in notes if k not in keys]:
                    del notes[stale]
                for stimulus in keys:
                    if stimulus not in notes:
                        notes[stimulus] = (peer.seq, now)

    def _link(self, peer: Peer, keys: tuple[str, ...]) -> Link:
        sent: dict[str, int] = {}
        for key in keys:
            note = peer.stimuli.get(key)
            if note is None:
                continue
            seq, queued = note
            written = peer.written_at(seq)
            # A frame noted after a broadcast that did not change this view was written earlier.
            sent[key] = queued if written is None else max(written, queued)
        return Link(rtt=peer.rtt, jitter=peer.jitter, sent=sent)

    def _timing(self, seat: int, peer: Peer) -> Timing | None:
        """Every seat's link for a move made while a race stimulus is live (None when none is)."""
        game = self.game
        assert game is not None
        keys = self._stimuli(game.state)
        if not keys:
            return None
        links: list[Link | None] = [None] * len(game.rec.seats)
        for other in self.peers:
            key = self.key_of(other.player_id)
            if not isinstance(key, int) or not 0 <= key < len(links) or key == seat:
                continue
            link = self._link(other, keys)
            current = links[key]
            # A player with several connections: the one that could still be heard the latest.
            if current is None or _latest(link) > _latest(current):
                links[key] = link
        if 0 <= seat < len(links):
            links[seat] = self._link(peer, keys)  # the claimer: the connection the move came through
        return Timing(tuple(links))

    def _handle_action(self, item: _Action) -> None:
        peer, client_id = item.peer, item.client_id
        game = self.game
        member = self.members.get(peer.player_id)
        if member is None or member.role != "seat" or member.seat is None:
            self._reject(peer, client_id, "NOT_SEATED", "Only seated players can act; you are watching.")
            return
        if game is None or self.status != "playing":
            self._reject(peer, client_id, "NO_GAME", "No game is running in this room.")
            return
        seat = member.seat
        action = item.action
        if not SERVER_KEYS.isdisjoint(action):  # only the server writes those keys
            action = {k: v for k, v in action.items() if k not in SERVER_KEYS}
        if (seat, client_id) in game.applied:
            peer.send(
                _dumps(
                    {
                        "type": "ack",
                        "id": client_id,
                        "seq": peer.seq,
                        "duplicate": True,
                        "code": "DUPLICATE_ACTION",
                    }
                )
            )
            return
        # A deadline that passed before this action arrived fires first; one at the
        # very same millisecond fires after it (the rules' boundary convention).
        self._fire_due(item.at - 1)
        move = Move(seat=seat, action=action, at=item.at, rtt=peer.rtt, timing=self._timing(seat, peer))
        try:
            new = game.engine.apply(game.state, move)
        except IllegalAction as exc:
            self._reject(peer, client_id, exc.code, exc.message)
            return
        logged = move.logged_action()
        rulings = self._new_rulings(game.state, new)
        if rulings:
            logged[RULINGS_KEY] = rulings
        game.state = new
        game.applied[(seat, client_id)] = game.next_seq
        self._pending_events.append(
            EventRec(
                seq=game.next_seq,
                kind="move",
                seat=seat,
                action=logged,
                at=item.at,
                rtt=peer.rtt,
                client_id=client_id,
            )
        )
        game.next_seq += 1
        self._pending_acks.append(_Pending(peer, client_id))

    def _reject(self, peer: Peer, client_id: str, code: str, message: str) -> None:
        peer.send(_dumps({"type": "reject", "id": client_id, "code": code, "message": message}))

    async def _commit(self) -> None:
        if not self._pending_events:
            return
        game = self.game
        assert game is not None
        events, self._pending_events = self._pending_events, []
        try:
            await self._log.append(game.rec.id, events)
        except Exception:
            log.exception("room %s: event log append failed; rolling back %d inputs", self.code, len(events))
            # Nobody has seen these effects yet, so going back to the committed state is invisible.
            game.state = game.committed
            game.next_seq = events[0].seq
            for ev in events:
                if ev.seat is not None and ev.client_id is not None:
                    game.applied.pop((ev.seat, ev.client_id), None)
            for pending in self._pending_acks:
                self._reject(
                    pending.peer,
                    pending.client_id,
                    "LOG_FAILED",
                    "The server could not store your action; please try again.",
                )
            self._pending_acks.clear()
            return
        game.committed = game.state

    async def _after_commit(self) -> None:
        game = self.game
        if game is None or self.status != "playing":
            return
        outcome = game.engine.result(game.state)
        if outcome.finished:
            await self._store.finish_game(game.rec.id, outcome.to_json())
            await self._store.update_room(self.code, status="finished")
            game.rec = await self._store.get_game(game.rec.id) or game.rec
            self.status = "finished"
            self.invalidate()

    def _send_acks(self) -> None:
        for pending in self._pending_acks:
            pending.peer.send(_dumps({"type": "ack", "id": pending.client_id, "seq": pending.peer.seq}))
        self._pending_acks.clear()

    # --- views and frames ------------------------------------------------

    def invalidate(self) -> None:
        """The lobby part of the view changed (members, presence, status, options)."""
        self._room_view = None

    def key_of(self, player_id: str) -> int | None:
        member = self.members.get(player_id)
        if self.game is not None and member is not None and member.role == "seat":
            return member.seat
        return PUBLIC

    def room_view(self) -> dict[str, Any]:
        if self._room_view is None:
            self._room_view = self._build_room_view()
        return self._room_view

    def _build_room_view(self) -> dict[str, Any]:
        # A running game has its own seats; in the lobby (and after a game) every seat is offered.
        if self.game is not None and self.status == "playing":
            seat_count = len(self.game.rec.seats)
        else:
            seat_count = self.engine.max_players
        seats: list[dict[str, Any] | None] = [None] * seat_count
        spectators = []
        for m in sorted(self.members.values(), key=lambda m: (m.seat if m.seat is not None else 99, m.name)):
            entry = {"player_id": m.player_id, "name": m.name, "connected": m.connections > 0}
            if m.role == "seat" and m.seat is not None and m.seat < seat_count:
                seats[m.seat] = {**entry, "seat": m.seat, "prefs": m.prefs}
            else:
                spectators.append(entry)
        match = None
        if self.game is not None:
            rec = self.game.rec
            finished = rec.status == "finished"
            match = {
                "id": rec.id,
                "seed_hash": rec.seed_hash,
                "seed": rec.seed if finished else None,
                "started_at": rec.started_at,
                "result": rec.result if finished else None,
            }
        return {
            "code": self.code,
            "game": self.game_name,
            "title": self.engine.title,
            "status": self.status,
            "public": self.public,
            "host": self.host_id,
            "options": self.options,
            "min_players": self.engine.min_players,
            "max_players": self.engine.max_players,
            "seats": seats,
            "spectators": spectators,
            "match": match,
        }

    def _game_view(self, key: int | None) -> dict[str, Any] | None:
        game = self.game
        if game is None:
            return None
        if self._game_views_of is not game.state:
            self._game_views = {}
            self._game_views_of = game.state
        view = self._game_views.get(key)
        if view is None:
            view = game.engine.view(game.state, key)
            self._game_views[key] = view
        return view

    def view_for(self, key: int | None) -> dict[str, Any]:
        return {"room": self.room_view(), "game": self._game_view(key)}

    def broadcast(self) -> None:
        """Send every connection what changed in its view since its last frame."""
        by_key: dict[int | None, list[Peer]] = {}
        for peer in self.peers:
            by_key.setdefault(self.key_of(peer.player_id), []).append(peer)
        for key in list(self._last_sent):
            if key not in by_key:
                del self._last_sent[key]
        for key, peers in by_key.items():
            new = self.view_for(key)
            old = self._last_sent.get(key)
            ops_text: str | None = None
            if old is not None and old is not new:
                ops = diff(old, new)
                if ops:
                    ops_text = _dumps(ops)
            self._last_sent[key] = new
            snapshot_text: str | None = None
            for peer in peers:
                in_step = peer.view_key == key and old is not None
                # A peer in step gets the patch even when it also asked for a resync, so that
                # a resync snapshot always equals the view its earlier frames built.
                if in_step and ops_text is not None:
                    peer.seq += 1
                    peer.send(f'{{"type":"patch","seq":{peer.seq},"ops":{ops_text}}}', peer.seq)
                if peer.needs_snapshot or not in_step:
                    if snapshot_text is None:
                        snapshot_text = _dumps(new)
                    if not peer.needs_snapshot:
                        peer.snapshot_reason = "seat"
                    self._send_snapshot(peer, key, snapshot_text)
        self._note_stimuli(by_key)

    def _send_snapshot(self, peer: Peer, key: int | None, view_text: str) -> None:
        peer.seq += 1
        peer.view_key = key
        peer.needs_snapshot = False
        reason = peer.snapshot_reason
        peer.send(f'{{"type":"snapshot","seq":{peer.seq},"reason":"{reason}","view":{view_text}}}', peer.seq)

    def _overflowed(self, peer: Peer) -> None:
        # The peer's queue was full and has been emptied (frames, acks, pongs alike): at the
        # next turn it gets one snapshot instead of the backlog. One that keeps overflowing is dropped.
        if peer.overflows > 3:
            peer.close(4008, "TOO_SLOW", "Your connection could not keep up with the table.")
            return
        self.request_snapshot(peer, "reset")

    def request_snapshot(self, peer: Peer, reason: str = "resync") -> None:
        # Through the inbox, like everything else: a flag set between turns could be slept through.
        self._inbox.append(_Resync(peer, reason))
        self._wake.set()

    # --- connections -----------------------------------------------------

    async def connect(self, peer: Peer, name: str) -> Member:
        member = self.members.get(peer.player_id)
        if member is None:
            member = Member(peer.player_id, name, "spectator", None)
            await self._store.put_member(self.code, peer.player_id, "spectator", None, {})
            self.members[peer.player_id] = member
        member.connections += 1
        peer.on_overflow = lambda: self._overflowed(peer)
        self.peers.append(peer)
        peer.needs_snapshot = True
        peer.snapshot_reason = "join"
        self.invalidate()
        return member

    async def disconnect(self, peer: Peer) -> None:
        if peer in self.peers:
            self.peers.remove(peer)
            member = self.members.get(peer.player_id)
            if member is not None:
                member.connections = max(0, member.connections - 1)
            self.invalidate()

    # --- lobby commands (run inside the actor through ``call``) ----------

    def _require_host(self, player_id: str) -> None:
        if player_id != self.host_id:
            raise RoomError("NOT_HOST", "Only the host can do that.", 403)

    async def join_seat(self, player_id: str, name: str, seat: int | None, prefs: dict[str, Any]) -> Member:
        member = self.members.get(player_id)
        if self.status == "playing" and (member is None or member.role != "seat"):
            raise RoomError("GAME_RUNNING", "The game has started; you can watch until it ends.", 409)
        if self.status == "playing" and member is not None:
            return member  # already seated: rejoining is a no-op
        taken = {m.seat for m in self.members.values() if m.role == "seat" and m.player_id != player_id}
        if seat is None:
            if member is not None and member.role == "seat" and member.seat is not None:
                seat = member.seat
            else:
                free = [s for s in range(self.engine.max_players) if s not in taken]
                if not free:
                    raise RoomError("ROOM_FULL", "Every seat is taken; you can watch.", 409)
                seat = free[0]
        if not 0 <= seat < self.engine.max_players:
            raise RoomError("NO_SUCH_SEAT", f"Seats are numbered 0 to {self.engine.max_players - 1}.", 422)
        if seat in taken:
            raise RoomError("SEAT_TAKEN", "That seat is taken.", 409)
        if member is None:
            member = Member(player_id, name, "seat", seat, dict(prefs))
            self.members[player_id] = member
        else:
            member.role, member.seat, member.prefs = "seat", seat, dict(prefs)
        await self._store.put_member(self.code, player_id, "seat", seat, member.prefs)
        self.invalidate()
        return member

    async def watch(self, player_id: str, name: str) -> Member:
        member = self.members.get(player_id)
        if member is not None and member.role == "seat" and self.status == "playing":
            raise RoomError("GAME_RUNNING", "You hold a seat in the running game.", 409)
        if member is None:
            member = Member(player_id, name, "spectator", None)
            self.members[player_id] = member
        member.role, member.seat = "spectator", None
        await self._store.put_member(self.code, player_id, "spectator", None, member.prefs)
        self.invalidate()
        return member

    async def leave(self, player_id: str) -> None:
        member = self.members.get(player_id)
        if member is None:
            raise RoomError("NOT_A_MEMBER", "You are not in this room.", 404)
        if member.role == "seat" and self.status == "playing":
            # The seat stays in the game (its cards stay in play); only the connections go.
            self._close_peers(player_id, 1000, "LEFT", "You left the room.")
            return
        del self.members[player_id]
        await self._store.remove_member(self.code, player_id)
        self._close_peers(player_id, 1000, "LEFT", "You left the room.")
        if player_id == self.host_id and self.members:
            await self._hand_over_host()
        self.invalidate()

    async def _hand_over_host(self) -> None:
        """A room never stays without a host: the lowest seat takes over, else the first spectator."""
        heir = min(self.members.values(), key=lambda m: (m.role != "seat", m.seat or 0, m.name))
        self.host_id = heir.player_id
        await self._store.update_room(self.code, host_id=heir.player_id)

    async def remove_player(self, host_id: str, target_id: str) -> None:
        self._require_host(host_id)
        if target_id == host_id:
            raise RoomError("CANNOT_REMOVE_HOST", "The host cannot remove themselves.", 409)
        member = self.members.get(target_id)
        if member is None:
            raise RoomError("NOT_A_MEMBER", "That player is not in this room.", 404)
        if member.role == "seat" and self.status == "playing":
            raise RoomError("GAME_RUNNING", "A seated player cannot be removed during a game.", 409)
        del self.members[target_id]
        await self._store.remove_member(self.code, target_id)
        self._close_peers(target_id, 4003, "REMOVED", "The host removed you from the room.")
        self.invalidate()

    async def configure(self, host_id: str, options: dict[str, Any] | None, public: bool | None) -> None:
        self._require_host(host_id)
        if self.status == "playing":
            raise RoomError("GAME_RUNNING", "Options can only change before the game starts.", 409)
        if options is not None:
            self.options = validate_options(self.engine, {**self.options, **options})
        if public is not None:
            self.public = public
        await self._store.update_room(self.code, options=self.options, public=self.public)
        self.invalidate()

    async def start_game(self, host_id: str) -> GameRec:
        self._require_host(host_id)
        if self.status == "playing":
            raise RoomError("GAME_RUNNING", "The game is already running.", 409)
        seated = sorted((m for m in self.members.values() if m.role == "seat"), key=lambda m: m.seat or 0)
        if len(seated) < self.engine.min_players:
            raise RoomError(
                "NOT_ENOUGH_PLAYERS",
                f"{self.engine.title} needs at least {self.engine.min_players} players.",
                409,
            )
        # Game seats are the seated players in seat order, numbered from 0.
        for index, m in enumerate(seated):
            if m.seat != index:
                m.seat = index
                await self._store.put_member(self.code, m.player_id, "seat", index, m.prefs)
        seats = [{"player_id": m.player_id, "name": m.name, "prefs": m.prefs} for m in seated]
        options = self.engine.options_model.model_validate(self.options)
        seed = secrets.token_hex(16)
        now = self.now()
        try:
            state = self.engine.start(seat_setups(seats), options, seed, now)
        except IllegalAction as exc:
            raise RoomError(exc.code, exc.message, 422) from exc
        rec = await self._store.create_game(
            self.code, self.game_name, self.options, seats, seed, seed_hash(seed), now
        )
        self.game = GameRun(rec=rec, engine=self.engine, state=state, committed=state, next_seq=1)
        self.status = "playing"
        await self._store.update_room(self.code, status="playing")
        self.invalidate()
        return rec

    def _close_peers(self, player_id: str, code: int, error: str, message: str) -> None:
        for peer in [p for p in self.peers if p.player_id == player_id]:
            peer.close(code, error, message)


def _latest(link: Link) -> int:
    return max(link.sent.values(), default=-(2**62)) + (link.rtt or 0) + (link.jitter or 0)


def validate_options(engine: Engine[Any, Any], options: dict[str, Any]) -> dict[str, Any]:
    try:
        model = engine.options_model.model_validate(options)
    except Exception as exc:
        raise RoomError("BAD_OPTIONS", f"Invalid options: {exc}", 422) from exc
    dumped: dict[str, Any] = model.model_dump(mode="json")
    return dumped
