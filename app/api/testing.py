"""Test-only controls, mounted only when BORDET_TEST_CLOCK=1: move the manual room clock."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.api.deps import ServicesDep
from app.api.schemas import error_responses
from app.rooms.clock import ManualClock
from app.rooms.errors import RoomError

router = APIRouter(prefix="/api/_test", tags=["testing"], responses=error_responses(404, 409))


class Advance(BaseModel):
    ms: int | None = Field(default=None, ge=0, description="Move the clock forward by this much.")
    room: str | None = Field(default=None, description="With `until`: whose room clock to reach.")
    until: int | None = Field(default=None, description="Move forward until that room's clock reads this.")
    next_deadline: bool = Field(default=False, description="With `room`: move to that room's next deadline.")


class SeedIn(BaseModel):
    room: str
    seed: str = Field(min_length=1, max_length=128)


@router.post("/seed", status_code=204)
async def set_next_seed(body: SeedIn, services: ServicesDep) -> None:
    """The next game started in ``room`` is dealt from ``seed`` (tests that need a known deal)."""
    (await services.rooms.require(body.room)).next_seed = body.seed


class ClockOut(BaseModel):
    now: int
    room_now: int | None = None


@router.post("/clock", response_model=ClockOut)
async def advance_clock(body: Advance, services: ServicesDep) -> ClockOut:
    clock = services.clock
    assert isinstance(clock, ManualClock)
    room = await services.rooms.require(body.room) if body.room else None
    ms = body.ms or 0
    if room is not None and body.until is not None:
        ms = max(0, body.until - room.now())
    if room is not None and body.next_deadline:
        deadline = room.next_deadline()
        if deadline is None:
            raise RoomError("NO_DEADLINE", "That room has no pending deadline.", 409)
        ms = max(0, deadline - room.now())
    clock.advance(ms)
    return ClockOut(now=clock.now(), room_now=room.now() if room else None)


class RoomClockOut(BaseModel):
    room_now: int = Field(description="The room clock now.")
    durable: int | None = Field(description="The latest room-clock time the database holds for its game.")
    playing: bool = Field(description="Whether its game is running (a finished game's log holds its end).")


@router.get("/rooms/{code}/clock", response_model=RoomClockOut)
async def room_clock(code: str, services: ServicesDep) -> RoomClockOut:
    """Where the room clock stands and how far of it is durable (crash tests wait for a checkpoint)."""
    room = await services.rooms.require(code)
    game = await services.store.latest_game(room.code)
    return RoomClockOut(
        room_now=room.now(), durable=None if game is None else game.clock_at, playing=room.status == "playing"
    )
