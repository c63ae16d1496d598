"""Fairness benchmark: does the player who really reacted first win, whatever their latency?

Run with ``python -m bench.fairness`` (``--help`` for options). Two parts:

1. **Synthetic** (no sockets, seconds): thousands of seeded races of :mod:`bench.race_sim` per
   scenario, through the real arbiter (:mod:`app.engines.race`).
2. **Real sockets**: a real server (``uvicorn app.main:app``, real clock, temporary SQLite) and,
   per scenario, one Slap table with four seats: two simulated players who race, each behind its
   own :class:`bench.relay.DelayRelay` (a userspace TCP proxy adding the scenario's round trip and
   jitter), and two seats that never connect (they only make pairs common: four cards of ten
   numbers show a pair half of the time). The server calls Nu! itself; on every flip with a pair
   both players slap after their scripted reaction time, measured the way the browser client
   does: from the paint (the next animation frame after the reveal frame arrived, simulated as
   0-16.7 ms) to the input; a lying client reports that minus a constant. Each simulated player
   answers pings with its own skewed clock (NTP-style ``t2``/``t3``).

For every race (a flip with a pair that both racers slapped) it compares who was truly faster
(the smaller actual reaction) with who won the server's ruling, and with who would have won by
arrival order alone (the earlier arrival). A table prints, per scenario: races, how often the
truly faster player won the ruling, how often arrival order would have given it to them, ties
(seeded draws), the share of racer A, the share of each racer's claims that were flagged, and
how long a race stayed open after its first claim.

The same machinery drives ``tests/integration/test_fair_races.py`` (:func:`run_table`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

from app.engines.race import UNVERIFIED, Fairness
from app.rooms.patch import apply_patch
from bench import race_sim
from bench.relay import DelayRelay

FRAME_MS = 1000 / 60
OPEN_PHASES = ("FLIP_OPEN", "RACE")

#: Quick Slap timings for the race tables (valid SlapOptions; the race settings keep their defaults).
TABLE_OPTIONS: dict[str, Any] = {
    "rounds": 10,
    "nu_mode": "auto",
    "auto_nu_ms": 100,
    "nu_lead_ms": 100,
    "no_pair_window_ms": 60,
    "pair_timeout_ms": 3000,
    "trick_pause_ms": 100,
    "nopair_pause_ms": 60,
    "round_time_limit_s": 0,
    "round_end_pause_ms": 150,
}


# --------------------------------------------------------------------------- scenarios


@dataclass(frozen=True)
class Scenario:
    """Two racers, A (index 0) and B (index 1).

    ``links`` are their (round trip, jitter) in ms. A is truly faster by ``faster_ms`` every race,
    unless ``spread_ms`` is set: then both draw their reaction independently around the same mean
    (equal reflexes). ``lie_ms`` is how much each one under-reports its reaction (:data:`INSTANT`:
    it reports 0). ``pong_hold_ms`` is the (least, most) each one holds a clock-sync pong back
    while stamping it as answered at once, so that its link looks slower than it is.
    ``proxy_rtt``: the relays forward the round trip they impose, as a trusted proxy measuring
    the client's TCP connection would (the server trusts 127.0.0.1); without it the server has
    only the clients' own pongs.
    """

    name: str
    links: tuple[tuple[float, float], tuple[float, float]]
    faster_ms: float = 0.0
    spread_ms: float = 0.0
    lie_ms: tuple[float, float] = (0.0, 0.0)
    options: dict[str, Any] = field(default_factory=dict)
    pong_hold_ms: tuple[tuple[float, float], tuple[float, float]] = ((0.0, 0.0), (0.0, 0.0))
    proxy_rtt: bool = False

    def title(self) -> str:
        return f"{self.name} [{'proxy rtt' if self.proxy_rtt else 'no rtt'}]"

    def reactions(self, seed: str, match: int, flip: int) -> tuple[float, float]:
        """The scripted reaction times of A and B for one flip (the same whoever asks)."""
        rng = random.Random(f"{seed}:{match}:{flip}")
        base = rng.uniform(170, 270)
        if self.spread_ms:
            return (max(120.0, rng.gauss(base, self.spread_ms)), max(120.0, rng.gauss(base, self.spread_ms)))
        return base, base + self.faster_ms


INSTANT = 1e9
"""A ``lie_ms`` that makes a client report every reaction as 0 ms."""
SLOW, FAST = (150.0, 3.0), (20.0, 2.0)
HELD = ((0.0, 0.0), (130.0, 130.0))
"""B holds every pong 130 ms: its 20 ms link looks like 150 ms."""
JITTERED = ((0.0, 0.0), (0.0, 150.0))
"""B holds each pong 0-150 ms: its link looks like 20 ms with 150 ms of jitter."""

SCENARIOS: list[Scenario] = [
    Scenario("A faster by 30, both 20 ms", ((20, 2), (20, 2)), faster_ms=30),
    Scenario("A faster by 30, A 150 ms / B 20 ms", ((150, 3), (20, 2)), faster_ms=30),
    Scenario("A faster by 60, A 150 ms / B 20 ms", ((150, 3), (20, 2)), faster_ms=60),
    Scenario("A faster by 30, A 20 ms / B 150 ms", ((20, 2), (150, 3)), faster_ms=30),
    Scenario("equal reflexes, A 20 ms / B 150 ms", ((20, 2), (150, 3)), spread_ms=40),
    Scenario("B lies by 100 ms, A 150 ms faster by 40", ((150, 3), (20, 2)), faster_ms=40, lie_ms=(0, 100)),
    Scenario(
        "compensation off, A faster by 60 on 150 ms",
        ((150, 3), (20, 2)),
        faster_ms=60,
        options={"latency_compensation": False},
    ),
    Scenario("A faster by 30, +-20 ms jitter, A 150 / B 20", ((150, 20), (20, 20)), faster_ms=30),
]

LIARS: list[Scenario] = [
    Scenario("B reports instant reactions, A 150 ms faster by 30", (SLOW, FAST), 30, lie_ms=(0, INSTANT)),
    Scenario("B under-reports by 100 ms, A 150 ms faster by 30", (SLOW, FAST), 30, lie_ms=(0, 100)),
    Scenario("B under-reports by 15 ms, A 150 ms faster by 30", (SLOW, FAST), 30, lie_ms=(0, 15)),
    Scenario("B under-reports by 15 ms, A 150 ms faster by 60", (SLOW, FAST), 60, lie_ms=(0, 15)),
    Scenario(
        "B holds pongs 130 ms, under-reports 130, A 150 ms faster by 30",
        (SLOW, FAST),
        30,
        lie_ms=(0, 130),
        pong_hold_ms=HELD,
    ),
    Scenario(
        "B holds pongs 130 ms, under-reports 130, A 150 ms faster by 60",
        (SLOW, FAST),
        60,
        lie_ms=(0, 130),
        pong_hold_ms=HELD,
    ),
    Scenario(
        "B holds pongs 0-150 ms, under-reports 130, A 150 ms faster by 30",
        (SLOW, FAST),
        30,
        lie_ms=(0, 130),
        pong_hold_ms=JITTERED,
    ),
]

TABLE_CHOICES: list[Scenario] = [
    Scenario(
        "B holds pongs 130 ms, under-reports 130, A 150 ms; arrival order",
        (SLOW, FAST),
        30,
        lie_ms=(0, 130),
        pong_hold_ms=HELD,
        options={"latency_compensation": False},
    ),
    Scenario(
        "B holds pongs 130 ms, under-reports 130, both 20 ms; max_credit_ms 60",
        (FAST, FAST),
        30,
        lie_ms=(0, 130),
        pong_hold_ms=HELD,
        options={"max_credit_ms": 60, "race_window_ms": 70},
    ),
]
"""Where no trustworthy round trip exists, what the host can choose per table (README)."""


def table_rows(figure: str) -> list[Scenario]:
    """Every scenario with the proxy's figure, without it, or both (``figure``: with/without/both)."""
    rows = []
    for sc in [*SCENARIOS, *LIARS]:
        if figure in ("with", "both"):
            rows.append(replace(sc, proxy_rtt=True))
        if figure in ("without", "both"):
            rows.append(sc)
    return rows + (TABLE_CHOICES if figure != "with" else [])


