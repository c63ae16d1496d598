"""Slap's side of the protocol: actions, view, phases, card ids and rule codes (see app/engines/protocol.py)."""

from __future__ import annotations

from app.engines import race
from app.engines.protocol import ActionDoc, FieldDoc, GameProtocol
from app.engines.slap.state import FlipKind

RACE_FLAGS = (
    race.ABOVE_WINDOW,
    race.BELOW_WINDOW,
    race.INHUMAN,
    race.NO_SYNC,
    race.NO_REACTION,
    race.NO_STIMULUS,
    race.UNVERIFIED,
)

PROTOCOL = GameProtocol(
    summary="Everyone flips at once; the first to slap a pair takes the trick. The view's `legal` offers "
    "a `slap` on every open flip, pair or not: it would give the pair away.",
    actions=(
        ActionDoc("nu", '`AWAIT_NU`, by the starter, with `nu_mode: "starter"`', "Call Nu!: the cards turn."),
        ActionDoc(
            "slap",
            "`FLIP_OPEN` or `RACE`, once per flip",
            "Slap the table. On a flip without a pair it counts as a penalty.",
            (
                FieldDoc("flip", "int", "The flip slapped: the view's `flip`."),
                FieldDoc(
                    "reaction_ms",
                    "whole ms",
                    "The time from the cards being painted on your screen to your slap: the first animation "
                    "frame after the frame that turned them over was applied, to the input event's own "
                    "timestamp.",
                    optional=True,
                ),
            ),
        ),
    ),
    view={
        "game": '`"slap"`.',
        "phase": "Where the flip cycle stands (see the phases).",
        "round": "Current round, from 1.",
        "rounds": "Rounds in the match.",
        "flip": "Flips so far in the match; grows when Nu! is called. A slap names this number.",
        "starter": "The seat that calls the next Nu!.",
        "nu_mode": '`"starter"` or `"auto"` (the server calls Nu!).',
        "deadline": "Room time (ms) of the phase's next timer; `null` while a flip is open (it would tell "
        "whether the flip holds a pair).",
        "reveal_at": "Room time (ms) when the called flip turns (or turned) face up; set in `NU_CALLED`, "
        "`FLIP_OPEN`, `RACE`.",
        "round_started_at": "Room time (ms) the round began.",
        "time_limit_at": "Room time (ms) of the round's time limit, or `null` without one.",
        "seats": "One entry per seat (below).",
        "totals": "Match points per seat.",
        "scores": "One record per finished round: `{round, end, counts, placement, penalties, scores}`.",
        "last": "The last closed flip: `{flip, kind, winner, tied, pairs, claims, reveal_at, closed_at}`; "
        "each claim is `{seat, arrival, at, reaction, claimed, credit, flags}` (see the race ruling). "
        "No card ids.",
        "winners": "Winning seats once the match is over, else `[]`.",
        "you": "Your seat, or `null` for spectators.",
        "legal": "The actions you may send right now.",
    },
    nested={
        "seats[]": {
            "colour": "`Y`, `G`, `P` or `B`.",
            "pile": "Cards left face down in the seat's pile (a count, never the cards).",
            "card": "The seat's face-up card while a flip is open, else `null`.",
            "penalties": "Slaps on flips without a pair this round.",
            "slapped": "Whether the seat has slapped the current flip.",
        },
    },
    phases={
        "ROUND_SETUP": "Transient while dealing; never seen in a view.",
        "AWAIT_NU": "Between flips: the starter may call Nu! (the server does after `nu_auto_ms`).",
        "NU_CALLED": "Nu! was called; the cards turn at `reveal_at`.",
        "FLIP_OPEN": "One card per seat is face up; slap now if two show the same number.",
        "RACE": "Someone slapped a pair; later slaps count until nobody who has not slapped could still win "
        "(at most `race_window_ms` after the first).",
        "FLIP_RESULT": "The flip closed; `last` tells how. Pause, then `AWAIT_NU`.",
        "ROUND_OVER": "The round ended; `scores` has its record. Pause, then the next round.",
        "MATCH_OVER": "The match ended; `winners` is set.",
    },
    card_ids='The colour and a two-digit number 01-10, e.g. `"G07"`.',
    rule_codes={
        "NU_MODE_AUTO": 'The table plays with `nu_mode: "auto"`: the server calls Nu! itself.',
        "WRONG_PHASE": "Nu! is only possible in phase `AWAIT_NU` (between flips).",
        "NOT_STARTER": "Only the current starter (`starter`) may call Nu!.",
        "STALE_SLAP": "The slap names another flip than the current one, or no cards are face up right now "
        "(before the reveal or after the flip closed). It does not count, not even as a penalty.",
        "ALREADY_SLAPPED": "This seat already slapped the current flip.",
        "BAD_OPTIONS": "`first_starter` names a seat beyond the players seated.",
    },
    notes=f"""\
**The race ruling.** A slap is ranked by its effective reaction time, worked out from the time the
server wrote the reveal to *your* connection, your slap's arrival, your `reaction_ms` and your
link's clock-sync figures. The network time your slap implies (`arrival - sent - reaction_ms`) is
credited as long as it lies in what the clock sync observed (your round trip, up to your jitter band
plus one frame above it) and at most `max_credit_ms`; what lies outside is not credited and the
claim is flagged. So an honest client is judged by its own reaction time whatever its latency, and a
client that under-reports gains at most its jitter plus one frame. Where the server has a round trip
your client cannot delay (its kernel's measure of your TCP connection, or a trusted proxy's), that
round trip plus its jitter and one frame bounds the window; a link whose clock sync says more is
flagged `UNVERIFIED` ("link not verified"), and a claim implying more network time than the window
allows is credited the window's bottom. Where the server has none (a proxy that forwards none),
every claim is flagged `UNVERIFIED` and the room lists the seat in `reported_links`. Reaction times
within `tie_margin_ms` are a tie (a seeded draw), except that a claim flagged `ABOVE_WINDOW` or
`INHUMAN` loses a tie to an unflagged one. The race closes as soon as no seat that has not slapped
could still win or tie. Each claim of `last.claims`: `reaction` (effective, ms after your screen
showed the cards: "Ana 212 ms, Bo 231 ms"), `claimed` (your `reaction_ms`), `credit` (network time
forgiven), `at` (the ranking time: `reveal_at` + `reaction`, never less than 100 ms after it),
`arrival` and `flags`:
{", ".join(f"`{f}`" for f in RACE_FLAGS)}. The full ruling with every input is kept in the game's
event log. A closed flip's `last.kind` is one of {", ".join(f"`{k.value}`" for k in FlipKind)}.""",
)
