"""When each player was shown a race's stimulus, and what the engine ruled: the room's side of races.

Reaction races (:mod:`app.engines.race`) need to know when each player was
actually sent a stimulus. The room stays game-agnostic: an engine that has races
names its live stimuli (``Engine.stimuli``); after each broadcast the room notes,
per connection, the frame that first carried each one, and the connection's
writer notes when that frame went out. A move made while a stimulus is live
carries every seat's send time and link statistics (``Move.timing``). A bot sits
at the server: it saw a stimulus when it was first broadcast, with no network.
Rulings the engine reports (``Engine.rulings``) are logged with the input that
produced them, for audits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.engines.base import JSON, Engine, Link, Timing
from app.rooms.audience import Viewer


class RaceTiming:
    """The stimuli a room has shown and when; everything else arrives as arguments."""

    def __init__(self, engine: Engine[Any, Any]) -> None:
        self.engine = engine
        self.has_races = engine.has_races()
        """Whether the game has races at all: a room of a game without them notes nothing."""
        self.first_shown: dict[str, int] = {}
        """Each live stimulus → when it was first broadcast (what a bot "saw")."""
        self._rulings_of: tuple[Any, list[JSON]] | None = None

    def rulings(self, state: Any) -> list[JSON]:
        cached = self._rulings_of
        if cached is not None and cached[0] is state:
            return cached[1]
        rulings = list(self.engine.rulings(state))
        self._rulings_of = (state, rulings)
        return rulings

    def new_rulings(self, old: Any, new: Any) -> list[JSON]:
        """Rulings the engine reports for ``new`` that it did not report for ``old``."""
        if not self.has_races:  # rulings are races' verdicts: a game without races has none to ask for
            return []
        before = self.rulings(old)
        return [r for r in self.rulings(new) if r not in before]

    def note_shown(self, live: Sequence[str], seated: Mapping[int, list[Viewer]], now: int) -> None:
        """After a broadcast: note, per seated connection, the frame that first showed each live stimulus."""
        seen = self.first_shown
        for stale in [k for k in seen if k not in live]:
            del seen[stale]
        for stimulus in live:
            seen.setdefault(stimulus, now)
        for viewers in seated.values():
            for viewer in viewers:
                notes = viewer.stimuli
                if notes:
                    for stale in [k for k in notes if k not in live]:
                        del notes[stale]
                for stimulus in live:
                    if stimulus not in notes:
                        notes[stimulus] = (viewer.seq, now)

    def timing(
        self,
        live: Sequence[str],
        seat: int,
        claimer: Viewer | None,
        seated: Iterable[tuple[int, Viewer]],
        bot_seats: Iterable[int],
        seat_count: int,
    ) -> Timing | None:
        """Every seat's link for a move made while the stimuli ``live`` are live (None when none is).

        ``claimer`` is the connection the move came through (None for a bot's move);
        ``seated`` pairs each other seated connection with its seat.
        """
        if not live:
            return None
        links: list[Link | None] = [None] * seat_count
        for bot_seat in bot_seats:
            if 0 <= bot_seat < seat_count:
                links[bot_seat] = self._bot_link(live)
        for other_seat, viewer in seated:
            if not 0 <= other_seat < seat_count or other_seat == seat:
                continue
            link = _link(viewer, live)
            current = links[other_seat]
            # A player with several connections: the one that could still be heard the latest.
            if current is None or _latest(link) > _latest(current):
                links[other_seat] = link
        if 0 <= seat < seat_count:
            links[seat] = self._bot_link(live) if claimer is None else _link(claimer, live)
        return Timing(tuple(links))

    def _bot_link(self, live: Sequence[str]) -> Link:
        """A bot sits at the server: no network, it saw each stimulus when it was first broadcast."""
        seen = self.first_shown
        return Link(rtt=0, jitter=0, sent={k: seen[k] for k in live if k in seen}, verified=(0, 0))


def _link(viewer: Viewer, live: Sequence[str]) -> Link:
    sent: dict[str, int] = {}
    for key in live:
        note = viewer.stimuli.get(key)
        if note is None:
            continue
        seq, queued = note
        written = viewer.peer.written_at(seq)
        # A frame noted after a broadcast that did not change this view was written earlier.
        sent[key] = queued if written is None else max(written, queued)
    peer = viewer.peer
    return Link(
        rtt=peer.rtt, jitter=peer.jitter, sent=sent, verified=peer.verified, unverifiable=peer.unverifiable
    )


def _latest(link: Link) -> int:
    return max(link.sent.values(), default=-(2**62)) + (link.rtt or 0) + (link.jitter or 0)
