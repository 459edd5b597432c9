"""Backgammon benchmarks: legal play enumeration side by side with GNU Backgammon's C generator (``gnubg_nn``)
on the same positions, push cost, random playouts per second, render time and PNG size.

The position mix follows the issue: openings, middle games, bar entries and bear-offs in equal parts, with a
third of all rolls doubles (the expensive case: up to four steps).
"""

from __future__ import annotations

import time

from bench.common import Row, cpu_samples, median_ms, rate, timed
from bench.playout import rows as versus_baseline
from render.backgammon import render_png
from rules.backgammon import GAME, START, BackgammonState
from rules.backgammon.movegen import BAR, generate
from rules.rng import Rng

Position = tuple[list[int], list[int], int, int]


def random_step(state: BackgammonState, rng: Rng) -> None:
    """What the server does next (a forced move) or else a uniformly random legal play."""
    forced = state.forced_move()
    if forced is None:
        plays = list(state.plays().values())
        forced = plays[rng.below(len(plays))]
    state.push(forced)


def _roll(rng: Rng, index: int) -> tuple[int, int]:
    """Every third roll a double, the others two different dice."""
    if index % 3 == 0:
        die = rng.die()
        return die, die
    while True:
        d1, d2 = rng.die(), rng.die()
        if d1 != d2:
            return d1, d2


def position_mix(count: int, seed: int = 1) -> list[Position]:
    """``count`` (mover, opponent, die, die) tuples: a quarter each of openings, middle games, bar entries and
    bear-offs, taken from seeded random games."""
    rng = Rng(seed)
    pools: dict[str, list[tuple[list[int], list[int]]]] = {"middle": [], "bar": [], "bearoff": []}
    quarter = count // 4 + 1
    while min(len(pool) for pool in pools.values()) < quarter:
        state = GAME.new({"force": False}, ["a", "b"], rng.next64())
        while not state.is_over:
            if state.phase == "move":
                colour = state.colour[state.turn]
                me, opp = list(state.points[colour]), list(state.points[1 - colour])
                kind = "bar" if me[BAR] else "bearoff" if not any(me[7:]) else "middle" if state.ply > 6 else ""
                if kind and len(pools[kind]) < quarter:
                    pools[kind].append((me, opp))
            random_step(state, rng)
    sides = [(list(START), list(START))] * quarter + pools["middle"] + pools["bar"] + pools["bearoff"]
    return [(me, opp, *_roll(rng, index)) for index, (me, opp) in enumerate(sides[:count])]


def _ours(position: Position) -> int:
    me, opp, d1, d2 = position
    return len(generate(me, opp, d1, d2))


