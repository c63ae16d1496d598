#!/usr/bin/env python3
"""Check a finished Bordet match from its public audit data alone (Slap and Leekha).

Standard library only, no code of the server: everything here is re-derived from
docs/verification.md. Given a match's audit record (``GET /api/matches/{id}``) and its
input log (``GET /api/matches/{id}/events``), it

1. checks ``sha256(seed) == seed_hash``;
2. deals again from the seed (splitmix64, Fisher-Yates);
3. replays every logged input under the game's rules: each move must be legal where
   the log puts it, each timer fires where the rules say, each race is judged again
   from the timing the server logged with the claims, and every ruling must equal the
   logged one;
4. compares the final scores, winners and round records with the stored result.

Usage::

    python tools/verify_match.py http://host:8000/m/42          # a replay link
    python tools/verify_match.py http://host:8000 42 --save m42.json
    python tools/verify_match.py m42.json                       # a saved audit

Exit status 0: everything matches; 1: a mismatch (printed); 2: the data could not be read.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import urllib.error
import urllib.request
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

JSON = dict[str, Any]
MASK = (1 << 64) - 1
PAGE = 1000


class Mismatch(Exception):
    """The log does not replay to what the server said."""


class Illegal(Exception):
    """A logged move the rules do not allow (the server should never have logged it)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


# --------------------------------------------------------------------------- the generator


class Rng:
    """splitmix64 seeded with the first 8 bytes (big-endian) of sha256(seed)."""

    def __init__(self, seed: str) -> None:
        self.state = int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big")

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def shuffled(self, items: Sequence[Any]) -> list[Any]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def choice(self, items: Sequence[Any]) -> Any:
        return items[self.below(len(items))]


def deck(colours: str, numbers: range) -> list[str]:
    return [f"{c}{n:02d}" for c in colours for n in numbers]


def number(card: str) -> int:
    return int(card[1:3])


# --------------------------------------------------------------------------- one door for every input


class Game(ABC):
    """What every game shares: timers fire in order, each at its own deadline."""

    players: int
    deadline: int | None

    @abstractmethod
    def over(self) -> bool: ...

    @abstractmethod
    def fire(self, t: int) -> None:
        """The transition due at ``t`` (the state's deadline)."""

    @abstractmethod
    def play(self, seat: int, action: JSON, event: JSON) -> None:
        """One seat's move; raises :class:`Illegal` where the rules refuse it."""

    @abstractmethod
    def result(self) -> JSON: ...

    def end_early(self, at: int) -> None:
        raise Illegal("END_NOT_ALLOWED")

    def rulings(self) -> list[JSON]:
        """The rulings of the races the state remembers (a game without races: none)."""
        return []

    def tick(self, now: int) -> None:
        while self.deadline is not None and self.deadline <= now:
            self.fire(self.deadline)

    def step(self, event: JSON) -> list[JSON]:
        """One logged input, as the server's step takes it; returns the race rulings it produced.

        No input after the end; deadlines strictly before an input fire first.
        """
        before = self.rulings()
        self.take(event)
        return [r for r in self.rulings() if r not in before]

    def take(self, event: JSON) -> None:
        at = event["at"]
        if event["kind"] == "tick":
            self.tick(at)
            return
        if self.over():
            raise Illegal("GAME_OVER")
        if event["kind"] == "move":
            seat, action = event["seat"], event["action"]
            if type(seat) is not int or not 0 <= seat < self.players:
                raise Illegal("NOT_SEATED")
            if not isinstance(action, dict) or not isinstance(action.get("type"), str):
                raise Illegal("BAD_ACTION")
        self.tick(at - 1)
        if self.over():
            raise Illegal("GAME_OVER")
        if event["kind"] == "end":
            self.end_early(at)
        else:
            self.play(event["seat"], event["action"], event)


# --------------------------------------------------------------------------- Slap


COLOURS = "YGPB"


