"""Players that are not people: a random player for every game, and per game a bot with a strategy.

Each ``app/bots/<game>.py`` exports ``choose(view, rng)``: given one seat's view
(what that seat may see, with its ``legal`` actions), the action to take now or
None to let time pass. Bots see exactly what a person at that seat sees.

The random player picks any action the view lists. A game whose view lists kinds
of action rather than every action (Rummy's free rearrangement is too large to
enumerate) exports its own ``random_player`` that fills them in.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable

from app.engines.base import JSON

Chooser = Callable[[JSON, random.Random], JSON | None]
"""Given a seat's view, an action to take now, or None to let time pass."""


def random_choice(view: JSON, rng: random.Random) -> JSON | None:
    """The random player: any action the view lists as legal."""
    legal: list[JSON] = view.get("legal") or []
    return rng.choice(legal) if legal else None


def bot_for(game: str) -> Chooser:
    """The strategy bot of ``game``."""
    module = importlib.import_module(f"app.bots.{game}")
    chooser: Chooser = module.choose
    return chooser


def random_player_for(game: str) -> Chooser:
    """The random player of ``game``: its own where its view lists only kinds of action."""
    module = importlib.import_module(f"app.bots.{game}")
    chooser: Chooser = getattr(module, "random_player", random_choice)
    return chooser
