"""Rebuild a game state from its seed, options and input log (crash recovery, replays, audits).

Every logged event is turned back into the input it records and goes through the
same :func:`~app.engines.step.step` as when it was played, so a replay reproduces
every transition and every race ruling exactly.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from app.db.store import EventRec, GameRec
from app.engines.base import JSON, Outcome, SeatSetup
from app.engines.step import step
from app.engines.stopped import game_engine
from app.rooms.table import input_of


def seat_setups(seats: list[dict[str, Any]]) -> list[SeatSetup]:
    return [SeatSetup(prefs=dict(s.get("prefs") or {})) for s in seats]


def states(game: GameRec, events: Iterable[EventRec], state: Any = None) -> Iterator[Any]:
    """The state as dealt (or ``state``, when the caller starts further on), then after each event."""
    engine = game_engine(game.engine)
    if state is None:
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

    ``hands`` is every seat's hidden cards at that step (``Engine.hidden_cards``): only ever built
    for a finished game, where nothing is hidden any more.
    """

    step: int
    view: JSON
    hands: list[Any]


class Checkpoints:
    """Every ``every``-th state of the finished games replayed last (``games`` of them), so that a page
    of a replay starts from the checkpoint before it rather than from the deal.

    Only finished games belong here: their log never changes, so a state once built stays right.
    """

    def __init__(self, every: int = 50, games: int = 16) -> None:
        self.every = every
        self.games = games
        self._saved: OrderedDict[int, list[Any]] = OrderedDict()

    def before(self, game: GameRec, events: Sequence[EventRec], step_no: int) -> tuple[int, Any]:
        """The last checkpoint at or before step ``step_no``: its step and its state."""
        saved = self._saved.pop(game.id, None) or [next(states(game, ()))]
        self._saved[game.id] = saved
        while len(self._saved) > self.games:
            self._saved.popitem(last=False)
        want = min(step_no, len(events)) // self.every
        while len(saved) <= want:
            done = (len(saved) - 1) * self.every
            saved.append(deque(states(game, events[done : done + self.every], saved[-1]), maxlen=1)[0])
        return want * self.every, saved[want]


def frames(
    game: GameRec,
    events: Sequence[EventRec],
    key: int | None,
    start: int,
    limit: int,
    checkpoints: Checkpoints | None = None,
) -> tuple[list[Frame], Outcome]:
    """Steps ``start`` to ``start + limit - 1`` (step 0 is the deal, step ``i`` follows event ``i - 1``)
    through the room's own ``step`` and views, and the outcome of the last step reached."""
    engine = game_engine(game.engine)
    first, saved = checkpoints.before(game, events, start) if checkpoints else (0, None)
    out: list[Frame] = []
    state = saved
    for i, state in enumerate(states(game, events[first : start + limit - 1], saved), start=first):
        if i >= start:
            hands = [engine.hidden_cards(state, s) for s in range(len(game.seats))]
            out.append(Frame(i, engine.view(state, key), hands))
    return out, engine.result(state)
