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

A move made while a race stimulus is live carries every seat's timing
(:mod:`app.rooms.race_timing`), logged inside the move's action under a
server-only key, so a replay reproduces every ruling. Bots and stand-ins
(:mod:`app.rooms.bots`) act through the same path as people. The lobby's
commands live in :mod:`app.rooms.lobby`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import orjson

from app.db.store import EventLog, EventRec, Store
from app.engines import get_engine
from app.engines.base import (
    JSON,
    RULINGS_KEY,
    SERVER_KEYS,
    Engine,
    IllegalAction,
    Move,
)
from app.rooms.bots import BotPace, BotSeats
from app.rooms.clock import Clock
from app.rooms.diff import diff
from app.rooms.errors import RoomError
from app.rooms.lobby import LobbyCommands, validate_options
from app.rooms.members import GameRun, Member
from app.rooms.peer import Peer
from app.rooms.race_timing import RaceTiming

__all__ = ["PUBLIC", "GameRun", "Member", "Room", "validate_options"]

log = logging.getLogger(__name__)

PUBLIC = None  # the view key of spectators (and of everyone before a game starts)


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
class _Admin:
    peer: Peer
    client_id: str
    fn: Callable[[], Awaitable[Any]]


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


class Room(LobbyCommands, RaceTiming):
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
        pace: BotPace | None = None,
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
        self._inbox: deque[_Action | _Admin | _Call | _Resync] = deque()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._pending_events: list[EventRec] = []
        self._pending_acks: list[_Pending] = []
        self._room_view: dict[str, Any] | None = None
        self._game_views: dict[int | None, dict[str, Any]] = {}
        self._game_views_of: Any = None
        self._last_sent: dict[Any, dict[str, Any]] = {}
        self._rulings_of: tuple[Any, list[JSON]] | None = None
        self.bots = BotSeats(game, pace or BotPace())
        self._stimulus_at: dict[str, int] = {}
        """Each live race stimulus → when it was first broadcast (what a bot "saw")."""
        self.next_seed: str | None = None
        """Tests only (``POST /api/_test/seed``): the seed of the next game instead of a random one."""

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

    def post_admin(self, peer: Peer, client_id: str, fn: Callable[[], Awaitable[Any]]) -> None:
        """A host command from a socket: acked after the broadcast that carries its effect."""
        self._inbox.append(_Admin(peer, client_id, fn))
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
            elif isinstance(item, _Admin):
                try:
                    await item.fn()
                except RoomError as exc:
                    self._reject(item.peer, item.client_id, exc.code, exc.message)
                except Exception:  # a bug must not drop the rest of the batch
                    log.exception("room %s: host command failed", self.code)
                    self._reject(item.peer, item.client_id, "SERVER_ERROR", "The server could not do that.")
                else:
                    self._pending_acks.append(_Pending(item.peer, item.client_id))
            else:
                try:
                    item.done.set_result(await item.fn())
                except Exception as exc:
                    if not item.done.done():
                        item.done.set_exception(exc)
        now = self.now()
        self._fire_due(now)
        self._run_bots(now)
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
        pending = (self.game.engine.next_deadline(self.game.state), self.bots.deadline())
        return min((at for at in pending if at is not None), default=None)

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
            self._log_input(game, "tick", now, action={RULINGS_KEY: rulings} if rulings else None)

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
            self._reject(peer, client_id, exc.code, exc.message, exc.detail)
            return
        self._accept(game, move, new, client_id)
        self._pending_acks.append(_Pending(peer, client_id))

    def _accept(self, game: GameRun, move: Move, new: Any, client_id: str) -> None:
        """The move is legal: it becomes the state, and is queued for the event log."""
        logged = move.logged_action()
        rulings = self._new_rulings(game.state, new)
        if rulings:
            logged[RULINGS_KEY] = rulings
        game.state = new
        game.applied[(move.seat, client_id)] = game.next_seq
        self._log_input(game, "move", move.at, move.seat, logged, move.rtt, client_id)

    def _log_input(
        self,
        game: GameRun,
        kind: str,
        at: int,
        seat: int | None = None,
        action: JSON | None = None,
        rtt: int | None = None,
        client_id: str | None = None,
    ) -> None:
        """Queue an accepted input for the event log; it is committed before anyone sees its effect."""
        self._pending_events.append(EventRec(game.next_seq, kind, seat, action, at, rtt, client_id))
        game.next_seq += 1

    # --- bots ----------------------------------------------------------------

    def _run_bots(self, now: int) -> None:
        """Stand-ins take over held seats, bots whose thinking is over act, the rest plan."""
        game = self.game
        if game is None or self.status != "playing" or not self.bots.active():
            return
        if self.bots.take_over(now):
            self.invalidate()
        for seat in self.bots.ready(now):
            action = self.bots.choose(self._game_view_of(game.state, seat))
            if action is not None:
                self._bot_move(game, seat, action, now)
        self.bots.plan(game.state, lambda seat: self._game_view_of(game.state, seat), now)

    def _bot_move(self, game: GameRun, seat: int, action: JSON, at: int) -> None:
        self._fire_due(at - 1)
        move = Move(seat=seat, action=action, at=at, rtt=0, timing=self._timing(seat, None))
        try:
            new = game.engine.apply(game.state, move)
        except IllegalAction as exc:
            # A bot only picks from its view's legal actions; a reject here is a bot bug, not the table's.
            log.warning(
                "room %s: bot at seat %d tried %r: %s %s", self.code, seat, action, exc.code, exc.message
            )
            return
        self._accept(game, move, new, f"bot-{game.next_seq}")

    def begin_bots(self) -> None:
        """A game starts or is recovered: bots take their seats; people not connected are away from now."""
        seated = [m for m in self.members.values() if m.role == "seat" and m.seat is not None]
        self.bots.begin(
            bots=[m.seat for m in seated if m.bot and m.seat is not None],
            away=[m.seat for m in seated if not m.bot and m.connections == 0 and m.seat is not None],
            now=self.now(),
        )

    def _reject(
        self, peer: Peer, client_id: str, code: str, message: str, detail: JSON | None = None
    ) -> None:
        reject: JSON = {"type": "reject", "id": client_id, "code": code, "message": message}
        if detail is not None:
            reject["detail"] = detail
        peer.send(_dumps(reject))

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
            self.bots.end()
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
            entry = {"player_id": m.player_id, "name": m.name, "connected": m.connections > 0 or m.bot}
            if m.role == "seat" and m.seat is not None and m.seat < seat_count:
                standin = self.status == "playing" and m.seat in self.bots.standins
                seats[m.seat] = {**entry, "seat": m.seat, "prefs": m.prefs, "bot": m.bot, "standin": standin}
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
        return self._game_view_of(game.state, key)

    def _game_view_of(self, state: Any, key: int | None) -> dict[str, Any]:
        """One view per seat key and state, shared by the broadcast and the bots."""
        if self._game_views_of is not state:
            self._game_views = {}
            self._game_views_of = state
        view = self._game_views.get(key)
        if view is None:
            view = self.engine.view(state, key)
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
        if self.status == "playing" and member.role == "seat" and member.seat is not None:
            self.bots.back(member.seat)  # a stand-in hands the seat back
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
                seat = member.seat if member.role == "seat" and not member.bot else None
                if seat is not None and member.connections == 0 and self.status == "playing":
                    self.bots.gone(seat, self.now())
            self.invalidate()
