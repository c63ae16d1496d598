"""The lobby's commands as a room runs them: on a draft lobby, stored, then taken.

Each command runs inside the room's actor (through ``Room.call`` or
``Room.post_admin``), between two turns. The pure :class:`~app.rooms.lobby.Lobby`
decides and records its writes; the desk stores them in one transaction and
only then hands the draft to the room, so a refused write leaves the room as it
was. Starting a game, leaving it and the host's ends touch the game as well.
"""

from __future__ import annotations

import logging
import secrets
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from app.db.store import GameRec
from app.engines.base import IllegalAction, seed_hash
from app.engines.step import EndEarly, HostEnd
from app.rooms import leaving
from app.rooms.audience import Viewer
from app.rooms.errors import RoomError
from app.rooms.frames import dumps, room_view_of
from app.rooms.inbox import Admin, Call
from app.rooms.lobby import Lobby, Member
from app.rooms.peer import Peer
from app.rooms.replay import seat_setups
from app.rooms.table import Table

if TYPE_CHECKING:
    from app.rooms.room import Room

log = logging.getLogger(__name__)

T = TypeVar("T")


class LobbyDesk:
    def __init__(self, room: Room) -> None:
        # A weak reference: the room owns its desk, and a desk that held its room too would make
        # every room put away wait for a full garbage collection (rare on a quiet server).
        self._room = weakref.ref(room)

    @property
    def room(self) -> Room:
        room = self._room()
        assert room is not None, "a desk outlived its room"
        return room

    async def run_call(self, item: Call) -> None:
        """A command through ``Room.call``: its caller hears back after the turn's commit, since
        an input it queued may still be refused by the log."""
        room = self.room
        queued = self._queued()
        try:
            result = await item.fn()
        except Exception as exc:
            item.done.set_exception(room.refusal(exc))
            return
        room.answers.result(item.done, result, logged=self._queued() > queued)

    async def run_admin(self, item: Admin) -> None:
        """A host command from a socket: acked after the broadcast that carries its effect."""
        room = self.room
        viewer = room.viewers.get(item.peer)
        try:
            await item.fn()
        except Exception as exc:
            refusal = room.refusal(exc)
            room.reject(item.peer, item.client_id, refusal.code, refusal.message)
        else:
            if viewer is not None:
                room.answers.ack(viewer, item.client_id)

    def _queued(self) -> int:
        game = self.room.game
        return 0 if game is None else len(game.pending)

    async def take(self, draft: Lobby) -> None:
        """Make ``draft`` the room's lobby once its writes are stored; until then nothing changes."""
        room = self.room
        self.check_view(draft)
        if draft.writes:
            writes = draft.writes
            await room.write(lambda fence: room.store.write_lobby(room.code, writes, fence))
        draft.writes = []
        room.lobby = draft
        room.frames.invalidate()

    def check_view(self, draft: Lobby) -> None:
        """The room view ``draft`` leads to can be built and sent (else the command is refused)."""
        room = self.room
        current = room.lobby
        room.lobby = draft
        try:
            dumps(room_view_of(room))
        finally:
            room.lobby = current

    async def _run(self, command: Callable[[Lobby], T]) -> T:
        draft = self.room.lobby.copy()
        result = command(draft)
        await self.take(draft)
        return result

    async def connect(self, peer: Peer, name: str) -> Member:
        """A connection joins: its player becomes a member (watching) if not one yet."""
        room = self.room
        member = await self._run(lambda lobby: lobby.visit(peer.player_id, name))
        member.connections += 1
        if room.status == "playing" and member.seated and member.seat is not None:
            room.bots.back(member.seat)  # a stand-in hands the seat back
        room.viewers[peer] = Viewer(peer)
        room.frames.invalidate()
        return member

    async def disconnect(self, peer: Peer) -> None:
        room = self.room
        if room.viewers.pop(peer, None) is None:
            return
        member = room.members.get(peer.player_id)
        if member is not None:
            member.connections = max(0, member.connections - 1)
            seat = member.seat if member.seated and not member.bot else None
            if seat is not None and member.connections == 0 and room.status == "playing":
                room.bots.gone(seat, room.now())
            if member.role == "spectator" and member.connections == 0 and member.player_id != room.host_id:
                await self._forget_spectator(member.player_id)
        room.frames.invalidate()

    async def _forget_spectator(self, player_id: str) -> None:
        """A spectator whose last connection closed leaves (coming back makes them one again): rooms
        do not keep every passer-by. A failed write only leaves the row for the next time."""
        try:
            await self._run(lambda lobby: lobby.leave(player_id))
        except Exception:
            log.warning("room=%s could not forget spectator %s", self.room.code, player_id, exc_info=True)

    async def join_seat(self, player_id: str, name: str, seat: int | None, prefs: dict[str, Any]) -> Member:
        member = await self._run(lambda lobby: lobby.join_seat(player_id, name, seat, prefs))
        leaving.after_take_seat(self.room, member)
        return member

    async def watch(self, player_id: str, name: str) -> Member:
        return await self._run(lambda lobby: lobby.watch(player_id, name))

    async def configure(self, host_id: str, options: dict[str, Any] | None, public: bool | None) -> None:
        await self._run(lambda lobby: lobby.configure(host_id, options, public))

    async def assign_teams(self, host_id: str, teams: list[list[str]]) -> None:
        await self._run(lambda lobby: lobby.assign_teams(host_id, teams))

    async def remove_player(self, host_id: str, target_id: str) -> None:
        await self._run(lambda lobby: lobby.remove_player(host_id, target_id))
        self.room.close_peers(target_id, 4003, "REMOVED", "The host removed you from the room.")

    async def leave(self, player_id: str) -> None:
        await self._run(lambda lobby: lobby.leave(player_id))
        leaving.after_leave(self.room, player_id)

    async def finish(self) -> None:
        """The game is over: the room is finished, and whoever left it gives up its seat."""
        await self._run(lambda lobby: lobby.finish())

    async def seat_bot(self, host_id: str, seat: int | None) -> Member:
        """The host puts a bot in an empty chair (before the game starts)."""
        room = self.room
        chair, name = room.lobby.seat_bot(host_id, seat)
        player = await room.store.create_player(name, bot=True)  # an unused player if the seat write fails
        return await self._run(lambda lobby: lobby.add_bot(player.id, name, chair))

    async def start_game(self, host_id: str) -> GameRec:
        room = self.room
        engine = room.engine
        draft = room.lobby.copy()
        seated = draft.start(host_id)
        seats = [{"player_id": m.player_id, "name": m.name, "prefs": m.prefs, "bot": m.bot} for m in seated]
        options = engine.options_model.model_validate(draft.options)
        seed = room.next_seed or secrets.token_hex(16)
        now = room.now()
        try:
            state = engine.start(seat_setups(seats), options, seed, now)
        except IllegalAction as exc:
            raise RoomError(exc.code, exc.message, 422) from exc
        self.check_view(draft)
        rec = await room.write(
            lambda fence: room.store.start_game(
                room.code,
                draft.writes,
                room.game_name,
                draft.options,
                seats,
                seed,
                seed_hash(seed),
                now,
                fence=fence,
            )
        )
        draft.writes = []
        room.next_seed = None
        room.lobby = draft
        room.game = Table(rec=rec, engine=engine, state=state, committed=state, next_seq=1)
        self.begin_bots()
        room.frames.invalidate()
        return rec

    async def end_match(self, host_id: str) -> None:
        """The host ends a decided match at once (where the game allows it); logged like any input."""
        leaving.host_ends(self.room, host_id, EndEarly)

    async def end_game(self, host_id: str) -> None:
        """The host ends the running game as it stands, whatever the game."""
        leaving.host_ends(self.room, host_id, HostEnd)

    def begin_bots(self) -> None:
        """A game starts or is recovered: bots take their seats; people not connected are away from
        now; a stand-in plays the seats of players who left."""
        room = self.room
        seated = [m for m in room.members.values() if m.seated]
        room.bots.begin(
            bots=[m.seat for m in seated if m.bot and m.seat is not None],
            away=[m.seat for m in seated if not m.bot and m.connections == 0 and m.seat is not None],
            now=room.now(),
            standins=leaving.stand_ins(room, room.lobby),
        )
