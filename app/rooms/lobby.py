"""The lobby's commands: seats, watching, leaving, options, bots, teams, the start and the early end.

They are mixed into :class:`~app.rooms.room.Room` and run inside its actor (through
``Room.call`` or ``Room.post_admin``), so they change the room between two turns,
never during one. Each refuses with a :class:`RoomError` carrying a stable code.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from app.db.store import EventRec, GameRec, Store
from app.engines.base import Engine, IllegalAction, seed_hash
from app.rooms.errors import RoomError
from app.rooms.members import GameRun, Member
from app.rooms.replay import seat_setups

if TYPE_CHECKING:
    from app.rooms.bots import BotSeats
    from app.rooms.peer import Peer

BOT_NAMES = (
    "Ada (bot)",
    "Babbage (bot)",
    "Hopper (bot)",
    "Turing (bot)",
    "Lovelace (bot)",
    "Knuth (bot)",
    "Liskov (bot)",
    "Dijkstra (bot)",
)


class LobbyCommands:
    """The commands; the attributes below are the room's (see :class:`~app.rooms.room.Room`)."""

    code: str
    engine: Engine[Any, Any]
    game_name: str
    options: dict[str, Any]
    public: bool
    host_id: str
    status: str
    members: dict[str, Member]
    game: GameRun | None
    peers: list[Peer]
    bots: BotSeats
    next_seed: str | None
    _store: Store
    _pending_events: list[EventRec]

    if TYPE_CHECKING:

        def now(self) -> int: ...
        def invalidate(self) -> None: ...
        def begin_bots(self) -> None: ...
        def _fire_due(self, now: int) -> None: ...
        def _log_input(self, game: GameRun, kind: str, at: int) -> None: ...

    def _require_host(self, player_id: str) -> None:
        if player_id != self.host_id:
            raise RoomError("NOT_HOST", "Only the host can do that.", 403)

    async def join_seat(self, player_id: str, name: str, seat: int | None, prefs: dict[str, Any]) -> Member:
        member = self.members.get(player_id)
        if self.status == "playing" and (member is None or member.role != "seat"):
            raise RoomError("GAME_RUNNING", "The game has started; you can watch until it ends.", 409)
        if self.status == "playing" and member is not None:
            return member  # already seated: rejoining is a no-op
        if seat is None and member is not None and member.role == "seat" and member.seat is not None:
            seat = member.seat
        seat = self._free_seat(seat, player_id)
        if member is None:
            member = Member(player_id, name, "seat", seat, dict(prefs))
            self.members[player_id] = member
        else:
            member.role, member.seat, member.prefs = "seat", seat, dict(prefs)
        await self._store.put_member(self.code, player_id, "seat", seat, member.prefs)
        self.invalidate()
        return member

    def _free_seat(self, seat: int | None, player_id: str | None = None) -> int:
        """``seat`` if it is free (for ``player_id``), or the first free seat when None."""
        taken = {m.seat for m in self.members.values() if m.role == "seat" and m.player_id != player_id}
        if seat is None:
            free = [s for s in range(self.engine.max_players) if s not in taken]
            if not free:
                raise RoomError("ROOM_FULL", "Every seat is taken; you can watch.", 409)
            return free[0]
        if not 0 <= seat < self.engine.max_players:
            raise RoomError("NO_SUCH_SEAT", f"Seats are numbered 0 to {self.engine.max_players - 1}.", 422)
        if seat in taken:
            raise RoomError("SEAT_TAKEN", "That seat is taken.", 409)
        return seat

    async def seat_bot(self, host_id: str, seat: int | None) -> Member:
        """The host puts a bot in an empty chair (before the game starts)."""
        self._require_host(host_id)
        if self.status == "playing":
            raise RoomError("GAME_RUNNING", "Bots can only be seated before the game starts.", 409)
        seat = self._free_seat(seat)
        names = {m.name for m in self.members.values()}
        name = next(n for n in (*BOT_NAMES, *(f"Bot {i}" for i in range(1, 100))) if n not in names)
        player = await self._store.create_player(name, bot=True)
        member = Member(player.id, name, "seat", seat, {}, bot=True)
        self.members[player.id] = member
        await self._store.put_member(self.code, player.id, "seat", seat, {})
        self.invalidate()
        return member

    async def assign_teams(self, host_id: str, teams: list[list[str]]) -> None:
        """The host sorts the seated players into teams; each team takes its seats (teammates opposite)."""
        self._require_host(host_id)
        if self.status == "playing":
            raise RoomError("GAME_RUNNING", "Teams can only change before the game starts.", 409)
        hook = getattr(self.engine, "team_seats", None)
        options = self.engine.options_model.model_validate(self.options)
        layout: tuple[tuple[int, ...], ...] | None = None if hook is None else hook(options)
        if layout is None:
            raise RoomError("NOT_TEAM_GAME", f"{self.engine.title} is not being played in teams here.", 409)
        seated = {m.player_id: m for m in self.members.values() if m.role == "seat"}
        named = [p for team in teams for p in team]
        shape = [len(t) for t in layout]
        if [len(t) for t in teams] != shape:
            raise RoomError(
                "BAD_TEAMS", f"Name {len(shape)} teams of {' and '.join(map(str, shape))} players.", 422
            )
        if len(set(named)) != len(named) or set(named) != set(seated):
            raise RoomError(
                "BAD_TEAMS", "Every seated player must be in exactly one team (seat everyone first).", 422
            )
        moves = {
            p: seat
            for team, seats in zip(teams, layout, strict=True)
            for p, seat in zip(team, seats, strict=True)
        }
        moving = [seated[p] for p, seat in moves.items() if seated[p].seat != seat]
        for m in moving:  # free the seats first: a seat has one holder at any moment
            await self._store.put_member(self.code, m.player_id, "seat", None, m.prefs)
        for m in moving:
            m.seat = moves[m.player_id]
            await self._store.put_member(self.code, m.player_id, "seat", m.seat, m.prefs)
        self.invalidate()

    async def end_match(self, host_id: str) -> None:
        """The host ends a decided match at once (where the game allows it); logged like any input."""
        self._require_host(host_id)
        game = self.game
        if game is None or self.status != "playing":
            raise RoomError("NO_GAME", "No game is running in this room.", 409)
        end = getattr(game.engine, "end_decided", None)
        if end is None:
            raise RoomError("NO_EARLY_END", f"A game of {self.engine.title} cannot be ended early.", 409)
        now = self.now()
        self._fire_due(now - 1)
        try:
            new = end(game.state, now)
        except IllegalAction as exc:
            raise RoomError(exc.code, exc.message, 409) from exc
        game.state = new
        self._log_input(game, "end", now)

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
        """A room keeps a host while people are in it: the lowest seat takes over, else the first spectator.

        Bots never host; a room left to bots keeps its old host (who can come back to it).
        """
        people = [m for m in self.members.values() if not m.bot]
        if not people:
            return
        heir = min(people, key=lambda m: (m.role != "seat", m.seat or 0, m.name))
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
        seats = [{"player_id": m.player_id, "name": m.name, "prefs": m.prefs, "bot": m.bot} for m in seated]
        options = self.engine.options_model.model_validate(self.options)
        seed, self.next_seed = self.next_seed or secrets.token_hex(16), None
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
        self.begin_bots()
        await self._store.update_room(self.code, status="playing")
        self.invalidate()
        return rec

    def _close_peers(self, player_id: str, code: int, error: str, message: str) -> None:
        for peer in [p for p in self.peers if p.player_id == player_id]:
            peer.close(code, error, message)


def validate_options(engine: Engine[Any, Any], options: dict[str, Any]) -> dict[str, Any]:
    try:
        model = engine.options_model.model_validate(options)
    except Exception as exc:
        raise RoomError("BAD_OPTIONS", f"Invalid options: {exc}", 422) from exc
    dumped: dict[str, Any] = model.model_dump(mode="json")
    return dumped
