"""Seeded random self-play of Dragons under every option: no exception, lossless JSON, never a gap with four or
more closed sides, and every game ends. The default run plays a small sample; ``-m slow`` plays the full proof
(2,000 default games and 500 per option)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from rules import registry
from rules.dragons import DragonsState
from rules.rng import Rng

GAME = registry.get("dragons")

OPTION_SETS: list[list[str]] = [
    ["-tantrix"],
    ["-start_joint"],
    ["-start_tip"],
    ["-num_eyes=2"],
    ["-end_first"],
    ["-end_single"],
    ["-end_most"],
    ["-all_out_most_eyes"],
    ["-tie_none"],
    ["-tie_largest_wins"],
    ["-tie_largest_loses"],
    ["-cross"],
    ["-tails"],
    ["-must_complete"],
    ["-may_complete"],
    ["-loop_closed"],
    ["-long_loop"],
    # the closed-dragon endings only come into play with the old tiles, whose tails close dragons off
    ["-tails", "-end_first"],
    ["-tails", "-end_most", "-tie_largest_loses"],
    ["-tails", "-all_out_most_eyes", "-may_complete"],
]


def round_trip(state: DragonsState) -> None:
    again = GAME.load(json.loads(json.dumps(state.to_json())))
    assert again == state
    assert again.positions() == state.positions()
    assert again.gaps == state.gaps


def self_play(seed: int, words: list[str]) -> DragonsState:
    """One random game; the server's forced moves are taken as the server would take them."""
    state = GAME.new(GAME.parse_options(words, 2), ["al", "bo"], seed)
    assert isinstance(state, DragonsState)
    rng = Rng(seed)
    budget = state.remaining
    for ply in range(budget + 1):
        if state.is_over:
            break
        forced = state.forced_move()
        move = forced if forced is not None else rng.choice(list(state.legal_moves))
        state.push(state.parse_move(str(move)))
        assert max((state.closed_sides(cell) for cell in state.frontier), default=0) <= 3
        if ply % 8 == 0:
            round_trip(state)
    assert state.is_over, "the game did not end when the pool ran out"
    assert not list(state.legal_moves)
    round_trip(state)
    return state


def run(words: list[str], games: int) -> Counter[str]:
    results: Counter[str] = Counter()
    for seed in range(games):
        outcome = self_play(seed, words).outcome()
        assert outcome is not None
        results["draw" if outcome.draw else f"seat {outcome.winners[0]}"] += 1
    return results


def test_default_games_sample() -> None:
    results = run([], 25)
    assert sum(results.values()) == 25
    assert results["seat 0"] and results["seat 1"]


@pytest.mark.parametrize("words", OPTION_SETS, ids=" ".join)
def test_option_games_sample(words: list[str]) -> None:
    assert sum(run(words, 3).values()) == 3


@pytest.mark.slow
def test_default_games_full() -> None:
    results = run([], 2000)
    print("default", dict(results))
    assert sum(results.values()) == 2000


@pytest.mark.slow
@pytest.mark.parametrize("words", OPTION_SETS, ids=" ".join)
def test_option_games_full(words: list[str]) -> None:
    results = run(words, 500)
    print(" ".join(words), dict(results))
    assert sum(results.values()) == 500
