"""Druid benchmarks: push latency late in a 10x10 game, random playouts per second per variant, render time and
PNG size of a full 10x10 board (every cell built on).

The random player lives here because the self-play proofs in tests/ use the same policy: its pass probability
rises with the move number, so every game ends, by a win or by the all-pass draw.
"""

from __future__ import annotations

import time

from bench.common import Row, cpu_samples, median_ms, rate, samples
from bench.playout import rows as versus_baseline
from rules.base import GameState
from rules.druid import GAME, DruidState, Pass, Sarsen, Step, Swap
from rules.rng import Rng

#: name -> (option words, number of players), the variants the issue asks to prove and measure
VARIANTS: dict[str, tuple[tuple[str, ...], int]] = {
    "square 8": (("-size=8",), 2),
    "square 10": ((), 2),
    "hex 2p": (("-hex",), 2),
    "hex 3p": (("-hex",), 3),
    "y": (("-y",), 2),
    "walk": (("-walk",), 2),
    "walk hex 3p": (("-hex", "-walk"), 3),
    "nostack": (("-nostack",), 2),
    "nogaps": (("-nogaps",), 2),
}


def new_game(variant: str, seed: int) -> DruidState:
    words, players = VARIANTS[variant]
    state = GAME.new(GAME.parse_options(words, players), [f"p{i}" for i in range(players)], seed)
    assert isinstance(state, DruidState)
    return state


def random_move(state: DruidState, rng: Rng) -> object:
    """A random legal move. Passing is rare early and grows likelier with every move (with the cube of the
    move number), certain after three moves per cell. In Walk, half the moves push the druid on (a step or a
    stone just ahead of it), so that Walk games are also won, not only drawn."""
    horizon = 3 * state.board.ncells
    if rng.below(horizon**3) < min(state.ply, horizon) ** 3:
        return Pass()
    moves = [m for m in state.legal_moves if not isinstance(m, Pass)]
    if state.walk and state.druids[state.turn] is not None and rng.below(2) == 0:
        ahead = _druid_moves(state, moves)
        if ahead:
            return rng.choice(ahead)
    return rng.choice(moves) if moves else Pass()


def _druid_moves(state: DruidState, moves: list[object]) -> list[object]:
    """Steps and sarsens on the cells next to the mover's druid that bring it closest to its target edge."""
    board = state.board
    seat = state.turn
    here, target = state.druids[seat], state.targets[seat]
    assert here is not None and target is not None
    goal = [i for i in range(board.ncells) if board.sides[target] >> i & 1]

    def cell_of(move: object) -> int:
        if isinstance(move, Step):
            return board.step[here][board.dirs.index(move.direction)]
        return board.index[move.cell] if isinstance(move, Sarsen) else -1

    def distance(cell: int) -> int:
        return min(abs(board.col[cell] - board.col[g]) + abs(board.y2[cell] - board.y2[g]) for g in goal)

    near = [(distance(cell), m) for m in moves if (cell := cell_of(m)) in board.neighbours[here]]
    best = min((d for d, _ in near), default=None)
    return [m for d, m in near if d == best]


def playout(state: DruidState, rng: Rng) -> GameState:
    """Play random moves until the game ends."""
    while not state.is_over:
        state.push(random_move(state, rng))
    return state


def late_position(seed: int = 1) -> DruidState:
    """A 10x10 game well advanced (about 120 stones) and still open: the position push is timed in."""
    rng = Rng(seed)
    while True:
        state = new_game("square 10", rng.next64())
        while not state.is_over and state.ply < 120:
            move = random_move(state, rng)
            if not isinstance(move, Pass):
                state.push(move)
        if not state.is_over:
            return state


def full_position(seed: int = 1, units: int = 300) -> DruidState:
    """A 10x10 game with every cell built on and about ``units`` stone units (stacks up to 6 or 7 high), still
    open (see :func:`fill`)."""
    state = new_game("square 10", seed)
    fill(state, Rng(seed), units)
    return state


def fill(state: DruidState, rng: Rng, units: int = 300) -> None:
    """Random placements on ``state`` until every cell is built on and it holds about ``units`` stone units, half
    of them on bare cells while any remain, skipping any that would end the game."""
    while min(state.height) == 0 or sum(len(s.cells) for s in state.stones) < units:
        moves = [m for m in state.legal_moves if not isinstance(m, Pass | Swap)]
        bare = [m for m in moves if isinstance(m, Sarsen) and state.height[state.board.index[m.cell]] == 0]
        pool = bare if bare and rng.below(2) == 0 else moves
        for _ in range(50):
            move = rng.choice(pool)
            trial = state.clone()
            trial.push(move)
            if not trial.is_over:
                state.push(move)  # on the state itself, so that a recorder of its moves sees every one
                break
        else:
            return


def _push_rows(quick: bool) -> list[Row]:
    rows = []
    for label, state in (("10x10 late game", late_position()), ("full 10x10 board", full_position())):
        moves = [m for m in state.legal_moves if not isinstance(m, Pass)]
        repeat = 3 if quick else 20
        timings: list[float] = []
        for _ in range(repeat):
            for move in moves:
                clone = state.clone()
                start = time.perf_counter()
                clone.push(move)
                timings.append(time.perf_counter() - start)
        value = median_ms(timings)
        note = f"{len(moves)} legal moves at ply {state.ply}, each pushed {repeat}x"
        rows.append(Row("druid", f"push, {label} (median)", value, "ms", "<= 0.5 ms", value <= 0.5, note=note))
    return rows


def _playout_rows(quick: bool) -> list[Row]:
    rows = []
    budget = 0.3 if quick else 4.0
    for number, variant in enumerate(VARIANTS):
        rng = Rng(number)
        games = 0
        start = time.perf_counter()
        while time.perf_counter() - start < budget or games == 0:
            playout(new_game(variant, games), rng)
            games += 1
        value = rate(games, time.perf_counter() - start)
        rows.append(Row("druid", f"random playouts, {variant}", value, "games/s"))
    return rows


def _render_rows(quick: bool) -> list[Row]:
    """The board posted after a move (the top-down board), and the 3D view a player may ask for beside it."""
    from render import board_png

    state = full_position()
    png = board_png(state)
    repeat = 3 if quick else 15
    value = median_ms(samples(lambda: board_png(state), repeat))
    cpu_ms = median_ms(cpu_samples(lambda: board_png(state), repeat))
    view_ms = median_ms(cpu_samples(lambda: board_png(state, view="3d"), repeat))
    kb = len(png) / 1024
    note = (
        f"full board: every cell built on, {sum(len(s.cells) for s in state.stones)} stone units,"
        f" up to {max(state.height)} high, {state.ply} moves"
    )
    return [
        Row("druid", "render full 10x10 board (median)", value, "ms", "<= 80 ms", value <= 80, note=note),
        Row("druid", "render full 10x10 board, CPU time (median)", cpu_ms, "ms", note="not inflated by other load"),
        Row("druid", "PNG size full 10x10 board", kb, "KB", "<= 400 KB", kb <= 400),
        Row("druid", "render full 10x10 board, 3D view, CPU time (median)", view_ms, "ms", "<= 80 ms", view_ms <= 80),
    ]


def run(quick: bool = False) -> list[Row]:
    rows = _push_rows(quick) + _playout_rows(quick) + _render_rows(quick)
    return rows + versus_baseline("druid", quick, 3.0)
