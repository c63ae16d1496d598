"""Rummy rules engine: every scenario of rules section 6, plus the engine contract.

Notation follows the rules: seats A, B, C clockwise, A to move. Cards are
written short in tests: ``R7`` is ``R07a``, ``R7b`` the second copy, ``J2`` a
joker. A turn is set up by replacing hands, table and pool on a started
state (:func:`arrange`), which keeps every other part of the state exactly as
the engine built it; cards that no hand, set or pool holds are simply out of
that test's game.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest
from pydantic import ValidationError

from app.engines.base import IllegalAction, Move, SeatSetup
from app.engines.cards import CardId
from app.engines.rng import Rng
from app.engines.rummy import (
    ENGINE,
    Kind,
    Meld,
    Phase,
    RoundEnd,
    RummyEngine,
    RummyOptions,
    RummyState,
    TableRejected,
    TurnEnd,
    check_meld,
)
from app.engines.rummy.deck import DECK, JOKERS
from tests.engines.helpers import all_views, assert_json_ready, cards_shown, known

A, B, C, D = 0, 1, 2, 3
T0 = 10_000
"""When the arranged turn starts."""
CARD_RE = re.compile(r"\b(?:[RBYK]\d\d[ab]|J[1-4])\b")


# -- helpers -------------------------------------------------------------------


def ids(text: str) -> tuple[CardId, ...]:
    """``"R7 B7b J2"`` -> ``("R07a", "B07b", "J2")``."""
    out: list[CardId] = []
    for word in text.split():
        if word[0] == "J":
            out.append(CardId(word))
            continue
        copy_tag = word[-1] if word[-1] in "ab" else "a"
        out.append(CardId(f"{word[0]}{int(word[1:].rstrip('ab')):02d}{copy_tag}"))
    return tuple(out)


def meld(text: str, kind: str | None = None) -> Meld:
    """A set as a player lays it (kind only if given)."""
    return Meld(ids(text), None if kind is None else Kind(kind))


def laid(text: str, kind: str | None = None) -> Meld:
    """A valid set as it lies on a committed table (kind resolved)."""
    check = check_meld(ids(text), None if kind is None else Kind(kind))
    assert check.ok, (text, check)
    return Meld(ids(text), check.kind)


def table_json(melds: Sequence[Meld]) -> list[dict]:
    return [m.to_json() for m in melds]


def new_game(players: int = 3, *, seed: str = "test", now: int = T0, **options) -> RummyState:
    return ENGINE.start([SeatSetup()] * players, RummyOptions(**options), seed, now)


def arrange(
    state: RummyState,
    hands: Sequence[str | None],
    table: Sequence[Meld] = (),
    *,
    seat: int = A,
    opened: bool | Sequence[bool] = False,
    pool: str | None = None,
    at: int | None = None,
) -> RummyState:
    """Seat ``seat``'s turn, started ``at`` (default: when the state's turn did), with
    these hands (None: 14 unused cards), committed table and pool (None: every
    card left over, in deck order)."""
    n = state.players
    used = {c for h in hands if h for c in ids(h)} | {c for m in table for c in m.cards}
    rest = [c for c in DECK if c not in used]
    filled = []
    for h in hands:
        if h is None:
            filled.append(tuple(rest[:14]))
            del rest[:14]
        else:
            filled.append(ids(h))
    assert len(filled) == n
    start = state.turn_started_at if at is None else at
    opened_t = tuple(opened) if isinstance(opened, Sequence) else (opened,) * n
    arranged = replace(
        state,
        phase=Phase.TURN,
        seat=seat,
        round_starter=seat,
        hands=tuple(filled),
        table=tuple(table),
        draft=tuple(table),
        undo=(),
        pool=tuple(rest) if pool is None else ids(pool),
        opened=opened_t,
        passes=0,
        timeouts=(0,) * n,
        turn_started_at=start,
        deadline=start + state.options.turn_ms,
    )
    return arranged


def turn(state: RummyState, **fields) -> dict:
    return {"turn_id": state.turn_id, **fields}


def send(state: RummyState, seat: int, kind: str, /, at: int = T0 + 1_000, **fields) -> RummyState:
    return ENGINE.apply(state, Move(seat, {"type": kind, **turn(state, **fields)}, at))


def commit(state: RummyState, *melds: Meld, at: int = T0 + 1_000, seat: int | None = None) -> RummyState:
    return send(state, state.seat if seat is None else seat, "commit", at, table=table_json(melds))


def draft(state: RummyState, *melds: Meld, at: int = T0 + 1_000) -> RummyState:
    return send(state, state.seat, "draft", at, table=table_json(melds))


def illegal(state: RummyState, seat: int, action: Any, at: int = T0 + 1_000) -> IllegalAction:
    """Apply a move that must be rejected; check the state was left alone and return the error."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, Move(seat, action, at))
    assert state == before
    assert info.value.message and info.value.message[0].isupper()
    return info.value


def rejected(state: RummyState, seat: int, kind: str, /, at: int = T0 + 1_000, **fields) -> IllegalAction:
    return illegal(state, seat, {"type": kind, **turn(state, **fields)}, at)


def commit_code(state: RummyState, *melds: Meld) -> str:
    return rejected(state, state.seat, "commit", table=table_json(melds)).code


def timeout(state: RummyState) -> RummyState:
    """Fire the turn's timeout exactly when it is due."""
    due = ENGINE.next_deadline(state)
    assert state.phase is Phase.TURN and due == known(state.deadline) + state.options.commit_grace_ms
    assert ENGINE.tick(state, due - 1) is state
    return ENGINE.tick(state, due)


