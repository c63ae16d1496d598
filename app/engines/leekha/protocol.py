"""Leekha's side of the protocol (see app/engines/protocol.py)."""

from __future__ import annotations

from app.engines.protocol import ActionDoc, FieldDoc, GameProtocol

PROTOCOL = GameProtocol(
    summary="Trick taking, free for all or 2 vs 2, to a points limit; each round starts with a pass of "
    "three cards. The host may end a decided match (`end_match`).",
    actions=(
        ActionDoc(
            "submit_pass",
            "`PASS_SELECT`, once per round",
            "Pass three cards to the next seat.",
            (
                FieldDoc(
                    "cards", "list of 3 card ids", "Three different cards of your hand (see `pass_rule`)."
                ),
            ),
        ),
        ActionDoc("ack", "`PASS_REVEAL` or `ROUND_END`", "Confirm you have seen the pass or the scores."),
        ActionDoc(
            "play_card",
            "`PLAY`, on your turn",
            "Play a card to the trick.",
            (FieldDoc("card", "card id", "A card of your hand that the rules allow now."),),
        ),
        ActionDoc("throw_in", "`PLAY`, on your turn", "Give up the round: it ends at once."),
    ),
    view={
        "game": '`"leekha"`.',
        "phase": "Where the round stands (see the phases).",
        "mode": '`"ffa"` or `"teams"`.',
        "limit": "Points that end the match.",
        "round": "Current round, from 1.",
        "decider": "Whether someone has reached the limit (the host may end the match).",
        "starter": "The seat that led the round's first trick.",
        "turn": "The seat to play, or `null`.",
        "deadline": "Room time (ms) of the phase's timer (an automatic move at a turn's end).",
        "led": "The colour led in the current trick, or `null`.",
        "trick": "The cards of the current trick: `{seat, card}`.",
        "last_trick": "The last closed trick: `{cards, winner, points}`, or `null`.",
        "tricks_done": "Tricks played this round.",
        "seats": "One entry per seat (below).",
        "scores": "Match points per seat.",
        "bl_taker": "The seat that took the Big Leekha (`B12`) this round, or `null`.",
        "sl_taker": "The seat that took the Small Leekha (`Y10`) this round, or `null`.",
        "end_reason": "How the last round ended, or `null`.",
        "history": "One record per finished round: `{round, starter, end, points, totals, bl_taker, "
        "sl_taker, tricks}`.",
        "decided": "Once the match is decided: `{seat, losers}`, else `null`.",
        "result": "When the match is over: `{losers, places, early}`, else `null`.",
        "hand": "Your cards (`[]` for spectators).",
        "pass": "The three cards you passed this round, or `null`.",
        "received": "The cards passed to you this round.",
        "pass_rule": "While you choose a pass: `{count, must_keep}` (a card of each `must_keep` colour "
        "stays in your hand), else `null`.",
        "last": "The last event: `{kind, at, seat, card, winner, points, auto}`.",
        "you": "Your seat, or `null` for spectators.",
        "legal": "The actions you may send right now (every allowed pass listed).",
    },
    nested={
        "seats[]": {
            "cards": "Cards in the seat's hand (a count).",
            "team": "Team 0 or 1 in teams mode, else `null`.",
            "passed": "Whether the seat has passed this round.",
            "acked": "Whether the seat has confirmed.",
            "points": "Points taken this round (points are bad).",
            "tricks": "Tricks taken this round.",
            "taken": "The point cards the seat has taken this round.",
        },
    },
    phases={
        "PASS_SELECT": "Everyone chooses three cards to pass.",
        "PASS_REVEAL": "The passes are shown; confirm with `ack` (or wait for `reveal_ms`).",
        "PLAY": "Tricks are played; `turn` is to play.",
        "ROUND_END": "The round's scores; confirm with `ack` (or wait for `scoreboard_ms`).",
        "MATCH_END": "The match is over; `result` is set.",
    },
    card_ids="A colour (`R`, `B`, `Y`, `G`) and the rank 02-14 in two digits (the faces: 10 is the 0, 11 "
    'Reverse, 12 +2, 13 Skip, 14 the 1), e.g. `"B12"`, the Big Leekha (13 points); `"Y10"` is the Small '
    "Leekha (10 points), every red card 1 point.",
    rule_codes={
        "NOT_ADMIN": "`end_match_early` is the host's (use the `end_match` admin command).",
        "NOT_DECIDED": "The match cannot be ended early: nobody has lost for certain yet.",
        "WRONG_PHASE": "That action belongs to another phase.",
        "PASS_ALREADY_SUBMITTED": "You already passed your cards this round.",
        "ALREADY_ACKED": "You already confirmed.",
        "NOT_YOUR_TURN": "It is not your turn.",
        "NOT_IN_HAND": "You do not hold that card.",
        "PASS_NOT_THREE_DISTINCT": "A pass is exactly three different cards.",
        "PASS_EMPTIES_COLOUR": "The pass would leave you without a colour you must keep (`pass_rule`).",
        "MUST_FOLLOW_COLOUR": "You hold the colour led: play one of it.",
        "MUST_PLAY_LEEKHA_UNDER_HIGHER": "A higher card of its colour is in the trick: you must play your "
        "Leekha card (`B12`, `Y10`).",
        "MUST_PLAY_LEEKHA_VOID": "You cannot follow the colour led, so you must play your Leekha card.",
    },
)
