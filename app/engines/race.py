"""Reaction races: who reacted first to something everyone saw at once.

Shared by every game with a race (Slap's slap, UFF-DA!'s COIN! and UFF-DA!
calls). The arbiter, pure and deterministic (everything it reads is in the
logged moves, so a replay reproduces every ruling):

1. :func:`judge` turns one claim into an *effective reaction time*: from the
   time the server wrote the stimulus to that player's socket (``sent``), the
   claim's arrival, the reaction time the client measured (stimulus painted to
   input event) and the connection's clock-sync statistics. The network time
   the claim implies (``arrival - sent - reaction``) is clamped into the window
   the clock sync observed (``[rtt - slack, rtt + jitter + one frame]``) and
   never above :attr:`Fairness.max_credit_ms`; claims outside that window and
   reactions faster than a human are flagged. The clock sync rests on the
   client's own pongs, which it can hold back; where the server has a round
   trip the client cannot delay (its kernel's, or a trusted proxy's, measure
   of the client's TCP connection: ``verified``), the window never reaches
   above that plus its jitter and one frame, a link whose pongs say more is
   marked "link not verified" (:data:`UNVERIFIED`), and a claim implying more
   network time than the window allows is credited the window's bottom.
2. :func:`close_time` keeps a race open only as long as a player who has not
   claimed yet could still win or tie, given their own link.
3. :func:`rule` ranks the claims, treats claims within the tie margin of the
   best as tied, prefers unflagged claims in a tie and hands the rest of a tie
   to the game's own rule (Slap: a seeded draw; UFF-DA!: :func:`clockwise_from`).

The platform's race settings and their checks live in :mod:`app.engines.race_settings`.

Ana (52 ms round trip) and Bo (150 ms) react 212 and 231 ms after their screens showed the cards:

>>> fair = Fairness(tie_margin_ms=16)
>>> ana = judge(0, 10_272, 10_000, sent=10_002, reaction_ms=212, rtt=52, jitter=4, fairness=fair)
>>> bo = judge(1, 10_391, 10_000, sent=10_003, reaction_ms=231, rtt=150, jitter=5, fairness=fair)
>>> (ana.effective_ms, ana.flags), (bo.effective_ms, bo.flags)
((212, ()), (231, ()))
>>> rule([bo, ana], fair.tie_margin_ms, tie_break=min).winner
0
>>> claims = [Claim(0, 10420, 10360), Claim(2, 10440, 10380)]
>>> rule(claims, tie_margin_ms=10, tie_break=min).winner
0
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from app.engines.base import Link

TieBreak = Callable[[tuple[int, ...]], int]
"""Picks the winner among tied seats (given in seat order); must return one of them."""
Verified = tuple[int, int]
"""A round trip the client cannot delay and its jitter allowance (ms), measured on the client's TCP
connection by the server's kernel or a trusted proxy."""


# --- flags -----------------------------------------------------------------------

INHUMAN = "INHUMAN"
"""The claimed or the effective reaction is faster than a human can react."""
ABOVE_WINDOW = "ABOVE_WINDOW"
"""The claim implies more network time than the clock sync ever saw: the reaction was under-reported
(or the link had a spike); the excess is not credited."""
BELOW_WINDOW = "BELOW_WINDOW"
"""The claim arrived sooner than its reported reaction allows over the observed link."""
NO_SYNC = "NO_SYNC"
"""The connection had no round-trip measurement yet: no network time is credited."""
NO_REACTION = "NO_REACTION"
"""The client sent no reaction time: the link's smallest network time is credited."""
NO_STIMULUS = "NO_STIMULUS"
"""The server never noted sending the stimulus to this connection: the game's own stimulus time is used."""
UNVERIFIED = "UNVERIFIED"
"""Link not verified: the credit rests on the client's own pongs, either because the server has no
round trip the client cannot delay, or because the pongs claim a slower link than that round trip
(then the credit is bounded by it). Not suspect on its own: an honest player can be here too."""

SUSPECT = frozenset({INHUMAN, ABOVE_WINDOW})
"""Flags that make a claim lose a tie against an unflagged one."""


