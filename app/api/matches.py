"""The audit of finished matches: their record, their input log, their replay; a player's own matches.

Nothing of a running match is served (409 ``MATCH_RUNNING``): its seed and its log would tell
what the players may not see yet. Once it has ended, anyone with its id may check it.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from app.api.deps import PlayerDep, ServicesDep
from app.api.schemas import (
    MatchAuditOut,
    MatchEventOut,
    MatchEventPageOut,
    MatchSeatOut,
    PlayedMatchOut,
    PlayedMatchPageOut,
    ReplayFrameOut,
    ReplayPageOut,
    error_responses,
)
from app.db.match_queries import MatchRec, events_after, get_match, played_by
from app.db.store import EventRec, GameRec
from app.engines import ENGINES
from app.rooms.errors import RoomError
from app.rooms.replay import Checkpoints, frames

router = APIRouter(prefix="/api", tags=["matches"], responses=error_responses(404, 409))

MatchId = Annotated[int, Path(ge=1, le=2**31 - 1, description="The match id (`room.match.id`).")]
EVENTS_DEFAULT, EVENTS_MAX = 200, 1000
STEPS_DEFAULT, STEPS_MAX = 50, 200
MATCHES_DEFAULT, MATCHES_MAX = 20, 100
CHECKPOINTS = Checkpoints()
"""A page of a replay starts from a saved state near it (finished matches never change)."""


async def finished_match(services: ServicesDep, match_id: int) -> MatchRec:
    match = await get_match(services.store, match_id)
    if match is None:
        raise RoomError("UNKNOWN_MATCH", f"There is no match {match_id}.", 404)
    if match.game.status != "finished":
        raise RoomError("MATCH_RUNNING", "This match is still being played; check it once it ends.", 409)
    return match


def event_out(game: GameRec, ev: EventRec) -> MatchEventOut:
    if ev.kind != "move":
        by = "clock" if ev.kind == "tick" else "host"
    elif ev.actor is not None:
        by = ev.actor
    else:
        seat = game.seats[ev.seat] if ev.seat is not None and 0 <= ev.seat < len(game.seats) else {}
        by = "bot" if seat.get("bot") else "player"
    return MatchEventOut(
        seq=ev.seq,
        kind=ev.kind,
        seat=ev.seat,
        by=by,
        action=ev.action,
        at=ev.at,
        rtt=ev.rtt,
        timing=ev.timing,
        rulings=ev.rulings,
    )


@router.get("/matches/{match_id}", response_model=MatchAuditOut)
async def match_audit(match_id: MatchId, services: ServicesDep) -> MatchAuditOut:
    """A finished match: game, options, players, seed and its hash, result and times."""
    match = await finished_match(services, match_id)
    game = match.game
    return MatchAuditOut(
        id=game.id,
        room=game.room_code,
        game=game.engine,
        # Every option spelled out, defaults included: a verifier needs no copy of this server's defaults.
        options=ENGINES[game.engine].options_model.model_validate(game.options).model_dump(mode="json")
        if game.engine in ENGINES
        else game.options,
        players=[
            MatchSeatOut(seat=i, name=s.get("name", ""), bot=bool(s.get("bot")), prefs=s.get("prefs") or {})
            for i, s in enumerate(game.seats)
        ],
        seed=game.seed,
        seed_hash=game.seed_hash,
        started_at=game.started_at,
        result=game.result,
        created_at=match.created_at,
        finished_at=match.finished_at,
        events=await services.store.count_events(game.id),
    )


@router.get("/matches/{match_id}/events", response_model=MatchEventPageOut)
async def match_events(
    match_id: MatchId,
    services: ServicesDep,
    after: Annotated[int, Query(ge=0, le=2**31 - 1, description="The `next` of the previous page.")] = 0,
    limit: Annotated[int, Query(ge=1, le=EVENTS_MAX, description="Events per page.")] = EVENTS_DEFAULT,
) -> MatchEventPageOut:
    """Every input of a finished match in order, with the server's rulings, a page at a time."""
    game = (await finished_match(services, match_id)).game
    events = await events_after(services.store, game.id, after, limit + 1)
    more = len(events) > limit
    return MatchEventPageOut(
        events=[event_out(game, ev) for ev in events[:limit]], next=events[limit - 1].seq if more else None
    )


@router.get("/matches/{match_id}/replay", response_model=ReplayPageOut, responses=error_responses(422))
async def match_replay(
    match_id: MatchId,
    services: ServicesDep,
    seat: Annotated[int | None, Query(ge=0, le=63, description="Whose view; omitted: a spectator's.")] = None,
    start: Annotated[int, Query(ge=0, le=2**31 - 1, description="The first step of the page.")] = 0,
    limit: Annotated[int, Query(ge=1, le=STEPS_MAX, description="Steps per page.")] = STEPS_DEFAULT,
) -> ReplayPageOut:
    """A finished match step by step, each view rebuilt from the log through the room's own step."""
    game = (await finished_match(services, match_id)).game
    if seat is not None and seat >= len(game.seats):
        raise RoomError("BAD_REQUEST", f"query.seat: this match has seats 0 to {len(game.seats) - 1}.", 422)
    if game.engine not in ENGINES:
        raise RoomError("UNKNOWN_GAME", f"This server no longer referees {game.engine}.", 409)
    events = await services.store.load_events(game.id)
    steps = len(events) + 1
    if start >= steps:
        raise RoomError("BAD_REQUEST", f"query.start: this replay has steps 0 to {steps - 1}.", 422)
    page, outcome = frames(game, events, seat, start, limit, CHECKPOINTS)
    end = page[-1].step + 1
    return ReplayPageOut(
        steps=steps,
        frames=[
            ReplayFrameOut(
                step=f.step,
                event=event_out(game, events[f.step - 1]) if f.step else None,
                view=f.view,
                hands=f.hands,
            )
            for f in page
        ],
        next=end if end < steps else None,
        result=outcome.to_json() if end == steps else None,
    )


@router.get("/players/me/matches", response_model=PlayedMatchPageOut, responses=error_responses(401))
async def my_matches(
    player: PlayerDep,
    services: ServicesDep,
    before: Annotated[int | None, Query(ge=1, le=2**31, description="The `next` of the last page.")] = None,
    limit: Annotated[int, Query(ge=1, le=MATCHES_MAX, description="Matches per page.")] = MATCHES_DEFAULT,
) -> PlayedMatchPageOut:
    """The matches you held a seat in, newest first (running ones too; they open once finished)."""
    played = await played_by(services.store, player.id, limit + 1, before)
    more = len(played) > limit
    return PlayedMatchPageOut(
        matches=[
            PlayedMatchOut(
                id=m.id,
                room=m.room_code,
                game=m.engine,
                title=ENGINES[m.engine].title if m.engine in ENGINES else m.engine,
                status=m.status,
                seat=m.seat,
                created_at=m.created_at,
                finished_at=m.finished_at,
            )
            for m in played[:limit]
        ],
        next=played[limit - 1].id if more else None,
    )
