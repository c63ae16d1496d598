"""Slap ("Nu!"): everyone flips at once, the first to slap a pair takes the trick."""

from app.engines.slap.engine import COLOURS, NUMBERS, SlapEngine, assign_colours
from app.engines.slap.options import SlapOptions, SlapPrefs
from app.engines.slap.state import ClosedFlip, EndKind, FlipKind, Phase, RoundRecord, SlapState

__all__ = [
    "COLOURS",
    "NUMBERS",
    "ClosedFlip",
    "EndKind",
    "FlipKind",
    "Phase",
    "RoundRecord",
    "SlapEngine",
    "SlapOptions",
    "SlapPrefs",
    "SlapState",
    "assign_colours",
]