@dataclass(frozen=True, slots=True)
class Fairness:
    """The arbiter's settings (games take the first three from their table options).

    ``max_credit_ms`` caps the network time any claim is forgiven; a player whose
    round trip plus jitter plus one frame exceeds it is slightly disadvantaged.
    ``tie_margin_ms`` (about one display frame): effective times this close are
    a tie. ``frame_ms`` is the paint allowance on top of the observed network
    time (a stimulus is painted up to one frame after it arrives, and the client
    measures the reaction from the paint). ``slack_ms`` absorbs the millisecond
    granularity of the room clock at the bottom of the window. Effective
    reactions below ``min_reaction_ms`` are flagged and ranked as that value.
    ``enabled=False`` ranks by plain arrival.
    """

    max_credit_ms: int = 200
    tie_margin_ms: int = 16
    enabled: bool = True
    frame_ms: int = 17
    slack_ms: int = 2
    min_reaction_ms: int = 100

    def window(
        self, rtt: int | None, jitter: int | None, verified: Verified | None = None
    ) -> tuple[int, int] | None:
        """The network times a claim over this link may be credited, or None without a measurement.

        A verified round trip bounds both ends: a client holding its pongs back (here 130 ms on a
        20 ms link) is credited what the kernel saw, plus one frame for what the server's and the
        client's programs add to every message, not what its pongs say.

        >>> Fairness().window(52, 4), Fairness().window(250, 10), Fairness().window(None, None)
        ((50, 73), (200, 200), None)
        >>> Fairness().window(150, 3, verified=(20, 4))
        (18, 58)
        """
        if rtt is None or rtt < 0:
            return None
        floor, top = rtt, rtt + max(jitter or 0, 0)
        if verified is not None:
            floor, top = min(floor, verified[0]), min(top, self._verified_top(verified))
        low = min(max(floor - self.slack_ms, 0), self.max_credit_ms)
        high = min(top + self.frame_ms, self.max_credit_ms)
        return low, high

    def reach(self, rtt: int | None, jitter: int | None, verified: Verified | None = None) -> int:
        """The most network time a claim over this link can be credited."""
        window = self.window(rtt, jitter, verified) if self.enabled else None
        return 0 if window is None else window[1]

    def consistent(self, rtt: int, jitter: int | None, verified: Verified) -> bool:
        """Whether the clock sync's link agrees with the verified round trip: its round trip plus
        jitter lies no more than one frame above the verified one plus its jitter (where it lies
        higher, the verified figure bounds the window).

        >>> Fairness().consistent(152, 4, (150, 6)), Fairness().consistent(150, 3, (20, 4))
        (True, False)
        """
        return rtt + max(jitter or 0, 0) <= self._verified_top(verified)

    def _verified_top(self, verified: Verified) -> int:
        return verified[0] + verified[1] + self.frame_ms


@dataclass(frozen=True, slots=True)
class Claim:
    """One player's claim in a race: server ``arrival`` and the ranking time ``at`` (smaller is earlier).

    The rest are the ruling's inputs and workings, kept so a result screen and
    an audit can explain it: ``reaction_ms`` the reaction the client claimed,
    ``rtt``/``jitter`` its link, ``sent`` when the stimulus was written to it,
    ``credit`` the network time forgiven, ``effective_ms`` the reaction the
    arbiter settled on (``at`` is the game's stimulus time plus that, floored at
    a human minimum) and ``flags`` what looked wrong (see the constants above).
    Claims built directly (without :func:`judge`) carry only what they were given.
    """

    seat: int
    arrival: int
    at: int
    reaction_ms: int | None = None
    rtt: int | None = None
    sent: int | None = None
    jitter: int | None = None
    credit: int = 0
    effective_ms: int | None = None
    flags: tuple[str, ...] = ()

    @property
    def suspect(self) -> bool:
        return not SUSPECT.isdisjoint(self.flags)

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "arrival": self.arrival,
            "sent": self.sent,
            "claimed": self.reaction_ms,
            "rtt": self.rtt,
            "jitter": self.jitter,
            "credit": self.credit,
            "reaction": self.effective_ms,
            "at": self.at,
            "flags": list(self.flags),
        }


