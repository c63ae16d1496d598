"""The UFF-DA! bot: empty the hand fast, get rid of the heavy cards first, never miss a call.

Whoever is left holding cards at the end of a round scores their pip total
against them (rules 6.3), so the bot's one aim is a small, light hand:

- it plays whenever it can, picking the play that takes the most points out of
  its hand: a double it can fill at once from the hand (the game's two-card
  play, rules 4.2) first, then the heaviest card; an end its own later cards
  can follow counts a little too;
- it protects its own branch (takes its coin off) after playing on it, so the
  ends it builds for itself stay its own (rules 3.4);
- it draws only when it has no play, plays the drawn card when that is legal,
  and otherwise places the coin it then owes before NEXT (rules 4.6);
- it says UFF-DA! with every release that leaves it one card (rules 5.1),
  declares late if it ever missed one, and calls COIN! or UFF-DA! on another
  player's mistake as soon as it notices it, paying the penalty card with its
  heaviest card (rules 5.4-5.6); the server supplies the reaction delay.

The view offers every call at all times and flags no mistake (rules 8.36), so
the bot notices them as a player at the table does, from public information
only: :func:`offences_seen` reads the public events of the last two turns
(``recent``), the facts of the turn before (``previous``), hand counts and
coins. :func:`random_player`, the random player of the generic playouts, shouts
only what that function sees, so every action it sends is accepted.

>>> view = {"phase": "PLAY", "you": 0, "turn": {"seat": 0, "step": "OPEN"}, "hand": ["0-1", "2-9"],
...         "branches": [{"owner": 0, "ends": [{"value": 1, "on": 0, "side": 0},
...                                            {"value": 2, "on": 1, "side": 0}]}],
...         "double": None, "piles": [3, 4],
...         "legal": [{"type": "play", "card": "0-1", "branch": 0, "on": 0, "side": 0},
...                   {"type": "play", "card": "2-9", "branch": 0, "on": 1, "side": 0},
...                   {"type": "draw", "pile": 0}, {"type": "draw", "pile": 1}]}
>>> choose(view, random.Random(0))
{'type': 'play', 'card': '2-9', 'branch': 0, 'on': 1, 'side': 0, 'uffda': True}
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from app.engines.base import JSON
from app.engines.uffda.dominoes import has, is_double, other, points

AVERAGE_DRAW = 9
"""Points of an average card (495 points / 55 cards): what a draw is expected to add to the hand."""
FOLLOW_ON = 2
"""Worth of each hand card that could follow a play on the bot's own branch next turn."""
OWN_BRANCH = 1
"""A small preference for building its own branch, which it can then protect."""


def of_type(view: JSON, kind: str) -> list[JSON]:
    """The legal actions of one type."""
    return [a for a in view.get("legal") or [] if a.get("type") == kind]


def my_turn(view: JSON) -> bool:
    """Whether the turn is this seat's (calls, by contrast, may come at any time)."""
    return view.get("phase") == "PLAY" and view["turn"]["seat"] == view["you"]


def hand(view: JSON) -> list[str]:
    return list(view.get("hand") or [])


def heaviest(cards: list[str]) -> str:
    """The card worth most points (the lowest id on ties, as the engine's default penalty card)."""
    return min(cards, key=lambda c: (-points(c), c))


def first_of(view: JSON, kind: str) -> JSON | None:
    """The first legal action of that type, if any."""
    offered = of_type(view, kind)
    return offered[0] if offered else None


@dataclass
class _Mistake:
    """A mistake as the table saw it: its kind, who made it, its turn and who has called it."""

    kind: str
    offender: int
    turn: int
    callers: set[int] = field(default_factory=set)


def _turns(events: list[JSON], now: int) -> list[int]:
    """The turn of each event: every NEXT ends the turn before ``now`` it is counted back from."""
    turns: list[int] = []
    for e in reversed(events):
        if e["kind"] == "next":
            now -= 1
        turns.append(now)
    return turns[::-1]


def _counts_after(events: list[JSON], counts: list[int]) -> list[list[int]]:
    """Every seat's card count right after each event, undone from the counts shown now."""
    counts = list(counts)
    after: list[list[int]] = []
    for e in reversed(events):
        after.append(list(counts))
        kind, seat = e["kind"], e["seat"]
        if kind == "play":
            counts[seat] += 1
        elif kind == "draw":
            counts[seat] -= 1
        elif kind == "caught":
            counts[seat] += 1
            counts[e["target"]] -= 1
    return after[::-1]


