"""What a room needs from a connection, without knowing it is a WebSocket."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


class Peer(Protocol):
    player_id: str
    seq: int
    """Number of the last state frame (snapshot or patch) sent on this connection."""
    view_key: int | str | None
    """The view this connection's frames were computed from (a game seat, or None for the public view)."""
    needs_snapshot: bool
    snapshot_reason: str
    """Why the next snapshot is sent: "join", "resync", "seat" (view changed seat), "reset" (slow peer)."""
    overflows: int
    on_overflow: Callable[[], None] | None
    """Called by ``send`` when the queue was full and has been emptied; the room sets it."""

    stimuli: dict[str, tuple[int, int]]
    """Race stimuli this connection was shown: key -> (seq of the first frame carrying it, room time
    it was queued). Kept by the room; see ``written_at``."""

    @property
    def rtt(self) -> int | None:
        """The connection's round-trip estimate (ms), if measured yet."""

    @property
    def jitter(self) -> int | None:
        """The connection's jitter band (ms) above ``rtt``, if measured yet."""

    def written_at(self, seq: int) -> int | None:
        """Room time the first state frame numbered ``seq`` or later was written to the socket, if yet."""

    def send(self, text: str, seq: int | None = None) -> None:
        """Queue a frame (``seq``: the number of a state frame); when the queue is full, empty it,
        count an overflow and call ``on_overflow``."""

    def close(self, code: int, error: str, message: str) -> None: ...
