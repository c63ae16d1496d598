"""Every game the lobby offers has a bot to seat and a random player to measure it against."""

from __future__ import annotations

import random

import pytest

from app.bots import bot_for, random_choice, random_player_for, rummy
from app.bots.playout import playout, replay
from app.engines import ENGINES, get_engine


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_game_in_the_lobby_has_a_bot(game: str) -> None:
    assert callable(bot_for(game))
    assert bot_for(game) is not random_player_for(game)


def test_a_game_that_lists_only_kinds_of_action_brings_its_own_random_player() -> None:
    assert random_player_for("rummy") is rummy.random_player
    assert random_player_for("leekha") is random_choice


def test_a_playout_without_choosers_uses_the_games_own_random_player() -> None:
    """UFF-DA!'s view offers the calls whenever calling is possible at all (rules 8.36: a view
    does not flag offences), so picking blindly from ``legal`` could call with nothing to catch;
    its random player knows that, and a playout with no choosers given plays it to the end."""
    engine = get_engine("uffda")
    options = engine.options_model.model_validate({"rounds": 1})
    game = playout(engine, 2, options, "default-players", random.Random(7))
    assert game.outcome.finished
    assert replay(engine, 2, options, "default-players", game.log) == game.state
