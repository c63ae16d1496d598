"""Missed COIN and UFF-DA! mistakes, the calls that catch them and their races (rules 5).

Calls are reaction races judged by the shared arbiter (:mod:`app.engines.race`),
as Slap's slaps are. The stimulus is the mistake becoming visible: the frame
showing the NEXT said without the owed coin, or the release of the
next-to-last card without UFF-DA! (:func:`stimulus_key` names it to the room,
which notes when that frame went to each seat and hands every move made while
it is live the seats' links, ``Move.timing``). :func:`race.judge` turns a call
into an effective reaction time from there; the race stays open only while a
seat that has not called could still win or tie (:func:`race.close_time`);
calls within ``tie_margin_ms`` of the best tie, and a tie goes to the caller
nearest clockwise to the penalised player (:func:`race.clockwise_from`). The
penalised player's late declaration runs in the same race at distance 0, so it
wins every tie (DECISION 8.24).

A move without timing (the room saw no link, or a test) is judged with no
link: no network time is credited and the mistake's own time stands in for
the unknown send time (flags NO_SYNC, NO_STIMULUS); with nobody's link known,
its race stays open for the whole race window.

>>> pick = race.clockwise_from(0, 4)  # tied callers B, D and the late declaration of A
>>> pick((1, 3)), pick((0, 1, 3))
(3, 0)
"""

from __future__ import annotations

from app.engines import race
from app.engines.base import IllegalAction, Move, Timing
from app.engines.race import Claim, Fairness, Pending
from app.engines.tuples import evolve, replace_at
from app.engines.uffda.actions import CallAction
from app.engines.uffda.board import set_coin
from app.engines.uffda.dominoes import highest
from app.engines.uffda.log import emit
from app.engines.uffda.options import UffdaOptions
from app.engines.uffda.state import Call, Judged, Kind, Offence, Phase, UffdaState


def stimulus_key(offence: Offence) -> str:
    """The race stimulus of a mistake: the frame that first showed it (``coin:7``, ``uffda:8``)."""
    return f"{offence.kind.value.lower()}:{offence.id}"


def stimuli(state: UffdaState) -> tuple[str, ...]:
    """Every mistake still in the state is live: calls on it may still come or be in flight."""
    if state.phase is not Phase.PLAY:
        return ()
    return tuple(stimulus_key(o) for o in state.offences)


def fairness(options: UffdaOptions) -> Fairness:
    return Fairness(
        max_credit_ms=options.max_credit_ms,
        tie_margin_ms=options.tie_margin_ms,
        enabled=options.latency_compensation,
    )


def _fairness_for(options: UffdaOptions, offence: Offence, seat: int) -> Fairness:
    """The offender's late declaration reacts to no one else's stimulus: they may say it a beat
    after their own release, before their screen shows it, so no human floor applies to it."""
    fair = fairness(options)
    if seat != offence.offender:
        return fair
    return evolve(fair, min_reaction_ms=0)


def _can_claim(offence: Offence, seat: int) -> bool:
    """Who may join this race: anyone but the offender, who may only declare a missed UFF-DA!."""
    return seat != offence.offender or offence.kind is Kind.UFFDA


def pending_uffda(state: UffdaState, seat: int) -> list[Offence]:
    """The seat's missed UFF-DA! offences still in the state (open, racing or closing)."""
    return [o for o in state.offences if o.kind is Kind.UFFDA and o.offender == seat]


def note_release(state: UffdaState, seat: int) -> UffdaState:
    """The seat just released a card and holds one (a trigger of rules 5.1, said or not)."""
    released = state.released or (0,) * state.players
    return evolve(state, released=replace_at(released, seat, state.turn.no))


def may_declare(state: UffdaState, seat: int) -> bool:
    """Whether the seat's view offers a late UFF-DA!: its latest release to one card is in the
    turn in play or the one before, the only turns whose missed UFF-DA! is still open (rules
    5.2-5.3). Said or not, caught or not: the offer must not tell the seat it forgot."""
    released = state.released[seat] if seat < len(state.released) else 0
    return released > 0 and released >= state.turn.no - 1


def open_offence(state: UffdaState, kind: Kind, offender: int, at: int) -> UffdaState:
    """Record a mistake that became visible at ``at``; with penalties off there are none (rules 7)."""
    if not state.options.penalties:
        return state
    offence = Offence(state.next_offence, kind, offender, state.turn.no, at)
    return evolve(state, offences=(*state.offences, offence), next_offence=state.next_offence + 1)