def next_turn(state: RummyState) -> RummyState:
    assert state.phase is Phase.TURN_RESULT
    return ENGINE.tick(state, known(state.deadline))


def views(state: RummyState) -> list[dict]:
    return all_views(ENGINE, state, state.players)


def cards_in(view: dict) -> set[str]:
    return cards_shown(CARD_RE, view)


# -- 1. deck and deal --------------------------------------------------------------


def test_deck_and_deal():
    assert len(DECK) == len(set(DECK)) == 108
    assert JOKERS == ("J1", "J2", "J3", "J4") and sum(c.startswith("J") for c in DECK) == 4
    faces = [c[:3] for c in DECK if not c.startswith("J")]
    assert len(faces) == 104 and all(faces.count(f) == 2 for f in faces)
    assert {f[0] for f in faces} == set("RBYK") and {int(f[1:]) for f in faces} == set(range(1, 14))
    for players, pool in ((2, 80), (3, 66), (4, 52)):
        state = new_game(players)
        assert [len(h) for h in state.hands] == [14] * players and len(state.pool) == pool
        assert sorted(c for h in state.hands for c in h) + sorted(state.pool) != []
        assert sorted([*(c for h in state.hands for c in h), *state.pool]) == sorted(DECK)
        assert state.table == () and state.opened == (False,) * players
        assert state.phase is Phase.TURN and state.round == 1 and state.turn_id == 1


def test_starter_is_drawn_by_lot_from_the_seed():
    starters = {new_game(3, seed=f"lot-{i}").seat for i in range(30)}
    assert starters == {0, 1, 2}
    assert new_game(3, seed="same") == new_game(3, seed="same")
    assert new_game(3, seed="same").rng != Rng.from_seed("same")  # it has dealt since


# -- 5-7. the opening ----------------------------------------------------------------


def test_opening_accepted():
    state = arrange(new_game(), ["R11 J1 R13 B10 Y10 K10 R2 B3 Y4 K5 R6 B8 Y12 K1", None, None])
    after = commit(state, meld("R11 J1 R13"), meld("B10 Y10 K10"))
    assert after.opened == (True, False, False)
    assert len(after.hands[A]) == 8 and set(after.hands[A]) == set(ids("R2 B3 Y4 K5 R6 B8 Y12 K1"))
    assert after.table == (laid("R11 J1 R13", "run"), laid("B10 Y10 K10", "group"))
    assert after.phase is Phase.TURN_RESULT and known(after.last).end is TurnEnd.COMMIT
    assert known(after.last).played == ids("R11 J1 R13 B10 Y10 K10") and known(after.last).new_sets == 2


def test_opening_below_the_minimum_is_rejected_and_the_player_may_draw():
    state = arrange(new_game(), ["R13 B13 Y13 R2 B3", None, None])
    error = rejected(state, A, "commit", table=table_json([meld("R13 B13 Y13")]))
    assert error.code == "OPENING_BELOW_MIN" and "at least 40" in error.message and "39" in error.message
    drew = send(state, A, "draw")
    assert len(drew.hands[A]) == 6 and drew.hands[A][-1] == state.pool[0]
    assert len(drew.pool) == len(state.pool) - 1 and drew.table == state.table == ()
    assert drew.opened[A] is False and known(drew.last).end is TurnEnd.DRAW


def test_opening_may_not_touch_the_table():
    table = [laid("R3 R4 R5")]
    state = arrange(new_game(), ["R6 R13 B13 Y13 K13 B2", None, None], table)
    assert commit_code(state, meld("R3 R4 R5 R6"), meld("R13 B13 Y13 K13")) == "OPENING_TABLE_CHANGED"
    after = commit(state, meld("R3 R4 R5"), meld("R13 B13 Y13 K13"))
    assert after.opened[A] and set(after.hands[A]) == set(ids("R6 B2"))


def test_opening_counts_only_new_sets_and_any_number_of_them():
    state = arrange(new_game(), ["R1 R2 R3 B4 Y4 K4 K9 K10 K11", None, None], [laid("B10 Y10 K10b")])
    # 6 + 12 + 30 = 48 from three new sets; the table's 30 points do not count.
    after = commit(state, laid("B10 Y10 K10b"), meld("R1 R2 R3"), meld("B4 Y4 K4"), meld("K9 K10 K11"))
    assert after.opened[A]
    assert commit_code(state, laid("B10 Y10 K10b"), meld("R1 R2 R3"), meld("B4 Y4 K4")) == "OPENING_BELOW_MIN"


# -- 8-11. rebuilding ----------------------------------------------------------------


def test_rebuild_takes_the_fourth_card_of_a_group():
    state = arrange(new_game(), ["Y4 Y6 R1", None, None], [laid("B5 R5 K5 Y5")], opened=True)
    after = commit(state, meld("B5 R5 K5"), meld("Y4 Y5 Y6"))
    assert after.table == (laid("B5 R5 K5", "group"), laid("Y4 Y5 Y6", "run"))
    assert after.hands[A] == ids("R1") and known(after.last).rebuilt == 1 and known(after.last).new_sets == 2


def test_source_set_must_keep_three_cards():
    state = arrange(new_game(), ["R9 Y9 B6 K1", None, None], [laid("B7 B8 B9")], opened=True)
    error = rejected(state, A, "commit", table=table_json([meld("B7 B8"), meld("B9 R9 Y9")]))
    assert error.code == "SET_TOO_SHORT" and error.message.startswith("Set 1 needs at least 3 cards")
    assert isinstance(error, TableRejected) and [(p.code, p.set) for p in error.problems] == [
        ("SET_TOO_SHORT", 0)
    ]
    # The clock keeps running; a valid table at 1:40 is accepted.
    assert ENGINE.next_deadline(state) == T0 + 120_500
    after = commit(state, meld("B6 B7 B8"), meld("B9 R9 Y9"), at=T0 + 100_000)
    assert after.phase is Phase.TURN_RESULT and after.hands[A] == ids("K1")
    assert known(after.last).at == T0 + 100_000 and known(after.deadline) == T0 + 100_000 + 800


