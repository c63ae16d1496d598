"""Starting and ending rounds (rules 2.3, 6)."""

from __future__ import annotations

from app.engines.ranking import seats_with_lowest
from app.engines.tuples import evolve
from app.engines.uffda.board import any_play_left, new_branches
from app.engines.uffda.deal import deal
from app.engines.uffda.log import emit
from app.engines.uffda.options import UffdaOptions
from app.engines.uffda.scoring import next_dealer, round_scores
from app.engines.uffda.state import Phase, RoundRecord, Step, Turn, UffdaState


def turn_deadline(options: UffdaOptions, t: int) -> int | None:
    return t + options.turn_seconds * 1000 if options.turn_seconds else None


def begin_round(state: UffdaState, round_no: int, dealer: int, t: int) -> UffdaState:
    """Fresh shuffle and deal, all coins on, the dealer to move (rules 2.3)."""
    rng = state.rng.copy()
    center = round_no - 1
    hands, piles = deal(rng, state.players, center)
    state = evolve(
        state,
        rng=rng,
        phase=Phase.PLAY,
        round=round_no,
        dealer=dealer,
        hands=hands,
        piles=piles,
        branches=new_branches(state.players, center),
        double=None,
        turn=Turn(dealer, 1, Step.OPEN, t, turn_deadline(state.options, t)),
        offences=(),
        resume_at=None,
        # The step's earlier events belong to the last round, whose cards are now shuffled in
        # hands and piles: a fresh round starts a fresh log (its scores are in the history).
        last=(),
        recent=(),
        previous=None,
        released=(0,) * state.players,
    )
    return emit(state, t, "round", dealer, round=round_no, center=center)


def end_round(state: UffdaState, winner: int | None, t: int) -> UffdaState:
    """Score the round; every open mistake and race is dropped (rules 6.3)."""
    points, scores = round_scores(state.round, state.hands, winner)
    totals = tuple(a + b for a, b in zip(state.totals, scores, strict=True))
    record = RoundRecord(state.round, state.center, state.dealer, winner, points, scores, totals)
    last = state.round >= state.options.rounds
    state = evolve(
        state,
        phase=Phase.GAME_OVER if last else Phase.ROUND_OVER,
        resume_at=None if last else t + state.options.round_end_pause_ms,
        turn=evolve(state.turn, deadline=None),
        offences=(),
        history=(*state.history, record),
        totals=totals,
    )
    state = emit(state, t, "round_over", winner, round=record.round, scores=scores, terminated=winner is None)
    if last:
        state = emit(state, t, "game_over", None, winners=seats_with_lowest(totals))
    return state


def next_round(state: UffdaState, t: int) -> UffdaState:
    record = state.history[-1]
    return begin_round(state, state.round + 1, next_dealer(record.scores, record.winner, record.dealer), t)


def check_terminated(state: UffdaState, t: int) -> UffdaState:
    """Rules 6.2, run after every accepted action: no draw cards and no play left for anyone."""
    if (
        state.phase is Phase.PLAY
        and state.piles_empty
        and not any_play_left(state.hands, state.branches, state.double)
    ):
        return end_round(state, None, t)
    return state
