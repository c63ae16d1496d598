"""The lobby: create, list, join, watch, leave; the host starts, configures and removes."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request, Response

from app.api.deps import NewRoomLimit, PlayerDep, RoomDep, ServicesDep
from app.api.schemas import (
    BotRequest,
    MembershipOut,
    RoomCreate,
    RoomOut,
    RoomPageOut,
    RoomSummary,
    RoomUpdate,
    SeatRequest,
    TeamsRequest,
    error_responses,
)
from app.db.room_queries import BadCursor, open_rooms
from app.engines import get_engine
from app.rooms.errors import RoomError
from app.rooms.room import Room

router = APIRouter(
    prefix="/api/rooms",
    tags=["rooms"],
    # 503: the room could not store a change (SERVER_ERROR); nothing changed, try again.
    responses=error_responses(401, 403, 404, 409, 503),
)


def room_link(request: Request, code: str) -> str:
    return str(request.base_url).rstrip("/") + f"/r/{code}"


def room_out(request: Request, room: Room) -> RoomOut:
    view: dict[str, Any] = room.room_view()
    return RoomOut.model_validate({**view, "link": room_link(request, room.code)})


@router.post(
    "", response_model=RoomOut, status_code=201, dependencies=[NewRoomLimit], responses=error_responses(429)
)
async def create_room(
    body: RoomCreate, player: PlayerDep, services: ServicesDep, request: Request
) -> RoomOut:
    room = await services.rooms.create(
        game=body.game, options=body.options, public=body.public, host_id=player.id, host_name=player.name
    )
    return room_out(request, room)


PAGE_DEFAULT = 50
PAGE_MAX = 100


@router.get("", response_model=RoomPageOut)
async def list_open_rooms(
    services: ServicesDep,
    request: Request,
    limit: Annotated[int, Query(ge=1, le=PAGE_MAX, description="Rooms per page.")] = PAGE_DEFAULT,
    cursor: Annotated[
        str | None, Query(max_length=64, description="The `next` of the previous page.")
    ] = None,
) -> RoomPageOut:
    """Public rooms still waiting for players, newest first, a page at a time (from the database:
    a room unloaded from memory is listed all the same)."""
    try:
        page = await open_rooms(services.store, limit, cursor)
    except BadCursor:
        raise RoomError("BAD_REQUEST", "query.cursor: not a cursor this list handed out.", 422) from None
    summaries = []
    for room in page.rooms:
        try:
            engine = get_engine(room.game)
        except KeyError:
            continue  # a game this server no longer offers: nobody could join it
        summaries.append(
            RoomSummary(
                code=room.code,
                link=room_link(request, room.code),
                game=room.game,
                title=engine.title,
                status=room.status,
                players=room.players,
                max_players=engine.max_players,
            )
        )
    return RoomPageOut(rooms=summaries, next=page.next)


@router.get("/{code}", response_model=RoomOut)
async def get_room(room: RoomDep, request: Request) -> RoomOut:
    return room_out(request, room)


@router.post("/{code}/seats", response_model=MembershipOut)
async def take_seat(
    room: RoomDep, player: PlayerDep, body: Annotated[SeatRequest, Body(default_factory=SeatRequest)]
) -> MembershipOut:
    member = await room.call(lambda: room.desk.join_seat(player.id, player.name, body.seat, body.prefs))
    return MembershipOut(role=member.role, seat=member.seat)


@router.post("/{code}/watch", response_model=MembershipOut)
async def watch(room: RoomDep, player: PlayerDep) -> MembershipOut:
    member = await room.call(lambda: room.desk.watch(player.id, player.name))
    return MembershipOut(role=member.role, seat=member.seat)


@router.post("/{code}/leave", status_code=204)
async def leave(room: RoomDep, player: PlayerDep) -> Response:
    await room.call(lambda: room.desk.leave(player.id))
    return Response(status_code=204)


@router.post("/{code}/start", response_model=RoomOut)
async def start(room: RoomDep, player: PlayerDep, request: Request) -> RoomOut:
    await room.call(lambda: room.desk.start_game(player.id))
    return room_out(request, room)


@router.patch("/{code}", response_model=RoomOut)
async def configure(body: RoomUpdate, room: RoomDep, player: PlayerDep, request: Request) -> RoomOut:
    await room.call(lambda: room.desk.configure(player.id, body.options, body.public))
    return room_out(request, room)


@router.post("/{code}/bots", response_model=MembershipOut, status_code=201, responses=error_responses(422))
async def seat_bot(
    room: RoomDep, player: PlayerDep, body: Annotated[BotRequest, Body(default_factory=BotRequest)]
) -> MembershipOut:
    """The host seats a bot in an empty chair; remove it like any member."""
    member = await room.call(lambda: room.desk.seat_bot(player.id, body.seat))
    return MembershipOut(role=member.role, seat=member.seat)


@router.put("/{code}/teams", response_model=RoomOut, responses=error_responses(422))
async def assign_teams(body: TeamsRequest, room: RoomDep, player: PlayerDep, request: Request) -> RoomOut:
    """The host assigns the teams (Leekha 2 vs 2) before the match; teammates sit opposite."""
    await room.call(lambda: room.desk.assign_teams(player.id, body.teams))
    return room_out(request, room)


@router.post("/{code}/end", response_model=RoomOut)
async def end_match(room: RoomDep, player: PlayerDep, request: Request) -> RoomOut:
    """The host ends a decided match at once (Leekha: once nobody can catch up)."""
    await room.call(lambda: room.desk.end_match(player.id))
    return room_out(request, room)


@router.post("/{code}/end-game", response_model=RoomOut)
async def end_game(room: RoomDep, player: PlayerDep, request: Request) -> RoomOut:
    """The host ends the running game as it stands, whatever the game: the scores so far, no winner;
    logged, so the result reads as ended by the host."""
    await room.call(lambda: room.desk.end_game(player.id))
    return room_out(request, room)


@router.delete("/{code}/members/{player_id}", status_code=204)
async def remove_player(player_id: str, room: RoomDep, player: PlayerDep) -> Response:
    """The host removes a member; during a game only a player who left (a bot plays the seat on)."""
    await room.call(lambda: room.desk.remove_player(player.id, player_id))
    return Response(status_code=204)
