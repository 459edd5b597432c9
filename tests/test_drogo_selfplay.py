"""Seeded random Drogo games: no exception, a lossless JSON round trip after every move, every game ends, and the
fast bitboard judge agrees with a slow, literal reading of the rules on every legal-move list it produces.

The default run plays a small sample; ``-m slow`` plays 2,000 games for each player count and 300 per option.
"""

from __future__ import annotations

import json

import pytest

from rules import registry
from rules.drogo import GAME, DrogoState, Pass, Place, move_cap, random_move
from rules.rng import Rng

OPTION_SETS = (("-single",), ("-in_place",), ("-easy_free",), ("-no_superko",), ("-size=3",), ("-size=12",))


# ---- a literal reference: lists of lists, sets of cells, whole-board copies ----------------------------------


def _neighbours(cell: tuple[int, int], n: int) -> list[tuple[int, int]]:
    col, row = cell
    near = ((col - 1, row), (col + 1, row), (col, row - 1), (col, row + 1))
    return [(c, r) for c, r in near if 0 <= c < n and 0 <= r < n]


def _group(board: dict, start: tuple[int, int], n: int) -> set[tuple[int, int]]:
    owner = board[start][-1]
    seen, todo = {start}, [start]
    while todo:
        for other in _neighbours(todo.pop(), n):
            if other not in seen and board[other] and board[other][-1] == owner:
                seen.add(other)
                todo.append(other)
    return seen


def _breathes(board: dict, group: set, n: int, easy: bool) -> bool:
    for cell in group:
        for other in _neighbours(cell, n):
            if not board[other] or (easy and len(board[other]) < len(board[cell])):
                return True
    return False


def reference_result(state: DrogoState, seat: int, cells: tuple[tuple[int, int], ...]) -> tuple | None:
    """The board after ``seat`` places on ``cells`` as the help file words it, or ``None`` if illegal."""
    n, opts = state.size, state.options
    board = {(c, r): list(state.stacks[r * n + c]) for c in range(n) for r in range(n)}
    if len(cells) == 2 and (state.placements == 0 or opts["single"]):
        return None
    side_by_side = len(cells) == 2 and cells[0] != cells[1]
    if side_by_side and (cells[1] not in _neighbours(cells[0], n) or len(board[cells[0]]) != len(board[cells[1]])):
        return None
    if any(len(board[c]) + cells.count(c) > n for c in cells):
        return None
    before = {c: (s[-1] if s else None) for c, s in board.items()}
    for cell in cells:
        board[cell].append(seat)
    mine = _group(board, cells[0], n)
    on_enemy = any(before[c] not in (None, seat) for c in set(cells))
    if on_enemy and not any(before[c] == seat for c in mine):
        return None
    captured = set()
    for cell, stack in board.items():
        if stack and stack[-1] != seat and cell not in captured:
            group = _group(board, cell, n)
            if not _breathes(board, group, n, opts["easy_free"]):
                captured |= group
    for cell in captured:
        board[cell] = [seat] * len(board[cell]) if opts["in_place"] else []
    if not _breathes(board, _group(board, cells[0], n), n, opts["easy_free"]):
        return None
    return tuple(tuple(board[(c, r)]) for r in range(n) for c in range(n))


def reference_moves(state: DrogoState, history: set) -> set[Place]:
    """Every legal placement, by trying every cell and every pair of cells of the board."""
    n = state.size
    cells = [(c, r) for r in range(n) for c in range(n)]
    shapes = [(a,) for a in cells] + [(a, b) for a in cells for b in cells if a <= b or a == b]
    legal = set()
    for shape in shapes:
        result = reference_result(state, state.turn, shape)
        if result is not None and (not state.superko or result not in history):
            legal.add(Place(shape))
    return legal


def position(state: DrogoState) -> tuple:
    return tuple(tuple(stack) for stack in state.stacks)


# ---- the games -----------------------------------------------------------------------------------------------


