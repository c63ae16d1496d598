"""Rebuild a game state from its seed, options and input log (crash recovery, replays, audits).

A logged move carries the server's race timing inside its action (``Move.from_log``
splits it off again), so a replay reproduces every race ruling exactly.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.db.store import EventRec, GameRec
from app.engines import get_engine
from app.engines.base import Move, SeatSetup


def seat_setups(seats: list[dict[str, Any]]) -> list[SeatSetup]:
    return [SeatSetup(prefs=dict(s.get("prefs") or {})) for s in seats]


def replay(game: GameRec, events: Iterable[EventRec]) -> Any:
    engine = get_engine(game.engine)
    options = engine.options_model.model_validate(game.options)
    state = engine.start(seat_setups(game.seats), options, game.seed, game.started_at)
    for ev in events:
        if ev.kind == "tick":
            state = engine.tick(state, ev.at)
        elif ev.kind == "end":  # the host ended a decided match
            state = engine.end_decided(state, ev.at)  # type: ignore[attr-defined]
        else:
            assert ev.seat is not None and ev.action is not None
            state = engine.apply(state, Move.from_log(ev.seat, ev.action, ev.at, ev.rtt))
    return state
