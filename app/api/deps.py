"""Dependencies declared once: the process services, the current player, a room by code."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request

from app.db.store import PlayerRec
from app.rooms.errors import RoomError
from app.rooms.room import Room
from app.services import Services


def get_services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


async def current_player(
    services: ServicesDep, authorization: Annotated[str | None, Header()] = None
) -> PlayerRec:
    if not authorization or not authorization.startswith("Bearer "):
        raise RoomError("AUTH_REQUIRED", "Send your player token as 'Authorization: Bearer <token>'.", 401)
    player_id = services.signer.verify(authorization.removeprefix("Bearer ").strip())
    player = await services.store.get_player(player_id) if player_id else None
    if player is None:
        raise RoomError("BAD_TOKEN", "That token is not valid here; create a player first.", 401)
    return player


PlayerDep = Annotated[PlayerRec, Depends(current_player)]


def room_by_code(code: str, services: ServicesDep) -> Room:
    return services.rooms.require(code)


RoomDep = Annotated[Room, Depends(room_by_code)]
