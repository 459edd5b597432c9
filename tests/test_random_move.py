"""The playout fast path: ``state.random_move(rng)`` draws uniformly from exactly the legal moves, without
touching the game, in every board game that offers it; and the shortcuts behind the fast playouts agree with
the plain computations they replace."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules import registry
from rules.base import GameState
from rules.dragons.graph import BandForest, RegionGraph
from rules.rng import Rng

#: (game, option words, players): every board shape and rule that changes which moves are candidates
CASES = [
    ("druid", ["-size=5"], 2),
    ("druid", ["-hex", "-size=3"], 3),
    ("druid", ["-y", "-size=5"], 2),
    ("druid", ["-walk", "-size=5"], 2),
    ("druid", ["-hex", "-walk", "-size=3"], 3),
    ("druid", ["-nostack", "-nogaps", "-size=5"], 2),
    ("drogo", ["-size=4"], 2),
    ("drogo", ["-size=3", "-in_place"], 3),
    ("drogo", ["-size=4", "-single"], 4),
    ("dragons", [], 2),
    ("dragons", ["-may_complete"], 2),
    ("dragons", ["-tails", "-start_tip"], 2),
]


def _positions(name: str, words: list[str], nplayers: int, seed: int, every: int, most: int) -> list[GameState]:
    """Copies of one seeded random game's positions, one every ``every`` plies, at most ``most`` of them."""
    game = registry.get(name)
    state = game.new(game.parse_options(words, nplayers), [f"p{i}" for i in range(nplayers)], seed)
    rng = random.Random(seed)
    found = []
    while not state.is_over and len(found) < most:
        if state.ply % every == 0 and state.forced_move() is None:
            found.append(state.clone())
        state.push(state.forced_move() or rng.choice(list(state.legal_moves)))
    return found


@pytest.mark.parametrize(("name", "words", "nplayers"), CASES)
def test_random_moves_are_legal_and_leave_the_game_alone(name: str, words: list[str], nplayers: int) -> None:
    for seed in range(2):
        for state in _positions(name, words, nplayers, seed, 5, 8):
            before = state.to_json()
            legal = list(state.legal_moves)
            for draw in range(10):
                rng = Rng(draw) if draw % 2 else random.Random(draw)
                move = state.random_move(rng)
                assert move in legal, (move, state.text_board())
                assert state.parse_move(state.move_text(move)) == move
            assert state.to_json() == before


@pytest.mark.parametrize(("name", "words", "nplayers"), CASES)
def test_random_moves_are_uniform(name: str, words: list[str], nplayers: int) -> None:
    """Chi-square over the legal moves of a few positions (p = 0.001 bounds, so a fair draw fails rarely)."""
    rng = random.Random(5)
    positions = _positions(name, words, nplayers, 11, 7, 3)
    assert positions
    for state in positions:
        legal = list(state.legal_moves)
        if len(legal) < 2:
            continue
        per_move = 40
        counts = Counter(state.random_move(rng) for _ in range(per_move * len(legal)))
        assert set(counts) == set(legal)
        chi2 = sum((counts[move] - per_move) ** 2 / per_move for move in legal)
        dof = len(legal) - 1
        assert chi2 < dof + 4.5 * (2 * dof) ** 0.5 + 10, (chi2, dof)


def test_random_move_refuses_a_finished_game() -> None:
    for name in ("druid", "drogo", "dragons"):
        game = registry.get(name)
        state = game.new(game.parse_options([], 2), ["a", "b"], 1)
        state.resign(0)
        with pytest.raises(ValueError):
            state.random_move(random.Random(1))


@pytest.mark.parametrize("words", [[], ["-tails"], ["-start_joint"]])
def test_a_tile_closes_a_band_cycle_exactly_when_the_picture_gains_a_hole(words: list[str]) -> None:
    """The Dragons loop search runs only after a move whose tiles closed a cycle: that must be every tile that
    adds a hole (and so could make a loop), whatever the tile set. Holes are counted from scratch."""
    game = registry.get("dragons")
    for seed in range(8):
        state = game.new(game.parse_options(words, 2), ["a", "b"], seed)
        rng = random.Random(seed)
        while not state.is_over:
            state.push(state.forced_move() or rng.choice(list(state.legal_moves)))
        forest = BandForest(state.crossed)
        placed: dict = {}
        holes = 0
        for cell, placement, _ in state.history:
            placed[cell] = placement
            closed = forest.add(placed, cell)
            now = sum(dragon.holes for dragon in RegionGraph(placed, state.crossed).all_dragons())
            assert bool(closed) == (now > holes), (seed, cell)
            assert all(node[0] == cell for node in closed)
            holes = now