# --------------------------------------------------------------------------- a simulated player


def sim_synced(sim: SimPlayer) -> Callable[[], bool]:
    return lambda: sim.synced


def has_pair(game: dict[str, Any]) -> bool:
    numbers = [int(s["card"][1:]) for s in game["seats"] if s["card"]]
    return len(set(numbers)) < len(numbers)


@dataclass
class Slap:
    painted: float
    actual_ms: float
    reported_ms: int


class SimPlayer:
    """One WebSocket client behind a relay: keeps its view, answers pings, slaps pairs on script."""

    def __init__(
        self,
        url: str,
        token: str,
        index: int,
        reaction: Callable[[int, int], float],
        *,
        lie_ms: float = 0.0,
        skew_ms: float = 0.0,
        seed: int = 0,
        pong_hold_ms: tuple[float, float] = (0.0, 0.0),
    ) -> None:
        self.url, self.token, self.index = url, token, index
        self.reaction = reaction
        self.lie_ms = lie_ms
        self.pong_hold_ms = pong_hold_ms
        self.skew_ms = skew_ms
        self.rng = random.Random(seed)
        self.ws: ClientConnection | None = None
        self.view: dict[str, Any] | None = None
        self.seq = 0
        self.offset: float | None = None
        self.rtt: int | None = None
        self.jitter: int | None = None
        self.slaps: dict[tuple[int, int], Slap] = {}
        """(match id, flip) -> what this player did."""
        self.closed: dict[tuple[int, int], dict[str, Any]] = {}
        """(match id, flip) -> the view's ``last`` record of that closed flip."""
        self.replies: dict[str, dict[str, Any]] = {}
        self.changed = asyncio.Event()
        self.errors: list[str] = []
        self._seen: set[tuple[int, int]] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._reader: asyncio.Task[None] | None = None

    def now(self) -> float:
        """This player's clock (ms): monotonic, with its own offset from every other clock."""
        return time.monotonic() * 1000 + self.skew_ms

    async def open(self) -> SimPlayer:
        self.ws = await connect(self.url, max_size=2**22)
        await self.ws.send(orjson.dumps({"type": "hello", "token": self.token}).decode())
        self._reader = asyncio.create_task(self._read())
        return self

    async def close(self) -> None:
        for task in [*self._tasks, *([self._reader] if self._reader else [])]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()

    def countdown(self, deadline: int) -> float:
        """What the browser shows: ``deadline - (client clock + offset)``, in ms."""
        assert self.offset is not None
        return deadline - (self.now() + self.offset)

    async def until(self, predicate: Callable[[], bool], timeout: float) -> None:
        async with asyncio.timeout(timeout):
            while not predicate():
                self.changed.clear()
                if self._reader is not None and self._reader.done():
                    raise RuntimeError(f"player {self.index} lost its connection: {self.errors}")
                await self.changed.wait()

    @property
    def synced(self) -> bool:
        return self.offset is not None and self.rtt is not None

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for text in self.ws:
                received = self.now()
                msg = orjson.loads(text)
                kind = msg["type"]
                if kind == "ping":
                    pong = {"type": "pong", "id": msg["id"], "t": msg["t"], "t2": received, "t3": self.now()}
                    if self.pong_hold_ms[1] > 0:
                        self._spawn(self._held_pong(pong))
                    else:
                        await self.ws.send(orjson.dumps(pong).decode())
                    if msg.get("offset") is not None:
                        self.offset, self.rtt, self.jitter = msg["offset"], msg.get("rtt"), msg.get("jitter")
                elif kind == "snapshot":
                    self.seq, self.view = msg["seq"], msg["view"]
                    self._on_view(received)
                elif kind == "patch":
                    if msg["seq"] != self.seq + 1 or self.view is None:
                        self.errors.append(f"frame gap at {msg['seq']}")
                        await self.ws.send('{"type":"resync"}')
                        continue
                    self.seq = msg["seq"]
                    self.view = apply_patch(self.view, msg["ops"])
                    self._on_view(received)
                elif kind in ("ack", "reject"):
                    self.replies[msg["id"]] = msg
                elif kind == "error":
                    self.errors.append(f"{msg['code']}: {msg['message']}")
                self.changed.set()
        finally:
            self.changed.set()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _held_pong(self, pong: dict[str, Any]) -> None:
        """A cheat: the pong says it was answered at once, but leaves only after the hold."""
        assert self.ws is not None
        await asyncio.sleep(self.rng.uniform(*self.pong_hold_ms) / 1000)
        await self.ws.send(orjson.dumps(pong).decode())

    def _on_view(self, received: float) -> None:
        assert self.view is not None
        game, match = self.view["game"], self.view["room"]["match"]
        if game is None or match is None:
            return
        key = (match["id"], game["flip"])
        if game["phase"] in OPEN_PHASES and key not in self._seen:
            self._seen.add(key)
            if has_pair(game):
                # Painted at the next animation frame; the reaction is measured from there.
                painted = received + self.rng.uniform(0, FRAME_MS)
                self._spawn(self._slap(key, painted))
        last = game["last"]
        if last is not None and (match["id"], last["flip"]) not in self.closed:
            self.closed[(match["id"], last["flip"])] = last

    async def _slap(self, key: tuple[int, int], painted: float) -> None:
        assert self.ws is not None
        target = painted + self.reaction(*key)
        await asyncio.sleep(max(0.0, target - self.now()) / 1000)  # the player's reaction time
        at = self.now()
        actual = at - painted
        reported = max(0, round(actual - self.lie_ms))
        self.slaps[key] = Slap(painted, actual, reported)
        action = {"type": "slap", "flip": key[1], "reaction_ms": reported}
        await self.ws.send(
            orjson.dumps({"type": "action", "id": f"s{key[0]}-{key[1]}", "action": action}).decode()
        )


