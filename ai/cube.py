"""Money-play cube decisions from cubeless chances, by Janowski's interpolation (the method gnubg's own
"Janowski" cube model uses).

Given the win, gammon and backgammon chances of the player on roll, the average value of a win ``W`` and of a
loss ``L`` set the take point ``TP = (L - 1/2) / (W + L + x/2)`` and the cash point ``CP = (L + 1) / (W + L +
x/2)`` of a live cube; the cubeful equity is the cubeless equity blended (cube efficiency ``x``) with the
piecewise-linear live-cube equity through (0, -L), (TP, -1), (CP, +1), (1, W). All equities are per unit of
the current cube, from the doubler's side. The same numbers drive the computer's doubles and takes and the
analysis of human cube actions, so the AI never offers a double its own take rule would call a mistake.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

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
