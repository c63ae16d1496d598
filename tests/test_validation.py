"""app.validation on its own: which characters are refused, and each JSON bound."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap
from enum import IntEnum

import pytest

from app.validation import (
    ACTION,
    MAX_SAFE_INT,
    OPTIONS,
    PREFS,
    BoundsError,
    JsonBounds,
    _QuickPass,
    _Walk,
    check_json,
    clean_name,
    forbidden_char,
)


@pytest.mark.parametrize(
    "point",
    [
        0x00,
        0x1F,
        0x7F,
        0x9F,
        0x200B,
        0x200F,
        0x2028,
        0x2029,
        0x202A,
        0x202E,
        0x2066,
        0x2069,
        0x061C,
        0xFEFF,
        0xD800,
        0xDFFF,
    ],
)
def test_forbidden_characters_are_named_by_code_point(point: int) -> None:
    assert forbidden_char(f"a{chr(point)}b") == forbidden_char(chr(point))
    assert f"U+{point:04X}" in (forbidden_char(chr(point)) or "")


def test_letters_spaces_and_emoji_are_allowed() -> None:
    assert forbidden_char("Zoë Ωμέγα مريم 李雷 \u00a0🃏") is None


def test_a_name_is_checked_before_it_is_trimmed() -> None:
    assert clean_name("  Ana  ") == "Ana"
    with pytest.raises(ValueError, match=r"U\+000A"):
        clean_name("Ana\n")


def test_integers_beyond_the_json_safe_range_are_refused() -> None:
    check_json({"n": MAX_SAFE_INT, "m": -MAX_SAFE_INT}, PREFS)
    with pytest.raises(BoundsError, match="within"):
        check_json({"n": MAX_SAFE_INT + 1}, ACTION)


def test_booleans_are_not_taken_for_integers() -> None:
    check_json({"flag": True}, PREFS)


def test_the_value_budget_bounds_breadth_times_depth() -> None:
    wide = {f"k{i}": [[1] * 32] * 32 for i in range(2)}
    with pytest.raises(BoundsError, match="1024 values"):
        check_json(wide, OPTIONS)


def test_only_objects_are_accepted_at_the_top() -> None:
    with pytest.raises(BoundsError, match="object"):
        check_json(["nu"], ACTION)


def test_a_check_leaves_no_garbage_for_the_collector() -> None:
    # Every action a client sends is checked: a reference cycle per check (a self-calling
    # closure did that) made the garbage collector run several times as often under load.
    # A child interpreter counts, so no thread or event loop left by another test adds garbage
    # of its own (in this process, collecting until nothing was left could loop for ever).
    child = textwrap.dedent(
        """
        import gc
        from app.validation import ACTION, check_json
        action = {"type": "meld", "cards": [1, 2, {"rank": "Q"}], "note": "x"}
        gc.collect()
        gc.disable()
        for _ in range(100):
            check_json(action, ACTION)
        print(gc.collect())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", child], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "0"


_SCALARS_ONLY = 5


class _Rank(IntEnum):
    QUEEN = 12


def _random_json(rng: random.Random, depth: int) -> object:
    """Values near every bound: long strings, odd characters, big numbers, deep and wide nesting."""
    pick = rng.randrange(9 if depth < _SCALARS_ONLY else 6)
    if pick == 0:
        return rng.choice([None, True, False])
    if pick == 1:
        return rng.choice([0, 1, -7, MAX_SAFE_INT, -MAX_SAFE_INT, MAX_SAFE_INT + 1, 2**70])
    if pick == 2:
        return rng.choice([0.5, -1.25, float("inf"), float("nan"), 3.0])
    if pick in (3, 4):
        alphabet = ["a", "Q", " ", "é", "ø", "\u00a0", "\u202e", "\x00", "\u200b", "\ud800", "🂡"]
        return "".join(rng.choice(alphabet) for _ in range(rng.choice([0, 1, 5, 64, 65, 200, 201])))
    if pick == 5:
        return _Rank.QUEEN if rng.random() < 0.5 else {"k": 1}
    if pick in (6, 7):
        keys = ["type", "cards", "a_b", "Bad", "", "x" * 65, "\u200b", "ø", "k" * 32, "k" * 33]
        size = rng.choice([0, 1, 3, 9, 33])
        inner = depth + 1 if size <= 3 else _SCALARS_ONLY  # wide ones hold scalars: values stay small
        return {rng.choice(keys): _random_json(rng, inner) for _ in range(size)}
    size = rng.choice([0, 1, 4, 33, 129])
    inner = depth + 1 if size <= 4 else _SCALARS_ONLY
    return [_random_json(rng, inner) for _ in range(size)]


@pytest.mark.parametrize("bounds", [PREFS, OPTIONS, ACTION], ids=["prefs", "options", "action"])
def test_the_quick_pass_vouches_only_for_values_the_full_walk_accepts(bounds: JsonBounds) -> None:
    rng = random.Random(18)
    vouched = refused = 0
    for _ in range(3000):
        value = {"type": _random_json(rng, 1), "more": _random_json(rng, 1)}
        if _QuickPass(bounds).fits(value, 0):
            vouched += 1
            _Walk(bounds).walk(value, "", 0)  # raises if the quick pass said yes wrongly
        else:
            try:
                _Walk(bounds).walk(value, "", 0)
            except BoundsError:
                refused += 1
    assert vouched > 100 and refused > 100  # both sides were exercised


def test_a_value_the_quick_pass_cannot_vouch_for_is_judged_by_the_full_walk() -> None:
    # A no-break space is not "printable" to Python but is allowed; an IntEnum is an int.
    check_json({"name": "Ana\u00a0B", "n": _Rank.QUEEN}, ACTION)
    with pytest.raises(BoundsError, match=r"cards\[1\]: strings may not contain U\+202E"):
        check_json({"cards": ["ok", "a\u202eb"]}, ACTION)
