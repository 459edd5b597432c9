"""The backgammon player: GNU Backgammon's nets through ``gnubg-nn`` when installed, else :mod:`ai.bgeval`.

Levels with gnubg-nn: 1 plays gnubg's 0-ply choice among plays whose equity carries noise (a standard deviation
of 0.15: it misses close decisions and some clear ones, like a casual player), 2 plays gnubg's 0-ply best, 3 gnubg's
2-ply best, whatever the time. Without gnubg-nn the same levels use the hand-built evaluator:
noisy, plain, and a one-roll look-ahead over the best few plays.

Every command the rules ask of a player at its turn is answered: before rolling (manual mode) ``roll`` or
``double``, when doubled ``take`` or ``drop``, then the play. Cube actions follow :mod:`ai.cube` (money play)
and come with a reason, e.g. ``doubles: 71% to win``; in a match they weigh every result by the match score
(:func:`ai.cube.match_view`, the Kazaross-XG2 match equity table of :mod:`ai.met`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from ai import Decision, bgeval
from ai.cube import CubeView, MatchScore, match_view, view
from rules.backgammon.movegen import BAR, generate, unpack

try:
    import gnubg_nn
except ImportError:  # the fallback evaluator keeps every install playable
    gnubg_nn = None

#: equity noise of level 1 (standard deviation), chosen by seeded matches: with 0.06, 0-ply beat level 1 in only
#: 56% of games (level 3 in 60%), too close to tell the levels apart; with 0.15 0-ply wins 81% and level 1 still
#: beats random play in >99% (BENCHMARKS.md, "AI strength")
NOISE = 0.15
#: plays the fallback look-ahead of level 3 examines
LOOKAHEAD_PLAYS = 4
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def has_gnubg() -> bool:
    return gnubg_nn is not None


def sides(state: Any, seat: int) -> tuple[list[int], list[int]]:
    """(own side, opponent side), each in its own frame, of ``seat``."""
    colour = state.colour[seat]
    return list(state.points[colour]), list(state.points[1 - colour])


def gnubg_board(me: list[int], opp: list[int]) -> list[list[int]]:
    """Our own-frame sides -> gnubg's board: [opponent, player on roll], index i = pip i + 1 (24 = bar)."""
    return [list(opp[1:26]), list(me[1:26])]


def after_play(me: list[int], opp: list[int], key: int) -> tuple[list[int], list[int]]:
    """Both sides after the play with position key ``key`` (hit checkers moved to the opponent's bar)."""
    after, hits = unpack(key)
    theirs = list(opp)
    for pip in range(1, 25):
        if hits >> pip & 1:
            theirs[25 - pip] -= 1
            theirs[BAR] += 1
    return after, theirs


def on_roll_chances(state: Any, seat: int, ply: int) -> tuple[float, float, float, float, float]:
    """Chances of ``seat`` as the player about to roll."""
    me, opp = sides(state, seat)
    if gnubg_nn is not None:
        return tuple(gnubg_nn.probabilities(gnubg_board(me, opp), ply))
    win, wg, wbg, lg, lbg = bgeval.probabilities(opp, me)
    return (1 - win, lg, lbg, wg, wbg)


def match_score(state: Any, seat: int) -> MatchScore | None:
    """The match score from ``seat``'s side (``None`` in a money game)."""
    match = getattr(state, "match", None)
    if match is None:
        return None
    return MatchScore(match.away(seat), match.away(1 - seat), match.post_crawford or not match.rule)


def cube_view(state: Any, seat: int, level: int) -> CubeView:
    """Cube values of ``seat`` on roll, in money equity, or in a match in match winning chances (by the match
    equity table, :func:`ai.cube.match_view`); the ply grows with the level."""
    return cube_view_at(state, seat, 1 if level >= 3 else 0)


def cube_view_at(state: Any, seat: int, ply: int) -> CubeView:
    """:func:`cube_view` with the evaluator's ply given."""
    owner = "centre" if state.cube_owner is None else "me"
    chances = on_roll_chances(state, seat, ply)
    score = match_score(state, seat)
    if score is not None:
        return match_view(chances, score, state.cube, owner)
    return view(chances, owner)


def _percent(value: float) -> str:
    return f"{round(100 * value)}%"


def double_decision(cube: CubeView) -> Decision:
    chances = f"{_percent(cube.win)} to win"
    if cube.gammon >= 0.05:
        chances += f", {_percent(cube.gammon)} gammons"
    if cube.should_double and not cube.too_good:
        return Decision("double", f"doubles: {chances}")
    if cube.too_good:
        return Decision("roll", f"plays on for a gammon, too good to double: {chances}")
    return Decision("roll", f"rolls: {chances}, not enough to double")


