"""The Kuuduk rules engine: a turn-based state machine with an optional turn timer.

>>> from app.engines.base import Move, SeatSetup
>>> eng = KuudukEngine()
>>> s = eng.start([SeatSetup()] * 4, KuudukOptions(first_dealer=2), "doc", 0)
>>> s.phase, s.dealer, s.turn, s.step, [len(h) for h in s.hands], len(s.draw_pile), len(s.discard)
(<Phase.TURN: 'TURN'>, 2, 3, <Step.ACQUIRE: 'ACQUIRE'>, [3, 3, 3, 3], 64, 1)
>>> s = eng.apply(s, Move(seat=3, action={"type": "draw"}, at=1000))
>>> s.step, len(s.hands[3])
(<Step.PLAY: 'PLAY'>, 4)
>>> s = eng.apply(s, Move(seat=3, action={"type": "discard", "card": s.drawn}, at=2000))
>>> s.turn, s.step, len(s.hands[3])
(0, <Step.ACQUIRE: 'ACQUIRE'>, 3)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from app.engines.base import JSON, Engine, EngineOptions, IllegalAction, Move, Outcome, SeatSetup
from app.engines.kuuduk import turn as rules
from app.engines.kuuduk.actions import Action, Discard, Draw, Lay, Pass, Swipe, Switch, TakeDiscard, parse
from app.engines.kuuduk.layout import Layout
from app.engines.kuuduk.options import KuudukOptions
from app.engines.kuuduk.protocol import PROTOCOL
from app.engines.kuuduk.rounds import deal, next_round
from app.engines.kuuduk.state import Direction, KuudukState, Phase, Step
from app.engines.kuuduk.view import result_detail, view, views
from app.engines.protocol import GameProtocol
from app.engines.rng import Rng
from app.engines.seats import require_player_count
from app.engines.timing import catch_up

_HANDLERS: dict[type, Callable[[KuudukState, int, int, Any], KuudukState]] = {
    Draw: rules.draw,
    Pass: rules.pass_,
    TakeDiscard: rules.take_discard,
    Lay: rules.lay,
    Discard: rules.discard,
    Swipe: rules.swipe,
    Switch: rules.switch,
}


class KuudukEngine(Engine[KuudukState, KuudukOptions]):
    """Kuuduk for 2-8 players (rules spec: shared/rules/kuuduk.md).

    Stateless: one instance serves every room.
    """

    name: ClassVar[str] = "kuuduk"
    title: ClassVar[str] = "Kuuduk"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    options_model: ClassVar[type[EngineOptions]] = KuudukOptions
    protocol: ClassVar[GameProtocol] = PROTOCOL

    # -- the contract ---------------------------------------------------------------

    def start(self, seats: Sequence[SeatSetup], options: KuudukOptions, seed: str, now: int) -> KuudukState:
        n = len(seats)
        require_player_count(self.title, n, self.min_players, self.max_players)
        rng = Rng.from_seed(seed)
        if options.first_dealer == "random":
            dealer = rng.below(n)
        else:
            dealer = options.first_dealer
            if dealer >= n:
                raise IllegalAction("BAD_OPTIONS", f"The first dealer must be a seat from 0 to {n - 1}.")
        everyone = tuple(range(n))
        blank = KuudukState(
            options=options,
            players=n,
            rng=rng,
            phase=Phase.TURN,
            round=0,
            seats=everyone,
            tiebreak=False,
            dealer=dealer,
            direction=Direction.CW,
            turn=dealer,
            step=Step.ACQUIRE,
            restarted=False,
            drawn=None,
            hands=((),) * n,
            layouts=(Layout(),) * n,
            draw_pile=(),
            discard=(),
            turns=0,
            stall=0,
            laid_this_turn=False,
            deadline=None,
            history=(),
            totals=(0,) * n,
            next_seats=(),
            next_tiebreak=False,
            winners=(),
            last=(),
        )
        return deal(blank, 1, everyone, False, dealer, now)

    def players(self, state: KuudukState) -> int:
        return state.players

    def is_over(self, state: KuudukState) -> bool:
        return state.phase is Phase.GAME_OVER

    def parse(self, action: object) -> Action:
        return parse(action)

    def play(self, state: KuudukState, move: Move, action: Action) -> KuudukState:
        seat = move.seat
        if state.phase is not Phase.TURN:
            raise IllegalAction("WRONG_PHASE", "The round is over; the next one is about to be dealt.")
        if seat not in state.seats:
            raise IllegalAction("NOT_IN_ROUND", "You are not playing in this round.")
        if seat != state.turn:
            raise IllegalAction("NOT_YOUR_TURN", "It is not your turn.")
        return _HANDLERS[type(action)](state, seat, move.at, action)

    def tick(self, state: KuudukState, now: int) -> KuudukState:
        return catch_up(state, now, self._fire, self.next_deadline)

    def next_deadline(self, state: KuudukState) -> int | None:
        return state.deadline

    def view(self, state: KuudukState, seat: int | None) -> JSON:
        return view(state, seat)

    def views(self, state: KuudukState, seats: Sequence[int | None]) -> dict[int | None, JSON]:
        return views(state, seats)

    def result(self, state: KuudukState) -> Outcome:
        return Outcome(
            finished=state.phase is Phase.GAME_OVER,
            scores=state.totals,
            winners=state.winners,
            detail=result_detail(state),
        )

    # -- timed transitions ------------------------------------------------------------

    def _fire(self, state: KuudukState, t: int) -> KuudukState:
        if state.phase is Phase.TURN:
            return rules.timeout(state, t)
        if state.phase is Phase.ROUND_END:
            return next_round(state, t)
        raise AssertionError(f"no deadline can be pending in {state.phase}")
