"""The shared reaction race: the arbiter's credit, ruling, deadline (Slap rules 3.6)."""

import pytest

from app.engines.race import Claim, Fairness, judge, rule
from app.engines.race_settings import accepts, min_window, race_deadline

S = 10_000
FRAME = Fairness().frame_ms
MIN_REACTION = Fairness().min_reaction_ms


def honest(arrival: int, rtt: int) -> int:
    """The reaction an honest client reports: shown ~rtt/2 after S, its slap travels rtt/2 back."""
    return arrival - S - rtt


def at(
    arrival: int, rtt: int | None, reaction: int | None, max_credit: int = 150, enabled: bool = True
) -> int:
    """Where the arbiter ranks a claim whose stimulus was written to the player at S."""
    fair = Fairness(max_credit_ms=max_credit, enabled=enabled)
    return judge(0, arrival, S, sent=S, reaction_ms=reaction, rtt=rtt, jitter=0, fairness=fair).at


def test_honest_client_gets_its_round_trip_back():
    assert at(10_420, 60, honest(10_420, 60)) == 10_360
    assert at(10_440, 120, honest(10_440, 120)) == 10_320


def test_credit_is_capped_by_max_credit():
    assert at(10_750, 500, 250) == 10_600
    assert at(10_750, 500, 250, max_credit=500) == 10_250


@pytest.mark.parametrize("reported", [0, 1, 50, 320, 400, 10_000, -5])
def test_a_lying_client_never_gets_more_than_its_round_trip_and_a_frame(reported):
    assert at(10_400, 80, reported) >= 10_400 - 80 - FRAME


def test_missing_sync_or_disabled_compensation_means_no_credit():
    assert at(10_400, None, 300) == 10_400
    assert at(10_400, -20, 0) == 10_400  # a nonsense rtt is no measurement
    assert at(10_400, 80, 300, enabled=False) == 10_400


def test_a_missing_reaction_gets_only_the_links_smallest_network_time():
    low = 80 - Fairness().slack_ms
    assert at(10_400, 80, None) == 10_400 - low


def test_a_claim_is_never_ranked_faster_than_a_human_after_the_stimulus():
    assert at(10_030, 150, 0) == S + MIN_REACTION
    assert at(9_990, 150, 0) == S + MIN_REACTION  # arrived before the stimulus: a human minimum still


def test_rule_orders_by_compensated_time_then_arrival_then_seat():
    claims = [Claim(3, 10_450, 10_350), Claim(0, 10_420, 10_360), Claim(1, 10_430, 10_350)]
    ruling = rule(claims, 0, tie_break=min)
    assert (ruling.winner, ruling.tied) == (1, (1, 3))
    assert [c.seat for c in ruling.order] == [1, 3, 0]
    ruling = rule(claims, 0, tie_break=max)
    assert ruling.winner == 3
    assert [c.seat for c in ruling.order] == [3, 1, 0]  # the winner leads the order


def test_tie_break_is_called_only_on_a_real_tie():
    calls = []

    def tie_break(seats):
        calls.append(seats)
        return seats[-1]

    assert rule([Claim(0, 1, 100), Claim(2, 2, 111)], 10, tie_break).winner == 0
    assert calls == []
    assert rule([Claim(0, 1, 100), Claim(2, 2, 110)], 10, tie_break).winner == 2
    assert calls == [(0, 2)]


def test_tie_margin_is_measured_from_the_best_claim():
    claims = [Claim(0, 1, 100), Claim(1, 1, 108), Claim(2, 1, 115)]
    assert rule(claims, 10, min).tied == (0, 1)


def test_rule_rejects_bad_input():
    with pytest.raises(ValueError):
        rule([], 10, min)
    with pytest.raises(ValueError):
        rule([Claim(0, 1, 1), Claim(0, 2, 2)], 10, min)
    with pytest.raises(ValueError):
        rule([Claim(0, 1, 1), Claim(1, 2, 2)], 10, lambda seats: 3)


def test_single_claim_wins_alone():
    ruling = rule([Claim(2, 10_500, 10_400, 300, 100)], 10, min)
    assert (ruling.winner, ruling.tied, ruling.order[0].reaction_ms) == (2, (2,), 300)


def test_race_closes_a_window_after_the_first_arrival_inclusive():
    deadline = race_deadline(10_420, 160)
    assert deadline == 10_580
    assert accepts(10_580, deadline) and not accepts(10_581, deadline)


def test_minimum_window_lets_every_possible_winner_in():
    window = min_window(150, 10)
    first = Claim(0, 10_400, 10_400)  # no credit: the strictest case
    # The latest arrival that can still tie the first claim with full credit:
    latest = Claim(1, 10_400 + window, 10_400 + window - 150)
    assert accepts(latest.arrival, race_deadline(first.arrival, window))
    assert rule([first, latest], 10, max).tied == (0, 1)