def _first(mistakes: list[_Mistake], kind: str, offender: int, turn: int, caller: int | None = None) -> int:
    """The index of the oldest such mistake (that ``caller`` is in the race of, if given), or -1."""
    for i, m in enumerate(mistakes):
        if (m.kind, m.offender, m.turn) == (kind, offender, turn) and (caller is None or caller in m.callers):
            return i
    return -1


def _forgot_coin(view: JSON) -> _Mistake | None:
    """The turn before ended with a coin owed (drew outside a double, played nothing, rules 4.6)
    and the coin is still off, so nobody has caught it: catchable all this turn (rules 5.3)."""
    prev = view.get("previous")
    if not prev or not prev["drew"] or prev["drew_under_double"] or prev["played"]:
        return None
    if view["branches"][prev["seat"]]["coin"]:
        return None  # placed before NEXT, or placed by a catch
    return _Mistake("COIN", prev["seat"], prev["no"])


def offences_seen(view: JSON) -> list[tuple[str, int]]:
    """The open mistakes this seat can act on, as ``(kind, offender)``, from public information.

    Another seat's forgotten coin or missed UFF-DA! that this seat has not called yet, and
    this seat's own missed UFF-DA! not yet said (the offender is then the seat itself: the
    answer is a late declaration). A missed UFF-DA! is a release leaving one card without
    UFF-DA! (rules 5.1) in the turn in play or the one before (rules 5.3), until a late
    declaration clears all of the player's (settled decision A) or a catch takes the oldest.
    Races are followed through the ``call``, ``caught`` and ``void`` events, which name the
    turn of the mistake they are about; a race settles its oldest mistake first.
    Nothing here reads anything a player at the table could not see.

    >>> view = {"phase": "PLAY", "penalties": True, "you": 1, "turn": {"no": 4},
    ...         "seats": [{"cards": 1}, {"cards": 5}, {"cards": 6}], "previous": None,
    ...         "recent": [{"kind": "play", "seat": 0, "uffda": False},
    ...                    {"kind": "next", "seat": 0}]}
    >>> offences_seen(view)
    [('UFFDA', 0)]
    >>> offences_seen({**view, "recent": [{"kind": "play", "seat": 0, "uffda": True}]})
    []
    """
    me = view.get("you")
    if view.get("phase") != "PLAY" or not view.get("penalties") or me is None:
        return []
    events: list[JSON] = view.get("recent") or []
    now: int = view["turn"]["no"]
    turns = _turns(events, now)
    after = _counts_after(events, [s["cards"] for s in view["seats"]])
    coin = _forgot_coin(view)
    mistakes: list[_Mistake] = []
    for e, turn, counts in zip(events, turns, after, strict=True):
        kind, seat = e["kind"], e["seat"]
        if kind == "next" and coin is not None and turn == coin.turn:
            mistakes.append(coin)
        elif kind == "uffda":
            mistakes = [m for m in mistakes if (m.kind, m.offender) != ("UFFDA", seat)]
        elif kind == "call":
            joined = next(
                (
                    m
                    for m in mistakes
                    if (m.kind, m.offender, m.turn) == (e["call"], e["target"], e["turn"])
                    and seat not in m.callers
                ),
                None,
            )
            if joined is not None:
                joined.callers.add(seat)
        elif kind in ("caught", "void"):
            key = (e["call"], e["target"], e["turn"])
            i = _first(mistakes, *key, caller=seat if kind == "caught" else None)
            if i < 0 and kind == "caught":
                i = _first(mistakes, *key)
            if i >= 0 and kind == "caught":
                del mistakes[i]
            elif i >= 0:
                mistakes[i].callers.clear()  # a void race: the mistake stays, its calls are gone
        if kind in ("play", "draw", "caught") and e["uffda"] is False and counts[seat] == 1:
            mistakes.append(_Mistake("UFFDA", seat, turn))
    seen: list[tuple[str, int]] = []
    for m in mistakes:
        mine = m.offender == me
        actionable = (mine and m.kind == "UFFDA") or (not mine and me not in m.callers)
        if actionable and (m.kind, m.offender) not in seen:
            seen.append((m.kind, m.offender))
    return seen


def late_declaration(view: JSON, seen: list[tuple[str, int]]) -> JSON | None:
    """Say a missed UFF-DA! of its own before anyone catches it."""
    if ("UFFDA", view["you"]) not in seen:
        return None
    return first_of(view, "declare_uffda")


def noticed_calls(view: JSON, seen: list[tuple[str, int]]) -> list[JSON]:
    """The listed calls on a mistake this seat has noticed (the view lists every call)."""
    return [a for a in of_type(view, "call") if (a["kind"], a["target"]) in seen]


