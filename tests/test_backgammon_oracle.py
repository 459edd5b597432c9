"""Proofs against an independent engine and over many games: GNU Backgammon's move generator (``gnubg_nn``)
must list exactly our set of legal resulting positions; seeded self-play keeps every invariant; the dice are fair.

The default run uses small samples; ``-m slow`` runs the same code on the sizes the issue asks for.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator

import gnubg_nn
import pytest

from rules.backgammon import GAME, BackgammonState, NoMove, Play
from rules.backgammon.movegen import BAR, OFF, generate, unpack
from rules.base import Resign
from rules.rng import Rng

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def gnubg_board(me: list[int], opp: list[int]) -> list[list[int]]:
    """Our two own-frame sides -> gnubg's [opponent, player on roll] with index i = pip i + 1 (24 = bar)."""
    return [list(opp[1:26]), list(me[1:26])]


def our_results(me: list[int], opp: list[int], d1: int, d2: int) -> set[str]:
    """Our resulting positions as gnubg position keys (the mover stays on roll in gnubg's result boards)."""
    out = set()
    for key in generate(list(me), opp, d1, d2):
        after, hits = unpack(key)
        theirs = list(opp)
        for pip in range(1, 25):
            if (hits >> pip) & 1:
                theirs[25 - pip] -= 1
                theirs[BAR] += 1
        out.add(gnubg_nn.key_of_board(gnubg_board(after, theirs)))
    return out


def gnubg_results(me: list[int], opp: list[int], d1: int, d2: int) -> set[str]:
    return set(gnubg_nn.moves(gnubg_board(me, opp), d1, d2))


def random_positions(count: int, seed: int) -> Iterator[tuple[list[int], list[int]]]:
    """Positions reached by seeded self-play, each as (side on roll, opponent) in own frames. Every other game
    both sides build points greedily, which makes primes (blocked boards) common instead of rare."""
    rnd = random.Random(seed)
    produced = 0
    game = 0
    while True:
        state = GAME.new({"force": False}, ["a", "b"], seed * 100_003 + game)
        builder = game % 2 == 1
        game += 1
        while not state.is_over:
            if state.phase == "move":
                colour = state.colour[state.turn]
                yield list(state.points[colour]), list(state.points[1 - colour])
                produced += 1
                if produced >= count:
                    return
            if builder and state.phase == "move" and state.forced_move() is None:
                state.push(max(state.plays().items(), key=lambda item: (made_points(item[0]), rnd.random()))[1])
            else:
                play_random(state, rnd)


def made_points(key: int) -> int:
    """How many points (two or more checkers) the mover holds after a play."""
    return sum(count >= 2 for count in unpack(key)[0][1:25])


def play_random(state: BackgammonState, rnd: random.Random) -> None:
    """One server step: the forced move if there is one, else a random legal play."""
    forced = state.forced_move()
    if forced is not None:
        state.push(forced)
        return
    plays = list(state.plays().values())
    state.push(rnd.choice(plays))


def is_prime(opp: list[int]) -> bool:
    """The opponent holds four or more consecutive points: a heavily blocked board."""
    run = 0
    for pip in range(1, 25):
        run = run + 1 if opp[pip] >= 2 else 0
        if run >= 4:
            return True
    return False


def differential(positions: int, seed: int) -> Counter:
    """Compare every roll on ``positions`` random positions; returns counts per category."""
    seen: Counter = Counter()
    for me, opp in random_positions(positions, seed):
        for d1, d2 in ROLLS:
            ours = our_results(me, opp, d1, d2)
            theirs = gnubg_results(me, opp, d1, d2)
            if not ours:
                unchanged = gnubg_nn.key_of_board(gnubg_board(me, opp))
                assert theirs <= {unchanged}, (me, opp, d1, d2)
                seen["no play"] += 1
            else:
                assert ours == theirs, (me, opp, d1, d2, sorted(ours ^ theirs))
            seen["pairs"] += 1
            seen["doubles"] += d1 == d2
            seen["bar"] += me[BAR] > 0
            seen["bear-off"] += not any(me[7:26])
            seen["blocked"] += is_prime(opp)
    return seen


def test_gnubg_agrees_on_a_few_hundred_positions() -> None:
    seen = differential(40, seed=1)
    assert seen["pairs"] == 40 * 21
    assert seen["doubles"] == 40 * 6


@pytest.mark.slow
def test_gnubg_agrees_on_twenty_thousand_positions() -> None:
    seen = differential(2000, seed=2)
    print(dict(seen))
    assert seen["pairs"] >= 20_000
    for category in ("doubles", "bar", "bear-off", "blocked", "no play"):
        assert seen[category] >= 500, category


def test_gnubg_agrees_on_hand_made_corner_cases() -> None:
    cases = [
        # two on the bar against a five-point board: only the open point can be entered
        ({"bar": 2, 12: 13}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5}, "X"),
        # bear-off with a gap: larger dice remove the farthest checker
        ({19: 1, 22: 3, 24: 2}, {6: 5, 8: 10}, "X"),
        # a full prime in front of one back checker
        ({1: 1, 12: 14}, {2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 2, 13: 3}, "X"),
        # blots everywhere: hits along compound paths
        ({1: 1, 3: 1, 5: 1, 7: 1, 9: 1, 12: 10}, {2: 1, 4: 1, 6: 1, 8: 1, 10: 1, 13: 10}, "O"),
    ]
    for x, o, mover in cases:
        state = BackgammonState.from_points(["a", "b"], x, o, (1, 2), mover)
        colour = 0 if mover == "X" else 1
        me, opp = state.points[colour], state.points[1 - colour]
        for d1, d2 in ROLLS:
            ours = our_results(me, opp, d1, d2)
            theirs = gnubg_results(me, opp, d1, d2)
            assert ours == theirs or (not ours and theirs <= {gnubg_nn.key_of_board(gnubg_board(me, opp))})