def answer_decision(doubler: CubeView) -> Decision:
    mine = 1 - doubler.win
    if doubler.should_take:
        return Decision("take", f"takes: {_percent(mine)} to win")
    return Decision("drop", f"drops: only {_percent(mine)} to win")


def decide_backgammon(
    state: Any, level: int, rng: random.Random, deadline: float, timer: Callable[[], float] = time.monotonic
) -> Decision:
    """The level's answer to whatever the rules ask now; ``deadline`` (a ``timer()`` value) only guards the
    fallback's look-ahead (a gnubg evaluation, under a second, is never cut)."""
    seat = state.to_move
    if state.phase == "answer":
        return answer_decision(cube_view(state, state.turn, level))
    if state.phase == "decide":
        return double_decision(cube_view(state, seat, level))
    forced = state.forced_move()
    if forced is not None:
        return Decision(state.move_text(forced), "the only play")
    plays = state.plays()
    me, opp = sides(state, seat)
    if gnubg_nn is not None:
        return Decision(state.move_text(plays[_gnubg_play(state, me, opp, level, rng)]))
    key, cut = _fallback_play(state, me, opp, level, rng, deadline, timer)
    return Decision(state.move_text(plays[key]), cut=cut)


def gnubg_keys(state: Any, me: list[int], opp: list[int]) -> dict[str, int]:
    """gnubg position key of each legal play's result -> our play key."""
    return {gnubg_nn.key_of_board(gnubg_board(*after_play(me, opp, key))): key for key in state.plays()}


def ranked(me: list[int], opp: list[int], dice: tuple[int, ...], ply: int) -> list[tuple[str, float]]:
    """gnubg's ranked plays at ``ply``: (gnubg key of the result, equity for the mover), best first."""
    _, entries = gnubg_nn.best_move(gnubg_board(me, opp), dice[0], dice[1], n=ply, list=1)
    out = []
    for entry in entries:
        # gnubg lists each result from the side of the opponent, now on roll: [mover, opponent]
        mover, opponent = gnubg_nn.board_from_position_key(entry[0])
        out.append((gnubg_nn.key_of_board([list(opponent), list(mover)]), float(entry[3])))
    return out


def _gnubg_play(state: Any, me: list[int], opp: list[int], level: int, rng: random.Random) -> int:
    """gnubg's play at the level's ply: 0-ply with noise, 0-ply, 2-ply. The ply never depends on the time: a
    2-ply evaluation cost 71 ms of CPU on average and 0.85 s at worst over 2,997 positions of random games here,
    far below level 3's net."""
    keys = gnubg_keys(state, me, opp)
    if level == 1:
        options = ranked(me, opp, state.dice, 0)
        return keys[max(options, key=lambda item: item[1] + rng.gauss(0.0, NOISE))[0]]
    return keys[ranked(me, opp, state.dice, 2 if level >= 3 else 0)[0][0]]


def _fallback_play(
    state: Any,
    me: list[int],
    opp: list[int],
    level: int,
    rng: random.Random,
    deadline: float,
    timer: Callable[[], float],
) -> tuple[int, bool]:
    """The hand-built evaluator's play, and whether the net cut level 3's look-ahead short."""
    scores = {key: bgeval.equity(*after_play(me, opp, key)) for key in state.plays()}
    if level == 1:
        return max(scores, key=lambda key: scores[key] + rng.gauss(0.0, NOISE)), False
    best = sorted(scores, key=lambda key: -scores[key])
    if level == 2:
        return best[0], False
    looked: dict[int, float] = {}
    for key in best[:LOOKAHEAD_PLAYS]:
        if looked and timer() > deadline:
            return max(looked, key=lambda key: looked[key]), True
        looked[key] = _one_roll(*after_play(me, opp, key))
    return max(looked, key=lambda key: looked[key]), False


def _one_roll(me: list[int], opp: list[int]) -> float:
    """Our equity after the opponent's best reply (by the evaluator), averaged over its 21 rolls."""
    total = 0.0
    for d1, d2 in ROLLS:
        weight = 1 if d1 == d2 else 2
        replies = generate(list(opp), me, d1, d2)
        if not replies:
            value = bgeval.equity(me, opp)
        else:
            value = -max(bgeval.equity(*after_play(opp, me, key)) for key in replies)
        total += weight * value
    return total / 36
