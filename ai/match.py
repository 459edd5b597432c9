"""``python -m ai.match GAME [-option ...] PLAYER PLAYER [...] [--games N] [--seed S] [--jobs J] [--seconds X]
[--fallback] [--duplicate] [--progress]``

Plays seeded games between computer players (``ai:1``, ``ai:2``, ``ai:3``) and/or ``random`` (a uniformly
random legal move), rotating the seats from game to game, and prints each player's score (a win counts 1, a
draw an equal share) with a 95% Wilson interval. Backgammon also reports the share of points won (cube and
gammons included) and turns manual mode on for computer seats, so that they can use the cube; ``--fallback``
makes the computer seats use the hand-built evaluator instead of gnubg-nn; ``--duplicate`` plays each rotation of
the seats on one game seed (the same dice in Backgammon, each player rolling in turn what the other rolled), which
takes much of the luck out of a comparison of close players; ``--progress`` reports on standard error as the games
finish.

Example: ``python -m ai.match druid -size=8 ai:3 ai:1 --games 200 --jobs 2``
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import ai
from rules import registry
from rules.base import GameError, Resign
from rules.rng import Rng

RANDOM = "random"


@dataclass(frozen=True)
class Setup:
    game: str
    options: tuple[str, ...]
    players: tuple[str, ...]
    seed: int
    seconds: float | None
    fallback: bool = False
    duplicate: bool = False


@dataclass(frozen=True)
class Result:
    """One game: per entrant (in the order given on the command line) the score share and the points won."""

    shares: tuple[float, ...]
    points: tuple[int, ...]
    plies: int
    seconds: float


def check_player(name: str) -> str:
    if name == RANDOM or ai.is_ai(name):
        return name
    raise ValueError(f"unknown player {name!r}: use ai:1, ai:2, ai:3 or random")


def random_text(state, rng: Rng) -> str:
    """A uniformly random legal move (mode switches aside), as text."""
    moves = [m for m in state.legal_moves if str(m) not in ("greedy", "manual")]
    return state.move_text(rng.choice(moves))


def game_seed(setup: Setup, index: int) -> int:
    """The seed of game ``index``: its own, or with ``duplicate`` the one its whole rotation of seats shares."""
    n = len(setup.players)
    return setup.seed * 1_000_003 + (index // n if setup.duplicate else index)


def play_one(setup: Setup, index: int) -> Result:
    """Game ``index``: entrant ``k`` sits in seat ``(k + index) % n``."""
    started = time.perf_counter()
    if setup.fallback:
        from ai import backgammon

        backgammon.gnubg_nn = None
    game = registry.get(setup.game)
    n = len(setup.players)
    seating = [setup.players[(seat - index) % n] for seat in range(n)]
    options = game.parse_options(list(setup.options), n)
    seed = game_seed(setup, index)
    state = game.new(options, [f"{name}#{seat}" for seat, name in enumerate(seating)], seed)
    if setup.game == "backgammon":
        for seat, name in enumerate(seating):
            if ai.is_ai(name):
                state.push(state.parse_move("manual", seat))
    rng = Rng(seed ^ 0x5EED)
    while not state.is_over:
        forced = state.forced_move()
        if forced is not None:
            state.push(forced)
            continue
        seat = state.to_move
        name = seating[seat]
        if name == RANDOM:
            text = random_text(state, rng)
        else:
            text = ai.choose_move(state, ai.level_of(name), seed=seed, max_seconds=setup.seconds)
        move = state.parse_move(text, seat)
        if isinstance(move, Resign):
            state.resign(seat)
        else:
            state.push(move)
    outcome = state.outcome()
    shares = [0.0] * n
    points = [0] * n
    winners = outcome.winners if outcome else ()
    for seat in range(n):
        entrant = (seat - index) % n
        if winners:
            shares[entrant] = 1.0 / len(winners) if seat in winners else 0.0
            points[entrant] = outcome.points if seat in winners else 0
        else:
            shares[entrant] = 1.0 / n
    return Result(tuple(shares), tuple(points), state.ply, time.perf_counter() - started)


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (draws count as half successes)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def run(setup: Setup, games: int, jobs: int, progress: bool = False) -> list[Result]:
    """``games`` games, ``jobs`` at a time; with ``progress``, a line on standard error every tenth of the way
    (a 200-game match between strong levels runs for many minutes)."""
    if jobs <= 1:
        results = (play_one(setup, i) for i in range(games))
        return list(_reporting(results, games, progress))
    with ProcessPoolExecutor(jobs) as pool:
        return list(_reporting(pool.map(play_one, [setup] * games, range(games), chunksize=1), games, progress))


def _reporting(results: Iterable[Result], games: int, progress: bool) -> Iterator[Result]:
    step = max(1, games // 10)
    started = time.perf_counter()
    for done, result in enumerate(results, 1):
        if progress and (done % step == 0 or done == games):
            print(f"  {done}/{games} games, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
        yield result


def report(setup: Setup, results: list[Result]) -> str:
    games = len(results)
    flags = [flag for flag, on in (("--fallback", setup.fallback), ("--duplicate", setup.duplicate)) if on]
    title = " ".join([setup.game, *setup.options, *setup.players, *flags])
    lines = [f"{title}: {games} games, seed {setup.seed}"]
    for k, name in enumerate(setup.players):
        score = sum(r.shares[k] for r in results)
        low, high = wilson(score, games)
        wins = sum(1 for r in results if r.shares[k] == 1.0)
        line = f"  {name:<7} score {score:g}/{games} = {score / games:.1%} (95% {low:.1%}-{high:.1%}), wins {wins}"
        if setup.game == "backgammon":
            won = sum(r.points[k] for r in results)
            total = sum(sum(r.points) for r in results) or 1
            line += f", points {won}/{total} = {won / total:.1%}"
        lines.append(line)
    plies = sum(r.plies for r in results) / max(1, games)
    seconds = sum(r.seconds for r in results) / max(1, games)
    lines.append(f"  average {plies:.0f} moves and {seconds:.1f} s per game")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if args else 2
    flags = {"--games": 20, "--seed": 1, "--jobs": 1, "--seconds": None}
    fallback = "--fallback" in args
    duplicate = "--duplicate" in args
    progress = "--progress" in args
    args = [word for word in args if word not in ("--fallback", "--duplicate", "--progress")]
    options: list[str] = []
    players: list[str] = []
    game_name = args.pop(0)
    try:
        registry.get(game_name)
        while args:
            word = args.pop(0)
            if word in flags:
                if not args:
                    raise ValueError(f"{word} needs a value")
                value = args.pop(0)
                flags[word] = float(value) if word == "--seconds" else int(value)
            elif word.startswith("-"):
                options.append(word)
            else:
                players.append(check_player(word.lower()))
        if len(players) < 2:
            raise ValueError("name at least two players, like ai:3 ai:1")
        seed, seconds = int(flags["--seed"]), flags["--seconds"]
        setup = Setup(game_name.lower(), tuple(options), tuple(players), seed, seconds, fallback, duplicate)
        registry.get(setup.game).parse_options(options, len(players))
    except (GameError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    results = run(setup, int(flags["--games"]), int(flags["--jobs"]), progress)
    print(report(setup, results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