def assign_colours(wanted: Sequence[object]) -> list[str]:
    chosen: list[str | None] = []
    taken: set[str] = set()
    for want in wanted:
        colour = want.upper() if isinstance(want, str) else None
        if colour is not None and colour in COLOURS and colour not in taken:
            taken.add(colour)
            chosen.append(colour)
        else:
            chosen.append(None)
    free = iter(c for c in COLOURS if c not in taken)
    return [c if c is not None else next(free) for c in chosen]


def window(
    o: JSON, rtt: int | None, jitter: int | None, verified: Sequence[int] | None = None
) -> tuple[int, int] | None:
    """The network time a claim over this link may be credited (17 ms frame, 2 ms slack); a
    verified round trip (the client's TCP connection as the server measured it) bounds both ends."""
    if rtt is None or rtt < 0:
        return None
    floor, top = rtt, rtt + max(jitter or 0, 0)
    if verified is not None:
        floor, top = min(floor, verified[0]), min(top, verified[0] + verified[1] + 17)
    low = min(max(floor - 2, 0), o["max_credit_ms"])
    return low, min(top + 17, o["max_credit_ms"])


def judge(
    o: JSON, seat: int, arrival: int, reference: int, link: JSON | None, key: str, claimed: Any
) -> JSON:
    """One claim's effective reaction time (docs/verification.md, "Races")."""
    sent = (link or {}).get("sent", {}).get(key)
    rtt = (link or {}).get("rtt")
    jitter = (link or {}).get("jitter")
    verified = (link or {}).get("verified")
    flags = []
    if sent is None:
        flags.append("NO_STIMULUS")
    elapsed = arrival - (reference if sent is None else sent)
    win = window(o, rtt, jitter, verified)
    if not o["latency_compensation"]:
        credit, effective = 0, arrival - reference
    elif win is None:
        flags.append("NO_SYNC")
        credit, effective = 0, elapsed
    else:
        assert rtt is not None
        mismatched = verified is not None and rtt + max(jitter or 0, 0) > verified[0] + verified[1] + 17
        if (link or {}).get("unverifiable") or mismatched:
            flags.append("UNVERIFIED")
        low, high = win
        if claimed is None:
            flags.append("NO_REACTION")
            network = low
        else:
            network = elapsed - claimed
            if network > high:
                flags.append("ABOVE_WINDOW")
            elif network < low:
                flags.append("BELOW_WINDOW")
        # Over a verified link an implausible claim gets the bottom of its window, not the top.
        credit = low if verified is not None and network > high else min(max(network, low), high)
        effective = elapsed - credit
    if o["latency_compensation"] and (effective < 100 or (claimed is not None and claimed < 100)):
        flags.append("INHUMAN")
    ranked = max(effective, 100) if o["latency_compensation"] else effective
    return {
        "seat": seat,
        "arrival": arrival,
        "sent": sent,
        "claimed": claimed,
        "rtt": rtt,
        "jitter": jitter,
        "credit": credit,
        "reaction": effective,
        "at": reference + ranked,
        "flags": flags,
    }


def rule(
    claims: list[JSON], margin: int, draw: Callable[[Sequence[int]], int]
) -> tuple[int, list[int], list[JSON]]:
    order = sorted(claims, key=lambda c: (c["at"], c["arrival"], c["seat"]))
    within = [c for c in order if c["at"] <= order[0]["at"] + margin]
    honest = [c for c in within if not {"INHUMAN", "ABOVE_WINDOW"} & set(c["flags"])]
    tied = sorted(c["seat"] for c in (honest or within))
    winner = tied[0] if len(tied) == 1 else draw(tied)
    first = next(c for c in order if c["seat"] == winner)
    return winner, tied, [first, *(c for c in order if c is not first)]