def _enumeration_rows(quick: bool) -> list[Row]:
    import gnubg_nn  # a test dependency: the independent engine the issue compares with

    mix = position_mix(200 if quick else 2000)
    boards = [([opp[1:26], me[1:26]], d1, d2) for me, opp, d1, d2 in mix]
    rounds = 1 if quick else 3

    def run_ours() -> None:
        for position in mix:
            _ours(position)

    def run_gnubg() -> None:
        for board, d1, d2 in boards:
            gnubg_nn.moves(board, d1, d2)

    ours_cpu: list[float] = []
    theirs_cpu: list[float] = []
    ours_wall: list[float] = []
    theirs_wall: list[float] = []
    for _ in range(rounds):  # interleaved, A B A B: load on the machine hits both alike
        for runner, cpus, walls in ((run_ours, ours_cpu, ours_wall), (run_gnubg, theirs_cpu, theirs_wall)):
            wall, cpu = timed(runner)
            cpus.append(cpu)
            walls.append(wall)
    ours = rate(len(mix), min(ours_cpu))
    theirs = rate(len(boards), min(theirs_cpu))
    ours_per_wall, theirs_per_wall = rate(len(mix), min(ours_wall)), rate(len(boards), min(theirs_wall))
    walls_note = f"wall: ours {ours_per_wall:,.0f}/s, gnubg_nn {theirs_per_wall:,.0f}/s"
    worst, worst_at = 0.0, mix[0]
    for position in mix:
        spent = min(cpu_samples(lambda p=position: _ours(p), 3))
        if spent > worst:
            worst, worst_at = spent, position
    _, _, d1, d2 = worst_at
    results = _ours(worst_at)
    gnubg_worst = max(min(cpu_samples(lambda b=b: gnubg_nn.moves(*b), 3)) for b in boards) * 1000
    note = f"{len(mix)} positions: openings, middle, bar, bear-off; 1/3 doubles; CPU time ({walls_note})"
    return [
        Row("backgammon", "enumerations/s, ours (pure Python)", ours, "/s", ">= 10,000", ours >= 10_000, note=note),
        Row("backgammon", "enumerations/s, gnubg_nn (C)", theirs, "/s", peer="gnubg_nn.moves", note=note),
        Row("backgammon", "speed ratio ours / gnubg_nn", ours / theirs, "x", peer="gnubg_nn.moves"),
        Row(
            "backgammon",
            "worst single position, ours",
            worst * 1000,
            "ms",
            "<= 5 ms",
            worst * 1000 <= 5,
            note=f"roll {d1}-{d2}, {results} results; gnubg_nn worst {gnubg_worst:.3f} ms",
        ),
    ]


def _push_rows(quick: bool) -> list[Row]:
    """Median cost of pushing one legal play (rolling the next dice included) in middle-game positions."""
    rng = Rng(7)
    timings: list[float] = []
    games = 3 if quick else 20
    for _ in range(games):
        state = GAME.new({"force": False}, ["a", "b"], rng.next64())
        while not state.is_over:
            forced = state.forced_move()
            move = forced or list(state.plays().values())[rng.below(len(state.plays()))]
            start = time.perf_counter()
            state.push(move)
            timings.append(time.perf_counter() - start)
    value = median_ms(timings)
    note = f"{len(timings)} pushes over {games} random games"
    return [Row("backgammon", "push one play (median)", value, "ms", note=note)]


def _playout_rows(quick: bool) -> list[Row]:
    rng = Rng(11)
    budget = 0.5 if quick else 8.0
    games = 0
    start = time.process_time()
    while time.process_time() - start < budget:
        state = GAME.new({"force": False}, ["a", "b"], rng.next64())
        while not state.is_over:
            random_step(state, rng)
        games += 1
    value = rate(games, time.process_time() - start)
    note = f"{games} games, CPU time"
    return [Row("backgammon", "random playouts/s (whole games via the state API)", value, "/s", note=note)]


def _render_rows(quick: bool) -> list[Row]:
    rng = Rng(3)
    state = GAME.new({"force": False}, ["alice", "bob"], 3)
    for _ in range(20):
        random_step(state, rng)
    crowded = BackgammonState.from_points(["alice", "bob"], {"bar": 4, 24: 11}, {1: 15}, (6, 6), "X")
    crowded.cube, crowded.cube_owner = 64, 0
    rows = []
    repeat = 3 if quick else 15
    for label, position in (("middle game", state), ("crowded, cube 64", crowded)):
        render_png(position)
        value = median_ms(cpu_samples(lambda p=position: render_png(p), repeat))
        size = len(render_png(position)) / 1024
        rows.append(Row("backgammon", f"render {label}", value, "ms", "<= 40 ms", value <= 40, note="CPU time"))
        rows.append(Row("backgammon", f"PNG size {label}", size, "KB", "<= 250 KB", size <= 250))
    return rows


def run(quick: bool = False) -> list[Row]:
    """All backgammon rows; ``quick`` keeps the whole run to a few seconds."""
    rows = _enumeration_rows(quick) + _push_rows(quick) + _playout_rows(quick) + _render_rows(quick)
    return rows + versus_baseline("backgammon", quick, None)
