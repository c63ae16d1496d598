"""Parsing untrusted client actions into typed ones (rules 3.4).

Only the shape is checked here (types, fields, sizes); whether the cards are
the player's is for the rules. Every action carries the ``turn_id`` it was
made for.

>>> parse({"type": "move", "turn_id": 3, "card": "R07a", "to": {"set": 1}})
MoveCard(turn_id=3, card='R07a', to=Slot(set=1, index=None))
>>> parse({"type": "draw", "turn_id": True})
Traceback (most recent call last):
...
app.engines.base.IllegalAction: Every action needs the turn_id it was made for.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.engines.cards import CardId
from app.engines.inputs import action_kind, bad_action, is_whole_number, unknown_action
from app.engines.rummy.deck import DECK
from app.engines.rummy.draft import Slot, Target
from app.engines.rummy.melds import Kind, Meld, Table

MAX_ID = 2**31 - 1
MAX_CARD_TEXT = 8


@dataclass(frozen=True, slots=True)
class DraftTable:
    """Replace the working table (a whole drag-and-drop result at once)."""

    turn_id: int
    table: Table


@dataclass(frozen=True, slots=True)
class MoveCard:
    """One draft step: a card from the hand or a set to the hand, a new set or a place in a set."""

    turn_id: int
    card: str
    to: Target


@dataclass(frozen=True, slots=True)
class Declare:
    """Say whether a set is a group or a run (needed with a single numbered card)."""

    turn_id: int
    set: int
    kind: Kind | None


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last draft step."""

    turn_id: int


@dataclass(frozen=True, slots=True)
class Reset:
    """Put the draft back as the table was at the start of the turn."""

    turn_id: int


@dataclass(frozen=True, slots=True)
class Commit:
    """End the turn with this table (None: the current draft)."""

    turn_id: int
    table: Table | None


@dataclass(frozen=True, slots=True)
class Draw:
    """End the turn by drawing a card (a pass when the pool is empty)."""

    turn_id: int


Edit = DraftTable | MoveCard | Declare | Undo | Reset
"""The actions that change the draft and leave the turn running."""
Action = Edit | Commit | Draw

_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # type: (required fields, optional fields) besides "type" and "turn_id"
    "draft": (frozenset({"table"}), frozenset()),
    "move": (frozenset({"card", "to"}), frozenset()),
    "declare": (frozenset({"set", "kind"}), frozenset()),
    "undo": (frozenset(), frozenset()),
    "reset": (frozenset(), frozenset()),
    "commit": (frozenset(), frozenset({"table"})),
    "draw": (frozenset(), frozenset()),
}


def _index(value: object, what: str) -> int:
    if not is_whole_number(value, 0, MAX_ID):
        raise bad_action(f"The {what} must be a whole number from 0.")
    assert isinstance(value, int)
    return value


def _card(value: object) -> CardId:
    if not isinstance(value, str) or not 0 < len(value) <= MAX_CARD_TEXT:
        raise bad_action("A card is named by a short id such as R07a or J1.")
    return CardId(value)


def _kind(value: object) -> Kind | None:
    if value is None:
        return None
    if value == "group":
        return Kind.GROUP
    if value == "run":
        return Kind.RUN
    raise bad_action('A set\'s kind is "group", "run" or null.')


def parse_table(value: object) -> Table:
    """A table from JSON: a list of ``{"kind"?: "group"|"run"|null, "cards": [ids]}``."""
    if not isinstance(value, list) or len(value) > len(DECK):
        raise bad_action("A table is a list of sets.")
    melds: list[Meld] = []
    count = 0
    for item in value:
        if not isinstance(item, Mapping) or not {"cards"} <= set(item) <= {"cards", "kind"}:
            raise bad_action('A set is an object with "cards" and an optional "kind".')
        cards = item["cards"]
        if not isinstance(cards, list):
            raise bad_action("A set's cards are a list of card ids.")
        count += len(cards)
        if count > len(DECK):
            raise bad_action("That table holds more cards than the game has.")
        for card in cards:
            if type(card) is not str or not 0 < len(card) <= MAX_CARD_TEXT:
                raise bad_action("A card is named by a short id such as R07a or J1.")
        melds.append(Meld(tuple(cards), _kind(item.get("kind"))))
    return tuple(melds)


def _target(value: object) -> Target:
    if value == "hand" or value == "new":
        return "hand" if value == "hand" else "new"
    if isinstance(value, Mapping) and {"set"} <= set(value) <= {"set", "index"}:
        index = value.get("index")
        return Slot(_index(value["set"], "set number"), None if index is None else _index(index, "position"))
    raise bad_action('A card goes to "hand", "new" or {"set": i, "index": k}.')


def parse(action: object) -> Action:
    """Validate an untrusted client action by hand (it never reached a model)."""
    action, kind = action_kind(action)
    if kind not in _FIELDS:
        raise unknown_action("Rummy", kind)
    required, optional = _FIELDS[kind]
    fields = set(action) - {"type", "turn_id"}
    if not required <= fields <= required | optional:
        allowed = ", ".join(sorted(required | optional)) or "nothing else"
        raise bad_action(f"A {kind} action takes turn_id and {allowed}.")
    turn_id = action.get("turn_id")
    if not is_whole_number(turn_id, 0, MAX_ID):
        raise bad_action("Every action needs the turn_id it was made for.")
    assert isinstance(turn_id, int)
    if kind == "draft":
        return DraftTable(turn_id, parse_table(action["table"]))
    if kind == "move":
        return MoveCard(turn_id, _card(action["card"]), _target(action["to"]))
    if kind == "declare":
        return Declare(turn_id, _index(action["set"], "set number"), _kind(action["kind"]))
    if kind == "commit":
        table = action.get("table")
        return Commit(turn_id, None if table is None else parse_table(table))
    if kind == "undo":
        return Undo(turn_id)
    if kind == "reset":
        return Reset(turn_id)
    return Draw(turn_id)
