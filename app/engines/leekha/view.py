"""What a seat (or a spectator) sees of a Leekha state, and the result record (rules 3.10).

The view keeps one fixed shape (lists indexed by seat, fixed keys) so the
room's JSON-Patch diff between consecutive views stays small. A seat sees its
own hand, its own pass and the cards it received; of the others only how many
cards they hold and whether they passed or confirmed. Cards appear otherwise
only once played face up (the trick, the last trick, the penalty cards each
seat has taken). Cards discarded by a 37, a throw-in or an early end are never
shown.
"""

from __future__ import annotations

from typing import Any

from app.engines.base import JSON
from app.engines.leekha.deck import SEATS, points_of, team_of
from app.engines.leekha.rules import PASS_SIZE, legal_cards, legal_passes, must_keep
from app.engines.leekha.scoring import Decided
from app.engines.leekha.state import Event, LeekhaState, Phase, RoundRecord, TrickRecord


def winners(state: LeekhaState) -> tuple[int, ...]:
    """Once the match is over: Free for All, the seats in first place; 2 vs 2, the winning team."""
    if state.verdict is None:
        return ()
    return tuple(seat for seat, place in enumerate(state.verdict.places) if place == 1)


def legal(state: LeekhaState, seat: int | None) -> list[JSON]:
    """The actions ``seat`` may take now, each ready to send.

    Passes are listed one by one (at most 286, for a single view per round);
    ``pass_rule`` in the view says the same in short for a UI.
    """
    if seat is None:
        return []
    phase = state.phase
    if phase is Phase.PASS_SELECT:
        if state.passes[seat] is not None:
            return []
        return [{"type": "submit_pass", "cards": [a, b, c]} for a, b, c in legal_passes(state.hands[seat])]
    if phase in (Phase.PASS_REVEAL, Phase.ROUND_END):
        return [] if state.acked[seat] else [{"type": "ack"}]
    if phase is Phase.PLAY and seat == state.turn:
        cards = legal_cards(state.hands[seat], [c for _, c in state.trick])
        return [*({"type": "play_card", "card": c} for c in cards), {"type": "throw_in"}]
    return []


def record_json(record: RoundRecord) -> JSON:
    return {
        "round": record.round,
        "starter": record.starter,
        "end": record.end.value,
        "points": list(record.points),
        "totals": list(record.totals),
        "bl_taker": record.bl_taker,
        "sl_taker": record.sl_taker,
        "tricks": record.tricks,
    }


def _trick_json(trick: TrickRecord | None) -> JSON | None:
    if trick is None:
        return None
    return {
        "cards": [{"seat": s, "card": c} for s, c in trick.cards],
        "winner": trick.winner,
        "points": trick.points,
    }


def _event_json(event: Event | None) -> JSON | None:
    if event is None:
        return None
    return {
        "kind": event.kind.value,
        "at": event.at,
        "seat": event.seat,
        "card": event.card,
        "winner": event.winner,
        "points": event.points,
        "auto": event.auto,
    }


def _verdict_json(state: LeekhaState) -> JSON | None:
    final = state.verdict
    if final is None:
        return None
    return {"losers": list(final.losers), "places": list(final.places), "early": final.early}


def view(state: LeekhaState, seat: int | None, decided: Decided | None) -> JSON:
    if seat is not None and not 0 <= seat < SEATS:
        raise ValueError(f"seat {seat} is not at this 4-player table")
    options = state.options
    teams = options.mode == "teams"
    seats: list[dict[str, Any]] = [
        {
            "cards": len(state.hands[i]),
            "team": team_of(i) if teams else None,
            "passed": state.passes[i] is not None,
            "acked": state.acked[i],
            "points": state.round_pts[i],
            "tricks": len(state.captured[i]) // SEATS,
            "taken": [c for c in state.captured[i] if points_of(c)],
        }
        for i in range(SEATS)
    ]
    # A seat's own pass and received cards are shown while the round is played.
    in_round = state.phase in (Phase.PASS_SELECT, Phase.PASS_REVEAL, Phase.PLAY)
    own_pass = state.passes[seat] if seat is not None and in_round else None
    choosing = seat is not None and state.phase is Phase.PASS_SELECT and own_pass is None
    # The pass rule in short: ``count`` different cards, keeping a card of every ``must_keep`` colour.
    pass_rule = (
        {"count": PASS_SIZE, "must_keep": list(must_keep(state.hands[seat]))}
        if choosing and seat is not None
        else None
    )
    return {
        "game": "leekha",
        "phase": state.phase.value,
        "mode": options.mode,
        "limit": options.limit,
        "round": state.round,
        "decider": state.phase is not Phase.MATCH_END and max(state.scores) >= options.limit,
        "starter": state.starter,
        "turn": state.turn,
        "deadline": state.deadline,
        "led": state.led_colour,
        "trick": [{"seat": s, "card": c} for s, c in state.trick],
        "last_trick": _trick_json(state.last_trick),
        "tricks_done": state.tricks_done,
        "seats": seats,
        "scores": list(state.scores),
        "bl_taker": state.bl_taker,
        "sl_taker": state.sl_taker,
        "end_reason": state.end_reason.value if state.end_reason else None,
        "history": [record_json(r) for r in state.history],
        "decided": {"seat": decided.seat, "losers": list(decided.losers)} if decided else None,
        "result": _verdict_json(state),
        "hand": list(state.hands[seat]) if seat is not None else [],
        "pass": list(own_pass) if own_pass is not None else None,
        "received": list(state.received[seat]) if seat is not None and in_round else [],
        "pass_rule": pass_rule,
        "last": _event_json(state.last),
        "you": seat,
        "legal": legal(state, seat),
    }


def result_detail(state: LeekhaState) -> JSON:
    return {
        "mode": state.options.mode,
        "limit": state.options.limit,
        "rounds": [record_json(r) for r in state.history],
        "totals": list(state.scores),
        "result": _verdict_json(state),
    }
