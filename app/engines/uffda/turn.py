"""The active player's actions: play, draw, coins and NEXT (rules 4).

Each function validates first and raises :class:`IllegalAction` before it
builds anything, so a rejected action leaves no trace.
"""

from __future__ import annotations

from app.engines.base import IllegalAction, Timing
from app.engines.cards import CardId
from app.engines.seats import clockwise
from app.engines.tuples import evolve, replace_at
from app.engines.uffda.board import Play, Target, access, find_end, legal_plays, place, set_coin
from app.engines.uffda.dominoes import has, is_double
from app.engines.uffda.log import emit
from app.engines.uffda.penalties import close_windows, note_release, open_offence, pending_uffda
from app.engines.uffda.rounds import check_terminated, end_round, turn_deadline
from app.engines.uffda.state import Kind, Step, Turn, UffdaState

_DRAWN = (Step.AFTER_DRAW, Step.FOLLOW_UP_DRAWN)
_FOLLOW = (Step.FOLLOW_UP, Step.FOLLOW_UP_DRAWN)


def _active(state: UffdaState, seat: int) -> Turn:
    if seat != state.turn.seat:
        raise IllegalAction("NOT_YOUR_TURN", "It is not your turn.")
    return state.turn


def plays(state: UffdaState) -> list[Play]:
    """The active player's legal plays now, including the ones rules 8.25 holds back."""
    turn = state.turn
    hand = state.hands[turn.seat]
    if turn.step is Step.DONE:
        return []
    if turn.step in _DRAWN:
        # The drawn card may have gone to someone as a penalty card meanwhile.
        drawn = turn.drawn
        cards: tuple[CardId, ...] = (drawn,) if drawn is not None and drawn in hand else ()
    else:
        cards = hand
    return legal_plays(state.branches, state.double, turn.seat, cards)


def going_out_blocked(state: UffdaState, seat: int) -> bool:
    """Rules 6.1 / 8.25: a play emptying the hand waits for the seat's missed UFF-DA! to be settled."""
    return len(state.hands[seat]) == 1 and bool(pending_uffda(state, seat))


def can_pass(state: UffdaState) -> bool:
    """NEXT in OPEN or FOLLOW_UP: only with no draw cards and no legal play (rules 4.4, 8.19)."""
    return state.piles_empty and not plays(state)


def play(state: UffdaState, seat: int, card: CardId, target: Target, uffda: bool, at: int) -> UffdaState:
    turn = _active(state, seat)
    step = turn.step
    if step is Step.DONE:
        raise IllegalAction("WRONG_PHASE", "You have played this turn; say NEXT.")
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalAction("CARD_NOT_IN_HAND", "That card is not in your hand.")
    if step in _DRAWN and card != turn.drawn:
        raise IllegalAction("NOT_DRAWN_CARD", "After drawing you may play only the card you drew.")
    b, on, side = target
    if not 0 <= b < len(state.branches):
        raise IllegalAction("NO_END", "There is no such branch.")
    double = state.double
    if double is not None:
        if (b, on) != (double.branch, double.card) or side not in (0, 1):
            if step in _FOLLOW:
                raise IllegalAction("MUST_FOLLOW_UP", "Fill a side of your double, or draw.")
            raise IllegalAction(
                "DOUBLE_ACTIVE_FILL_ONLY", "A double is waiting: only a card that fills it can go."
            )
        if double.fills[side] is not None:
            raise IllegalAction("NO_END", "That side of the double is already filled.")
        if not has(card, double.value):
            raise IllegalAction("NO_MATCH", f"That card has no {double.value} to fill the double.")
    else:
        branch = state.branches[b]
        i = find_end(branch, on, side)
        if i is None:
            raise IllegalAction("NO_END", "There is no open end there.")
        code = access(state.branches, b, seat)
        if code == "BRANCH_PROTECTED":
            raise IllegalAction(code, "That branch is protected: its owner removed the coin.")
        if code == "COMMUNITY_NOT_READY":
            raise IllegalAction(code, "The community branch opens once every player's branch has started.")
        value = branch.ends[i].value
        if not has(card, value):
            raise IllegalAction("NO_MATCH", f"That card has no {value} to match the end.")
    if going_out_blocked(state, seat):
        raise IllegalAction(
            "UFFDA_PENDING", "Say UFF-DA! and wait for the calls before you play your last card."
        )

    kept = tuple(c for c in hand if c != card)
    branches, new_double = place(state.branches, double, target, card, seat)
    own = branches[b].owner == seat
    laid_double = is_double(card)
    trigger = len(kept) == 1
    declared = trigger and (uffda or not state.options.penalties)
    state = evolve(
        state,
        hands=replace_at(state.hands, seat, kept),
        branches=branches,
        double=new_double,
        turn=evolve(
            turn,
            step=Step.FOLLOW_UP if laid_double else Step.DONE,
            drawn=None,
            played_any=True,
            played_own=turn.played_own or own,
        ),
    )
    state = emit(state, at, "play", seat, card=card, branch=b, on=on, side=side, uffda=declared)
    if trigger:
        state = note_release(state, seat)
    if trigger and not declared:
        state = open_offence(state, Kind.UFFDA, seat, at)
    # Rules 6.1: out by a non-double wins; out by a double wins only when the extra draw is impossible.
    if not kept and (not laid_double or state.piles_empty):
        return end_round(state, seat, at)
    return check_terminated(state, at)


