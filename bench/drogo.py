"""Drogo benchmarks: push latency (captures and superko included), enumeration of every one- and two-piece
placement in mid-game 6x6 positions, random playouts per second, and render time and PNG size.

Each latency is given twice: wall time, and CPU time of this process (which other load on the machine does not
inflate). Positions come from seeded random games, so every run measures the same positions.
"""

from __future__ import annotations

import statistics
import time

from bench.common import Row, median_ms, rate, timed
from bench.playout import rows as versus_baseline
from rules.drogo import GAME, DrogoState, random_move
from rules.rng import Rng


def new_game(seed: int, words: tuple[str, ...] = (), players: int = 2) -> DrogoState:
    state = GAME.new(GAME.parse_options(list(words), players), [f"p{i}" for i in range(players)], seed)
    assert isinstance(state, DrogoState)
    return state


def advance(state: DrogoState, rng: Rng, moves: int) -> DrogoState:
    """Play ``moves`` random moves (forced passes included), or up to the end."""
    for _ in range(moves):
        if state.is_over:
            break
        state.push(state.forced_move() or random_move(state, rng))
    return state


def _push_rows(quick: bool) -> list[Row]:
    """Every push of seeded 6x6 games, from the opening to the placement cap."""
    walls, cpus, capturing = [], [], []
    for seed in range(1 if quick else 6):
        state, rng = new_game(seed), Rng(seed)
        while not state.is_over:
            move = state.forced_move() or random_move(state, rng)
            wall, cpu = timed(lambda state=state, move=move: state.push(move))
            walls.append(wall)
            cpus.append(cpu)
            if state.last and state.last["captured"]:
                capturing.append(cpu)
    note = f"{len(walls)} pushes of random 6x6 games, {len(capturing)} with captures"
    wall_ms, cpu_ms, capture_ms = median_ms(walls), median_ms(cpus), median_ms(capturing)
    return [
        Row("drogo", "push incl. capture + superko (median)", wall_ms, "ms", "<= 0.5 ms", wall_ms <= 0.5, note=note),
        Row("drogo", "push, CPU time (median)", cpu_ms, "ms", "<= 0.5 ms", cpu_ms <= 0.5),
        Row("drogo", "push that captures, CPU time (median)", capture_ms, "ms", "<= 0.5 ms", capture_ms <= 0.5),
    ]


def mid_game_positions(count: int) -> list[DrogoState]:
    """6x6 positions after 40 to 100 random placements: many stacks, many same-height neighbours."""
    positions = []
    for seed in range(count):
        rng = Rng(1000 + seed)
        positions.append(advance(new_game(1000 + seed), rng, 40 + rng.below(61)))
    return positions


def _enumeration_rows(quick: bool) -> list[Row]:
    walls, cpus, counts = [], [], []
    for position in mid_game_positions(5 if quick else 60):
        fresh = position.clone()
        wall, cpu = timed(lambda fresh=fresh: counts.append(len(list(fresh.legal_moves))))
        walls.append(wall)
        cpus.append(cpu)
    note = f"{len(walls)} positions, median {statistics.median(counts):.0f} legal moves (max {max(counts)})"
    wall_ms, cpu_ms = median_ms(walls), median_ms(cpus)
    return [
        Row(
            "drogo",
            "enumerate all legal moves, mid-game 6x6 (median)",
            wall_ms,
            "ms",
            "<= 5 ms",
            wall_ms <= 5,
            note=note,
        ),
        Row("drogo", "enumerate, CPU time (median)", cpu_ms, "ms", "<= 5 ms", cpu_ms <= 5),
    ]


def _playout_rows(quick: bool) -> list[Row]:
    rows = []
    for label, words, players in (
        ("6x6, 2 players", (), 2),
        ("6x6, 4 players", (), 4),
        ("4x4, 2 players", ("-size=4",), 2),
    ):
        games = 1 if quick else 5
        start = time.perf_counter()
        moves = 0
        for seed in range(games):
            state = advance(new_game(seed, words, players), Rng(seed), 10**6)
            moves += state.ply
        seconds = time.perf_counter() - start
        note = f"{moves / games:.0f} moves per game (the 4*size^3 placement cap ends random games)"
        rows.append(Row("drogo", f"random playouts, {label}", rate(games, seconds), "games/s", note=note))
    return rows


def _render_rows(quick: bool) -> list[Row]:
    from render.drogo import render_png

    rows = []
    for label, words, moves in (("6x6 mid-game", (), 300), ("12x12 late game", ("-size=12",), 3000)):
        state = advance(new_game(7, words), Rng(7), moves)
        png = render_png(state)
        walls, cpus = [], []
        for _ in range(3 if quick else 15):
            wall, cpu = timed(lambda state=state: render_png(state))
            walls.append(wall)
            cpus.append(cpu)
        wall_ms, cpu_ms, kb = median_ms(walls), median_ms(cpus), len(png) / 1024
        pieces = sum(len(stack) for stack in state.stacks)
        rows += [
            Row("drogo", f"render {label} (median)", wall_ms, "ms", "<= 60 ms", wall_ms <= 60, note=f"{pieces} cubes"),
            Row("drogo", f"render {label}, CPU time (median)", cpu_ms, "ms", "<= 60 ms", cpu_ms <= 60),
            Row("drogo", f"PNG size {label}", kb, "KB", "<= 300 KB", kb <= 300),
        ]
    return rows


def run(quick: bool = False) -> list[Row]:
    rows = _push_rows(quick) + _enumeration_rows(quick) + _playout_rows(quick) + _render_rows(quick)
    return rows + versus_baseline("drogo", quick, 3.0)
