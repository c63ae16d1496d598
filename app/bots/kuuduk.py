"""A simple Kuuduk player that sees only its own view (rules: shared/rules/kuuduk.md).

A round is won with a complete row and an empty hand, and each turn lays at
most one card, so the plan is to bring the hand down to exactly the cards the
row still needs while the row grows:

* acquire: with at least as many cards as free slots, pass (the turn's play
  then sheds a card); with fewer, pick up a fitting discard or draw;
* play: lay the card (or swipe the laid card) that keeps the row most open,
  i.e. leaves the most of the remaining hand and of the 27 kinds of letter
  card able to fit; swipe from the players closest to finishing;
* when nothing fits, a Switch is better than a discard (it sheds a card and
  draws a fresh one); otherwise discard the least useful card (a letter whose
  slots are full first, a card that fits now last).

``choose(view, rng)`` returns one of ``view["legal"]`` or None when the seat
is not on turn. It never looks at the engine state; the pure layout rules of
the engine tell which cards fit a row.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from app.engines.base import JSON
from app.engines.kuuduk.deck import COLOURS, DOTS, SWIPES, Black, black_kind, is_letter, letter_card, matches
from app.engines.kuuduk.layout import LETTER_SLOTS, SLOT_COUNT, WORD, Layout, legal_placements, place
from app.engines.seats import clockwise, counter_clockwise

KINDS = tuple(letter_card(letter, colour, dots) for letter in "kud" for colour in COLOURS for dots in DOTS)
"""One card of each of the 27 letter kinds (the copy does not matter for fitting)."""

LAY = 100
"""Any progress on the row beats any other play."""
SWITCH = 50
"""A Switch sheds a card and draws a new one: better than a plain discard."""


# -- what the view tells ----------------------------------------------------------------


def layout_of(view: JSON, seat: int) -> Layout:
    """A seat's row as the engine's Layout, from the public view."""
    row = view["seats"][seat]
    gaps = frozenset(slot for slot, marked in enumerate(row["gaps"], start=1) if marked)
    return Layout(tuple(row["layout"]), gaps)


def needed(layout: Layout) -> int:
    """Free slots left in the row."""
    return SLOT_COUNT - layout.laid


def fits(layout: Layout, card: str) -> bool:
    """Whether a letter card can be laid into the row now (rearranging allowed, as the rules let it)."""
    return is_letter(card) and bool(legal_placements(layout, card))


def swipe_victims(view: JSON, card: str) -> tuple[int, ...]:
    """Whom a swipe card can take from: physical neighbours among the players of the round."""
    me, count = view["you"], len(view["seats"])
    playing = tuple(s for s, seat in enumerate(view["seats"]) if seat["playing"])
    kind = black_kind(card)
    if kind is Black.SWIPE_LEFT:
        return (clockwise(me, count, among=playing),)
    if kind is Black.SWIPE_RIGHT:
        return (counter_clockwise(me, count, among=playing),)
    return tuple(s for s in playing if s != me)


def can_swipe(view: JSON, card: str, mine: Layout) -> bool:
    """Whether a swipe card could take a laid card that fits this seat's row."""
    return any(
        fits(mine, taken)
        for victim in swipe_victims(view, card)
        for taken in view["seats"][victim]["layout"]
        if taken is not None
    )


def usable_now(view: JSON, card: str, mine: Layout) -> bool:
    """Whether a hand card would make progress this turn (a fitting letter or a useful swipe)."""
    if is_letter(card):
        return fits(mine, card)
    return black_kind(card) in SWIPES and can_swipe(view, card, mine)


# -- how good a row is ---------------------------------------------------------------------


def open_slots(layout: Layout) -> list[int]:
    """Slot indexes (0-based) a card could go into without moving laid cards: next to the row or in a gap."""
    slots = layout.slots
    if not layout.laid:
        return list(range(SLOT_COUNT))
    return [
        i
        for i in range(SLOT_COUNT)
        if slots[i] is None
        and ((i > 0 and slots[i - 1] is not None) or (i + 1 < SLOT_COUNT and slots[i + 1] is not None))
    ]


def fits_slot(slots: Sequence[str | None], index: int, card: str) -> bool:
    """Whether ``card`` has the slot's letter and matches both neighbours there."""
    if WORD[index] != card[0]:
        return False
    neighbours = [slots[j] for j in (index - 1, index + 1) if 0 <= j < SLOT_COUNT]
    return all(other is None or matches(card, other) for other in neighbours)


