"""The Dragons computer player's tactics: in positions where some moves hand the opponent a loop at its next move
(gap fills the server then makes included), levels 2 and 3 pick a move that does not, though such moves are few.
Level 1 (easy) looks no further than its own move, and falls into some of them."""

from __future__ import annotations

import functools

import pytest

import ai
from tests.test_ai_players import reachable


def _settled(state, move):
    """``state`` after ``move`` and the gap fills the server makes after it."""
    after = state.clone()
    after.push(move)
    while not after.is_over and (forced := after.forced_move()) is not None:
        after.push(forced)
    return after


def _exposed(state, move) -> bool:
    """Whether the opponent can close a loop at its next move after ``move`` (when the gap fills hand the turn
    back to the mover, the opponent has no move to make)."""
    after = _settled(state, move)
    return not after.is_over and after.to_move != state.to_move and _can_close_a_loop(after)


def _can_close_a_loop(state) -> bool:
    seat = state.to_move
    for move in state.legal_moves:
        outcome = _settled(state, move).outcome()
        if outcome is not None and seat in outcome.winners:
            return True
    return False


@functools.cache
def _trap_positions(count: int) -> list:
    """Positions of seeded random play where two moves in three or more let the opponent win."""
    found = []
    for seed in range(80):
        for plies in (4, 6, 8, 10, 12):
            state = reachable("dragons", [], 2, seed=seed, plies=plies)
            if state.is_over or state.forced_move() is not None:
                continue
            exposed = [_exposed(state, move) for move in state.legal_moves]
            if exposed.count(False) and exposed.count(False) * 3 <= len(exposed):
                found.append(state)
            if len(found) == count:
                return found
    return found


@pytest.mark.parametrize("level", [2, 3])
def test_levels_2_and_3_never_hand_the_opponent_a_loop_they_could_deny(level: int) -> None:
    positions = _trap_positions(8)
    assert len(positions) == 8
    for index, state in enumerate(positions):
        text = ai.choose_move(state, level, seed=index, max_seconds=30)
        assert not _exposed(state, state.parse_move(text)), (index, level, text)


def test_level_1_sees_its_own_move_only() -> None:
    positions = _trap_positions(8)
    exposed = [
        _exposed(state, state.parse_move(ai.choose_move(state, 1, seed=index))) for index, state in enumerate(positions)
    ]
    assert 0 < exposed.count(True) < 8
