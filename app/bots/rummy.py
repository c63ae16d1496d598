"""Rummy players: a meld finder, a random player and the strategic bot.

Rummy's view cannot list every table a player could build, so ``legal`` names
the action kinds only (rules 3.4) and a player fills them in from its hand and
the table it sees. Everything here reads the seat's view alone: the hand at the
start of the turn (the hand plus the cards its draft placed), the committed
table, the seats' card counts and the opening minimum. Sets are the view's own
JSON (``{"kind": "group" | "run" | None, "cards": [ids]}``), and a proposed
table is checked with the rules' own table check before it is sent, as a client
previews a commit.

- :func:`random_player` plays any legal action at random (draft steps, draws,
  commits of a found play, waiting for the clock); the generic playout tests and
  the engine benchmark drive Rummy with it.
- :func:`choose` is the bot: it opens with ``opening_min`` points as soon as its
  hand holds them, then lays its melds, lays single cards off onto table sets,
  rebuilds table sets to fit more (a split run, a borrowed end card, a joker
  exchange), keeps its jokers until they open, win the round or an opponent is
  about to go out, and otherwise draws. A play goes out as one ``commit`` with
  the whole final table.

>>> view = {"you": 0, "turn_id": 5, "opening_min": 40, "pool": 30, "table": [],
...         "draft": {"table": []}, "seats": [{"opened": False, "cards": 5}, {"opened": False, "cards": 9}],
...         "hand": ["R10a", "R11a", "R12a", "B13a", "Y13a", "K13b", "J1"],
...         "legal": [{"type": "commit", "turn_id": 5}, {"type": "draw", "turn_id": 5}]}
>>> action = choose(view, random.Random(0))
>>> action["type"], [s["cards"] for s in action["table"]]
('commit', [['R10a', 'R11a', 'R12a'], ['B13a', 'K13b', 'Y13a']])
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from app.engines.base import JSON
from app.engines.cards import number_of
from app.engines.rummy.deck import DECK, is_joker
from app.engines.rummy.melds import Kind, Meld, check_meld
from app.engines.rummy.table import check_table

Set = dict[str, Any]
"""A set as the view shows it: ``{"kind": "group" | "run" | None, "cards": [ids]}``."""

NUM: dict[str, int] = {c: 0 if is_joker(c) else number_of(c) for c in DECK}
KINDS: dict[str | None, Kind | None] = {None: None, "group": Kind.GROUP, "run": Kind.RUN}
CLOSE_TO_OUT = 3
"""An opponent holding this many cards or fewer may go out soon: time to spend jokers (25 points in hand)."""
POOL_LOW = 2
"""Cards per player left in the pool below which the round is near its blocked end."""


# -- melds in a hand ----------------------------------------------------------------------


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


def opened(view: JSON) -> bool:
    return bool(view["seats"][view["you"]]["opened"])


def turn_hand(view: JSON) -> list[str]:
    """The hand at the start of the turn: the hand plus the cards the draft has placed."""
    on_table = {c for s in view["table"] for c in s["cards"]}
    draft = view.get("draft") or {"table": []}
    return [*view["hand"], *(c for s in draft["table"] for c in s["cards"] if c not in on_table)]


def is_my_turn(view: JSON) -> bool:
    return any(a.get("type") == "draw" for a in view.get("legal") or [])


def valid_commit(view: JSON, table: list[Set]) -> bool:
    """The rules' own commit check, on what the view shows (rules 3.5)."""
    t0 = tuple(Meld(tuple(s["cards"]), KINDS[s.get("kind")]) for s in view["table"])
    final = [Meld(tuple(s["cards"]), KINDS[s.get("kind")]) for s in table]
    check = check_table(t0, turn_hand(view), final, opened=opened(view), opening_min=view["opening_min"])
    return check.ok


def commit(view: JSON, table: list[Set]) -> JSON:
    return {"type": "commit", "turn_id": view["turn_id"], "table": table}


def draw(view: JSON) -> JSON:
    return {"type": "draw", "turn_id": view["turn_id"]}


# -- planning a final table ---------------------------------------------------------------


def plan(view: JSON, spend_jokers: bool = True) -> list[Set] | None:
    """A final table from the seat's view: the table as committed plus melds from the
    hand; once opened, also single cards laid off on sets (again and again while one
    fits), a card fitted into a split run, pairs completed with a card taken from a long
    set, and a table joker exchanged. ``spend_jokers`` False keeps the hand's jokers back.
    None when nothing can be played (or the melds fall short of the opening)."""
    hand = turn_hand(view)
    held = [] if spend_jokers else [c for c in hand if is_joker(c)]
    melds, left = best_melds(c for c in hand if c not in held)
    table: list[Set] = [dict(s) for s in view["table"]]
    if not opened(view):
        if not melds or sum(map(value_of, melds)) < view["opening_min"]:
            return None
        return [*table, *({"cards": m} for m in melds)]
    sets = [*table, *({"cards": m} for m in melds)]
    swapped = exchange_joker(sets, left)
    left = [c for c in left if c not in swapped]
    played = bool(melds or swapped)
    played = lay_off_all(sets, left) or played
    placed = {c for s in sets for c in s["cards"]}
    for card in [c for c in left if c not in placed and not is_joker(c)]:
        played = split_run(card, sets) or played
    placed = {c for s in sets for c in s["cards"]}
    for pair in pairs([c for c in left if c not in placed and not is_joker(c)]):
        played = borrow(pair, sets) or played
    return sets if played else None


