"""The arbiter with a round trip the client cannot delay (app/engines/race.py, ``verified``).

The clock sync rests on the client's pongs; the verified figure (the server kernel's, or a trusted
proxy's, measure of the client's TCP connection) bounds what those pongs can buy.
"""

from __future__ import annotations

from app.engines import race
from app.engines.base import Link
from app.engines.race import Fairness, judge, judge_link, link_reach

FAIR = Fairness()
S = 10_000


def test_an_honest_claim_on_a_consistent_link_is_taken_as_reported() -> None:
    for rtt, jitter, verified, extra in ((20, 2, (20, 4), 9), (150, 4, (150, 6), 20), (0, 0, (0, 0), 16)):
        network = rtt + extra
        claim = judge(
            0,
            S + 1 + network + 250,
            S,
            sent=S + 1,
            reaction_ms=250,
            rtt=rtt,
            jitter=jitter,
            verified=verified,
        )
        assert (claim.effective_ms, claim.credit, claim.flags) == (250, network, ())


def test_held_back_pongs_are_bounded_by_the_verified_round_trip() -> None:
    # The pongs say 150 ms; the kernel saw 20 ms with 4 ms of jitter: the window is that, plus a
    # frame for the programs at both ends, plus the frame of paint.
    assert FAIR.window(150, 3, verified=(20, 4)) == (18, 58)
    assert FAIR.reach(150, 3, verified=(20, 4)) == 58
    assert FAIR.window(150, 3) == (148, 170)  # what the pongs alone would buy


def test_a_link_slower_by_its_pongs_than_by_its_kernel_is_marked_not_verified() -> None:
    honest = judge(1, S + 300, S, sent=S, reaction_ms=270, rtt=20, jitter=2, verified=(20, 4))
    assert race.UNVERIFIED not in honest.flags
    # Holding pongs 130 ms and reporting the true reaction: credited its real network time, marked.
    held = judge(1, S + 300, S, sent=S, reaction_ms=270, rtt=150, jitter=2, verified=(20, 4))
    assert (held.credit, held.effective_ms) == (30, 270)
    assert held.flags == (race.UNVERIFIED,)
    # Jittered pongs: a low minimum, a wide band; the band is what is bounded.
    jittered = judge(1, S + 300, S, sent=S, reaction_ms=270, rtt=20, jitter=120, verified=(20, 4))
    assert race.UNVERIFIED in jittered.flags


def test_an_implausible_claim_over_a_verified_link_gets_the_bottom_of_the_window() -> None:
    # A 20 ms link; the true reaction was 270 ms and the claim says 170 (under-reported by 100).
    claim = judge(1, S + 300, S, sent=S, reaction_ms=170, rtt=20, jitter=2, verified=(20, 4))
    assert claim.flags == (race.ABOVE_WINDOW,)
    assert (claim.credit, claim.effective_ms) == (18, 282)  # no gain: worse than the truth
    # The pongs held back as well, and the reaction under-reported to match: still the bottom.
    cheat = judge(1, S + 300, S, sent=S, reaction_ms=140, rtt=150, jitter=2, verified=(20, 4))
    assert (cheat.credit, cheat.effective_ms) == (18, 282)
    assert cheat.flags == (race.UNVERIFIED, race.ABOVE_WINDOW)


def test_an_instant_claim_over_a_verified_link_gains_nothing() -> None:
    claim = judge(1, S + 300, S, sent=S, reaction_ms=0, rtt=20, jitter=2, verified=(20, 4))
    assert claim.effective_ms == 300 - 18 and race.INHUMAN in claim.flags and race.ABOVE_WINDOW in claim.flags


def test_an_under_report_within_the_window_gains_at_most_the_jitter_and_a_frame() -> None:
    # The most any claim over a verified 20/2 link can be credited: its top, 39 ms of network.
    for reported in range(0, 300, 7):
        claim = judge(1, S + 300, S, sent=S, reaction_ms=reported, rtt=20, jitter=2, verified=(20, 2))
        true_network = 20
        assert claim.credit - true_network <= 2 + FAIR.frame_ms


def test_a_link_without_a_verifiable_round_trip_is_judged_by_its_pongs_and_marked() -> None:
    claim = judge(1, S + 300, S, sent=S, reaction_ms=140, rtt=150, jitter=2, unverifiable=True)
    assert (claim.credit, claim.effective_ms) == (160, 140)
    assert claim.flags == (race.UNVERIFIED,)
    # UNVERIFIED alone is not suspect: an honest player on such a link does not lose ties for it.
    assert not claim.suspect


def test_a_logged_link_carries_its_verified_round_trip_into_the_ruling_and_back() -> None:
    link = Link(rtt=150, jitter=2, sent={"flip:3": S}, verified=(20, 4))
    assert Link.from_json(link.to_json()) == link
    assert Link.from_json(Link(rtt=20, jitter=2, unverifiable=True).to_json()).unverifiable
    # Older logs, without the new keys, read as before.
    assert Link.from_json({"rtt": 20, "jitter": 2, "sent": {}}) == Link(20, 2, {})
    assert Link(20, 2, {}).to_json() == {"rtt": 20, "jitter": 2, "sent": {}}
    claim = judge_link(1, S + 300, S, link, "flip:3", reaction_ms=140, fairness=FAIR)
    assert (claim.credit, claim.flags) == (18, (race.UNVERIFIED, race.ABOVE_WINDOW))
    assert link_reach(FAIR, link) == 58
