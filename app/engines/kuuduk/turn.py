"""The turn as a state machine: ACQUIRE, then PLAY (rules 3.2 to 3.12).

Each action function takes a state where ``seat`` is on turn (the engine has
checked phase, seat and turn), validates everything before it builds
anything, and returns the new state; on IllegalAction nothing was built.
"""

from __future__ import annotations

from app.engines.base import IllegalAction
from app.engines.kuuduk.actions import Discard, Draw, Lay, Pass, Swipe, Switch, TakeDiscard
from app.engines.kuuduk.deck import SWIPES, Black, CardId, black_kind, is_letter
from app.engines.kuuduk.layout import Layout, place, take
from app.engines.kuuduk.piles import refill_from_discards
from app.engines.kuuduk.rounds import begin_turn, void_round, win_round
from app.engines.kuuduk.state import HAND_LIMIT, Direction, Event, KuudukState, Phase, Step
from app.engines.seats import clockwise, counter_clockwise
from app.engines.tuples import evolve, replace_at


def _set_hand(state: KuudukState, seat: int, hand: tuple[CardId, ...]) -> tuple[tuple[CardId, ...], ...]:
    return replace_at(state.hands, seat, hand)


def _set_layout(layouts: tuple[Layout, ...], seat: int, layout: Layout) -> tuple[Layout, ...]:
    return replace_at(layouts, seat, layout)


def _without(hand: tuple[CardId, ...], card: CardId) -> tuple[CardId, ...]:
    return tuple(c for c in hand if c != card)


def _need_step(state: KuudukState, step: Step) -> None:
    if state.step is not step:
        if step is Step.ACQUIRE:
            raise IllegalAction(
                "WRONG_STEP", "You have already drawn or passed; now lay, discard or play a card."
            )
        raise IllegalAction("WRONG_STEP", "First draw, pick up from the discard pile or pass.")


def _need_in_hand(state: KuudukState, seat: int, card: CardId) -> None:
    if card not in state.hands[seat]:
        raise IllegalAction("NOT_IN_HAND", "That card is not in your hand.")


def next_seat(state: KuudukState, seat: int) -> int:
    """Rules 2.1: the next player in the current direction, among those in the round."""
    if state.direction is Direction.CW:
        return clockwise(seat, state.players, among=state.seats)
    return counter_clockwise(seat, state.players, among=state.seats)


def victims(state: KuudukState, seat: int, kind: Black) -> tuple[int, ...]:
    """Rules 3.5: whom a swipe card may take from (physical neighbours, never oneself)."""
    n = state.players
    if kind is Black.SWIPE_LEFT:
        return (clockwise(seat, n, among=state.seats),)
    if kind is Black.SWIPE_RIGHT:
        return (counter_clockwise(seat, n, among=state.seats),)
    return tuple(s for s in state.seats if s != seat)


# -- the end of an action -------------------------------------------------------------


def has_won(state: KuudukState, seat: int) -> bool:
    """Rules 3.10: a complete word and an empty hand."""
    return state.layouts[seat].complete and not state.hands[seat]


def end_turn(state: KuudukState, seat: int, t: int, events: tuple[Event, ...]) -> KuudukState:
    """After the turn's last action: the win check, the stall guard, then the next player's turn."""
    if has_won(state, seat):
        return win_round(state, seat, t, events)
    assert len(state.hands[seat]) <= HAND_LIMIT, "rules 3.2: a hand never ends a turn above 3 cards"
    stall = 0 if state.laid_this_turn else state.stall + 1
    state = evolve(state, turns=state.turns + 1, stall=stall, last=events)
    if stall >= state.stall_limit:
        return void_round(state, t, events)
    return begin_turn(state, next_seat(state, seat), t)


# -- ACQUIRE ---------------------------------------------------------------------------