def catch(view: JSON, seen: list[tuple[str, int]]) -> JSON | None:
    """Call another player's forgotten coin or missed UFF-DA!, giving away the heaviest card.

    A catch is pure gain: the bot's hand shrinks by a card and the offender's
    grows. When that card leaves the bot one card, the call says UFF-DA! too.
    """
    calls = noticed_calls(view, seen)
    if not calls:
        return None
    mine = hand(view)
    call = dict(calls[0])
    call["give_card"] = heaviest(mine)
    if len(mine) == 2:
        call["uffda"] = True
    return call


def end_value(view: JSON, play: JSON) -> int | None:
    """The number the played card leaves open, or None for a double (it opens no end of its own)."""
    card: str = play["card"]
    double = view.get("double")
    if double is not None:
        return other(card, double["value"])
    if is_double(card):
        return None
    branch = view["branches"][play["branch"]]
    end = next(e for e in branch["ends"] if e["on"] == play["on"] and e["side"] == play["side"])
    return other(card, end["value"])


def fillers(cards: list[str], value: int) -> list[str]:
    """The cards that fill a double of ``value``: non-doubles showing it."""
    return [c for c in cards if has(c, value) and not is_double(c)]


def play_worth(view: JSON, play: JSON) -> float:
    """How much a play lightens the hand now and next turn (higher is better)."""
    card: str = play["card"]
    rest = [c for c in hand(view) if c != card]
    if not rest and not is_double(card):
        return 1000.0  # out: the round is won
    own: bool = view["branches"][play["branch"]]["owner"] == view["you"]
    if view.get("double") is None and is_double(card):
        fills = fillers(rest, int(card[0]))
        if fills:
            return points(card) + max(map(points, fills)) + OWN_BRANCH * own
        return points(card) - AVERAGE_DRAW  # laid alone it forces a draw
    worth = float(points(card))
    opened = end_value(view, play)
    if own and opened is not None:
        worth += OWN_BRANCH + FOLLOW_ON * sum(has(c, opened) for c in rest)
    return worth


def with_declaration(view: JSON, action: JSON) -> JSON:
    """Add UFF-DA! to a play that leaves one card, or to the extra draw after a last-card double."""
    cards = len(hand(view))
    if (action["type"] == "play" and cards == 2) or (action["type"] == "draw" and cards == 0):
        return {**action, "uffda": True}
    return action


def best_play(view: JSON) -> JSON | None:
    """The legal play worth most (see :func:`play_worth`), declared if it leaves one card."""
    plays = of_type(view, "play")
    if not plays:
        return None
    return with_declaration(view, max(plays, key=lambda p: play_worth(view, p)))


def draw(view: JSON, rng: random.Random) -> JSON | None:
    """Draw from the bigger pile (either on a tie): the bot has nothing to play."""
    draws = of_type(view, "draw")
    if not draws:
        return None
    piles: list[int] = view["piles"]
    most = max(piles[d["pile"]] for d in draws)
    return with_declaration(view, rng.choice([d for d in draws if piles[d["pile"]] == most]))


def turn_action(view: JSON, rng: random.Random) -> JSON | None:
    """The active player's move: play, else draw, then pay an owed coin, protect, and say NEXT.

    The view offers each only where the turn allows it (a draw before any play, the coin
    after a draw that found nothing), so the first one offered is the one to take.
    """
    return (
        best_play(view)
        or draw(view, rng)
        or first_of(view, "place_coin")
        or first_of(view, "remove_coin")
        or first_of(view, "next")
    )


def choose(view: JSON, rng: random.Random) -> JSON | None:
    """Own late UFF-DA! first, then a catch, then the turn; None when nothing is to be done."""
    if view.get("phase") != "PLAY":
        return None
    seen = offences_seen(view)
    urgent = late_declaration(view, seen) or catch(view, seen)
    if urgent is not None:
        return urgent
    return turn_action(view, rng) if my_turn(view) else None


def random_player(view: JSON, rng: random.Random) -> JSON | None:
    """Any listed action at random, but a shout only on a mistake it has seen (:func:`offences_seen`).

    The view lists every call at all times and a late declaration whenever one could be owed;
    most of those would be refused ``NO_OFFENCE``, so a random player that is to send only
    accepted actions keeps the shouts an honest player would have a reason for.
    """
    seen = offences_seen(view)
    shouts = noticed_calls(view, seen)
    late = late_declaration(view, seen)
    if late is not None:
        shouts.append(late)
    rest = [a for a in view.get("legal") or [] if a.get("type") not in ("call", "declare_uffda")]
    options = rest + shouts
    return rng.choice(options) if options else None