def _expiry(state: UffdaState, offence: Offence, closes_at: int, timing: Timing | None) -> int:
    """Until when a call made before ``closes_at`` may still arrive.

    With the seats' links (the closing NEXT's timing): the last moment any
    seat that has not called could deliver a call the arbiter puts before
    ``closes_at``, at most ``race_window_ms`` after it. Without: the older
    fixed ``linger_ms``.
    """
    options = state.options
    if timing is None:
        return closes_at + options.linger_ms
    if not options.latency_compensation:
        return closes_at  # calls rank by arrival: none arriving later was made earlier
    fair = fairness(options)
    key = stimulus_key(offence)
    called = {c.claim.seat for c in offence.calls}
    latest = closes_at
    for seat, link in enumerate(timing.links):
        if link is None or key not in link.sent or seat in called or not _can_claim(offence, seat):
            continue
        reach = race.link_reach(fair, link)
        latest = max(latest, link.sent[key] + (closes_at - offence.created_at) + reach)
    return min(latest, closes_at + options.race_window_ms)


def close_windows(state: UffdaState, ended_turn: int, at: int, timing: Timing | None = None) -> UffdaState:
    """The NEXT ending ``ended_turn`` at ``at`` closes every window of the turn before (rules 5.3).

    A closed offence stays only while a call made before ``at`` may still
    arrive or its race runs; ``timing`` is the NEXT's (None for the turn timer's).
    """
    kept: list[Offence] = []
    changed = False
    for o in state.offences:
        if o.closes_at is None and o.turn < ended_turn:
            changed = True
            expires = _expiry(state, o, at, timing)
            if o.race_deadline is None and expires <= at:
                continue
            o = evolve(o, closes_at=at, expires_at=expires)
        kept.append(o)
    return evolve(state, offences=tuple(kept)) if changed else state


def _judge(state: UffdaState, offence: Offence, move: Move, reaction_ms: int | None) -> Claim:
    """The claim's place in the race: its effective reaction time since the mistake showed."""
    link = move.timing.link(move.seat) if move.timing is not None else None
    return race.judge_link(
        move.seat,
        move.at,
        offence.created_at,
        link,
        stimulus_key(offence),
        reaction_ms=reaction_ms,
        fairness=_fairness_for(state.options, offence, move.seat),
    )


def _pending(offence: Offence, move: Move, options: UffdaOptions) -> list[Pending] | None:
    """The seats that could still join this race and their reach; None (stay open for the whole
    window) when the move carries no timing, as nobody's link is known."""
    if move.timing is None:
        return None
    fair = fairness(options)
    key = stimulus_key(offence)
    claimed = {c.claim.seat for c in offence.calls}
    pending = []
    for seat, link in enumerate(move.timing.links):
        if link is None or key not in link.sent or seat in claimed or not _can_claim(offence, seat):
            continue  # in the race already, or never shown the mistake (not connected): cannot win it
        pending.append(Pending(link.sent[key], race.link_reach(fair, link)))
    return pending


def _join(state: UffdaState, offence: Offence, call: Call, move: Move) -> UffdaState:
    """Add a claim to the mistake's race; the race closes once no seat still out of it could win."""
    options = state.options
    joined = evolve(offence, calls=(*offence.calls, call))
    deadline = race.close_time(
        [c.claim for c in joined.calls],
        _pending(joined, move, options),
        offence.created_at,
        now=move.at,
        tie_margin_ms=options.tie_margin_ms,
        window_ms=options.race_window_ms,
    )
    return _replace_offence(state, evolve(joined, race_deadline=deadline), offence.id)


def _replace_offence(state: UffdaState, new: Offence | None, old_id: int) -> UffdaState:
    offences = tuple(n for o in state.offences if (n := (new if o.id == old_id else o)) is not None)
    return evolve(state, offences=offences)