def lay_off_all(sets: list[Set], cards: list[str]) -> bool:
    """Lay single cards off onto sets until none fits any more; whether any was laid."""
    waiting = list(cards)
    shapes = [shape(m["cards"]) for m in sets]
    laid = False
    progress = True
    while progress:
        progress = False
        for card in list(waiting):
            spots = (
                range(len(sets)) if is_joker(card) else [i for i, s in enumerate(shapes) if fits(card, *s)]
            )
            for i in spots:
                if (grown := lay_off(card, sets[i])) is not None:
                    sets[i] = grown
                    shapes[i] = shape(grown["cards"])
                    waiting.remove(card)
                    laid = progress = True
                    break
    return laid


def left_in_hand(view: JSON, table: list[Set]) -> list[str]:
    placed = {c for s in table for c in s["cards"]}
    return [c for c in turn_hand(view) if c not in placed]


def time_for_jokers(view: JSON) -> bool:
    """The round may end soon, and a joker left in hand would cost 25 points: someone else is
    close to going out, or the pool is about to run dry (a blocked round counts hands)."""
    me = view["you"]
    if view["pool"] <= POOL_LOW * len(view["seats"]):
        return True
    return any(s["cards"] <= CLOSE_TO_OUT for i, s in enumerate(view["seats"]) if i != me)


def strategic_table(view: JSON) -> list[Set] | None:
    """The table the bot commits: without its jokers if that is enough (opening, or a play
    with no opponent near the end), with them if they open, go out or are due."""
    keep = plan(view, spend_jokers=False)
    spend = plan(view, spend_jokers=True)
    if spend is not None and not left_in_hand(view, spend):
        return spend  # going out beats anything
    if not opened(view):
        return keep if keep is not None else spend  # open as soon as possible, jokers only if needed
    return spend if time_for_jokers(view) else keep


def choose(view: JSON, rng: random.Random) -> JSON | None:
    """On its turn: commit the best table it can build in one action, or draw."""
    if not is_my_turn(view):
        return None
    table = strategic_table(view)
    if table is not None and valid_commit(view, table):
        return commit(view, table)
    return draw(view)


# -- the random player --------------------------------------------------------------------


def random_step(view: JSON, rng: random.Random) -> JSON | None:
    """A random draft step the engine accepts: a card moved, a set declared, undo or reset."""
    turn_id = view["turn_id"]
    draft: list[Set] = view["draft"]["table"]
    on_table = {c for s in view["table"] for c in s["cards"]}
    kinds = {a["type"] for a in view["legal"]} & {"move", "declare", "undo", "reset"}
    kind = rng.choice(sorted(kinds))
    if kind in ("undo", "reset"):
        return {"type": kind, "turn_id": turn_id}
    if kind == "declare":
        if not draft:
            return None
        target = rng.randrange(len(draft))
        return {
            "type": "declare",
            "turn_id": turn_id,
            "set": target,
            "kind": rng.choice(["group", "run", None]),
        }
    movable = [*view["hand"], *(c for s in draft for c in s["cards"])]
    if not movable:
        return None
    card = rng.choice(movable)
    places: list[object] = ["new", *({"set": i} for i in range(len(draft)))]
    if card not in on_table:
        places.append("hand")
    return {"type": "move", "turn_id": turn_id, "card": card, "to": rng.choice(places)}


def single_plays(view: JSON, rng: random.Random) -> list[list[Set]]:
    """Final tables that each add one thing to the table: the opening (all the hand's melds,
    if they reach the minimum), or once opened one meld from the hand or one card laid off."""
    if not opened(view):
        opening = plan(view, spend_jokers=rng.random() < 0.5)
        return [] if opening is None else [opening]
    table: list[Set] = [dict(s) for s in view["table"]]
    melds, _ = find_melds(turn_hand(view), groups_first=rng.random() < 0.5)
    found = [[*table, {"cards": meld}] for meld in melds]
    shapes = [shape(meld["cards"]) for meld in table]
    for card in turn_hand(view):
        for i, meld in enumerate(table):
            if is_joker(card) or fits(card, *shapes[i]):
                grown = lay_off(card, meld)
                if grown is not None:
                    found.append([*table[:i], grown, *table[i + 1 :]])
    return found


def random_commit(view: JSON, rng: random.Random) -> JSON | None:
    """Commit one play picked at random among :func:`single_plays`."""
    tables = single_plays(view, rng)
    if not tables:
        return None
    table = rng.choice(tables)
    return commit(view, table) if valid_commit(view, table) else None


def random_player(view: JSON, rng: random.Random) -> JSON | None:
    """Any legal action at random: commit one found play, commit the draft when it is valid,
    draw, take a draft step, or wait for the clock (the timeout then keeps or restores the draft)."""
    if not is_my_turn(view):
        return None
    roll = rng.random()
    if roll < 0.4 and (played := random_commit(view, rng)) is not None:
        return played
    if roll < 0.6:
        return draw(view)
    if roll < 0.9:
        return random_step(view, rng)
    if view["draft"]["valid"]:
        return {"type": "commit", "turn_id": view["turn_id"]}
    return None
