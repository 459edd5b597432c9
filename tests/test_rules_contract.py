"""The shared rules contract: option parsing, the seeded RNG, and what every registered game promises."""

from __future__ import annotations

import random

import pytest

from rules import registry
from rules.base import LegalMoves, Option, OptionError, parse_options
from rules.rng import Rng

OPTIONS = (
    Option("size", int, 10, "cells along each edge", minimum=3, maximum=26),
    Option("hex", bool, False, "hexagonal board", conflicts=("y",)),
    Option("y", bool, False, "triangular board"),
)


def test_options_parse_into_a_complete_mapping() -> None:
    assert parse_options(OPTIONS, []) == {"size": 10, "hex": False, "y": False}
    assert parse_options(OPTIONS, ["-size=8", "-HEX"]) == {"size": 8, "hex": True, "y": False}


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["-colour=red"], "unknown option -colour"),
        (["-hex=1"], "-hex is a switch and takes no value"),
        (["-size"], "-size needs a value"),
        (["-size=big"], "'big' is not a whole number"),
        (["-size=2"], "-size=2 is out of range (3..26)"),
        (["-size=8", "-size=9"], "-size is given twice"),
        (["-hex", "-y"], "-hex and -y cannot be used together"),
        (["size=8"], "'size=8' is not an option"),
    ],
)
def test_bad_options_are_refused_by_name(words: list[str], message: str) -> None:
    with pytest.raises(OptionError) as caught:
        parse_options(OPTIONS, words)
    assert message in str(caught.value)


def test_the_rng_replays_exactly_and_its_state_is_one_integer() -> None:
    first, second = Rng(2026), Rng(2026)
    rolls = [first.die() for _ in range(1000)]
    assert rolls == [second.die() for _ in range(1000)]
    resumed = Rng(0)
    resumed.state = first.state
    assert [resumed.die() for _ in range(50)] == [first.die() for _ in range(50)]
    assert set(rolls) == {1, 2, 3, 4, 5, 6}


def test_dice_are_fair_by_chi_square() -> None:
    """600,000 rolls: the chi-square statistic with 5 degrees of freedom stays below 20.52 (p = 0.001)."""
    rng = Rng(99)
    counts = [0] * 6
    n = 600_000
    for _ in range(n):
        counts[rng.die() - 1] += 1
    expected = n / 6
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    assert chi2 < 20.52, counts


def test_legal_moves_are_lazy() -> None:
    made = []

    def generate():
        for i in range(3):
            made.append(i)
            yield i

    legal = LegalMoves(generate, contains=lambda m: m in (0, 1, 2))
    assert 2 in legal and made == []
    assert bool(legal) and made == [0]
    assert len(legal) == 3 and list(legal) == [0, 1, 2]


@pytest.mark.parametrize("name", registry.names())
def test_every_game_honours_the_contract(name: str) -> None:
    """Seeded random play: canonical texts parse back to the same move, JSON round-trips, replays are exact."""
    game = registry.get(name)
    assert game.name == name and game.help and game.notation and game.summary
    options = game.parse_options([], game.min_players)
    players = [f"p{i}" for i in range(game.min_players)]
    for seed in range(3):
        state = game.new(options, players, seed)
        twin = game.new(options, players, seed)
        assert state.to_json() == twin.to_json()
        rng = random.Random(seed)
        for _ in range(60):
            if state.is_over:
                break
            forced = state.forced_move()
            if forced is None:
                legal = list(state.legal_moves)
                assert legal, f"{name}: no legal move and nothing forced"
                move = rng.choice(legal)
                assert state.parse_move(state.move_text(move), state.to_move) == move
                assert move in state.legal_moves
            else:
                move = forced
            state.push(move)
            restored = game.load(state.to_json())
            assert restored.to_json() == state.to_json()
            assert restored.text_board() == state.text_board()