def draw(state: KuudukState, seat: int, t: int, _action: Draw | None = None) -> KuudukState:
    """Rules 3.3 and 3.9: the top card to the hand, refilling the draw pile from the discards if needed."""
    _need_step(state, Step.ACQUIRE)
    pile, discard, rng = state.draw_pile, state.discard, state.rng
    events: tuple[Event, ...] = ()
    if not pile:
        if len(discard) < 2:
            raise IllegalAction("DRAW_PILE_EMPTY", "There is no card to draw; pick up or pass.")
        rng = rng.copy()
        pile, discard = refill_from_discards(discard, rng)
        events = (Event("refill", count=len(pile)),)
    card = pile[0]
    return evolve(
        state,
        rng=rng,
        draw_pile=pile[1:],
        discard=discard,
        hands=_set_hand(state, seat, (*state.hands[seat], card)),
        drawn=card,
        step=Step.PLAY,
        last=(*events, Event("draw", seat=seat)),
    )


def pass_(state: KuudukState, seat: int, t: int, _action: Pass | None = None) -> KuudukState:
    """Rules 3.3: skip the pick-up; with an empty hand the turn ends, otherwise PLAY follows."""
    _need_step(state, Step.ACQUIRE)
    if state.restarted and state.can_draw:
        raise IllegalAction("MUST_DRAW", "After a Switch you must draw again.")
    events = (Event("pass", seat=seat),)
    if not state.hands[seat]:
        return end_turn(state, seat, t, events)
    return evolve(state, step=Step.PLAY, last=events)


def take_discard(state: KuudukState, seat: int, t: int, action: TakeDiscard) -> KuudukState:
    """Rules 3.3: the top letter card of the discard pile goes straight into the row; the turn ends."""
    _need_step(state, Step.ACQUIRE)
    if not state.discard:
        raise IllegalAction("DISCARD_EMPTY", "The discard pile is empty.")
    card = state.discard[-1]
    if not is_letter(card):
        raise IllegalAction("DISCARD_TOP_BLACK", "Black cards cannot be picked up from the discard pile.")
    layout = place(state.layouts[seat], card, action.placement)
    moved = _rearranged(state.layouts[seat], layout, card)
    state = evolve(
        state,
        discard=state.discard[:-1],
        layouts=_set_layout(state.layouts, seat, layout),
        laid_this_turn=True,
    )
    slot = layout.slots.index(card) + 1
    return end_turn(
        state, seat, t, (Event("take_discard", seat=seat, card=card, slot=slot, rearranged=moved),)
    )


# -- PLAY ------------------------------------------------------------------------------


def _rearranged(old: Layout, new: Layout, card: CardId) -> bool:
    return any(o is not None and o != n for o, n in zip(old.slots, new.slots, strict=True))


def lay(state: KuudukState, seat: int, t: int, action: Lay) -> KuudukState:
    """Rules 3.4 and 3.7: a letter card from the hand into the row; the turn ends."""
    _need_step(state, Step.PLAY)
    card = action.card
    _need_in_hand(state, seat, card)
    if not is_letter(card):
        raise IllegalAction("NOT_A_LETTER", "Only letter cards can be laid down.")
    layout = place(state.layouts[seat], card, action.placement)
    moved = _rearranged(state.layouts[seat], layout, card)
    state = evolve(
        state,
        hands=_set_hand(state, seat, _without(state.hands[seat], card)),
        layouts=_set_layout(state.layouts, seat, layout),
        drawn=None,
        laid_this_turn=True,
    )
    slot = layout.slots.index(card) + 1
    return end_turn(state, seat, t, (Event("lay", seat=seat, card=card, slot=slot, rearranged=moved),))


def discard(state: KuudukState, seat: int, t: int, action: Discard) -> KuudukState:
    """Rules 3.4: any card from the hand onto the discard pile, without effect; the turn ends."""
    _need_step(state, Step.PLAY)
    card = action.card
    _need_in_hand(state, seat, card)
    state = evolve(
        state,
        hands=_set_hand(state, seat, _without(state.hands[seat], card)),
        discard=(*state.discard, card),
        drawn=None,
    )
    return end_turn(state, seat, t, (Event("discard", seat=seat, card=card),))


