"""What a seat (or a spectator) sees of a Rummy state, and the result record.

The view keeps one fixed shape (lists indexed by seat, fixed keys) so the
room's JSON-Patch diff between consecutive views stays small. Hands are
private: a seat sees its own cards and everyone's card counts; the pool shows
only its size. The active player's draft is public (rules 2.4: the others
watch the table being rebuilt), together with the verdict a commit of it
would get, per set and as the list of failed checks.

``legal`` cannot list every table a player could build, so for the active
player it lists the action kinds with their shapes: entries without a
``"<...>"`` placeholder (commit, draw, undo, reset) can be sent as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from app.engines.base import JSON
from app.engines.ranking import seats_with_highest
from app.engines.rummy.melds import KIND_JSON, Meld, MeldCheck, Table
from app.engines.rummy.problems import Problem
from app.engines.rummy.state import Phase, RoundRecord, RummyState, TurnRecord
from app.engines.rummy.table import draft_verdict

MOVE_SHAPE: JSON = {
    "card": "<id of a card in your hand or in the draft>",
    "to": '<"hand" (cards from your hand only) | "new" | {"set": i, "index": k (optional)}>',
}
DECLARE_SHAPE: JSON = {"set": "<set index>", "kind": '<"group" | "run" | null>'}
DRAFT_SHAPE: JSON = {"table": '<[{"kind": "group" | "run" | null (optional), "cards": [ids]}, ...]>'}


def legal(state: RummyState, seat: int | None) -> list[JSON]:
    if seat is None or state.phase is not Phase.TURN or seat != state.seat:
        return []
    turn = {"turn_id": state.turn_id}
    kinds: list[JSON] = [
        {"type": "move", **turn, **MOVE_SHAPE},
        {"type": "declare", **turn, **DECLARE_SHAPE},
        {"type": "draft", **turn, **DRAFT_SHAPE},
    ]
    if state.undo:
        kinds.append({"type": "undo", **turn})
    if state.draft != state.table:
        kinds.append({"type": "reset", **turn})
    kinds.append({"type": "commit", **turn})
    kinds.append({"type": "draw", **turn})
    return kinds


# One JSON object per distinct set, table, verdict and problem: what did not change is then the very
# same object in consecutive views, which the room's diff passes over without looking inside (a
# draft step changes one set of many). Views are read-only, so sharing them is safe.


@lru_cache(maxsize=1 << 14)
def meld_json(meld: Meld) -> JSON:
    return meld.to_json()


@lru_cache(maxsize=1 << 12)
def table_json(table: Table) -> list[JSON]:
    return [meld_json(m) for m in table]


@lru_cache(maxsize=1 << 12)
def verdict_json(check: MeldCheck) -> JSON:
    return {"kind": KIND_JSON[check.kind], "ok": check.ok, "value": check.value}


@lru_cache(maxsize=1 << 12)
def problem_json(problem: Problem) -> JSON:
    return problem.to_json()


def draft_json(state: RummyState) -> JSON:
    seat = state.seat
    check = draft_verdict(
        state.table, state.hands[seat], state.draft, state.opened[seat], state.options.opening_min
    )
    return {
        "table": table_json(state.draft),
        "sets": [verdict_json(c) for c in check.sets],
        "problems": [problem_json(p) for p in check.problems],
        "valid": check.ok,
        "placed": len(check.played),
        "steps": len(state.undo),
    }


def last_json(last: TurnRecord | None, seat: int | None) -> JSON | None:
    if last is None:
        return None
    return {
        "turn_id": last.turn_id,
        "seat": last.seat,
        "end": last.end.value,
        "at": last.at,
        "played": list(last.played),
        "drew": len(last.drawn),
        "drawn": list(last.drawn) if seat == last.seat else None,
        "returned": last.returned,
        "rebuilt": last.rebuilt,
        "new_sets": last.new_sets,
        "jokers_exchanged": last.jokers_exchanged,
    }


def record_json(record: RoundRecord) -> JSON:
    return {
        "round": record.round,
        "end": record.end.value,
        "winners": list(record.winners),
        "cards": list(record.cards),
        "values": list(record.values),
        "scores": list(record.scores),
    }


def winners(state: RummyState) -> list[int]:
    return list(seats_with_highest(state.totals)) if state.phase is Phase.MATCH_OVER else []


def view(state: RummyState, seat: int | None) -> JSON:
    return views(state, (seat,))[seat]


def views(state: RummyState, seats: Sequence[int | None]) -> dict[int | None, JSON]:
    """The views of ``seats``, sharing one public part: the table, the draft and its verdict, the
    seats' counts and the scores are the same objects in each (built, and diffed, once)."""
    for seat in seats:
        if seat is not None and not 0 <= seat < state.players:
            raise ValueError(f"seat {seat} is not at this {state.players}-player table")
    options = state.options
    turn = state.phase is Phase.TURN
    minutes = options.match_minutes
    table = table_json(state.table)
    draft = draft_json(state) if turn else None
    counts: list[dict[str, Any]] = [
        {"cards": len(state.working_hand(i)), "opened": state.opened[i], "away": state.away(i)}
        for i in range(state.players)
    ]
    totals = list(state.totals)
    scores = [record_json(r) for r in state.history]
    won = winners(state)
    return {
        seat: {
            "game": "rummy",
            "phase": state.phase.value,
            "round": state.round,
            "rounds": None if minutes else options.rounds,
            "match_ends_at": state.match_started_at + minutes * 60_000 if minutes else None,
            "turn_id": state.turn_id,
            "turn": state.seat if turn else None,
            "deadline": state.deadline,
            "pool": len(state.pool),
            "opening_min": options.opening_min,
            "table": table,
            "draft": draft,
            "hand": None if seat is None else list(state.working_hand(seat)),
            "seats": counts,
            "passes": state.passes,
            "totals": totals,
            "scores": scores,
            "last": last_json(state.last, seat),
            "winners": won,
            "you": seat,
            "legal": legal(state, seat),
        }
        for seat in seats
    }


def result_detail(state: RummyState) -> JSON:
    return {"rounds": [record_json(r) for r in state.history], "totals": list(state.totals)}