# --------------------------------------------------------------------------- one table


@dataclass(frozen=True)
class RaceRecord:
    reactions: tuple[float, float]
    """Each racer's actual reaction (ms, from its paint to its slap)."""
    winner: int | None
    """The racer (0 = A, 1 = B) the server's ruling gave the trick to."""
    arrival_winner: int
    tied: bool
    flagged: tuple[bool, bool]
    close_wait: int
    """How long the race stayed open after its first claim arrived (ms)."""
    claims: tuple[dict[str, Any], ...]
    gains: tuple[float | None, float | None] = (None, None)
    """Each racer's actual reaction minus the effective reaction the ruling settled on (ms):
    what its claim bought it (about 0 for an honest claim)."""
    unverified: tuple[bool, bool] = (False, False)
    """Whether each racer's claim was marked "link not verified"."""
    painted_at: float = 0.0
    """When A's screen showed the stimulus (``time.monotonic()`` seconds, the relays' clock)."""
    relay_late_ms: float = 0.0
    """The most any relay released a chunk late during the race (see :data:`RACE_SPAN_S`): this
    process was too busy to impose the links' delays, so the race did not run on the stated links."""

    @property
    def truly_faster(self) -> int:
        return 0 if self.reactions[0] < self.reactions[1] else 1


@dataclass
class TableResult:
    scenario: Scenario
    races: list[RaceRecord]
    links: list[tuple[int | None, int | None]]
    """Each racer's (rtt, jitter) as the server last reported them."""
    seconds: float

    def share(self, pick: Callable[[RaceRecord], bool], among: Callable[[RaceRecord], bool] = bool) -> float:
        pool = [r for r in self.races if among(r)]
        return sum(pick(r) for r in pool) / len(pool) if pool else float("nan")

    def misses(self, pick: Callable[[RaceRecord], bool]) -> list[str]:
        """The races ``pick`` fails, one line each, for a test's failure message: how much faster A
        truly was, who won and who arrived first, each claim's flags, and how late the relays were
        (a busy machine looks exactly like network delay)."""
        return [
            f"A faster by {r.reactions[1] - r.reactions[0]:.0f} ms, won by {r.winner}, first in "
            f"{r.arrival_winner}, flags {[c['flags'] for c in r.claims]}, relays late "
            f"{r.relay_late_ms:.0f} ms"
            for r in self.races
            if not pick(r)
        ]

    def late_races(self) -> int:
        """Races during which a relay was more than :data:`LATE_RACE_MS` late."""
        return sum(r.relay_late_ms > LATE_RACE_MS for r in self.races)

    def gain(self, racer: int) -> tuple[float, float] | None:
        """The median and the largest of what ``racer``'s claims bought it (ms), None without any."""
        gains = [g for r in self.races if (g := r.gains[racer]) is not None]
        return (statistics.median(gains), max(gains)) if gains else None