# ----------------------------------------------------------------------------------------------------------------
# Self-play


def self_play(games: int, seed: int) -> Counter:
    """Random games through the public API with every invariant checked at every step."""
    rnd = random.Random(seed)
    seen: Counter = Counter()
    for game in range(games):
        state = GAME.new(GAME.parse_options([], 2), ["alice", "bob"], seed * 1_000_003 + game)
        if rnd.random() < 0.3:
            state.push(state.parse_move("greedy", 0))
            state.push(state.parse_move("greedy", 1))
        steps = 0
        while not state.is_over:
            play_random(state, rnd)
            steps += 1
            assert steps < 2000
            for colour in (0, 1):
                assert sum(state.points[colour]) == 15
                assert min(state.points[colour]) >= 0
            for point in range(1, 25):
                assert not (state.points[0][25 - point] and state.points[1][point])
            if steps % 7 == 0:
                data = json.loads(json.dumps(state.to_json()))
                assert GAME.load(data) == state
        outcome = state.outcome()
        assert outcome is not None and len(outcome.winners) == 1
        winner = outcome.winners[0]
        assert state.points[state.colour[winner]][OFF] == 15
        seen[outcome.points] += 1
        seen["plies"] += state.ply
    return seen


def test_fifty_random_games_keep_every_invariant() -> None:
    seen = self_play(50, seed=3)
    assert seen[1] + seen[2] + seen[3] == 50
    assert seen[2] > 0


@pytest.mark.slow
def test_ten_thousand_random_games_keep_every_invariant() -> None:
    seen = self_play(10_000, seed=4)
    print(dict(seen))
    assert seen[1] + seen[2] + seen[3] == 10_000


def test_a_replayed_move_list_gives_the_same_game() -> None:
    """What the history stores (canonical texts, by seat) replays to the same state from the seed."""
    rnd = random.Random(5)
    state = GAME.new({"force": False}, ["alice", "bob"], 77)
    log: list[tuple[int, str]] = []
    while not state.is_over:
        seat = state.to_move
        forced = state.forced_move()
        move = forced if forced is not None else rnd.choice(list(state.plays().values()))
        log.append((seat, state.move_text(move)))
        state.push(move)
    replay = GAME.new({"force": False}, ["alice", "bob"], 77)
    for seat, text in log:
        move = replay.parse_move(text, seat)
        assert not isinstance(move, Resign)
        replay.push(move)
    assert replay == state


def test_every_legal_play_reads_back_from_its_text() -> None:
    rnd = random.Random(6)
    checked = 0
    for game in range(3):
        state = GAME.new({"force": False}, ["a", "b"], 500 + game)
        while not state.is_over:
            if state.phase == "move" and state.plays():
                for play in state.plays().values():
                    assert state.parse_move(str(play)) == play
                    assert play in state.legal_moves
                    checked += 1
            play_random(state, rnd)
    assert checked > 1000


def test_no_move_is_only_offered_when_nothing_can_be_played() -> None:
    state = BackgammonState.from_points(
        ["a", "b"], {"bar": 1, 12: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, (6, 5), "X"
    )
    assert state.forced_move() == NoMove()
    assert not any(isinstance(move, Play) for move in state.legal_moves)


# ----------------------------------------------------------------------------------------------------------------
# Dice


def chi_square(counts: list[int]) -> float:
    expected = sum(counts) / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


def test_dice_are_fair() -> None:
    """60,000 seeded dice: chi-square with 5 degrees of freedom below 20.5 (p = 0.001)."""
    rng = Rng(2026)
    counts = [0] * 6
    for _ in range(60_000):
        counts[rng.die() - 1] += 1
    assert chi_square(counts) < 20.5


def test_rolls_during_games_are_fair() -> None:
    """The 36 ordered pairs rolled by the engine itself: chi-square with 35 degrees of freedom below 66.6."""
    counts = Counter()
    for seed in range(120):
        state = GAME.new({"force": False}, ["a", "b"], seed)
        rnd = random.Random(seed)
        while not state.is_over:
            if state.phase == "move":
                counts[state.dice] += 1
            play_random(state, rnd)
    assert chi_square([counts[(a, b)] for a in range(1, 7) for b in range(1, 7)]) < 66.6


def test_the_opening_roll_never_ties_and_the_higher_die_plays_o() -> None:
    for seed in range(3000):
        for force in (False, True):
            state = GAME.new({"force": force}, ["first", "second"], seed)
            first, second = state.opening[-1]
            assert first != second
            assert all(a == b for a, b in state.opening[:-1])
            o_seat = 0 if force else (0 if first > second else 1)
            assert state.colour[o_seat] == 1 and state.turn == o_seat
            assert sorted(state.dice) == sorted((first, second))
