"""Writes a room makes on its own behalf, under its owner's fence (see :mod:`app.cluster.leases`).

With one process there is no fence (None) and nothing is checked. With several, the database
refuses any write carrying an older fence than the room's; the write then fails like any other
(nothing changed) and the room is given up, since it may never write again.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from app.db.event_log import is_stale_owner

log = logging.getLogger(__name__)

T = TypeVar("T")


class Ownership:
    def __init__(
        self,
        code: str,
        fence: int | None,
        lost: Callable[[str], None] | None,
        refused: Callable[[], None],
    ) -> None:
        self.code = code
        self.fence = fence
        self._lost = lost
        """Gives the room up (the manager's ``let_go``) once the database says another process holds it."""
        self._refused = refused
        """Counts a refused write (the server's metrics)."""

    async def write(self, fn: Callable[[int | None], Awaitable[T]], leaving: bool = False) -> T:
        """``fn(fence)``; ``leaving``: the room is being put away already, so not given up again."""
        try:
            return await fn(self.fence)
        except Exception as exc:
            if is_stale_owner(exc):
                log.warning("room=%s a write was refused: another process holds the room", self.code)
                self._refused()
                if self._lost is not None and not leaving:
                    self._lost(self.code)
            raise
