"""Money-play cube decisions from cubeless chances, by Janowski's interpolation (the method gnubg's own
"Janowski" cube model uses).

Given the win, gammon and backgammon chances of the player on roll, the average value of a win ``W`` and of a
loss ``L`` set the take point ``TP = (L - 1/2) / (W + L + x/2)`` and the cash point ``CP = (L + 1) / (W + L +
x/2)`` of a live cube; the cubeful equity is the cubeless equity blended (cube efficiency ``x``) with the
piecewise-linear live-cube equity through (0, -L), (TP, -1), (CP, +1), (1, W). All equities are per unit of
the current cube, from the doubler's side. The same numbers drive the computer's doubles and takes and the
analysis of human cube actions, so the AI never offers a double its own take rule would call a mistake.

In a match (:func:`match_view`) the same interpolation runs on match winning chances: every result's chance is read
from the match equity table (:mod:`ai.met`, Kazaross-XG2), so the score decides what a gammon, a drop or a take is
worth (the post-Crawford trailer doubles at once, the leader never; a cube that cannot matter is not turned).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from ai.met import winning_chance

#: cube efficiency of money play (0 dead cube, 1 fully live); gnubg's default for contact positions is 0.68
CUBE_LIFE = 0.68


@dataclass(frozen=True)
class CubeView:
    """What each cube action is worth to the player on roll (per current cube), and the right actions."""

    win: float
    gammon: float
    lose_gammon: float
    no_double: float
    double_take: float
    double_pass: float

    @property
    def should_double(self) -> bool:
        return min(self.double_take, self.double_pass) > self.no_double

    @property
    def should_take(self) -> bool:
        """From the opponent's side: taking costs less than passing."""
        return self.double_take < self.double_pass

    @property
    def too_good(self) -> bool:
        """Strong enough that playing on for a gammon beats cashing."""
        return self.no_double >= self.double_pass and self.double_take > self.double_pass


def cubeless_equity(probs: Sequence[float]) -> float:
    """gnubg's five chances (win, win gammon, win backgammon, lose gammon, lose backgammon) -> equity."""
    win, wg, wbg, lg, lbg = probs
    return 2 * win - 1 + wg - lg + wbg - lbg


def _live(p: float, points: list[tuple[float, float]]) -> float:
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        if p <= x1:
            return y0 + (y1 - y0) * (p - x0) / (x1 - x0) if x1 > x0 else y1
    return points[-1][1]


def view(probs: Sequence[float], owner: str = "centre", life: float = CUBE_LIFE) -> CubeView:
    """Cube equities of the player on roll with chances ``probs``; ``owner`` is ``centre`` or ``me`` (who owns
    the cube now)."""
    win, wg, wbg, lg, lbg = probs
    lose = 1 - win
    w_value = 1 + (wg + wbg) / win if win > 1e-9 else 1.0
    l_value = 1 + (lg + lbg) / lose if lose > 1e-9 else 1.0
    denominator = w_value + l_value + 0.5 * life
    take_point = (l_value - 0.5) / denominator
    cash_point = (l_value + 1) / denominator
    dead = cubeless_equity(probs)
    low, high = (0.0, -l_value), (1.0, w_value)
    centred = [low, (take_point, -1.0), (cash_point, 1.0), high]
    mine = [low, (cash_point, 1.0), high]
    theirs = [low, (take_point, -1.0), high]
    no_double = (1 - life) * dead + life * _live(win, centred if owner == "centre" else mine)
    taken = (1 - life) * dead + life * _live(win, theirs)
    return CubeView(win, wg, lg, no_double, 2 * taken, 1.0)


