"""What each game declares about its side of the protocol, for clients and for ``docs/protocol.md``.

An engine's ``protocol`` lists the actions a client may send (each with its fields, optional ones
marked), the keys of its view, its phases, how its card ids read and the rule codes it answers
with. ``tools/protocol_doc`` renders every engine's declaration; the tests hold each one to the
engine (real views, the ``IllegalAction`` codes in its source, its ``legal`` lists), so a new game
documents itself by filling this in.

>>> nu = ActionDoc("nu", "`AWAIT_NU`, by the starter", "Call Nu!: the cards turn over.")
>>> nu.shape()
'{"type": "nu"}'
>>> flip, reaction = FieldDoc("flip", "int", "The flip."), FieldDoc("reaction_ms", "int", "", True)
>>> slap = ActionDoc("slap", "", "", (flip, reaction))
>>> slap.shape()
'{"type": "slap", "flip": <int>, "reaction_ms": <int, optional>}'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class FieldDoc:
    """One field of an action besides ``type``: its JSON shape and what it means."""

    name: str
    shape: str
    meaning: str
    optional: bool = False


@dataclass(frozen=True, slots=True)
class ActionDoc:
    """One action kind a client may send (``{"type": kind, ...fields}``)."""

    kind: str
    when: str
    meaning: str
    fields: tuple[FieldDoc, ...] = ()
    in_legal: bool = True
    """False for an action ``legal`` never lists (sent on the player's own initiative, e.g. a call)."""

    def shape(self) -> str:
        parts = [f'"type": "{self.kind}"']
        parts += [f'"{f.name}": <{f.shape}{", optional" if f.optional else ""}>' for f in self.fields]
        return "{" + ", ".join(parts) + "}"


@dataclass(frozen=True, slots=True)
class GameProtocol:
    """A game's declaration; ``nested`` documents the keys of view values that are objects
    (``"seats[]"``: each entry of the list ``seats``; ``"last"``: the object ``last``)."""

    summary: str
    actions: tuple[ActionDoc, ...]
    view: Mapping[str, str]
    phases: Mapping[str, str]
    card_ids: str
    rule_codes: Mapping[str, str]
    nested: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    notes: str = ""
    """Further prose (Markdown) the game needs, e.g. how a race is ruled."""
    start_codes: tuple[str, ...] = ("BAD_OPTIONS", "BAD_PLAYER_COUNT")
    """Codes answered to the host's start call (HTTP 422) rather than as a ``reject``."""
