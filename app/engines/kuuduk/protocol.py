"""Kuuduk's side of the protocol (see app/engines/protocol.py)."""

from __future__ import annotations

from app.engines.protocol import ActionDoc, FieldDoc, GameProtocol

PLACEMENT = FieldDoc(
    "placement",
    "slot 1-6 | list of 6 card ids or nulls",
    "A slot number when no laid card moves, or the full new row (slot 1 first).",
)

PROTOCOL = GameProtocol(
    summary="Spell k-u-u-d-u-k in your row of six slots: draw or pick up, then lay, swipe, switch or "
    "discard.",
    actions=(
        ActionDoc("draw", "`TURN`, first step", "Draw from the draw pile."),
        ActionDoc("pass", "`TURN`, first step", "Pass the turn."),
        ActionDoc(
            "take_discard",
            "`TURN`, first step",
            "Pick up the discard pile's top card and lay it.",
            (PLACEMENT,),
        ),
        ActionDoc(
            "lay",
            "`TURN`, after drawing",
            "Lay a letter card in your row.",
            (FieldDoc("card", "card id", "The letter card."), PLACEMENT),
        ),
        ActionDoc(
            "discard", "`TURN`, after drawing", "Discard a card.", (FieldDoc("card", "card id", "The card."),)
        ),
        ActionDoc(
            "swipe",
            "`TURN`, after drawing a swipe card",
            "Take a card from another row (without `victim`: a plain discard of the swipe card).",
            (
                FieldDoc("card", "card id", "The swipe card."),
                FieldDoc("victim", "int", "The seat swiped from.", optional=True),
                FieldDoc("slot", "1-6", "The slot of the victim's row.", optional=True),
                FieldDoc("placement", PLACEMENT.shape, "Where the card goes in your row.", optional=True),
            ),
        ),
        ActionDoc(
            "switch",
            "`TURN`, after drawing a Switch",
            "Play a Switch card (then draw again).",
            (FieldDoc("card", "card id", "The Switch card."),),
        ),
    ),
    view={
        "game": '`"kuuduk"`.',
        "phase": "Where the round stands (see the phases).",
        "step": "How far the turn is (`null` between turns).",
        "round": "Current round, from 1.",
        "tiebreak": "Whether this round is a tie-break.",
        "mode": '`"points"` or `"single_round"`.',
        "target": "Points that win the game.",
        "dealer": "The dealing seat.",
        "direction": "The direction of play.",
        "turn": "The seat to play, or `null`.",
        "restarted": "Whether the round was dealt again.",
        "deadline": "Room time (ms) of the next timer, or `null`.",
        "draw_pile": "Cards left to draw (a count).",
        "discard_top": "The discard pile's top card, or `null`.",
        "discard_size": "Cards in the discard pile.",
        "stall": "Turns in a row without progress.",
        "stall_limit": "Stalled turns that end the round.",
        "void_streak": "Void rounds in a row.",
        "void_rounds": "Void rounds in a row that end the game.",
        "seats": "One entry per seat (below).",
        "hand": "Your cards (`[]` for spectators).",
        "drawn": "The card you drew this turn, or `null`.",
        "scores": "Game points per seat.",
        "rounds": "One record per finished round: `{round, seats, tiebreak, winner, void, laid, held, scores, "
        "counted, turns}`.",
        "next_round": "Who plays the next round: `{seats, tiebreak}`, or `null`.",
        "last": "The last moves: `{type, seat, card, slot, victim, from_slot, taken, rearranged, direction, "
        "count}`.",
        "winners": "Winning seats once the game is over, else `[]`.",
        "you": "Your seat, or `null` for spectators.",
        "legal": "The actions you may send right now.",
    },
    nested={
        "seats[]": {
            "playing": "Whether the seat plays this round.",
            "hand": "Cards in the seat's hand (a count).",
            "layout": "The seat's row: six card ids or nulls, slot 1 first.",
            "gaps": "Empty slots between laid cards.",
            "laid": "Cards laid in the row.",
            "score": "The seat's game points.",
        },
    },
    phases={
        "TURN": "A seat's turn (`turn`, `step`).",
        "ROUND_END": "The round's scores; the next round is dealt after a pause.",
        "GAME_OVER": "The game ended; `winners` is set.",
    },
    card_ids="A letter card is `<letter><colour><dots>-<copy>`: letter `k`, `u` or `d`, colour `G`, `O` or "
    '`P`, 1-3 dots, e.g. `"uG2-3"` (the third green two-dot u); a black card is `<kind>-<copy>`, e.g. '
    '`"swipe_any-2"`, `"switch-4"`.',
    rule_codes={
        "WRONG_PHASE": "The round is over; the next one is about to be dealt.",
        "NOT_IN_ROUND": "You are not playing in this round.",
        "NOT_YOUR_TURN": "It is not your turn.",
        "BAD_OPTIONS": "The first dealer must be a seat at the table.",
        "LAYOUT_CARDS_CHANGED": "The new row must hold the cards you laid plus the new one, each once.",
        "NOT_ADJACENT": "Lay the card next to one of your cards.",
        "WRONG_LETTER_SLOT": "That slot takes another letter.",
        "SLOT_TAKEN": "That slot is taken; send the full new row to move cards.",
        "NO_MATCH": "Neighbouring cards must share a colour or a dot count.",
        "GAP_CREATED": "That would leave a slot empty; only a swipe can make a gap.",
        "WRONG_STEP": "That action does not fit this step of the turn.",
        "NOT_IN_HAND": "That card is not in your hand.",
        "MUST_DRAW": "After a Switch you must draw again.",
        "DISCARD_EMPTY": "The discard pile is empty.",
        "DISCARD_TOP_BLACK": "Black cards cannot be picked up from the discard pile.",
        "NOT_A_LETTER": "Only letter cards can be laid down.",
        "NOT_A_SWIPE": "That is not a swipe card.",
        "NOT_A_SWITCH": "That is not a Switch card.",
        "DRAW_PILE_EMPTY": "There is no card to draw; pick up or pass.",
        "BAD_VICTIM": "This swipe card cannot take from that seat.",
        "NO_CARD_IN_SLOT": "There is no card in that slot of the row.",
    },
)
