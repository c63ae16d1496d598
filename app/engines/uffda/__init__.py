"""UFF-DA!: play every card of a double-nine domino deck onto the branches, watch the coins,
answer the doubles and catch the missed calls."""

from app.engines.uffda.engine import UffdaEngine
from app.engines.uffda.options import UffdaOptions
from app.engines.uffda.state import (
    ActiveDouble,
    Branch,
    End,
    Kind,
    Offence,
    Phase,
    Placement,
    RoundRecord,
    Step,
    Turn,
    UffdaState,
)

ENGINE = UffdaEngine()

__all__ = [
    "ENGINE",
    "ActiveDouble",
    "Branch",
    "End",
    "Kind",
    "Offence",
    "Phase",
    "Placement",
    "RoundRecord",
    "Step",
    "Turn",
    "UffdaEngine",
    "UffdaOptions",
    "UffdaState",
]
