"""The placement rules checked against a plain restatement of rules-notes.md DU-2, DU-3 and DU-6, written from the
stone list alone, on positions from seeded random games of every variant: every sarsen and every lintel (both
ways round) and every druid step is legal exactly when the restatement says so, and the legal-move list holds
exactly those moves."""

from __future__ import annotations

import pytest

from bench.druid import VARIANTS, new_game, random_move
from rules.druid import DruidState, Lintel, Pass, Sarsen, Step, Swap
from rules.rng import Rng


def tops(state: DruidState) -> tuple[list[int], list[int], list[str]]:
    """Height, top owner and top stone kind of every cell, from the stones in the order they were placed."""
    n = state.board.ncells
    height, owner, kind = [0] * n, [-1] * n, [""] * n
    for stone in state.stones:
        for cell in stone.cells:
            height[cell], owner[cell], kind[cell] = stone.level, stone.owner, stone.kind
    return height, owner, kind


def sarsen_ok(state: DruidState, cell: int, seat: int) -> bool:
    height, owner, kind = tops(state)
    if cell in state.druids:
        return False
    if height[cell] and owner[cell] != seat:
        return False
    return not (state.options.get("nostack") and kind[cell] == "s")


def lintel_ok(state: DruidState, a: int, m: int, b: int, seat: int) -> bool:
    height, owner, _ = tops(state)
    if any(cell in state.druids for cell in (a, m, b)):
        return False
    h = height[a]
    if h == 0 or height[b] != h or height[m] > h:
        return False
    if state.options.get("nogaps") and height[m] != h:
        return False
    beneath = [owner[a], owner[b]] + ([owner[m]] if height[m] == h else [])
    return beneath.count(seat) == 2


def positions(variant: str, games: int) -> list[DruidState]:
    out = []
    for seed in range(games):
        state = new_game(variant, 1000 + seed)
        rng = Rng(seed)
        while not state.is_over:
            move = random_move(state, rng)
            if not isinstance(move, Pass) and rng.below(4) == 0:
                out.append(state.clone())
            state.push(move)
    return out


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_placements_match_the_written_rules(variant: str) -> None:
    checked = lintels = 0
    for state in positions(variant, 2)[:40]:
        seat = state.to_move
        assert seat is not None
        board = state.board
        listed = set(state.legal_moves)
        for cell in range(board.ncells):
            move = Sarsen(board.names[cell])
            expected = sarsen_ok(state, cell, seat)
            assert (move in state.legal_moves) == expected == (move in listed), (variant, move)
        for (a, b), m in board.lines.items():
            move = Lintel(board.names[a], board.names[b])
            expected = lintel_ok(state, a, m, b, seat)
            assert (move in state.legal_moves) == expected, (variant, move)
            if a < b:
                assert (move in listed) == expected, (variant, move)
            lintels += expected
        for d, direction in enumerate(board.dirs):
            here = state.druids[seat]
            there = board.step[here][d] if state.walk and here is not None else -1
            expected = there >= 0 and tops(state)[1][there] == seat and there not in state.druids
            assert (Step(direction) in state.legal_moves) == expected == (Step(direction) in listed), (variant, d)
        assert Pass() in listed and (Swap() in listed) == (state.ply == 1 and len(state.players) == 2)
        checked += 1
    assert checked >= 10 and lintels > 0
