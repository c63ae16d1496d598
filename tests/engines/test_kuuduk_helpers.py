"""Helpers for the Kuuduk tests (no tests here): tables with chosen hands, rows and piles.

States are arranged by replacing parts of a started state, which keeps every
other field exactly as the engine built it; ``arrange`` keeps all 77 cards
accounted for (cards it does not place go to the draw pile).
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest

from app.engines.base import IllegalAction, Move, SeatSetup
from app.engines.kuuduk import ENGINE, KuudukOptions, KuudukState, Layout, Phase, Step, build_deck
from app.engines.kuuduk.layout import interior_empty, is_valid
from tests.engines.helpers import all_views, cards_shown

# Every card id (letter cards, then black cards); unanchored, so it also finds ids inside longer text.
CARD_RE = re.compile(r"[kud][GOP][123]-[1-3]|s(?:wipe_(?:left|right|any)|witch)-[1-4]")
DECK = Counter(build_deck())


def new_game(
    players: int = 4, *, dealer: int = 0, seed: str = "test", now: int = 0, **options
) -> KuudukState:
    options.setdefault("first_dealer", dealer)
    return ENGINE.start([SeatSetup()] * players, KuudukOptions(**options), seed, now)


def row(cells: Mapping[int, str | None] | None = None) -> Layout:
    """A row from ``{slot: card}``; empty slots between cards are marked swipe gaps."""
    cells = cells or {}
    slots = tuple(cells.get(i) for i in range(1, 7))
    return Layout(slots, interior_empty(slots))


def all_cards(state: KuudukState) -> Counter[str]:
    cards = Counter(state.draw_pile) + Counter(state.discard)
    for hand in state.hands:
        cards.update(hand)
    for layout in state.layouts:
        cards.update(layout.cards())
    return cards


def assert_conserved(state: KuudukState) -> None:
    assert all_cards(state) == DECK


def arrange(
    state: KuudukState,
    *,
    hands: Mapping[int, Sequence[str]] | None = None,
    layouts: Mapping[int, Mapping[int, str | None] | Layout] | None = None,
    discard: Sequence[str] | None = None,
    draw_top: Sequence[str] = (),
    **fields,
) -> KuudukState:
    """Give the named seats these hands and rows, the discard pile these cards (top last) and the
    draw pile these top cards; other hands keep their size with cards not named anywhere."""
    hands = hands or {}
    rows = {s: v if isinstance(v, Layout) else row(v) for s, v in (layouts or {}).items()}
    named = [c for h in hands.values() for c in h] + [c for r in rows.values() for c in r.cards()]
    named += [*(discard or []), *draw_top]
    assert len(named) == len(set(named)), "a card is named twice"
    taken = set(named)
    new_layouts = [rows.get(s, layout) for s, layout in enumerate(state.layouts)]
    for s, layout in enumerate(new_layouts):
        if s not in rows:
            assert not set(layout.cards()) & taken, f"seat {s}'s row holds a named card"
    new_discard = tuple(discard) if discard is not None else tuple(c for c in state.discard if c not in taken)
    new_hands = [
        list(hands[s]) if s in hands else [c for c in state.hands[s] if c not in taken]
        for s in range(state.players)
    ]
    placed = taken | set(new_discard) | {c for h in new_hands for c in h}
    placed |= {c for layout in new_layouts for c in layout.cards()}
    pool = [c for c in dict.fromkeys((*state.draw_pile, *build_deck())) if c not in placed]
    for s in range(state.players):
        if s not in hands:
            while len(new_hands[s]) < len(state.hands[s]):
                new_hands[s].append(pool.pop(0))
    arranged = replace(
        state,
        hands=tuple(tuple(h) for h in new_hands),
        layouts=tuple(new_layouts),
        discard=new_discard,
        draw_pile=(*draw_top, *pool),
        **fields,
    )
    assert_conserved(arranged)
    assert all(is_valid(layout) for layout in arranged.layouts)
    return arranged


def act(state: KuudukState, seat: int, action: Mapping[str, Any], at: int = 1000) -> KuudukState:
    return ENGINE.apply(state, Move(seat, action, at))


def illegal(state: KuudukState, seat: int, action: Any, at: int = 1000) -> str:
    """Apply a move that must be rejected; check the state was left alone and return the code."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, Move(seat, action, at))
    assert state == before
    assert info.value.message and info.value.message[0].isupper() and info.value.message.endswith((".", "!"))
    return info.value.code


def draw_and_discard(state: KuudukState, at: int = 1000) -> KuudukState:
    """The player on turn draws and throws the drawn card away."""
    seat = state.turn
    state = act(state, seat, {"type": "draw"}, at)
    return act(state, seat, {"type": "discard", "card": state.drawn}, at)


def views(state: KuudukState) -> list[dict[str, Any]]:
    return all_views(ENGINE, state, state.players)


def cards_in(view: Mapping[str, Any]) -> set[str]:
    return cards_shown(CARD_RE, view)


def hidden_from(state: KuudukState, seat: int | None) -> set[str]:
    """Cards ``seat`` must not see: other hands, the draw pile, the discards under the top."""
    hidden = set(state.draw_pile) | set(state.discard[:-1])
    for s, hand in enumerate(state.hands):
        if s != seat:
            hidden |= set(hand)
    return hidden


def in_play(state: KuudukState, seat: int, step: Step = Step.ACQUIRE) -> KuudukState:
    """Make ``seat`` the player on turn at ``step`` (a fresh, unrestarted turn)."""
    assert state.phase is Phase.TURN
    return replace(state, turn=seat, step=step, restarted=False, drawn=None)