class Slap(Game):
    o: JSON
    colours: list[str]
    rng: Rng
    flip: int
    totals: list[int]
    history: list[JSON]
    phase: str
    ruling: JSON | None
    piles: list[list[str]]
    round: int
    round_starter: int
    round_started_at: int
    starter: int
    reveal_at: int | None
    table: list[str]
    has_pair: bool
    slaps: list[JSON]
    penalties: list[int]

    def __init__(self, audit: JSON) -> None:
        o = self.o = audit["options"]
        self.players = n = len(audit["players"])
        self.colours = assign_colours([p["prefs"].get("colour") for p in audit["players"]])
        self.rng = Rng(audit["seed"])
        first = self.rng.below(n) if o["first_starter"] == "random" else o["first_starter"]
        self.flip, self.totals, self.history = 0, [0] * n, []
        self.phase, self.ruling = "", None  # the ruling of the last flip closed, if a race won it
        self.begin_round(1, first, audit["started_at"])

    def over(self) -> bool:
        return self.phase == "MATCH_OVER"

    def nu_wait(self) -> int:
        return int(self.o["nu_auto_ms"] if self.o["nu_mode"] == "starter" else self.o["auto_nu_ms"])

    def begin_round(self, round_no: int, starter: int, t: int) -> None:
        self.piles = [self.rng.shuffled(deck(c, range(1, 11))) for c in self.colours]
        self.round, self.round_starter, self.round_started_at, self.starter = round_no, starter, t, starter
        self.phase, self.deadline, self.reveal_at = "AWAIT_NU", t + self.nu_wait(), None
        self.table = []
        self.has_pair, self.slaps, self.penalties = False, [], [0] * self.players

    def call_nu(self, t: int) -> None:
        self.flip += 1
        self.reveal_at = self.deadline = t + self.o["nu_lead_ms"]
        self.phase = "NU_CALLED"

    def fire(self, t: int) -> None:
        o, phase = self.o, self.phase
        if phase == "AWAIT_NU":
            self.call_nu(t)
        elif phase == "NU_CALLED":
            self.table = [p[0] for p in self.piles]
            self.piles = [p[1:] for p in self.piles]
            self.has_pair = len({number(c) for c in self.table}) < len(self.table)
            self.slaps, self.phase = [], "FLIP_OPEN"
            if not self.has_pair:
                self.deadline = t + o["no_pair_window_ms"]
            else:
                self.deadline = t + o["pair_timeout_ms"] if o["pair_timeout_ms"] else None
        elif phase == "FLIP_OPEN":  # nobody won it: each card goes back into its pile at a random depth
            for seat, card in enumerate(self.table):
                k = self.rng.below(len(self.piles[seat]) + 1)
                self.piles[seat].insert(k, card)
            self.ruling = None
            self.close(t, self.starter, o["nopair_pause_ms"])
        elif phase == "RACE":
            winner, tied, order = rule(self.slaps, o["tie_margin_ms"], self.rng.choice)
            self.piles[winner] += self.rng.shuffled(self.table)
            self.ruling = {
                "race": f"flip:{self.flip}",
                "stimulus_at": self.reveal_at,
                "closed_at": t,
                "winner": winner,
                "tied": tied,
                "tie_margin_ms": o["tie_margin_ms"],
                "max_credit_ms": o["max_credit_ms"],
                "compensation": o["latency_compensation"],
                "claims": order,
            }
            self.close(t, winner, o["trick_pause_ms"])
        elif phase == "FLIP_RESULT":
            self.phase, self.reveal_at, self.deadline = "AWAIT_NU", None, t + self.nu_wait()
        elif phase == "ROUND_OVER":
            if self.round < o["rounds"]:
                self.begin_round(self.round + 1, (self.round_starter + 1) % self.players, t)
            else:
                self.phase, self.deadline = "MATCH_OVER", None

    def close(self, t: int, starter: int, pause: int) -> None:
        self.table, self.has_pair, self.slaps, self.starter = [], False, [], starter
        end = self.end_kind(t)
        if end is None:
            self.phase, self.deadline = "FLIP_RESULT", t + pause
            return
        counts = [len(p) for p in self.piles]
        points = self.o["placement_points"]
        if end == "NORMAL":
            alive = [c for c in counts if c > 0]
            placement = [points[sum(1 for x in alive if x > c)] if c > 0 else 0 for c in counts]
        else:
            table = self.o["two_player_stall_points"] if self.players == 2 else points
            placement = [table[sum(1 for x in counts if x > c)] for c in counts]
        scores = [p - pen for p, pen in zip(placement, self.penalties, strict=True)]
        self.history.append(
            {
                "round": self.round,
                "end": end,
                "counts": counts,
                "placement": placement,
                "penalties": list(self.penalties),
                "scores": scores,
            }
        )
        self.totals = [a + b for a, b in zip(self.totals, scores, strict=True)]
        self.phase, self.deadline = "ROUND_OVER", t + self.o["round_end_pause_ms"]

    def end_kind(self, t: int) -> str | None:
        if any(not p for p in self.piles):
            return "NORMAL"
        owner: dict[int, int] = {}
        if all(owner.setdefault(number(c), seat) == seat for seat, p in enumerate(self.piles) for c in p):
            return "STALL"
        limit = self.o["round_time_limit_s"] * 1000
        return "TIME" if limit and t - self.round_started_at >= limit else None

    def play(self, seat: int, action: JSON, event: JSON) -> None:
        kind, o = action["type"], self.o
        if kind == "nu":
            if set(action) != {"type"}:
                raise Illegal("BAD_ACTION")
            if o["nu_mode"] == "auto":
                raise Illegal("NU_MODE_AUTO")
            if self.phase != "AWAIT_NU":
                raise Illegal("WRONG_PHASE")
            if seat != self.starter:
                raise Illegal("NOT_STARTER")
            self.call_nu(event["at"])
            return
        if kind != "slap":
            raise Illegal("UNKNOWN_ACTION")
        flip, claimed = action.get("flip"), action.get("reaction_ms")
        if not set(action) <= {"type", "flip", "reaction_ms"} or type(flip) is not int:
            raise Illegal("BAD_ACTION")
        if claimed is not None and not (type(claimed) is int and 0 <= claimed <= 2**31 - 1):
            raise Illegal("BAD_ACTION")
        reveal = self.reveal_at
        if (
            flip != self.flip
            or self.phase not in ("FLIP_OPEN", "RACE")
            or reveal is None
            or event["at"] < reveal
        ):
            raise Illegal("STALE_SLAP")
        if any(c["seat"] == seat for c in self.slaps):
            raise Illegal("ALREADY_SLAPPED")
        key, links = f"flip:{self.flip}", (event.get("timing") or {}).get("links")
        link = links[seat] if links is not None and seat < len(links) else None
        self.slaps.append(judge(o, seat, event["at"], reveal, link, key, claimed))
        if not self.has_pair:
            self.penalties[seat] += 1
            return
        self.phase, self.deadline = "RACE", self.close_time(event["at"], reveal, key, links)

    def close_time(self, now: int, reveal: int, key: str, links: list[JSON | None] | None) -> int:
        """Open while a seat that has not slapped could still win or tie, never past the window."""
        limit = int(min(c["arrival"] for c in self.slaps) + self.o["race_window_ms"])
        if links is None:
            return max(now, limit)
        best = min(c["at"] for c in self.slaps) - reveal
        claimed = {c["seat"] for c in self.slaps}
        reach = []
        for seat in range(self.players):
            link = links[seat] if seat < len(links) else None
            if seat in claimed or link is None or key not in link.get("sent", {}):
                continue
            win = (
                window(self.o, link.get("rtt"), link.get("jitter"), link.get("verified"))
                if self.o["latency_compensation"]
                else None
            )
            reach.append(link["sent"][key] + best + self.o["tie_margin_ms"] + (0 if win is None else win[1]))
        return max(now, min(int(max(reach, default=now)), limit))

    def rulings(self) -> list[JSON]:
        return [self.ruling] if self.ruling else []

    def result(self) -> JSON:
        done = self.over()
        best = max(self.totals)
        return {
            "finished": done,
            "scores": self.totals,
            "winners": [s for s, t in enumerate(self.totals) if t == best] if done else [],
            "detail": {"colours": self.colours, "rounds": self.history, "totals": self.totals},
        }


