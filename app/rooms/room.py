"""The room actor: one asyncio task per room routes every input, in order, to the part that owns it.

Everything that changes a room goes through its inbox and is handled by that one task: player
actions, bots' moves, timer ticks, the host's end, connections coming and going, and the lobby's
commands. One turn of the loop:

1. drain the inbox: a game input goes through the one engine ``step`` (:class:`~app.rooms.table.Table`),
   a lobby command runs on a draft :class:`~app.rooms.lobby.Lobby`, taken once its writes are stored;
2. fire due deadlines as ticks and let the bots act, through the same path;
3. append every accepted game input to the event log and wait for the commit;
4. only then broadcast (:class:`~app.rooms.frames.Frames`), then the answers.

Whatever fails while handling one input rejects that input with ``SERVER_ERROR``
and leaves the room as it was before it; the room goes on with the next one.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from app.db.event_log import EventLog
from app.db.store import Store
from app.engines.base import JSON, Engine, IllegalAction, Move, Timing
from app.engines.step import Input, Tick
from app.engines.stopped import game_engine
from app.observability.metrics import IGNORED, RoomMetrics
from app.rooms.audience import Viewer
from app.rooms.bots import BotPace, BotSeats
from app.rooms.clock import Clock
from app.rooms.desk import LobbyDesk
from app.rooms.errors import SERVER_ERROR, RoomError
from app.rooms.frames import PUBLIC, Frames, ViewKey, room_view_of
from app.rooms.inbox import Action, Admin, Answers, Call, Item, Resync, reject_text
from app.rooms.lobby import Lobby, Member
from app.rooms.ownership import Ownership
from app.rooms.peer import Peer
from app.rooms.race_timing import RaceTiming
from app.rooms.table import Table
from app.tasks import cancel_and_wait

__all__ = ["PUBLIC", "Member", "Room", "Table"]

log = logging.getLogger(__name__)
T = TypeVar("T")

RETRY_MS = 1_000
"""How long a room waits before firing a timer again after it failed (or the log refused it)."""


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
        pace: BotPace | None = None,
        metrics: RoomMetrics = IGNORED,
        max_spectators: int | None = None,
        fence: int | None = None,
        lost: Callable[[str], None] | None = None,
    ) -> None:
        self.code = code
        self.metrics = metrics
        self.engine: Engine[Any, Any] = game_engine(game)
        self.game_name = game
        self.lobby = Lobby(self.engine, options=options, public=public, host_id=host_id, status=status)
        self.lobby.max_spectators = max_spectators
        self.game: Table | None = None
        self.viewers: dict[Peer, Viewer] = {}
        self.bots = BotSeats(game, pace or BotPace(), room=code)
        self.races = RaceTiming(self.engine)
        self.frames = Frames(self.engine)
        self.store = store
        self.desk = LobbyDesk(self)
        self._log = event_log
        self.ownership = Ownership(code, fence, lost, metrics.stale_owner)
        self._clock = clock
        self._offset = clock_offset
        self._inbox: deque[Item] = deque()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.answers = Answers(metrics.rejected)
        self._retry_at: int | None = None
        """After a failed timer or commit: when timers may fire again (room clock)."""
        self.put_away = False
        self.next_seed: str | None = None
        """Tests only (``POST /api/_test/seed``): the seed of the next game instead of a random one."""

    @property  # the lobby's fields, read by the API
    def members(self) -> dict[str, Member]:
        return self.lobby.members

    @property
    def status(self) -> str:
        return self.lobby.status

    @property
    def options(self) -> dict[str, Any]:
        return self.lobby.options

    @property
    def public(self) -> bool:
        return self.lobby.public

    @property
    def host_id(self) -> str:
        return self.lobby.host_id

    @property
    def fence(self) -> int | None:
        return self.ownership.fence

    def now(self) -> int:
        return self._clock.now() + self._offset

    def resume_clock_at(self, room_time: int) -> None:
        """After a restart the room clock continues from ``room_time``: downtime is a pause."""
        self._offset = room_time - self._clock.now()

    def start_actor(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"room-{self.code}")

    async def stop(self) -> None:
        await cancel_and_wait(self._task)
        self._task = None

    def put_away_if_idle(self) -> bool:
        """In the actor: take no more inputs if nothing is connected, queued or due (to be unloaded)."""
        self.put_away = not self.viewers and not self._inbox and self.next_deadline() is None
        return self.put_away

    # --- inbox (called from connection handlers and HTTP routes) ------------

    def post_action(self, peer: Peer, client_id: str, action: Any, at: int | None = None) -> None:
        # The arrival time is stamped on receipt (by the caller, or here), not when the actor gets to it.
        self._post(Action(peer, client_id, action, self.now() if at is None else at))

    def post_admin(self, peer: Peer, client_id: str, fn: Callable[[], Awaitable[Any]]) -> None:
        """A host command from a socket: answered after the broadcast that carries its effect."""
        self._post(Admin(peer, client_id, fn))

    async def call(self, fn: Callable[[], Awaitable[T]]) -> T:
        """Run ``fn`` inside the actor (lobby commands, connects); returns its result."""
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._post(Call(fn, done))
        result: T = await done
        return result

    def request_snapshot(self, peer: Peer, reason: str = "resync") -> None:
        # Through the inbox, like everything else: a flag set between turns could be slept through.
        self._post(Resync(peer, reason))

    def overflowed(self, peer: Peer) -> None:
        """The transport emptied ``peer``'s backlog outside the room (a pong, an early answer)."""
        self._post(Resync(peer, "reset"))

    async def write(self, fn: Callable[[int | None], Awaitable[T]]) -> T:
        """A write on the room's behalf, ``fn(fence)`` under its owner's fence (app/rooms/ownership.py)."""
        return await self.ownership.write(fn, leaving=self.put_away)

    def _post(self, item: Item) -> None:
        if self.put_away:  # unloaded between a lookup and this input: the next lookup loads it again
            raise RoomError("TRY_AGAIN", "The room was just put away; please try again.", 503)
        self._inbox.append(item)
        self._wake.set()

    # --- the actor loop ----------------------------------------------------

    async def _run(self) -> None:
        while True:
            # An overflow during a turn leaves a reset snapshot owed: the next turn sends it.
            if not self._inbox and not any(v.needs_snapshot for v in self.viewers.values()):
                self._wake.clear()
                deadline = self.next_deadline()
                await self._clock.wait(self._wake, None if deadline is None else deadline - self._offset)
            try:
                await self._turn()
            except asyncio.CancelledError:
                raise
            except Exception:  # each input is isolated below; this is the last line of defence
                log.exception("room=%s turn failed", self.code)
                self.frames.invalidate()

    async def _turn(self) -> None:
        batch = list(self._inbox)
        self._inbox.clear()
        for item in batch:
            if isinstance(item, Action):
                self._handle_action(item)
            elif isinstance(item, Resync):
                viewer = self.viewers.get(item.peer)
                if viewer is not None:
                    if item.reason == "reset":
                        viewer.overflowed()
                    else:
                        viewer.needs_snapshot, viewer.snapshot_reason = True, item.reason
            elif isinstance(item, Admin):
                await self.desk.run_admin(item)
            else:
                await self.desk.run_call(item)
        now = self.now()
        self._fire_due(now)
        self._run_bots(now)
        self._check_views()
        await self._commit()
        await self._finish_if_over()
        self.broadcast()
        self.answers.send()

    def refusal(self, exc: Exception) -> RoomError:
        """What a command that failed answers: its own refusal, or (a bug, logged) ``SERVER_ERROR``."""
        if isinstance(exc, RoomError):
            return exc
        log.error("room=%s command failed", self.code, exc_info=exc)
        return RoomError(*SERVER_ERROR, 503)

    def next_deadline(self) -> int | None:
        """The room-clock time of the game's next timer or bot, if any."""
        if self.game is None or self.status != "playing":
            return None
        pending = (self.engine.next_deadline(self.game.state), self.bots.deadline())
        due = min((at for at in pending if at is not None), default=None)
        if due is not None and self._retry_at is not None:
            return max(due, self._retry_at)
        return due

    # --- game inputs ---------------------------------------------------------

    def play(self, inp: Input, client_id: str | None = None, actor: str | None = None) -> None:
        """Apply one game input through the engine's ``step`` and queue it for the log (``actor``: who
        moved for the seat when not its own player). Raises ``IllegalAction`` for a move the rules
        refuse and :class:`RoomError` ``SERVER_ERROR`` for anything else; the room is unchanged then."""
        game = self.game
        assert game is not None
        before = game.state
        try:
            accepted = game.try_input(inp, client_id, actor)
            if accepted.state is before:
                return  # nothing was due
            game.accept(accepted, self.races.new_rulings(before, accepted.state))
        except IllegalAction:
            raise
        except Exception as exc:
            game.state = before
            log.error("room=%s input %r failed", self.code, inp, exc_info=exc)
            raise RoomError(*SERVER_ERROR, 503) from None

    def _check_views(self) -> None:
        """Every view the turn's inputs lead to can be built (checked once, on the last state);
        if one cannot, each input is tried again alone and those that break a view are refused."""
        game = self.game
        if game is None or not game.pending:
            return
        try:
            self._build_views(game.state)
        except Exception as exc:
            log.error(
                "room=%s a view failed; the turn's inputs are tried one by one", self.code, exc_info=exc
            )
            for event in game.retry_pending(self._build_views, self.races.new_rulings):
                self.answers.refuse(event.seat, event.client_id, *SERVER_ERROR, RoomError(*SERVER_ERROR, 503))

    def _build_views(self, state: object) -> None:
        self.frames.game_views(state, {self.key_of(viewer.player_id) for viewer in self.viewers.values()})

    def _fire_due(self, now: int) -> None:
        game = self.game
        if game is None or self.status != "playing":
            return
        deadline = self.engine.next_deadline(game.state)
        if deadline is None or deadline > now or (self._retry_at is not None and now < self._retry_at):
            return
        try:
            self.play(Tick(now))
        except RoomError:  # logged by play; tried again a little later rather than in a tight loop
            self._retry_at = now + RETRY_MS

    def _handle_action(self, item: Action) -> None:
        peer, client_id = item.peer, item.client_id
        viewer = self.viewers.get(peer)
        if viewer is None:
            return  # the connection is gone
        game = self.game
        member = self.members.get(peer.player_id)
        if member is None or not member.seated:
            self.reject(peer, client_id, "NOT_SEATED", "Only seated players can act; you are watching.")
            return
        assert member.seat is not None
        seat = member.seat
        if game is not None and game.was_applied(seat, client_id):
            # Answered once the original's effect frame has gone out (this turn's broadcast at the
            # latest). Also once the game is over: the retry of an acked action is still that action.
            self.answers.ack(viewer, client_id, duplicate=True)
            return
        if game is None or self.status != "playing":
            self.reject(peer, client_id, "NO_GAME", "No game is running in this room.")
            return
        try:
            move = Move(seat, item.action, item.at, peer.rtt, self._timing(seat, viewer))
            self.play(move, client_id)
        except IllegalAction as exc:
            self.reject(peer, client_id, exc.code, exc.message, exc.detail)
        except RoomError as exc:
            self.reject(peer, client_id, exc.code, exc.message)
        else:
            self.answers.ack(viewer, client_id, seat=seat)

    def _live_stimuli(self) -> tuple[str, ...]:
        if self.game is None or self.status != "playing":
            return ()
        return tuple(self.engine.stimuli(self.game.state))

    def _timing(self, seat: int, via: Viewer | None) -> Timing | None:
        """Every seat's link for a move by ``seat`` through ``via`` (None: a bot) while a race is live."""
        if not self.races.has_races:
            return None
        # A generator: looked at only while a race is live (most moves of most games race nothing).
        seated = ((key, v) for v in self.viewers.values() if (key := self.key_of(v.player_id)) is not None)
        seats = 0 if self.game is None else len(self.game.rec.seats)
        return self.races.timing(self._live_stimuli(), seat, via, seated, self.bots.playing(), seats)

    # --- bots ----------------------------------------------------------------

    def _run_bots(self, now: int) -> None:
        """Stand-ins take over held seats, bots whose thinking is over act, the rest plan."""
        game = self.game
        if game is None or self.status != "playing" or not self.bots.active():
            return
        if self.bots.take_over(now):
            self.frames.invalidate()
        for seat in self.bots.ready(now):
            action = self.bots.choose(self.frames.game_view(game.state, seat))
            if action is None:
                continue
            actor = "standin" if seat in self.bots.standins else None  # the seat stays its person's
            try:
                move = Move(seat, action, now, 0, self._timing(seat, None))
                self.play(move, f"{actor or 'bot'}-{game.next_seq}", actor)
            except IllegalAction as exc:
                # A bot only picks from its view's legal actions; a reject here is a bot bug, not the table's.
                log.warning("room=%s bot at seat %d tried %r: %s", self.code, seat, action, exc.code)
            except RoomError:
                pass  # logged by play; the bot plans again
        self.bots.plan(game.state, lambda seat: self.frames.game_view(game.state, seat), now)

    # --- commit, answers -------------------------------------------------------

    async def _commit(self) -> None:
        game = self.game
        if game is None or not game.pending:
            return
        events = game.take_pending()
        try:
            await self.write(lambda fence: self._log.append(game.rec.id, events, fence))
        except Exception:
            log.exception("room=%s event log append failed; rolling back %d inputs", self.code, len(events))
            game.roll_back(events)
            self.answers.refuse_logged(*SERVER_ERROR, RoomError(*SERVER_ERROR, 503))
            self._retry_at = self.now() + RETRY_MS  # a due timer waits for the log to come back
            return
        game.committed_now()
        self._retry_at = None

    async def _finish_if_over(self) -> None:
        game = self.game
        if game is None or self.status != "playing" or not self.engine.is_over(game.committed):
            return
        outcome = self.engine.result(game.committed)
        try:
            result = outcome.to_json()
            finished = await self.write(lambda fence: self.store.finish_game(game.rec.id, result, fence))
            await self.desk.finish()
        except Exception:  # tried again next turn; the game is over in the log already
            log.exception("room=%s could not mark the game finished", self.code)
            return
        game.rec = finished
        self.bots.end()
        self.frames.invalidate()

    def reject(self, peer: Peer, client_id: str, code: str, message: str, detail: JSON | None = None) -> None:
        viewer = self.viewers.get(peer)
        if viewer is not None:
            self.metrics.rejected(code)
            viewer.send(reject_text(client_id, code, message, detail))

    # --- views and frames ------------------------------------------------

    def key_of(self, player_id: str) -> ViewKey:
        member = self.members.get(player_id)
        if self.game is not None and member is not None and member.role == "seat":
            return member.seat
        return PUBLIC

    def room_view(self) -> dict[str, Any]:
        return self.frames.room_view(lambda: room_view_of(self))

    def view_for(self, key: ViewKey) -> dict[str, Any]:
        game = self.game
        return {
            "room": self.room_view(),
            "game": None if game is None else self.frames.game_view(game.state, key),
        }

    def broadcast(self) -> None:
        """Send every connection what changed in its view since its last frame."""
        groups: dict[ViewKey, list[Viewer]] = {}
        for viewer in self.viewers.values():
            groups.setdefault(self.key_of(viewer.player_id), []).append(viewer)
        if self.game is not None:
            self.frames.game_views(self.game.state, groups)
        self.frames.broadcast(groups, self.view_for)
        if self.races.has_races:
            seated = {k: v for k, v in groups.items() if k is not None}
            self.races.note_shown(self._live_stimuli(), seated, self.now())

    # --- connections -----------------------------------------------------

    async def connect(self, peer: Peer, name: str) -> Member:
        return await self.desk.connect(peer, name)

    async def disconnect(self, peer: Peer) -> None:
        await self.desk.disconnect(peer)

    def close_peers(self, player_id: str, code: int, error: str, message: str) -> None:
        for peer in [p for p in self.viewers if p.player_id == player_id]:
            peer.close(code, error, message)
