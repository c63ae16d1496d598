"""Every game the lobby offers has a bot to seat and a random player to measure it against."""

from __future__ import annotations

import pytest

from app.bots import bot_for, random_choice, random_player_for, rummy
from app.engines import ENGINES


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_game_in_the_lobby_has_a_bot(game: str) -> None:
    assert callable(bot_for(game))
    assert bot_for(game) is not random_player_for(game)


def test_a_game_that_lists_only_kinds_of_action_brings_its_own_random_player() -> None:
    assert random_player_for("rummy") is rummy.random_player
    assert random_player_for("leekha") is random_choice