# ---- match play ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchScore:
    """A match as a cube decision needs it, from the side of the player the decision is about: the points each
    still needs (``me``, ``them``), and whether the Crawford game is behind (or the match has no Crawford rule)."""

    me: int
    them: int
    crawford_done: bool = False

    def chance(self, mine: int, theirs: int) -> float:
        """The match winning chance at the start of the next game, ``mine`` and ``theirs`` points away (see
        :func:`ai.met.winning_chance`: a player 1 away before the Crawford game plays it next)."""
        return winning_chance(mine, theirs, crawford_done=self.crawford_done)

    def results(self, probs: Sequence[float], cube: int) -> tuple[float, float, float, float]:
        """At a cube of ``cube``: the average match winning chance after a win and after a loss (gammons and
        backgammons by their chances), and after a single win and a single loss."""
        win, wg, wbg, lg, lbg = probs
        lose = 1 - win
        wins = [self.chance(self.me - k * cube, self.them) for k in (1, 2, 3)]
        losses = [self.chance(self.me, self.them - k * cube) for k in (1, 2, 3)]
        w_avg = (wins[0] * (win - wg) + wins[1] * (wg - wbg) + wins[2] * wbg) / win if win > 1e-9 else wins[0]
        l_avg = (
            (losses[0] * (lose - lg) + losses[1] * (lg - lbg) + losses[2] * lbg) / lose if lose > 1e-9 else losses[0]
        )
        return w_avg, l_avg, wins[0], losses[0]

    def dead(self, probs: Sequence[float], cube: int) -> float:
        """The match winning chance if the game is played out at ``cube`` with nobody doubling again."""
        w_avg, l_avg, _, _ = self.results(probs, cube)
        return probs[0] * w_avg + (1 - probs[0]) * l_avg

    def point_value(self) -> float:
        """Half the match winning chances between winning and losing one point now: what one point of money
        equity is worth at this score, to put losses in match winning chances on gnubg's usual scale."""
        return max(1e-6, (self.chance(self.me - 1, self.them) - self.chance(self.me, self.them - 1)) / 2)


def _janowski_points(score: MatchScore, probs: Sequence[float], cube: int, life: float) -> tuple[float, float]:
    """Janowski's take and cash points at a cube level, from the average win and loss measured in that level's
    single points (the match equity table's chances put on a money-like scale: a single win +1, a loss -1)."""
    w_avg, l_avg, single_win, single_loss = score.results(probs, cube)
    mid, half = (single_win + single_loss) / 2, max(1e-9, (single_win - single_loss) / 2)
    win_value, loss_value = (w_avg - mid) / half, (mid - l_avg) / half
    denominator = max(1e-9, win_value + loss_value + 0.5 * life)
    take_point = min(1.0, max(0.0, (loss_value - 0.5) / denominator))
    cash_point = min(1.0, max(take_point, (loss_value + 1) / denominator))
    return take_point, cash_point


def match_view(
    probs: Sequence[float], score: MatchScore, cube: int, owner: str = "centre", life: float = CUBE_LIFE
) -> CubeView:
    """Cube actions of the player on roll with chances ``probs`` at a match score, in match winning chances (the
    fields of :class:`CubeView` then hold chances, not money equity: the comparisons read the same). Janowski's
    model carried over to match play: at each cube level the match equity table's chances after every result are
    put on a money-like scale (a single win +1, a single loss -1), which gives that level's take and cash points as
    in money play; each action's dead-cube chance is blended with the live cube's line through them. Where
    doubling can change no result (double match point, a cube past what either player needs) the cube is dead."""
    win = probs[0]
    now, up = score.results(probs, cube), score.results(probs, 2 * cube)
    if now == up:
        life = 0.0  # nothing the cube does changes a result: it has no value, live or dead
    w_now, l_now, cash, lose_cube = now
    w_up, l_up, _, lose_up = up
    take_point, cash_point = _janowski_points(score, probs, cube, life)
    if owner == "me":
        curve = [(0.0, l_now), (cash_point, cash), (1.0, w_now)]
    else:
        curve = [(0.0, l_now), (take_point, lose_cube), (cash_point, cash), (1.0, w_now)]
    no_double = (1 - life) * score.dead(probs, cube) + life * _live(win, curve)
    # after a take the opponent owns the cube at twice the value and may redouble: my take point there
    redouble_take, _ = _janowski_points(score, probs, 2 * cube, life)
    taken_curve = [(0.0, l_up), (redouble_take, lose_up), (1.0, w_up)]
    double_take = (1 - life) * score.dead(probs, 2 * cube) + life * _live(win, taken_curve)
    return CubeView(win, probs[1], probs[3], no_double, double_take, cash)
