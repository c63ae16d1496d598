"""What a seat (or a spectator) sees of a Leekha state, and the result record (rules 3.10).

The view keeps one fixed shape (lists indexed by seat, fixed keys) so the
room's JSON-Patch diff between consecutive views stays small. A seat sees its
own hand, its own pass and the cards it received; of the others only how many
cards they hold and whether they passed or confirmed. Cards appear otherwise
only once played face up (the trick, the last trick, the penalty cards each
seat has taken). Cards discarded by a 37, a throw-in or an early end are never
shown.

The public part is built once for all seats, and every part that can stay the
same between moves (a seat, the trick, a round of the score table, a hand, a
list of legal actions) comes from a memo, so it is the very same object in
consecutive views and the room's diff passes over it
(:mod:`app.engines.view_parts`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from app.engines.base import JSON
from app.engines.cards import CardId
from app.engines.leekha.deck import SEATS, points_of, team_of
from app.engines.leekha.rules import PASS_SIZE, legal_cards, legal_passes, must_keep
from app.engines.leekha.scoring import Decided
from app.engines.leekha.state import Event, Hand, LeekhaState, Phase, RoundRecord, TrickRecord, Verdict
from app.engines.view_parts import check_viewers, each_json, tuple_json


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
        return tuple_json(())
    phase = state.phase
    if phase is Phase.PASS_SELECT:
        if state.passes[seat] is not None:
            return tuple_json(())
        return passes_legal(state.hands[seat])
    if phase in (Phase.PASS_REVEAL, Phase.ROUND_END):
        return tuple_json(()) if state.acked[seat] else _ACK
    if phase is Phase.PLAY and seat == state.turn:
        return plays_legal(legal_cards(state.hands[seat], [c for _, c in state.trick]))
    return tuple_json(())


_ACK: list[JSON] = [{"type": "ack"}]


@lru_cache(maxsize=32)  # an entry is up to 286 passes (~45 KB); only hands passing now are asked
def passes_legal(hand: Hand) -> list[JSON]:
    return [{"type": "submit_pass", "cards": [a, b, c]} for a, b, c in legal_passes(hand)]


@lru_cache(maxsize=256)  # one seat of each room is on turn
def plays_legal(cards: tuple[CardId, ...]) -> list[JSON]:
    return [*({"type": "play_card", "card": c} for c in cards), {"type": "throw_in"}]


@lru_cache(maxsize=1 << 10)
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


@lru_cache(maxsize=512)
def trick_json(trick: tuple[tuple[int, CardId], ...]) -> list[JSON]:
    return [played_json(s, c) for s, c in trick]


@lru_cache(maxsize=256)  # 4 seats x 52 cards
def played_json(seat: int, card: CardId) -> JSON:
    return {"seat": seat, "card": card}


def _trick_record_json(trick: TrickRecord | None) -> JSON | None:
    return None if trick is None else trick_record_json(trick)


@lru_cache(maxsize=256)
def trick_record_json(trick: TrickRecord) -> JSON:
    return {"cards": trick_json(trick.cards), "winner": trick.winner, "points": trick.points}


def _event_json(event: Event | None) -> JSON | None:
    return None if event is None else event_json(event)


@lru_cache(maxsize=1 << 10)
def event_json(event: Event) -> JSON:
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
    return None if state.verdict is None else verdict_json(state.verdict)


@lru_cache(maxsize=256)
def verdict_json(final: Verdict) -> JSON:
    return {"losers": list(final.losers), "places": list(final.places), "early": final.early}


@lru_cache(maxsize=256)
def decided_json(decided: Decided) -> JSON:
    return {"seat": decided.seat, "losers": list(decided.losers)}


@lru_cache(maxsize=1 << 12)
def taken_json(captured: Hand) -> list[CardId]:
    """The penalty cards among those a seat has captured (the rest are never shown)."""
    return [c for c in captured if points_of(c)]


@lru_cache(maxsize=1 << 11)
def seat_json(cards: int, team: int | None, passed: bool, acked: bool, points: int, captured: Hand) -> JSON:
    return {
        "cards": cards,
        "team": team,
        "passed": passed,
        "acked": acked,
        "points": points,
        "tricks": len(captured) // SEATS,
        "taken": taken_json(captured),
    }


@lru_cache(maxsize=256)
def pass_rule_json(keep: tuple[str, ...]) -> JSON:
    """The pass rule in short: ``count`` different cards, keeping a card of every ``must_keep`` colour."""
    return {"count": PASS_SIZE, "must_keep": list(keep)}


def view(state: LeekhaState, seat: int | None, decided: Decided | None) -> JSON:
    return views(state, (seat,), decided)[seat]


def views(state: LeekhaState, seats: Sequence[int | None], decided: Decided | None) -> dict[int | None, JSON]:
    """The views of ``seats``: all but the seat's own cards and actions is public, built once and shared."""
    check_viewers(seats, SEATS)
    options = state.options
    teams = options.mode == "teams"
    passes = state.passes
    public_seats = [
        seat_json(
            len(state.hands[i]),
            team_of(i) if teams else None,
            passes[i] is not None,
            state.acked[i],
            state.round_pts[i],
            state.captured[i],
        )
        for i in range(SEATS)
    ]
    public: JSON = {
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
        "trick": trick_json(state.trick),
        "last_trick": _trick_record_json(state.last_trick),
        "tricks_done": state.tricks_done,
        "seats": public_seats,
        "scores": tuple_json(state.scores),
        "bl_taker": state.bl_taker,
        "sl_taker": state.sl_taker,
        "end_reason": state.end_reason.value if state.end_reason else None,
        "history": each_json(record_json, state.history),
        "decided": decided_json(decided) if decided else None,
        "result": _verdict_json(state),
    }
    last = _event_json(state.last)
    # A seat's own pass and received cards are shown while the round is played.
    in_round = state.phase in (Phase.PASS_SELECT, Phase.PASS_REVEAL, Phase.PLAY)
    out: dict[int | None, JSON] = {}
    for seat in seats:
        own_pass = passes[seat] if seat is not None and in_round else None
        choosing = seat is not None and state.phase is Phase.PASS_SELECT and own_pass is None
        out[seat] = {
            **public,
            "hand": tuple_json(state.hands[seat] if seat is not None else ()),
            "pass": tuple_json(own_pass) if own_pass is not None else None,
            "received": tuple_json(state.received[seat] if seat is not None and in_round else ()),
            "pass_rule": pass_rule_json(must_keep(state.hands[seat]))
            if choosing and seat is not None
            else None,
            "last": last,
            "you": seat,
            "legal": legal(state, seat),
        }
    return out


def result_detail(state: LeekhaState) -> JSON:
    return {
        "mode": state.options.mode,
        "limit": state.options.limit,
        "rounds": [record_json(r) for r in state.history],
        "totals": list(state.scores),
        "result": _verdict_json(state),
    }