def _records(players: list[SimPlayer]) -> list[RaceRecord]:
    out = []
    a, b = players
    for key, last in sorted(a.closed.items()):
        if last["kind"] != "TRICK" or key not in a.slaps or key not in b.slaps:
            continue
        claims = tuple(c for c in last["claims"] if c["seat"] in (0, 1))
        if not claims:
            continue
        first = min(claims, key=lambda c: (c["arrival"], c["seat"]))
        by_seat = {c["seat"]: c for c in claims}
        flagged = tuple(
            bool(set(by_seat[i]["flags"]) - {UNVERIFIED}) if i in by_seat else False for i in (0, 1)
        )
        unverified = tuple(i in by_seat and UNVERIFIED in by_seat[i]["flags"] for i in (0, 1))
        slaps = (a.slaps[key], b.slaps[key])
        gains = tuple(
            slaps[i].actual_ms - by_seat[i]["reaction"]
            if i in by_seat and by_seat[i]["reaction"] is not None
            else None
            for i in (0, 1)
        )
        out.append(
            RaceRecord(
                reactions=(a.slaps[key].actual_ms, b.slaps[key].actual_ms),
                winner=last["winner"] if last["winner"] in (0, 1) else None,
                arrival_winner=first["seat"],
                tied=len(last["tied"]) > 1,
                flagged=(flagged[0], flagged[1]),
                close_wait=last["closed_at"] - first["arrival"],
                claims=claims,
                gains=(gains[0], gains[1]),
                unverified=(unverified[0], unverified[1]),
                painted_at=(slaps[0].painted - a.skew_ms) / 1000,
            )
        )
    return out


