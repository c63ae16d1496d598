"""Structural checks of a state, for tests and fuzzers: a list of what is wrong (empty = valid).

>>> from app.engines.base import SeatSetup
>>> from app.engines.uffda.engine import UffdaEngine
>>> from app.engines.uffda.options import UffdaOptions
>>> problems(UffdaEngine().start([SeatSetup()] * 4, UffdaOptions(), "inv", 0))
[]
"""

from __future__ import annotations

from app.engines.uffda.board import board_cards
from app.engines.uffda.dominoes import DECK, double, has, is_double, other
from app.engines.uffda.state import Branch, End, Phase, Step, UffdaState


def _shown(branch: Branch, center: int) -> list[int]:
    """The number each card shows on its free side (a card's anchor always comes before it)."""
    shown: list[int] = []
    for p in branch.cards:
        parent = center if p.on == -1 else shown[p.on]
        shown.append(parent if is_double(p.card) else other(p.card, parent))
    return shown


def _free_anchors(branch: Branch, center: int, shown: list[int]) -> dict[tuple[int, int], int]:
    """Every anchor of the branch no card hangs from, with the value it shows."""
    used = {(p.on, p.side) for p in branch.cards}
    free: dict[tuple[int, int], int] = {}
    if (-1, 0) not in used:
        free[(-1, 0)] = center
    for i, p in enumerate(branch.cards):
        sides = ((i, 0), (i, 1)) if is_double(p.card) else ((i, 0),)
        for anchor in sides:
            if anchor not in used:
                free[anchor] = shown[i]
    return free


_DECKS = {c: sorted(card for card in DECK if card != double(c)) for c in range(10)}


def totals_so_far(state: UffdaState, round_no: int) -> list[int]:
    return [sum(col) for col in zip(*(r.scores for r in state.history[:round_no]), strict=True)]


def problems(state: UffdaState) -> list[str]:
    out: list[str] = []
    n = state.players
    if not 2 <= n <= 8:
        out.append(f"{n} players")
    if len(state.branches) != n + 1 or len(state.totals) != n:
        out.append("per-seat tuples have the wrong length")
    if [b.owner for b in state.branches] != [*range(n), None]:
        out.append("branch owners out of order")
    if not state.branches[-1].coin:
        out.append("the community coin is off")
    totals = [sum(col) for col in zip(*(r.scores for r in state.history), strict=True)] or [0] * n
    if list(state.totals) != totals:
        out.append("totals are not the sum of the round scores")
    for record in state.history:
        if len(record.scores) != n or record.totals != tuple(totals_so_far(state, record.round)):
            out.append(f"round {record.round}: bad record")
        if record.winner is not None and record.scores[record.winner] != -5 * record.round:
            out.append(f"round {record.round}: the winner did not get the bonus")
    if state.phase is Phase.GAME_OVER and len(state.history) != state.options.rounds:
        out.append("the game ended early")
    center = state.center
    cards = [c for h in state.hands for c in h] + [
        *state.piles[0],
        *state.piles[1],
        *board_cards(state.branches),
    ]
    if sorted(cards) != _DECKS[center]:
        out.append("cards are not conserved")
    for seat, hand in enumerate(state.hands):
        if list(hand) != sorted(hand):
            out.append(f"seat {seat}'s hand is not sorted")
    d = state.double
    for index, branch in enumerate(state.branches):
        ends: dict[tuple[int, int], int] = {(e.on, e.side): e.value for e in branch.ends}
        if len(ends) != len(branch.ends):
            out.append(f"branch {index} names an end twice")
        if d is not None and d.branch == index:
            fills: list[End] = [f for f in d.fills if f is not None]
            ends.update({(e.on, e.side): e.value for e in fills})
            ends.update({(d.card, k): d.value for k in d.open_sides()})
        for i, p in enumerate(branch.cards):
            if p.on >= i or (p.side and not is_double(branch.cards[p.on].card)):
                out.append(f"branch {index}: {p.card} hangs from no free side")
                return out
        shown = _shown(branch, center)
        if ends != _free_anchors(branch, center, shown):
            out.append(f"branch {index}'s ends do not match its cards")
        for p in branch.cards:
            if not has(p.card, center if p.on == -1 else shown[p.on]):
                out.append(f"branch {index}: {p.card} does not match where it lies")
    if d is not None:
        if not d.open_sides():
            out.append("a complete double is still active")
        laid = state.branches[d.branch].cards[d.card].card
        if laid != double(d.value):
            out.append("the active double is not a double")
    turn = state.turn
    if state.phase is Phase.PLAY:
        if not 0 <= turn.seat < n:
            out.append("the turn is at no seat")
        if turn.step in (Step.FOLLOW_UP, Step.FOLLOW_UP_DRAWN) and (d is None or d.layer != turn.seat):
            out.append("a follow-up without the player's double")
        if turn.step in (Step.AFTER_DRAW, Step.FOLLOW_UP_DRAWN) and turn.drawn is None:
            out.append("a drawn step without a drawn card")
        if any(not h for h in state.hands) and not (
            turn.step is Step.FOLLOW_UP and not state.hands[turn.seat] and state.piles != ((), ())
        ):
            out.append("an empty hand while the round goes on")
    elif state.offences:
        out.append("mistakes outlive the round")
    ids = [o.id for o in state.offences]
    if ids != sorted(set(ids)) or any(i >= state.next_offence for i in ids):
        out.append("offence ids are not increasing")
    for o in state.offences:
        seats = [c.claim.seat for c in o.calls]
        if len(set(seats)) != len(seats) or not all(0 <= s < n for s in seats) or not 0 <= o.offender < n:
            out.append(f"offence {o.id} has bad claims")
        if bool(o.calls) != (o.race_deadline is not None):
            out.append(f"offence {o.id}: a race without calls or calls without a race")
        if (o.closes_at is None) != (o.expires_at is None) or (o.expires_at or 0) < (o.closes_at or 0):
            out.append(f"offence {o.id}: a closed window without its expiry")
        if not state.options.penalties:
            out.append("a mistake at a table without penalties")
    return out
