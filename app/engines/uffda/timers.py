"""Everything time does: race closes, closing windows, the turn timer and the pause between rounds.

All deadlines live in the state; :func:`due` names the earliest. At the same
millisecond penalty races are judged before the turn timer fires, so a call
made in time is settled on the table it was made on.
"""

from __future__ import annotations

from app.engines.base import Move
from app.engines.timing import catch_up
from app.engines.tuples import evolve
from app.engines.uffda.log import emit
from app.engines.uffda.penalties import declare, pending_uffda, settle
from app.engines.uffda.rounds import next_round
from app.engines.uffda.state import Phase, Step, UffdaState
from app.engines.uffda.turn import draw, end_turn, going_out_blocked, play, plays

Due = tuple[int, int, int]
"""(time, order, offence id): offences (order 0) before the turn or round timer (order 1)."""


def due(state: UffdaState) -> Due | None:
    best: Due | None = None
    for offence in state.offences:
        at = offence.deadline
        if at is not None and (best is None or (at, 0, offence.id) < best):
            best = (at, 0, offence.id)
    if state.phase is Phase.PLAY:
        at = state.turn.deadline
    elif state.phase is Phase.ROUND_OVER:
        at = state.resume_at
    else:
        at = None
    if at is not None and (best is None or (at, 1, 0) < best):
        best = (at, 1, 0)
    return best


def run_until(state: UffdaState, now: int) -> UffdaState:
    """Fire every deadline ``<= now`` in order, each stamped with its own time."""
    return catch_up(state, now, _fire_due, due_at)


def due_at(state: UffdaState) -> int | None:
    """When the earliest deadline falls (None: nothing is timed)."""
    event = due(state)
    return None if event is None else event[0]


def _fire_due(state: UffdaState, at: int) -> UffdaState:
    event = due(state)
    assert event is not None and event[0] == at
    return fire(state, event)


def fire(state: UffdaState, event: Due) -> UffdaState:
    t, order, ident = event
    if order == 0:
        return settle(state, next(o for o in state.offences if o.id == ident), t)
    if state.phase is Phase.ROUND_OVER:
        return next_round(state, t)
    return timeout(state, t)


def timeout(state: UffdaState, t: int) -> UffdaState:
    """The turn timer completes the turn minimally (rules 7): draw if possible, else pass; a card
    is played only where the empty piles forbid the pass, declared where it is a trigger. An owed
    coin is placed, then NEXT. Timeouts never create mistakes."""
    seat, number = state.turn.seat, state.turn.no
    state = emit(state, t, "timeout", seat)
    while state.phase is Phase.PLAY and state.turn.no == number:
        step = state.turn.step
        if step in (Step.OPEN, Step.FOLLOW_UP):
            if not state.piles_empty:
                state = draw(state, seat, 0 if state.piles[0] else 1, True, t)
                continue
            options = plays(state)
            if options:
                if going_out_blocked(state, seat):
                    # Declare late, then wait for the calls on it to be settled (rules 8.25).
                    if any(o.declaration is None for o in pending_uffda(state, seat)):
                        state = declare(state, Move(seat, {"type": "declare_uffda"}, t), None)
                    wait = max(o.deadline or t for o in pending_uffda(state, seat))
                    return evolve(state, turn=evolve(state.turn, deadline=wait))
                card, target = options[0]
                state = play(state, seat, card, target, True, t)
                continue
        return end_turn(state, t, place_owed=True)
    return state
