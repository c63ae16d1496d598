"""Synthetic reaction races: a seeded model of players, links and the arbiter, without sockets.

Used by the pure arbiter tests (tests/engines/test_arbiter.py) and by ``python -m bench.fairness
--synthetic``. Everything the server would measure is produced the way the server measures it:

* Clock sync: 16 NTP-style samples per link through :class:`app.rooms.clocksync.ClockSync`, with
  integer room-clock stamps ``t1``/``t4``, a client clock with its own large offset, and the client
  taking 0-2 ms to answer a ping.
* The stimulus: written to each player 0-2 ms after the game's stimulus time (the order the server
  writes a broadcast in), the write stamped in whole room-clock ms.
* The player: the frame travels one-way (half the base round trip plus 0 to half the jitter, each
  direction on its own), is painted 0-16.7 ms later (the next animation frame), the player reacts
  after their true reaction time, the input event reaches the socket 0-1.5 ms later, and the claim
  travels back. The reaction the client reports is measured from the paint to the input event,
  with +-0.5 ms of timer noise, rounded to whole ms; a liar subtracts ``under_report_ms``.
* The race: claims in arrival order, each accepted only while the race is open
  (:func:`app.engines.race.close_time`, as the Slap engine does it), ruled with
  :func:`app.engines.race.rule` and a seeded draw on ties.

>>> import random
>>> fast, slow = Racer(Link(20, 2), 200), Racer(Link(150, 5), 170)
>>> out = simulate([fast, slow], random.Random(1))
>>> out.winner, out.arrival_winner
(1, 0)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from app.engines import race
from app.engines.race import Claim, Fairness, Pending
from app.rooms.clocksync import ClockSync

FRAME_MS = 1000 / 60
STIMULUS_AT = 1_000_000


@dataclass(frozen=True, slots=True)
class Link:
    """A network path: base round trip and jitter (each direction adds 0 to ``jitter / 2`` ms)."""

    rtt: float
    jitter: float

    def one_way(self, rng: random.Random) -> float:
        return self.rtt / 2 + rng.uniform(0, self.jitter / 2)


@dataclass(frozen=True, slots=True)
class Racer:
    link: Link
    reaction_ms: float
    """The player's true reaction this race: from the stimulus painted to the input."""
    under_report_ms: float = 0.0
    """A lying client reports its reaction this much shorter."""


@dataclass(frozen=True, slots=True)
class Outcome:
    winner: int
    arrival_winner: int
    """Who would have won by arrival order alone."""
    claims: tuple[Claim, ...]
    """Every claim as judged, in seat order (rejected late ones too)."""
    accepted: frozenset[int]
    tied: tuple[int, ...]
    closed_at: int
    """When the race closed (room-clock ms)."""


def sync_stats(link: Link, rng: random.Random, samples: int = 16) -> tuple[int | None, int | None]:
    """The (rtt, jitter) the server would estimate for this link after ``samples`` pings."""
    sync = ClockSync()
    skew = rng.uniform(-1e7, 1e7)  # the client's clock: anything
    t = 500_000.0
    for _ in range(samples):
        t += 2000 + rng.uniform(0, 1)
        t1 = math.floor(t)
        arrive = t + link.one_way(rng)
        held = rng.uniform(0, 2)
        t4 = math.floor(arrive + held + link.one_way(rng))
        sync.add(t1, arrive + skew, arrive + held + skew, t4)
    return sync.rtt, sync.jitter


def simulate(
    racers: Sequence[Racer],
    rng: random.Random,
    fairness: Fairness = Fairness(),  # noqa: B008 - frozen
    window_ms: int | None = None,
) -> Outcome:
    """One race between ``racers`` (seat = index); every one of them claims."""
    window = window_ms if window_ms is not None else fairness.max_credit_ms + fairness.tie_margin_ms
    stats = [sync_stats(r.link, rng) for r in racers]
    sent_true = [STIMULUS_AT + rng.uniform(0, 2) for _ in racers]
    sent = [math.floor(t) for t in sent_true]
    claims: list[Claim] = []
    for seat, racer in enumerate(racers):
        painted = sent_true[seat] + racer.link.one_way(rng) + rng.uniform(0, FRAME_MS)
        event = painted + racer.reaction_ms
        arrival = math.floor(event + rng.uniform(0, 1.5) + racer.link.one_way(rng))
        measured = racer.reaction_ms + rng.uniform(-0.5, 0.5)
        reported = max(0, round(measured - racer.under_report_ms))
        rtt, jitter = stats[seat]
        claims.append(
            race.judge(
                seat,
                arrival,
                STIMULUS_AT,
                sent=sent[seat],
                reaction_ms=reported,
                rtt=rtt,
                jitter=jitter,
                fairness=fairness,
            )
        )
    accepted: list[Claim] = []
    deadline: int | None = None
    for claim in sorted(claims, key=lambda c: (c.arrival, c.seat)):
        if deadline is not None and claim.arrival > deadline:
            continue  # the race had closed: STALE
        accepted.append(claim)
        claimed = {c.seat for c in accepted}
        pending = [
            Pending(sent[s], fairness.reach(*stats[s])) for s in range(len(racers)) if s not in claimed
        ]
        deadline = race.close_time(
            accepted,
            pending,
            STIMULUS_AT,
            now=claim.arrival,
            tie_margin_ms=fairness.tie_margin_ms,
            window_ms=window,
        )
    assert deadline is not None
    ruling = race.rule(accepted, fairness.tie_margin_ms, lambda seats: rng.choice(seats))
    arrival_winner = min(claims, key=lambda c: (c.arrival, rng.random())).seat
    return Outcome(
        ruling.winner,
        arrival_winner,
        tuple(claims),
        frozenset(c.seat for c in accepted),
        ruling.tied,
        deadline,
    )
