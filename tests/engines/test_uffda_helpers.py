"""Helpers for the UFF-DA! engine tests (no tests here): tables with chosen hands, boards and piles.

A table is a started game whose round-in-play parts are replaced (dataclasses.replace),
which keeps every other part of the state exactly as the engine built it.
"""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from app.engines.base import IllegalAction, Move, SeatSetup
from app.engines.cards import CardId
from app.engines.uffda import ENGINE, Kind, Step, Turn, UffdaOptions, UffdaState
from app.engines.uffda.board import new_branches, place, set_coin
from app.engines.uffda.dominoes import DECK, double, has
from app.engines.uffda.invariants import problems
from app.engines.uffda.penalties import stimulus_key
from tests.engines.helpers import same_links

A, B, C, D = 0, 1, 2, 3
T0 = 10_000


def new_game(players: int = 4, *, seed: str = "test", now: int = 0, **options) -> UffdaState:
    options.setdefault("turn_seconds", 0)
    # The scenarios' worked times were written for a 150 ms credit and a 160 ms race window.
    options.setdefault("max_credit_ms", 150)
    options.setdefault("race_window_ms", 160)
    return ENGINE.start([SeatSetup() for _ in range(players)], UffdaOptions(**options), seed, now)


def table(
    hands,
    *,
    seat: int = A,
    round_no: int = 1,
    board=None,
    coins=None,
    tops=((), ()),
    piles=None,
    **options,
) -> UffdaState:
    """Round ``round_no`` in play at T0 with ``seat`` to move in OPEN.

    ``board`` maps a branch to cards laid in a chain from the centre (see :func:`lay`);
    ``coins`` maps a branch to its coin. The piles are ``piles`` if given (then the cards
    nobody holds are out of play), else every other card with ``tops`` on top.
    """
    players = len(hands)
    state = new_game(players, **options)
    center = round_no - 1
    state = replace(
        state,
        round=round_no,
        dealer=seat,
        hands=tuple(tuple(sorted(h)) for h in hands),
        branches=new_branches(players, center),
        double=None,
        turn=Turn(seat, 1, Step.OPEN, T0, None),
        offences=(),
        last=(),
        recent=(),
        previous=None,
        released=(0,) * players,
    )
    for branch, cards in (board or {}).items():
        state = lay(state, branch, *cards)
    for branch, coin in (coins or {}).items():
        state = replace(state, branches=set_coin(state.branches, branch, coin))
    if piles is not None:
        return replace(state, piles=(tuple(piles[0]), tuple(piles[1])))
    used = {c for h in hands for c in h} | {p.card for b in state.branches for p in b.cards}
    used |= {*tops[0], *tops[1]}
    rest = [c for c in DECK if c != double(center) and c not in used]
    half = (len(rest) + 1) // 2
    state = replace(state, piles=((*tops[0], *rest[:half]), (*tops[1], *rest[half:])))
    assert not problems(state), problems(state)
    return state


def lay(state: UffdaState, branch: int, *cards: str) -> UffdaState:
    """Put cards on a branch as set-up (no turn logic): each goes on the newest end it
    matches, or fills the active double."""
    branches, active = state.branches, state.double
    owner = branches[branch].owner
    for card in cards:
        if active is not None:
            target = (active.branch, active.card, active.open_sides()[0])
        else:
            end = next(e for e in reversed(branches[branch].ends) if has(card, e.value))
            target = (branch, end.on, end.side)
        branches, active = place(branches, active, target, CardId(card), A if owner is None else owner)
    return replace(state, branches=branches, double=active)


def end_at(state: UffdaState, branch: int, value: int) -> dict:
    """The action fields naming the open end of ``value`` on a branch."""
    end = next(e for e in state.branches[branch].ends if e.value == value)
    return {"branch": branch, "on": end.on, "side": end.side}


def side_of(state: UffdaState, side: int = 0) -> dict:
    """The action fields naming a side of the active double."""
    assert state.double is not None
    return {"branch": state.double.branch, "on": state.double.card, "side": side}


# What a hand-made table may break on purpose: cards left out of play (piles given), and a
# late round or totals set without the rounds before it.
SET_UP = {"cards are not conserved", "the game ended early", "totals are not the sum of the round scores"}


def move(state: UffdaState, seat: int, action: object, at: int, rtt: int | None = None) -> Move:
    """The move as the room hands it over: a measured link (``rtt``) comes with timing in which every
    seat has that link and was shown each live mistake when it was made."""
    if rtt is None:
        return Move(seat, action, at)  # type: ignore[arg-type]
    live = set(ENGINE.stimuli(state))
    sent = {key: o.created_at for o in state.offences if (key := stimulus_key(o)) in live}
    return Move(seat, action, at, rtt, same_links(state.players, rtt, sent))  # type: ignore[arg-type]


def act(state: UffdaState, seat: int, action: dict, at: int, rtt: int | None = None) -> UffdaState:
    new = ENGINE.apply(state, move(state, seat, action, at, rtt))
    wrong = [p for p in problems(new) if p not in SET_UP and not p.endswith("bad record")]
    assert not wrong, wrong
    return new


def play(state: UffdaState, seat: int, card: str, where: dict, at: int, **flags) -> UffdaState:
    return act(state, seat, {"type": "play", "card": card, **where, **flags}, at)


def draw(state: UffdaState, seat: int, at: int, pile: int = 0, **flags) -> UffdaState:
    return act(state, seat, {"type": "draw", "pile": pile, **flags}, at)


def nxt(state: UffdaState, seat: int, at: int) -> UffdaState:
    return act(state, seat, {"type": "next"}, at)


def call(
    state: UffdaState,
    seat: int,
    kind: Kind | str,
    target: int,
    at: int,
    *,
    rtt: int | None = None,
    reaction: int | None = None,
    give: str | None = None,
    uffda: bool = False,
) -> UffdaState:
    action: dict = {"type": "call", "kind": Kind(kind).value, "target": target}
    if reaction is not None:
        action["reaction_ms"] = reaction
    if give is not None:
        action["give_card"] = give
    if uffda:
        action["uffda"] = True
    return act(state, seat, action, at, rtt)


def declare(state: UffdaState, seat: int, at: int, *, rtt=None, reaction=None) -> UffdaState:
    action: dict = {"type": "declare_uffda"}
    if reaction is not None:
        action["reaction_ms"] = reaction
    return act(state, seat, action, at, rtt)


def illegal(state: UffdaState, seat: int, action, at: int = T0 + 50, rtt: int | None = None) -> str:
    """Apply a move that must be rejected; check the state was left alone and return the code."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, move(state, seat, action, at, rtt))
    assert state == before
    assert info.value.message and info.value.message[0].isupper()
    return info.value.code


def settle(state: UffdaState) -> UffdaState:
    """Fire the earliest pending deadline (a race close, a closing window, a timer)."""
    deadline = ENGINE.next_deadline(state)
    assert deadline is not None
    return ENGINE.tick(state, deadline)


def kinds(state: UffdaState) -> list[str]:
    return [e.kind for e in state.last]


def turn_actions(state: UffdaState, seat: int) -> list[dict]:
    """The seat's listed actions but the shouts (calls and the late UFF-DA!), which the view
    offers wherever they are possible at all (rules 8.36)."""
    return [a for a in ENGINE.view(state, seat)["legal"] if a["type"] not in ("call", "declare_uffda")]


def offences(state: UffdaState) -> list[tuple[str, int]]:
    return [(o.kind.value, o.offender) for o in state.offences]
