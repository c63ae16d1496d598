"""The per-process state of the abuse limits: rate buckets per client address and player, and
the WebSocket connections open per client address. Settings in :mod:`app.config`."""

from __future__ import annotations

from dataclasses import dataclass

from app.config import Settings
from app.realtime.ratelimit import KeyedBuckets

MINUTE = 60.0


class OpenCounts:
    """How many connections each key holds open, refusing one past ``limit``. An entry lives only
    while its key has a connection open, so memory follows the open connections."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: dict[str, int] = {}

    def acquire(self, key: str) -> bool:
        count = self._open.get(key, 0)
        if count >= self.limit:
            return False
        self._open[key] = count + 1
        return True

    def release(self, key: str) -> None:
        count = self._open.get(key, 0) - 1
        if count > 0:
            self._open[key] = count
        else:
            self._open.pop(key, None)

    def count(self, key: str) -> int:
        return self._open.get(key, 0)


@dataclass
class Limits:
    players: KeyedBuckets
    """Players created, per client address."""
    rooms: KeyedBuckets
    """Rooms created, per player and per client address (keys ``player:...`` and ``addr:...``)."""
    sockets: OpenCounts
    """WebSocket connections open, per client address."""

    @classmethod
    def from_settings(cls, settings: Settings) -> Limits:
        return cls(
            players=KeyedBuckets(settings.players_per_min, MINUTE),
            rooms=KeyedBuckets(settings.rooms_per_min, MINUTE),
            sockets=OpenCounts(settings.sockets_per_address),
        )
