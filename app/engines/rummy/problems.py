"""The rule codes a table can break, and how they read to a player.

A :class:`Problem` is one failed check, tied to a set (0-based index) where
it belongs to one. Messages count sets from 1, as players do.

>>> p = (Problem(SET_TOO_SHORT, 1), Problem(OPENING_BELOW_MIN, points=30))
>>> describe(p, opening_min=40)
'Set 2 needs at least 3 cards. Your first play must be worth at least 40 points; this one is worth 30.'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from app.engines.base import JSON, IllegalAction
from app.engines.cards import CardId

# Set rules (3.1)
SET_TOO_SHORT = "SET_TOO_SHORT"
NO_NATURAL_CARD = "NO_NATURAL_CARD"
KIND_REQUIRED = "KIND_REQUIRED"
GROUP_TOO_LONG = "GROUP_TOO_LONG"
GROUP_NUMBER_MISMATCH = "GROUP_NUMBER_MISMATCH"
GROUP_DUPLICATE_COLOUR = "GROUP_DUPLICATE_COLOUR"
RUN_COLOUR_MISMATCH = "RUN_COLOUR_MISMATCH"
RUN_NOT_CONSECUTIVE = "RUN_NOT_CONSECUTIVE"
RUN_OUT_OF_RANGE = "RUN_OUT_OF_RANGE"
# Conservation (V1; also every draft)
EMPTY_SET = "EMPTY_SET"
UNKNOWN_CARD = "UNKNOWN_CARD"
DUPLICATE_CARD = "DUPLICATE_CARD"
NOT_IN_HAND = "NOT_IN_HAND"
TABLE_CARD_MISSING = "TABLE_CARD_MISSING"
# The rest of a commit (V2, V4, V5)
NO_HAND_CARD_PLAYED = "NO_HAND_CARD_PLAYED"
JOKER_NUMBER_CHANGED = "JOKER_NUMBER_CHANGED"
OPENING_TABLE_CHANGED = "OPENING_TABLE_CHANGED"
OPENING_BELOW_MIN = "OPENING_BELOW_MIN"

_IN_A_SET = {
    SET_TOO_SHORT: "needs at least 3 cards",
    NO_NATURAL_CARD: "needs at least one card that is not a joker",
    KIND_REQUIRED: "has only one numbered card: say whether it is a group or a run",
    GROUP_TOO_LONG: "is a group of more than 4 cards",
    GROUP_NUMBER_MISMATCH: "is a group whose cards show different numbers",
    GROUP_DUPLICATE_COLOUR: "is a group with a colour twice",
    RUN_COLOUR_MISMATCH: "is a run of more than one colour",
    RUN_NOT_CONSECUTIVE: "is a run whose numbers do not follow each other in order",
    RUN_OUT_OF_RANGE: "is a run that goes below 1 or above 13 (1 is low only)",
    EMPTY_SET: "is empty",
    UNKNOWN_CARD: "holds a card that does not exist",
    DUPLICATE_CARD: "holds a card that is already elsewhere",
    NOT_IN_HAND: "holds a card you do not have",
    OPENING_TABLE_CHANGED: "mixes table cards into your first play",
}
_ON_THE_TABLE = {
    TABLE_CARD_MISSING: "Cards on the table cannot go back to a hand",
    NO_HAND_CARD_PLAYED: "Play at least one card from your hand, or draw",
    JOKER_NUMBER_CHANGED: "A joker already on the table must keep the number it stands for",
    OPENING_TABLE_CHANGED: "Your first play may only add new sets of your own cards; leave the rest as it is",
}


def meanings() -> dict[str, str]:
    """Every problem code with what it means, for the protocol document."""
    found = {code: f"A set {text}." for code, text in _IN_A_SET.items()}
    found.update({code: f"{text}." for code, text in _ON_THE_TABLE.items()})
    found[OPENING_BELOW_MIN] = "Your first play must reach `opening_min` points, from new sets of your cards."
    return found


class Problem(NamedTuple):
    """One failed check: ``set`` is the set's index (None for the whole table);
    ``cards`` names the cards at fault where that helps (missing table cards...);
    ``points`` is what an opening below the minimum is worth. A named tuple, as
    :class:`~app.engines.rummy.melds.Meld` is: a memo key on every draft step."""

    code: str
    set: int | None = None
    cards: tuple[CardId, ...] = ()
    points: int | None = None

    def to_json(self) -> JSON:
        found: JSON = {"code": self.code, "set": self.set, "cards": list(self.cards)}
        if self.points is not None:
            found["points"] = self.points
        return found

    def sentence(self, opening_min: int) -> str:
        if self.code == OPENING_BELOW_MIN:
            need = f"Your first play must be worth at least {opening_min} points"
            return f"{need}; this one is worth {self.points}."
        named = f" ({', '.join(self.cards[:6])})" if self.cards else ""
        if self.set is not None:
            return f"Set {self.set + 1} {_IN_A_SET.get(self.code, self.code)}{named}."
        return f"{_ON_THE_TABLE.get(self.code, self.code)}{named}."


def describe(problems: Sequence[Problem], opening_min: int) -> str:
    return " ".join(p.sentence(opening_min) for p in problems)


class TableRejected(IllegalAction):
    """A draft or commit whose table breaks the rules; ``code`` is the first problem's.

    ``problems`` holds every failed check, structured, for callers that want
    them (the view shows the same list for the current draft).
    """

    def __init__(self, problems: Sequence[Problem], opening_min: int) -> None:
        detail = {"problems": [p.to_json() for p in problems]}
        super().__init__(problems[0].code, describe(problems, opening_min), detail)
        self.problems = tuple(problems)