def swipe(state: KuudukState, seat: int, t: int, action: Swipe) -> KuudukState:
    """Rules 3.5: discard the swipe card, then (optionally) move a laid card of a victim into the own row."""
    _need_step(state, Step.PLAY)
    card = action.card
    _need_in_hand(state, seat, card)
    kind = black_kind(card)
    if kind not in SWIPES:
        raise IllegalAction("NOT_A_SWIPE", "That is not a swipe card.")
    assert kind is not None
    layouts = state.layouts
    event = Event("swipe", seat=seat, card=card)
    if action.victim is not None:
        assert action.slot is not None and action.placement is not None
        victim = action.victim
        if victim not in victims(state, seat, kind):
            allowed = {
                Black.SWIPE_LEFT: "the player on your left",
                Black.SWIPE_RIGHT: "the player on your right",
                Black.SWIPE_ANY: "another player in the round",
            }[kind]
            raise IllegalAction("BAD_VICTIM", f"This card takes from {allowed}.")
        taken = layouts[victim].slots[action.slot - 1]
        if taken is None:
            raise IllegalAction("NO_CARD_IN_SLOT", f"There is no card in slot {action.slot} of that row.")
        mine = place(layouts[seat], taken, action.placement)
        _, theirs = take(layouts[victim], action.slot)
        layouts = _set_layout(_set_layout(layouts, victim, theirs), seat, mine)
        event = evolve(
            event,
            victim=victim,
            from_slot=action.slot,
            taken=taken,
            slot=mine.slots.index(taken) + 1,
            rearranged=_rearranged(state.layouts[seat], mine, taken),
        )
    state = evolve(
        state,
        hands=_set_hand(state, seat, _without(state.hands[seat], card)),
        discard=(*state.discard, card),
        layouts=layouts,
        drawn=None,
    )
    return end_turn(state, seat, t, (event,))


def switch(state: KuudukState, seat: int, t: int, action: Switch) -> KuudukState:
    """Rules 3.6: discard the Switch, reverse the direction, then restart the turn (it must draw)."""
    _need_step(state, Step.PLAY)
    card = action.card
    _need_in_hand(state, seat, card)
    if black_kind(card) is not Black.SWITCH:
        raise IllegalAction("NOT_A_SWITCH", "That is not a Switch card.")
    direction = state.direction.flipped()
    state = evolve(
        state,
        hands=_set_hand(state, seat, _without(state.hands[seat], card)),
        discard=(*state.discard, card),
        direction=direction,
        drawn=None,
    )
    events = (Event("switch", seat=seat, card=card, direction=direction),)
    if has_won(state, seat):
        return win_round(state, seat, t, events)
    return evolve(begin_turn(state, seat, t, restarted=True), last=events)


# -- the turn timer --------------------------------------------------------------------


def timeout(state: KuudukState, t: int) -> KuudukState:
    """Decision 24: the turn timer ran out; finish the turn with neutral actions.

    In ACQUIRE draw (pass when no card can be drawn); then in PLAY discard the
    card drawn this turn, else the last card of the hand. Never a lay, a swipe
    or a switch.
    """
    seat = state.turn
    events: tuple[Event, ...] = (Event("timeout", seat=seat),)
    if state.step is Step.ACQUIRE:
        state = draw(state, seat, t) if state.can_draw else pass_(state, seat, t)
        events += state.last
        if state.phase is not Phase.TURN or state.turn != seat or state.step is not Step.PLAY:
            return evolve(state, last=events)
    hand = state.hands[seat]
    card = state.drawn if state.drawn in hand else hand[-1]
    assert card is not None
    state = discard(state, seat, t, Discard(card))
    return evolve(state, last=(*events, *state.last))