@lru_cache(maxsize=1 << 14)
def openness(layout: Layout) -> int:
    """How many of the 27 letter kinds could be laid into this row without moving cards.

    (A cheap stand-in for the full placement search: rearranging only adds options.)
    """
    slots = open_slots(layout)
    return sum(1 for kind in KINDS if any(fits_slot(layout.slots, i, kind) for i in slots))


def row_value(layout: Layout, hand: Sequence[str]) -> float:
    """A row is better the fuller it is, the more of the kept hand fits it, and the more kinds fit it."""
    hand_fit = sum(1 for card in hand if fits(layout, card))
    return 10 * layout.laid + 3 * hand_fit + openness(layout) / 3


def threat(view: JSON, seat: int) -> float:
    """How close a player is to winning the round or the game: whom a swipe should hurt."""
    row = view["seats"][seat]
    laid: int = row["laid"]
    score: int = row["score"]
    return laid + (3 if laid == SLOT_COUNT else 0) + score / 5


def keep_value(view: JSON, card: str, mine: Layout) -> float:
    """How much a hand card is worth keeping (the lowest is discarded)."""
    if not is_letter(card):
        if black_kind(card) is Black.SWITCH:
            return 2
        return 3 if can_swipe(view, card, mine) else 1
    free = sum(1 for slot in LETTER_SLOTS[card[0]] if mine.slots[slot - 1] is None)
    if not free:
        return 0
    return 2 + (3 if fits(mine, card) else 0)


def without(hand: Sequence[str], card: str) -> list[str]:
    """The hand once ``card`` has left it."""
    return [c for c in hand if c != card]


# -- the decisions -------------------------------------------------------------------------


def first(legal: Sequence[JSON], kind: str) -> JSON | None:
    """The first legal action of a kind, if any."""
    return next((action for action in legal if action["type"] == kind), None)


def best_take(legal: Sequence[JSON], view: JSON, mine: Layout) -> JSON | None:
    """The pick-up from the discard pile with the best resulting row, if the top card fits."""
    takes = [action for action in legal if action["type"] == "take_discard"]
    top = view["discard_top"]
    if not takes:
        return None
    return max(takes, key=lambda a: row_value(place(mine, top, _placement(a)), view["hand"]))


def choose_acquire(view: JSON) -> JSON:
    """Pass when the hand already covers the free slots (and a card can go), else pick up or draw.

    Passing then playing shrinks the hand by one; picking up a fitting
    discard grows the row without touching the hand; drawing keeps the hand
    size and gives a fresh card to choose from.
    """
    legal: list[JSON] = view["legal"]
    mine = layout_of(view, view["you"])
    hand: list[str] = view["hand"]
    pass_ = first(legal, "pass")
    if pass_ is not None and hand:
        sheddable = any(usable_now(view, card, mine) or black_kind(card) is Black.SWITCH for card in hand)
        if len(hand) > needed(mine) or (len(hand) == needed(mine) and sheddable):
            return pass_
    take = best_take(legal, view, mine)
    if take is not None:
        return take
    return first(legal, "draw") or pass_ or legal[0]


def play_score(action: JSON, view: JSON, mine: Layout) -> float:
    """How good one PLAY action is: progress first, then a Switch, then the least useful discard."""
    hand: list[str] = view["hand"]
    kind = action["type"]
    if kind == "lay":
        card = action["card"]
        return LAY + row_value(place(mine, card, _placement(action)), without(hand, card))
    if kind == "swipe" and "victim" in action:
        victim = action["victim"]
        taken = view["seats"][victim]["layout"][action["slot"] - 1]
        row = place(mine, taken, _placement(action))
        return LAY + row_value(row, without(hand, action["card"])) + threat(view, victim)
    if kind == "switch":
        return SWITCH
    return -keep_value(view, action["card"], mine)


def choose_play(view: JSON) -> JSON:
    """The best of the legal plays (a plain discard stands for a swipe without a target)."""
    mine = layout_of(view, view["you"])
    options = [a for a in view["legal"] if not (a["type"] == "swipe" and "victim" not in a)]
    return max(options, key=lambda action: play_score(action, view, mine))


def _placement(action: JSON) -> int | tuple[str | None, ...]:
    """An action's placement as the layout rules take it (a slot, or the full row as a tuple)."""
    placement = action["placement"]
    return placement if isinstance(placement, int) else tuple(placement)


def choose(view: JSON, rng: random.Random) -> JSON | None:
    """One of the view's legal actions (None when the seat is not on turn); deterministic."""
    if not view.get("legal"):
        return None
    if view["step"] == "ACQUIRE":
        return choose_acquire(view)
    return choose_play(view)
