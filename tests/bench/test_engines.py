"""bench.engines measures each part of what a room does per accepted move (no figures asserted)."""

from __future__ import annotations

from app.engines import ALL_ENGINES
from bench.engines import step_cost


def test_step_cost_times_the_apply_the_views_and_the_patches_of_accepted_moves() -> None:
    cost = step_cost(ALL_ENGINES["rummy"], 2, samples=30)
    assert cost.apply > 0 and cost.views > 0 and cost.patches > 0