def draw(state: UffdaState, seat: int, pile: int, uffda: bool, at: int) -> UffdaState:
    turn = _active(state, seat)
    step = turn.step
    if step in _DRAWN:
        raise IllegalAction("WRONG_PHASE", "You already drew this turn.")
    if step is Step.DONE:
        raise IllegalAction("WRONG_PHASE", "You have played this turn; say NEXT.")
    if not state.piles[pile]:
        if state.piles_empty:
            raise IllegalAction("PILE_EMPTY", "Both draw piles are empty.")
        raise IllegalAction("PILE_EMPTY", "That pile is empty; draw from the other one.")
    card = state.piles[pile][0]
    hand = state.hands[seat]
    extra = step is Step.FOLLOW_UP and not hand  # T3: the last card played was a double
    declared = extra and (uffda or not state.options.penalties)
    piles = (state.piles[0][1:], state.piles[1]) if pile == 0 else (state.piles[0], state.piles[1][1:])
    state = evolve(
        state,
        hands=replace_at(state.hands, seat, tuple(sorted((*hand, card)))),
        piles=piles,
        turn=evolve(
            turn,
            step=Step.AFTER_DRAW if step is Step.OPEN else Step.FOLLOW_UP_DRAWN,
            drawn=card,
            drew=True,
            drew_under_double=turn.drew_under_double or (step is Step.OPEN and state.double is not None),
        ),
    )
    state = emit(state, at, "draw", seat, secret=card, secret_to=(seat,), pile=pile, uffda=declared)
    if extra:
        state = note_release(state, seat)
    if extra and not declared:
        state = open_offence(state, Kind.UFFDA, seat, at)
    return check_terminated(state, at)


def place_coin(state: UffdaState, seat: int, at: int) -> UffdaState:
    turn = _active(state, seat)
    if turn.step is not Step.AFTER_DRAW or turn.drew_under_double or state.branches[seat].coin:
        raise IllegalAction("NO_COIN_DUTY", "You owe no coin now.")
    state = evolve(state, branches=set_coin(state.branches, seat, True), turn=evolve(turn, step=Step.DONE))
    return emit(state, at, "coin", seat, on=True, auto=False)


def remove_coin(state: UffdaState, seat: int, at: int) -> UffdaState:
    turn = _active(state, seat)
    if not turn.played_own:
        raise IllegalAction(
            "COIN_NOT_REMOVABLE", "You can remove your coin only in a turn you played on your own branch."
        )
    if not state.branches[seat].coin:
        raise IllegalAction("COIN_NOT_REMOVABLE", "Your coin is already off.")
    state = evolve(state, branches=set_coin(state.branches, seat, False))
    return emit(state, at, "coin", seat, on=False, auto=False)


def say_next(state: UffdaState, seat: int, at: int, timing: Timing | None = None) -> UffdaState:
    turn = _active(state, seat)
    if turn.step is Step.OPEN and not can_pass(state):
        if state.piles_empty:
            raise IllegalAction("MUST_PLAY_OR_DRAW", "The draw piles are empty: you must play.")
        raise IllegalAction("MUST_PLAY_OR_DRAW", "Play a card or draw before saying NEXT.")
    if turn.step is Step.FOLLOW_UP and not can_pass(state):
        raise IllegalAction("MUST_FOLLOW_UP", "Fill a side of your double, or draw, before saying NEXT.")
    return end_turn(state, at, place_owed=False, timing=timing)


def end_turn(state: UffdaState, at: int, place_owed: bool, timing: Timing | None = None) -> UffdaState:
    """NEXT (rules 4.6): the coin check, the window closes, and the turn passes clockwise.

    ``place_owed`` is the turn timer's NEXT, which places an owed coin itself (rules 7);
    ``timing`` the seats' links when a player said it (how long calls may be in flight).
    """
    turn = state.turn
    seat = turn.seat
    passed = turn.step in (Step.OPEN, Step.FOLLOW_UP)
    coin = state.branches[seat].coin
    if passed and state.double is None and not coin:
        # A pass puts the coin on by itself and can never be forgotten (DECISION 8.17).
        state = evolve(state, branches=set_coin(state.branches, seat, True))
        state = emit(state, at, "coin", seat, on=True, auto=True)
        coin = True
    owed = turn.owes_coin_if_off and not coin
    if owed and (place_owed or not state.options.penalties):
        state = evolve(state, branches=set_coin(state.branches, seat, True))
        state = emit(state, at, "coin", seat, on=True, auto=True)
        owed = False
    state = emit(state, at, "next", seat, passed=passed)
    state = close_windows(state, turn.no, at, timing)
    if owed:
        state = open_offence(state, Kind.COIN, seat, at)
    nxt = clockwise(seat, state.players)
    # The ended turn's public facts stay in view for the turn its forgotten coin is catchable in.
    return evolve(
        state, turn=Turn(nxt, turn.no + 1, Step.OPEN, at, turn_deadline(state.options, at)), previous=turn
    )
