"""A broadcast's patches: each key's turns its last view into its new one, the shared part diffed once."""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

import orjson
import pytest

from app.bots import random_player_for
from app.bots.playout import playout
from app.engines import ALL_ENGINES
from app.engines.stopped import stoppable
from app.rooms.diff import diff
from app.rooms.frames import Patches
from app.rooms.patch import apply_patch
from tests.engines.test_every_engine import fast_options

View = dict[str, Any]


def patched(old: View, text: str | None) -> View:
    return old if text is None else apply_patch(old, orjson.loads(text))


def broadcasts(name: str) -> list[dict[int | None, View]]:
    """Every seat's and a spectator's view after each step of a random game, as a room sends them."""
    engine = stoppable(ALL_ENGINES[name])
    players = engine.max_players
    keys = [None, *range(players)]
    room = {"code": "QUIET", "status": "playing"}
    sent: list[dict[int | None, View]] = []

    def build(state: object) -> None:
        views = engine.views(state, keys)
        views[0] = engine.view(state, 0)  # built alone, as a bot's is: equal parts, not the same objects
        sent.append({key: {"room": room, "game": views[key]} for key in keys})

    options = engine.options_model.model_validate(fast_options(name))
    choosers = [random_player_for(name)] * players
    playout(engine, players, options, f"patches-{name}", random.Random(5), choosers, on_step=build)
    return sent


@pytest.mark.parametrize("name", sorted(ALL_ENGINES))
def test_each_key_s_patch_turns_its_last_view_into_its_new_one(name: str) -> None:
    seat_keys = stoppable(ALL_ENGINES[name]).seat_keys()
    sent = broadcasts(name)
    for before, after in pairwise(sent):
        patches = Patches(seat_keys)
        for key in after:
            text = patches.text(before[key], after[key])
            assert patched(before[key], text) == after[key]


def test_keys_whose_own_part_did_not_change_share_one_patch_text() -> None:
    # A Rummy draft step changes the public draft: the spectator and the seats not playing get one text.
    sent = broadcasts("rummy")
    shared = 0
    for before, after in pairwise(sent):
        turn = after[None]["game"]["turn"]
        if turn is None or before[None]["game"]["turn"] != turn:
            continue
        patches = Patches(stoppable(ALL_ENGINES["rummy"]).seat_keys())
        texts = {key: patches.text(before[key], after[key]) for key in after}
        idle = [key for key in after if key != turn]
        if texts[None] is not None:
            assert all(texts[key] is texts[None] for key in idle)
            shared += 1
    assert shared


def test_a_view_without_its_game_part_is_diffed_whole() -> None:
    patches = Patches(("you", "legal"))
    old: View = {"room": {"status": "lobby"}, "game": None}
    new: View = {"room": {"status": "playing"}, "game": {"you": 0, "legal": [], "pile": []}}
    text = patches.text(old, new)
    assert text is not None and orjson.loads(text) == diff(old, new)
