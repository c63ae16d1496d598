"""What a seat (or a spectator) sees of an UFF-DA! state, and the result record.

The view keeps one fixed shape (lists indexed by seat, fixed keys) so the
room's JSON-Patch diff between consecutive views stays small. Other seats'
cards appear only as counts; the drawn card and a penalty card are shown to
the seats that handled them (rules 5.8); the piles only as sizes.

Noticing a mistake is the skill (rules 8.36), so nothing in a view depends on
whether one is open, except the ``offences`` list under ``assist``:

- ``legal`` lists the calls wherever calling is possible at all: penalties on,
  the round in play and the caller holding at least two cards (rules 5.4) give
  one ``call`` per kind and per other seat, mistake or none. A call on nothing
  is refused ``NO_OFFENCE`` with no effect (rules 8.30), so of the calls
  ``legal`` lists, only those a player has seen reason for are accepted.
- ``declare_uffda`` is listed while the seat's latest release that left it one
  card (a play, the extra draw after a last-card double, a penalty card given,
  rules 5.1) falls in the turn in play or the one before: the only time a
  missed UFF-DA! of its own can be open (rules 5.2-5.3). It is listed whether
  or not the seat said UFF-DA! with it and whether or not it was caught, so it
  tells the seat nothing it did not do itself; sent with nothing owed, it is
  refused ``NO_OFFENCE`` (settled decision C).
- What a player at the table would remember is public and in the view:
  ``recent``, the public events (no card secrets) of the turn in play and the
  one before, and ``previous``, the public facts of the turn before (who, and
  whether they drew, played, or drew under a double). From those, hand counts
  and coins, :func:`app.bots.uffda.offences_seen` finds every open mistake.
- With ``assist`` (rules 7), ``offences`` lists every open mistake for all to
  see (kind, offender, turn, whether its window is closing, who called).

Every other action ``legal`` lists is accepted if sent before the state changes.

The public part is built once for all seats, and every part that can stay the
same between moves (a branch, a seat, an event, a round of the score table, an
action) comes from a memo, so it is the very same object in consecutive views
and the room's diff passes over it (:mod:`app.engines.view_parts`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from app.engines.base import JSON
from app.engines.cards import CardId
from app.engines.ranking import places_lowest_first, seats_with_lowest
from app.engines.uffda.board import community_ready
from app.engines.uffda.options import UffdaOptions
from app.engines.uffda.penalties import may_declare, stimulus_key
from app.engines.uffda.state import (
    ActiveDouble,
    Branch,
    Event,
    Judged,
    Kind,
    Offence,
    Phase,
    RoundRecord,
    Step,
    Turn,
    UffdaState,
)
from app.engines.uffda.turn import can_pass, going_out_blocked, plays
from app.engines.view_parts import check_viewers, each_json, tuple_json

_FREE_NEXT = (Step.AFTER_DRAW, Step.FOLLOW_UP_DRAWN, Step.DONE)

SHAPES: JSON = {
    "play": {"uffda": "true (optional): say UFF-DA! with this play, if it leaves you one card"},
    "draw": {"uffda": "true (optional): say UFF-DA! with this draw (counts for the extra draw of a double)"},
    "declare_uffda": {
        "reaction_ms": "whole ms (optional): how long you took to react, as your client saw it"
    },
    "call": {
        "give_card": "card id from your hand (optional): the penalty card you give; default your highest",
        "uffda": "true (optional): say UFF-DA! with the call, if giving the card leaves you one",
        "reaction_ms": "whole ms (optional): how long you took to react, as your client saw it",
    },
}
"""The optional fields each kind of action in ``legal`` may add (view key ``shapes``); a ``legal`` entry
lists only the fields the action needs."""


def legal(state: UffdaState, seat: int | None) -> list[JSON]:
    """The actions ``seat`` may take now (rules 4.5). A play may add ``"uffda": true``; a call
    may add ``give_card``, ``uffda`` and ``reaction_ms``; a draw after a last-card double
    may add ``"uffda": true``. Calls and the late declaration are offered by the public
    conditions of the module docstring, never by an open mistake."""
    if seat is None or state.phase is not Phase.PLAY:
        return tuple_json(())
    out: list[JSON] = []
    turn = state.turn
    if seat == turn.seat:
        step = turn.step
        if not going_out_blocked(state, seat):
            out.extend(play_json(card, b, on, side) for card, (b, on, side) in plays(state))
        if step in (Step.OPEN, Step.FOLLOW_UP):
            out.extend(_DRAWS[k] for k in (0, 1) if state.piles[k])
        coin = state.branches[seat].coin
        if step is Step.AFTER_DRAW and not turn.drew_under_double and not coin:
            out.append(_PLACE_COIN)
        if turn.played_own and coin:
            out.append(_REMOVE_COIN)
        if step in _FREE_NEXT or can_pass(state):
            out.append(_NEXT)
    if not state.options.penalties:
        return out
    # Neither offer may depend on an open mistake (rules 8.36): see the module docstring.
    if may_declare(state, seat):
        out.append(_DECLARE)
    if len(state.hands[seat]) >= 2:
        out.extend(calls_legal(seat, state.players))
    return out


_DRAWS: tuple[JSON, JSON] = ({"type": "draw", "pile": 0}, {"type": "draw", "pile": 1})
_PLACE_COIN: JSON = {"type": "place_coin"}
_REMOVE_COIN: JSON = {"type": "remove_coin"}
_NEXT: JSON = {"type": "next"}
_DECLARE: JSON = {"type": "declare_uffda"}


@lru_cache(maxsize=1 << 11)
def play_json(card: CardId, branch: int, on: int, side: int) -> JSON:
    return {"type": "play", "card": card, "branch": branch, "on": on, "side": side}


@lru_cache(maxsize=64)
def calls_legal(seat: int, players: int) -> list[JSON]:
    return [
        {"type": "call", "kind": kind.value, "target": target}
        for kind in Kind
        for target in range(players)
        if target != seat
    ]


@lru_cache(maxsize=512)
def branch_json(branch: Branch) -> JSON:
    return {
        "owner": branch.owner,
        "coin": branch.coin,
        "cards": [{"card": p.card, "on": p.on, "side": p.side} for p in branch.cards],
        "ends": [{"value": e.value, "on": e.on, "side": e.side} for e in branch.ends],
    }


def _double_json(double: ActiveDouble | None) -> JSON | None:
    return None if double is None else double_json(double)


@lru_cache(maxsize=256)
def double_json(double: ActiveDouble) -> JSON:
    return {
        "branch": double.branch,
        "on": double.card,
        "value": double.value,
        "sides": [None if f is None else f.value for f in double.fills],
        "layer": double.layer,
    }


@lru_cache(maxsize=1 << 10)
def record_json(record: RoundRecord) -> JSON:
    return {
        "round": record.round,
        "center": record.center,
        "dealer": record.dealer,
        "winner": record.winner,
        "terminated": record.winner is None,
        "hand_points": list(record.hand_points),
        "scores": list(record.scores),
        "totals": list(record.totals),
    }


def event_json(event: Event, seat: int | None) -> JSON:
    """An event as ``seat`` sees it: its card only if the seat handled it (rules 5.8)."""
    return shown_event_json(event, event.secret is not None and seat in event.secret_to)


@lru_cache(maxsize=1 << 10)
def shown_event_json(event: Event, secret_shown: bool) -> JSON:
    out: dict[str, Any] = {"seq": event.seq, "at": event.at, "kind": event.kind, "seat": event.seat}
    for key, value in event.info:
        out[key] = list(value) if isinstance(value, tuple) else value
    if secret_shown:
        out["card"] = event.secret
    return out


@lru_cache(maxsize=256)
def public_events_json(events: tuple[Event, ...]) -> list[JSON]:
    return [shown_event_json(e, False) for e in events]


@lru_cache(maxsize=1 << 10)
def offence_json(offence: Offence) -> JSON:
    return {
        "kind": offence.kind.value,
        "offender": offence.offender,
        "turn": offence.turn,
        "closing": offence.closes_at is not None,
        "calls": [c.claim.seat for c in offence.calls],
    }


def ruling_json(judged: Judged, options: UffdaOptions) -> JSON:
    """The audit record of a penalty race: every claim with the arbiter's inputs and workings.

    ``claims`` are the ruled ones (winner first); ``dropped`` the seats whose calls no longer
    counted because they were down to one card (a void race drops them all).
    """
    offence, ruling = judged.offence, judged.ruling
    ruled = [] if ruling is None else [c.to_json() for c in ruling.order]
    counted = {c["seat"] for c in ruled}
    return {
        "race": stimulus_key(offence),
        "kind": offence.kind.value,
        "offender": offence.offender,
        "outcome": judged.outcome,
        "stimulus_at": offence.created_at,
        "window_closed_at": offence.closes_at,
        "closed_at": judged.closed_at,
        "winner": None if ruling is None else ruling.winner,
        "tied": [] if ruling is None else list(ruling.tied),
        "tie_margin_ms": options.tie_margin_ms,
        "max_credit_ms": options.max_credit_ms,
        "compensation": options.latency_compensation,
        "claims": ruled,
        "dropped": [c.claim.seat for c in offence.calls if c.claim.seat not in counted],
    }


@lru_cache(maxsize=1 << 10)
def turn_json(turn: Turn) -> JSON:
    return {
        "seat": turn.seat,
        "no": turn.no,
        "step": turn.step.value,
        "drew": turn.drew,
        "played": turn.played_any,
    }


@lru_cache(maxsize=1 << 10)
def seat_json(cards: int, total: int) -> JSON:
    return {"cards": cards, "total": total}


@lru_cache(maxsize=256)
def first_draw_json(first_draw: tuple[tuple[CardId | None, ...], ...]) -> list[list[CardId | None]]:
    return [list(row) for row in first_draw]


def view(state: UffdaState, seat: int | None) -> JSON:
    return views(state, (seat,))[seat]


def views(state: UffdaState, seats: Sequence[int | None]) -> dict[int | None, JSON]:
    """The views of ``seats``: all but the seat's own cards, events and actions is public, built once."""
    check_viewers(seats, state.players)
    turn = state.turn
    playing = state.phase is Phase.PLAY
    if playing:
        deadline = turn.deadline
    elif state.phase is Phase.ROUND_OVER:
        deadline = state.resume_at
    else:
        deadline = None
    assist = state.options.assist
    public: JSON = {
        "game": "uffda",
        "phase": state.phase.value,
        "round": state.round,
        "rounds": state.options.rounds,
        "center": state.center,
        "dealer": state.dealer,
        "first_draw": first_draw_json(state.first_draw),
        "turn": turn_json(turn),
        "deadline": deadline,
        "piles": tuple_json((len(state.piles[0]), len(state.piles[1]))),
        "branches": [branch_json(b) for b in state.branches],
        "community_open": community_ready(state.branches),
        "double": _double_json(state.double),
        "seats": [seat_json(len(hand), total) for hand, total in zip(state.hands, state.totals, strict=True)],
    }
    after_drawn: JSON = {
        "totals": tuple_json(state.totals),
        "scores": each_json(record_json, state.history),
    }
    after_last: JSON = {
        # Public only: a card handed over earlier in the window is not in this seat's hand any more.
        "recent": public_events_json(state.recent),
        "previous": _previous_json(state.previous) if playing else None,
        "penalties": state.options.penalties,
        "offences": [offence_json(o) for o in state.offences] if assist else tuple_json(()),
        "winners": tuple_json(
            tuple(seats_with_lowest(state.totals)) if state.phase is Phase.GAME_OVER else ()
        ),
    }
    return {
        seat: {
            **public,
            "hand": None if seat is None else tuple_json(state.hands[seat]),
            "drawn": _drawn(state, seat),
            **after_drawn,
            "last": [event_json(e, seat) for e in state.last],
            **after_last,
            "you": seat,
            "legal": legal(state, seat),
            "shapes": SHAPES,
        }
        for seat in seats
    }


def _previous_json(turn: Turn | None) -> JSON | None:
    return None if turn is None else previous_json(turn)


@lru_cache(maxsize=1 << 10)
def previous_json(turn: Turn) -> JSON:
    """The public facts of the turn before (rules 4.6, 5.8): whose, and whether they drew, played,
    or drew while a double was active (such a draw never owes a coin)."""
    return {
        "seat": turn.seat,
        "no": turn.no,
        "drew": turn.drew,
        "played": turn.played_any,
        "drew_under_double": turn.drew_under_double,
    }


def _drawn(state: UffdaState, seat: int | None) -> str | None:
    """The card the active seat just drew, while it still holds it (a penalty card it gave away is gone)."""
    turn = state.turn
    if seat is None or seat != turn.seat or state.phase is not Phase.PLAY or turn.drawn is None:
        return None
    return turn.drawn if turn.drawn in state.hands[seat] else None


def result_detail(state: UffdaState) -> JSON:
    return {
        "rounds": [record_json(r) for r in state.history],
        "totals": list(state.totals),
        "ranks": places_lowest_first(state.totals),  # rules 6.5
        "first_draw": [list(row) for row in state.first_draw],
    }
