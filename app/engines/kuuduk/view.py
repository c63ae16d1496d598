"""What a seat (or a spectator) sees of a Kuuduk state, and the result record (rules 3.13).

One fixed shape: fixed keys, lists indexed by seat, rows as six entries, so
the room's JSON-Patch diff between consecutive views stays small. Public:
every row with its gap marks, hand sizes, the draw pile size, the discard top
and size, dealer, direction, turn and step, scores. Private: the cards of the
viewer's own hand (including the card just drawn). Never shown: other hands,
the draw pile's cards, the discards under the top, the RNG or the seed.

The public part is built once for all seats, and every part that can stay the
same between moves (a seat's row, a round of the score table, the last
events) comes from a memo, so it is the very same object in consecutive views
and the room's diff passes over it (:mod:`app.engines.view_parts`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from app.engines.base import JSON
from app.engines.kuuduk.layout import SLOT_COUNT, Layout
from app.engines.kuuduk.legal import legal
from app.engines.kuuduk.state import Event, KuudukState, Phase, RoundRecord
from app.engines.view_parts import check_viewers, each_json, tuple_json


@lru_cache(maxsize=1 << 10)
def record_json(record: RoundRecord) -> JSON:
    return {
        "round": record.round,
        "seats": list(record.seats),
        "tiebreak": record.tiebreak,
        "winner": record.winner,
        "void": record.winner is None,
        "laid": list(record.laid),
        "held": list(record.held),
        "scores": list(record.scores),
        "counted": record.counted,
        "turns": record.turns,
    }


@lru_cache(maxsize=1 << 10)
def event_json(event: Event) -> JSON:
    return {
        "type": event.kind,
        "seat": event.seat,
        "card": event.card,
        "slot": event.slot,
        "victim": event.victim,
        "from_slot": event.from_slot,
        "taken": event.taken,
        "rearranged": event.rearranged,
        "direction": None if event.direction is None else event.direction.value,
        "count": event.count,
    }


@lru_cache(maxsize=1 << 10)
def seat_json(playing: bool, hand: int, layout: Layout, score: int) -> JSON:
    return {
        "playing": playing,
        "hand": hand,
        "layout": list(layout.slots),
        "gaps": [slot in layout.gaps for slot in range(1, SLOT_COUNT + 1)],
        "laid": layout.laid,
        "score": score,
    }


@lru_cache(maxsize=256)
def next_round_json(seats: tuple[int, ...], tiebreak: bool) -> JSON:
    return {"seats": list(seats), "tiebreak": tiebreak}


def view(state: KuudukState, seat: int | None) -> JSON:
    return views(state, (seat,))[seat]


def views(state: KuudukState, seats: Sequence[int | None]) -> dict[int | None, JSON]:
    """The views of ``seats``: all but the seat's own hand and actions is public, built once and shared."""
    check_viewers(seats, state.players)
    playing = set(state.seats)
    in_turn = state.phase is Phase.TURN
    options = state.options
    public: JSON = {
        "game": "kuuduk",
        "phase": state.phase.value,
        "step": state.step.value if in_turn else None,
        "round": state.round,
        "tiebreak": state.tiebreak,
        "mode": options.mode,
        "target": options.target,
        "dealer": state.dealer,
        "direction": state.direction.value,
        "turn": state.turn if in_turn else None,
        "restarted": state.restarted if in_turn else False,
        "deadline": state.deadline,
        "draw_pile": len(state.draw_pile),
        "discard_top": state.discard[-1] if state.discard else None,
        "discard_size": len(state.discard),
        "stall": state.stall,
        "stall_limit": state.stall_limit,
        "void_streak": state.void_streak,
        "void_rounds": options.void_rounds,
        "seats": [
            seat_json(s in playing, len(state.hands[s]), layout, state.totals[s])
            for s, layout in enumerate(state.layouts)
        ],
    }
    rest: JSON = {
        "scores": tuple_json(state.totals),
        "rounds": each_json(record_json, state.history),
        "next_round": (
            next_round_json(state.next_seats, state.next_tiebreak) if state.phase is Phase.ROUND_END else None
        ),
        "last": each_json(event_json, state.last),
        "winners": tuple_json(state.winners),
    }
    return {
        seat: {
            **public,
            "hand": tuple_json(state.hands[seat] if seat is not None else ()),
            "drawn": state.drawn if in_turn and seat == state.turn else None,
            **rest,
            "you": seat,
            "legal": legal(state, seat),
        }
        for seat in seats
    }


def result_detail(state: KuudukState) -> JSON:
    return {
        "mode": state.options.mode,
        "target": state.options.target,
        "rounds": [record_json(r) for r in state.history],
        "totals": list(state.totals),
        "void_end": ended_by_void_rounds(state),
    }


def ended_by_void_rounds(state: KuudukState) -> bool:
    """Whether the game ended on too many void rounds in a row (DECISION (void rounds))."""
    return state.phase is Phase.GAME_OVER and state.history[-1].winner is None
