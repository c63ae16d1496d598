"""The Slap bot: Nu! as the starter, a slap on every visible pair and never on anything else.

Whole games run through the engine with no server (``app.bots.playout``); the
engine rejects any action it does not allow, so a finished game is proof that
every action the bot chose was legal.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from app.bots import Chooser, random_choice, slap
from app.bots.playout import playout
from app.engines.base import JSON, Move, SeatSetup
from app.engines.cards import number_of
from app.engines.slap import SlapEngine, SlapOptions, SlapState
from tests.bots.helpers import assert_clearly_above, win_share

ENGINE = SlapEngine()
PLAYERS = range(ENGINE.min_players, ENGINE.max_players + 1)
ONE_ROUND = SlapOptions(rounds=1)


def listed_only(chooser: Chooser) -> Chooser:
    """The chooser, checked: whatever it picks is one of the actions its view lists."""

    def checked(view: JSON, rng: random.Random) -> JSON | None:
        action = chooser(view, rng)
        assert action is None or action in view["legal"], (action, view["legal"])
        return action

    return checked


def bot_against_random(
    players: int, games: int, on_state: Callable[[Any, int], None] | None = None
) -> list[float]:
    """``games`` one-round games of the bot against random players, the bot's seat rotating."""
    shares = []
    for game_no in range(games):
        seat = game_no % players
        choosers: list[Chooser] = [random_choice] * players
        choosers[seat] = listed_only(slap.choose)
        game = playout(
            ENGINE, players, ONE_ROUND, f"slap-bot-{players}-{game_no}", random.Random(game_no), choosers
        )
        if on_state is not None:
            on_state(game.state, seat)
        shares.append(win_share(game.outcome.winners, seat))
    return shares


def opened_flip(seed: str, players: int = 3) -> SlapState:
    """A started game taken to its first open flip: Nu! by the starter, then the reveal."""
    state = ENGINE.start([SeatSetup() for _ in range(players)], ONE_ROUND, seed, 0)
    state = ENGINE.apply(state, Move(state.starter, {"type": "nu"}, 10))
    assert state.reveal_at is not None
    return ENGINE.tick(state, state.reveal_at)


def has_pair(state: SlapState) -> bool:
    return max(Counter(map(number_of, state.table)).values()) >= 2


def test_the_starter_calls_nu_and_the_others_wait() -> None:
    state = ENGINE.start([SeatSetup() for _ in range(3)], ONE_ROUND, "nu", 0)
    for seat in range(3):
        action = slap.choose(ENGINE.view(state, seat), random.Random(0))
        assert action == ({"type": "nu"} if seat == state.starter else None)


@pytest.mark.parametrize("pair", [True, False], ids=["pair", "no pair"])
def test_every_seat_slaps_a_pair_and_nobody_slaps_a_flip_without_one(pair: bool) -> None:
    state = next(s for n in range(100) if has_pair(s := opened_flip(f"flip-{n}")) == pair)
    for seat in range(state.players):
        action = slap.choose(ENGINE.view(state, seat), random.Random(0))
        assert action == ({"type": "slap", "flip": state.flip} if pair else None)


def test_a_seat_that_already_slapped_waits() -> None:
    state = next(s for n in range(100) if has_pair(s := opened_flip(f"flip-{n}")))
    state = ENGINE.apply(state, Move(0, {"type": "slap", "flip": state.flip}, state.reveal_at or 0))
    assert slap.choose(ENGINE.view(state, 0), random.Random(0)) is None


@pytest.mark.parametrize("players", PLAYERS)
def test_bots_play_only_legal_actions_through_whole_games(players: int) -> None:
    for game_no in range(10):
        choosers = [listed_only(slap.choose)] * players
        game = playout(
            ENGINE, players, SlapOptions(rounds=2), f"slap-bots-{game_no}", random.Random(game_no), choosers
        )
        assert game.outcome.finished


def test_the_bot_never_earns_a_penalty_point() -> None:
    penalties: Counter[str] = Counter()

    def count(state: SlapState, seat: int) -> None:
        for record in state.history:
            penalties["bot"] += record.penalties[seat]
            penalties["random"] += sum(record.penalties) - record.penalties[seat]

    for players in PLAYERS:
        bot_against_random(players, 10, count)
    assert penalties["bot"] == 0 and penalties["random"] > 0


@pytest.mark.parametrize("players", PLAYERS)
def test_the_bot_wins_more_often_than_random_players(players: int) -> None:
    # Measured (seeds as here, 40 games): the bot's win share is 1.00 (2 players), 1.00 (3) and
    # 0.98 (4), against 1/2, 1/3 and 1/4 for a random player.
    assert_clearly_above(bot_against_random(players, 40), players)
