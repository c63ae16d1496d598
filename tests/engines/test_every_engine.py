"""The generic random-playout test (OpenSpiel style) that every registered engine must pass."""

from __future__ import annotations

import copy
import random
import re
from typing import Any

import orjson
import pytest

from app.bots import random_player_for
from app.bots.playout import playout, replay
from app.engines import ALL_ENGINES
from app.engines.base import IllegalAction, Move, SeatSetup
from app.engines.step import HostEnd, step
from app.engines.stopped import stoppable

CODE = re.compile(r"[A-Z][A-Z0-9_]*")

CASES = [
    (name, players)
    for name, engine in sorted(ALL_ENGINES.items())
    for players in range(engine.min_players, engine.max_players + 1)
]


def fast_options(name: str) -> dict[str, object]:
    """One short match per game, so the generic test stays quick."""
    fields = ALL_ENGINES[name].options_model.model_fields
    return {"rounds": 1} if "rounds" in fields else {"mode": "single_round"} if name == "kuuduk" else {}


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_random_games_end_replay_identically_and_never_show_the_seed(name: str, players: int) -> None:
    engine = ALL_ENGINES[name]
    options = engine.options_model.model_validate(fast_options(name))
    for game_no in range(3):
        seed = f"generic-{name}-{players}-{game_no}-secret"
        views_seen: list[bytes] = []

        def check(state: object, views_seen: list[bytes] = views_seen) -> None:
            # The room asks ``is_over`` after every turn and builds the result only then.
            assert engine.is_over(state) == engine.result(state).finished
            for seat in [*range(players), None]:
                views_seen.append(orjson.dumps(engine.view(state, seat)))

        choosers = [random_player_for(name)] * players
        game = playout(engine, players, options, seed, random.Random(game_no), choosers, on_step=check)
        assert game.outcome.finished
        assert len(game.outcome.scores) == players
        assert set(game.outcome.winners) <= set(range(players)) and game.outcome.winners
        assert replay(engine, players, options, seed, game.log) == game.state
        assert not any(seed.encode() in view for view in views_seen)


@pytest.mark.parametrize("name", sorted(ALL_ENGINES))
def test_every_engine_declares_its_options_with_descriptions(name: str) -> None:
    engine = ALL_ENGINES[name]
    schema = engine.options_model.model_json_schema()
    for field, spec in schema.get("properties", {}).items():
        assert spec.get("description"), f"{name}.{field} has no description for the options form"
    assert 1 <= engine.min_players <= engine.max_players


