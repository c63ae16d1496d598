"""Rebuild a game state from its seed, options and input log (crash recovery, replays, audits).

Every logged event is turned back into the input it records and goes through the
same :func:`~app.engines.step.step` as when it was played, so a replay reproduces
every transition and every race ruling exactly.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from app.db.store import EventRec, GameRec
from app.engines import get_engine
from app.engines.base import JSON, Outcome, SeatSetup
from app.engines.step import step
from app.rooms.table import input_of


def seat_setups(seats: list[dict[str, Any]]) -> list[SeatSetup]:
    return [SeatSetup(prefs=dict(s.get("prefs") or {})) for s in seats]


def states(game: GameRec, events: Iterable[EventRec]) -> Iterator[Any]:
    """The state as dealt, then the state after each event in turn."""
    engine = get_engine(game.engine)
    options = engine.options_model.model_validate(game.options)
    state = engine.start(seat_setups(game.seats), options, game.seed, game.started_at)
    yield state
    for ev in events:
        state = step(engine, state, input_of(ev))
        yield state


def replay(game: GameRec, events: Iterable[EventRec]) -> Any:
    return deque(states(game, events), maxlen=1)[0]


@dataclass(frozen=True, slots=True)
class Frame:
    """One step of a replay as one seat (or a spectator, ``None``) saw it.

    ``hands`` is every seat's own ``hand`` at that step (None for a game without one): only
    ever built for a finished game, where nothing is hidden any more.
    """

    step: int
    view: JSON
    hands: list[Any]


def frames(
    game: GameRec, events: Sequence[EventRec], key: int | None, start: int, limit: int
) -> tuple[list[Frame], Outcome]:
    """Steps ``start`` to ``start + limit - 1`` (step 0 is the deal, step ``i`` follows event ``i - 1``)
    through the room's own ``step`` and views, and the outcome of the last step reached."""
    engine = get_engine(game.engine)
    out: list[Frame] = []
    state = None
    for i, state in enumerate(islice(states(game, events), start + limit)):
        if i >= start:
            hands = [engine.view(state, s).get("hand") for s in range(len(game.seats))]
            out.append(Frame(i, engine.view(state, key), hands))
    return out, engine.result(state)
