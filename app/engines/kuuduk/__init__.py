"""Kuuduk: spell k-u-u-d-u-k with letter cards that match their neighbours by colour or dots.

``ENGINE`` is the instance the registry serves.
"""

from app.engines.kuuduk.actions import Action, parse
from app.engines.kuuduk.deck import BLACK_COPIES, COPIES, DECK_SIZE, Black, build_deck
from app.engines.kuuduk.engine import KuudukEngine
from app.engines.kuuduk.layout import WORD, Layout, legal_placements
from app.engines.kuuduk.options import KuudukOptions
from app.engines.kuuduk.state import Direction, Event, KuudukState, Phase, RoundRecord, Step

ENGINE = KuudukEngine()

__all__ = [
    "BLACK_COPIES",
    "COPIES",
    "DECK_SIZE",
    "ENGINE",
    "WORD",
    "Action",
    "Black",
    "Direction",
    "Event",
    "KuudukEngine",
    "KuudukOptions",
    "KuudukState",
    "Layout",
    "Phase",
    "RoundRecord",
    "Step",
    "build_deck",
    "legal_placements",
    "parse",
]
