"""Rounds: the deal, round scores, void rounds and the end of the game (rules 2.2, 2.3, 3.10, 3.11, 4).

A game also ends after ``void_rounds`` void rounds in a row (DECISION (void rounds), see
:func:`void_round`).

>>> round_scores([6, 4, 0], [0, 2, 3], (0, 1, 2))
(6, 2, -3)
"""

from __future__ import annotations

from collections.abc import Sequence

from app.engines.kuuduk.deck import build_deck
from app.engines.kuuduk.layout import Layout
from app.engines.kuuduk.state import HAND_LIMIT, Direction, Event, KuudukState, Phase, RoundRecord, Step
from app.engines.ranking import seats_with_highest
from app.engines.seats import clockwise
from app.engines.tuples import evolve

EMPTY_LAYOUT = Layout()


def round_scores(laid: Sequence[int], held: Sequence[int], seats: Sequence[int]) -> tuple[int, ...]:
    """Rules 4.1: +1 per laid card, -1 per held card (black cards too), for the seats in the round."""
    return tuple(laid[s] - held[s] if s in seats else 0 for s in range(len(laid)))


def begin_turn(state: KuudukState, seat: int, t: int, *, restarted: bool = False) -> KuudukState:
    """Give ``seat`` a turn (or restart it after a Switch) at step ACQUIRE, with a fresh turn timer."""
    turn_ms = state.options.turn_ms
    return evolve(
        state,
        turn=seat,
        step=Step.ACQUIRE,
        restarted=restarted,
        drawn=None,
        laid_this_turn=state.laid_this_turn if restarted else False,
        deadline=t + turn_ms if turn_ms else None,
    )


def deal(
    state: KuudukState, round_no: int, seats: tuple[int, ...], tiebreak: bool, dealer: int, t: int
) -> KuudukState:
    """Rules 2.3: shuffle all 77 cards, three to each player from the dealer's left, one card face up."""
    n = state.players
    rng = state.rng.copy()
    deck = rng.shuffled(build_deck())
    order = [clockwise(dealer, n, among=seats)]
    while len(order) < len(seats):
        order.append(clockwise(order[-1], n, among=seats))
    hands: list[list[str]] = [[] for _ in range(n)]
    top = 0
    for _ in range(HAND_LIMIT):
        for seat in order:
            hands[seat].append(deck[top])
            top += 1
    dealt = evolve(
        state,
        rng=rng,
        phase=Phase.TURN,
        round=round_no,
        seats=seats,
        tiebreak=tiebreak,
        dealer=dealer,
        direction=Direction.CW,
        hands=tuple(tuple(h) for h in hands),
        layouts=(EMPTY_LAYOUT,) * n,
        draw_pile=tuple(deck[top + 1 :]),
        discard=(deck[top],),
        turns=0,
        stall=0,
        laid_this_turn=False,
        next_seats=(),
        next_tiebreak=False,
        last=(Event("deal", seat=dealer, count=round_no),),
    )
    return begin_turn(dealt, order[0], t)


def next_round(state: KuudukState, t: int) -> KuudukState:
    """The end of the ROUND_END pause: deal the next round; the deal moves one seat to the left."""
    seats = state.next_seats
    dealer = clockwise(state.dealer, state.players, among=seats)
    return deal(state, state.round + 1, seats, state.next_tiebreak, dealer, t)


def _record(state: KuudukState, winner: int | None) -> RoundRecord:
    laid = tuple(layout.laid if s in state.seats else 0 for s, layout in enumerate(state.layouts))
    held = tuple(len(hand) if s in state.seats else 0 for s, hand in enumerate(state.hands))
    void = winner is None
    return RoundRecord(
        round=state.round,
        seats=state.seats,
        tiebreak=state.tiebreak,
        winner=winner,
        laid=laid,
        held=held,
        scores=(0,) * state.players if void else round_scores(laid, held, state.seats),
        counted=not void and not state.tiebreak,
        turns=state.turns,
    )


def _finish(
    state: KuudukState,
    t: int,
    record: RoundRecord,
    events: tuple[Event, ...],
    winners: tuple[int, ...],
    next_seats: tuple[int, ...],
    next_tiebreak: bool,
) -> KuudukState:
    totals = state.totals
    if record.counted:
        totals = tuple(a + b for a, b in zip(totals, record.scores, strict=True))
    state = evolve(state, history=(*state.history, record), totals=totals, restarted=False, drawn=None)
    if winners:
        return evolve(
            state,
            phase=Phase.GAME_OVER,
            deadline=None,
            winners=winners,
            last=(*events, Event("game_over", count=len(winners))),
        )
    return evolve(
        state,
        phase=Phase.ROUND_END,
        deadline=t + state.options.round_pause_ms,
        next_seats=next_seats,
        next_tiebreak=next_tiebreak,
        last=events,
    )


def win_round(state: KuudukState, winner: int, t: int, events: tuple[Event, ...]) -> KuudukState:
    """Rules 3.10 and 4: score the round and decide between the next round, a tie-break and the end."""
    state = evolve(state, turns=state.turns + 1)  # the winning turn counts
    record = _record(state, winner)
    events = (*events, Event("round_won", seat=winner))
    options = state.options
    if state.tiebreak or options.mode == "single_round":
        return _finish(state, t, record, events, (winner,), (), False)
    totals = tuple(a + b for a, b in zip(state.totals, record.scores, strict=True))
    best = max(totals)
    if best >= options.target or state.scored_rounds + 1 >= options.max_rounds:
        top = seats_with_highest(totals)
        if len(top) == 1:
            return _finish(state, t, record, events, top, (), False)
        return _finish(state, t, record, events, (), top, True)
    return _finish(state, t, record, events, (), tuple(range(state.players)), False)


def void_round(state: KuudukState, t: int, events: tuple[Event, ...]) -> KuudukState:
    """Rules 3.11: a stalled round scores nothing and is dealt again among the same players.

    DECISION (void rounds): after ``void_rounds`` (default 3) void rounds in a
    row the game ends at once, decided by the totals as they stand: the highest
    total among the players of the round wins and players tied at the top
    share the win. Without it a table where nobody ever passes (so no hand ever
    empties and nobody can win) deals void rounds for ever: void rounds are not
    scored, so neither the target nor ``max_rounds`` is ever reached, and the
    single-round mode and tie-break rounds replay them. The seed ends a game
    only on points ("the first player who reaches ... 15"), so the standing
    points decide. Ties share rather than play a tie-break round, because the
    same deadlocked table would only stall again. In a tie-break round the
    tied players share the win (their totals are equal by construction); in
    the single-round mode nobody has points, so everybody shares it.
    """
    record = _record(state, None)
    events = (*events, Event("round_void", count=state.turns))
    if state.void_streak + 1 >= state.options.void_rounds:
        return _finish(state, t, record, events, deadlock_winners(state), (), False)
    return _finish(state, t, record, events, (), state.seats, state.tiebreak)


def deadlock_winners(state: KuudukState) -> tuple[int, ...]:
    """DECISION (void rounds): the players of the round sharing its highest total."""
    best = max(state.totals[s] for s in state.seats)
    return tuple(s for s in state.seats if state.totals[s] == best)
