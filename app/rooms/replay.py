"""Rebuild a game state from its seed, options and input log (crash recovery, replays, audits).

Every logged event is turned back into the input it records and goes through the
same :func:`~app.engines.step.step` as when it was played, so a replay reproduces
every transition and every race ruling exactly.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.db.store import EventRec, GameRec
from app.engines.base import SeatSetup
from app.engines.step import step
from app.engines.stopped import game_engine
from app.rooms.table import input_of


def seat_setups(seats: list[dict[str, Any]]) -> list[SeatSetup]:
    return [SeatSetup(prefs=dict(s.get("prefs") or {})) for s in seats]


def replay(game: GameRec, events: Iterable[EventRec]) -> Any:
    engine = game_engine(game.engine)
    options = engine.options_model.model_validate(game.options)
    state = engine.start(seat_setups(game.seats), options, game.seed, game.started_at)
    for ev in events:
        state = step(engine, state, input_of(ev))
    return state