LATE_RACE_MS = 10.0
"""A relay this late during a race (a third of a 30 ms lead) is counted against the table."""
RACE_SPAN_S = 1.0
"""Around A's paint, the span in which a late relay chunk counts against a race: from the stimulus
leaving the server to the ruling, with room to spare."""


def _with_relay_lateness(record: RaceRecord, relays: list[DelayRelay]) -> RaceRecord:
    start, end = record.painted_at - RACE_SPAN_S, record.painted_at + RACE_SPAN_S
    return replace(record, relay_late_ms=max(relay.most_late(start, end) for relay in relays))


async def run_table(
    http_base: str,
    target: tuple[str, int],
    scenario: Scenario,
    races: int,
    *,
    seed: int = 0,
    timeout_s: float = 120.0,
) -> TableResult:
    """Play ``races`` races of ``scenario`` on a fresh table of the server at ``http_base``.

    The racers connect through relays in front of ``target`` (the server's host and port).
    Returns early with fewer races when ``timeout_s`` runs out.
    """
    started = time.monotonic()
    name_seed = f"{scenario.name}:{seed}"
    async with httpx.AsyncClient(base_url=http_base, timeout=30) as http:

        async def player(name: str) -> str:
            r = await http.post("/api/players", json={"name": name})
            r.raise_for_status()
            token: str = r.json()["token"]
            return token

        tokens = [await player(n) for n in ("Ana", "Bo", "Cy", "Di")]
        options = {**TABLE_OPTIONS, **scenario.options}
        r = await http.post(
            "/api/rooms",
            json={"game": "slap", "options": options, "public": False},
            headers={"Authorization": f"Bearer {tokens[0]}"},
        )
        r.raise_for_status()
        code = r.json()["code"]
        for seat, token in enumerate(tokens[1:], start=1):
            r = await http.post(
                f"/api/rooms/{code}/seats",
                json={"seat": seat, "prefs": {}},
                headers={"Authorization": f"Bearer {token}"},
            )
            r.raise_for_status()

        relays = [
            DelayRelay.symmetric(
                target[0], target[1], rtt, jitter, seed=seed * 10 + i, forward_rtt=scenario.proxy_rtt
            )
            for i, (rtt, jitter) in enumerate(scenario.links)
        ]
        players: list[SimPlayer] = []
        try:
            for relay in relays:
                await relay.start()
            for i, relay in enumerate(relays):

                def reaction(match: int, flip: int, i: int = i) -> float:
                    return scenario.reactions(name_seed, match, flip)[i]

                sim = SimPlayer(
                    f"ws://{relay.host}:{relay.port}/ws/rooms/{code}",
                    tokens[i],
                    i,
                    reaction,
                    lie_ms=scenario.lie_ms[i],
                    skew_ms=(-1) ** i * random.Random(seed + i).uniform(1e5, 1e7),
                    seed=seed * 100 + i,
                    pong_hold_ms=scenario.pong_hold_ms[i],
                )
                players.append(await sim.open())
            for sim in players:
                await sim.until(sim_synced(sim), timeout=15)

            async def start() -> None:
                r = await http.post(
                    f"/api/rooms/{code}/start", headers={"Authorization": f"Bearer {tokens[0]}"}
                )
                if r.status_code != 200 and r.json().get("code") != "GAME_RUNNING":
                    r.raise_for_status()

            await start()
            end = started + timeout_s
            observer = players[0]
            while len(_records(players)) < races and time.monotonic() < end:
                with contextlib.suppress(TimeoutError):
                    await observer.until(lambda: False, timeout=min(1.0, max(0.01, end - time.monotonic())))
                view = observer.view
                if view is not None and view["room"]["status"] == "finished":
                    await start()  # a new match, the same players
                    await observer.until(
                        lambda: observer.view is not None and observer.view["room"]["status"] == "playing",
                        timeout=10,
                    )
            # Let the last started races finish so every record is complete.
            return TableResult(
                scenario,
                [_with_relay_lateness(r, relays) for r in _records(players)[:races]],
                [(p.rtt, p.jitter) for p in players],
                time.monotonic() - started,
            )
        finally:
            for sim in players:
                await sim.close()
            for relay in relays:
                await relay.close()