# --------------------------------------------------------------------------- Leekha


LEEKHA_COLOURS = "RBYG"
BIG, SMALL = "B12", "Y10"


def points(cards: Sequence[str]) -> int:
    return sum(13 if c == BIG else 10 if c == SMALL else 1 if c[0] == "R" else 0 for c in cards)


def sort_hand(cards: Sequence[str]) -> list[str]:
    return sorted(cards, key=lambda c: (LEEKHA_COLOURS.index(c[0]), -number(c)))


def low_first(cards: Sequence[str]) -> list[str]:
    return sorted(cards, key=lambda c: (number(c), LEEKHA_COLOURS.index(c[0])))


def right(seat: int) -> int:  # play goes to the right: 0 -> 3 -> 2 -> 1
    return (seat - 1) % 4


def left(seat: int) -> int:
    return (seat + 1) % 4


def must_keep(hand: Sequence[str]) -> list[str]:
    floor = {"Y": 10, "B": 12}
    return [
        c
        for c in LEEKHA_COLOURS
        if any(x[0] == c for x in hand) and min(number(x) for x in hand if x[0] == c) < floor.get(c, 99)
    ]


def pass_error(hand: Sequence[str], give: Sequence[str]) -> str | None:
    if len(give) != 3 or len(set(give)) != 3:
        return "PASS_NOT_THREE_DISTINCT"
    if any(c not in hand for c in give):
        return "NOT_IN_HAND"
    if any(all(c in give for c in hand if c[0] == colour) for colour in must_keep(hand)):
        return "PASS_EMPTIES_COLOUR"
    return None


