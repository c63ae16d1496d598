"""Dependencies declared once: the process services, the current player, a room by code, the abuse limits."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request
from starlette.requests import HTTPConnection

from app.api.client_address import client_address, limit_key
from app.api.errors import RateLimited
from app.db.room_queries import hosted_unfinished
from app.db.store import PlayerRec
from app.realtime.ratelimit import KeyedBuckets
from app.rooms.errors import RoomError
from app.rooms.room import Room
from app.services import Services


def get_services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header; None without one.

    >>> bearer_token("Bearer abc "), bearer_token("Basic abc"), bearer_token(None)
    ('abc', None, None)
    """
    if not authorization or not authorization.startswith("Bearer "):
        return None
    return authorization.removeprefix("Bearer ").strip()


async def current_player(
    services: ServicesDep, authorization: Annotated[str | None, Header()] = None
) -> PlayerRec:
    token = bearer_token(authorization)
    if token is None:
        raise RoomError("AUTH_REQUIRED", "Send your player token as 'Authorization: Bearer <token>'.", 401)
    player_id = services.signer.verify(token)
    player = await services.store.get_player(player_id) if player_id else None
    if player is None:
        raise RoomError("BAD_TOKEN", "That token is not valid here; create a player first.", 401)
    return player


PlayerDep = Annotated[PlayerRec, Depends(current_player)]


async def room_by_code(code: str, services: ServicesDep) -> Room:
    return await services.rooms.require(code)


RoomDep = Annotated[Room, Depends(room_by_code)]


# --- abuse limits (settings in app.config; 429 RATE_LIMITED with Retry-After, 409 for counts) ---


def client_key(conn: HTTPConnection, services: Services) -> str:
    """What per-address limits count for this request or WebSocket (see app.api.client_address)."""
    return limit_key(client_address(conn, services.settings.trusted_proxies))


def _seconds(services: Services) -> float:
    # The process clock: manual under BORDET_TEST_CLOCK, so tests move past a window without sleeping.
    return services.clock.now() / 1000


def _take(buckets: KeyedBuckets, key: str, now: float, what: str) -> None:
    wait = buckets.take(key, now)
    if wait:
        raise RateLimited("RATE_LIMITED", what, wait)


async def limit_new_players(request: Request, services: ServicesDep) -> None:
    _take(
        services.limits.players,
        client_key(request, services),
        _seconds(services),
        f"At most {services.settings.players_per_min} new players a minute from one address",
    )


async def limit_new_rooms(request: Request, services: ServicesDep, player: PlayerDep) -> None:
    settings, now = services.settings, _seconds(services)
    per_minute = f"At most {settings.rooms_per_min} new rooms a minute"
    _take(
        services.limits.rooms, f"addr:{client_key(request, services)}", now, f"{per_minute} from one address"
    )
    _take(services.limits.rooms, f"player:{player.id}", now, f"{per_minute} per player")
    # Counted in the database: rooms unloaded from memory still count.
    if await hosted_unfinished(services.store, player.id) >= settings.rooms_per_host:
        raise RoomError(
            "TOO_MANY_ROOMS",
            f"You already host {settings.rooms_per_host} unfinished rooms; finish or leave one first.",
            409,
        )


NewPlayerLimit = Depends(limit_new_players)
NewRoomLimit = Depends(limit_new_rooms)