def judge(
    seat: int,
    arrival: int,
    reference: int,
    *,
    sent: int | None = None,
    reaction_ms: int | None = None,
    rtt: int | None = None,
    jitter: int | None = None,
    fairness: Fairness = Fairness(),
    verified: Verified | None = None,
    unverifiable: bool = False,
) -> Claim:
    """Judge one claim: how long did this player really take to react?

    ``reference`` is the game's own stimulus time (e.g. Slap's ``reveal_at``);
    ``sent`` when the server wrote the stimulus to this player's socket (None:
    unknown, ``reference`` is used). The claim implies a network time
    ``arrival - sent - reaction_ms``; clamped into the link's window it becomes
    the credit, and ``effective = arrival - sent - credit``.

    An honest client's claim is taken as it is; one that under-reports by 100 ms
    gets only the top of its window (its jitter plus one frame above its round
    trip) and is flagged:

    >>> judge(2, 10_420, 10_000, sent=10_001, reaction_ms=300, rtt=110, jitter=3).effective_ms
    300
    >>> liar = judge(2, 10_420, 10_000, sent=10_001, reaction_ms=200, rtt=110, jitter=3)
    >>> liar.credit, liar.effective_ms, liar.at, liar.flags
    (130, 289, 10289, ('ABOVE_WINDOW',))

    With a verified round trip the window's top is bounded by it, and a claim above the window
    is implausible: it gets the bottom. A client that holds its pongs 130 ms on a 20 ms link and
    under-reports to match gains nothing, and its link is marked:

    >>> cheat = judge(1, 10_300, 10_000, sent=10_001, reaction_ms=140, rtt=150, jitter=2, verified=(20, 4))
    >>> cheat.credit, cheat.effective_ms, cheat.flags
    (18, 281, ('UNVERIFIED', 'ABOVE_WINDOW'))

    ``unverifiable``: the room knows no such round trip exists for this link (a proxy forwarding
    none); the claim is judged as before and marked.

    No measurement, no credit; compensation off ranks by arrival:

    >>> judge(0, 10_420, 10_000, reaction_ms=300).at
    10420
    >>> judge(0, 10_420, 10_000, sent=10_001, reaction_ms=300, rtt=110, fairness=Fairness(enabled=False)).at
    10420
    """
    flags: list[str] = []
    if sent is None:
        flags.append(NO_STIMULUS)
        start = reference
    else:
        start = sent
    elapsed = arrival - start
    window = fairness.window(rtt, jitter, verified)
    if not fairness.enabled:
        credit, effective = 0, arrival - reference
    elif window is None:
        flags.append(NO_SYNC)
        credit, effective = 0, elapsed
    else:
        assert rtt is not None  # a window needs a round trip
        if unverifiable or (verified is not None and not fairness.consistent(rtt, jitter, verified)):
            flags.append(UNVERIFIED)
        low, high = window
        if reaction_ms is None:
            flags.append(NO_REACTION)
            network = low
        else:
            network = elapsed - reaction_ms
            if network > high:
                flags.append(ABOVE_WINDOW)
            elif network < low:
                flags.append(BELOW_WINDOW)
        # An implausible claim, over a link whose window the client could not widen, buys nothing:
        # crediting the top would hand an under-reported reaction the whole jitter band and a frame.
        credit = low if verified is not None and network > high else min(max(network, low), high)
        effective = elapsed - credit
    floor = fairness.min_reaction_ms
    if fairness.enabled and (effective < floor or (reaction_ms is not None and reaction_ms < floor)):
        flags.append(INHUMAN)
    ranked = max(effective, floor) if fairness.enabled else effective
    return Claim(
        seat=seat,
        arrival=arrival,
        at=reference + ranked,
        reaction_ms=reaction_ms,
        rtt=rtt,
        sent=sent,
        jitter=jitter,
        credit=credit,
        effective_ms=effective,
        flags=tuple(flags),
    )


def judge_link(
    seat: int,
    arrival: int,
    reference: int,
    link: Link | None,
    stimulus: str,
    *,
    reaction_ms: int | None,
    fairness: Fairness,
) -> Claim:
    """:func:`judge` a claim with what the room logged of the claimer's ``link`` (None: no link
    known) for the race whose stimulus key is ``stimulus``."""
    if link is None:
        return judge(seat, arrival, reference, reaction_ms=reaction_ms, fairness=fairness)
    return judge(
        seat,
        arrival,
        reference,
        sent=link.sent.get(stimulus),
        reaction_ms=reaction_ms,
        rtt=link.rtt,
        jitter=link.jitter,
        fairness=fairness,
        verified=link.verified,
        unverifiable=link.unverifiable,
    )


def link_reach(fairness: Fairness, link: Link) -> int:
    """The most network time a claim over the room's logged ``link`` can be credited."""
    return fairness.reach(link.rtt, link.jitter, link.verified)


@dataclass(frozen=True, slots=True)
class Pending:
    """A player who could still claim: when the stimulus was sent to them and the most credit they can get."""

    sent: int
    reach: int


