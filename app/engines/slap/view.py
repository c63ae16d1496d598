"""What a seat (or a spectator) sees of a Slap state, and the result record.

The view keeps one fixed shape (lists indexed by seat, fixed keys) so the
room's JSON-Patch diff between consecutive views stays small. Face-down cards
never appear, not even as ids: a card is shown only while it lies face up on
the table, and a closed flip is described without its cards. Nothing flags
a pair either: a slap is offered on every open flip, and an open flip's
deadline (which differs for pairs) is left out.

Every part that can stay the same between moves (a seat, a round of the score
table, the last ruling, the totals) comes from a memo, so it is the very same
object in consecutive views and the room's diff passes over it
(:mod:`app.engines.view_parts`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from app.engines.base import JSON
from app.engines.cards import CardId
from app.engines.race import Claim
from app.engines.slap.options import SlapOptions
from app.engines.slap.state import ClosedFlip, Phase, RoundRecord, SlapState
from app.engines.view_parts import check_viewers, each_json, tuple_json

_OPEN = (Phase.FLIP_OPEN, Phase.RACE)
_SHOWS_REVEAL = (Phase.NU_CALLED, Phase.FLIP_OPEN, Phase.RACE)


def winners(state: SlapState) -> list[int]:
    """All seats sharing the best total, once the match is over."""
    if state.phase is not Phase.MATCH_OVER:
        return tuple_json(())
    best = max(state.totals)
    return tuple_json(tuple(seat for seat, total in enumerate(state.totals) if total == best))


def legal(state: SlapState, seat: int | None) -> list[JSON]:
    if seat is None:
        return tuple_json(())
    if state.phase is Phase.AWAIT_NU:
        if state.options.nu_mode == "starter" and seat == state.starter:
            return _NU
        return tuple_json(())
    # A slap is offered on every open flip, pair or not: listing it only on
    # pairs would tell players there is a pair.
    if state.phase in _OPEN and not state.has_slapped(seat):
        return slap_legal(state.flip)
    return tuple_json(())


_NU: list[JSON] = [{"type": "nu"}]


@lru_cache(maxsize=256)
def slap_legal(flip: int) -> list[JSON]:
    return [{"type": "slap", "flip": flip}]


@lru_cache(maxsize=1 << 11)
def seat_json(colour: str, pile: int, card: CardId | None, penalties: int, slapped: bool) -> JSON:
    return {"colour": colour, "pile": pile, "card": card, "penalties": penalties, "slapped": slapped}


@lru_cache(maxsize=1 << 10)
def record_json(record: RoundRecord) -> JSON:
    return {
        "round": record.round,
        "end": record.end.value,
        "counts": list(record.counts),
        "placement": list(record.placement),
        "penalties": list(record.penalties),
        "scores": list(record.scores),
    }


def _claim_json(claim: Claim, reveal_at: int) -> JSON:
    reaction = claim.effective_ms if claim.effective_ms is not None else claim.at - reveal_at
    return {
        "seat": claim.seat,
        "arrival": claim.arrival,
        "at": claim.at,
        "reaction": reaction,
        "claimed": claim.reaction_ms,
        "credit": claim.credit,
        "flags": list(claim.flags),
    }


def ruling_json(last: ClosedFlip, options: SlapOptions) -> JSON:
    """The audit record of a race: every claim with all the arbiter's inputs and workings."""
    return {
        "race": f"flip:{last.flip}",
        "stimulus_at": last.reveal_at,
        "closed_at": last.closed_at,
        "winner": last.winner,
        "tied": list(last.tied),
        "tie_margin_ms": options.tie_margin_ms,
        "max_credit_ms": options.max_credit_ms,
        "compensation": options.latency_compensation,
        "claims": [c.to_json() for c in last.claims],
    }


def last_json(last: ClosedFlip | None) -> JSON | None:
    return None if last is None else closed_flip_json(last)


@lru_cache(maxsize=512)
def closed_flip_json(last: ClosedFlip) -> JSON:
    return {
        "flip": last.flip,
        "kind": last.kind.value,
        "winner": last.winner,
        "tied": list(last.tied),
        "pairs": list(last.pairs),
        "claims": [_claim_json(c, last.reveal_at) for c in last.claims],
        "reveal_at": last.reveal_at,
        "closed_at": last.closed_at,
    }


def view(state: SlapState, seat: int | None) -> JSON:
    return views(state, (seat,))[seat]


def views(state: SlapState, seats: Sequence[int | None]) -> dict[int | None, JSON]:
    """The views of ``seats``: all but ``you`` and ``legal`` is public, built once and shared."""
    check_viewers(seats, state.players)
    options = state.options
    slapped = {c.seat for c in state.slaps}
    table = state.table
    counts = [
        seat_json(colour, len(state.piles[i]), table[i] if table else None, state.penalties[i], i in slapped)
        for i, colour in enumerate(state.colours)
    ]
    limit_ms = options.round_time_limit_s * 1000
    public = {
        "game": "slap",
        "phase": state.phase.value,
        "round": state.round,
        "rounds": options.rounds,
        "flip": state.flip,
        "starter": state.starter,
        "nu_mode": options.nu_mode,
        # An open flip's deadline would say whether it holds a pair (a pair
        # waits pair_timeout_ms, a no-pair flip no_pair_window_ms): hidden.
        "deadline": None if state.phase is Phase.FLIP_OPEN else state.deadline,
        "reveal_at": state.reveal_at if state.phase in _SHOWS_REVEAL else None,
        "round_started_at": state.round_started_at,
        "time_limit_at": state.round_started_at + limit_ms if limit_ms else None,
        "seats": counts,
        "totals": tuple_json(state.totals),
        "scores": each_json(record_json, state.history),
        "last": last_json(state.last),
        "winners": winners(state),
    }
    return {seat: {**public, "you": seat, "legal": legal(state, seat)} for seat in seats}


def result_detail(state: SlapState) -> JSON:
    return {
        "colours": list(state.colours),
        "rounds": [record_json(r) for r in state.history],
        "totals": list(state.totals),
    }