def test_table_card_cannot_go_back_to_a_hand():
    state = arrange(new_game(), ["K6 K7 K8", None, None], [laid("B5 R5 K5 Y5")], opened=True)
    error = rejected(state, A, "commit", table=table_json([meld("B5 R5 Y5"), meld("K6 K7 K8")]))
    assert error.code == "TABLE_CARD_MISSING" and "K05a" in error.message
    assert isinstance(error, TableRejected)
    assert error.problems[0].cards == ids("K5")


def test_rearranging_only_is_not_a_turn():
    state = arrange(new_game(), ["K1", None, None], [laid("R3 R4 R5 R6 R7 R8")], opened=True)
    assert commit_code(state, meld("R3 R4 R5"), meld("R6 R7 R8")) == "NO_HAND_CARD_PLAYED"


def test_every_failed_check_is_reported():
    state = arrange(new_game(), ["K1 K2 B9", None, None], [laid("R3 R4 R5 R6")], opened=True)
    error = rejected(state, A, "commit", table=table_json([meld("R3 R4"), meld("R5 R6 K1"), meld("K2 B9")]))
    assert isinstance(error, TableRejected)
    assert [(p.code, p.set) for p in error.problems] == [
        ("SET_TOO_SHORT", 0),
        ("RUN_COLOUR_MISMATCH", 1),
        ("RUN_NOT_CONSECUTIVE", 1),
        ("SET_TOO_SHORT", 2),
        ("RUN_COLOUR_MISMATCH", 2),
        ("RUN_NOT_CONSECUTIVE", 2),
    ]
    assert error.message.count("Set ") == 6


# -- 12-15. jokers -------------------------------------------------------------------


def test_joker_exchange():
    state = arrange(new_game(), ["R5 B5 Y5 K1", None, None], [laid("R4 J1 R6")], opened=True)
    after = commit(state, meld("R4 R5 R6"), meld("B5 Y5 J1"))
    assert after.table == (laid("R4 R5 R6"), laid("B5 Y5 J1"))
    assert known(after.last).jokers_exchanged == 1 and after.hands[A] == ids("K1")
    # The announcement: everyone's view of the last turn names the exchange.
    assert ENGINE.view(after, C)["last"]["jokers_exchanged"] == 1


def test_joker_keeps_its_number():
    state = arrange(new_game(), ["R5 B9 Y9 K1", None, None], [laid("R4 J1 R6")], opened=True)
    assert commit_code(state, meld("R4 R5 R6"), meld("B9 Y9 J1")) == "JOKER_NUMBER_CHANGED"
    # Moving to another set, kind and colour is fine as long as it stays a 5.
    state = arrange(new_game(), ["R5 B5 K5 K1", None, None], [laid("R4 J1 R6")], opened=True)
    assert commit(state, meld("R4 R5 R6"), meld("B5 K5 J1")).table[1].kind is Kind.GROUP


def test_jokers_are_interchangeable():
    table = [laid("R4 J1 R6"), laid("B9 Y9 J2")]
    state = arrange(new_game(), ["K1 K2 K3 R1", None, None], table, opened=True)
    after = commit(state, meld("R4 J2 R6"), meld("B9 Y9 J1"), meld("K1 K2 K3"))
    assert after.hands[A] == ids("R1") and known(after.last).jokers_exchanged == 0


def test_joker_from_the_hand_may_take_any_number():
    state = arrange(new_game(), ["K1 K2 J3 R1", None, None], [laid("R4 J1 R6")], opened=True)
    after = commit(state, laid("R4 J1 R6"), meld("K1 K2 J3"))
    assert after.table[1] == laid("K1 K2 J3", "run")
    # The table's joker may even change number when a hand joker takes its old one (multiset).
    state = arrange(new_game(), ["J3 K8 K9 R1", None, None], [laid("R4 J1 R6")], opened=True)
    after = commit(state, meld("R4 J3 R6"), meld("J1 K8 K9"))
    assert after.hands[A] == ids("R1") and after.table[1] == laid("J1 K8 K9", "run")
    assert commit_code(state, meld("R4 J1 R6"), meld("J3 K8 K9"), meld("R1")) == "SET_TOO_SHORT"


def test_joker_exchange_before_opening():
    state = arrange(new_game(), ["R5 B5 Y5 K1", None, None], [laid("R4 J1 R6")])
    assert commit_code(state, meld("R4 R5 R6"), meld("B5 Y5 J1")) == "OPENING_TABLE_CHANGED"


# -- 16-20. the clock ----------------------------------------------------------------


def test_timeout_commits_a_valid_draft():
    state = arrange(new_game(), ["R11 J1 R13 B10 Y10 K10 R2", None, None])
    state = draft(state, meld("R11 J1 R13"), meld("B10 Y10 K10"))
    assert ENGINE.view(state, B)["draft"]["valid"] is True
    after = timeout(state)
    assert known(after.last).end is TurnEnd.TIMEOUT_COMMIT and known(after.last).at == T0 + 120_500
    assert after.hands[A] == ids("R2") and after.pool == state.pool and after.opened[A]
    assert after.deadline == T0 + 120_500 + 800