def legal_cards(hand: Sequence[str], trick: Sequence[str]) -> list[str]:
    if not trick:
        return list(hand)
    led = trick[0][0]
    if led == "Y" and SMALL in hand and any(c[0] == "Y" and number(c) > 10 for c in trick):
        return [SMALL]
    if led == "B" and BIG in hand and any(c[0] == "B" and number(c) > 12 for c in trick):
        return [BIG]
    follow = [c for c in hand if c[0] == led]
    return follow or [c for c in hand if c in (BIG, SMALL)] or list(hand)


def team_seats(team: int) -> list[int]:
    return [team, team + 2]


class Leekha(Game):
    players = 4
    o: JSON
    rng: Rng
    scores: list[int]
    history: list[JSON]
    verdict: JSON | None
    hands: list[list[str]]
    phase: str
    round: int
    starter: int
    turn: int | None
    passes: list[list[str] | None]
    acked: list[bool]
    trick: list[tuple[int, str]]
    tricks_done: int
    round_pts: list[int]
    bl_taker: int | None
    sl_taker: int | None

    def __init__(self, audit: JSON) -> None:
        self.o = audit["options"]
        self.rng = Rng(audit["seed"])
        self.scores, self.history, self.verdict = [0] * 4, [], None
        self.deal(1, self.rng.below(4), audit["started_at"])

    def over(self) -> bool:
        return self.phase == "MATCH_END"

    def turn_deadline(self, t: int) -> int | None:
        return t + int(self.o["turn_ms"]) if self.o["turn_ms"] else None

    def deal(self, round_no: int, starter: int, t: int) -> None:
        cards = self.rng.shuffled(deck(LEEKHA_COLOURS, range(2, 15)))
        self.hands = [sort_hand(cards[13 * s : 13 * s + 13]) for s in range(4)]
        self.phase, self.round, self.starter, self.turn = "PASS_SELECT", round_no, starter, None
        self.passes = [None] * 4
        self.acked, self.trick, self.tricks_done = [False] * 4, [], 0
        self.round_pts, self.bl_taker, self.sl_taker = [0] * 4, None, None
        self.deadline = self.turn_deadline(t)

    def fire(self, t: int) -> None:
        if self.phase == "PASS_SELECT":
            for seat in range(4):
                if self.passes[seat] is None:
                    hand = self.hands[seat]
                    give = next(g for g in combinations3(low_first(hand)) if pass_error(hand, g) is None)
                    self.record_pass(seat, give, t)
        elif self.phase == "PASS_REVEAL":
            self.start_play(t)
        elif self.phase == "PLAY":
            assert self.turn is not None
            hand = self.hands[self.turn]
            self.lay(self.turn, low_first(legal_cards(hand, [c for _, c in self.trick]))[0], t)
        elif self.phase == "ROUND_END":
            self.next_round(t)

    def next_round(self, t: int) -> None:
        assert self.bl_taker is not None  # every way a round ends names a Big Leekha taker
        self.deal(self.round + 1, right(self.bl_taker), t)

    def record_pass(self, seat: int, give: Sequence[str], t: int) -> None:
        self.passes[seat] = sort_hand(give)
        if any(p is None for p in self.passes):
            return
        gives = [p for p in self.passes if p is not None]
        self.hands = [
            sort_hand([c for c in self.hands[s] if c not in gives[s]] + gives[left(s)]) for s in range(4)
        ]
        self.phase, self.acked, self.deadline = "PASS_REVEAL", [False] * 4, t + self.o["reveal_ms"]

    def start_play(self, t: int) -> None:
        self.phase, self.acked, self.turn, self.deadline = (
            "PLAY",
            [False] * 4,
            self.starter,
            self.turn_deadline(t),
        )

    def play(self, seat: int, action: JSON, event: JSON) -> None:
        kind, t = action["type"], event["at"]
        fields = {
            "submit_pass": {"type", "cards"},
            "play_card": {"type", "card"},
            "ack": {"type"},
            "throw_in": {"type"},
        }
        if kind not in fields:
            raise Illegal("UNKNOWN_ACTION")
        if not set(action) <= fields[kind]:
            raise Illegal("BAD_ACTION")
        if kind == "submit_pass":
            cards = action.get("cards")
            if not isinstance(cards, list) or not all(
                isinstance(c, str) and re.fullmatch(r"[A-Z]\d\d", c) for c in cards
            ):
                raise Illegal("BAD_ACTION")
            if self.phase != "PASS_SELECT":
                raise Illegal("WRONG_PHASE")
            if self.passes[seat] is not None:
                raise Illegal("PASS_ALREADY_SUBMITTED")
            error = pass_error(self.hands[seat], cards)
            if error:
                raise Illegal(error)
            self.record_pass(seat, cards, t)
        elif kind == "ack":
            if self.phase not in ("PASS_REVEAL", "ROUND_END"):
                raise Illegal("WRONG_PHASE")
            if self.acked[seat]:
                raise Illegal("ALREADY_ACKED")
            self.acked[seat] = True
            if all(self.acked):
                if self.phase == "PASS_REVEAL":
                    self.start_play(t)
                else:
                    self.next_round(t)
        else:
            if self.phase != "PLAY":
                raise Illegal("WRONG_PHASE")
            if seat != self.turn:
                raise Illegal("NOT_YOUR_TURN")
            if kind == "throw_in":
                self.throw_in(seat, t)
                return
            card = action.get("card")
            if card not in self.hands[seat]:
                raise Illegal("NOT_IN_HAND")
            if card not in legal_cards(self.hands[seat], [c for _, c in self.trick]):
                raise Illegal("ILLEGAL_CARD")
            self.lay(seat, card, t)

    def lay(self, seat: int, card: str, t: int) -> None:
        self.hands[seat] = [c for c in self.hands[seat] if c != card]
        self.trick.append((seat, card))
        if len(self.trick) < 4:
            self.turn, self.deadline = right(seat), self.turn_deadline(t)
            return
        led = self.trick[0][1][0]
        winner = max((number(c), s) for s, c in self.trick if c[0] == led)[1]
        cards = [c for _, c in self.trick]
        self.trick, self.tricks_done = [], self.tricks_done + 1
        if BIG in cards and SMALL in cards:  # the 37 rule: every point of the round to the taker
            self.round_pts = [37 if s == winner else 0 for s in range(4)]
            self.bl_taker = self.sl_taker = winner
            self.hands = [[] for _ in range(4)]
            self.end_round("rule37", t)
            return
        self.round_pts[winner] += points(cards)
        self.bl_taker = winner if BIG in cards else self.bl_taker
        self.sl_taker = winner if SMALL in cards else self.sl_taker
        self.turn = winner
        if self.tricks_done == 13:
            self.end_round("complete", t)
        else:
            self.deadline = self.turn_deadline(t)

    def throw_in(self, seat: int, t: int) -> None:
        leftover = [c for h in self.hands for c in h] + [c for _, c in self.trick]
        self.round_pts[seat] += points(leftover)
        self.bl_taker = seat if self.bl_taker is None else self.bl_taker
        self.sl_taker = seat if self.sl_taker is None else self.sl_taker
        self.hands, self.trick = [[] for _ in range(4)], []
        self.end_round("throw_in", t)

    def live(self) -> list[int]:
        return [a + b for a, b in zip(self.scores, self.round_pts, strict=True)]

    def record(self, end: str, totals: list[int]) -> None:
        self.history.append(
            {
                "round": self.round,
                "starter": self.starter,
                "end": end,
                "points": self.round_pts,
                "totals": totals,
                "bl_taker": self.bl_taker,
                "sl_taker": self.sl_taker,
                "tricks": self.tricks_done,
            }
        )

    def end_round(self, end: str, t: int) -> None:
        self.scores = self.live()
        self.record(end, self.scores)
        self.verdict = judge_match(self.scores, self.o["mode"], self.o["limit"])
        self.phase = "ROUND_END" if self.verdict is None else "MATCH_END"
        self.turn, self.acked = None, [False] * 4
        self.deadline = None if self.verdict is not None else t + self.o["scoreboard_ms"]

    def end_early(self, at: int) -> None:
        """The host ended a decided match: someone has lost whatever the rest of the round brings."""
        if self.phase != "PLAY" or self.tricks_done == 0:
            raise Illegal("NOT_DECIDED")
        open37 = self.bl_taker is None and self.sl_taker is None
        left_in_play = 36 - sum(self.round_pts)
        live = self.live()
        floor = list(self.scores) if open37 else live
        ceil = [
            p + max(r + left_in_play, 37 if open37 else 0)
            for p, r in zip(self.scores, self.round_pts, strict=True)
        ]
        mode, limit = self.o["mode"], self.o["limit"]

        def rivals(seat: int) -> list[int]:
            return [o for o in range(4) if o != seat] if mode == "ffa" else team_seats(1 - seat % 2)

        if not any(floor[s] >= limit and all(ceil[o] < floor[s] for o in rivals(s)) for s in range(4)):
            raise Illegal("NOT_DECIDED")
        self.scores = live
        self.record("early_end", live)
        verdict = judge_match(live, mode, limit)
        assert verdict is not None
        self.verdict = {**verdict, "early": True}
        self.phase, self.turn, self.deadline = "MATCH_END", None, None
        self.hands, self.trick = [[] for _ in range(4)], []

    def result(self) -> JSON:
        v = self.verdict
        return {
            "finished": self.over(),
            "scores": self.scores,
            "winners": [s for s, p in enumerate(v["places"]) if p == 1] if v else [],
            "detail": {
                "mode": self.o["mode"],
                "limit": self.o["limit"],
                "rounds": self.history,
                "totals": self.scores,
                "result": v,
            },
        }


