"""Leekha: the Levantine Hearts-family trick game with UNO-faced cards, for four players."""

from app.engines.leekha.deck import BIG, COLOURS, DECK, SMALL, left, points_of, right
from app.engines.leekha.engine import LeekhaEngine, decided_now
from app.engines.leekha.options import LeekhaOptions
from app.engines.leekha.rules import legal_cards, must_keep, pass_error
from app.engines.leekha.scoring import Decided, decided, ffa_verdict, teams_verdict, verdict
from app.engines.leekha.state import (
    EndReason,
    Event,
    EventKind,
    LeekhaState,
    Phase,
    RoundRecord,
    TrickRecord,
    Verdict,
)

ENGINE = LeekhaEngine()

__all__ = [
    "BIG",
    "COLOURS",
    "DECK",
    "ENGINE",
    "SMALL",
    "Decided",
    "EndReason",
    "Event",
    "EventKind",
    "LeekhaEngine",
    "LeekhaOptions",
    "LeekhaState",
    "Phase",
    "RoundRecord",
    "TrickRecord",
    "Verdict",
    "decided",
    "decided_now",
    "ffa_verdict",
    "left",
    "legal_cards",
    "must_keep",
    "pass_error",
    "points_of",
    "right",
    "teams_verdict",
    "verdict",
]
