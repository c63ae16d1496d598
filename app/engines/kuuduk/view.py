"""What a seat (or a spectator) sees of a Kuuduk state, and the result record (rules 3.13).

One fixed shape: fixed keys, lists indexed by seat, rows as six entries, so
the room's JSON-Patch diff between consecutive views stays small. Public:
every row with its gap marks, hand sizes, the draw pile size, the discard top
and size, dealer, direction, turn and step, scores. Private: the cards of the
viewer's own hand (including the card just drawn). Never shown: other hands,
the draw pile's cards, the discards under the top, the RNG or the seed.
"""

from __future__ import annotations

from typing import Any

from app.engines.base import JSON
from app.engines.kuuduk.layout import SLOT_COUNT
from app.engines.kuuduk.legal import legal
from app.engines.kuuduk.state import Event, KuudukState, Phase, RoundRecord


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


def view(state: KuudukState, seat: int | None) -> JSON:
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"seat {seat} is not at this {state.players}-player table")
    playing = set(state.seats)
    seats: list[dict[str, Any]] = [
        {
            "playing": s in playing,
            "hand": len(state.hands[s]),
            "layout": list(layout.slots),
            "gaps": [slot in layout.gaps for slot in range(1, SLOT_COUNT + 1)],
            "laid": layout.laid,
            "score": state.totals[s],
        }
        for s, layout in enumerate(state.layouts)
    ]
    in_turn = state.phase is Phase.TURN
    options = state.options
    return {
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
        "seats": seats,
        "hand": list(state.hands[seat]) if seat is not None else [],
        "drawn": state.drawn if in_turn and seat == state.turn else None,
        "scores": list(state.totals),
        "rounds": [record_json(r) for r in state.history],
        "next_round": (
            {"seats": list(state.next_seats), "tiebreak": state.next_tiebreak}
            if state.phase is Phase.ROUND_END
            else None
        ),
        "last": [event_json(e) for e in state.last],
        "winners": list(state.winners),
        "you": seat,
        "legal": legal(state, seat),
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
