"""The Leekha rules engine: a timed state machine (rules section 3).

>>> from app.engines.base import Move, SeatSetup
>>> eng = LeekhaEngine()
>>> s = eng.start([SeatSetup()] * 4, LeekhaOptions(), "doc", 0)
>>> s.phase, [len(h) for h in s.hands], eng.next_deadline(s)
(<Phase.PASS_SELECT: 'PASS_SELECT'>, [13, 13, 13, 13], 90000)
>>> for seat in range(4):
...     give = list(auto_pass(s.hands[seat]))
...     s = eng.apply(s, Move(seat, {"type": "submit_pass", "cards": give}, 1000))
>>> s.phase, s.received[3] == s.passes[0], eng.next_deadline(s)
(<Phase.PASS_REVEAL: 'PASS_REVEAL'>, True, 6000)
>>> eng.tick(s, 6000).turn == s.starter
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from app.engines.base import JSON, Engine, EngineOptions, IllegalAction, Move, Outcome, SeatSetup
from app.engines.cards import CardId, deal_hands
from app.engines.leekha import actions
from app.engines.leekha.deck import (
    BIG,
    DECK,
    RULE37_POINTS,
    SEATS,
    SMALL,
    left,
    points_in,
    right,
    sort_hand,
)
from app.engines.leekha.options import LeekhaOptions
from app.engines.leekha.protocol import PROTOCOL
from app.engines.leekha.rules import auto_card, auto_pass, pass_error, play_error, trick_winner
from app.engines.leekha.scoring import Decided, decided, verdict
from app.engines.leekha.state import (
    EndReason,
    Event,
    EventKind,
    Hand,
    LeekhaState,
    Phase,
    RoundRecord,
    TrickRecord,
    Verdict,
)
from app.engines.leekha.view import result_detail, view, views, winners
from app.engines.protocol import GameProtocol
from app.engines.rng import Rng
from app.engines.seats import require_player_count
from app.engines.timing import catch_up
from app.engines.tuples import evolve, replace_at

HAND_SIZE = 13


def decided_now(state: LeekhaState) -> Decided | None:
    """The early-end candidate, if any (rules 4.5): evaluated during play, after a trick."""
    if state.phase is not Phase.PLAY or state.tricks_done == 0:
        return None
    open37 = state.bl_taker is None and state.sl_taker is None
    return decided(state.scores, state.round_pts, open37, state.options.mode, state.options.limit)


class LeekhaEngine(Engine[LeekhaState, LeekhaOptions]):
    """Leekha for exactly four players (rules spec: shared/rules/leekha.md).

    Stateless: one instance serves every room. Besides the engine contract it
    offers :meth:`end_early`, the host's early end of a decided match.
    """

    name: ClassVar[str] = "leekha"
    title: ClassVar[str] = "Leekha"
    min_players: ClassVar[int] = SEATS
    max_players: ClassVar[int] = SEATS
    options_model: ClassVar[type[EngineOptions]] = LeekhaOptions
    protocol: ClassVar[GameProtocol] = PROTOCOL

    # -- the contract -------------------------------------------------------

    def start(self, seats: Sequence[SeatSetup], options: LeekhaOptions, seed: str, now: int) -> LeekhaState:
        require_player_count(self.title, len(seats), self.min_players, self.max_players)
        rng = Rng.from_seed(seed)
        first = rng.below(SEATS)
        # The round fields are placeholders: the first deal sets them like every later one.
        blank = LeekhaState(
            options=options,
            rng=rng,
            scores=(0,) * SEATS,
            history=(),
            verdict=None,
            **_fresh_round(round_no=0, starter=first, hands=((),) * SEATS, last=None, deadline=None),
        )
        return self._deal(blank, 1, first, now)

    def players(self, state: LeekhaState) -> int:
        return SEATS

    def is_over(self, state: LeekhaState) -> bool:
        return state.phase is Phase.MATCH_END

    def parse(self, action: object) -> actions.Action:
        return actions.parse(action)

    def play(self, state: LeekhaState, move: Move, action: actions.Action) -> LeekhaState:
        seat = move.seat
        if isinstance(action, actions.PlayCard):
            return self._play_card(state, seat, action.card, move.at)
        if isinstance(action, actions.SubmitPass):
            return self._submit_pass(state, seat, action.cards, move.at)
        if isinstance(action, actions.Ack):
            return self._ack(state, seat, move.at)
        return self._throw_in(state, seat, move.at)

    def tick(self, state: LeekhaState, now: int) -> LeekhaState:
        return catch_up(state, now, self._fire, self.next_deadline)

    def next_deadline(self, state: LeekhaState) -> int | None:
        return state.deadline

    def view(self, state: LeekhaState, seat: int | None) -> JSON:
        return view(state, seat, decided_now(state))

    def views(self, state: LeekhaState, seats: Sequence[int | None]) -> dict[int | None, JSON]:
        return views(state, seats, decided_now(state))

    def result(self, state: LeekhaState) -> Outcome:
        return Outcome(
            finished=state.phase is Phase.MATCH_END,
            scores=state.scores,
            winners=winners(state),
            detail=result_detail(state),
        )

    # -- the host's early end (rules 4.5) ---------------------------------------

    def team_seats(self, options: LeekhaOptions) -> tuple[tuple[int, ...], ...] | None:
        """In 2 vs 2 teammates sit opposite: seats 0 and 2 against 1 and 3 (None: free for all)."""
        return ((0, 2), (1, 3)) if options.mode == "teams" else None

    def end_early(self, state: LeekhaState, at: int) -> LeekhaState:
        """End a decided match at once: the room sends ``EndEarly`` for the host only.

        Raises ``NOT_DECIDED`` unless some player has lost whatever happens in
        the rest of the round (view key ``decided``). The remaining cards are
        not scored; the scores become the live ones.
        """
        outcome = decided_now(state)
        if outcome is None:
            raise IllegalAction("NOT_DECIDED", "Nobody has lost for certain yet: the match goes on.")
        live = state.live
        final = verdict(live, state.options.mode, state.options.limit)
        assert final is not None and final.losers == outcome.losers
        leftover = [c for hand in state.hands for c in hand] + [c for _, c in state.trick]
        record = self._record(state, EndReason.EARLY_END, live)
        return evolve(
            state,
            phase=Phase.MATCH_END,
            hands=((),) * SEATS,
            trick=(),
            turn=None,
            discarded=sort_hand((*state.discarded, *leftover)),
            end_reason=EndReason.EARLY_END,
            last=Event(EventKind.EARLY_END, at, seat=outcome.seat),
            deadline=None,
            scores=live,
            history=(*state.history, record),
            verdict=evolve(final, early=True),
        )

    # -- actions -------------------------------------------------------------------

    def _submit_pass(self, state: LeekhaState, seat: int, cards: Hand, t: int) -> LeekhaState:
        if state.phase is not Phase.PASS_SELECT:
            raise IllegalAction("WRONG_PHASE", "Cards are passed only right after the deal.")
        if state.passes[seat] is not None:
            raise IllegalAction("PASS_ALREADY_SUBMITTED", "You already passed your cards.")
        error = pass_error(state.hands[seat], cards)
        if error is not None:
            raise error
        return self._record_pass(state, seat, cards, t, auto=False)

    def _record_pass(self, state: LeekhaState, seat: int, cards: Hand, t: int, *, auto: bool) -> LeekhaState:
        passes = replace_at(state.passes, seat, sort_hand(cards))
        if all(p is not None for p in passes):
            return self._exchange(evolve(state, passes=passes), t, auto=auto)
        return evolve(state, passes=passes, last=Event(EventKind.PASS, t, seat=seat, auto=auto))

    def _exchange(self, state: LeekhaState, t: int, *, auto: bool) -> LeekhaState:
        """All four passed: every pass happens at once (rules 3.3)."""
        gives: list[Hand] = []
        for p in state.passes:
            assert p is not None
            gives.append(p)
        hands = []
        for seat in range(SEATS):
            kept = [c for c in state.hands[seat] if c not in gives[seat]]
            hands.append(sort_hand((*kept, *gives[left(seat)])))
        return evolve(
            state,
            phase=Phase.PASS_REVEAL,
            hands=tuple(hands),
            received=tuple(gives[left(seat)] for seat in range(SEATS)),
            acked=(False,) * SEATS,
            last=Event(EventKind.PASSED, t, auto=auto),
            deadline=t + state.options.reveal_ms,
        )

    def _ack(self, state: LeekhaState, seat: int, t: int) -> LeekhaState:
        if state.phase not in (Phase.PASS_REVEAL, Phase.ROUND_END):
            raise IllegalAction("WRONG_PHASE", "There is nothing to confirm right now.")
        if state.acked[seat]:
            raise IllegalAction("ALREADY_ACKED", "You already confirmed.")
        acked = replace_at(state.acked, seat, True)
        if not all(acked):
            return evolve(state, acked=acked, last=Event(EventKind.ACK, t, seat=seat))
        if state.phase is Phase.PASS_REVEAL:
            return self._start_play(state, t)
        return self._next_round(state, t)

    def _play_card(self, state: LeekhaState, seat: int, card: CardId, t: int) -> LeekhaState:
        if state.phase is not Phase.PLAY:
            raise IllegalAction("WRONG_PHASE", "Cards are played only during the tricks.")
        if seat != state.turn:
            raise IllegalAction("NOT_YOUR_TURN", "It is not your turn.")
        hand = state.hands[seat]
        if card not in hand:
            raise IllegalAction("NOT_IN_HAND", f"You do not hold {card}.")
        error = play_error(hand, [c for _, c in state.trick], card)
        if error is not None:
            raise error
        return self._play(state, seat, card, t, auto=False)

    def _play(self, state: LeekhaState, seat: int, card: CardId, t: int, *, auto: bool) -> LeekhaState:
        hands = replace_at(state.hands, seat, tuple(c for c in state.hands[seat] if c != card))
        trick = (*state.trick, (seat, card))
        if len(trick) < SEATS:
            nxt = right(seat)
            return evolve(
                state,
                hands=hands,
                trick=trick,
                turn=nxt,
                last=Event(EventKind.PLAY, t, seat=seat, card=card, auto=auto),
                deadline=self._turn_deadline(state, t),
            )
        return self._resolve(state, hands, trick, t, auto=auto)

    def _resolve(
        self,
        state: LeekhaState,
        hands: tuple[Hand, ...],
        trick: tuple[tuple[int, CardId], ...],
        t: int,
        *,
        auto: bool,
    ) -> LeekhaState:
        """The fourth card is down: the trick goes to its winner (rules 3.6)."""
        winner = trick_winner(trick)
        cards = [c for _, c in trick]
        seat, card = trick[-1]
        captured = replace_at(state.captured, winner, sort_hand((*state.captured[winner], *cards)))
        if BIG in cards and SMALL in cards:
            # The 37 rule replaces every point of the round and ends it at once.
            round_pts = tuple(RULE37_POINTS if s == winner else 0 for s in range(SEATS))
            record = TrickRecord(trick, winner, RULE37_POINTS)
            leftover = [c for hand in hands for c in hand]
            state = evolve(
                state,
                hands=((),) * SEATS,
                trick=(),
                captured=captured,
                discarded=sort_hand((*state.discarded, *leftover)),
                round_pts=round_pts,
                bl_taker=winner,
                sl_taker=winner,
                tricks_done=state.tricks_done + 1,
                last_trick=record,
                last=Event(EventKind.RULE37, t, seat=seat, card=card, winner=winner, points=37, auto=auto),
            )
            return self._end_round(state, EndReason.RULE37, t)
        points = points_in(cards)
        done = state.tricks_done + 1
        complete = done == HAND_SIZE
        state = evolve(
            state,
            hands=hands,
            trick=(),
            captured=captured,
            round_pts=replace_at(state.round_pts, winner, state.round_pts[winner] + points),
            bl_taker=winner if BIG in cards else state.bl_taker,
            sl_taker=winner if SMALL in cards else state.sl_taker,
            tricks_done=done,
            turn=winner,
            deadline=None if complete else self._turn_deadline(state, t),
            last_trick=TrickRecord(trick, winner, points),
            last=Event(EventKind.TRICK, t, seat=seat, card=card, winner=winner, points=points, auto=auto),
        )
        return self._end_round(state, EndReason.COMPLETE, t) if complete else state

    def _throw_in(self, state: LeekhaState, seat: int, t: int) -> LeekhaState:
        """The seat on turn takes every point still in play and ends the round (rules 3.7)."""
        if state.phase is not Phase.PLAY:
            raise IllegalAction("WRONG_PHASE", "You can throw in only during the tricks.")
        if seat != state.turn:
            raise IllegalAction("NOT_YOUR_TURN", "You can throw in only on your turn.")
        leftover = [c for hand in state.hands for c in hand] + [c for _, c in state.trick]
        points = points_in(leftover)
        state = evolve(
            state,
            hands=((),) * SEATS,
            trick=(),
            discarded=sort_hand((*state.discarded, *leftover)),
            round_pts=replace_at(state.round_pts, seat, state.round_pts[seat] + points),
            bl_taker=seat if state.bl_taker is None else state.bl_taker,
            sl_taker=seat if state.sl_taker is None else state.sl_taker,
            last=Event(EventKind.THROW_IN, t, seat=seat, points=points),
        )
        return self._end_round(state, EndReason.THROW_IN, t)

    # -- timed transitions -------------------------------------------------------

    def _fire(self, state: LeekhaState, t: int) -> LeekhaState:
        phase = state.phase
        if phase is Phase.PASS_SELECT:
            # Every clock started with the deal, so every late seat runs out at once.
            for seat in range(SEATS):
                if state.passes[seat] is None:
                    state = self._record_pass(state, seat, auto_pass(state.hands[seat]), t, auto=True)
            return state
        if phase is Phase.PASS_REVEAL:
            return self._start_play(state, t)
        if phase is Phase.PLAY:
            turn = state.turn
            assert turn is not None
            card = auto_card(state.hands[turn], [c for _, c in state.trick])
            return self._play(state, turn, card, t, auto=True)
        if phase is Phase.ROUND_END:
            return self._next_round(state, t)
        raise AssertionError(f"no deadline can be pending in {phase}")

    def _turn_deadline(self, state: LeekhaState, t: int) -> int | None:
        turn_ms = state.options.turn_ms
        return t + turn_ms if turn_ms else None

    def _deal(self, state: LeekhaState, round_no: int, starter: int, t: int) -> LeekhaState:
        rng = state.rng.copy()
        deck = rng.shuffled(DECK)
        dealt, _ = deal_hands(deck, SEATS, HAND_SIZE)
        hands = tuple(sort_hand(hand) for hand in dealt)
        return evolve(
            state,
            rng=rng,
            **_fresh_round(
                round_no=round_no,
                starter=starter,
                hands=hands,
                last=Event(EventKind.DEAL, t, seat=starter),
                deadline=self._turn_deadline(state, t),
            ),
        )

    def _start_play(self, state: LeekhaState, t: int) -> LeekhaState:
        return evolve(
            state,
            phase=Phase.PLAY,
            acked=(False,) * SEATS,
            turn=state.starter,
            last=Event(EventKind.PLAY_STARTED, t, seat=state.starter),
            deadline=self._turn_deadline(state, t),
        )

    def _record(self, state: LeekhaState, end: EndReason, totals: tuple[int, ...]) -> RoundRecord:
        return RoundRecord(
            round=state.round,
            starter=state.starter,
            end=end,
            points=state.round_pts,
            totals=totals,
            bl_taker=state.bl_taker,
            sl_taker=state.sl_taker,
            tricks=state.tricks_done,
        )

    def _end_round(self, state: LeekhaState, reason: EndReason, t: int) -> LeekhaState:
        """Add the round's points, then the match-end check (rules 3.8, 4.3, 4.4)."""
        scores = state.live
        record = self._record(state, reason, scores)
        options = state.options
        final: Verdict | None = verdict(scores, options.mode, options.limit)
        return evolve(
            state,
            phase=Phase.ROUND_END if final is None else Phase.MATCH_END,
            turn=None,
            acked=(False,) * SEATS,
            end_reason=reason,
            deadline=None if final is not None else t + options.scoreboard_ms,
            scores=scores,
            history=(*state.history, record),
            verdict=final,
        )

    def _next_round(self, state: LeekhaState, t: int) -> LeekhaState:
        # Every way a round ends names a Big Leekha taker (rules 3.8, decision 14).
        assert state.bl_taker is not None
        return self._deal(state, state.round + 1, right(state.bl_taker), t)


def _fresh_round(
    *,
    round_no: int,
    starter: int,
    hands: tuple[tuple[CardId, ...], ...],
    last: Event | None,
    deadline: int | None,
) -> dict[str, Any]:
    """The round's part of a state right after a deal: passing starts, nothing is played or taken yet."""
    return {
        "phase": Phase.PASS_SELECT,
        "round": round_no,
        "starter": starter,
        "hands": hands,
        "passes": (None,) * SEATS,
        "received": ((),) * SEATS,
        "acked": (False,) * SEATS,
        "trick": (),
        "turn": None,
        "tricks_done": 0,
        "round_pts": (0,) * SEATS,
        "captured": ((),) * SEATS,
        "discarded": (),
        "bl_taker": None,
        "sl_taker": None,
        "end_reason": None,
        "last_trick": None,
        "last": last,
        "deadline": deadline,
    }