def test_timeout_salvages_valid_sets_and_returns_the_rest():
    table = [laid("R1 R2 R3")]
    state = arrange(new_game(), ["B3 B4 B5 K9 K10 Y1", None, None], table, opened=True)
    state = draft(state, laid("R1 R2 R3"), meld("B3 B4 B5"), meld("K9 K10"))
    after = timeout(state)
    assert after.table == (laid("R1 R2 R3"), laid("B3 B4 B5"))
    assert set(after.hands[A]) == set(ids("K9 K10 Y1")) and after.pool == state.pool
    assert known(after.last).end is TurnEnd.TIMEOUT_SALVAGE and known(after.last).returned == 2
    assert next_turn(after).seat == B


@pytest.mark.parametrize("draws", [1, 3])
def test_timeout_with_a_broken_table_set_restores_and_draws(draws):
    state = arrange(new_game(timeout_draw=draws), ["R9 Y9 K1", None, None], [laid("B7 B8 B9")], opened=True)
    state = draft(state, meld("B7 B8"), meld("B9 R9 Y9"))
    after = timeout(state)
    assert after.table == (laid("B7 B8 B9"),)
    assert after.hands[A] == (*ids("R9 Y9 K1"), *state.pool[:draws]) and after.pool == state.pool[draws:]
    assert known(after.last).end is TurnEnd.TIMEOUT_RESTORE and known(after.last).drawn == state.pool[:draws]


def test_timeout_restores_when_the_salvage_misses_the_opening():
    state = arrange(new_game(), ["R10 B10 Y10 K1 K2 B4", None, None])
    drafted = draft(state, meld("R10 B10 Y10"), meld("K1 K2"))
    for before in (drafted, state):  # 30 < 40 after the salvage; no draft at all
        after = timeout(before)
        assert known(after.last).end is TurnEnd.TIMEOUT_RESTORE and after.table == ()
        assert after.hands[A] == (*ids("R10 B10 Y10 K1 K2 B4"), state.pool[0]) and not after.opened[A]


def test_a_commit_within_the_grace_counts_and_one_after_it_is_turn_over():
    state = arrange(new_game(), ["R13 B13 Y13 K13 R1", None, None])
    deadline = state.deadline
    assert deadline == T0 + 120_000 and ENGINE.view(state, A)["deadline"] == deadline
    on_time = commit(state, meld("R13 B13 Y13 K13"), at=deadline + 300)
    assert known(on_time.last).end is TurnEnd.COMMIT and known(on_time.last).at == deadline + 300
    assert commit_code(state, meld("R13 B13 Y13")) == "OPENING_BELOW_MIN"  # judged normally
    late = rejected(state, A, "commit", at=deadline + 700, table=table_json([meld("R13 B13 Y13 K13")]))
    assert late.code == "TURN_OVER"
    # At exactly deadline + grace the move still comes first.
    assert known(commit(state, meld("R13 B13 Y13 K13"), at=deadline + 500).last).end is TurnEnd.COMMIT


# -- 21-22. who may act, and drafts --------------------------------------------------


def test_out_of_turn_and_stale_actions():
    state = arrange(new_game(), ["R13 B13 Y13 K13 R1", None, None])
    cases: list[tuple[str, dict[str, Any]]] = [
        ("commit", {}),
        ("draft", {"table": []}),
        ("draw", {}),
        ("undo", {}),
    ]
    for kind, fields in cases:
        assert rejected(state, B, kind, **fields).code == "NOT_YOUR_TURN"
    assert illegal(state, A, {"type": "draw", "turn_id": 0}).code == "STALE_TURN"
    assert illegal(state, A, {"type": "draw", "turn_id": 2}).code == "STALE_TURN"
    assert illegal(state, 3, {"type": "draw", "turn_id": 1}).code == "NOT_SEATED"


def test_draft_rules():
    state = arrange(new_game(), ["K6 K7 K8 K1", None, None], [laid("B5 R5 K5 Y5")], opened=True)
    state = draft(state, laid("B5 R5 K5 Y5"), meld("K6 K7"))
    error = rejected(state, A, "draft", table=table_json([meld("B5 R5 Y5"), meld("K6 K7")]))
    assert error.code == "TABLE_CARD_MISSING"
    assert state.draft == (laid("B5 R5 K5 Y5"), meld("K6 K7"))  # the previous draft is kept
    back = draft(state, laid("B5 R5 K5 Y5"), meld("K6"))
    assert back.draft[1] == meld("K6") and ENGINE.view(back, A)["hand"] == list(ids("K7 K8 K1"))
    for bad_table, code in (
        ([meld("B5 R5 K5 Y5"), meld("K6 K6")], "DUPLICATE_CARD"),
        ([meld("B5 R5 K5 Y5"), meld("R2")], "NOT_IN_HAND"),
        ([meld("B5 R5 K5 Y5"), Meld(())], "EMPTY_SET"),
        ([meld("B5 R5 K5 Y5"), Meld((CardId("X99"),))], "UNKNOWN_CARD"),
    ):
        assert rejected(state, A, "draft", table=table_json(bad_table)).code == code


def test_draft_is_public_and_the_hand_stays_private():
    state = arrange(new_game(), ["K6 K7 K8 K1 R2", None, None], [laid("B5 R5 K5 Y5")], opened=True)
    state = draft(state, laid("B5 R5 K5 Y5"), meld("K6 K7"))
    for v in views(state):
        assert v["draft"]["table"][1] == {"kind": None, "cards": list(ids("K6 K7"))}
        assert v["draft"]["sets"][1] == {"kind": "run", "ok": False, "value": 0}
        assert {"code": "SET_TOO_SHORT", "set": 1, "cards": []} in v["draft"]["problems"]
        assert v["draft"]["valid"] is False and v["draft"]["placed"] == 2
        assert v["seats"][A]["cards"] == 3
        if v["you"] != A:
            assert not cards_in(v) & set(ids("K8 K1 R2"))
    assert ENGINE.view(state, A)["hand"] == list(ids("K8 K1 R2"))


