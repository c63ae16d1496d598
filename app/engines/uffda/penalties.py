"""Missed COIN and UFF-DA! mistakes, the calls that catch them and their races (rules 5).

Calls are reaction races judged by :mod:`app.engines.race`, exactly like
Slap's slaps: each call's reaction time is compensated for the caller's
network delay from the moment the mistake happened, the first call opens a
race that stays open ``race_window_ms``, and calls within ``tie_margin_ms`` of
the best tie. UFF-DA!'s tie-break: a late self-declaration beats every tied
call; otherwise the caller nearest clockwise to the penalised player wins.

>>> pick = tie_break(offender=0, players=4)
>>> pick((1, 3)), pick((0, 1, 3))
(3, 0)
"""

from __future__ import annotations

from app.engines import race
from app.engines.base import IllegalAction
from app.engines.cards import CardId
from app.engines.race import Claim, TieBreak
from app.engines.tuples import evolve
from app.engines.uffda.board import set_coin
from app.engines.uffda.dominoes import highest
from app.engines.uffda.log import emit
from app.engines.uffda.state import Call, Kind, Offence, UffdaState

CLOCKWISE = 1
"""Direction the tie-break distance is counted in, from the caller to the penalised player
(DECISION 8.29). Seats are numbered clockwise; -1 would count anticlockwise."""


def distance(caller: int, target: int, players: int) -> int:
    """Seats from the caller to the penalised player in the tie-break direction.

    >>> distance(1, 0, 4), distance(3, 0, 4)
    (3, 1)
    """
    return (CLOCKWISE * (target - caller)) % players


def tie_break(offender: int, players: int) -> TieBreak:
    """Rules 5.5: the offender (a late declaration) wins any tie; else the shortest distance."""

    def pick(tied: tuple[int, ...]) -> int:
        if offender in tied:
            return offender
        return min(tied, key=lambda seat: distance(seat, offender, players))

    return pick


def pending_uffda(state: UffdaState, seat: int) -> list[Offence]:
    """The seat's missed UFF-DA! offences still in the state (open, racing or closing)."""
    return [o for o in state.offences if o.kind is Kind.UFFDA and o.offender == seat]


def open_offence(state: UffdaState, kind: Kind, offender: int, at: int) -> UffdaState:
    """Record a mistake; with penalties off there are none (rules 7)."""
    if not state.options.penalties:
        return state
    offence = Offence(state.next_offence, kind, offender, state.turn.no, at)
    return evolve(state, offences=(*state.offences, offence), next_offence=state.next_offence + 1)


def close_windows(state: UffdaState, ended_turn: int, at: int) -> UffdaState:
    """The NEXT ending ``ended_turn`` at ``at`` closes every window of the turn before (rules 5.3).

    A closed offence stays only while a call made before ``at`` may still
    arrive (``linger_ms``) or its race runs.
    """
    linger = state.options.linger_ms
    kept: list[Offence] = []
    changed = False
    for o in state.offences:
        if o.closes_at is None and o.turn < ended_turn:
            changed = True
            if o.race_deadline is None and linger == 0:
                continue
            o = evolve(o, closes_at=at)
        kept.append(o)
    return evolve(state, offences=tuple(kept)) if changed else state


def _reaction(
    state: UffdaState, offence: Offence, arrival: int, reaction_ms: int | None, rtt: int | None
) -> int:
    options = state.options
    return race.compensated_time(
        arrival,
        offence.created_at,
        reaction_ms,
        rtt,
        options.max_credit_ms,
        enabled=options.latency_compensation,
    )


def _with_call(state: UffdaState, offence: Offence, call: Call) -> Offence:
    deadline = offence.race_deadline
    if deadline is None:
        deadline = race.race_deadline(call.claim.arrival, state.options.race_window_ms)
    return evolve(offence, calls=(*offence.calls, call), race_deadline=deadline)


def _replace_offence(state: UffdaState, new: Offence | None, old_id: int) -> UffdaState:
    offences = tuple(n for o in state.offences if (n := (new if o.id == old_id else o)) is not None)
    return evolve(state, offences=offences)