def call(state: UffdaState, move: Move, action: CallAction) -> UffdaState:
    """A COIN! or UFF-DA! call joins the race of the oldest mistake of that kind by the target
    that it can still catch (rules 5.4, settled decision A)."""
    seat, kind, target, give_card = move.seat, action.kind, action.target, action.give_card
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
        claim = _judge(state, offence, move, action.reaction_ms)
        if offence.closes_at is not None and claim.at >= offence.closes_at:
            continue  # made after the NEXT that closed the window (rules 5.3)
        if any(c.claim.seat == seat for c in offence.calls):
            reason = "ALREADY"
            continue
        declared = offence.declaration
        if declared is not None and claim.at + state.options.tie_margin_ms >= declared.claim.at:
            reason = "DECLARED"
            continue
        state = _join(state, offence, Call(claim, give_card, action.uffda), move)
        return emit(state, move.at, "call", seat, call=kind.value, target=target, turn=offence.turn)
    if reason == "ALREADY":
        raise IllegalAction("ALREADY_CALLED", "You already made that call.")
    if reason == "DECLARED":
        raise IllegalAction("NO_OFFENCE", "Too late: that player said UFF-DA! first.")
    what = "forgotten coin" if kind is Kind.COIN else "missed UFF-DA!"
    raise IllegalAction("NO_OFFENCE", f"There is no {what} to catch on that player right now.")


def declare(state: UffdaState, move: Move, reaction_ms: int | None) -> UffdaState:
    """A late self-declaration: it joins the race of every missed UFF-DA! of the seat
    (rules 5.2, settled decision A) and wins any tie with a call (DECISION 8.24)."""
    seat = move.seat
    todo = [o for o in pending_uffda(state, seat) if o.declaration is None]
    if not todo:
        raise IllegalAction("NO_OFFENCE", "You have no missed UFF-DA! to declare.")
    for offence in todo:
        state = _join(state, offence, Call(_judge(state, offence, move, reaction_ms)), move)
    return emit(state, move.at, "uffda", seat, late=True)


def _judged(state: UffdaState, record: Judged) -> UffdaState:
    return evolve(state, judged=(*state.judged, record))


def settle(state: UffdaState, offence: Offence, t: int) -> UffdaState:
    """The offence's deadline fired at ``t``: judge its race, or drop it once no call can come."""
    if offence.race_deadline is None:
        return _replace_offence(state, None, offence.id)
    valid = [
        c for c in offence.calls if c.claim.seat == offence.offender or len(state.hands[c.claim.seat]) >= 2
    ]
    if not valid:
        # Every caller ran out of cards meanwhile (rules 5.4): the mistake stays catchable.
        state = _judged(state, Judged(offence, t, "void", None))
        state = emit(
            state, t, "void", None, call=offence.kind.value, target=offence.offender, turn=offence.turn
        )
        rest = evolve(offence, calls=(), race_deadline=None)
        expired = rest.expires_at is not None and rest.expires_at <= t
        return _replace_offence(state, None if expired else rest, offence.id)
    target = offence.offender
    ruling = race.rule(
        [c.claim for c in valid], state.options.tie_margin_ms, race.clockwise_from(target, state.players)
    )
    state = _replace_offence(state, None, offence.id)
    reaction = ruling.order[0].at - offence.created_at
    if ruling.winner == target:
        state = _judged(state, Judged(offence, t, "saved", ruling))
        return emit(
            state,
            t,
            "saved",
            target,
            call=offence.kind.value,
            tied=ruling.tied,
            reaction=reaction,
            turn=offence.turn,
        )
    state = _judged(state, Judged(offence, t, "caught", ruling))
    winning = next(c for c in valid if c.claim.seat == ruling.winner)
    return catch(state, offence, ruling.winner, winning, ruling.tied, t, reaction)


def catch(
    state: UffdaState,
    offence: Offence,
    catcher: int,
    won: Call,
    tied: tuple[int, ...],
    t: int,
    reaction: int | None = None,
) -> UffdaState:
    """Rules 5.6: a forgotten coin goes on; the catcher gives the offender one card.

    ``reaction`` (the winning call's ranked reaction time, ms) is told to everyone with the catch,
    and so is the turn the mistake belongs to, so a player can tell which mistake it settled.
    """
    kind, target = offence.kind, offence.offender
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
        reaction=reaction,
        turn=offence.turn,
    )
    if left_one:
        state = note_release(state, catcher)
    if left_one and not declared:
        # Trigger T2: the catcher released their next-to-last card (rules 5.1, 5.7).
        state = open_offence(state, Kind.UFFDA, catcher, t)
    return state