def test_draft_steps_move_declare_undo_and_reset():
    state = arrange(new_game(), ["Y4 Y6 J2 B7 R1", None, None], [laid("B5 R5 K5 Y5")], opened=True)
    s = send(state, A, "move", card="Y05a", to="new")
    assert s.draft == (meld("B5 R5 K5"), meld("Y5")) and s.draft[0].kind is None
    s = send(s, A, "move", card="Y04a", to={"set": 1, "index": 0})
    s = send(s, A, "move", card="Y06a", to={"set": 1})
    assert s.draft[1].cards == ids("Y4 Y5 Y6") and ENGINE.view(s, B)["draft"]["valid"] is True
    assert ENGINE.view(s, A)["hand"] == list(ids("J2 B7 R1")) and len(s.undo) == 3
    s = send(s, A, "move", card="J2", to="new")
    s = send(s, A, "move", card="B07a", to={"set": 2})
    s = send(s, A, "move", card="R01a", to={"set": 2, "index": 2})
    assert s.draft[2] == meld("J2 B7 R1")
    assert rejected(s, A, "commit").code == "RUN_COLOUR_MISMATCH"
    s = send(s, A, "move", card="R01a", to="hand")
    assert (
        s.draft[2] == meld("J2 B7") and ENGINE.view(s, A)["draft"]["problems"][0]["code"] == "SET_TOO_SHORT"
    )
    s = send(s, A, "declare", set=2, kind="run")
    assert s.draft[2].kind is Kind.RUN
    undone = send(s, A, "undo")
    assert undone.draft[2].kind is None and undone.undo == s.undo[:-1]
    reset = send(s, A, "reset")
    assert reset.draft == state.table and ENGINE.view(reset, A)["hand"] == list(state.hands[A])
    assert send(reset, A, "undo").draft == s.draft  # a reset can be undone too
    # Table cards never go to a hand; bad places are named.
    assert rejected(s, A, "move", card="B05a", to="hand").code == "TABLE_CARD_MISSING"
    assert rejected(s, A, "move", card="B05a", to={"set": 9}).code == "NO_SUCH_SET"
    assert rejected(s, A, "move", card="B05a", to={"set": 1, "index": 7}).code == "NO_SUCH_PLACE"
    assert rejected(s, A, "move", card="K13a", to="new").code == "NOT_IN_HAND"
    assert rejected(s, A, "move", card="Z13a", to="new").code == "UNKNOWN_CARD"
    assert rejected(s, A, "declare", set=5, kind="group").code == "NO_SUCH_SET"
    assert rejected(state, A, "undo").code == "NOTHING_TO_UNDO"
    assert rejected(state, A, "reset").code == "NOTHING_TO_UNDO"
    # A move that changes nothing is accepted and changes nothing.
    assert send(state, A, "move", card="R01a", to="hand") is state
    # Commit without a table commits the draft.
    s = send(s, A, "move", card="J2", to="hand")
    s = send(s, A, "move", card="B07a", to="hand")
    done = send(s, A, "commit")
    assert done.table == (laid("B5 R5 K5"), laid("Y4 Y5 Y6")) and set(done.hands[A]) == set(ids("J2 B7 R1"))


def test_view_shows_why_the_draft_would_be_rejected():
    state = arrange(new_game(), ["R9 Y9 B6 K1", None, None], [laid("B7 B8 B9")], opened=True)
    state = draft(state, meld("B7 B8"), meld("B9 R9 Y9"))
    error = rejected(state, A, "commit")
    assert error.code == "SET_TOO_SHORT" and isinstance(error, TableRejected)
    assert ENGINE.view(state, C)["draft"]["problems"] == [p.to_json() for p in error.problems]


def test_a_draft_step_leaves_what_it_did_not_change_the_same_object_in_every_view():
    # The room's diff passes over an unchanged part without looking inside only if it is the very
    # same object as in the view before (rules 2.4: the draft is rebuilt step by step in public).
    state = arrange(new_game(), ["R9 Y9 B6 K1", None, None], [laid("B7 B8 B9")], opened=True)
    state = send(state, A, "move", card="R09a", to="new")
    before = ENGINE.views(state, [A, B, None])
    after = ENGINE.views(send(state, A, "move", card="Y09a", to={"set": 1}), [A, B, None])
    for seat in (A, B, None):
        for part in ("table", "totals", "scores", "winners", "legal", "hand"):
            if part != "hand" or seat == B:
                assert after[seat][part] is before[seat][part], (seat, part)
    assert "Y09a" in before[A]["hand"] and "Y09a" not in after[A]["hand"]
    assert after[B]["seats"][B] is before[B]["seats"][B] and after[B]["seats"][A] != before[B]["seats"][A]
    assert after[A]["draft"]["table"][0] is before[A]["draft"]["table"][0]
    assert after[A]["draft"]["sets"][0] is before[A]["draft"]["sets"][0]


# -- 23-26. round and match end ------------------------------------------------------


