"""The changes one lobby command makes to the database, stored together in one transaction."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class PutMember:
    """Insert or update one member row."""

    player_id: str
    role: str
    seat: int | None
    prefs: dict[str, Any]


@dataclass(frozen=True, slots=True)
class DropMember:
    player_id: str


@dataclass(frozen=True, slots=True)
class PutRoom:
    """Change the room row's fields that are not None."""

    options: dict[str, Any] | None = None
    public: bool | None = None
    status: str | None = None
    host_id: str | None = None


LobbyWrite = PutMember | DropMember | PutRoom
