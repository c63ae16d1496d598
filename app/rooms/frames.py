"""What each connection is shown: the room's view, one game view per seat key, and the frames.

Views are built once per seat key and state and diffed once per key against
what that key was last sent; every connection in step with that key gets the
same patch, anyone else a snapshot.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import orjson

from app.engines.base import Engine
from app.rooms.audience import Viewer
from app.rooms.diff import Shared, diff_shared

if TYPE_CHECKING:
    from app.rooms.room import Room

ViewKey = int | None
"""A game seat, or None for spectators (and everyone before a game starts)."""

PUBLIC: ViewKey = None


def dumps(obj: Any) -> str:
    return orjson.dumps(obj).decode()


class Frames:
    def __init__(self, engine: Engine[Any, Any]) -> None:
        self.engine = engine
        self._races = engine.has_races()
        self._room_view: dict[str, Any] | None = None
        self._game_views: dict[ViewKey, dict[str, Any]] = {}
        self._game_views_of: Any = None
        self._last_sent: dict[ViewKey, dict[str, Any]] = {}

    def invalidate(self) -> None:
        """The lobby part of the view changed (members, presence, status, options)."""
        self._room_view = None

    def room_view(self, build: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        if self._room_view is None:
            self._room_view = build()
        return self._room_view

    def game_view(self, state: Any, key: ViewKey) -> dict[str, Any]:
        """One view per seat key and state, shared by the broadcast, the bots and the input checks."""
        view = self._cached(state).get(key)
        return self.game_views(state, (key,))[key] if view is None else view

    def game_views(self, state: Any, keys: Iterable[ViewKey]) -> dict[ViewKey, dict[str, Any]]:
        """The views of ``keys`` for ``state``, those not built yet built together (``Engine.views``),
        so that what they share is shared objects, diffed once by :meth:`broadcast`."""
        cached = self._cached(state)
        missing = [key for key in keys if key not in cached]
        if missing:
            cached.update(self.engine.views(state, missing))
        return cached

    def _cached(self, state: Any) -> dict[ViewKey, dict[str, Any]]:
        if self._game_views_of is not state:
            self._game_views = {}
            self._game_views_of = state
        return self._game_views

    def broadcast(
        self, groups: Mapping[ViewKey, list[Viewer]], view_for: Callable[[ViewKey], dict[str, Any]]
    ) -> None:
        """Send every connection what changed in its view since its last frame."""
        for key in [k for k in self._last_sent if k not in groups]:
            del self._last_sent[key]
        shared: Shared = {}
        # Kept until every key is diffed: ``shared`` is keyed by the ids of their parts.
        replaced: list[dict[str, Any]] = []
        for key, viewers in groups.items():
            new = view_for(key)
            old = self._last_sent.get(key)
            ops_text: str | None = None
            if old is not None and old is not new:
                ops = diff_shared(old, new, shared)
                if ops:
                    ops_text = dumps(ops)
                replaced.append(old)
            self._last_sent[key] = new
            snapshot_text: str | None = None
            racing = key is not PUBLIC and self._races  # a seat of a game with reaction races
            for viewer in viewers:
                in_step = viewer.view_key == key and old is not None
                # A viewer in step gets the patch even when it also asked for a resync, so that
                # a resync snapshot always equals the view its earlier frames built.
                if in_step and ops_text is not None:
                    viewer.send_patch(ops_text)
                if viewer.needs_snapshot or not in_step:
                    if snapshot_text is None:
                        snapshot_text = dumps(new)
                    if not viewer.needs_snapshot:
                        viewer.snapshot_reason = "seat"
                    viewer.send_snapshot(key, snapshot_text, racing)


def _seat(
    entry: dict[str, Any],
    seat: int,
    prefs: dict[str, Any],
    bot: bool,
    standin: bool,
    *,
    left: bool,
    removed: bool = False,
) -> dict[str, Any]:
    """One seat of the room view: who holds it, and who plays it."""
    playing = {"bot": bot, "standin": standin, "left": left, "removed": removed}
    return {**entry, "seat": seat, "prefs": prefs, **playing}


def room_view_of(room: Room) -> dict[str, Any]:
    """The lobby part of every view: the room, its seats with presence, spectators and the match."""
    lobby, game = room.lobby, room.game
    # A running game has its own seats; in the lobby (and after a game) every seat is offered.
    playing = lobby.status == "playing"
    seat_count = len(game.rec.seats) if game is not None and playing else room.engine.max_players
    seats: list[dict[str, Any] | None] = [None] * seat_count
    spectators = []
    for m in sorted(lobby.members.values(), key=lambda m: (m.seat if m.seat is not None else 99, m.name)):
        entry = {"player_id": m.player_id, "name": m.name, "connected": m.connections > 0 or m.bot}
        if m.role in ("seat", "left") and m.seat is not None and m.seat < seat_count:
            standin = playing and m.seat in room.bots.standins
            seats[m.seat] = _seat(entry, m.seat, m.prefs, m.bot, standin, left=m.role == "left")
        else:
            spectators.append(entry)
    # Seats whose races rest on their own pongs: no connection of theirs has a round trip the
    # server can verify (app/realtime/round_trip.py); the host decides what the table does about it.
    reported = {
        member.seat
        for peer in room.viewers
        if peer.unverifiable
        and (member := lobby.members.get(peer.player_id)) is not None
        and member.role == "seat"
        and member.seat is not None
    }
    if playing and game is not None:
        for seat, held in enumerate(game.rec.seats):
            if seats[seat] is None:  # the host removed the player who left: a stand-in plays it to the end
                entry = {"player_id": held["player_id"], "name": held["name"], "connected": True}
                prefs = held.get("prefs") or {}
                seats[seat] = _seat(entry, seat, prefs, False, True, left=True, removed=True)
    match = None
    if game is not None:
        rec = game.rec
        finished = rec.status == "finished"
        match = {
            "id": rec.id,
            "seed_hash": rec.seed_hash,
            "seed": rec.seed if finished else None,
            "started_at": rec.started_at,
            "result": rec.result if finished else None,
        }
    return {
        "code": room.code,
        "game": room.game_name,
        "title": room.engine.title,
        "status": lobby.status,
        "public": lobby.public,
        "host": lobby.host_id,
        "options": lobby.options,
        "min_players": room.engine.min_players,
        "max_players": room.engine.max_players,
        "seats": seats,
        "spectators": spectators,
        "match": match,
        "reported_links": sorted(reported),
    }
