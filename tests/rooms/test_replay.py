"""Replays of finished games: rebuilt through the room's step, page by page, from checkpoints."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.engines import get_engine
from app.rooms.replay import Checkpoints, frames, replay, states
from bench.audit import finished_match


@pytest.mark.parametrize("game", ["slap", "leekha"])
def test_a_page_from_a_checkpoint_shows_what_a_replay_from_the_deal_shows(game: str) -> None:
    rec, events, _ = finished_match(game, f"checkpoints-{game}")
    checkpoints = Checkpoints(every=7, games=2)
    whole, outcome = frames(rec, events, 1, 0, len(events) + 1)
    assert [f.step for f in whole] == list(range(len(events) + 1))
    assert outcome.to_json() == rec.result
    for start in (0, 5, 7, 13, len(events) - 3, len(events)):
        page, _ = frames(rec, events, 1, start, 9, checkpoints)
        assert page == whole[start : start + 9]


def test_checkpoints_keep_only_the_games_replayed_last() -> None:
    checkpoints = Checkpoints(every=10, games=1)
    rec, events, _ = finished_match("leekha", "checkpoints-keep")
    step, state = checkpoints.before(rec, events, 25)
    assert step == 20 and state == list(states(rec, events[:20]))[-1]
    other = replace(rec, id=rec.id + 1)
    checkpoints.before(other, events, 0)
    assert list(checkpoints._saved) == [other.id]


def test_the_last_step_of_a_replay_is_the_finished_game() -> None:
    rec, events, _ = finished_match("slap", "checkpoints-last")
    page, outcome = frames(rec, events, None, len(events), 50, Checkpoints())
    assert [f.step for f in page] == [len(events)] and outcome.finished
    assert page[0].view == get_engine("slap").view(replay(rec, events), None)