# --------------------------------------------------------------------------- synthetic part


@dataclass(frozen=True)
class SyntheticRow:
    name: str
    races: int
    faster_wins: float
    arrival_wins: float
    ties: float
    a_share: float
    flagged: tuple[float, float]


def synthetic(n: int, seed: int = 1) -> list[SyntheticRow]:
    rows = []
    for index, sc in enumerate(SCENARIOS):
        fair = Fairness(enabled=sc.options.get("latency_compensation", True), tie_margin_ms=10)
        rng = random.Random(seed * 1000 + index)
        outcomes = []
        truths = []
        for _ in range(n):
            base = rng.uniform(170, 270)
            if sc.spread_ms:
                r = (rng.gauss(base, sc.spread_ms), rng.gauss(base, sc.spread_ms))
            else:
                r = (base, base + sc.faster_ms)
            racers = [
                race_sim.Racer(race_sim.Link(*sc.links[i]), max(120.0, r[i]), sc.lie_ms[i]) for i in (0, 1)
            ]
            outcomes.append(race_sim.simulate(racers, rng, fair, window_ms=210))
            truths.append(0 if racers[0].reaction_ms < racers[1].reaction_ms else 1)
        rows.append(
            SyntheticRow(
                sc.name,
                n,
                sum(o.winner == t for o, t in zip(outcomes, truths, strict=True)) / n,
                sum(o.arrival_winner == t for o, t in zip(outcomes, truths, strict=True)) / n,
                sum(len(o.tied) > 1 for o in outcomes) / n,
                sum(o.winner == 0 for o in outcomes) / n,
                (
                    sum(bool(o.claims[0].flags) for o in outcomes) / n,
                    sum(bool(o.claims[1].flags) for o in outcomes) / n,
                ),
            )
        )
    return rows


