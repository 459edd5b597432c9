"""Computer players: every level answers with a move the rules accept, in every variant of every game, from
positions reached by seeded random play; the same seed gives the same choice; names ``ai:1``..``ai:3``.

The default run checks a few positions per variant with a short time cap; ``-m slow`` checks thousands.
"""

from __future__ import annotations

import pytest

import ai
from rules import registry
from rules.base import GameState, Resign
from rules.rng import Rng

DRUID = [
    ([], 2),
    (["-size=6"], 2),
    (["-hex"], 2),
    (["-hex"], 3),
    (["-y", "-size=6"], 2),
    (["-walk", "-size=6"], 2),
    (["-walk", "-hex", "-size=4"], 3),
    (["-nostack", "-size=6"], 2),
    (["-nogaps", "-size=6"], 2),
    (["-nostack", "-nogaps", "-hex", "-size=4"], 3),
]
DROGO = [
    ([], 2),
    ([], 3),
    (["-size=4"], 4),
    (["-single"], 2),
    (["-in_place", "-size=5"], 2),
    (["-easy_free", "-size=5"], 3),
    (["-no_superko", "-size=4"], 2),
    (["-size=3"], 2),
]
DRAGONS = [
    ([], 2),
    (["-tantrix"], 2),
    (["-start_joint"], 2),
    (["-start_tip"], 2),
    (["-num_eyes=2"], 2),
    (["-end_first"], 2),
    (["-end_single"], 2),
    (["-end_most"], 2),
    (["-all_out_most_eyes"], 2),
    (["-tie_largest_wins"], 2),
    (["-tie_largest_loses"], 2),
    (["-tails"], 2),
    (["-may_complete"], 2),
    (["-loop_closed"], 2),
    (["-long_loop"], 2),
    (["-tails", "-end_first"], 2),
    (["-tails", "-all_out_most_eyes", "-may_complete"], 2),
    (["-num_tiles=5"], 2),
]
BACKGAMMON = [([], 2), (["-force"], 2)]
VARIANTS = (
    [("druid", words, n) for words, n in DRUID]
    + [("drogo", words, n) for words, n in DROGO]
    + [("dragons", words, n) for words, n in DRAGONS]
    + [("backgammon", words, n) for words, n in BACKGAMMON]
)


def variant_id(variant: tuple[str, list[str], int]) -> str:
    game, words, n = variant
    return " ".join([game, *words, f"{n}p"])


def reachable(game: str, words: list[str], players: int, seed: int, plies: int) -> GameState:
    """A position after up to ``plies`` random moves (forced moves as the server makes them); Backgammon seats
    play manual mode so that roll/double and take/drop decisions come up too."""
    definition = registry.get(game)
    state = definition.new(definition.parse_options(words, players), [f"p{i}" for i in range(players)], seed)
    rng = Rng(seed)
    if game == "backgammon":
        for seat in range(2):
            state.push(state.parse_move("manual", seat))
    for _ in range(plies):
        if state.is_over:
            break
        forced = state.forced_move()
        if forced is None:
            moves = [m for m in state.legal_moves if str(m) not in ("greedy", "manual")]
            forced = rng.choice(moves)
        state.push(forced)
    return state


def check_answers(state: GameState, seed: int, seconds: float) -> None:
    """Every level's answer parses for the seat to move and can be played."""
    for level in ai.LEVELS:
        seat = state.to_move
        text = ai.player_for(level).choose(state, seat, seed=seed, max_seconds=seconds)
        move = state.parse_move(text, seat)
        trial = state.clone()
        if isinstance(move, Resign):
            trial.resign(seat)
        else:
            trial.push(move)


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_every_level_plays_a_legal_move(variant: tuple[str, list[str], int]) -> None:
    game, words, players = variant
    checked = 0
    for k, plies in enumerate((0, 7, 23)):
        state = reachable(game, words, players, seed=100 + k, plies=plies)
        if state.is_over:
            continue
        check_answers(state, seed=k, seconds=0.05)
        checked += 1
    assert checked >= 1


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_every_level_plays_a_legal_move_from_many_positions(variant: tuple[str, list[str], int]) -> None:
    game, words, players = variant
    rng = Rng(7)
    played = []
    for k in range(40):
        # a game over before the drawn ply count (Dragons often is) is looked at earlier, halving until it runs
        plies = rng.below(60)
        state = reachable(game, words, players, seed=1000 + k, plies=plies)
        while state.is_over:
            plies //= 2
            state = reachable(game, words, players, seed=1000 + k, plies=plies)
        check_answers(state, seed=k, seconds=0.05)
        played.append(plies)
    assert sum(plies > 0 for plies in played) >= 20


@pytest.mark.parametrize("game", ["druid", "drogo", "dragons", "backgammon"])
def test_the_same_seed_gives_the_same_choice(game: str) -> None:
    words = {"druid": ["-size=6"], "drogo": ["-size=5"]}.get(game, [])
    state = next(s for s in (reachable(game, words, 2, seed=k, plies=3) for k in range(3, 60)) if not s.is_over)
    for level in (1, 2):
        first = ai.choose_move(state, level, seed=42, max_seconds=30)
        again = ai.choose_move(state.clone(), level, seed=42, max_seconds=30)
        assert first == again


def test_different_move_numbers_draw_different_random_numbers() -> None:
    from ai.players import rng_for

    assert rng_for(1, 5, 1).random() == rng_for(1, 5, 1).random()
    assert rng_for(1, 5, 1).random() != rng_for(1, 6, 1).random()
    assert rng_for(1, 5, 1).random() != rng_for(2, 5, 1).random()


def test_names_of_computer_players() -> None:
    assert ai.is_ai("ai:1") and ai.is_ai("AI:3") and not ai.is_ai("ai:4") and not ai.is_ai("alice")
    assert [ai.level_of(f"ai:{n}") for n in (1, 2, 3)] == [1, 2, 3]
    assert ai.player_for(2).name == "ai:2"
    with pytest.raises(ValueError, match="not a computer player"):
        ai.level_of("bob")
    with pytest.raises(ValueError, match="does not exist"):
        ai.player_for(4)


def test_no_move_is_chosen_after_the_end() -> None:
    state = reachable("dragons", ["-num_tiles=3"], 2, seed=1, plies=10)
    assert state.is_over
    with pytest.raises(ValueError, match="game is over"):
        ai.choose_move(state, 1, seed=1)


def test_a_winning_move_is_found() -> None:
    """Druid 5x5: V has a column but one cell; every level completes it."""
    definition = registry.get("druid")
    state = definition.new(definition.parse_options(["-size=5"], 2), ["v", "h"], 1)
    for v, h in (("c1", "a1"), ("c2", "a2"), ("c3", "a3"), ("c4", "a4")):
        state.push(state.parse_move(v))
        state.push(state.parse_move(h))
    for level in ai.LEVELS:
        text = ai.choose_move(state, level, seed=1, max_seconds=30)
        trial = state.clone()
        trial.push(trial.parse_move(text))
        assert trial.outcome() is not None and trial.outcome().winners == (0,), (level, text)
