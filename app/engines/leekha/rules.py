"""The card rules as pure functions of hands and tricks (rules 3.3, 3.5, 3.6 and decision 22).

Nothing here knows about phases, turns or time: the engine asks these
functions and raises what they return.

>>> legal_cards(("Y10", "Y03", "G05"), ("Y05", "Y11"))
('Y10',)
>>> trick_winner(((0, "G03"), (3, "G09"), (2, "R14"), (1, "B12")))
3
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from app.engines.base import IllegalAction
from app.engines.cards import CardId
from app.engines.leekha.deck import BIG, COLOUR_NAMES, COLOURS, LEEKHAS, SMALL, card_name, low_first, rank_of

PASS_SIZE = 3
_EMPTY_FLOOR = {"Y": 10, "B": 12}
"""Lowest rank a colour's cards may have for the colour to be emptied by a pass; red and green never."""


def must_keep(hand: Sequence[CardId]) -> tuple[str, ...]:
    """Colours the seat holds and may not give away completely (rules 3.3).

    Red and green always; yellow while it holds a yellow below the 0; blue
    while it holds a blue below the +2. A colour not held imposes nothing.

    >>> must_keep(("R05", "B12", "B14", "Y10", "Y06", "G14"))
    ('R', 'Y', 'G')
    >>> must_keep(("B11", "Y13"))
    ('B',)
    """
    keep = []
    for colour in COLOURS:
        ranks = [rank_of(c) for c in hand if c[0] == colour]
        if ranks and min(ranks) < _EMPTY_FLOOR.get(colour, 99):
            keep.append(colour)
    return tuple(keep)


def pass_error(hand: Sequence[CardId], give: Sequence[CardId]) -> IllegalAction | None:
    """Why giving ``give`` from ``hand`` is not a legal pass, or None.

    >>> pass_error(("R05", "G03", "G04", "B02"), ("R05", "G03", "G04")).code
    'PASS_EMPTIES_COLOUR'
    >>> pass_error(("Y10", "Y13", "R09", "R03"), ("Y10", "Y13", "R09")) is None
    True
    """
    if len(give) != PASS_SIZE or len(set(give)) != PASS_SIZE:
        return IllegalAction("PASS_NOT_THREE_DISTINCT", "Choose exactly three different cards to pass.")
    held = set(hand)
    missing = [c for c in give if c not in held]
    if missing:
        return IllegalAction("NOT_IN_HAND", f"You do not hold {missing[0]}.")
    for colour in must_keep(hand):
        if all(c in give for c in hand if c[0] == colour):
            name = COLOUR_NAMES[colour]
            if colour in "RG":
                why = f"You must keep at least one {name} card."
            else:
                floor = "0" if colour == "Y" else "+2"
                why = (
                    f"You may give away your last {name} card only if every {name} card "
                    f"you give is the {floor} or higher."
                )
            return IllegalAction("PASS_EMPTIES_COLOUR", why)
    return None


@lru_cache(maxsize=128)  # an entry is up to 286 triples (~19 KB); only hands passing now are asked
def legal_passes(hand: tuple[CardId, ...]) -> tuple[tuple[CardId, ...], ...]:
    """Every legal pass, each in hand order (at most C(13, 3) = 286 of them).

    A pass is illegal only when it holds every card of a colour the seat must
    keep, which needs a colour of at most three cards. Views ask for this once
    per seat and state during the pass, so it is cached by hand.

    >>> len(legal_passes(("R02", "R03", "G02", "G03", "G04")))
    6
    """
    bits = {card: 1 << i for i, card in enumerate(hand)}
    small = []
    for colour in must_keep(hand):
        cards = [bits[c] for c in hand if c[0] == colour]
        if len(cards) <= PASS_SIZE:
            small.append(sum(cards))
    gives = list(combinations(hand, PASS_SIZE))
    for mask in small:
        gives = [g for g in gives if mask & (bits[g[0]] | bits[g[1]] | bits[g[2]]) != mask]
    return tuple(gives)


def _forced_under(hand: Sequence[CardId], trick_cards: Sequence[CardId]) -> CardId | None:
    """The Leekha a follower must drop under a higher card of its colour (rules 3.5), if any."""
    led = trick_cards[0][0]
    if led == "Y" and SMALL in hand and any(c[0] == "Y" and rank_of(c) > 10 for c in trick_cards):
        return SMALL
    if led == "B" and BIG in hand and any(c[0] == "B" and rank_of(c) > 12 for c in trick_cards):
        return BIG
    return None


def legal_cards(hand: Sequence[CardId], trick_cards: Sequence[CardId]) -> tuple[CardId, ...]:
    """The cards the seat may play on this trick, in hand order (rules 3.5).

    >>> legal_cards(("B12", "Y10", "G09"), ("R04",))
    ('B12', 'Y10')
    >>> legal_cards(("B12", "B04"), ("B03", "B11"))
    ('B12', 'B04')
    """
    if not trick_cards:
        return tuple(hand)
    forced = _forced_under(hand, trick_cards)
    if forced is not None:
        return (forced,)
    led = trick_cards[0][0]
    follow = tuple(c for c in hand if c[0] == led)
    if follow:
        return follow
    leekhas = tuple(c for c in hand if c in LEEKHAS)
    return leekhas or tuple(hand)


def play_error(hand: Sequence[CardId], trick_cards: Sequence[CardId], card: CardId) -> IllegalAction | None:
    """Why ``card`` may not be played now, or None (the card is known to be in ``hand``)."""
    if not trick_cards:
        return None
    forced = _forced_under(hand, trick_cards)
    if forced is not None:
        if card == forced:
            return None
        return IllegalAction(
            "MUST_PLAY_LEEKHA_UNDER_HIGHER",
            f"A higher {COLOUR_NAMES[forced[0]]} card is in the trick: "
            f"you must play the {card_name(forced)}.",
        )
    led = trick_cards[0][0]
    if card[0] == led:
        return None
    if any(c[0] == led for c in hand):
        return IllegalAction("MUST_FOLLOW_COLOUR", f"You must follow {COLOUR_NAMES[led]}.")
    leekhas = [c for c in hand if c in LEEKHAS]
    if leekhas and card not in leekhas:
        names = " or the ".join(card_name(c) for c in leekhas)
        return IllegalAction(
            "MUST_PLAY_LEEKHA_VOID", f"You cannot follow {COLOUR_NAMES[led]}, so you must play the {names}."
        )
    return None


def trick_winner(trick: Sequence[tuple[int, CardId]]) -> int:
    """The seat of the highest card of the led colour; other colours never win (rules 3.6)."""
    led = trick[0][1][0]
    return max((rank_of(card), seat) for seat, card in trick if card[0] == led)[1]


def auto_pass(hand: Sequence[CardId]) -> tuple[CardId, ...]:
    """The pass a timeout makes: the first legal three cards in lowest-first order (decision 22).

    >>> auto_pass(("R02", "R03", "G02", "G03", "G04", "B05"))
    ('R02', 'G02', 'G03')
    """
    for give in combinations(low_first(hand), PASS_SIZE):
        if pass_error(hand, give) is None:
            return give
    raise AssertionError("a 13-card hand always has a legal pass")


def auto_card(hand: Sequence[CardId], trick_cards: Sequence[CardId]) -> CardId:
    """The card a timeout plays: the lowest legal one (decision 22)."""
    return low_first(legal_cards(hand, trick_cards))[0]