# --------------------------------------------------------------------------- output


def _pct(x: float) -> str:
    return "  -  " if x != x else f"{100 * x:5.1f}%"


def render(synth: list[SyntheticRow], tables: list[TableResult]) -> str:
    lines = []
    if synth:
        lines.append(f"Synthetic races ({synth[0].races} per scenario, arbiter only, tie margin 10 ms)")
        lines.append("")
        lines.append("| scenario | faster wins: ruling | by arrival order | ties | A wins | flagged A / B |")
        lines.append("|---|---:|---:|---:|---:|---:|")
        for s in synth:
            lines.append(
                f"| {s.name} | {_pct(s.faster_wins)} | {_pct(s.arrival_wins)} | {_pct(s.ties)} | "
                f"{_pct(s.a_share)} | {_pct(s.flagged[0])} / {_pct(s.flagged[1])} |"
            )
        lines.append("")
    if tables:
        lines.append("Real sockets (real server, relays in front of each racer, Slap tables)")
        lines.append("")
        lines.append(
            "| scenario | races | faster wins: ruling | by arrival order | ties | A wins | "
            "B's gain median (max) | flagged A / B | not verified A / B | open after 1st claim (median) | "
            "server rtt/jitter A, B |"
        )
        lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        lines.extend(_table_row(t) for t in tables)
    return "\n".join(lines)


def _table_row(t: TableResult) -> str:
    rs = t.races
    waits = [r.close_wait for r in rs]
    links = ", ".join(f"{rtt}/{jit}" for rtt, jit in t.links)
    gain = t.gain(1)
    faster = _pct(t.share(lambda r: r.winner == r.truly_faster))
    return (
        f"| {t.scenario.title()} | {len(rs)} | {faster} | "
        f"{_pct(t.share(lambda r: r.arrival_winner == r.truly_faster))} | "
        f"{_pct(t.share(lambda r: r.tied))} | {_pct(t.share(lambda r: r.winner == 0))} | "
        f"{'-' if gain is None else f'{gain[0]:.0f} ({gain[1]:.0f}) ms'} | "
        f"{_pct(t.share(lambda r: r.flagged[0]))} / {_pct(t.share(lambda r: r.flagged[1]))} | "
        f"{_pct(t.share(lambda r: r.unverified[0]))} / {_pct(t.share(lambda r: r.unverified[1]))} | "
        f"{statistics.median(waits) if waits else '-'} ms | {links} |"
    )


