"""The lobby model: who is in a room, in which seat, with which prefs, and the room's options.

A :class:`Lobby` is a plain object with no I/O. Each command checks its
preconditions, refuses with a :class:`RoomError` carrying a stable code, and
otherwise changes the lobby and records the database writes that make the change
durable (:attr:`Lobby.writes`). The room runs a command on a :meth:`Lobby.copy`,
stores the writes, and only then takes the copy as its lobby: memory never
holds a change the database refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import ValidationError

from app.db.lobby_writes import DropMember, LobbyWrite, PutMember, PutRoom
from app.engines.base import Engine
from app.rooms.errors import RoomError

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


@dataclass(slots=True)
class Member:
    player_id: str
    name: str
    role: str  # "seat" | "spectator" | "left" (left a running game: a stand-in plays the seat)
    seat: int | None
    prefs: dict[str, Any] = field(default_factory=dict)
    connections: int = 0
    bot: bool = False

    @property
    def seated(self) -> bool:
        return self.role == "seat" and self.seat is not None


Write = LobbyWrite


class Lobby:
    """Members, seats, prefs, options, visibility, host and status of one room."""

    def __init__(
        self,
        engine: Engine[Any, Any],
        *,
        options: dict[str, Any],
        public: bool,
        host_id: str,
        status: str,
        members: Mapping[str, Member] | None = None,
        max_spectators: int | None = None,
    ) -> None:
        self.engine = engine
        self.max_spectators = max_spectators
        """How many may watch at once (None: no bound); seated members never count."""
        self.options = options
        self.public = public
        self.host_id = host_id
        self.status = status
        self.members: dict[str, Member] = dict(members or {})
        self.writes: list[Write] = []

    def copy(self) -> Lobby:
        """A draft to run one command on: its own members and no writes yet."""
        return Lobby(
            self.engine,
            options=self.options,
            public=self.public,
            host_id=self.host_id,
            status=self.status,
            members={pid: replace(m, prefs=dict(m.prefs)) for pid, m in self.members.items()},
            max_spectators=self.max_spectators,
        )

    @property
    def playing(self) -> bool:
        return self.status == "playing"

    def seated(self) -> list[Member]:
        """Seated members in seat order."""
        return sorted((m for m in self.members.values() if m.seated), key=lambda m: m.seat or 0)

    # --- helpers --------------------------------------------------------------

    def _spectator(self, player_id: str, name: str) -> Member:
        """A new member who watches, if the room has room for one more."""
        cap = self.max_spectators
        if cap is not None and sum(1 for m in self.members.values() if m.role == "spectator") >= cap:
            raise RoomError("ROOM_CROWDED", f"At most {cap} people can watch this room at once.", 409)
        member = Member(player_id, name, "spectator", None)
        self.members[player_id] = member
        return member

    def _put(self, member: Member) -> None:
        self.writes.append(PutMember(member.player_id, member.role, member.seat, dict(member.prefs)))

    def require_host(self, player_id: str) -> None:
        if player_id != self.host_id:
            raise RoomError("NOT_HOST", "Only the host can do that.", 403)

    def _not_playing(self, message: str) -> None:
        if self.playing:
            raise RoomError("GAME_RUNNING", message, 409)

    def free_seat(self, seat: int | None, player_id: str | None = None) -> int:
        """``seat`` if it is free (for ``player_id``), or the first free seat when None."""
        taken = {m.seat for m in self.members.values() if m.role == "seat" and m.player_id != player_id}
        top = self.engine.max_players
        if seat is None:
            free = [s for s in range(top) if s not in taken]
            if not free:
                raise RoomError("ROOM_FULL", "Every seat is taken; you can watch.", 409)
            return free[0]
        if not 0 <= seat < top:
            raise RoomError("NO_SUCH_SEAT", f"Seats are numbered 0 to {top - 1}.", 422)
        if seat in taken:
            raise RoomError("SEAT_TAKEN", "That seat is taken.", 409)
        return seat

    def check_prefs(self, prefs: Mapping[str, Any]) -> dict[str, Any]:
        """The seat prefs as the game's prefs model accepts them (``BAD_PREFS`` otherwise)."""
        try:
            model = self.engine.prefs_model.model_validate(dict(prefs))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "prefs"
            raise RoomError("BAD_PREFS", f"Seat choice '{where}': {first['msg']}.", 422) from None
        clean: dict[str, Any] = model.model_dump(mode="json", exclude_none=True)
        return clean

    # --- commands ---------------------------------------------------------------

    def visit(self, player_id: str, name: str) -> Member:
        """A connection arrives: someone not yet a member watches."""
        member = self.members.get(player_id)
        if member is None:
            member = self._spectator(player_id, name)
            self._put(member)
        return member

    def join_seat(self, player_id: str, name: str, seat: int | None, prefs: Mapping[str, Any]) -> Member:
        member = self.members.get(player_id)
        if self.playing and member is not None and member.role == "left":
            member.role = "seat"  # back in the seat they left (the stand-in hands it over)
            self._put(member)
            return member
        if self.playing and (member is None or member.role != "seat"):
            raise RoomError("GAME_RUNNING", "The game has started; you can watch until it ends.", 409)
        if self.playing and member is not None:
            return member  # already seated: rejoining is a no-op
        clean = self.check_prefs(prefs)
        if seat is None and member is not None and member.seated:
            seat = member.seat
        seat = self.free_seat(seat, player_id)
        if member is None:
            member = Member(player_id, name, "seat", seat, clean)
            self.members[player_id] = member
        else:
            member.role, member.seat, member.prefs = "seat", seat, clean
        self._put(member)
        return member

    def seat_bot(self, host_id: str, seat: int | None) -> tuple[int, str]:
        """The seat and name of a bot the host puts in an empty chair; :meth:`add_bot` seats it."""
        self.require_host(host_id)
        self._not_playing("Bots can only be seated before the game starts.")
        seat = self.free_seat(seat)
        names = {m.name for m in self.members.values()}
        name = next(n for n in (*BOT_NAMES, *(f"Bot {i}" for i in range(1, 100))) if n not in names)
        return seat, name

    def add_bot(self, player_id: str, name: str, seat: int) -> Member:
        member = Member(player_id, name, "seat", seat, {}, bot=True)
        self.members[player_id] = member
        self._put(member)
        return member

    def assign_teams(self, host_id: str, teams: list[list[str]]) -> None:
        """The host sorts the seated players into teams; each team takes its seats (teammates opposite)."""
        self.require_host(host_id)
        self._not_playing("Teams can only change before the game starts.")
        options = self.engine.options_model.model_validate(self.options)
        layout = self.engine.team_seats(options)
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
        self._move_seats({p: seat for p, seat in moves.items() if seated[p].seat != seat})

    def _move_seats(self, moves: Mapping[str, int]) -> None:
        # Free the seats first: a seat has one holder at any moment, also inside one transaction.
        for player_id in moves:
            member = self.members[player_id]
            self.writes.append(PutMember(player_id, "seat", None, dict(member.prefs)))
        for player_id, seat in moves.items():
            member = self.members[player_id]
            member.seat = seat
            self._put(member)

    def watch(self, player_id: str, name: str) -> Member:
        member = self.members.get(player_id)
        if member is not None and member.role == "seat" and self.playing:
            raise RoomError("GAME_RUNNING", "You hold a seat in the running game.", 409)
        if member is not None and member.role == "left" and self.playing:
            return member  # watching already; the seat they left stays theirs to take back
        if member is None:
            member = self._spectator(player_id, name)
        member.role, member.seat = "spectator", None
        self._put(member)
        return member

    def leave(self, player_id: str) -> bool:
        """The player leaves; False when they leave a seat of the running game, which stays in the
        game (its cards stay in play) for a stand-in, and for them to take back."""
        member = self.members.get(player_id)
        if member is None:
            raise RoomError("NOT_A_MEMBER", "You are not in this room.", 404)
        if member.role in ("seat", "left") and self.playing:
            member.role = "left"
            self._put(member)
            if player_id == self.host_id:
                self._hand_over_host()
            return False
        self._drop(player_id)
        if player_id == self.host_id and self.members:
            self._hand_over_host()
        return True

    def _drop(self, player_id: str) -> None:
        del self.members[player_id]
        self.writes.append(DropMember(player_id))

    def _hand_over_host(self) -> None:
        """A room keeps a host while people are in it: the lowest seat takes over, else the first spectator.

        Bots never host; a room left to bots keeps its old host (who can come back to it).
        """
        people = [m for m in self.members.values() if not m.bot and m.role != "left"]
        if not people:
            return
        heir = min(people, key=lambda m: (m.role != "seat", m.seat or 0, m.name))
        self.host_id = heir.player_id
        self.writes.append(PutRoom(host_id=heir.player_id))

    def remove_player(self, host_id: str, target_id: str) -> None:
        self.require_host(host_id)
        if target_id == host_id:
            raise RoomError("CANNOT_REMOVE_HOST", "The host cannot remove themselves.", 409)
        member = self.members.get(target_id)
        if member is None:
            raise RoomError("NOT_A_MEMBER", "That player is not in this room.", 404)
        if member.role == "seat" and self.playing:
            raise RoomError(
                "GAME_RUNNING", "A seated player cannot be removed during a game, only one who left.", 409
            )
        self._drop(target_id)  # a seat they left stays with its stand-in to the end

    def configure(self, host_id: str, options: Mapping[str, Any] | None, public: bool | None) -> None:
        self.require_host(host_id)
        self._not_playing("Options can only change before the game starts.")
        if options is not None:
            self.options = validate_options(self.engine, {**self.options, **options})
        if public is not None:
            self.public = public
        self.writes.append(PutRoom(options=self.options, public=self.public))

    def start(self, host_id: str) -> list[Member]:
        """The seated players of a new game, renumbered from 0 in seat order; the lobby is playing."""
        self.require_host(host_id)
        if self.playing:
            raise RoomError("GAME_RUNNING", "The game is already running.", 409)
        seated = sorted((m for m in self.members.values() if m.role == "seat"), key=lambda m: m.seat or 0)
        if len(seated) < self.engine.min_players:
            raise RoomError(
                "NOT_ENOUGH_PLAYERS",
                f"{self.engine.title} needs at least {self.engine.min_players} players.",
                409,
            )
        self._move_seats({m.player_id: i for i, m in enumerate(seated) if m.seat != i})
        self.set_status("playing")
        return seated

    def finish(self) -> None:
        """The game ended: whoever left it no longer holds its seat (they watch if they are here)."""
        for member in self.members.values():
            if member.role == "left":
                member.role, member.seat = "spectator", None
                self._put(member)
        self.set_status("finished")

    def set_status(self, status: str) -> None:
        self.status = status
        self.writes.append(PutRoom(status=status))


def validate_options(engine: Engine[Any, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    try:
        model = engine.options_model.model_validate(dict(options))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "options"
        raise RoomError("BAD_OPTIONS", f"Invalid option '{where}': {first['msg']}.", 422) from None
    dumped: dict[str, Any] = model.model_dump(mode="json")
    return dumped
