"""The clock-sync ping schedule: a burst, the short interval while a link moves, backing off once it
is steady (racing seats up to a cap, everyone else at the watching interval), back to short on a jump.

The rules on the pure schedule first; then on a real :class:`Connection` whose socket only records
what it is sent, with intervals of milliseconds so that its ping timer runs the test (every wait is
for a ping to arrive, never a sleep).
"""

from __future__ import annotations

import asyncio

import orjson
import pytest

from app.realtime.connection import Connection
from app.realtime.ping_schedule import PING_BURST, STEADY_SAMPLES, PingSchedule, ping_schedule
from app.rooms.clocksync import ClockSync

SCHEDULE = PingSchedule(short_s=2.0, racing_max_s=16.0, watching_s=30.0)
AFTER_BURST = len(PING_BURST)


def test_the_join_burst_comes_first_however_steady_the_link() -> None:
    gaps = [SCHEDULE.after(sent, 0.0, steady=99, racing=False) for sent in range(1, AFTER_BURST)]
    assert gaps == list(PING_BURST[1:])


@pytest.mark.parametrize("racing", [True, False])
def test_a_link_that_moved_is_pinged_at_the_short_interval(racing: bool) -> None:
    for steady in range(STEADY_SAMPLES):
        assert SCHEDULE.after(AFTER_BURST + 5, 16.0, steady=steady, racing=racing) == 2.0


def test_a_racing_seat_on_a_steady_link_doubles_its_interval_up_to_the_cap() -> None:
    gap, gaps = PING_BURST[-1], []
    for sent in range(AFTER_BURST, AFTER_BURST + 6):
        gap = SCHEDULE.after(sent, gap, steady=STEADY_SAMPLES, racing=True)
        gaps.append(gap)
    assert gaps == [2.0, 4.0, 8.0, 16.0, 16.0, 16.0]


def test_a_connection_no_race_is_judged_with_is_pinged_at_the_watching_interval() -> None:
    assert SCHEDULE.after(AFTER_BURST, PING_BURST[-1], steady=STEADY_SAMPLES, racing=False) == 30.0


def test_the_longer_intervals_are_never_below_the_short_one() -> None:
    assert ping_schedule(5.0, 1.0, 2.0) == PingSchedule(5.0, 5.0, 5.0)


def steady_sample(sync: ClockSync, t1: float) -> None:
    """A 40 ms round trip, the client's clock 5 s ahead."""
    sync.add(t1, t1 + 20 + 5000, t1 + 21 + 5000, t1 + 41)


def test_samples_within_the_band_keep_a_link_steady() -> None:
    sync = ClockSync()
    for i in range(6):
        steady_sample(sync, 1000.0 * i)
    sync.add(9000, 9000 + 24 + 5000, 9000 + 25 + 5000, 9000 + 49)  # 8 ms slower: within the band
    assert sync.steady == 7


@pytest.mark.parametrize(
    ("why", "t2", "t4"),
    [
        ("the round trip jumped", 9000 + 100 + 5000, 9000 + 201),
        ("a faster route", 9000 + 5 + 5000, 9000 + 11),
        ("the client's clock moved", 9000 + 20 + 5300, 9000 + 41),
    ],
)
def test_a_sample_far_off_the_estimate_makes_the_link_unsteady(why: str, t2: float, t4: float) -> None:
    sync = ClockSync()
    for i in range(6):
        steady_sample(sync, 1000.0 * i)
    sync.add(9000, t2, t2 + 1, t4)
    assert sync.steady == 0, why


# --- on a connection -------------------------------------------------------------------------------

TINY = PingSchedule(short_s=0.002, racing_max_s=0.016, watching_s=0.03, burst=(0.0, 0.001, 0.001))


class Client:
    """A connection whose socket is its client: each ping is answered as it is written (so before
    the next one is planned), by a client 5 s ahead on a 40 ms link, ``jump`` ms later on the way back.
    ``gaps`` receives, per ping, the gap the connection planned from it to the next."""

    def __init__(self) -> None:
        self.gaps: asyncio.Queue[float] = asyncio.Queue()
        self.jump = 0
        self.clock = 0
        self.conn = Connection(
            self,  # type: ignore[arg-type]
            "p1",
            lambda: self.clock,
            room_code="ROOM",
            backlog_bytes=64 * 1024,
            write_timeout_s=5.0,
        )
        self.conn.start()
        self.conn.start_pings(TINY)

    async def send_text(self, text: str) -> None:
        ping = orjson.loads(text)
        if ping["type"] != "ping":
            return
        t1 = self.conn.pings.pop(ping["id"])
        self.conn.sync.add(t1, t1 + 20 + 5000, t1 + 21 + 5000, t1 + 41 + self.jump)
        self.conn.check_link()
        self.clock += 100
        self.gaps.put_nowait(self.conn.ping_gap)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        return None

    async def next_gaps(self, pings: int) -> list[float]:
        async with asyncio.timeout(5):
            return [await self.gaps.get() for _ in range(pings)]


async def test_a_spectators_connection_settles_on_the_watching_interval() -> None:
    client = Client()
    short = TINY.short_s
    assert await client.next_gaps(5) == [*TINY.burst[1:], short, short, TINY.watching_s]
    await client.conn.stop()


async def test_a_racing_seat_backs_off_and_hurries_back_when_its_samples_jump() -> None:
    client = Client()
    client.conn.set_racing(True)
    short, cap = TINY.short_s, TINY.racing_max_s
    # The burst; short until four samples agree in a row; then doubling up to the cap.
    gaps = await client.next_gaps(10)
    assert gaps == [*TINY.burst[1:], short, short, 2 * short, 4 * short, 8 * short, cap, cap, cap]
    client.jump = 300  # the round trip jumped by 300 ms
    assert await client.next_gaps(1) == [short]  # the next ping is planned at the short interval
    client.jump = 0  # steady again, at the new estimate's low end
    assert await client.next_gaps(5) == [short, short, short, short, 2 * short]
    await client.conn.stop()


async def test_becoming_a_racing_seat_pings_at_once_from_the_short_interval() -> None:
    client = Client()
    assert (await client.next_gaps(5))[-1] == TINY.watching_s
    client.conn.set_racing(True)  # the game starts: the next ping does not wait out the 30 ms
    assert client.conn.ping_gap == TINY.short_s
    assert await client.next_gaps(1) == [2 * TINY.short_s]  # steady: it backs off from there
    await client.conn.stop()
