"""Seeded random self-play in every Druid variant: no exception, every position survives a JSON round trip, the
winner found by a full recomputation matches the incremental one after every move, and every game ends (by a
win or by the all-pass draw). The default run plays a small sample; ``-m slow`` plays 2,000 games per variant.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from bench.druid import VARIANTS, new_game, random_move
from rules.druid import GAME, DruidState
from rules.rng import Rng


def checked_game(variant: str, seed: int) -> DruidState:
    """Play one random game, checking every position; in three-player games a seat sometimes resigns."""
    state = new_game(variant, seed)
    rng = Rng(seed * 7919 + 1)
    limit = 3 * state.board.ncells + 10
    while not state.is_over:
        assert state.ply <= limit, "the random player must end the game"
        seat = state.to_move
        assert seat is not None
        if len(state.players) == 3 and rng.below(150) == 0:
            state.resign(seat)
        else:
            move = random_move(state, rng)
            assert state.parse_move(str(move)) == move
            state.push(move)
        check_position(state)
    return state


def check_position(state: DruidState) -> None:
    data = json.loads(json.dumps(state.to_json()))
    again = GAME.load(data)
    assert again.to_json() == data
    found = state.recompute_winners()
    outcome = state.outcome()
    if outcome is None or not outcome.winners:
        assert found == set()
    elif outcome.reason.endswith("resigned"):
        assert found <= set(outcome.winners)
    else:
        assert found == set(outcome.winners)


def tally(variant: str, games: int) -> Counter[str]:
    counts: Counter[str] = Counter()
    for seed in range(games):
        outcome = checked_game(variant, seed).outcome()
        assert outcome is not None
        counts["draw" if outcome.draw else f"win {outcome.winners[0]}"] += 1
    return counts


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_self_play_sample(variant: str) -> None:
    counts = tally(variant, 6)
    assert sum(counts.values()) == 6


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_self_play_2000(variant: str) -> None:
    counts = tally(variant, 2000)
    print(f"\n{variant}: {dict(sorted(counts.items()))}")
    assert sum(counts.values()) == 2000
    wins = sum(n for key, n in counts.items() if key.startswith("win"))
    assert wins > 0 and counts["draw"] > 0, "both endings occur"
