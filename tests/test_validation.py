"""app.validation on its own: which characters are refused, and each JSON bound."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from app.validation import (
    ACTION,
    MAX_SAFE_INT,
    OPTIONS,
    PREFS,
    BoundsError,
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