def test_going_out_and_scoring():
    state = arrange(new_game(), ["R10 B10 Y10", "R5 J1", "B13 Y2"], [laid("K1 K2 K3")], opened=True)
    state = replace(state, pool=state.pool[:10])
    after = commit(state, laid("K1 K2 K3"), meld("R10 B10 Y10"))
    assert after.phase is Phase.ROUND_OVER and after.hands[A] == ()
    record = after.history[-1]
    assert record.end is RoundEnd.OUT and record.winners == (A,)
    assert record.values == (0, 30, 15) and record.scores == (45, -30, -15) and after.totals == (45, -30, -15)
    assert ENGINE.next_deadline(after) == T0 + 1_000 + 8_000
    round2 = ENGINE.tick(after, T0 + 9_000)
    assert round2.phase is Phase.TURN and round2.round == 2 and round2.seat == B == round2.round_starter
    assert round2.opened == (False, False, False) and [len(h) for h in round2.hands] == [14, 14, 14]
    assert round2.table == () and len(round2.pool) == 66 and round2.totals == (45, -30, -15)


def test_opening_and_going_out_at_once():
    hand = "R1 R2 R3 R4 R5 R6 R7 B10 Y10 K10 R13 B13 Y13 K13"
    state = arrange(new_game(), [hand, None, None])
    after = commit(state, meld("R1 R2 R3 R4 R5 R6 R7"), meld("B10 Y10 K10"), meld("R13 B13 Y13 K13"))
    assert after.phase is Phase.ROUND_OVER and after.history[-1].winners == (A,)
    assert after.history[-1].scores[A] == sum(after.history[-1].values)


def block(state: RummyState, hands: Sequence[str]) -> RummyState:
    """Arrange the round's starter's turn with an empty pool and let every player pass."""
    state = arrange(state, hands, seat=state.round_starter, pool="")
    for i in range(state.players):
        state = send(state, state.seat, "draw", at=state.turn_started_at + 100)
        assert known(state.last).end is TurnEnd.PASS
        if i < state.players - 1:
            assert state.phase is Phase.TURN_RESULT and state.passes == i + 1
            state = ENGINE.tick(state, known(state.deadline))
            state = replace(state, turn_started_at=known(state.deadline) - state.options.turn_ms)
    return state


def test_blocked_round():
    after = block(arrange(new_game(), [None] * 3), ["R5 K7", "Y7", "B10 K10"])
    assert after.phase is Phase.ROUND_OVER and known(after.last).seat == C
    assert after.history[-1].end is RoundEnd.BLOCKED and after.history[-1].scores == (-12, 32, -20)
    assert after.history[-1].winners == (B,)
    shared = block(arrange(new_game(), [None] * 3), ["R5 K2", "Y7", "B10 K10"])
    assert shared.history[-1].winners == (A, B) and shared.history[-1].scores == (10, 10, -20)
    even = block(arrange(new_game(), [None] * 3), ["R5 K2", "Y7", "B7"])
    assert even.history[-1].scores == (0, 0, 0)


def test_passes_count_only_when_the_pool_is_empty():
    state = arrange(new_game(2), [None, None], pool="R1")
    state = send(state, A, "draw")  # takes the last card: not a pass
    assert known(state.last).end is TurnEnd.DRAW and state.passes == 0 and state.pool == ()
    state = next_turn(state)
    state = send(state, B, "draw", at=state.turn_started_at + 5)
    assert known(state.last).end is TurnEnd.PASS and state.passes == 1
    state = next_turn(state)
    state = ENGINE.tick(
        state, known(ENGINE.next_deadline(state))
    )  # a timeout with nothing placed is a pass too
    assert state.phase is Phase.ROUND_OVER and known(state.last).end is TurnEnd.TIMEOUT_RESTORE
    assert state.history[-1].end is RoundEnd.BLOCKED


def test_a_play_resets_the_passes():
    state = arrange(new_game(2), ["R1 R2 R3 K9", None], [laid("B1 B2 B3")], opened=True, pool="")
    state = replace(state, passes=1)
    state = commit(state, laid("B1 B2 B3"), meld("R1 R2 R3"))
    assert state.passes == 0


def test_match_end_shares_the_win():
    state = new_game(rounds=3)
    for hands in (["R5", "Y5", "B10 K10 R10"], ["R5", "Y5", "B10 K10 R10"], ["R5", "Y5", "B10 K10"]):
        state = block(state, hands)
        if state.phase is Phase.ROUND_OVER:
            state = ENGINE.tick(state, known(state.deadline))
    assert state.phase is Phase.MATCH_OVER and state.round == 3 and state.totals == (40, 40, -80)
    outcome = ENGINE.result(state)
    assert outcome.finished and outcome.scores == (40, 40, -80) and outcome.winners == (A, B)
    assert [r["scores"] for r in outcome.detail["rounds"]] == [[15, 15, -30], [15, 15, -30], [10, 10, -20]]
    assert ENGINE.next_deadline(state) is None and ENGINE.tick(state, 10**12) is state
    for seat in range(3):
        assert illegal(state, seat, {"type": "draw", "turn_id": state.turn_id}, at=10**9).code == "GAME_OVER"
    assert all(v["legal"] == [] and v["winners"] == [A, B] for v in views(state))


def test_match_clock_replaces_the_round_count():
    state = new_game(2, rounds=1, match_minutes=1)
    state = block(state, ["R5", "Y7"])
    assert state.phase is Phase.ROUND_OVER  # rounds=1 is ignored with a match clock
    state = ENGINE.tick(state, known(state.deadline))
    assert state.round == 2 and ENGINE.view(state, A)["match_ends_at"] == T0 + 60_000
    # The round running when the time is up is the last.
    state = replace(state, turn_started_at=T0 + 70_000, deadline=T0 + 70_000 + state.options.turn_ms)
    state = block(state, ["R5", "Y7"])
    assert state.phase is Phase.MATCH_OVER and len(state.history) == 2


# -- 27. privacy and determinism -----------------------------------------------------


