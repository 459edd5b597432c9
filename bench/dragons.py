"""Dragons benchmarks: push latency late in a 50-tile game (auto-move cascade and loop test included) and of the
push that empties the pool (the board scored), random playouts per second, and render time and PNG size.

Latencies are given as wall time and as CPU time of this process (which other load on the machine does not
inflate). Positions come from seeded random games, so every run measures the same positions.
"""

from __future__ import annotations

import statistics
import time

from bench.common import Row, median_ms, rate, timed
from bench.playout import rows as versus_baseline
from rules.dragons import GAME, DragonsState
from rules.rng import Rng

#: "late": this many tiles already down before the push, of the default 50
LATE = 30


def new_game(seed: int, words: tuple[str, ...] = ()) -> DragonsState:
    state = GAME.new(GAME.parse_options(list(words), 2), ["p0", "p1"], seed)
    assert isinstance(state, DragonsState)
    return state


def next_move(state: DragonsState, rng: Rng) -> object:
    forced = state.forced_move()
    return forced if forced is not None else rng.choice(list(state.legal_moves))


def play_out(state: DragonsState, rng: Rng) -> DragonsState:
    while not state.is_over:
        state.push(next_move(state, rng))
    return state


def _push_rows(quick: bool) -> list[Row]:
    """Every push made with at least LATE tiles down, in seeded default games (most random games end earlier
    with a loop, so many games are played to collect enough late pushes)."""
    walls, cpus, autos = [], [], []
    for seed in range(40 if quick else 600):
        state, rng = new_game(seed), Rng(seed)
        while not state.is_over:
            move = next_move(state, rng)
            if len(state.tiles) < LATE:
                state.push(move)
                continue
            wall, cpu = timed(lambda state=state, move=move: state.push(move))
            walls.append(wall)
            cpus.append(cpu)
            autos.append(len(state.last["autos"]) if state.last else 0)
    worst = max(cpus) * 1000
    note = (
        f"{len(walls)} pushes with >= {LATE} tiles down, {sum(1 for a in autos if a)} with auto moves "
        f"(up to {max(autos)}); slowest {worst:.2f} ms CPU"
    )
    wall_ms, cpu_ms = median_ms(walls), median_ms(cpus)
    return [
        Row(
            "dragons",
            "push incl. auto cascade + loop test, late (median)",
            wall_ms,
            "ms",
            "<= 1 ms",
            wall_ms <= 1,
            note=note,
        ),
        Row("dragons", "push late, CPU time (median)", cpu_ms, "ms", "<= 1 ms", cpu_ms <= 1),
    ]


def _last_turn(seed: int, words: tuple[str, ...]) -> DragonsState | None:
    """The position of a seeded random game where the next push empties the pool (a turn with one tile left and
    a choice to make), or ``None`` when the game ends before it."""
    state, rng = new_game(seed, words), Rng(seed)
    while not state.is_over:
        if state.remaining == 1 and state.forced_move() is None:
            return state
        state.push(next_move(state, rng))
    return None


def _pool_end_rows(quick: bool) -> list[Row]:
    """Pushes that empty the pool, which end the game by the pool's scoring: every legal move of the last turn
    tried (as the computer players' tactics try every move), in seeded games that get there."""
    rows = []
    for label, words, games in (
        ("default 50 tiles", (), 60 if quick else 600),
        ("default 50 tiles, -tie_largest_wins", ("-tie_largest_wins",), 60 if quick else 600),
        ("tantrix 40 tiles", ("-tantrix",), 10 if quick else 100),
    ):
        cpus = []
        for seed in range(games):
            state = _last_turn(seed, words)
            if state is None:
                continue
            for move in list(state.legal_moves):
                trial = state.clone()
                cpus.append(timed(lambda trial=trial, move=move: trial.push(move))[1])
        note = f"{len(cpus)} pushes, each the last tile of the pool: the score of the whole board decides"
        cpu_ms = median_ms(cpus)
        rows.append(Row("dragons", f"push that empties the pool, {label}, CPU time (median)", cpu_ms, "ms", note=note))
    return rows


def _playout_rows(quick: bool) -> list[Row]:
    rows = []
    for label, words in (("default 50 tiles", ()), ("tantrix, 40 tiles played out", ("-tantrix",))):
        games = 5 if quick else 200
        tiles = 0
        start = time.perf_counter()
        for seed in range(games):
            tiles += len(play_out(new_game(seed, words), Rng(seed)).tiles)
        seconds = time.perf_counter() - start
        note = f"{tiles / games:.1f} tiles per game; moves chosen uniformly from the legal moves"
        rows.append(Row("dragons", f"random playouts, {label}", rate(games, seconds), "games/s", note=note))
    return rows


def _render_rows(quick: bool) -> list[Row]:
    from render.dragons import render_png

    longest = max(
        (play_out(new_game(seed), Rng(seed)) for seed in range(10 if quick else 40)), key=lambda s: len(s.tiles)
    )
    biggest = play_out(new_game(3, ("-tantrix", "-num_tiles=200")), Rng(3))
    rows = []
    for label, state, target in ((f"{len(longest.tiles)}-tile game", longest, 80.0), ("200-tile pool", biggest, None)):
        png = render_png(state)
        samples = [timed(lambda state=state: render_png(state)) for _ in range(3 if quick else 10)]
        wall_ms = statistics.median(w for w, _ in samples) * 1000
        cpu_ms = statistics.median(c for _, c in samples) * 1000
        kb = len(png) / 1024
        ok = None if target is None else wall_ms <= target
        size = f"{len(state.tiles)} tiles, PNG via render.common.to_png"
        rows.append(
            Row("dragons", f"render {label} (median)", wall_ms, "ms", "<= 80 ms" if target else "", ok, note=size)
        )
        rows.append(Row("dragons", f"render {label}, CPU time (median)", cpu_ms, "ms"))
        rows.append(Row("dragons", f"PNG size, {label}", kb, "KB", "<= 400 KB", kb <= 400))
    return rows


def run(quick: bool = False) -> list[Row]:
    rows = _push_rows(quick) + _pool_end_rows(quick) + _playout_rows(quick) + _render_rows(quick)
    return rows + versus_baseline("dragons", quick, 3.0)
