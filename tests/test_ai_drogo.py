"""The Drogo computer player's eye for captures, on the help file's position: an O block of six stacks whose one
freedom is a4. Level 3 (hard) takes the block when X moves and saves it when O moves; levels 1 and 2 rank moves
by breathing room alone, and level 1 lets the block live."""

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
