"""When each player was shown a race's stimulus, and what the engine ruled: the room's side of races.

Reaction races (:mod:`app.engines.race`) need to know when each player was
actually sent a stimulus. The room stays game-agnostic: an engine that has races
names its live stimuli (``stimuli(state)``); after each broadcast the room notes,
per connection, the frame that first carried each one, and the connection's
writer notes when that frame went out. A move made while a stimulus is live
carries every seat's send time and link statistics (``Move.timing``). A bot sits
at the server: it saw a stimulus when it was first broadcast, with no network.
Rulings the engine reports (``rulings(state)``) are logged with the input that
produced them, for audits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.engines.base import JSON, Engine, Link, Timing
from app.rooms.members import GameRun

if TYPE_CHECKING:
    from app.rooms.bots import BotSeats
    from app.rooms.peer import Peer


class RaceTiming:
    """Mixed into :class:`~app.rooms.room.Room`; the attributes below are the room's."""

    engine: Engine[Any, Any]
    status: str
    game: GameRun | None
    peers: list[Peer]
    bots: BotSeats
    _stimulus_at: dict[str, int]
    _rulings_of: tuple[Any, list[JSON]] | None

    if TYPE_CHECKING:

        def now(self) -> int: ...
        def key_of(self, player_id: str) -> int | None: ...

    def _stimuli(self, state: Any) -> tuple[str, ...]:
        hook = getattr(self.engine, "stimuli", None)
        if hook is None or self.status != "playing":
            return ()
        keys: tuple[str, ...] = tuple(hook(state))
        return keys

    def _rulings(self, state: Any) -> list[JSON]:
        cached = self._rulings_of
        if cached is not None and cached[0] is state:
            return cached[1]
        hook = getattr(self.engine, "rulings", None)
        rulings: list[JSON] = [] if hook is None else list(hook(state))
        self._rulings_of = (state, rulings)
        return rulings

    def _new_rulings(self, old: Any, new: Any) -> list[JSON]:
        """Rulings the engine reports for ``new`` that it did not report for ``old``."""
        before = self._rulings(old)
        return [r for r in self._rulings(new) if r not in before]

    def _note_stimuli(self, by_key: dict[int | None, list[Peer]]) -> None:
        """After a broadcast: note, per seated connection, the frame that first showed each live stimulus."""
        game = self.game
        keys = self._stimuli(game.state) if game is not None else ()
        now = self.now()
        seen = self._stimulus_at
        for stale in [k for k in seen if k not in keys]:
            del seen[stale]
        for stimulus in keys:
            seen.setdefault(stimulus, now)
        for key, peers in by_key.items():
            if key is None:
                continue  # spectators do not race
            for peer in peers:
                notes = peer.stimuli
                for stale in [k for k in notes if k not in keys]:
                    del notes[stale]
                for stimulus in keys:
                    if stimulus not in notes:
                        notes[stimulus] = (peer.seq, now)

    def _link(self, peer: Peer, keys: tuple[str, ...]) -> Link:
        sent: dict[str, int] = {}
        for key in keys:
            note = peer.stimuli.get(key)
            if note is None:
                continue
            seq, queued = note
            written = peer.written_at(seq)
            # A frame noted after a broadcast that did not change this view was written earlier.
            sent[key] = queued if written is None else max(written, queued)
        return Link(rtt=peer.rtt, jitter=peer.jitter, sent=sent)

    def _bot_link(self, keys: tuple[str, ...]) -> Link:
        """A bot sits at the server: no network, it saw each stimulus when it was first broadcast."""
        seen = self._stimulus_at
        return Link(rtt=0, jitter=0, sent={k: seen[k] for k in keys if k in seen})

    def _timing(self, seat: int, peer: Peer | None) -> Timing | None:
        """Every seat's link for a move made while a race stimulus is live (None when none is).

        ``peer`` is the connection the move came through; None for a bot's move.
        """
        game = self.game
        assert game is not None
        keys = self._stimuli(game.state)
        if not keys:
            return None
        links: list[Link | None] = [None] * len(game.rec.seats)
        for bot_seat in self.bots.playing():
            if 0 <= bot_seat < len(links):
                links[bot_seat] = self._bot_link(keys)
        for other in self.peers:
            key = self.key_of(other.player_id)
            if not isinstance(key, int) or not 0 <= key < len(links) or key == seat:
                continue
            link = self._link(other, keys)
            current = links[key]
            # A player with several connections: the one that could still be heard the latest.
            if current is None or _latest(link) > _latest(current):
                links[key] = link
        if 0 <= seat < len(links):
            # The claimer: the connection the move came through.
            links[seat] = self._bot_link(keys) if peer is None else self._link(peer, keys)
        return Timing(tuple(links))


def _latest(link: Link) -> int:
    return max(link.sent.values(), default=-(2**62)) + (link.rtt or 0) + (link.jitter or 0)
