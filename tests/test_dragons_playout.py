"""The Dragons playout path (``random_move`` + ``push``) against the plain computations it shortcuts.

Seeded random games played through ``state.random_move(rng)`` equal, move for move, the same games played by
choosing from ``list(state.legal_moves)``: the same moves, move texts, events, outcomes and JSON. The loop test
of every move, which reads the biconnected blocks :class:`rules.dragons.graph.Bands` keeps up to date, equals the
loop test on a :class:`RegionGraph` built from scratch (every dragon through the move's cells walked, cut into
blocks and searched); and the blocks themselves equal those of the walked dragons after every tile.
"""

from __future__ import annotations

import json
import random

import pytest

from rules import registry
from rules.dragons import DragonsState
from rules.dragons.graph import RegionGraph, _blocks, cell_code

GAME = registry.get("dragons")

WORDS = [
    [],
    ["-tails"],
    ["-long_loop"],
    ["-loop_closed"],
    ["-start_joint"],
    ["-start_tip"],
    ["-may_complete"],
    ["-num_eyes=2"],
    ["-tantrix"],
    ["-num_tiles=120"],
    ["-tails", "-end_first"],
]


def new(words: list[str], seed: int) -> DragonsState:
    state = GAME.new(GAME.parse_options(words, 2), ["al", "bo"], seed)
    assert isinstance(state, DragonsState)
    return state


def play(words: list[str], seed: int, fast: bool) -> tuple[list[tuple[str, str, list]], dict]:
    """One seeded game: each ply's move, its text and its events; and the final JSON."""
    state, rng = new(words, seed), random.Random(seed)
    plies = []
    while not state.is_over:
        move = state.forced_move()
        if move is None:
            move = state.random_move(rng) if fast else rng.choice(list(state.legal_moves))
        text = state.move_text(move)
        events = [event.to_json() for event in state.push(move)]
        plies.append((str(move), text, events))
    return plies, state.to_json()


@pytest.mark.parametrize("words", WORDS, ids=lambda words: " ".join(words) or "default")
def test_random_move_games_equal_the_list_path(words: list[str]) -> None:
    for seed in range(60):
        fast, slow = play(words, seed, True), play(words, seed, False)
        assert fast == slow, (words, seed)
        assert json.loads(json.dumps(fast[1])) == fast[1]


def reference_loops(state: DragonsState) -> tuple[list, object]:
    """The loop test of the last move on a graph built from scratch: every dragon through the move's cells."""
    assert state.last is not None
    cells = [state.last["cell"], *(cell for cell, _ in state.last["autos"])]
    graph = RegionGraph(state.tiles, state.crossed)
    kept = state.loops
    try:
        outcome = state._judge_loops(graph, graph.dragons_through(cells), cells)
        return state.loops, outcome
    finally:
        state.loops = kept


@pytest.mark.parametrize(
    "words", [[], ["-tails"], ["-long_loop"], ["-loop_closed"], ["-start_tip"], ["-num_tiles=200"]]
)
def test_each_moves_loops_equal_a_search_from_scratch(words: list[str]) -> None:
    for seed in range(150):
        state, rng = new(words, seed), random.Random(seed)
        while not state.is_over:
            state.push(state.forced_move() or state.random_move(rng))
            loops, outcome = reference_loops(state)
            assert state.loops == loops, (words, seed, len(state.tiles))
            if outcome is not None:
                assert state.outcome() == outcome
            elif state.is_over:
                reason = state.outcome().reason  # type: ignore[union-attr]
                assert reason.startswith("the tiles ran out"), reason


@pytest.mark.parametrize("words", [[], ["-tails"], ["-start_joint", "-num_tiles=120"]])
def test_kept_blocks_equal_the_blocks_of_the_walked_dragons(words: list[str]) -> None:
    for seed in range(40):
        state, rng = new(words, seed), random.Random(seed)
        while not state.is_over:
            state.push(state.forced_move() or state.random_move(rng))
            bands = state.bands
            kept = {frozenset(members) for members in bands.members.values() if len(set(members)) >= 3}
            walked = {
                frozenset(cell_code(cell) * 8 + index for cell, index in block)
                for dragon in RegionGraph(state.tiles, state.crossed).all_dragons()
                for block in _blocks(dragon.adjacency)
            }
            assert kept == walked, (words, seed, len(state.tiles))
            for block in kept:
                assert all(
                    bands._block(bands.block_of[node]) == bands._block(bands.block_of[min(block)]) for node in block
                )
