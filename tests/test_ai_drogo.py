"""The Drogo computer player's eye for captures, on the help file's position: an O block of six stacks whose one
freedom is a4. Level 3 (hard) takes the block when X moves and saves it when O moves; levels 1 and 2 rank moves
by breathing room alone, and level 1 lets the block live. Then the end of a won game, where level 3 must not fill
its own last breath before the placement cap."""

from __future__ import annotations

import ai
from rules.drogo import DrogoState
from tests.test_drogo_rules import HELP_POSITION, options

SEEDS = range(6)


def _position(turn: int) -> DrogoState:
    return DrogoState.from_rows(options(), ["ann", "bob"], HELP_POSITION, turn=turn)


def _most_x_can_take(state: DrogoState) -> int:
    return max(state.captured_by(move) for move in state.legal_moves)


def _o_left_after(state: DrogoState, text: str) -> int:
    after = state.clone()
    after.push(after.parse_move(text))
    return after.scores()[1]


def test_level_3_takes_the_block() -> None:
    """Whether by capturing all six at a4 or by building over two of them and capturing the rest (which leaves X
    higher), level 3 leaves O nothing."""
    state = _position(turn=0)
    assert [_o_left_after(state, ai.choose_move(state, 3, seed=seed, max_seconds=30)) for seed in SEEDS] == [0] * 6


def test_level_3_saves_the_block() -> None:
    for seed in SEEDS:
        state = _position(turn=1)
        state.push(state.parse_move(ai.choose_move(state, 3, seed=seed, max_seconds=30)))
        assert _most_x_can_take(state) == 0, seed


def test_level_1_lets_the_block_live() -> None:
    state = _position(turn=0)
    left = [_o_left_after(state, ai.choose_move(state, 1, seed=seed)) for seed in SEEDS]
    assert left.count(0) < len(SEEDS) // 2


def _run_down(level: int, seed: int) -> DrogoState:
    """X owns the board but for two lone empty cells (a1 and f6, its breath), its stacks with room for exactly as
    many cubes as placements are left before the cap (23); O cannot place (either cell would be suicide) and
    passes. Played by ``level`` from there to the end."""
    rows = []
    for row in range(6):
        words = []
        for col in range(6):
            if (row, col) in ((0, 5), (5, 0)):
                words.append(".")
            else:
                words.append("x" * (5 if (row * 6 + col) % 3 else 6))
        rows.append(" ".join(words))
    room = 23
    state = DrogoState.from_rows(options(), ["ann", "bob"], rows, placements=864 - room)
    assert sum(6 - len(stack) for stack in state.stacks if stack) == room
    while not state.is_over:
        forced = state.forced_move()
        move = forced or state.parse_move(ai.choose_move(state, level, seed=seed, move_number=state.ply))
        state.push(move)
    return state


def test_level_3_runs_a_won_board_down_to_the_cap() -> None:
    """Each turn one cube on its own stacks: the room lasts exactly the placements left, so X never fills its own
    breath, which would let O take the whole board with one cube."""
    for seed in SEEDS:
        state = _run_down(3, seed)
        assert state.outcome().winners == (0,), seed
        assert state.scores() == (sum(len(stack) for stack in state.stacks), 0)
        assert not state.stacks[0] and not state.stacks[35], seed
