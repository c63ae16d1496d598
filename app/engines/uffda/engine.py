"""The UFF-DA! rules engine: the engine contract over the modules that hold the rules.

>>> from app.engines.base import Move, SeatSetup
>>> eng = UffdaEngine()
>>> s = eng.start([SeatSetup()] * 3, UffdaOptions(), "doc", 0)
>>> s.round, s.center, [len(h) for h in s.hands], [len(p) for p in s.piles]
(1, 0, [7, 7, 7], [17, 16])
>>> s.turn.seat == s.dealer, eng.next_deadline(s)
(True, 60000)
>>> s = eng.apply(s, Move(s.dealer, {"type": "draw", "pile": 1}, 500))
>>> s.turn.step, [len(p) for p in s.piles]
(<Step.AFTER_DRAW: 'AFTER_DRAW'>, [17, 15])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from app.engines.base import JSON, Engine, EngineOptions, IllegalAction, Move, Outcome, SeatSetup
from app.engines.protocol import GameProtocol
from app.engines.ranking import seats_with_lowest
from app.engines.rng import Rng
from app.engines.seats import require_player_count
from app.engines.uffda import penalties, turn
from app.engines.uffda.actions import Action, CallAction, DeclareAction, DrawAction, PlayAction, parse
from app.engines.uffda.board import new_branches
from app.engines.uffda.deal import first_dealer
from app.engines.uffda.dominoes import DECK
from app.engines.uffda.log import new_step
from app.engines.uffda.options import UffdaOptions
from app.engines.uffda.protocol import PROTOCOL
from app.engines.uffda.rounds import begin_round
from app.engines.uffda.state import Phase, Step, Turn, UffdaState
from app.engines.uffda.timers import due_at, run_until
from app.engines.uffda.view import result_detail, ruling_json, view, views


class UffdaEngine(Engine[UffdaState, UffdaOptions]):
    """UFF-DA! for 2-8 players (rules spec: shared/rules/uffda.md).

    Stateless: one instance serves every room.
    """

    name: ClassVar[str] = "uffda"
    title: ClassVar[str] = "UFF-DA!"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    options_model: ClassVar[type[EngineOptions]] = UffdaOptions
    protocol: ClassVar[GameProtocol] = PROTOCOL

    def start(self, seats: Sequence[SeatSetup], options: UffdaOptions, seed: str, now: int) -> UffdaState:
        n = len(seats)
        require_player_count(self.title, n, self.min_players, self.max_players)
        rng = Rng.from_seed(seed)
        dealer, rows = first_dealer(rng.shuffled(DECK), n, rng)
        blank = UffdaState(
            options=options,
            rng=rng,
            phase=Phase.PLAY,
            round=0,
            dealer=dealer,
            first_draw=rows,
            hands=((),) * n,
            piles=((), ()),
            branches=new_branches(n, 0),
            double=None,
            turn=Turn(dealer, 0, Step.OPEN, now, None),
            offences=(),
            next_offence=1,
            resume_at=None,
            history=(),
            totals=(0,) * n,
            last=(),
            seq=1,
        )
        return begin_round(blank, 1, dealer, now)

    def players(self, state: UffdaState) -> int:
        return state.players

    def is_over(self, state: UffdaState) -> bool:
        return state.phase is Phase.GAME_OVER

    def parse(self, action: object) -> Action:
        return parse(action)

    def begin_step(self, state: UffdaState) -> UffdaState:
        """A move starts a fresh event log and rulings (``last``, ``judged``) before its catch-up,
        so the races a late deadline closes are reported with the move that fired it."""
        return new_step(state)

    def play(self, state: UffdaState, move: Move, action: Action) -> UffdaState:
        seat = move.seat
        if state.phase is Phase.ROUND_OVER:
            raise IllegalAction("WRONG_PHASE", "The round is over; the next one starts soon.")
        at = move.at
        if isinstance(action, PlayAction):
            return turn.play(state, seat, action.card, action.target, action.uffda, at)
        if isinstance(action, DrawAction):
            return turn.draw(state, seat, action.pile, action.uffda, at)
        if isinstance(action, CallAction):
            return penalties.call(state, move, action)
        if isinstance(action, DeclareAction):
            if not state.options.penalties:
                raise IllegalAction("NO_OFFENCE", "Every UFF-DA! counts as said at this table.")
            return penalties.declare(state, move, action.reaction_ms)
        if action == "next":
            return turn.say_next(state, seat, at, move.timing)
        if action == "place_coin":
            return turn.place_coin(state, seat, at)
        return turn.remove_coin(state, seat, at)

    def tick(self, state: UffdaState, now: int) -> UffdaState:
        at = due_at(state)
        if at is None or at > now:
            return state
        return run_until(new_step(state), now)

    def next_deadline(self, state: UffdaState) -> int | None:
        return due_at(state)

    def view(self, state: UffdaState, seat: int | None) -> JSON:
        return view(state, seat)

    def views(self, state: UffdaState, seats: Sequence[int | None]) -> dict[int | None, JSON]:
        return views(state, seats)

    # -- race capabilities -------------------------------------------------------

    def has_races(self) -> bool:
        return True

    def stimuli(self, state: UffdaState) -> tuple[str, ...]:
        """Each mistake still catchable or in flight is a live stimulus (rules 5.5)."""
        return penalties.stimuli(state)

    def rulings(self, state: UffdaState) -> Sequence[JSON]:
        """The penalty races the latest step closed, with every input the arbiter used."""
        return tuple(ruling_json(j, state.options) for j in state.judged)

    def result(self, state: UffdaState) -> Outcome:
        finished = state.phase is Phase.GAME_OVER
        return Outcome(
            finished=finished,
            scores=state.totals,
            winners=seats_with_lowest(state.totals) if finished else (),
            detail=result_detail(state),
        )