def call(
    state: UffdaState,
    seat: int,
    arrival: int,
    rtt: int | None,
    kind: Kind,
    target: int,
    give_card: CardId | None,
    uffda: bool,
    reaction_ms: int | None,
) -> UffdaState:
    """A COIN! or UFF-DA! call by ``seat`` on ``target`` joins the race of the oldest mistake
    of that kind it can still catch (rules 5.4, settled decision A)."""
    if not state.options.penalties:
        raise IllegalAction("PENALTIES_OFF", "Penalty calls are switched off at this table.")
    if not 0 <= target < state.players:
        raise IllegalAction("BAD_ACTION", "Call a seat at this table.")
    if target == seat:
        raise IllegalAction("SELF_CALL", "You cannot call a penalty on yourself.")
    hand = state.hands[seat]
    if len(hand) < 2:
        raise IllegalAction("CALLER_TOO_FEW_CARDS", "You need at least two cards to call a penalty.")
    if give_card is not None and give_card not in hand:
        raise IllegalAction("CARD_NOT_IN_HAND", "You can only give a card from your own hand.")
    reason = "NONE"
    for offence in state.offences:
        if offence.kind is not kind or offence.offender != target:
            continue
        at = _reaction(state, offence, arrival, reaction_ms, rtt)
        if offence.closes_at is not None and at >= offence.closes_at:
            continue
        if any(c.claim.seat == seat for c in offence.calls):
            reason = "ALREADY"
            continue
        declared = offence.declaration
        if declared is not None and at + state.options.tie_margin_ms >= declared.claim.at:
            reason = "DECLARED"
            continue
        new = _with_call(state, offence, Call(Claim(seat, arrival, at, reaction_ms, rtt), give_card, uffda))
        state = _replace_offence(state, new, offence.id)
        return emit(state, arrival, "call", seat, call=kind.value, target=target)
    if reason == "ALREADY":
        raise IllegalAction("ALREADY_CALLED", "You already made that call.")
    if reason == "DECLARED":
        raise IllegalAction("NO_OFFENCE", "Too late: that player said UFF-DA! first.")
    what = "a forgotten coin" if kind is Kind.COIN else "a missed UFF-DA!"
    raise IllegalAction("NO_OFFENCE", f"There is no {what} to catch on that player right now.")


def declare(
    state: UffdaState, seat: int, arrival: int, rtt: int | None, reaction_ms: int | None
) -> UffdaState:
    """A late self-declaration: it joins the race of every missed UFF-DA! of the seat
    (rules 5.2, settled decision A) and wins any tie with a call (DECISION 8.24)."""
    todo = [o for o in pending_uffda(state, seat) if o.declaration is None]
    if not todo:
        raise IllegalAction("NO_OFFENCE", "You have no missed UFF-DA! to declare.")
    for offence in todo:
        at = _reaction(state, offence, arrival, reaction_ms, rtt)
        state = _replace_offence(
            state, _with_call(state, offence, Call(Claim(seat, arrival, at, reaction_ms, rtt))), offence.id
        )
    return emit(state, arrival, "uffda", seat, late=True)


def settle(state: UffdaState, offence: Offence, t: int) -> UffdaState:
    """The offence's deadline fired at ``t``: judge its race, or drop it once its window has closed."""
    if offence.race_deadline is None:
        return _replace_offence(state, None, offence.id)
    valid = [
        c for c in offence.calls if c.claim.seat == offence.offender or len(state.hands[c.claim.seat]) >= 2
    ]
    if not valid:
        # Every caller ran out of cards meanwhile (rules 5.4): the mistake stays catchable.
        state = emit(state, t, "void", None, call=offence.kind.value, target=offence.offender)
        rest = evolve(offence, calls=(), race_deadline=None)
        expired = rest.closes_at is not None and rest.closes_at + state.options.linger_ms <= t
        return _replace_offence(state, None if expired else rest, offence.id)
    ruling = race.rule(
        [c.claim for c in valid], state.options.tie_margin_ms, tie_break(offence.offender, state.players)
    )
    state = _replace_offence(state, None, offence.id)
    target = offence.offender
    if ruling.winner == target:
        return emit(state, t, "saved", target, call=offence.kind.value, tied=ruling.tied)
    winning = next(c for c in valid if c.claim.seat == ruling.winner)
    return catch(state, offence.kind, ruling.winner, target, winning, ruling.tied, t)


def catch(
    state: UffdaState, kind: Kind, catcher: int, target: int, won: Call, tied: tuple[int, ...], t: int
) -> UffdaState:
    """Rules 5.6: a forgotten coin goes on; the catcher gives the target one card."""
    hands = list(state.hands)
    giver = hands[catcher]
    card = won.give_card if won.give_card in giver else highest(giver)
    hands[catcher] = tuple(c for c in giver if c != card)
    hands[target] = tuple(sorted((*hands[target], card)))
    branches = set_coin(state.branches, target, True) if kind is Kind.COIN else state.branches
    left_one = len(hands[catcher]) == 1
    declared = left_one and won.uffda
    state = evolve(state, hands=tuple(hands), branches=branches)
    state = emit(
        state,
        t,
        "caught",
        catcher,
        secret=card,
        secret_to=(catcher, target),
        call=kind.value,
        target=target,
        tied=tied,
        uffda=declared,
    )
    if left_one and not declared:
        # Trigger T2: the catcher released their next-to-last card (rules 5.1, 5.7).
        state = open_offence(state, Kind.UFFDA, catcher, t)
    return state
