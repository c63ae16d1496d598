"""The game registry: one line per game.

``ENGINES`` are the games the lobby offers; each has a table view in the browser
client (``static/js/games/``) and a bot (``app/bots/``).

>>> get_engine("slap").title
'Slap'
>>> sorted(ALL_ENGINES)
['kuuduk', 'leekha', 'rummy', 'slap', 'uffda']
"""

from __future__ import annotations

from typing import Any

from app.engines.base import Engine
from app.engines.kuuduk import ENGINE as KUUDUK
from app.engines.leekha import ENGINE as LEEKHA
from app.engines.rummy import ENGINE as RUMMY
from app.engines.slap import SlapEngine
from app.engines.uffda import ENGINE as UFFDA

ENGINES: dict[str, Engine[Any, Any]] = {
    SlapEngine.name: SlapEngine(),
    LEEKHA.name: LEEKHA,
    RUMMY.name: RUMMY,
    UFFDA.name: UFFDA,
    KUUDUK.name: KUUDUK,
}

ALL_ENGINES = ENGINES


def get_engine(name: str) -> Engine[Any, Any]:
    try:
        return ENGINES[name]
    except KeyError:
        raise KeyError(f"no game called {name!r}") from None
