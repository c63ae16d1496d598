"""What checking a finished match costs: the server's replay of every step, and the stand-alone verifier.

    python -m bench.audit                  # Slap (3 players, 3 rounds) and Leekha (to 101), 5 matches each
    python -m bench.audit --matches 20

Each match is a random playout (no server); its log is put in the audit API's shape, with the race
rulings the room would have logged. Figures: inputs per match, the server's replay of every step as a
spectator (``app.rooms.replay.frames``: the views ``/m/{id}`` pages through), and
``tools/verify_match.py`` re-dealing and re-judging the match. No pass/fail: figures for a person.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import time
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

from app.api.matches import event_out
from app.bots.playout import playout
from app.db.store import EventRec, GameRec
from app.engines import get_engine
from app.engines.base import SeatSetup, seed_hash
from app.engines.step import step
from app.rooms.race_timing import RaceTiming
from app.rooms.replay import Checkpoints, frames
from app.rooms.table import event_of

GAMES = {"slap": 3, "leekha": 4}
PAGE = 50
"""Steps per replay page, as the browser's replay page fetches them."""
VERIFIER = Path(__file__).resolve().parents[1] / "tools" / "verify_match.py"


def load_verifier() -> ModuleType:
    spec = importlib.util.spec_from_file_location("verify_match", VERIFIER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def finished_match(game: str, seed: str) -> tuple[GameRec, list[EventRec], dict[str, Any]]:
    """A played-out match as the database would hold it, and its audit data as the API serves it."""
    engine = get_engine(game)
    players = GAMES[game]
    options = engine.options_model.model_validate({})
    played = playout(engine, players, options, seed, random.Random(seed))
    races = RaceTiming(engine)
    state = engine.start([SeatSetup() for _ in range(players)], options, seed, 0)
    events = []
    for seq, inp in enumerate(played.log, start=1):
        after = step(engine, state, inp)
        events.append(replace(event_of(seq, inp, None), rulings=races.new_rulings(state, after) or None))
        state = after
    result = engine.result(state).to_json()
    seats = [{"player_id": f"p{i}", "name": f"P{i}", "prefs": {}, "bot": False} for i in range(players)]
    dumped = options.model_dump(mode="json")
    rec = GameRec(0, "BENCH", game, dumped, seats, seed, seed_hash(seed), "finished", result, 0)
    match = {
        "id": 0,
        "game": game,
        "options": dumped,
        "players": [{"seat": i, "name": s["name"], "bot": False, "prefs": {}} for i, s in enumerate(seats)],
        "seed": seed,
        "seed_hash": rec.seed_hash,
        "started_at": 0,
        "result": result,
    }
    return (
        rec,
        events,
        {"match": match, "events": [event_out(rec, ev).model_dump(mode="json") for ev in events]},
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=5)
    args = parser.parse_args()
    verifier = load_verifier()
    for game in GAMES:
        inputs, replay_ms, verify_ms = [], [], []
        for i in range(args.matches):
            rec, events, audit = finished_match(game, f"bench-audit-{game}-{i}")
            inputs.append(len(events))
            checkpoints = Checkpoints()
            started = time.perf_counter()
            for start in range(0, len(events) + 1, PAGE):  # page by page, as /m/{id} asks for them
                frames(rec, events, None, start, PAGE, checkpoints)
            replay_ms.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            verifier.verify(audit)
            verify_ms.append((time.perf_counter() - started) * 1000)
        print(
            f"{game:7s} {args.matches} matches: {statistics.median(inputs):7.0f} inputs (median); "
            f"server replay of every step {statistics.median(replay_ms):8.1f} ms; "
            f"verifier {statistics.median(verify_ms):7.1f} ms"
        )


if __name__ == "__main__":
    main()
