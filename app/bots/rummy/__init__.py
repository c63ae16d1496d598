"""Rummy players: a random player and the strategic bot (their meld finder is in ``melds``).

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

from app.bots.rummy.melds import (
    KINDS,
    Set,
    best_melds,
    borrow,
    exchange_joker,
    find_melds,
    fits,
    lay_off,
    pairs,
    shape,
    split_run,
    value_of,
)
from app.engines.base import JSON
from app.engines.rummy.deck import is_joker
from app.engines.rummy.melds import Meld
from app.engines.rummy.table import check_table

CLOSE_TO_OUT = 3
"""An opponent holding this many cards or fewer may go out soon: time to spend jokers (25 points in hand)."""
POOL_LOW = 2
"""Cards per player left in the pool below which the round is near its blocked end."""


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
