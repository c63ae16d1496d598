"""Rummy cards (Rummikub in card form): lay runs and groups, rebuild the table, go out first.

The package's modules each have one job: ``deck`` (cards), ``melds`` (one
set's validity), ``table`` (a whole table: draft, commit, timeout salvage),
``draft`` (draft steps), ``actions`` (client input), ``state``, ``scoring``,
``view`` and ``engine`` (the turn state machine). ``ENGINE`` is the instance
the registry serves.
"""

from app.engines.rummy.engine import RummyEngine
from app.engines.rummy.melds import Kind, Meld, MeldCheck, check_meld
from app.engines.rummy.options import RummyOptions
from app.engines.rummy.problems import Problem, TableRejected
from app.engines.rummy.state import Phase, RoundEnd, RoundRecord, RummyState, TurnEnd, TurnRecord

ENGINE = RummyEngine()

__all__ = [
    "ENGINE",
    "Kind",
    "Meld",
    "MeldCheck",
    "Phase",
    "Problem",
    "RoundEnd",
    "RoundRecord",
    "RummyEngine",
    "RummyOptions",
    "RummyState",
    "TableRejected",
    "TurnEnd",
    "TurnRecord",
    "check_meld",
]
