"""Micro-benchmark of app.rooms.diff.diff on a realistic 4-seat card-game view.

Run with ``python -m bench.diff_bench`` (``--batch``/``--rounds`` to tune).
Prints the median microseconds per diff for typical changes; no pass/fail.

As in the server, the view one seat receives (~1.1 KB of JSON: ~17 keys, a
list of 4 seat dicts, lists of card ids) is rebuilt from the game state for
every frame, so each timed diff compares two distinct trees (new dicts and
lists, scalars shared with the state).  Two extra lines show the extremes: the
very same object (identity fast path) and a JSON round-trip copy where every
scalar is a distinct object too.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from app.rooms.diff import diff
from app.rooms.patch import apply_patch

View = dict[str, Any]
State = dict[str, Any]

NAMES = ["Ana", "Bruno", "Chloé", "Dmitri"]


def new_state() -> State:
    """A mid-trick game of a 32-card, 4-seat trick-taking game."""
    return {
        "room": "k3v9qz",
        "game": "belote",
        "version": 1842,
        "phase": "play",
        "dealer": 0,
        "turn": 2,
        "trump": "hearts",
        "deadline_ms": 93_511_250,
        "hands": [[i * 8 + j for j in range(8)] for i in range(4)],
        "scores": [40, 47, 54, 61],
        "tricks": [0, 1, 2, 3],
        "bids": [{"value": 80, "suit": "hearts"}, {"value": 90, "suit": "hearts"}, None, None],
        "declarations": [[{"kind": "tierce", "cards": [12, 13, 14]}], [], [], []],
        "connected": [True, True, True, False],
        "trick": [3, 17],
        "last_trick": [5, 29, 22, 30],
        "won": [[1, 9, 25, 31], [4, 12, 20, 28]],
        "team_scores": [162, 90],
        "log": ["Ana bids 80 hearts", "Bruno bids 90 hearts", "Chloé passes", "Dmitri passes"],
        "options": {"target": 1000, "announces": True, "timer_s": 30},
    }


def build_view(state: State, you: int) -> View:
    """What one seat is sent, built afresh (new dicts and lists) as the server does every frame.

    Scalars are the state's own objects, as they would be in the server.
    """
    return {
        "room": state["room"],
        "game": state["game"],
        "version": state["version"],
        "phase": state["phase"],
        "you": you,
        "dealer": state["dealer"],
        "turn": state["turn"],
        "trump": state["trump"],
        "deadline_ms": state["deadline_ms"],
        "seats": [
            {
                "seat": i,
                "name": NAMES[i],
                "connected": state["connected"][i],
                "bot": i == 3,
                "ready": True,
                "team": i % 2,
                "score": state["scores"][i],
                "tricks": state["tricks"][i],
                "hand_count": len(state["hands"][i]),
                "hand": list(state["hands"][i]) if i == you else None,
                "bid": dict(state["bids"][i]) if state["bids"][i] else None,
                "declarations": [
                    {"kind": d["kind"], "cards": list(d["cards"])} for d in state["declarations"][i]
                ],
            }
            for i in range(4)
        ],
        "trick": list(state["trick"]),
        "last_trick": list(state["last_trick"]),
        "won": [list(cards) for cards in state["won"]],
        "team_scores": list(state["team_scores"]),
        "log": list(state["log"]),
        "options": dict(state["options"]),
    }


def clone(value: Any) -> Any:
    """Deep copy through JSON: every scalar becomes a distinct object (the slowest input)."""
    return json.loads(json.dumps(value))


def change_nothing(state: State) -> None:
    pass


def change_one_counter(state: State) -> None:
    state["scores"][2] += 1


def change_card_moved(state: State) -> None:
    """A card leaves the middle of seat 1's hand and is appended to the trick."""
    state["trick"].append(state["hands"][1].pop(3))


def change_card_played(state: State) -> None:
    """All a real play action changes: the card moves, turn, version, deadline and log too."""
    change_card_moved(state)
    state["turn"] = 3
    state["version"] += 1
    state["deadline_ms"] += 30_000
    state["log"].append("Bruno plays 11")


def median_us(fn: Callable[[], object], *, batch: int, rounds: int) -> float:
    """Median over ``rounds`` batches of the mean time of one call, in microseconds."""
    per_call: list[float] = []
    for _ in range(rounds):
        t0 = time.perf_counter_ns()
        for _ in range(batch):
            fn()
        per_call.append((time.perf_counter_ns() - t0) / batch / 1000)
    return statistics.median(per_call)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--batch", type=int, default=500, help="calls per timed batch")
    parser.add_argument("--rounds", type=int, default=41, help="timed batches (median is reported)")
    args = parser.parse_args(argv)

    you = 1
    cases: list[tuple[str, View, View]] = []
    for name, change in [
        ("nothing changed", change_nothing),
        ("one counter changed", change_one_counter),
        ("card moved between two lists", change_card_moved),
        ("card played (move + 4 fields)", change_card_played),
    ]:
        state = new_state()
        old = build_view(state, you)
        change(state)
        cases.append((name, old, build_view(state, you)))
    old0 = cases[0][1]
    _, old1, new1 = cases[1]
    cases.insert(1, ("nothing changed (same object)", old0, old0))
    cases.append(("one counter, all-distinct scalars", clone(old1), clone(new1)))

    size = len(json.dumps(old0, separators=(",", ":")).encode())
    print(f"view: {size} bytes of JSON, 4 seats; median of {args.rounds} x {args.batch} calls")
    print(f"{'case':<36} {'ops':>4} {'patch B':>8} {'median us/diff':>15}")
    for name, old, new in cases:
        ops = diff(old, new)
        assert apply_patch(old, ops) == new  # sanity, outside the timing
        patch_bytes = len(json.dumps(ops, separators=(",", ":")).encode()) if ops else 0
        us = median_us(partial(diff, old, new), batch=args.batch, rounds=args.rounds)
        print(f"{name:<36} {len(ops):>4} {patch_bytes:>8} {us:>15.2f}")

    # One action seen by the 4 seats: 4 views rebuilt, 4 diffs (only the diffs are timed).
    state = new_state()
    before = [build_view(state, seat) for seat in range(4)]
    change_card_played(state)
    after = [build_view(state, seat) for seat in range(4)]
    pairs = list(zip(before, after, strict=True))
    us4 = median_us(lambda: [diff(a, b) for a, b in pairs], batch=max(1, args.batch // 4), rounds=args.rounds)
    print(f"{'card played, 4 seats (4 diffs)':<36} {'':>4} {'':>8} {us4:>15.2f}")
    print(f"=> about {1e6 / us4:,.0f} actions/s of diffing on one core")

    ops = diff(before[1], after[1])
    us_apply = median_us(partial(apply_patch, before[1], ops), batch=args.batch, rounds=args.rounds)
    print(f"(client side: apply_patch of the card-played patch: {us_apply:.2f} us)")


if __name__ == "__main__":
    main()