def combinations3(cards: Sequence[str]) -> list[list[str]]:
    n = len(cards)
    return [
        [cards[a], cards[b], cards[c]] for a in range(n) for b in range(a + 1, n) for c in range(b + 1, n)
    ]


def judge_match(scores: list[int], mode: str, limit: int) -> JSON | None:
    """None: another round. Free for all: the single highest at the limit loses; 2 vs 2: see the doc."""
    if mode == "ffa":
        top = max(scores)
        tops = [s for s in range(4) if scores[s] == top]
        if top < limit or len(tops) > 1:
            return None
        others = [s for s in range(4) if s != tops[0]]
        places = [4] * 4
        for s in others:
            places[s] = 1 + sum(1 for o in others if scores[o] < scores[s])
        return {"losers": tops, "places": places, "early": False}
    hi = [max(scores[s] for s in team_seats(t)) for t in (0, 1)]
    total = [sum(scores[s] for s in team_seats(t)) for t in (0, 1)]
    over = [t for t in (0, 1) if hi[t] >= limit]
    if not over:
        return None
    if len(over) == 1:
        loser = over[0]
    elif hi[0] != hi[1]:
        loser = 0 if hi[0] > hi[1] else 1
    elif total[0] != total[1]:
        loser = 0 if total[0] > total[1] else 1
    else:
        return None
    return {
        "losers": team_seats(loser),
        "places": [2 if s % 2 == loser else 1 for s in range(4)],
        "early": False,
    }