@pytest.mark.parametrize("name", sorted(ALL_ENGINES))
def test_the_views_of_several_seats_at_once_are_each_seats_own_view(name: str) -> None:
    engine = stoppable(ALL_ENGINES[name])
    players = engine.max_players
    options = engine.options_model.model_validate(fast_options(name))
    keys = [None, *range(players)]
    seen: list[object] = []

    def check(state: object) -> None:
        together = engine.views(state, keys)
        assert list(together) == keys
        assert all(together[seat] == engine.view(state, seat) for seat in keys)
        seen.append(state)

    choosers = [random_player_for(name)] * players
    playout(engine, players, options, f"views-{name}", random.Random(7), choosers, on_step=check)
    midway = seen[len(seen) // 2]
    deadline = engine.next_deadline(midway)
    stopped = step(engine, midway, HostEnd(0 if deadline is None else deadline))
    assert engine.views(stopped, keys) == {seat: engine.view(stopped, seat) for seat in keys}


@pytest.mark.parametrize("name", sorted(ALL_ENGINES))
def test_a_game_has_races_exactly_when_it_names_race_stimuli(name: str) -> None:
    engine = ALL_ENGINES[name]
    players = engine.max_players
    options = engine.options_model.model_validate(fast_options(name))
    named: list[str] = []
    choosers = [random_player_for(name)] * players
    for game_no in range(10):
        playout(
            engine,
            players,
            options,
            f"races-{name}-{game_no}",
            random.Random(game_no),
            choosers,
            on_step=lambda state: named.extend(engine.stimuli(state)),
        )
    assert engine.has_races() == bool(named) and stoppable(engine).has_races() == engine.has_races()


PART_DEPTH = 2
"""How deep a view's parts are checked: the view's own keys (``/seats``) and their entries (``/seats/2``)."""


def _rebuilt(old: object, new: object, path: str = "") -> list[str]:
    """The parts of ``new`` (below the view itself) equal to the old view's but built again, which
    the room's diff would walk into. A part rebuilt only to hold the old view's own objects (a list
    of unchanged seats) is passed over entry by entry, so it counts as kept."""
    if old is new or type(old) is not type(new) or not isinstance(new, (dict, list)):
        return []
    if isinstance(old, dict) and isinstance(new, dict):
        pairs = [(f"{path}/{key}", old[key], new[key]) for key in new.keys() & old.keys()]
    else:
        assert isinstance(old, list) and isinstance(new, list)
        pairs = [(f"{path}/{i}", o, n) for i, (o, n) in enumerate(zip(old, new, strict=False))]
    kept = all(isinstance(n, (dict, list)) and o is n for _, o, n in pairs)
    if path and old == new and not (kept and len(old) == len(new)):
        return [path]
    if path.count("/") >= PART_DEPTH:
        return []
    return [found for sub_path, o, n in pairs for found in _rebuilt(o, n, sub_path)]


@pytest.mark.parametrize("name", sorted(ALL_ENGINES))
def test_a_view_part_that_did_not_change_is_the_same_object(name: str) -> None:
    engine = ALL_ENGINES[name]
    players = engine.max_players
    options = engine.options_model.model_validate(fast_options(name))
    keys = [None, *range(players)]
    last: list[dict[int | None, Any]] = []
    rebuilt: set[str] = set()

    def check(state: object) -> None:
        views = engine.views(state, keys)
        if last:
            for seat in keys:
                rebuilt.update(_rebuilt(last[0][seat], views[seat]))
        last[:] = [views]

    choosers = [random_player_for(name)] * players
    playout(engine, players, options, f"same-{name}", random.Random(3), choosers, on_step=check)
    assert last, "the playout made no step"
    assert sorted(rebuilt) == [], sorted(rebuilt)


# Values a hostile client puts where a move's fields go: wrong types, out of range, oversized,
# nested where a scalar belongs (the wire's bounds let each of these through to the engine).
HOSTILE_VALUES: tuple[object, ...] = (
    None, True, False, 0, -1, 1, 2**53 - 1, -(2**53), 1.5, -0.0, 1e300, "", "x", "\u0000",
    "x" * 200, "☃", [], [None], [0, 0, 0], ["x", "y", "z"], {}, {"set": -1}, {"set": 2**53 - 1},
    {"set": "a", "index": "b"}, {"a": {"b": {"c": {}}}},
)  # fmt: skip


def hostile_actions(legal: list[Any], rng: random.Random) -> list[Any]:
    """Actions built from what the view offers, with a field swapped for a hostile value or
    dropped, a field added, or the type alone; and a few that are not moves at all."""
    made: list[Any] = [None, 7, "slap", [], {}, {"type": None}, {"type": "no_such_move"}]
    for action in legal:
        if not isinstance(action, dict):
            continue
        made.append({"type": action.get("type")})
        made.append({**action, "extra": rng.choice(HOSTILE_VALUES)})
        for field in action:
            made.append({**action, field: rng.choice(HOSTILE_VALUES)})
            made.append({k: v for k, v in action.items() if k != field})
    return made


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_a_hostile_action_is_refused_with_a_code_and_changes_nothing(name: str, players: int) -> None:
    engine = stoppable(ALL_ENGINES[name])
    options = engine.options_model.model_validate(fast_options(name))
    seed = f"hostile-{name}-{players}"
    rng = random.Random(seed)
    game = playout(engine, players, options, seed, random.Random(1), [random_player_for(name)] * players)
    state = engine.start([SeatSetup() for _ in range(players)], options, seed, 0)
    tried = refused = 0
    for number, inp in enumerate(game.log):
        if number % 3 == 0:  # a sample of the game's states, from its first to near its end
            at = inp.at
            before = copy.deepcopy(state)
            views = {seat: orjson.dumps(engine.view(state, seat)) for seat in [*range(players), None]}
            offered = {seat: engine.view(state, seat)["legal"] or [] for seat in range(players)}
            for seat in range(players):
                others = [action for s, legal in offered.items() if s != seat for action in legal]
                tries = [*hostile_actions(offered[seat], rng), *rng.sample(others, min(3, len(others)))]
                for action in tries:
                    tried += 1
                    try:
                        step(engine, state, Move(seat, action, at))
                    except IllegalAction as exc:
                        refused += 1
                        assert CODE.fullmatch(exc.code), (name, action, exc.code)
                        assert exc.message, (name, action)
            # Refused or not, every try was on ``state``: it is exactly as it was.
            assert state == before
            assert {seat: orjson.dumps(engine.view(state, seat)) for seat in views} == views
        state = step(engine, state, inp)
    assert refused > tried // 2 > 0
