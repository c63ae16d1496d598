"""Melds in a hand and surgery on the table's sets, for the Rummy players (no view, no choices).

Sets are the view's JSON (``{"kind": "group" | "run" | None, "cards": [ids]}``);
everything here is a pure function of card ids.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from app.engines.cards import number_of
from app.engines.rummy.deck import DECK, is_joker
from app.engines.rummy.melds import Kind, check_meld

Set = dict[str, Any]
"""A set as the view shows it: ``{"kind": "group" | "run" | None, "cards": [ids]}``."""

NUM: dict[str, int] = {c: 0 if is_joker(c) else number_of(c) for c in DECK}
KINDS: dict[str | None, Kind | None] = {None: None, "group": Kind.GROUP, "run": Kind.RUN}


def _runs(naturals: list[str], used: set[str]) -> list[list[str]]:
    """Longest same-colour runs of three or more among the unused cards (a second copy is skipped)."""
    melds: list[list[str]] = []
    run: list[str] = []
    cards = sorted((c for c in naturals if c not in used), key=lambda c: (c[0], NUM[c]))
    for card in [*cards, "X"]:  # a sentinel closes the last run
        if run and card[0] == run[-1][0] and NUM.get(card) == NUM[run[-1]] + 1:
            run.append(card)
            continue
        if run and card[0] == run[-1][0] and NUM.get(card) == NUM[run[-1]]:
            continue  # a second copy: left for groups
        if len(run) >= 3:
            melds.append(run)
        run = [card]
    used.update(c for m in melds for c in m)
    return melds


def _groups(naturals: list[str], used: set[str]) -> list[list[str]]:
    """Groups of three or four colours among the unused cards."""
    by_number: dict[int, dict[str, str]] = defaultdict(dict)
    for card in naturals:
        if card not in used:
            by_number[NUM[card]].setdefault(card[0], card)
    melds = [list(faces.values()) for faces in by_number.values() if len(faces) >= 3]
    used.update(c for m in melds for c in m)
    return melds


def find_melds(hand: Iterable[str], groups_first: bool = False) -> tuple[list[list[str]], list[str]]:
    """Runs and groups (in that order, or groups first), then pairs completed by a joker,
    greedily; returns (melds, cards left)."""
    hand = list(hand)
    jokers = [c for c in hand if is_joker(c)]
    naturals = sorted((c for c in hand if not is_joker(c)), key=lambda c: (c[0], NUM[c]))
    used: set[str] = set()
    order = (_groups, _runs) if groups_first else (_runs, _groups)
    melds = [m for find in order for m in find(naturals, used)]
    left = [c for c in naturals if c not in used]
    for a, b in pairs(left):
        if not jokers:
            break
        for cards in ([a, b, jokers[-1]], [a, jokers[-1], b], [jokers[-1], a, b]):
            if check_meld(cards).ok:
                melds.append(cards)
                used.update((a, b, jokers.pop()))
                break
    placed = {c for m in melds for c in m}
    return melds, [c for c in hand if c not in placed]


def best_melds(hand: Iterable[str]) -> tuple[list[list[str]], list[str]]:
    """The greedy meld search that places the most points, runs first or groups first."""
    hand = list(hand)
    options = [find_melds(hand), find_melds(hand, groups_first=True)]
    return max(options, key=lambda found: sum(map(value_of, found[0])))


def pairs(cards: list[str]) -> list[tuple[str, str]]:
    """Disjoint pairs a third card could complete: same number, or same colour one or two apart."""
    found: list[tuple[str, str]] = []
    by_number: dict[int, dict[str, str]] = defaultdict(dict)
    for card in cards:
        by_number[NUM[card]].setdefault(card[0], card)
    for faces in by_number.values():
        free = list(faces.values())
        while len(free) >= 2:
            found.append((free.pop(), free.pop()))
    used = {c for pair in found for c in pair}
    rest = sorted((c for c in cards if c not in used), key=lambda c: (c[0], NUM[c]))
    i = 0
    while i < len(rest) - 1:
        a, b = rest[i], rest[i + 1]
        if a[0] == b[0] and 0 < NUM[b] - NUM[a] <= 2:
            found.append((a, b))
            i += 2
        else:
            i += 1
    return found


def value_of(meld: list[str]) -> int:
    return check_meld(meld).value


# -- fitting cards into table sets --------------------------------------------------------


def shape(cards: list[str]) -> tuple[set[str], set[int], int]:
    naturals = [c for c in cards if not is_joker(c)]
    return {c[0] for c in naturals}, {NUM[c] for c in naturals}, len(cards)


def fits(card: str, colours: set[str], numbers: set[int], size: int) -> bool:
    """Could ``card`` extend a set of this shape at all (a cheap test before the real check)?"""
    number = NUM[card]
    if len(numbers) == 1 and number in numbers:
        return card[0] not in colours and size < 4
    return len(colours) == 1 and card[0] in colours and number not in numbers


def kind_of(meld: Set) -> Kind | None:
    return KINDS[meld.get("kind")]


def keeps_jokers(before: list[str], kind: Kind | None, after: list[str]) -> bool:
    """``after`` is a valid set of the same kind whose jokers still stand for the numbers they did."""
    new = check_meld(after, kind)
    if not new.ok or (kind is not None and new.kind is not kind):
        return False
    old = check_meld(before, kind).jokers
    return not old or Counter(old) <= Counter(new.jokers)


def lay_off(card: str, meld: Set) -> Set | None:
    """The set with ``card`` added at either end, if that is still a valid set."""
    kind = kind_of(meld)
    for cards in ([card, *meld["cards"]], [*meld["cards"], card]):
        if keeps_jokers(meld["cards"], kind, cards):
            return {"kind": meld.get("kind"), "cards": cards}
    return None


def completes(pair: tuple[str, str]) -> set[str]:
    """The faces (colour + number) that make a set of three with this pair."""
    a, b = pair
    x, y = number_of(a), number_of(b)
    if x == y:
        return {f"{c}{x:02d}" for c in "RBYK"} - {a[:3], b[:3]}
    numbers = {x + 1} if y - x == 2 else {x - 1, y + 1}
    return {f"{a[0]}{n:02d}" for n in numbers}


def borrow(pair: tuple[str, str], sets: list[Set]) -> bool:
    """Complete a hand pair with an end card of a long run or a card of a group of four."""
    wanted = completes(pair)
    for i, meld in enumerate(sets):
        cards = meld["cards"]
        if len(cards) < 4 or not any(c[:3] in wanted for c in cards):
            continue
        for k in {0, len(cards) - 1} if check_meld(cards, kind_of(meld)).kind is Kind.RUN else range(4):
            taken = cards[k]
            if taken[:3] not in wanted:
                continue
            rest = cards[:k] + cards[k + 1 :]
            new = sorted([*pair, taken], key=number_of)
            if check_meld(new).ok and keeps_jokers(cards, kind_of(meld), rest):
                sets[i] = {"kind": meld.get("kind"), "cards": rest}
                sets.append({"cards": new})
                return True
    return False


def split_run(card: str, sets: list[Set]) -> bool:
    """Fit a card into the middle of a jokerless run of five or more by splitting the run at its
    twin: [R3 R4 R5 R6 R7] and R5 make [R3 R4 R5] and [R5 R6 R7]."""
    for i, meld in enumerate(sets):
        cards = meld["cards"]
        if len(cards) < 5 or any(map(is_joker, cards)) or check_meld(cards).kind is not Kind.RUN:
            continue
        for k in range(2, len(cards) - 2):
            if cards[k][:3] == card[:3]:
                sets[i] = {"kind": "run", "cards": cards[: k + 1]}
                sets.append({"kind": "run", "cards": [card, *cards[k + 1 :]]})
                return True
    return False


def exchange_joker(sets: list[Set], hand: list[str]) -> list[str]:
    """Swap a table joker for the card it stands for and reuse it, at the same number, with a
    hand pair; returns the hand cards used (none if no exchange fits)."""
    before = Counter(n for m in sets for n in check_meld(m["cards"], kind_of(m)).jokers)
    naturals = [c for c in hand if not is_joker(c)]
    for i, meld in enumerate(sets):
        cards = meld["cards"]
        check = check_meld(cards, kind_of(meld))
        if not check.jokers or (check.kind is Kind.GROUP and len(cards) == 4):
            continue
        spots = [k for k, c in enumerate(cards) if is_joker(c)]
        for k, number in zip(spots, check.jokers, strict=True):
            for card in (c for c in naturals if NUM[c] == number):
                swapped = [*cards[:k], card, *cards[k + 1 :]]
                if not check_meld(swapped, kind_of(meld)).ok:
                    continue
                joker = cards[k]
                for a, b in pairs([c for c in naturals if c != card]):
                    orders = ([a, b, joker], [a, joker, b], [joker, a, b])
                    new = next((m for m in orders if check_meld(m).jokers == (number,)), None)
                    if new is not None:
                        trial = [*sets[:i], {"kind": meld.get("kind"), "cards": swapped}, *sets[i + 1 :]]
                        trial.append({"cards": new})
                        after = Counter(n for m in trial for n in check_meld(m["cards"], kind_of(m)).jokers)
                        if before <= after:
                            sets[:] = trial
                            return [card, a, b]
    return []


# -- reading the view ---------------------------------------------------------------------