GAMES: dict[str, Callable[[JSON], Game]] = {"slap": Slap, "leekha": Leekha}


# --------------------------------------------------------------------------- reading and reporting


def fetch(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return json.load(answer)


def download(base: str, match_id: int) -> JSON:
    """The audit record and every page of the log, as the public API serves them."""
    audit = fetch(f"{base}/api/matches/{match_id}")
    events: list[JSON] = []
    after = 0
    while True:
        page = fetch(f"{base}/api/matches/{match_id}/events?after={after}&limit={PAGE}")
        events.extend(page["events"])
        if page["next"] is None:
            return {"match": audit, "events": events}
        after = page["next"]


def verify(data: JSON) -> list[str]:
    """What the check found, one line each; raises :class:`Mismatch` at the first disagreement."""
    audit, events = data["match"], data["events"]
    found = []
    if hashlib.sha256(audit["seed"].encode()).hexdigest() != audit["seed_hash"]:
        raise Mismatch("sha256(seed) is not the published seed hash")
    found.append(f"seed hash: sha256({audit['seed']!r}) = {audit['seed_hash']}")
    if audit["game"] not in GAMES:
        raise Mismatch(f"this verifier knows {', '.join(GAMES)}, not {audit['game']}")
    game = GAMES[audit["game"]](audit)
    races = 0
    for i, event in enumerate(events):
        where = f"event {i} (seq {event['seq']}, {event['kind']} at {event['at']} ms)"
        try:
            mine = game.step(event)
        except Illegal as exc:
            raise Mismatch(
                f"{where}: {json.dumps(event.get('action'))} is not legal there ({exc.code})"
            ) from None
        if mine != (event.get("rulings") or []):
            raise Mismatch(
                f"{where}: the race ruling differs:\n  logged  {event.get('rulings')}\n  derived {mine}"
            )
        races += len(mine)
    found.append(
        f"{len(events)} inputs replayed, every move legal; {races} race rulings derived again and equal"
    )
    result = game.result()
    if result != audit["result"]:
        raise Mismatch(f"the result differs:\n  stored  {audit['result']}\n  derived {result}")
    found.append(f"result equal: scores {result['scores']}, winners {result['winners']}")
    return found


def load(args: argparse.Namespace) -> JSON:
    source = args.source
    link = re.fullmatch(r"(https?://[^/]+)/m/(\d+)/?", source)
    if link:
        return download(link[1], int(link[2]))
    if re.fullmatch(r"https?://\S+", source):
        if args.match is None:
            raise ValueError("give the match id after the server's address (or a /m/ID link)")
        return download(source.rstrip("/"), args.match)
    with open(source, encoding="utf-8") as saved:
        data: JSON = json.load(saved)
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "source", help="a replay link (http://host/m/ID), a server address, or a saved JSON file"
    )
    parser.add_argument("match", nargs="?", type=int, help="the match id, after a server address")
    parser.add_argument("--save", help="also write the downloaded audit data to this file")
    args = parser.parse_args(argv)
    try:
        data = load(args)
    except (OSError, ValueError, KeyError, urllib.error.URLError) as exc:
        print(f"cannot read the match: {exc}", file=sys.stderr)
        return 2
    if args.save:
        with open(args.save, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1)
    try:
        for line in verify(data):
            print("ok  ", line)
    except Mismatch as exc:
        print("MISMATCH", exc)
        return 1
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        print(f"MISMATCH the audit data is not what a finished match holds ({exc!r})")
        return 1
    print(f"VERIFIED {data['match']['game']} match {data['match']['id']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
