"""UFF-DA!'s side of the protocol (see app/engines/protocol.py)."""

from __future__ import annotations

from app.engines.protocol import ActionDoc, FieldDoc, GameProtocol

UFFDA = FieldDoc("uffda", "true", "Say UFF-DA! with it, if it leaves you one card.", optional=True)
REACTION = FieldDoc(
    "reaction_ms", "whole ms", "How long you took to react, as your client saw it.", optional=True
)

PROTOCOL = GameProtocol(
    summary="Dominoes as cards on branches, with coins, doubles and penalty calls raced on the server's "
    "clock. A `legal` entry lists only the fields an action needs; the optional ones are below (and in "
    "the view's `shapes`).",
    actions=(
        ActionDoc(
            "play",
            "`PLAY`, on your turn",
            "Put a card on an open end.",
            (
                FieldDoc("card", "card id", "A card of your hand (after drawing: the drawn card)."),
                FieldDoc("branch", "int", "The branch."),
                FieldDoc("on", "int", "The card of the branch the end is anchored at (`-1`: the centre)."),
                FieldDoc("side", "0 | 1", "0, or a side of the active double.", optional=True),
                UFFDA,
            ),
        ),
        ActionDoc(
            "draw",
            "`PLAY`, on your turn",
            "Draw from a pile.",
            (FieldDoc("pile", "0 | 1", "The pile."), UFFDA),
        ),
        ActionDoc("place_coin", "`PLAY`, when you owe a coin", "Put your coin on your branch."),
        ActionDoc("remove_coin", "`PLAY`, after playing on your own branch", "Take your coin back."),
        ActionDoc("next", "`PLAY`, when your turn may end", "End your turn."),
        ActionDoc(
            "declare_uffda",
            "while your last one-card release is in the turn in play or the one before",
            "A late UFF-DA!.",
            (REACTION,),
        ),
        ActionDoc(
            "call",
            "`PLAY`, penalties on, holding at least two cards",
            "Catch a mistake of another seat (a call on nothing is refused `NO_OFFENCE`).",
            (
                FieldDoc("kind", '"COIN" | "UFFDA"', "The mistake: a coin owed, or an UFF-DA! not said."),
                FieldDoc("target", "int", "The seat called."),
                FieldDoc(
                    "give_card", "card id", "The penalty card you give; default your highest.", optional=True
                ),
                FieldDoc(
                    "uffda",
                    "true",
                    "Say UFF-DA! with the call, if giving the card leaves you one.",
                    optional=True,
                ),
                REACTION,
            ),
        ),
    ),
    view={
        "game": '`"uffda"`.',
        "phase": "Where the round stands (see the phases).",
        "round": "Current round, from 1.",
        "rounds": "Rounds in the game.",
        "center": "The centre card's value this round.",
        "dealer": "The dealing seat.",
        "first_draw": "The cards drawn to choose the first dealer, per seat.",
        "turn": "`{seat, no, step, drew, played}`: whose turn, its number and how far it is.",
        "deadline": "Room time (ms) of the next timer.",
        "piles": "Cards in each draw pile (counts).",
        "branches": "The branches: `{owner, coin, cards: [{card, on, side}], ends: [{value, on, side}]}`.",
        "community_open": "Whether the community branch is open.",
        "double": "The active double: `{branch, on, value, sides, layer}`, or `null`.",
        "seats": "One entry per seat: `{cards, total}` (a count and match points).",
        "hand": "Your cards (`null` for spectators).",
        "drawn": "The card you drew this turn, or `null`.",
        "totals": "Match points per seat (lowest wins).",
        "scores": "One record per finished round: `{round, center, dealer, winner, terminated, hand_points, "
        "scores, totals}`.",
        "last": "What the last input did: events `{seq, at, kind, seat, ...}`, race rulings with their claims.",
        "recent": "The public events of the turn in play and the one before.",
        "previous": "The public facts of the turn before: `{seat, no, drew, played, drew_under_double}`.",
        "penalties": "Whether penalty calls are on.",
        "offences": "With `assist`: every open mistake `{kind, offender, turn, closing, calls}`, else `[]`.",
        "winners": "Winning seats once the game is over, else `[]`.",
        "you": "Your seat, or `null` for spectators.",
        "legal": "The actions you may send right now (calls wherever calling is possible at all).",
        "shapes": "The optional fields each action kind may add, with their meaning.",
    },
    phases={
        "PLAY": "The round is played.",
        "ROUND_OVER": "The round's scores are on screen; the next round is dealt after a pause.",
        "GAME_OVER": "The game ended; `winners` is set.",
    },
    card_ids='A double-nine domino `"a-b"`, the smaller number first (`0 <= a <= b <= 9`), e.g. `"4-7"`, `"9-9"`.',
    rule_codes={
        "WRONG_PHASE": "The round is over; the next one starts soon.",
        "NO_OFFENCE": "A call or late UFF-DA! with nothing to catch or owe: no effect.",
        "PENALTIES_OFF": "Penalty calls are switched off at this table.",
        "SELF_CALL": "You cannot call a penalty on yourself.",
        "CALLER_TOO_FEW_CARDS": "You need at least two cards to call a penalty.",
        "CARD_NOT_IN_HAND": "`give_card` is not a card of your hand.",
        "ALREADY_CALLED": "You already made that call.",
        "NOT_YOUR_TURN": "It is not your turn.",
        "NOT_DRAWN_CARD": "After drawing you may play only the card you drew.",
        "NO_END": "There is no such branch or open end.",
        "BRANCH_PROTECTED": "That branch is protected: its owner removed the coin.",
        "UFFDA_PENDING": "Say UFF-DA! and wait for the calls before you play your last card.",
        "PILE_EMPTY": "That pile is empty; draw from the other one.",
        "NO_COIN_DUTY": "You owe no coin now.",
        "COIN_NOT_REMOVABLE": "You can remove your coin only in a turn you played on your own branch.",
        "MUST_PLAY_OR_DRAW": "Play a card or draw before saying NEXT.",
        "MUST_FOLLOW_UP": "Fill a side of your double, or draw, before saying NEXT.",
        "DOUBLE_ACTIVE_FILL_ONLY": "A double is waiting: only a card that fills it can go.",
        "NO_MATCH": "That card does not match the end (or the double).",
    },
)