def as_json(synth: list[SyntheticRow], tables: list[TableResult]) -> dict[str, Any]:
    return {
        "synthetic": [s.__dict__ for s in synth],
        "tables": [
            {
                "scenario": t.scenario.title(),
                "races": len(t.races),
                "b_gain_median_max": t.gain(1),
                "unverified": [t.share(lambda r: r.unverified[0]), t.share(lambda r: r.unverified[1])],
                "faster_wins": t.share(lambda r: r.winner == r.truly_faster),
                "arrival_wins": t.share(lambda r: r.arrival_winner == r.truly_faster),
                "ties": t.share(lambda r: r.tied),
                "a_share": t.share(lambda r: r.winner == 0),
                "flagged": [t.share(lambda r: r.flagged[0]), t.share(lambda r: r.flagged[1])],
                "median_open_ms": statistics.median([r.close_wait for r in t.races]) if t.races else None,
                "links": t.links,
                "seconds": round(t.seconds, 1),
                "races_with_relays_late_over_10_ms": t.late_races(),
                "winners_by_truth": dict(Counter(f"{r.truly_faster}->{r.winner}" for r in t.races)),
            }
            for t in tables
        ],
    }


# --------------------------------------------------------------------------- main


async def _run_tables(
    http_base: str, port: int, scenarios: list[Scenario], races: int, parallel: int, timeout_s: float
) -> list[TableResult]:
    limit = asyncio.Semaphore(parallel)
    counter = itertools.count()

    async def one(sc: Scenario) -> TableResult:
        async with limit:
            target = ("127.0.0.1", port)
            result = await run_table(http_base, target, sc, races, seed=next(counter), timeout_s=timeout_s)
            # Each row as it is done (a whole table takes long): the same line the final table has.
            print(
                f"{_table_row(result)}  ({result.seconds:.0f} s; relays late > {LATE_RACE_MS:.0f} ms in "
                f"{result.late_races()} races)",
                file=sys.stderr,
                flush=True,
            )
            return result

    return list(await asyncio.gather(*(one(sc) for sc in scenarios)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fairness", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--races", type=int, default=100, help="races per scenario over real sockets (1-2000)"
    )
    parser.add_argument("--synthetic", type=int, default=5000, help="synthetic races per scenario (0: none)")
    parser.add_argument("--parallel", type=int, default=3, help="tables played at the same time (1-8)")
    parser.add_argument("--timeout", type=float, default=120, help="seconds one table may play (10-1200)")
    parser.add_argument("--only", help="only scenarios whose name contains this text")
    parser.add_argument("--no-sockets", action="store_true", help="skip the real-socket part")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    parser.add_argument(
        "--figure",
        choices=("both", "with", "without"),
        default="both",
        help="real-socket rows with the proxy's round-trip figure, without it, or both",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.races <= 2000 or not 1 <= args.parallel <= 8 or not 0 <= args.synthetic <= 200_000:
        parser.error("--races 1-2000, --parallel 1-8, --synthetic 0-200000")
    if not 10 <= args.timeout <= 1200:
        parser.error("--timeout 10-1200")
    scenarios = [s for s in table_rows(args.figure) if not args.only or args.only in s.title()]
    synth = synthetic(args.synthetic) if args.synthetic else []
    tables: list[TableResult] = []
    if not args.no_sockets:
        from bench.slap_load import ServerProcess

        with tempfile.TemporaryDirectory(prefix="bordet-fairness-") as tmp:
            server = ServerProcess(f"sqlite+aiosqlite:///{tmp}/fairness.db", Path(tmp) / "server.log")
            # The relays play the trusted proxy (bench/relay.py): their round-trip header is believed.
            server.env["BORDET_TRUSTED_PROXIES"] = "127.0.0.1"
            server.start(cpus=None)
            print(f"server pid {server.pid} on port {server.port}", file=sys.stderr)
            try:
                tables = asyncio.run(
                    _run_tables(server.base, server.port, scenarios, args.races, args.parallel, args.timeout)
                )
            finally:
                server.stop()
    print(json.dumps(as_json(synth, tables), indent=2) if args.json else render(synth, tables))
    return 0


if __name__ == "__main__":
    sys.exit(main())
