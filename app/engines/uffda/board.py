"""The table: branches, ends, coins and the active double (rules 3).

Pure functions over the board tuples; they know nothing of turns or calls.

>>> bs = new_branches(3, 0)
>>> [(b.owner, b.coin, b.ends) for b in bs[:1]] + [(bs[3].owner, bs[3].coin)]
[(0, True, (End(value=0, on=-1, side=0),)), (None, True)]
>>> [t for c, t in legal_plays(bs, None, 1, ["0-4", "5-6"])]
[(0, -1, 0), (1, -1, 0), (2, -1, 0)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.engines.cards import CardId
from app.engines.uffda.dominoes import has, is_double, other
from app.engines.uffda.state import ActiveDouble, Branch, End, Placement

Target = tuple[int, int, int]
"""Where a card goes: ``(branch, on, side)`` (see :mod:`app.engines.uffda.state`)."""

Play = tuple[CardId, Target]


def new_branches(players: int, center: int) -> tuple[Branch, ...]:
    """Every branch unstarted, coin on, one end of the centre value (rules 2.3)."""
    root = (End(center, -1, 0),)
    return (*(Branch(seat, (), root, True) for seat in range(players)), Branch(None, (), root, True))


def community_ready(branches: Sequence[Branch]) -> bool:
    """Every player branch has a card (rules 3.5, DECISION 8.35)."""
    return all(b.cards for b in branches[:-1])


def access(branches: Sequence[Branch], index: int, seat: int, all_coins: bool = False) -> str | None:
    """Why ``seat`` may not play on a branch in normal play (an IllegalAction code), or None."""
    branch = branches[index]
    if branch.owner is None:
        return None if community_ready(branches) else "COMMUNITY_NOT_READY"
    if branch.owner == seat or branch.coin or all_coins:
        return None
    return "BRANCH_PROTECTED"


def playable_ends(branches: Sequence[Branch], seat: int, all_coins: bool = False) -> list[tuple[int, End]]:
    """The ends ``seat`` may play on when no double is active (rules 3.5)."""
    ready = community_ready(branches)
    out: list[tuple[int, End]] = []
    for index, branch in enumerate(branches):
        if branch.owner is None:
            if not ready:
                continue
        elif branch.owner != seat and not branch.coin and not all_coins:
            continue
        out.extend((index, end) for end in branch.ends)
    return out


def fills(double: ActiveDouble, cards: Iterable[CardId]) -> list[Play]:
    """Every (card, side) filling the active double."""
    sides = double.open_sides()
    return [
        (card, (double.branch, double.card, k))
        for card in cards
        if has(card, double.value) and not is_double(card)
        for k in sides
    ]


def legal_plays(
    branches: Sequence[Branch], double: ActiveDouble | None, seat: int, cards: Iterable[CardId]
) -> list[Play]:
    """Every legal (card, target) for ``seat`` with these cards: fills while a double is active."""
    if double is not None:
        return fills(double, cards)
    ends = playable_ends(branches, seat)
    return [(card, (b, end.on, end.side)) for card in cards for b, end in ends if has(card, end.value)]


def find_end(branch: Branch, on: int, side: int) -> int | None:
    """The index in ``branch.ends`` of the end anchored at ``(on, side)``."""
    for i, end in enumerate(branch.ends):
        if end.on == on and end.side == side:
            return i
    return None


def place(
    branches: tuple[Branch, ...], double: ActiveDouble | None, target: Target, card: CardId, seat: int
) -> tuple[tuple[Branch, ...], ActiveDouble | None]:
    """Put a card the caller has checked is legal; returns the new branches and active double."""
    b, on, side = target
    branch = branches[b]
    index = len(branch.cards)
    cards = (*branch.cards, Placement(card, on, side))
    if double is not None:
        # A fill (rules 3.3): the side becomes an end of the fill's other number.
        made = End(other(card, double.value), index, 0)
        new_fills = (made, double.fills[1]) if side == 0 else (double.fills[0], made)
        first, second = new_fills
        if first is not None and second is not None:
            ends = (*branch.ends[: double.pos], first, second, *branch.ends[double.pos :])
            new_branch = Branch(branch.owner, cards, ends, branch.coin)
            new_double: ActiveDouble | None = None
        else:
            new_branch = Branch(branch.owner, cards, branch.ends, branch.coin)
            new_double = ActiveDouble(
                double.branch, double.card, double.value, double.pos, new_fills, double.layer
            )
    else:
        i = find_end(branch, on, side)
        assert i is not None
        value = branch.ends[i].value
        if is_double(card):
            ends = (*branch.ends[:i], *branch.ends[i + 1 :])
            new_double = ActiveDouble(b, index, value, i, (None, None), seat)
        else:
            ends = (*branch.ends[:i], End(other(card, value), index, 0), *branch.ends[i + 1 :])
            new_double = None
        new_branch = Branch(branch.owner, cards, ends, branch.coin)
    return (*branches[:b], new_branch, *branches[b + 1 :]), new_double


def set_coin(branches: tuple[Branch, ...], index: int, coin: bool) -> tuple[Branch, ...]:
    branch = branches[index]
    if branch.coin == coin:
        return branches
    return (*branches[:index], Branch(branch.owner, branch.cards, branch.ends, coin), *branches[index + 1 :])


def any_play_left(
    hands: Sequence[Sequence[CardId]], branches: Sequence[Branch], double: ActiveDouble | None
) -> bool:
    """Whether some player would have a legal play if every coin were on (rules 6.2).

    With all coins on, legality depends on the card only, not on who holds it.

    >>> bs = new_branches(2, 5)
    >>> any_play_left([["1-2"], ["3-4"]], bs, None), any_play_left([["1-5"], []], bs, None)
    (False, True)
    """
    if double is not None:
        v = double.value
        return any(has(c, v) and not is_double(c) for hand in hands for c in hand)
    values = {end.value for _, end in playable_ends(branches, 0, all_coins=True)}
    return any(int(c[0]) in values or int(c[2]) in values for hand in hands for c in hand)


def board_cards(branches: Sequence[Branch]) -> list[CardId]:
    return [p.card for branch in branches for p in branch.cards]
