"""What arrives in a room's inbox, and the answers it owes once its frames have gone out."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from app.engines.base import JSON
from app.rooms.audience import Viewer
from app.rooms.frames import dumps
from app.rooms.peer import Peer


@dataclass(slots=True)
class Action:
    peer: Peer
    client_id: str
    action: Any
    at: int


@dataclass(slots=True)
class Call:
    fn: Callable[[], Awaitable[Any]]
    done: asyncio.Future[Any]


@dataclass(slots=True)
class Admin:
    peer: Peer
    client_id: str
    fn: Callable[[], Awaitable[Any]]


@dataclass(slots=True)
class Resync:
    peer: Peer
    reason: str


Item = Action | Admin | Call | Resync


def reject_text(client_id: str, code: str, message: str, detail: JSON | None = None) -> str:
    reject: JSON = {"type": "reject", "id": client_id, "code": code, "message": message}
    if detail is not None:
        reject["detail"] = detail
    return dumps(reject)


class Answers:
    """Answers owed for a turn's inputs, given once its frames have gone out (or its commit failed).

    An ack names the number of the frame that carries the input's effect, so it
    can only be sent after that frame; a duplicate's ack waits for the original's.
    A ``Room.call`` result waits too: an input it queued could still be refused.
    """

    def __init__(self, rejected: Callable[[str], None] = lambda code: None) -> None:
        self._rejected = rejected
        """Told the code of every reject this sends (the server's metrics)."""
        self._acks: list[tuple[Viewer, str, bool, int | None]] = []
        self._results: list[tuple[asyncio.Future[Any], Any, bool]] = []

    def ack(self, viewer: Viewer, client_id: str, duplicate: bool = False, seat: int | None = None) -> None:
        """``seat``: the seat whose move this acks (so a move taken back can be refused instead)."""
        self._acks.append((viewer, client_id, duplicate, seat))

    def refuse(
        self, seat: int | None, client_id: str | None, code: str, message: str, error: Exception
    ) -> None:
        """One input of the turn was taken back before its commit: its answer becomes a refusal."""
        if seat is None or client_id is None:  # the clock's or the host's: a call may be waiting on it
            self._refuse_results(error)
            return
        for viewer, cid, _, acked_seat in self._acks:
            if acked_seat == seat and cid == client_id:
                self._rejected(code)
                viewer.send(reject_text(client_id, code, message))
        self._acks = [a for a in self._acks if not (a[3] == seat and a[1] == client_id)]

    def result(self, done: asyncio.Future[Any], value: Any, logged: bool) -> None:
        """``logged``: the call queued a game input, so a failed commit turns it into a refusal."""
        self._results.append((done, value, logged))

    def refuse_logged(self, code: str, message: str, error: Exception) -> None:
        """The commit failed: every input of the turn is refused; results of calls that queued one too."""
        for viewer, client_id, _, _ in self._acks:
            self._rejected(code)
            viewer.send(reject_text(client_id, code, message))
        self._acks.clear()
        self._refuse_results(error)

    def _refuse_results(self, error: Exception) -> None:
        for done, _, logged in self._results:
            if logged and not done.done():
                done.set_exception(error)
        self._results = [r for r in self._results if not r[2]]

    def send(self) -> None:
        for done, value, _ in self._results:
            if not done.done():
                done.set_result(value)
        self._results.clear()
        for viewer, client_id, duplicate, _ in self._acks:
            ack: JSON = {"type": "ack", "id": client_id, "seq": viewer.seq}
            if duplicate:
                ack.update(duplicate=True, code="DUPLICATE_ACTION")
            viewer.send(dumps(ack))
        self._acks.clear()
