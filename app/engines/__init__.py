"""The game registry: one line per game.

>>> get_engine("slap").title
'Slap'
"""

from __future__ import annotations

from typing import Any

from app.engines.base import Engine
from app.engines.slap import SlapEngine

ENGINES: dict[str, Engine[Any, Any]] = {
    SlapEngine.name: SlapEngine(),
}


def get_engine(name: str) -> Engine[Any, Any]:
    try:
        return ENGINES[name]
    except KeyError:
        raise KeyError(f"no game called {name!r}") from None