def test_privacy_and_determinism():
    seats = [SeatSetup()] * 3
    state = ENGINE.start(seats, RummyOptions(), "very-secret-seed", 0)
    mover = state.seat
    other = (mover + 1) % 3
    log = [Move(mover, {"type": "draw", "turn_id": 1}, 500)]
    drew = ENGINE.apply(state, log[0])
    drawn = known(drew.last).drawn
    assert drawn == state.pool[:1]
    for s in (state, drew):
        for v in views(s):
            text = json.dumps(v)
            assert "very-secret-seed" not in text and str(s.rng.state) not in text
            seen = cards_in(v)
            assert not seen & set(s.pool)
            for seat in range(3):
                if seat != v["you"]:
                    assert not seen & set(s.hands[seat])
    assert ENGINE.view(drew, mover)["last"]["drawn"] == list(drawn)
    assert ENGINE.view(drew, other)["last"]["drawn"] is None and ENGINE.view(drew, None)["last"]["drew"] == 1
    again = ENGINE.start(seats, RummyOptions(), "very-secret-seed", 0)
    assert ENGINE.apply(again, log[0]) == drew
    assert ENGINE.tick(drew, 1300) == ENGINE.tick(ENGINE.apply(again, log[0]), 1300)


# -- away players ----------------------------------------------------------------------


def test_two_timeouts_in_a_row_mark_a_player_away_and_acting_clears_it():
    state = arrange(new_game(2), [None, None])
    for _ in range(2):
        state = timeout(state)
        state = next_turn(state)
        state = send(state, B, "draw", at=state.turn_started_at + 10)
        state = next_turn(state)
    assert state.seat == A and state.timeouts[A] == 2 and state.away(A)
    assert state.deadline == state.turn_started_at + 10_000 and ENGINE.view(state, B)["seats"][A]["away"]
    back = send(state, A, "move", card=state.hands[A][0], to="new", at=state.turn_started_at + 2_000)
    assert not back.away(A) and back.deadline == back.turn_started_at + 120_000
    # An away player who does not act still gets the short turn, ended by the timeout.
    slept = timeout(state)
    assert known(slept.last).end is TurnEnd.TIMEOUT_RESTORE and slept.timeouts[A] == 3
    assert new_game(2, afk_after=0).away(A) is False


# -- the engine contract ---------------------------------------------------------------


def test_tick_returns_the_same_state_when_nothing_is_due_and_late_ticks_land_on_time():
    state = arrange(new_game(), [None] * 3)
    assert ENGINE.tick(state, T0 + 120_499) is state
    punctual = state
    for _ in range(2):
        punctual = ENGINE.tick(punctual, known(ENGINE.next_deadline(punctual)))
    late = ENGINE.tick(state, known(ENGINE.next_deadline(punctual)) - 1)
    assert late == punctual and late.phase is Phase.TURN and late.seat == B
    assert late.turn_started_at == T0 + 120_500 + 800


def test_a_move_after_a_missed_deadline_sees_that_deadline_fired():
    state = arrange(new_game(), [None] * 3)
    due = known(ENGINE.next_deadline(state))
    # The timeout and the pause are over: it is B's turn now, though nobody ticked.
    moved = ENGINE.apply(state, Move(B, {"type": "draw", "turn_id": 2}, due + 900))
    assert known(moved.last).seat == B and moved.history == () and moved.turn_id == 2
    assert illegal(state, A, {"type": "draw", "turn_id": 1}, due + 900).code == "NOT_YOUR_TURN"
    assert illegal(state, A, {"type": "draw", "turn_id": 1}, due + 1).code == "TURN_OVER"


def test_round_over_refuses_actions():
    state = arrange(new_game(), ["R10 B10 Y10", None, None])
    state = replace(state, opened=(True, False, False), table=(laid("K1 K2 K3"),), draft=(laid("K1 K2 K3"),))
    over = commit(state, laid("K1 K2 K3"), meld("R10 B10 Y10"))
    assert over.phase is Phase.ROUND_OVER
    assert illegal(over, B, {"type": "draw", "turn_id": 2}, T0 + 1_500).code == "WRONG_PHASE"


def test_bad_actions():
    state = arrange(new_game(), [None] * 3)
    cases: list[tuple[Any, str]] = [
        ("draw", "BAD_ACTION"),
        ({}, "BAD_ACTION"),
        ({"type": 3, "turn_id": 1}, "BAD_ACTION"),
        ({"type": "dance", "turn_id": 1}, "UNKNOWN_ACTION"),
        ({"type": "draw"}, "BAD_ACTION"),
        ({"type": "draw", "turn_id": "1"}, "BAD_ACTION"),
        ({"type": "draw", "turn_id": True}, "BAD_ACTION"),
        ({"type": "draw", "turn_id": 1, "card": "R01a"}, "BAD_ACTION"),
        ({"type": "draft", "turn_id": 1}, "BAD_ACTION"),
        ({"type": "draft", "turn_id": 1, "table": {"cards": []}}, "BAD_ACTION"),
        ({"type": "draft", "turn_id": 1, "table": [["R01a"]]}, "BAD_ACTION"),
        ({"type": "draft", "turn_id": 1, "table": [{"cards": "R01a"}]}, "BAD_ACTION"),
        ({"type": "draft", "turn_id": 1, "table": [{"cards": [1]}]}, "BAD_ACTION"),
        ({"type": "draft", "turn_id": 1, "table": [{"cards": ["R01a"], "kind": "pair"}]}, "BAD_ACTION"),
        ({"type": "draft", "turn_id": 1, "table": [{"cards": ["R01a"], "owner": 1}]}, "BAD_ACTION"),
        ({"type": "draft", "turn_id": 1, "table": [{"cards": ["R01a" * 5]}]}, "BAD_ACTION"),
        ({"type": "draft", "turn_id": 1, "table": [{"cards": ["R01a"] * 109}]}, "BAD_ACTION"),
        ({"type": "commit", "turn_id": 1, "table": "all"}, "BAD_ACTION"),
        ({"type": "move", "turn_id": 1, "card": "R01a"}, "BAD_ACTION"),
        ({"type": "move", "turn_id": 1, "card": "R01a", "to": "table"}, "BAD_ACTION"),
        ({"type": "move", "turn_id": 1, "card": "R01a", "to": {"set": -1}}, "BAD_ACTION"),
        ({"type": "move", "turn_id": 1, "card": "R01a", "to": {"set": 0, "at": 1}}, "BAD_ACTION"),
        ({"type": "move", "turn_id": 1, "card": None, "to": "new"}, "BAD_ACTION"),
        ({"type": "declare", "turn_id": 1, "set": 0}, "BAD_ACTION"),
        ({"type": "declare", "turn_id": 1, "set": 0, "kind": "pair"}, "BAD_ACTION"),
    ]
    for action, code in cases:
        assert illegal(state, A, action).code == code, action
    assert illegal(state, -1, {"type": "draw", "turn_id": 1}).code == "NOT_SEATED"


