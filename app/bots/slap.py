"""The Slap bot: calls Nu! when it is the starter and slaps exactly when the flip shows a pair.

Everyone turns a card at once on Nu!, so there is no turn of its own to flip
on; the starter's part is to call Nu! (rules 3.4). A slap is only worth making
on a pair: two or more face-up cards of the current flip with the same number
(rules 3.5). A slap without one costs a penalty point (rules 3.4 step 4), so
the bot never slaps otherwise. How fast it slaps is the server's think delay.

>>> view = {"phase": "FLIP_OPEN", "seats": [{"card": "Y07"}, {"card": "G07"}, {"card": "B02"}],
...         "legal": [{"type": "slap", "flip": 4}]}
>>> choose(view, random.Random(1))
{'type': 'slap', 'flip': 4}
>>> view["seats"][1]["card"] = "G03"
>>> choose(view, random.Random(1)) is None
True
"""

from __future__ import annotations

import random
from collections import Counter

from app.engines.base import JSON
from app.engines.cards import number_of


def offered(view: JSON, kind: str) -> JSON | None:
    """The legal action of that type, if the view lists one."""
    return next((a for a in view.get("legal") or [] if a.get("type") == kind), None)


def shows_pair(view: JSON) -> bool:
    """Whether two face-up cards of the current flip share a number (only this flip counts)."""
    numbers = Counter(number_of(seat["card"]) for seat in view["seats"] if seat.get("card"))
    return any(count >= 2 for count in numbers.values())


def choose(view: JSON, rng: random.Random) -> JSON | None:
    """Nu! as the starter at once; a slap on a visible pair; otherwise wait."""
    nu = offered(view, "nu")
    if nu is not None:
        return nu
    slap = offered(view, "slap")
    if slap is not None and shows_pair(view):
        return slap
    return None
