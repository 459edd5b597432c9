"""Dispatch: which engine plays which game, and how hard each level tries.

Efforts are counted in playouts (tree-search games), and Dragons' also in positions pushed
(:data:`ai.dragons.WORK`), so that a level plays the same on any machine. The wall-clock cap passed in is a guard
only: the default levels do not meet it (tests/test_ai_progress.py), and when it does stop a search the decision
says so (``Decision.cut``). The numbers were chosen so that a 200-game match between levels fits in well under an
hour on two cores (see BENCHMARKS.md for the playout rates they imply).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ai import Decision
from ai.search import Model, search

#: playouts per move for each tree-search game and level
EFFORT: dict[str, dict[int, int]] = {
    "druid": {1: 30, 2: 150, 3: 500},
    "drogo": {1: 8, 2: 30, 3: 150},
    "dragons": {1: 30, 2: 120, 3: 500},
}


def rng_for(seed: int, move_number: int, level: int) -> random.Random:
    """The generator of one choice: the same game seed and move number give the same choice."""
    return random.Random(f"pbm-ai:{seed}:{move_number}:{level}")


def model_for(name: str, level: int, late: Callable[[], bool] = lambda: False) -> Model:
    """The search model of ``name`` at ``level``; ``late`` tells when the safety net has run out (Dragons' root
    screen, which runs before the playouts, reads it too)."""
    if name == "druid":
        from ai.druid import DruidModel

        return DruidModel()
    if name == "drogo":
        from ai.drogo import DrogoModel

        return DrogoModel(level)
    if name == "dragons":
        from ai.dragons import DragonsModel

        return DragonsModel(level, late)
    raise ValueError(f"no computer player for the game {name!r}")


def decide_for(
    state: Any, level: int, *, seed: int, move_number: int, max_seconds: float, timer: Callable[[], float]
) -> Decision:
    """The choice of ``level`` (see :func:`ai.decide`); ``timer`` is the clock the safety net reads."""
    name = state.game.name
    rng = rng_for(seed, move_number, level)
    deadline = timer() + max_seconds
    if name == "backgammon":
        from ai.backgammon import decide_backgammon

        return decide_backgammon(state, level, rng, deadline, timer)
    forced = state.forced_move()
    if forced is not None:
        return Decision(state.move_text(forced), "the only move")
    model = model_for(name, level, lambda: timer() > deadline)
    budget = EFFORT[name][level]
    move, root = search(state, model, budget, rng, deadline, timer)
    if not root.visits:  # the root's tactics left one move: no search ran
        return Decision(state.move_text(move), cut=model.cut)
    best = next(child for child in root.children if child.move == move)  # the most visited: at least once
    value = best.sums[root.seat] / best.visits
    cut = model.cut or (root.visits < budget and not model.spent())  # the wall clock stopped it, not a budget
    unstuck = model.progress(state, value)
    if unstuck is not None:
        return Decision(state.move_text(unstuck[0]), unstuck[1], cut)
    return Decision(state.move_text(move), f"{value:.0%} to win after {root.visits} playouts", cut)
