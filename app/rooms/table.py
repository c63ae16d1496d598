"""The game a room runs: its state, the inputs applied since the last commit, and the ids already acted on.

Every input reaches the engine through the one :func:`~app.engines.step.step`.
An accepted input becomes the state at once (so the next input of the same
turn builds on it) and is queued as an event; nobody sees it until the event
log has committed it. If the commit fails, :meth:`Table.roll_back` returns to
the committed state, which nobody has seen past either.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import orjson

from app.db.store import EventRec, GameRec
from app.engines.base import JSON, Engine, Move, Timing
from app.engines.step import EndEarly, HostEnd, Input, Tick, step


@dataclass(frozen=True, slots=True)
class Accepted:
    """An input the engine accepted: its new state and the event that logs it."""

    state: Any
    event: EventRec


@dataclass(slots=True)
class Table:
    rec: GameRec
    engine: Engine[Any, Any]
    state: Any
    committed: Any
    next_seq: int
    applied: dict[int, dict[str, int]] = field(default_factory=dict)
    """Seat → client action id → event seq: retries are answered, never re-applied. Kept for the
    whole game, so nested by seat: no (seat, id) key object per accepted input."""
    pending: list[EventRec] = field(default_factory=list)
    """Accepted inputs not committed yet, in order."""

    def try_input(self, inp: Input, client_id: str | None, actor: str | None = None) -> Accepted:
        """The engine's answer to ``inp`` on the current state; raises its ``IllegalAction`` (or a bug).

        ``actor`` is who moved for the seat when not its own player (``"standin"``). Nothing
        changes here: :meth:`accept` takes the result.
        """
        new = step(self.engine, self.state, inp)
        return Accepted(new, event_of(self.next_seq, inp, client_id, actor))

    def accept(self, accepted: Accepted, rulings: list[JSON]) -> EventRec:
        event = accepted.event
        if rulings:
            _encodable(rulings)
            event = replace(event, rulings=rulings)
        self.state = accepted.state
        if event.seat is not None and event.client_id is not None:
            self.note_applied(event.seat, event.client_id, event.seq)
        self.pending.append(event)
        self.next_seq += 1
        return event

    def retry_pending(
        self, check: Callable[[Any], None], rulings_of: Callable[[Any, Any], list[JSON]]
    ) -> list[EventRec]:
        """Back to the committed state, then each pending input again, alone, kept only if ``check``
        accepts the state it leads to; returns the events of the inputs refused."""
        events = self.take_pending()
        self.roll_back(events)
        refused = []
        for event in events:
            before = self.state
            try:
                accepted = self.try_input(input_of(event), event.client_id, event.actor)
                check(accepted.state)
                self.accept(accepted, rulings_of(before, accepted.state))
            except Exception:
                refused.append(event)
        return refused

    def take_pending(self) -> list[EventRec]:
        events, self.pending = self.pending, []
        return events

    def committed_now(self) -> None:
        self.committed = self.state

    def roll_back(self, events: list[EventRec]) -> None:
        """The log refused ``events``: back to the committed state (nobody has seen past it)."""
        self.state = self.committed
        if events:
            self.next_seq = events[0].seq
        for ev in events:
            if ev.seat is not None and ev.client_id is not None:
                self._forget_applied(ev.seat, ev.client_id)

    def note_applied(self, seat: int, client_id: str, seq: int) -> None:
        ids = self.applied.get(seat)
        if ids is None:
            ids = self.applied[seat] = {}
        ids[client_id] = seq

    def was_applied(self, seat: int, client_id: str) -> bool:
        ids = self.applied.get(seat)
        return ids is not None and client_id in ids

    def _forget_applied(self, seat: int, client_id: str) -> None:
        ids = self.applied.get(seat)
        if ids is not None:
            ids.pop(client_id, None)
            if not ids:
                del self.applied[seat]


def event_of(seq: int, inp: Input, client_id: str | None, actor: str | None = None) -> EventRec:
    """The event that logs ``inp``; raises if it holds anything the log cannot store."""
    if isinstance(inp, Tick):
        return EventRec(seq, "tick", None, None, inp.at)
    if isinstance(inp, EndEarly):
        return EventRec(seq, "end", None, None, inp.at)
    if isinstance(inp, HostEnd):
        return EventRec(seq, "stop", None, None, inp.at)
    action = dict(inp.action)
    timing = None if inp.timing is None else inp.timing.to_json()
    _encodable(action)
    return EventRec(seq, "move", inp.seat, action, inp.at, inp.rtt, client_id, timing=timing, actor=actor)


def input_of(event: EventRec) -> Input:
    """The input a logged event records (the inverse of :func:`event_of`)."""
    if event.kind == "tick":
        return Tick(event.at)
    if event.kind == "end":
        return EndEarly(event.at)
    if event.kind == "stop":
        return HostEnd(event.at)
    assert event.seat is not None and event.action is not None
    timing = Timing.from_json(event.timing) if event.timing else None
    return Move(seat=event.seat, action=event.action, at=event.at, rtt=event.rtt, timing=timing)


def _encodable(value: Any) -> None:
    # Fails here, on this one input, rather than in the group commit that also carries other rooms' inputs.
    orjson.dumps(value)
