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

from app.engines.base import JSON
from app.engines.cards import CardId
from app.engines.ranking import seats_with_highest
from app.engines.rummy.melds import KIND_JSON, Meld, MeldCheck, Table
from app.engines.rummy.problems import Problem
from app.engines.rummy.state import Phase, RoundRecord, RummyState, TurnRecord
from app.engines.rummy.table import draft_verdict
from app.engines.view_parts import check_viewers, each_json, tuple_json

MOVE_SHAPE: JSON = {
    "card": "<id of a card in your hand or in the draft>",
    "to": '<"hand" (cards from your hand only) | "new" | {"set": i, "index": k (optional)}>',
}
DECLARE_SHAPE: JSON = {"set": "<set index>", "kind": '<"group" | "run" | null>'}
DRAFT_SHAPE: JSON = {"table": '<[{"kind": "group" | "run" | null (optional), "cards": [ids]}, ...]>'}


# One JSON object per distinct set, table, verdict, problem, hand, score table...: what did not change
# is then the very same object in consecutive views, which the room's diff passes over without
# looking inside (a draft step changes one set of many, and one hand): see app.engines.view_parts.


def legal(state: RummyState, seat: int | None) -> list[JSON]:
    if seat is None or state.phase is not Phase.TURN or seat != state.seat:
        return tuple_json(())
    return turn_legal(state.turn_id, bool(state.undo), state.draft != state.table)


@lru_cache(maxsize=256)
def turn_legal(turn_id: int, can_undo: bool, can_reset: bool) -> list[JSON]:
    move, declare, draft, undo, reset, commit, draw = turn_kinds(turn_id)
    return [
        move,
        declare,
        draft,
        *((undo,) if can_undo else ()),
        *((reset,) if can_reset else ()),
        commit,
        draw,
    ]


@lru_cache(maxsize=256)
def turn_kinds(turn_id: int) -> tuple[JSON, ...]:
    """Every kind of action of a turn, each one object for the whole turn."""
    turn = {"turn_id": turn_id}
    return (
        {"type": "move", **turn, **MOVE_SHAPE},
        {"type": "declare", **turn, **DECLARE_SHAPE},
        {"type": "draft", **turn, **DRAFT_SHAPE},
        {"type": "undo", **turn},
        {"type": "reset", **turn},
        {"type": "commit", **turn},
        {"type": "draw", **turn},
    )


@lru_cache(maxsize=1 << 10)
def seat_json(cards: int, opened: bool, away: bool) -> JSON:
    return {"cards": cards, "opened": opened, "away": away}


@lru_cache(maxsize=1 << 12)
def meld_json(meld: Meld) -> JSON:
    return meld.to_json()


@lru_cache(maxsize=1 << 10)
def table_json(table: Table) -> list[JSON]:
    return [meld_json(m) for m in table]


@lru_cache(maxsize=1 << 10)
def verdict_json(check: MeldCheck) -> JSON:
    return {"kind": KIND_JSON[check.kind], "ok": check.ok, "value": check.value}


@lru_cache(maxsize=1 << 10)
def problem_json(problem: Problem) -> JSON:
    return problem.to_json()


def draft_json(state: RummyState) -> JSON:
    seat = state.seat
    return turn_draft_json(
        state.table,
        state.hands[seat],
        state.draft,
        state.opened[seat],
        state.options.opening_min,
        len(state.undo),
    )


@lru_cache(maxsize=256)
def turn_draft_json(
    t0: Table, hand: tuple[CardId, ...], draft: Table, opened: bool, opening_min: int, steps: int
) -> JSON:
    """The draft with its verdict, keyed as ``draft_verdict`` plus the undo depth: a hit costs what
    the verdict's own lookup did."""
    check = draft_verdict(t0, hand, draft, opened, opening_min)
    return {
        "table": table_json(draft),
        "sets": [verdict_json(c) for c in check.sets],
        "problems": [problem_json(p) for p in check.problems],
        "valid": check.ok,
        "placed": len(check.played),
        "steps": steps,
    }


def last_json(last: TurnRecord | None, seat: int | None) -> JSON | None:
    return None if last is None else turn_json(last, seat == last.seat)


@lru_cache(maxsize=256)
def turn_json(last: TurnRecord, drawer: bool) -> JSON:
    """The last turn's summary; ``drawer``: seen by the seat that drew (its drawn cards shown)."""
    return {
        "turn_id": last.turn_id,
        "seat": last.seat,
        "end": last.end.value,
        "at": last.at,
        "played": list(last.played),
        "drew": len(last.drawn),
        "drawn": list(last.drawn) if drawer else None,
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
    return tuple_json(tuple(seats_with_highest(state.totals)) if state.phase is Phase.MATCH_OVER else ())


def view(state: RummyState, seat: int | None) -> JSON:
    return views(state, (seat,))[seat]


def views(state: RummyState, seats: Sequence[int | None]) -> dict[int | None, JSON]:
    """The views of ``seats``, sharing one public part: the table, the draft and its verdict, the
    seats' counts and the scores are the same objects in each (built, and diffed, once)."""
    check_viewers(seats, state.players)
    options = state.options
    turn = state.phase is Phase.TURN
    minutes = options.match_minutes
    table = table_json(state.table)
    draft = draft_json(state) if turn else None
    hands = [state.working_hand(i) for i in range(state.players)]
    counts = [seat_json(len(hands[i]), state.opened[i], state.away(i)) for i in range(state.players)]
    totals = tuple_json(state.totals)
    scores = each_json(record_json, state.history)
    won = winners(state)
    public: JSON = {
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
        "hand": None,
        "seats": counts,
        "passes": state.passes,
        "totals": totals,
        "scores": scores,
        "last": None,
        "winners": won,
        "you": None,
        "legal": None,
    }
    each: dict[int | None, JSON] = {}
    for seat in seats:  # the public part copied (in its key order), the seat's own parts set
        view = each[seat] = public.copy()
        view["hand"] = None if seat is None else tuple_json(hands[seat])
        view["last"] = last_json(state.last, seat)
        view["you"] = seat
        view["legal"] = legal(state, seat)
    return each


def result_detail(state: RummyState) -> JSON:
    return {"rounds": [record_json(r) for r in state.history], "totals": list(state.totals)}
