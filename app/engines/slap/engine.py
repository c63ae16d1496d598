"""The Slap ("Nu!") rules engine: a timed state machine (rules section 3).

>>> from app.engines.base import Move, SeatSetup
>>> eng = SlapEngine()
>>> seats = [SeatSetup({"colour": "Y"}), SeatSetup({"colour": "B"})]
>>> s = eng.start(seats, SlapOptions(first_starter=0), "doc", 0)
>>> s.phase, s.colours, [len(p) for p in s.piles], eng.next_deadline(s)
(<Phase.AWAIT_NU: 'AWAIT_NU'>, ('Y', 'B'), [10, 10], 2000)
>>> s = eng.apply(s, Move(seat=0, action={"type": "nu"}, at=500))
>>> s.phase, s.flip, s.reveal_at
(<Phase.NU_CALLED: 'NU_CALLED'>, 1, 1100)
>>> eng.tick(s, 1100).phase
<Phase.FLIP_OPEN: 'FLIP_OPEN'>
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from app.engines import race
from app.engines.base import JSON, Engine, EngineOptions, IllegalAction, Move, Outcome, SeatPrefs, SeatSetup
from app.engines.cards import CardId, build_deck, number_of
from app.engines.inputs import action_kind, bad_action, is_whole_number, unknown_action
from app.engines.protocol import GameProtocol
from app.engines.race import Claim, Fairness, Pending
from app.engines.rng import Rng
from app.engines.seats import require_player_count
from app.engines.slap.options import SlapOptions, SlapPrefs
from app.engines.slap.protocol import PROTOCOL
from app.engines.slap.scoring import end_kind, score_round
from app.engines.slap.state import ClosedFlip, FlipKind, Phase, SlapState
from app.engines.slap.view import result_detail, ruling_json, view, views, winners
from app.engines.timing import catch_up
from app.engines.tuples import evolve

COLOURS = ("Y", "G", "P", "B")
NUMBERS = range(1, 11)
MAX_REACTION_MS = 2**31 - 1


def assign_colours(wanted: Sequence[object]) -> tuple[str, ...]:
    """One colour per seat: a seat keeps its choice unless an earlier seat took it;
    the rest get the first free colour in the order Y, G, P, B (rules 2.2).

    >>> assign_colours(["B", None, "B", "y"])
    ('B', 'G', 'P', 'Y')
    """
    chosen: list[str | None] = []
    taken: set[str] = set()
    for want in wanted:
        colour = want.upper() if isinstance(want, str) else None
        if colour in COLOURS and colour not in taken:
            taken.add(colour)
            chosen.append(colour)
        else:
            chosen.append(None)
    free = iter(c for c in COLOURS if c not in taken)
    return tuple(c if c is not None else next(free) for c in chosen)


@dataclass(frozen=True, slots=True)
class _SlapAction:
    flip: int
    reaction_ms: int | None


_Action = Literal["nu"] | _SlapAction


def _parse(action: object) -> _Action:
    """Validate an untrusted client action by hand (it never reached a model)."""
    action, kind = action_kind(action)
    if kind == "nu":
        if len(action) != 1:
            raise bad_action("Nu! takes no other fields.")
        return "nu"
    if kind == "slap":
        if not set(action) <= {"type", "flip", "reaction_ms"}:
            raise bad_action("A slap takes only flip and reaction_ms.")
        flip = action.get("flip")
        # type() rather than isinstance(): True is an int to Python, not to us.
        if type(flip) is not int:
            raise bad_action("A slap must say which flip it is for.")
        reaction = action.get("reaction_ms")
        if reaction is not None and not is_whole_number(reaction, 0, MAX_REACTION_MS):
            raise bad_action("The reaction time must be a whole number of milliseconds.")
        return _SlapAction(flip, reaction)
    raise unknown_action("Slap", kind)


def _nu_wait(options: SlapOptions) -> int:
    return options.nu_auto_ms if options.nu_mode == "starter" else options.auto_nu_ms


def _pair_numbers(table: Sequence[CardId]) -> tuple[int, ...]:
    numbers = [number_of(c) for c in table]
    return tuple(sorted({n for n in numbers if numbers.count(n) > 1}))


def _reveal_time(state: SlapState) -> int:
    # Set by every Nu!; only phases after one ask for it.
    assert state.reveal_at is not None
    return state.reveal_at


def stimulus_key(flip: int) -> str:
    """The race stimulus of a flip: its cards turning face up."""
    return f"flip:{flip}"


def fairness(options: SlapOptions) -> Fairness:
    return Fairness(
        max_credit_ms=options.max_credit_ms,
        tie_margin_ms=options.tie_margin_ms,
        enabled=options.latency_compensation,
    )


def _judge(state: SlapState, move: Move, reaction_ms: int | None, key: str) -> Claim:
    """Rules 3.6: the slap's effective reaction time, from the room's timing of this seat's link.

    A move without timing (the room saw no link, or a test) is judged with no link: no network
    time is credited and the flip's reveal stands in for the unknown send time (NO_SYNC, NO_STIMULUS).
    """
    link = move.timing.link(move.seat) if move.timing is not None else None
    return race.judge_link(
        move.seat,
        move.at,
        _reveal_time(state),
        link,
        key,
        reaction_ms=reaction_ms,
        fairness=fairness(state.options),
    )


def _pending(state: SlapState, move: Move, slaps: Sequence[Claim], key: str) -> list[Pending] | None:
    """The seats that could still slap this flip and their reach.

    None when the move carries no timing: nobody's link is known, so the race stays open for its
    whole window (:func:`race.close_time`).
    """
    if move.timing is None:
        return None
    fair = fairness(state.options)
    claimed = {c.seat for c in slaps}
    pending = []
    for seat in range(state.players):
        link = move.timing.link(seat)
        if seat in claimed or link is None or key not in link.sent:
            continue  # slapped already, or never shown this flip (not connected): cannot win it
        pending.append(Pending(link.sent[key], race.link_reach(fair, link)))
    return pending


class SlapEngine(Engine[SlapState, SlapOptions]):
    """Slap for 2-4 players (rules spec: shared/rules/slap.md). Stateless: one instance serves every room."""

    name: ClassVar[str] = "slap"
    title: ClassVar[str] = "Slap"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options_model: ClassVar[type[EngineOptions]] = SlapOptions
    prefs_model: ClassVar[type[SeatPrefs]] = SlapPrefs
    protocol: ClassVar[GameProtocol] = PROTOCOL

    # -- the contract -------------------------------------------------------

    def start(self, seats: Sequence[SeatSetup], options: SlapOptions, seed: str, now: int) -> SlapState:
        n = len(seats)
        require_player_count(self.title, n, self.min_players, self.max_players)
        colours = assign_colours([s.prefs.get("colour") for s in seats])
        rng = Rng.from_seed(seed)
        if options.first_starter == "random":
            first = rng.below(n)
        else:
            first = options.first_starter
            if first >= n:
                raise IllegalAction("BAD_OPTIONS", f"The first starter must be a seat from 0 to {n - 1}.")
        blank = SlapState(
            options=options,
            colours=colours,
            rng=rng,
            phase=Phase.ROUND_SETUP,
            round=0,
            round_starter=first,
            round_started_at=now,
            starter=first,
            flip=0,
            reveal_at=None,
            deadline=None,
            piles=((),) * n,
            table=(),
            has_pair=False,
            slaps=(),
            penalties=(0,) * n,
            last=None,
            history=(),
            totals=(0,) * n,
        )
        return self._begin_round(blank, 1, first, now)

    def players(self, state: SlapState) -> int:
        return state.players

    def is_over(self, state: SlapState) -> bool:
        return state.phase is Phase.MATCH_OVER

    def parse(self, action: object) -> _Action:
        return _parse(action)

    def play(self, state: SlapState, move: Move, action: _Action) -> SlapState:
        if action == "nu":
            return self._nu(state, move)
        assert isinstance(action, _SlapAction)
        return self._slap(state, move, action)

    def tick(self, state: SlapState, now: int) -> SlapState:
        return catch_up(state, now, self._fire, self.next_deadline)

    def next_deadline(self, state: SlapState) -> int | None:
        return state.deadline

    def view(self, state: SlapState, seat: int | None) -> JSON:
        return view(state, seat)

    def views(self, state: SlapState, seats: Sequence[int | None]) -> dict[int | None, JSON]:
        return views(state, seats)

    def hidden_cards(self, state: SlapState, seat: int) -> list[Any] | None:
        return list(state.piles[seat])  # face down, top first: nobody sees them while the match runs

    # -- race capabilities -------------------------------------------------------

    def has_races(self) -> bool:
        return True

    def stimuli(self, state: SlapState) -> tuple[str, ...]:
        """An open flip is a race stimulus, pair or not (the room must not learn more than players)."""
        if state.phase in (Phase.FLIP_OPEN, Phase.RACE):
            return (stimulus_key(state.flip),)
        return ()

    def rulings(self, state: SlapState) -> Sequence[JSON]:
        last = state.last
        if last is None or last.kind is not FlipKind.TRICK or last.winner is None:
            return ()
        return (ruling_json(last, state.options),)

    def result(self, state: SlapState) -> Outcome:
        return Outcome(
            finished=state.phase is Phase.MATCH_OVER,
            scores=state.totals,
            winners=tuple(winners(state)),
            detail=result_detail(state),
        )

    # -- actions -----------------------------------------------------------------

    def _nu(self, state: SlapState, move: Move) -> SlapState:
        if state.options.nu_mode == "auto":
            raise IllegalAction("NU_MODE_AUTO", "At this table the server calls Nu!.")
        if state.phase is not Phase.AWAIT_NU:
            raise IllegalAction("WRONG_PHASE", "Nu! can only be called between flips.")
        if move.seat != state.starter:
            raise IllegalAction("NOT_STARTER", "Only the starter can call Nu!")
        return self._call_nu(state, move.at)

    def _slap(self, state: SlapState, move: Move, action: _SlapAction) -> SlapState:
        if action.flip != state.flip:
            raise IllegalAction("STALE_SLAP", "That slap was for another flip; it does not count.")
        if state.phase not in (Phase.FLIP_OPEN, Phase.RACE) or move.at < _reveal_time(state):
            raise IllegalAction("STALE_SLAP", "There are no cards to slap right now.")
        if state.has_slapped(move.seat):
            raise IllegalAction("ALREADY_SLAPPED", "You already slapped this flip.")
        options = state.options
        key = stimulus_key(state.flip)
        slaps = (*state.slaps, _judge(state, move, action.reaction_ms, key))
        if not state.has_pair:
            penalties = list(state.penalties)
            penalties[move.seat] += 1
            return evolve(state, slaps=slaps, penalties=tuple(penalties))
        # The race stays open only while a seat that has not slapped could still win (rules 3.6).
        deadline = race.close_time(
            slaps,
            _pending(state, move, slaps, key),
            _reveal_time(state),
            now=move.at,
            tie_margin_ms=options.tie_margin_ms,
            window_ms=options.race_window_ms,
        )
        return evolve(state, phase=Phase.RACE, slaps=slaps, deadline=deadline)

    # -- timed transitions -------------------------------------------------------

    def _fire(self, state: SlapState, t: int) -> SlapState:
        phase = state.phase
        if phase is Phase.AWAIT_NU:
            return self._call_nu(state, t)
        if phase is Phase.NU_CALLED:
            return self._reveal(state, t)
        if phase is Phase.FLIP_OPEN:
            return self._return_cards(state, t, FlipKind.UNCLAIMED if state.has_pair else FlipKind.NO_PAIR)
        if phase is Phase.RACE:
            return self._take_trick(state, t)
        if phase is Phase.FLIP_RESULT:
            return evolve(state, phase=Phase.AWAIT_NU, reveal_at=None, deadline=t + _nu_wait(state.options))
        if phase is Phase.ROUND_OVER:
            if state.round < state.options.rounds:
                return self._begin_round(state, state.round + 1, (state.round_starter + 1) % state.players, t)
            return evolve(state, phase=Phase.MATCH_OVER, deadline=None)
        raise AssertionError(f"no deadline can be pending in {phase}")

    def _begin_round(self, state: SlapState, round_no: int, starter: int, t: int) -> SlapState:
        rng = state.rng.copy()
        piles = tuple(tuple(rng.shuffled(build_deck(c, NUMBERS))) for c in state.colours)
        return evolve(
            state,
            rng=rng,
            phase=Phase.AWAIT_NU,
            round=round_no,
            round_starter=starter,
            round_started_at=t,
            starter=starter,
            reveal_at=None,
            deadline=t + _nu_wait(state.options),
            piles=piles,
            table=(),
            has_pair=False,
            slaps=(),
            penalties=(0,) * state.players,
            last=None,
        )

    def _call_nu(self, state: SlapState, t: int) -> SlapState:
        reveal_at = t + state.options.nu_lead_ms
        return evolve(
            state, phase=Phase.NU_CALLED, flip=state.flip + 1, reveal_at=reveal_at, deadline=reveal_at
        )

    def _reveal(self, state: SlapState, t: int) -> SlapState:
        # Rules 3.8 end a round as soon as a pile empties, so every pile has a top card here.
        table = tuple(p[0] for p in state.piles)
        piles = tuple(p[1:] for p in state.piles)
        numbers = {number_of(c) for c in table}
        has_pair = len(numbers) < len(table)
        options = state.options
        if not has_pair:
            deadline: int | None = t + options.no_pair_window_ms
        elif options.pair_timeout_ms:
            deadline = t + options.pair_timeout_ms
        else:
            deadline = None
        return evolve(
            state,
            phase=Phase.FLIP_OPEN,
            piles=piles,
            table=table,
            has_pair=has_pair,
            slaps=(),
            deadline=deadline,
        )

    def _take_trick(self, state: SlapState, t: int) -> SlapState:
        rng = state.rng.copy()
        ruling = race.rule(state.slaps, state.options.tie_margin_ms, rng.choice)
        winner = ruling.winner
        piles = list(state.piles)
        piles[winner] = (*piles[winner], *rng.shuffled(state.table))
        last = ClosedFlip(
            flip=state.flip,
            kind=FlipKind.TRICK,
            winner=winner,
            tied=ruling.tied,
            claims=ruling.order,
            pairs=_pair_numbers(state.table),
            reveal_at=_reveal_time(state),
            closed_at=t,
        )
        return self._after_close(state, t, tuple(piles), rng, last, winner, state.options.trick_pause_ms)

    def _return_cards(self, state: SlapState, t: int, kind: FlipKind) -> SlapState:
        # A random depth, not the bottom: bottom-insertion makes equal piles
        # cycle in lockstep and replay the same meetings forever (rules 5.2).
        rng = state.rng.copy()
        piles = list(state.piles)
        for seat, card in enumerate(state.table):
            pile = piles[seat]
            k = rng.below(len(pile) + 1)
            piles[seat] = (*pile[:k], card, *pile[k:])
        last = ClosedFlip(
            flip=state.flip,
            kind=kind,
            winner=None,
            tied=(),
            claims=state.slaps,
            pairs=_pair_numbers(state.table),
            reveal_at=_reveal_time(state),
            closed_at=t,
        )
        pause_ms = state.options.nopair_pause_ms
        return self._after_close(state, t, tuple(piles), rng, last, state.starter, pause_ms)

    def _after_close(
        self,
        state: SlapState,
        t: int,
        piles: tuple[tuple[CardId, ...], ...],
        rng: Rng,
        last: ClosedFlip,
        starter: int,
        pause_ms: int,
    ) -> SlapState:
        options = state.options
        cleared: dict[str, Any] = {
            "rng": rng,
            "piles": piles,
            "table": (),
            "has_pair": False,
            "slaps": (),
            "last": last,
            "starter": starter,
        }
        end = end_kind(piles, t, state.round_started_at, options)
        if end is None:
            return evolve(state, phase=Phase.FLIP_RESULT, deadline=t + pause_ms, **cleared)
        record = score_round(state.round, end, [len(p) for p in piles], state.penalties, options)
        totals = tuple(a + b for a, b in zip(state.totals, record.scores, strict=True))
        return evolve(
            state,
            phase=Phase.ROUND_OVER,
            deadline=t + options.round_end_pause_ms,
            history=(*state.history, record),
            totals=totals,
            **cleared,
        )