def test_start_rejects_bad_tables():
    for players in (1, 5):
        with pytest.raises(IllegalAction) as info:
            new_game(players)
        assert info.value.code == "BAD_PLAYER_COUNT"


VIEW_KEYS = {
    "game",
    "phase",
    "round",
    "rounds",
    "match_ends_at",
    "turn_id",
    "turn",
    "deadline",
    "pool",
    "opening_min",
    "table",
    "draft",
    "hand",
    "seats",
    "passes",
    "totals",
    "scores",
    "last",
    "winners",
    "you",
    "legal",
}


def test_view_shape_and_legal_actions():
    state = arrange(new_game(), [None] * 3, [laid("K1 K2 K3")], opened=True)
    v = ENGINE.view(state, A)
    assert set(v) == VIEW_KEYS and v["game"] == "rummy" and v["phase"] == "TURN" and v["you"] == A
    assert v["turn"] == A and v["pool"] == len(state.pool) and v["table"] == [laid("K1 K2 K3").to_json()]
    assert [s.keys() for s in v["seats"]] == [{"cards", "opened", "away"}] * 3
    assert [a["type"] for a in v["legal"]] == ["move", "declare", "draft", "commit", "draw"]
    assert all(a["turn_id"] == 1 for a in v["legal"])
    assert ENGINE.view(state, B)["legal"] == [] and ENGINE.view(state, None)["legal"] == []
    assert ENGINE.view(state, None)["hand"] is None and ENGINE.view(state, B)["hand"] == list(state.hands[B])
    moved = send(state, A, "move", card=state.hands[A][0], to="new")
    assert [a["type"] for a in ENGINE.view(moved, A)["legal"]] == [
        "move",
        "declare",
        "draft",
        "undo",
        "reset",
        "commit",
        "draw",
    ]
    done = next_turn(send(moved, A, "draw"))
    for s in (state, moved, done, ENGINE.tick(done, 10**9)):
        for view in views(s):
            assert set(view) == VIEW_KEYS
            assert_json_ready(view)
    assert ENGINE.view(send(moved, A, "draw"), B)["draft"] is None
    with pytest.raises(ValueError):
        ENGINE.view(state, 3)


def test_result_before_the_end_is_unfinished():
    outcome = ENGINE.result(new_game())
    assert (outcome.finished, outcome.scores, outcome.winners) == (False, (0, 0, 0), ())
    assert outcome.detail == {"rounds": [], "totals": [0, 0, 0]}
    assert_json_ready(outcome.to_json())


def test_options_defaults_bounds_and_descriptions():
    options = RummyOptions()
    assert options.model_dump() == {
        "turn_ms": 120_000,
        "commit_grace_ms": 500,
        "between_turns_ms": 800,
        "opening_min": 40,
        "joker_hand_value": 25,
        "timeout_draw": 1,
        "round_end_pause_ms": 8_000,
        "rounds": 3,
        "match_minutes": 0,
        "afk_after": 2,
        "away_turn_ms": 10_000,
    }
    schema = RummyOptions.model_json_schema()
    assert all(field.get("description") for field in schema["properties"].values())
    for bad in (
        {"turn_ms": 29_999},
        {"turn_ms": 300_001},
        {"rounds": 0},
        {"rounds": 11},
        {"timeout_draw": 0},
        {"match_minutes": -1},
        {"opening_min": -1},
        {"players": 3},
    ):
        with pytest.raises(ValidationError):
            RummyOptions.model_validate(bad)


def test_engine_export():
    assert isinstance(ENGINE, RummyEngine)
    assert (ENGINE.name, ENGINE.title, ENGINE.min_players, ENGINE.max_players) == ("rummy", "Rummy", 2, 4)
    assert ENGINE.options_model is RummyOptions


def test_joker_hand_value_option():
    state = arrange(new_game(joker_hand_value=30), ["R10 B10 Y10", "R5 J1", "B13 Y2"], [laid("K1 K2 K3")])
    state = replace(state, opened=(True, False, False))
    after = commit(state, laid("K1 K2 K3"), meld("R10 B10 Y10"))
    assert after.history[-1].scores == (50, -35, -15)


def test_opening_min_option():
    state = arrange(new_game(opening_min=30), ["R13 B13 Y13 R2 B3", None, None])
    assert commit(state, meld("R13 B13 Y13")).opened[A]
