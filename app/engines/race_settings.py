"""The platform's race settings (the defaults of every game with races) and what they must satisfy.

A race must stay open long enough to hear every claim that could still win: :func:`check_window`
validates a game's options, :func:`race_deadline` and :func:`accepts` close a one-shot window.

>>> race_deadline(10420, 160)
10580
"""

from __future__ import annotations


def race_deadline(first_arrival: int, window_ms: int) -> int:
    """When a race closes: ``window_ms`` after the first claim *arrived*."""
    return first_arrival + window_ms


def accepts(arrival: int, deadline: int) -> bool:
    """Whether a claim still counts; one arriving exactly at the deadline does.

    >>> accepts(10580, race_deadline(10420, 160)), accepts(10581, 10580)
    (True, False)
    """
    return arrival <= deadline


MAX_CREDIT_MS = 200
"""The platform's race settings, the defaults of every game with races (UFF-DA! rules 7: "taken
from the platform's race settings"). A 150 ms link needs its round trip, jitter and a frame."""
TIE_MARGIN_MS = 10
RACE_WINDOW_MS = MAX_CREDIT_MS + TIE_MARGIN_MS


def check_window(race_window_ms: int, max_credit_ms: int, tie_margin_ms: int) -> None:
    """Options validation: a race must stay open long enough to hear every claim that could win.

    >>> check_window(RACE_WINDOW_MS, MAX_CREDIT_MS, TIE_MARGIN_MS)
    >>> try:
    ...     check_window(200, 500, 10)
    ... except ValueError as exc:
    ...     print(str(exc).split(",")[0])
    race_window_ms must be at least max_credit_ms + tie_margin_ms (510)
    """
    need = min_window(max_credit_ms, tie_margin_ms)
    if race_window_ms < need:
        raise ValueError(
            f"race_window_ms must be at least max_credit_ms + tie_margin_ms ({need}), "
            "or a claim that should win could arrive after the race closed"
        )


def min_window(max_credit_ms: int, tie_margin_ms: int) -> int:
    """The shortest window that still lets every claim able to win or tie be heard.

    A claim arriving later than ``first + max_credit + margin`` cannot get
    ``at <= first.at + margin`` even with full credit, so it cannot matter.

    >>> min_window(150, 10)
    160
    """
    return max_credit_ms + tie_margin_ms
