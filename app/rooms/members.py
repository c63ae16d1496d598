"""Who is in a room, and the game it runs: plain records the room's actor owns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.db.store import GameRec
from app.engines.base import Engine


@dataclass(slots=True)
class Member:
    player_id: str
    name: str
    role: str  # "seat" | "spectator"
    seat: int | None
    prefs: dict[str, Any] = field(default_factory=dict)
    connections: int = 0
    bot: bool = False


@dataclass(slots=True)
class GameRun:
    rec: GameRec
    engine: Engine[Any, Any]
    state: Any
    committed: Any
    next_seq: int
    applied: dict[tuple[int, str], int] = field(default_factory=dict)
    """(seat, client action id) → event seq: retries are answered, never re-applied."""
