"""The room's record of each connection: frame numbers, view in step, stimuli shown, overflows.

A :class:`Viewer` wraps the transport's :class:`~app.rooms.peer.Peer`; the room
sends through it so that numbering, resets after an overflow and the TOO_SLOW
cut-off are decided in one place, for every connection alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.rooms.peer import Peer

MAX_OVERFLOWS = 3
"""Overflows a connection is forgiven (each answered with one reset snapshot); the next one drops it."""

NOT_IN_STEP = "none"
"""The view key of a connection that has not been sent a snapshot yet."""


@dataclass(slots=True, eq=False)
class Viewer:
    peer: Peer
    seq: int = 0
    """Number of the last state frame (snapshot or patch) sent on this connection."""
    view_key: int | str | None = NOT_IN_STEP
    """The view this connection's frames were computed from (a game seat, or None for the public view)."""
    needs_snapshot: bool = True
    snapshot_reason: str = "join"
    """Why the next snapshot is sent: "join", "resync", "seat" (view changed seat), "reset" (overflow)."""
    overflows: int = 0
    dropped: bool = False
    """Closed as too slow: nothing more is sent to it while its disconnect is on its way."""
    stimuli: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Race stimuli this connection was shown: key -> (seq of the first frame carrying it, room time
    it was queued)."""

    @property
    def player_id(self) -> str:
        return self.peer.player_id

    def send(self, text: str) -> None:
        """An answer or notice (not a state frame)."""
        if not self.dropped and not self.peer.send(text):
            self.overflowed()

    def send_patch(self, ops_text: str) -> None:
        self.seq += 1
        self._send_frame(f'{{"type":"patch","seq":{self.seq},"ops":{ops_text}}}')

    def send_snapshot(self, key: int | None, view_text: str, racing: bool = False) -> None:
        """A snapshot of view ``key``; ``racing``: a reaction race may be judged with this connection
        in that view (every change of view comes with a snapshot, so the peer hears of it here)."""
        self.peer.set_racing(racing)
        self.seq += 1
        self.view_key = key
        self.needs_snapshot = False
        reason = self.snapshot_reason
        self._send_frame(f'{{"type":"snapshot","seq":{self.seq},"reason":"{reason}","view":{view_text}}}')

    def _send_frame(self, text: str) -> None:
        if not self.dropped and not self.peer.send(text, self.seq):
            self.overflowed()

    def overflowed(self) -> None:
        # The backlog was emptied (frames, answers and pings alike): the next broadcast sends one
        # snapshot instead of the lost frames. One that keeps overflowing is dropped.
        if self.dropped:
            return
        self.overflows += 1
        if self.overflows > MAX_OVERFLOWS:
            self.dropped, self.needs_snapshot = True, False
            self.peer.close(4008, "TOO_SLOW", "Your connection could not keep up with the table.")
            return
        self.needs_snapshot = True
        self.snapshot_reason = "reset"
