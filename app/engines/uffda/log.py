"""The public event log of one step (``state.last``), for the UI's history and the result screen.

A step is one ``apply`` or ``tick``: it starts an empty log and every
transition in it appends; the races it closes go to ``judged`` the same way.
Card identities that only some seats may see travel as the event's
``secret`` (rules 5.8).

Every event also goes to ``recent``, which a NEXT trims to the turn it ended
and the one it starts: a mistake can be caught only until the NEXT ending the
turn after it (rules 5.3), so older events can no longer matter to a call.
"""

from __future__ import annotations

from app.engines.cards import CardId
from app.engines.tuples import evolve
from app.engines.uffda.state import Event, Scalar, UffdaState


def new_step(state: UffdaState) -> UffdaState:
    return evolve(state, last=(), judged=()) if state.last or state.judged else state


def emit(
    state: UffdaState,
    at: int,
    kind: str,
    seat: int | None,
    *,
    secret: CardId | None = None,
    secret_to: tuple[int, ...] = (),
    **info: Scalar | tuple[int, ...],
) -> UffdaState:
    event = Event(state.seq, at, kind, seat, tuple(info.items()), secret, secret_to)
    recent = (*state.recent, event)
    if kind == "next":
        nexts = [i for i, e in enumerate(recent) if e.kind == "next"]
        if len(nexts) > 1:
            recent = recent[nexts[-2] + 1 :]
    return evolve(state, last=(*state.last, event), recent=recent, seq=state.seq + 1)