def close_time(
    claims: Sequence[Claim],
    pending: Iterable[Pending] | None,
    reference: int,
    *,
    now: int,
    tie_margin_ms: int,
    window_ms: int,
) -> int:
    """When a race with these claims should close (room-clock ms, never before ``now``).

    A player who has not claimed yet can still win or tie only with an effective
    time within the tie margin of the best claim; their claim would arrive at
    the latest ``sent + (best - reference) + margin + reach``. The race stays
    open until the last such moment over all ``pending`` players (none left:
    it closes at once), and never longer than ``window_ms`` after the first
    arrival. ``pending=None`` (their links are unknown) keeps it open that long.

    A fast table closes soon after the first claim; a 150 ms link keeps it open:

    >>> first = Claim(0, 10_262, 10_210)
    >>> close_time([first], [Pending(10_002, 40)], 10_000, now=10_262, tie_margin_ms=16, window_ms=216)
    10268
    >>> close_time([first], [Pending(10_002, 172)], 10_000, now=10_262, tie_margin_ms=16, window_ms=216)
    10400
    >>> close_time([first], [], 10_000, now=10_262, tie_margin_ms=16, window_ms=216)
    10262
    >>> close_time([first], None, 10_000, now=10_262, tie_margin_ms=16, window_ms=216)
    10478
    """
    if not claims:
        raise ValueError("a race needs at least one claim")
    limit = min(c.arrival for c in claims) + window_ms
    if pending is None:
        return max(now, limit)
    best = min(c.at for c in claims) - reference
    latest = max((p.sent + best + tie_margin_ms + p.reach for p in pending), default=now)
    return max(now, min(latest, limit))


def clockwise_from(target: int, players: int) -> TieBreak:
    """UFF-DA!'s tie rule: the caller with the shortest clockwise distance to ``target`` wins.

    >>> clockwise_from(0, 4)((1, 2, 3))  # distances to seat 0: 3, 2, 1
    3
    """

    def pick(seats: tuple[int, ...]) -> int:
        return min(seats, key=lambda seat: ((target - seat) % players, seat))

    return pick


@dataclass(frozen=True, slots=True)
class Ruling:
    """The outcome of a race.

    ``winner`` is the seat that won; ``tied`` the seats (in seat order) that
    went to the tie rule, the winner included (a single seat means no tie);
    ``order`` every claim, the winner's first, then by ``at``, arrival and seat.
    """

    winner: int
    tied: tuple[int, ...]
    order: tuple[Claim, ...]

    def to_json(self) -> dict[str, object]:
        return {"winner": self.winner, "tied": list(self.tied), "claims": [c.to_json() for c in self.order]}


def _rank_key(claim: Claim) -> tuple[int, int, int]:
    return (claim.at, claim.arrival, claim.seat)


def rule(claims: Sequence[Claim], tie_margin_ms: int, tie_break: TieBreak) -> Ruling:
    """Judge a closed race: smallest ``at`` wins; ``at <= best + margin`` is a tie.

    In a tie, unflagged claims beat suspect ones (:data:`SUSPECT`): a claim whose
    timing did not add up never wins on a draw. ``tie_break`` is called only when
    two or more seats remain, so a game that draws from its RNG there consumes
    randomness only on real ties.

    >>> a, c = Claim(0, 10410, 10300), Claim(2, 10415, 10306)
    >>> r = rule([a, c], 10, tie_break=max)
    >>> r.winner, r.tied, [x.seat for x in r.order]
    (2, (0, 2), [2, 0])
    >>> rule([a, c], 5, tie_break=max).tied
    (0,)
    >>> rule([a, Claim(2, 10415, 10306, flags=(INHUMAN,))], 10, tie_break=max).winner
    0
    """
    if not claims:
        raise ValueError("a race needs at least one claim")
    seats = {c.seat for c in claims}
    if len(seats) != len(claims):
        raise ValueError("one claim per seat")
    order = sorted(claims, key=_rank_key)
    limit = order[0].at + tie_margin_ms
    within = [c for c in order if c.at <= limit]
    contenders = [c for c in within if not c.suspect] or within
    tied = tuple(sorted(c.seat for c in contenders))
    if len(tied) == 1:
        winner = tied[0]
    else:
        winner = tie_break(tied)
        if winner not in tied:
            raise ValueError(f"tie break chose seat {winner}, not one of {tied}")
    first = next(c for c in order if c.seat == winner)
    return Ruling(winner, tied, (first, *(c for c in order if c is not first)))