def play_game(players: int, seed: int, words: tuple[str, ...] = (), check_every: int = 0) -> DrogoState:
    """One random game; JSON round trip after every move; every ``check_every`` moves (0: never) the legal move
    list is compared with the reference."""
    rng = Rng(seed)
    names = [f"p{i}" for i in range(players)]
    state = GAME.new(GAME.parse_options(list(words), players), names, seed)
    history = {position(state)}
    steps = 0
    while not state.is_over:
        if check_every and steps % check_every == 0:
            assert set(state.legal_moves) == reference_moves(state, history), state.text_board()
        move = state.forced_move() or random_move(state, rng)
        if isinstance(move, Place):
            assert move in state.legal_moves
            assert state.parse_move(str(move)) == move
        state.push(move)
        history.add(position(state))
        data = json.loads(json.dumps(state.to_json()))
        loaded = registry.load_state(data)
        assert loaded.to_json() == data
        loaded.restore_memory(state.memory())  # the positions seen live beside the snapshot, as the store keeps them
        state = loaded
        steps += 1
        assert steps <= 2 * move_cap(state.size) + 10
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == state.scores()
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_cleanly(players: int):
    for seed in range(3):
        play_game(players, seed, ("-size=4",), check_every=25)
    play_game(players, 100, (), check_every=200)


@pytest.mark.parametrize("words", OPTION_SETS[:4])
def test_random_games_with_each_option(words: tuple[str, ...]):
    play_game(2, 7, ("-size=4", *words), check_every=20)


def test_random_move_passes_only_without_legal_moves():
    state = DrogoState.from_rows(
        GAME.parse_options(["-size=3"], 2), ["a", "b"], ["xxx xxx xxx", "xxx . xxx", "xxx xxx xxx"], turn=1
    )
    assert str(random_move(state, Rng(1))) in ("b2", "b2,b2")
    full = DrogoState.from_rows(
        GAME.parse_options(["-size=3"], 2), ["a", "b"], ["xxx xxx xxx", "ooo ooo ooo", "ooo ooo ooo"]
    )
    assert random_move(full, Rng(1)) == Pass()


# ---- the big proofs ------------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_slow_two_thousand_games(players: int):
    """2,000 games per player count on boards of 3 to 6 (chosen by seed, so 500 on the default 6x6), the
    reference check every 50 moves in one game of ten."""
    for seed in range(2000):
        play_game(players, seed, (f"-size={3 + seed % 4}",), check_every=50 if seed % 10 == 0 else 0)


@pytest.mark.slow
@pytest.mark.parametrize("words", OPTION_SETS)
def test_slow_three_hundred_games_per_option(words: tuple[str, ...]):
    """300 games per option (3 on the 12x12 board, whose 6,912-placement games take a minute each)."""
    for seed in range(3 if words == ("-size=12",) else 300):
        players = 2 + seed % 3
        size = () if any(w.startswith("-size") for w in words) else (f"-size={3 + seed % 4}",)
        play_game(players, seed, (*size, *words), check_every=40 if seed % 10 == 0 else 0)


def play_uncapped(players: int, seed: int, size: int) -> DrogoState:
    """A random game with the placement cap lifted, so that only superko can end it."""
    state = GAME.new(GAME.parse_options([f"-size={size}"], players), [f"p{i}" for i in range(players)], seed)
    state.placement_limit = None
    rng = Rng(seed)
    while not state.is_over:
        state.push(state.forced_move() or random_move(state, rng))
    return state


def test_superko_alone_ends_a_game_without_the_cap():
    state = play_uncapped(2, 1, 3)
    assert state.placements > move_cap(3)
    assert state.outcome().reason.startswith("no player can place a piece")


@pytest.mark.slow
def test_slow_superko_ends_games_without_the_cap():
    """With the placement cap lifted, superko alone ends every random game on 3x3 boards (and 4x4 in one game of
    ten): nobody can place."""
    for seed in range(200):
        state = play_uncapped(2 + seed % 3, seed, 4 if seed % 10 == 0 else 3)
        assert state.outcome().reason.startswith("no player can place a piece")
