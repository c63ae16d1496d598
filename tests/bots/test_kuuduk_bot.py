"""The Kuuduk bot: it keeps its hand in step with its row, lays and swipes well, only ever sends
legal actions in whole games, and beats random players by a statistically safe margin."""

from __future__ import annotations

import random

import pytest

from app.bots import kuuduk, random_choice
from app.bots.playout import playout
from app.engines.base import JSON, Move
from app.engines.kuuduk import ENGINE, KuudukOptions, KuudukState, Phase, Step
from tests.bots.test_leekha_bot import SIGNIFICANCE, binomial_tail, strictly_legal
from tests.engines.test_kuuduk_helpers import arrange, in_play, new_game

RNG = random.Random(0)  # the bot never draws from it; choose() takes one by contract
GAMES_VS_RANDOM = {2: 20, 3: 12, 4: 10, 6: 8, 8: 8}
TIE_SLACK = 0.02
"""Random tables win slightly more than 1/N per seat because void rounds can end a game with a
shared win: 51.0 % of seats win at 2 players, 33.3 % at 3, 25.0 % at 4 (240 all-random games each)."""


def decide(state: KuudukState, seat: int) -> JSON | None:
    return kuuduk.choose(ENGINE.view(state, seat), RNG)


def table(
    hand: list[str],
    row: dict[int, str],
    step: Step,
    players: int = 2,
    others: dict[int, dict[int, str]] | None = None,
    discard: list[str] | None = None,
) -> KuudukState:
    """Seat 0 on turn at ``step`` with this hand and row; ``others`` are other seats' rows."""
    layouts = {0: row, **(others or {})}
    state = arrange(new_game(players), hands={0: hand}, layouts=layouts, discard=discard)
    return in_play(state, 0, step)


# -- the strategy, spot by spot ------------------------------------------------------------


def test_it_passes_when_its_hand_covers_the_free_slots():
    row = {1: "kG1-1", 2: "uG1-1", 3: "uG2-1", 4: "dG2-1"}
    assert decide(table(["uG3-1", "kG3-1"], row, Step.ACQUIRE), 0) == {"type": "pass"}


def test_it_passes_to_shed_a_card_its_row_has_no_room_for():
    row = {1: "kG1-1", 2: "uG1-1", 3: "uG2-1", 4: "dG2-1", 5: "uG3-1"}
    state = table(["dO1-1", "dP2-1"], row, Step.ACQUIRE, discard=["kG3-1"])
    assert decide(state, 0) == {"type": "pass"}


def test_it_draws_when_its_hand_is_short():
    state = table(["uG3-1", "kG3-1"], {}, Step.ACQUIRE, discard=["swipe_left-1"])
    assert decide(state, 0) == {"type": "draw"}


def test_it_picks_up_a_fitting_discard_when_its_hand_is_short():
    state = table(["uO3-1"], {1: "kG1-1"}, Step.ACQUIRE, discard=["uG2-1"])
    assert decide(state, 0) == {"type": "take_discard", "placement": 2}


def test_it_lays_the_card_that_leaves_its_hand_fitting():
    # The purple u fits by dots and lets the purple k follow; the orange d fits too but would
    # leave the k with no neighbour to go next to.
    state = table(["uP1-1", "kP2-1", "dO3-1"], {3: "uO1-1"}, Step.PLAY)
    assert decide(state, 0) == {"type": "lay", "card": "uP1-1", "placement": 2}


def test_it_swipes_from_the_player_closest_to_finishing():
    five = {1: "kP1-1", 2: "uP1-1", 3: "uO1-1", 5: "uP2-1", 6: "kP2-1"}
    state = table(["swipe_any-1"], {}, Step.PLAY, players=3, others={1: {2: "uG1-1"}, 2: five})
    action = decide(state, 0)
    assert action is not None and action["type"] == "swipe" and action["victim"] == 2


def test_it_plays_a_switch_rather_than_discarding_when_nothing_fits():
    state = table(["switch-1", "kP3-1", "dP3-1"], {1: "kG1-1", 2: "uG1-1"}, Step.PLAY)
    assert decide(state, 0) == {"type": "switch", "card": "switch-1"}


def test_it_discards_a_letter_whose_slots_are_full_first():
    row = {3: "uG2-1", 4: "dG2-1", 5: "uG3-1"}
    state = table(["uP1-1", "dO1-1", "kP1-1"], row, Step.PLAY)
    assert decide(state, 0) == {"type": "discard", "card": "dO1-1"}


def test_it_sheds_its_last_card_to_win_the_round():
    row = {1: "kP1-1", 2: "uP1-1", 3: "uO1-1", 4: "dP1-1", 5: "uP2-1", 6: "kP2-1"}
    state = table(["kO3-1"], row, Step.ACQUIRE, players=3)
    for _ in range(2):
        action = decide(state, 0)
        assert action is not None
        state = ENGINE.apply(state, Move(0, action, 1000))
    assert state.phase is Phase.ROUND_END and state.history[-1].winner == 0


def test_it_waits_when_it_is_not_its_turn():
    state = table(["uG3-1"], {}, Step.ACQUIRE, players=3)
    assert decide(state, 1) is None and decide(state, 2) is None


# -- whole games -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 9))
def test_it_only_ever_plays_legal_actions_in_whole_games(players: int):
    seen: list[int] = []
    bot = strictly_legal(kuuduk.choose, seen)
    mixed = strictly_legal(random_choice, [])
    # All-bot tables, one of them mixed with random players; points games at small tables.
    mode = "points" if players <= 3 else "single_round"
    for index, choosers in enumerate(
        [[bot] * players, [bot, mixed] * (players // 2) + [bot] * (players % 2)]
    ):
        game = playout(
            ENGINE,
            players,
            KuudukOptions(mode=mode),
            f"bot-legal-{players}-{index}",
            random.Random(index),
            choosers,
        )
        assert game.outcome.finished and game.outcome.winners
        assert any(r.winner is not None for r in game.state.history)
    assert len(seen) > 20 * players


@pytest.mark.parametrize("players", sorted(GAMES_VS_RANDOM))
def test_it_wins_more_often_than_random_players(players: int):
    games, wins = GAMES_VS_RANDOM[players], 0
    bot = strictly_legal(kuuduk.choose, [])
    for index in range(games):
        seat = index % players
        choosers = [bot if s == seat else random_choice for s in range(players)]
        game = playout(
            ENGINE,
            players,
            KuudukOptions(),
            f"bot-vs-random-{players}-{index}",
            random.Random(index),
            choosers,
        )
        wins += seat in game.outcome.winners
    # Seeded, so deterministic: 20 of 20 games at 2 players, 12/12 at 3, 10/10 at 4, 8/8 at 6, 7/8 at 8;
    # random play reaches each of these with a chance below 1e-5.
    assert binomial_tail(wins, games, 1 / players + TIE_SLACK) < SIGNIFICANCE, (wins, games)
    assert wins / games >= 0.75
