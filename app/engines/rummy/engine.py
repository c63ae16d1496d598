"""The Rummy rules engine: a timed turn state machine (rules section 3).

>>> from app.engines.base import Move, SeatSetup
>>> eng = RummyEngine()
>>> s = eng.start([SeatSetup(), SeatSetup()], RummyOptions(), "doc", 0)
>>> s.phase, s.turn_id, [len(h) for h in s.hands], len(s.pool), eng.next_deadline(s)
(<Phase.TURN: 'TURN'>, 1, [14, 14], 80, 120500)
>>> s = eng.apply(s, Move(seat=s.seat, action={"type": "draw", "turn_id": 1}, at=9_000))
>>> s.phase, s.last.end, [len(h) for h in s.hands], len(s.pool), eng.next_deadline(s)
(<Phase.TURN_RESULT: 'TURN_RESULT'>, <TurnEnd.DRAW: 'draw'>, [14, 15], 79, 9800)
>>> s = eng.tick(s, 9_800)
>>> s.phase, s.turn_id, s.deadline
(<Phase.TURN: 'TURN'>, 2, 129800)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from app.engines.base import JSON, Engine, EngineOptions, IllegalAction, Move, Outcome, SeatSetup
from app.engines.cards import CardId, deal_hands
from app.engines.protocol import GameProtocol
from app.engines.ranking import seats_with_highest
from app.engines.rng import Rng
from app.engines.rummy import actions as act
from app.engines.rummy.deck import DECK, HAND_SIZE, hand_value
from app.engines.rummy.draft import declare, move_card
from app.engines.rummy.melds import Table
from app.engines.rummy.options import RummyOptions
from app.engines.rummy.problems import TableRejected
from app.engines.rummy.protocol import PROTOCOL
from app.engines.rummy.scoring import score_blocked, score_out
from app.engines.rummy.state import Phase, RoundEnd, RoundRecord, RummyState, TurnEnd, TurnRecord
from app.engines.rummy.table import (
    Changes,
    changes,
    check_table,
    draft_verdict,
    partition_problems,
    salvage,
    table_cards,
)
from app.engines.rummy.view import result_detail, view, views
from app.engines.seats import clockwise, require_player_count
from app.engines.timing import catch_up
from app.engines.tuples import evolve, replace_at

UNDO_LIMIT = 200
"""Draft steps one turn remembers for undo (a reset is always possible)."""


class RummyEngine(Engine[RummyState, RummyOptions]):
    """Rummy cards for 2-4 players (rules spec: shared/rules/rummy.md).

    Stateless: one instance serves every room.
    """

    name: ClassVar[str] = "rummy"
    title: ClassVar[str] = "Rummy"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options_model: ClassVar[type[EngineOptions]] = RummyOptions
    protocol: ClassVar[GameProtocol] = PROTOCOL

    # -- the contract -------------------------------------------------------

    def start(self, seats: Sequence[SeatSetup], options: RummyOptions, seed: str, now: int) -> RummyState:
        n = len(seats)
        require_player_count(self.title, n, self.min_players, self.max_players)
        rng = Rng.from_seed(seed)
        starter = rng.below(n)  # rules 2.3: by lot
        blank = RummyState(
            options=options,
            rng=rng,
            phase=Phase.ROUND_OVER,
            round=0,
            round_starter=starter,
            match_started_at=now,
            turn_id=0,
            seat=starter,
            turn_started_at=now,
            deadline=None,
            pool=(),
            hands=((),) * n,
            table=(),
            draft=(),
            undo=(),
            opened=(False,) * n,
            passes=0,
            timeouts=(0,) * n,
            last=None,
            history=(),
            totals=(0,) * n,
        )
        return self._deal(blank, starter, now)

    def players(self, state: RummyState) -> int:
        return state.players

    def is_over(self, state: RummyState) -> bool:
        return state.phase is Phase.MATCH_OVER

    def parse(self, action: object) -> act.Action:
        return act.parse(action)

    def play(self, state: RummyState, move: Move, action: act.Action) -> RummyState:
        if state.phase is Phase.TURN_RESULT:
            raise IllegalAction("TURN_OVER", "That turn is over; the next one starts in a moment.")
        if state.phase is Phase.ROUND_OVER:
            raise IllegalAction("WRONG_PHASE", "The round is over; the next one is being dealt.")
        if move.seat != state.seat:
            raise IllegalAction("NOT_YOUR_TURN", "It is not your turn.")
        if action.turn_id != state.turn_id:
            raise IllegalAction("STALE_TURN", "That action was made for another turn.")
        if isinstance(action, act.Commit):
            return self._commit(state, move.at, action.table)
        if isinstance(action, act.Draw):
            return self._end_turn(state, move.at, TurnEnd.DRAW, state.table, (), draw=1)
        return self._edit(state, action)

    def tick(self, state: RummyState, now: int) -> RummyState:
        return catch_up(state, now, self._fire, self.next_deadline)

    def next_deadline(self, state: RummyState) -> int | None:
        if state.phase is Phase.TURN:
            assert state.deadline is not None
            return state.deadline + state.options.commit_grace_ms
        return state.deadline

    def view(self, state: RummyState, seat: int | None) -> JSON:
        return view(state, seat)

    def views(self, state: RummyState, seats: Sequence[int | None]) -> dict[int | None, JSON]:
        return views(state, seats)

    def result(self, state: RummyState) -> Outcome:
        finished = state.phase is Phase.MATCH_OVER
        return Outcome(
            finished=finished,
            scores=state.totals,
            winners=seats_with_highest(state.totals) if finished else (),
            detail=result_detail(state),
        )

    # -- the draft -----------------------------------------------------------------

    def _edit(self, state: RummyState, action: act.Edit) -> RummyState:
        seat = state.seat
        hand = state.hands[seat]
        if isinstance(action, act.DraftTable):
            problems = partition_problems(state.table, hand, action.table)
            if problems:
                raise TableRejected(problems, state.options.opening_min)
            draft: Table = action.table
        elif isinstance(action, act.MoveCard):
            on_table = table_cards(state.table)
            draft = move_card(state.draft, on_table, hand, action.card, action.to)
        elif isinstance(action, act.Declare):
            draft = declare(state.draft, action.set, action.kind)
        elif isinstance(action, act.Undo):
            if not state.undo:
                raise IllegalAction("NOTHING_TO_UNDO", "There is nothing to undo this turn.")
            return evolve(self._present(state), draft=state.undo[-1], undo=state.undo[:-1])
        else:  # act.Reset
            if state.draft == state.table:
                raise IllegalAction("NOTHING_TO_UNDO", "The table is already as it was when your turn began.")
            draft = state.table
        if draft == state.draft:
            return self._present(state)
        undo = (*state.undo[-(UNDO_LIMIT - 1) :], state.draft)
        return evolve(self._present(state), draft=draft, undo=undo)

    def _present(self, state: RummyState) -> RummyState:
        """Acting clears the active seat's away mark (rules 3.3) and gives back a full turn."""
        seat = state.seat
        if not state.timeouts[seat]:
            return state
        deadline = state.deadline
        if state.away(seat):
            assert deadline is not None
            deadline = max(deadline, state.turn_started_at + state.options.turn_ms)
        return evolve(state, timeouts=replace_at(state.timeouts, seat, 0), deadline=deadline)

    # -- ending a turn -------------------------------------------------------------

    def _commit(self, state: RummyState, t: int, table: Table | None) -> RummyState:
        seat = state.seat
        options = state.options
        opened = state.opened[seat]
        if table is None:
            check = draft_verdict(state.table, state.hands[seat], state.draft, opened, options.opening_min)
        else:
            check = check_table(
                state.table, state.hands[seat], table, opened=opened, opening_min=options.opening_min
            )
        if not check.ok:
            raise TableRejected(check.problems, options.opening_min)
        return self._end_turn(state, t, TurnEnd.COMMIT, check.table, check.played)

    def _timeout(self, state: RummyState, t: int) -> RummyState:
        """Rules 3.6: commit a valid draft, else keep its valid sets, else restore and draw."""
        seat = state.seat
        hand = state.hands[seat]
        opened = state.opened[seat]
        opening_min = state.options.opening_min
        check = draft_verdict(state.table, hand, state.draft, opened, opening_min)
        if check.ok:
            return self._end_turn(state, t, TurnEnd.TIMEOUT_COMMIT, check.table, check.played, timed_out=True)
        saved = salvage(state.table, hand, state.draft, opened=opened, opening_min=opening_min)
        if saved is not None:
            kept, back = saved
            return self._end_turn(
                state, t, TurnEnd.TIMEOUT_SALVAGE, kept.table, kept.played, returned=len(back), timed_out=True
            )
        draw = state.options.timeout_draw
        return self._end_turn(state, t, TurnEnd.TIMEOUT_RESTORE, state.table, (), draw=draw, timed_out=True)

    def _end_turn(
        self,
        state: RummyState,
        t: int,
        end: TurnEnd,
        table: Table,
        played: tuple[CardId, ...],
        *,
        draw: int = 0,
        returned: int = 0,
        timed_out: bool = False,
    ) -> RummyState:
        seat = state.seat
        placed = set(played)
        drawn = state.pool[:draw]
        hand = (*(c for c in state.hands[seat] if c not in placed), *drawn)
        if end is TurnEnd.DRAW and not drawn:
            end = TurnEnd.PASS
        # Rules 3.8: only turns that start with an empty pool and place nothing count as passes.
        passes = 0 if played or state.pool else state.passes + 1
        changed = changes(state.table, table) if played else Changes(0, 0, 0)
        round_ends = not hand or passes >= state.players
        state = evolve(
            state,
            # _end_round sets the phase when the round ends; one replace per turn keeps this cheap.
            phase=state.phase if round_ends else Phase.TURN_RESULT,
            deadline=state.deadline if round_ends else t + state.options.between_turns_ms,
            pool=state.pool[len(drawn) :],
            hands=replace_at(state.hands, seat, hand),
            table=table,
            draft=table,
            undo=(),
            opened=replace_at(state.opened, seat, True) if played else state.opened,
            passes=passes,
            timeouts=replace_at(state.timeouts, seat, state.timeouts[seat] + 1 if timed_out else 0),
            last=TurnRecord(
                turn_id=state.turn_id,
                seat=seat,
                end=end,
                at=t,
                played=played,
                drawn=drawn,
                returned=returned,
                rebuilt=changed.rebuilt,
                new_sets=changed.new_sets,
                jokers_exchanged=changed.jokers_exchanged,
            ),
        )
        if round_ends:
            return self._end_round(state, t, RoundEnd.BLOCKED if hand else RoundEnd.OUT)
        return state

    # -- rounds and timed transitions ----------------------------------------------

    def _fire(self, state: RummyState, t: int) -> RummyState:
        phase = state.phase
        if phase is Phase.TURN:
            return self._timeout(state, t)
        if phase is Phase.TURN_RESULT:
            return self._begin_turn(state, clockwise(state.seat, state.players), t)
        if phase is Phase.ROUND_OVER:
            if self._match_done(state, t):
                return evolve(state, phase=Phase.MATCH_OVER, deadline=None)
            return self._deal(state, clockwise(state.round_starter, state.players), t)
        raise AssertionError(f"no deadline can be pending in {phase}")

    def _deal(self, state: RummyState, starter: int, t: int) -> RummyState:
        rng = state.rng.copy()
        deck = rng.shuffled(DECK)
        n = state.players
        hands, pool = deal_hands(deck, n, HAND_SIZE)
        state = evolve(
            state,
            rng=rng,
            round=state.round + 1,
            round_starter=starter,
            pool=pool,
            hands=hands,
            table=(),
            opened=(False,) * n,
            passes=0,
            last=None,
        )
        return self._begin_turn(state, starter, t)

    def _begin_turn(self, state: RummyState, seat: int, t: int) -> RummyState:
        options = state.options
        length = min(options.turn_ms, options.away_turn_ms) if state.away(seat) else options.turn_ms
        return evolve(
            state,
            phase=Phase.TURN,
            turn_id=state.turn_id + 1,
            seat=seat,
            turn_started_at=t,
            deadline=t + length,
            draft=state.table,
            undo=(),
        )

    def _end_round(self, state: RummyState, t: int, end: RoundEnd) -> RummyState:
        values = tuple(hand_value(h, state.options.joker_hand_value) for h in state.hands)
        if end is RoundEnd.OUT:
            winners: tuple[int, ...] = (state.seat,)
            scores = score_out(state.seat, values)
        else:
            winners, scores = score_blocked(values)
        record = RoundRecord(state.round, end, winners, tuple(len(h) for h in state.hands), values, scores)
        totals = tuple(a + b for a, b in zip(state.totals, scores, strict=True))
        state = evolve(state, history=(*state.history, record), totals=totals)
        if self._match_done(state, t):
            return evolve(state, phase=Phase.MATCH_OVER, deadline=None)
        return evolve(state, phase=Phase.ROUND_OVER, deadline=t + state.options.round_end_pause_ms)

    def _match_done(self, state: RummyState, t: int) -> bool:
        """Rules 4.2: after ``rounds`` rounds, or with a match clock, once its time is up."""
        minutes = state.options.match_minutes
        if minutes:
            return t >= state.match_started_at + minutes * 60_000
        return state.round >= state.options.rounds
