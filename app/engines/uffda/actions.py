"""Parsing untrusted client actions into typed ones (they never reached a model).

The actions a client may send (optional fields in brackets):

- ``{"type": "play", "card": "4-7", "branch": b, "on": k, "side": s, ["uffda": true]}``: put a
  card on the open end anchored at card ``k`` of branch ``b`` (``-1`` = the centre; ``side`` 0,
  or 0/1 for the two sides of the active double). ``uffda`` declares UFF-DA! with it.
- ``{"type": "draw", "pile": 0 | 1, ["uffda": true]}`` (``uffda`` counts for the extra draw
  after a last-card double).
- ``{"type": "place_coin"}``, ``{"type": "remove_coin"}``, ``{"type": "next"}``.
- ``{"type": "declare_uffda", ["reaction_ms": n]}``: a late UFF-DA!.
- ``{"type": "call", "kind": "COIN" | "UFFDA", "target": seat, ["give_card": id],
  ["uffda": true], ["reaction_ms": n]}``: catch a mistake; ``uffda`` declares the caller's own
  UFF-DA! when the penalty card leaves them one card.

>>> parse({"type": "play", "card": "4-7", "branch": 1, "on": 0, "side": 1, "uffda": True})
PlayAction(card='4-7', target=(1, 0, 1), uffda=True)
>>> parse({"type": "draw", "pile": 0})
DrawAction(pile=0, uffda=False)
>>> parse({"type": "call", "kind": "COIN", "target": 2}).kind
<Kind.COIN: 'COIN'>
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from app.engines.cards import CardId
from app.engines.inputs import action_kind, bad_action, is_whole_number, unknown_action
from app.engines.uffda.board import Target
from app.engines.uffda.dominoes import is_domino
from app.engines.uffda.state import Kind

MAX_REACTION_MS = 2**31 - 1
MAX_INDEX = 1000


@dataclass(frozen=True, slots=True)
class PlayAction:
    card: CardId
    target: Target
    uffda: bool = False


@dataclass(frozen=True, slots=True)
class DrawAction:
    pile: int
    uffda: bool = False


@dataclass(frozen=True, slots=True)
class DeclareAction:
    reaction_ms: int | None = None


@dataclass(frozen=True, slots=True)
class CallAction:
    kind: Kind
    target: int
    give_card: CardId | None = None
    uffda: bool = False
    reaction_ms: int | None = None


Simple = Literal["next", "place_coin", "remove_coin"]
Action = PlayAction | DrawAction | DeclareAction | CallAction | Simple

_FIELDS: dict[str, set[str]] = {
    "play": {"type", "card", "branch", "on", "side", "uffda"},
    "draw": {"type", "pile", "uffda"},
    "next": {"type"},
    "place_coin": {"type"},
    "remove_coin": {"type"},
    "declare_uffda": {"type", "reaction_ms"},
    "call": {"type", "kind", "target", "give_card", "uffda", "reaction_ms"},
}


def _flag(action: Mapping[str, object], key: str) -> bool:
    value = action.get(key, False)
    if type(value) is not bool:
        raise bad_action(f"The {key} flag must be true or false.")
    return value


def _reaction(action: Mapping[str, object]) -> int | None:
    value = action.get("reaction_ms")
    if value is None:
        return None
    if not is_whole_number(value, 0, MAX_REACTION_MS):
        raise bad_action("The reaction time must be a whole number of milliseconds.")
    assert isinstance(value, int)
    return value


def _card(value: object, what: str) -> CardId:
    if not is_domino(value):
        raise bad_action(f"The {what} must be a card id such as 3-7.")
    assert isinstance(value, str)
    return CardId(value)


def parse(action: object) -> Action:
    action, kind = action_kind(action)
    allowed = _FIELDS.get(kind)
    if allowed is None:
        raise unknown_action("UFF-DA!", kind)
    if not set(action) <= allowed:
        fields = ", ".join(sorted(allowed - {"type"}))
        raise bad_action(f"The {kind} action takes {'only ' + fields if fields else 'no other fields'}.")
    if kind == "play":
        branch, on, side = action.get("branch"), action.get("on"), action.get("side", 0)
        if not (
            is_whole_number(branch, 0, MAX_INDEX)
            and is_whole_number(on, -1, MAX_INDEX)
            and is_whole_number(side, 0, 1)
        ):
            raise bad_action(
                "A play names a branch, the card it goes on (-1 = the centre) and a side (0 or 1)."
            )
        assert isinstance(branch, int) and isinstance(on, int) and isinstance(side, int)
        return PlayAction(_card(action.get("card"), "card"), (branch, on, side), _flag(action, "uffda"))
    if kind == "draw":
        pile = action.get("pile")
        if not is_whole_number(pile, 0, 1):
            raise bad_action("Draw from pile 0 or pile 1.")
        assert isinstance(pile, int)
        return DrawAction(pile, _flag(action, "uffda"))
    if kind == "declare_uffda":
        return DeclareAction(_reaction(action))
    if kind == "call":
        call_kind = action.get("kind")
        if call_kind not in ("COIN", "UFFDA"):
            raise bad_action('A call is "COIN" or "UFFDA".')
        target = action.get("target")
        if not is_whole_number(target, 0, MAX_INDEX):
            raise bad_action("A call must name the seat it is on.")
        assert isinstance(target, int)
        give = action.get("give_card")
        give_card = None if give is None else _card(give, "give_card")
        return CallAction(Kind(call_kind), target, give_card, _flag(action, "uffda"), _reaction(action))
    if kind == "next":
        return "next"
    return "place_coin" if kind == "place_coin" else "remove_coin"
