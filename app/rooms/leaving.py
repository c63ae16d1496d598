"""Leaving a running game, taking the seat back, and the host's end of any game.

A player who leaves a running game keeps their seat in it (its cards stay in
play) but no longer plays it: a stand-in bot plays it at once, not after the
seat hold of a dropped connection. The member is marked ``left`` in the lobby
(durably, so a rebuilt room knows), watches if they come back, and takes the
seat back with the ordinary take-a-seat command. The host may remove a player
who left; the stand-in then plays that seat to the end.

The host's end stops any game as it stands (``HostEnd``, logged like any input;
see :mod:`app.engines.stopped`); resigning is a seat's move and needs nothing here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.engines.base import IllegalAction
from app.engines.step import EndEarly, HostEnd
from app.rooms.errors import RoomError
from app.rooms.lobby import Lobby, Member

if TYPE_CHECKING:
    from app.rooms.room import Room


def after_leave(room: Room, player_id: str) -> None:
    """The player left (their lobby change is taken): a stand-in takes a running game's seat at once."""
    member = room.members.get(player_id)
    if room.game is not None and room.status == "playing" and member is not None and member.role == "left":
        assert member.seat is not None
        room.bots.stand_in(member.seat)
        room.frames.invalidate()
    room.close_peers(player_id, 1000, "LEFT", "You left the room.")


def after_take_seat(room: Room, member: Member) -> None:
    """A player who left took their seat back: the stand-in hands it over (and holds it if they are
    not connected, as for any dropped connection)."""
    if room.status != "playing" or member.seat is None or member.seat not in room.bots.standins:
        return
    room.bots.back(member.seat)
    if member.connections == 0:
        room.bots.gone(member.seat, room.now())
    room.frames.invalidate()


def stand_ins(room: Room, lobby: Lobby) -> list[int]:
    """Seats of the running game no person holds: the player left it, or the host removed them."""
    if room.game is None:
        return []
    held = {m.seat for m in lobby.members.values() if m.role == "seat"}
    return [seat for seat in range(len(room.game.rec.seats)) if seat not in held]


def host_ends(room: Room, host_id: str, end: type[EndEarly | HostEnd]) -> None:
    """The host ends the running game: ``EndEarly`` a decided match by its rules, ``HostEnd`` any game
    as it stands; logged like any input, so a replay ends it at the same point."""
    room.lobby.require_host(host_id)
    if room.game is None or room.status != "playing":
        raise RoomError("NO_GAME", "No game is running in this room.", 409)
    try:
        room.play(end(room.now()))
    except IllegalAction as exc:
        raise RoomError(exc.code, exc.message, 409) from exc
