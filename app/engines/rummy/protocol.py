"""Rummy's side of the protocol (see app/engines/protocol.py)."""

from __future__ import annotations

from app.engines.protocol import ActionDoc, FieldDoc, GameProtocol
from app.engines.rummy import problems

TURN_ID = FieldDoc("turn_id", "int", "The view's `turn_id`: an action made for another turn is refused.")
TABLE = (
    '[{"kind": "group" | "run" | null (optional), "cards": [card ids]}, ...]',
    "The whole table as you want it (every table card, plus cards of your hand).",
)

PROTOCOL = GameProtocol(
    summary="Rummikub with cards: on your turn rearrange the table freely in a public draft, then "
    "commit it or draw. The view's `legal` lists the action kinds with their shapes: values in "
    '`"<...>"` are placeholders to fill in; `commit`, `draw`, `undo` and `reset` can be sent as listed.',
    actions=(
        ActionDoc(
            "move",
            "`TURN`, on your turn",
            "One draft step: a card from your hand or a set to your hand, a new set or a place in a set.",
            (
                TURN_ID,
                FieldDoc("card", "card id", "A card of your hand or of the draft."),
                FieldDoc(
                    "to",
                    '"hand" | "new" | {"set": i, "index": k (optional)}',
                    'Where it goes; `"hand"` takes back only cards from your hand.',
                ),
            ),
        ),
        ActionDoc(
            "declare",
            "`TURN`, on your turn",
            "Say whether a set is a group or a run (needed with a single numbered card).",
            (
                TURN_ID,
                FieldDoc("set", "int", "The set's index in the draft."),
                FieldDoc("kind", '"group" | "run" | null', "The set's kind (`null`: let the cards tell)."),
            ),
        ),
        ActionDoc(
            "draft",
            "`TURN`, on your turn",
            "Replace the draft at once (a whole drag-and-drop result).",
            (TURN_ID, FieldDoc("table", *TABLE)),
        ),
        ActionDoc(
            "undo", "`TURN`, on your turn, after a draft step", "Take back the last draft step.", (TURN_ID,)
        ),
        ActionDoc(
            "reset", "`TURN`, on your turn, draft changed", "Put the draft back as the table was.", (TURN_ID,)
        ),
        ActionDoc(
            "commit",
            "`TURN`, on your turn",
            "End the turn with this table (without `table`: the current draft).",
            (TURN_ID, FieldDoc("table", *TABLE, optional=True)),
        ),
        ActionDoc(
            "draw",
            "`TURN`, on your turn",
            "End the turn by drawing a card (a pass when the pool is empty).",
            (TURN_ID,),
        ),
    ),
    view={
        "game": '`"rummy"`.',
        "phase": "Where the match stands (see the phases).",
        "round": "Current round, from 1.",
        "rounds": "Rounds in the match, or `null` when it lasts `match_minutes`.",
        "match_ends_at": "Room time (ms) the match's time is up, or `null`.",
        "turn_id": "The current turn's number; every action names it.",
        "turn": "The seat whose turn it is, or `null` between turns.",
        "deadline": "Room time (ms) the turn (or pause) ends.",
        "pool": "Cards left to draw (a count).",
        "opening_min": "Points a first play must reach.",
        "table": "The committed table: `[{kind, cards}]`.",
        "draft": "During a turn, the active player's draft (public) with its verdict (below), else `null`.",
        "hand": "Your cards (`null` for spectators).",
        "seats": "One entry per seat (below).",
        "passes": "Turns in a row that ended with nothing to draw (the round ends when all pass).",
        "totals": "Match points per seat.",
        "scores": "One record per finished round: `{round, end, winners, cards, values, scores}`.",
        "last": "The last finished turn: `{turn_id, seat, end, at, played, drew, drawn, returned, rebuilt, "
        "new_sets, jokers_exchanged}` (`drawn`, the cards, only for that seat).",
        "winners": "Winning seats once the match is over, else `[]`.",
        "you": "Your seat, or `null` for spectators.",
        "legal": "The action kinds you may send now, with their shapes.",
    },
    nested={
        "seats[]": {
            "cards": "Cards in the seat's hand (a count).",
            "opened": "Whether the seat has made its first play.",
            "away": "Whether the seat is marked away (short turns).",
        },
        "draft": {
            "table": "The draft table: `[{kind, cards}]`.",
            "sets": "Per set: `{kind, ok, value}`.",
            "problems": "The checks a commit would fail: `{code, set, cards, points?}` (codes below).",
            "valid": "Whether a commit of this draft would be accepted.",
            "placed": "Cards from the hand placed in the draft.",
            "steps": "Draft steps that `undo` can take back.",
        },
    },
    phases={
        "TURN": "A player's turn: `turn` rebuilds the draft, then commits or draws.",
        "TURN_RESULT": "A short pause after a turn.",
        "ROUND_OVER": "The round's scores are shown; the next round is dealt after a pause.",
        "MATCH_OVER": "The match ended; `winners` is set.",
    },
    card_ids='A colour (`R`, `B`, `Y`, `K`), the number 01-13 in two digits and the copy `a` or `b`, e.g. `"R07a"`; the jokers are `"J1"` to `"J4"`.',
    rule_codes={
        "TURN_OVER": "That turn is over; the next one starts in a moment.",
        "WRONG_PHASE": "The round is over; the next one is being dealt.",
        "NOT_YOUR_TURN": "It is not your turn.",
        "STALE_TURN": "The action names another turn than `turn_id`.",
        "NOTHING_TO_UNDO": "No draft step to undo, or the draft is already as the table was.",
        "NO_SUCH_SET": "There is no set of that index.",
        "NO_SUCH_PLACE": "That set has no such place.",
        # A refused draft or commit answers with its first problem's code; `draft.problems` lists them all.
        **problems.meanings(),
    },
)
