"""Client actions: validated by hand (they come from untrusted clients) into small typed records.

Shapes (``placement`` is a slot number 1-6 when no laid card moves, or the
full new row: a list of six card ids or nulls, slot 1 first)::

    {"type": "draw"}
    {"type": "pass"}
    {"type": "take_discard", "placement": P}
    {"type": "lay", "card": ID, "placement": P}
    {"type": "discard", "card": ID}
    {"type": "swipe", "card": ID}                                   # no target: a plain discard
    {"type": "swipe", "card": ID, "victim": SEAT, "slot": 1-6, "placement": P}
    {"type": "switch", "card": ID}

>>> parse({"type": "lay", "card": "uG2-1", "placement": 5})
Lay(card='uG2-1', placement=5)
>>> parse({"type": "swipe", "card": "swipe_any-1"})
Swipe(card='swipe_any-1', victim=None, slot=None, placement=None)
>>> parse({"type": "fold"})
Traceback (most recent call last):
...
app.engines.base.IllegalAction: Kuuduk has no action called 'fold'.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.engines.inputs import action_kind, bad_action, is_whole_number, unknown_action
from app.engines.kuuduk.deck import CardId
from app.engines.kuuduk.layout import SLOT_COUNT, Placement

MAX_ID_LENGTH = 20


@dataclass(frozen=True, slots=True)
class Draw:
    pass


@dataclass(frozen=True, slots=True)
class Pass:
    pass


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    placement: Placement


@dataclass(frozen=True, slots=True)
class Lay:
    card: CardId
    placement: Placement


@dataclass(frozen=True, slots=True)
class Discard:
    card: CardId


@dataclass(frozen=True, slots=True)
class Swipe:
    card: CardId
    victim: int | None = None
    slot: int | None = None
    placement: Placement | None = None


@dataclass(frozen=True, slots=True)
class Switch:
    card: CardId


Action = Draw | Pass | TakeDiscard | Lay | Discard | Swipe | Switch
ACQUIRE_ACTIONS = (Draw, Pass, TakeDiscard)


def _fields(action: Mapping[str, object], required: set[str], optional: frozenset[str] = frozenset()) -> None:
    keys = set(action) - {"type"}
    if not required <= keys or not keys <= required | optional:
        wanted = ", ".join(sorted(required | optional)) or "no other fields"
        raise bad_action(f"This action takes {wanted}.")


def _card(value: object) -> CardId:
    if not isinstance(value, str) or not 0 < len(value) <= MAX_ID_LENGTH:
        raise bad_action("A card must be given by its id.")
    return value


def _slot(value: object, what: str) -> int:
    if not is_whole_number(value, 1, SLOT_COUNT):
        raise bad_action(f"The {what} must be a slot number from 1 to 6.")
    assert isinstance(value, int)
    return value


def _placement(value: object) -> Placement:
    if type(value) is int:
        return _slot(value, "placement")
    if isinstance(value, list | tuple) and len(value) == SLOT_COUNT:
        return tuple(None if item is None else _card(item) for item in value)
    raise bad_action("A placement is a slot number from 1 to 6 or the full row of six cards or nulls.")


def parse(action: object) -> Action:
    """Validate an untrusted client action (rules 3.3, 3.4)."""
    action, kind = action_kind(action)
    if kind in ("draw", "pass"):
        _fields(action, set())
        return Draw() if kind == "draw" else Pass()
    if kind == "take_discard":
        _fields(action, {"placement"})
        return TakeDiscard(_placement(action["placement"]))
    if kind == "lay":
        _fields(action, {"card", "placement"})
        return Lay(_card(action["card"]), _placement(action["placement"]))
    if kind in ("discard", "switch"):
        _fields(action, {"card"})
        card = _card(action["card"])
        return Discard(card) if kind == "discard" else Switch(card)
    if kind == "swipe":
        _fields(action, {"card"}, frozenset({"victim", "slot", "placement"}))
        card = _card(action["card"])
        target = [key for key in ("victim", "slot", "placement") if key in action]
        if not target:
            return Swipe(card)
        if len(target) < 3:
            raise bad_action("A swipe with a target names the victim, the slot and the placement.")
        victim = action["victim"]
        if type(victim) is not int:
            raise bad_action("The victim must be a seat number.")
        return Swipe(card, victim, _slot(action["slot"], "victim's slot"), _placement(action["placement"]))
    raise unknown_action("Kuuduk", kind)
