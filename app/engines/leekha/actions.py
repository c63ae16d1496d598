"""Parsing untrusted client actions into typed ones (rules 3.9).

Actions arrive as JSON objects from clients; every field is checked here by
hand, before any rule looks at them.

>>> parse({"type": "play_card", "card": "B12"})
PlayCard(card='B12')
>>> parse({"type": "ack"})
Ack()
>>> parse({"type": "jump"})
Traceback (most recent call last):
...
app.engines.base.IllegalAction: Leekha has no action called 'jump'.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.engines.base import IllegalAction
from app.engines.cards import CardId, is_card_id
from app.engines.inputs import action_kind, bad_action, unknown_action

MAX_PASS_LIST = 52


@dataclass(frozen=True, slots=True)
class SubmitPass:
    cards: tuple[CardId, ...]


@dataclass(frozen=True, slots=True)
class Ack:
    pass


@dataclass(frozen=True, slots=True)
class PlayCard:
    card: CardId


@dataclass(frozen=True, slots=True)
class ThrowIn:
    pass


Action = SubmitPass | Ack | PlayCard | ThrowIn


def _only(action: Mapping[str, object], fields: set[str], message: str) -> None:
    if not set(action) <= fields:
        raise bad_action(message)


def parse(action: object) -> Action:
    """Validate an untrusted action; raises ``BAD_ACTION`` or ``UNKNOWN_ACTION``.

    ``end_match_early`` is known but not a seat action: only the host ends a
    decided match (``LeekhaEngine.end_early``), so a seat asking gets ``NOT_ADMIN``.
    """
    action, kind = action_kind(action)
    if kind == "submit_pass":
        _only(action, {"type", "cards"}, "A pass takes only cards.")
        cards = action.get("cards")
        if not isinstance(cards, list | tuple) or len(cards) > MAX_PASS_LIST:
            raise bad_action("A pass must list the cards to give.")
        if not all(is_card_id(c) for c in cards):
            raise bad_action("A pass must list cards such as B12.")
        return SubmitPass(tuple(CardId(c) for c in cards))
    if kind == "play_card":
        _only(action, {"type", "card"}, "Playing a card takes only the card.")
        card = action.get("card")
        if not is_card_id(card):
            raise bad_action("Say which card to play, such as B12.")
        assert isinstance(card, str)
        return PlayCard(CardId(card))
    if kind in ("ack", "throw_in"):
        _only(action, {"type"}, "This action takes no other fields.")
        return Ack() if kind == "ack" else ThrowIn()
    if kind == "end_match_early":
        raise IllegalAction("NOT_ADMIN", "Only the host can end a decided match.")
    raise unknown_action("Leekha", kind)
