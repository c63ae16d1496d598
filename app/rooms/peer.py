"""What a room needs from a connection, without knowing it is a WebSocket.

The transport only sends, closes, reports when numbered frames were written and
what it measured of the link. Everything the room keeps per connection (frame
numbers, which view it is in step with, race stimuli it was shown) lives in the
room's own :class:`~app.rooms.audience.Viewer` record.
"""

from __future__ import annotations

from typing import Protocol


class Peer(Protocol):
    player_id: str

    @property
    def rtt(self) -> int | None:
        """The connection's round-trip estimate (ms), if measured yet."""

    @property
    def jitter(self) -> int | None:
        """The connection's jitter band (ms) above ``rtt``, if measured yet."""

    @property
    def verified(self) -> tuple[int, int] | None:
        """The round trip and jitter allowance (ms) the client cannot delay, if the server has one
        (:mod:`app.realtime.round_trip`)."""

    @property
    def unverifiable(self) -> bool:
        """True when no such round trip can come for this connection."""

    def written_at(self, seq: int) -> int | None:
        """Room time the first state frame numbered ``seq`` or later was written to the socket, if yet."""

    def send(self, text: str, seq: int | None = None) -> bool:
        """Queue a frame (``seq``: the number of a state frame). False when the backlog was full:
        it has been emptied, this frame included, and the room decides what comes next."""

    def set_racing(self, racing: bool) -> None:
        """Whether a reaction race may be judged with this connection's link (a seat of a game with
        races): its clock sync is then kept fresher. Told with every snapshot (unchanged: no-op)."""

    def close(self, code: int, error: str, message: str) -> None: ...
