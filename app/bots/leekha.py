"""A simple Leekha player that sees only its own view (rules: shared/rules/leekha.md).

The strategy is the one a careful beginner follows in a Hearts-family game:

* pass the three most dangerous cards: the Leekhas, the blue and yellow cards
  above them (they pull a Leekha onto you) and high red cards;
* lead low and never lead into a Leekha that is still out;
* follow under the card that is winning the trick, above all when the trick
  already holds penalty points; take a trick only when it is worthless, and
  then with the highest card that can go (it would be a liability later);
* when void, dump the Leekhas and the cards that attract them, then high red
  cards, but never onto a teammate in 2 vs 2;
* never throw in while penalty points are left (it takes every one of them).

``choose(view, rng)`` returns one of ``view["legal"]`` or None when the seat
has nothing to do. It never looks at the engine state.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.engines.base import JSON
from app.engines.leekha.deck import BIG, ROUND_POINTS, SMALL, points_of, rank_of

HEAVY = 40
"""A danger score above which a card is worth getting rid of at any chance."""


# -- what the view tells --------------------------------------------------------------


def still_out(view: JSON, leekha: str) -> bool:
    """Whether a Leekha may still land on a trick this seat takes: not held, captured or on the table."""
    taker = view["bl_taker"] if leekha == BIG else view["sl_taker"]
    on_table = any(play["card"] == leekha for play in view["trick"])
    return taker is None and leekha not in view["hand"] and not on_table


def points_left(view: JSON) -> int:
    """Penalty points not yet captured this round (hands plus the trick)."""
    taken: int = sum(seat["points"] for seat in view["seats"])
    return ROUND_POINTS - taken


def is_teammate(view: JSON, seat: int) -> bool:
    """2 vs 2 only: whether ``seat`` plays on this seat's team (never itself in Free for All)."""
    me = view["you"]
    if view["mode"] != "teams" or seat == me:
        return False
    return bool(view["seats"][seat]["team"] == view["seats"][me]["team"])


def trick_leader(view: JSON) -> tuple[int, int]:
    """The seat winning the trick so far and the rank it wins with (only the led colour wins)."""
    led = view["trick"][0]["card"][0]
    best = max((play for play in view["trick"] if play["card"][0] == led), key=lambda p: rank_of(p["card"]))
    return best["seat"], rank_of(best["card"])


# -- how bad a card is to hold ----------------------------------------------------------


def danger(card: str, view: JSON) -> int:
    """How likely ``card`` is to cost points: Leekhas most, then the cards that catch them, then high reds.

    Blue above the +2 and yellow above the 0 force the Leekha onto whoever plays
    them, so they are only dangerous while that Leekha is still out.
    """
    colour, rank = card[0], rank_of(card)
    if card == BIG:
        return 100
    if card == SMALL:
        return 90
    if colour == "B" and rank > rank_of(BIG) and (still_out(view, BIG) or BIG in view["hand"]):
        return HEAVY + 20 + rank
    if colour == "Y" and rank > rank_of(SMALL) and (still_out(view, SMALL) or SMALL in view["hand"]):
        return HEAVY + 10 + rank
    if colour == "R":
        return 2 * rank
    return rank


# -- the decisions ------------------------------------------------------------------------


def choose_pass(view: JSON) -> JSON:
    """Pass the legal three cards that together are the most dangerous to keep."""
    risk = {card: danger(card, view) for card in view["hand"]}
    return max(view["legal"], key=lambda action: sum(risk[card] for card in action["cards"]))


def choose_lead(cards: Sequence[str], view: JSON) -> str:
    """Lead low, keeping the Leekhas and every card that would pull a Leekha onto this seat."""
    return min(cards, key=lambda card: (danger(card, view) >= HEAVY, points_of(card), rank_of(card)))


def choose_follow(cards: Sequence[str], view: JSON) -> str:
    """Follow the led colour: duck under the winning card if possible, else take it as cheaply as possible.

    A trick already won by a teammate is never overtaken. A worthless trick
    that this seat cannot or need not lose is taken with the highest card, to
    shed it while it costs nothing.
    """
    leader, best = trick_leader(view)
    last = len(view["trick"]) == len(view["seats"]) - 1
    trick_points = sum(points_of(play["card"]) for play in view["trick"])
    under = [card for card in cards if rank_of(card) < best]
    over = [card for card in cards if rank_of(card) > best]
    if last and trick_points == 0 and over and not is_teammate(view, leader):
        safe = [card for card in over if points_of(card) == 0]
        if safe:
            return max(safe, key=rank_of)
    if under:
        gift = 0 if is_teammate(view, leader) else 1
        return max(under, key=lambda card: (gift * points_of(card), rank_of(card)))
    if last:
        return max(over, key=lambda card: (-points_of(card), rank_of(card)))
    return min(over, key=lambda card: (points_of(card) > 0, rank_of(card)))


def choose_discard(cards: Sequence[str], view: JSON) -> str:
    """Void in the led colour: dump the most dangerous card, but no points onto a teammate's trick."""
    leader, _ = trick_leader(view)
    if is_teammate(view, leader):
        harmless = [card for card in cards if points_of(card) == 0]
        if harmless:
            return max(harmless, key=lambda card: danger(card, view))
        return min(cards, key=points_of)
    return max(cards, key=lambda card: (danger(card, view), points_of(card)))


def choose_card(view: JSON) -> JSON:
    """Play a trick card: lead, follow or discard; throw in only once no penalty point is left."""
    legal: list[JSON] = view["legal"]
    if points_left(view) == 0:
        throw = [action for action in legal if action["type"] == "throw_in"]
        if throw:
            return throw[0]
    cards = [action["card"] for action in legal if action["type"] == "play_card"]
    if not cards:
        return legal[0]
    if len(cards) == 1:
        card = cards[0]
    elif not view["trick"]:
        card = choose_lead(cards, view)
    elif cards[0][0] == view["trick"][0]["card"][0]:
        card = choose_follow(cards, view)
    else:
        card = choose_discard(cards, view)
    return {"type": "play_card", "card": card}


def choose(view: JSON, rng: random.Random) -> JSON | None:
    """One of the view's legal actions (None when the seat has nothing to do); deterministic."""
    legal: list[JSON] = view.get("legal") or []
    if not legal:
        return None
    kind = legal[0]["type"]
    if kind == "submit_pass":
        return choose_pass(view)
    if kind == "ack":
        return legal[0]
    return choose_card(view)
