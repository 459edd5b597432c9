"""Computer players: how fast each level thinks. For the tree-search games, the search's simulations (playouts)
per second of CPU at each level, on mid-game positions of the default variant; for Backgammon, CPU per decision
at each level, with gnubg-nn and with the hand-built evaluator.

The positions are reached by seeded random play, so every run measures the same ones. Levels search their
full effort (the wall-clock safety net is set far out): the numbers say what a move costs, not what the net
allows. CPU time, so other work on the machine does not inflate them. Each level's dearest move is set beside
its default net (``ai.DEFAULT_SECONDS``), which is a guard only: the target is a net at least four times that
move. Dragons is also measured late in games between levels 2 and 3, where its tactics cost most. How strong the
levels are is measured by ``python -m ai.match`` (the strength table in BENCHMARKS.md), not here.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from ai import DEFAULT_SECONDS, choose_move
from ai.players import EFFORT, model_for, rng_for
from ai.search import search
from bench.common import Row
from rules import registry

#: plies played from the start to reach the measured positions (about the middle of a default game)
MIDGAME_PLIES = {"druid": 30, "drogo": 60, "dragons": 8, "backgammon": 20}
#: games whose positions are reached by a computer level's self-play instead of random play: random Dragons play
#: leaves loops open everywhere, so the search meets won positions at every turn and costs a hundredth of a real
#: game's (a level-3 move took 5 ms there, about 300 ms in games between levels)
REACHED_BY_LEVEL = {"dragons": 2}
#: plies of the late Dragons positions, played by levels 2 and 3 in turn (a default game between them ends near 15)
LATE_DRAGONS_PLIES = 12


def positions(name: str, count: int, keep: Callable[[Any], bool] = lambda state: True) -> list[Any]:
    """``count`` seeded mid-game positions of ``name``'s default variant, two players, each with a move to make
    (and passing ``keep``)."""
    game = registry.get(name)
    options = game.parse_options([], 2)
    found: list[Any] = []
    seed = 0
    while len(found) < count:
        seed += 1
        state = game.new(options, ["p0", "p1"], seed)
        rng = random.Random(seed)
        for _ in range(MIDGAME_PLIES[name]):
            if state.is_over:
                break
            forced = state.forced_move()
            if forced is not None:
                state.push(forced)
            elif name in REACHED_BY_LEVEL:
                state.push(state.parse_move(choose_move(state, REACHED_BY_LEVEL[name], seed=seed)))
            else:
                state.push(rng.choice(list(state.legal_moves)))
        if not state.is_over and state.forced_move() is None and keep(state):
            found.append(state)
    return found


def late_dragons(count: int) -> list[Any]:
    """``count`` seeded positions of default Dragons games between levels 2 and 3 at ply
    :data:`LATE_DRAGONS_PLIES`, each with a choice to make."""
    game = registry.get("dragons")
    options = game.parse_options([], 2)
    found: list[Any] = []
    seed = 0
    while len(found) < count:
        seed += 1
        state = game.new(options, ["p0", "p1"], seed)
        while not state.is_over and state.ply < LATE_DRAGONS_PLIES:
            state.push(state.parse_move(choose_move(state, 2 + state.to_move, seed=seed, max_seconds=3600)))
        if not state.is_over and state.forced_move() is None:
            found.append(state)
    return found


def _search_rows(name: str, quick: bool) -> list[Row]:
    # positions where the search has a choice to make: the root's tactics may leave one move (a loop to close,
    # or the only move that stops one), and the search then does not run
    tactics = model_for(name, 3)
    states = positions(name, 3 if quick else 10, lambda state: len(tactics.screen(state, tactics.moves(state))) > 1)
    late = late_dragons(1 if quick else 3) if name == "dragons" else []
    rows = []
    for level in (1, 2, 3):
        simulations, moves = _searched(name, level, states)
        cpu = sum(moves)
        per_move = cpu / len(states)
        rows.append(
            Row(
                "ai",
                f"{name} level {level}: search simulations/s",
                simulations / cpu if cpu else 0.0,
                "/s",
                note=(
                    f"{EFFORT[name][level]} playouts a move; {per_move * 1000:.0f} ms CPU a move on average over "
                    f"{len(states)} mid-game positions of the default variant where the search has a choice"
                ),
            )
        )
        if late:
            _, late_moves = _searched(name, level, late)
            rows.append(_net_row(f"{name} level {level}, late game", level, late_moves, len(late), "move 12"))
            moves += late_moves
        rows.append(_net_row(f"{name} level {level}", level, moves, len(moves), "every position above"))
    return rows


def _searched(name: str, level: int, states: list[Any]) -> tuple[int, list[float]]:
    """The simulations run on ``states`` at ``level``, and the CPU seconds of each search."""
    simulations = 0
    moves = []
    for index, state in enumerate(states):
        model = model_for(name, level)
        rng = rng_for(index, state.ply, level)
        start = time.process_time()
        _, root = search(state, model, EFFORT[name][level], rng, time.monotonic() + 3600)
        moves.append(time.process_time() - start)
        simulations += root.visits
    return simulations, moves


def _net_row(label: str, level: int, moves: list[float], count: int, where: str) -> Row:
    """The dearest of ``moves`` (CPU seconds) beside the level's default net."""
    worst = max(moves)
    net = DEFAULT_SECONDS[level]
    return Row(
        "ai",
        f"{label}: dearest move, CPU",
        worst * 1000,
        "ms",
        target=f"<= {net / 4:g} s (net {net:g} s / 4)",
        ok=worst <= net / 4,
        note=f"{count} positions ({where}); average {sum(moves) / len(moves) * 1000:.0f} ms",
    )


def _backgammon_rows(quick: bool) -> list[Row]:
    from ai import backgammon

    states = positions("backgammon", 4 if quick else 20)
    rows = []
    evaluators = [("gnubg-nn", backgammon.gnubg_nn), ("hand-built evaluator", None)]
    if backgammon.gnubg_nn is None:
        evaluators = evaluators[1:]
    saved = backgammon.gnubg_nn
    try:
        for label, module in evaluators:
            backgammon.gnubg_nn = module
            for level in (1, 2, 3):
                plays = []
                for index, state in enumerate(states):
                    start = time.process_time()
                    backgammon.decide_backgammon(
                        state, level, rng_for(index, state.ply, level), time.monotonic() + 3600
                    )
                    plays.append(time.process_time() - start)
                rows.append(
                    Row(
                        "ai",
                        f"backgammon level {level} ({label}): CPU per play",
                        sum(plays) / len(plays) * 1000,
                        "ms",
                        note=f"{len(states)} mid-game positions after {MIDGAME_PLIES['backgammon']} random plies",
                    )
                )
                rows.append(_net_row(f"backgammon level {level} ({label})", level, plays, len(plays), "as above"))
    finally:
        backgammon.gnubg_nn = saved
    return rows


def run(quick: bool = False) -> list[Row]:
    rows: list[Row] = []
    for name in ("druid", "drogo", "dragons"):
        rows += _search_rows(name, quick)
    return rows + _backgammon_rows(quick)
