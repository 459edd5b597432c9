"""A small hand-built backgammon evaluator, so that every install has an opponent without gnubg-nn.

It scores a position for the side that has just moved (the opponent is on roll) as a weighted sum of plain
terms, every weight written below, and maps the sum to a winning chance with a logistic:

* the race: pip lead, scaled by the length of the race (the 8-9% rule of thumb);
* safety: own blots the opponent can hit, weighted by direct (1-6 away) and indirect (7-12) shots, more
  when the blot is deep in our side of the board (a hit costs more pips);
* structure: made points, more for home-board points and the 4-7 points, and the longest prime;
* the bar: checkers on either bar, and anchors in the opponent's home board;
* bearing off: checkers already off.

Gammon chances come from the race alone: a side far behind with nothing borne off in a long race is likely to
lose a gammon. Sides are lists of 26 counts in their own frames (pip 25 the bar, 0 borne off).
"""

from __future__ import annotations

import math

BAR = 25
W_RACE = 3.0  # per fraction of the race length that the pip lead amounts to
W_DIRECT = 0.055  # per direct shot at a blot, times the blot's depth factor
W_INDIRECT = 0.02  # per indirect shot
W_POINT = 0.06  # per made point
W_HOME_POINT = 0.09  # extra per made point in our home board (pips 1-6)
W_GOLDEN = 0.06  # extra for the 4-7 points (pips 4-7)
W_PRIME = 0.07  # per point of the longest prime beyond one
W_BAR_THEM = 0.22  # per opponent checker on the bar
W_BAR_US = 0.18  # per own checker on the bar
W_ANCHOR = 0.08  # per anchor (point held) in the opponent's home board (our pips 19-24)
W_OFF = 0.02  # per checker borne off
W_ON_ROLL = 0.18  # the opponent rolls next: their tempo


def pips(side: list[int]) -> int:
    return sum(pip * side[pip] for pip in range(1, 26))


def _shots(me: list[int], opp: list[int]) -> float:
    """Weighted shots the opponent has at our blots: for a blot on our pip p the opponent's checker on its pip q
    is ``q - (25 - p)`` pips away."""
    total = 0.0
    for pip in range(1, 25):
        if me[pip] != 1:
            continue
        theirs = 25 - pip
        depth = 0.5 + (25 - pip) / 24  # a hit deep in our home costs little, far out costs a lot
        for q in range(theirs + 1, 26):
            if not opp[q]:
                continue
            distance = q - theirs
            if distance <= 6:
                total += W_DIRECT * depth
            elif distance <= 12:
                total += W_INDIRECT * depth
    return total


def _structure(side: list[int]) -> float:
    score, run, best = 0.0, 0, 0
    for pip in range(1, 25):
        if side[pip] >= 2:
            score += W_POINT + (W_HOME_POINT if pip <= 6 else 0.0) + (W_GOLDEN if 4 <= pip <= 7 else 0.0)
            run += 1
            best = max(best, run)
        else:
            run = 0
    return score + W_PRIME * max(0, best - 1)


def contact(me: list[int], opp: list[int]) -> bool:
    """Whether any of our checkers still has to pass an opponent checker."""
    my_back = max((pip for pip in range(1, 26) if me[pip]), default=0)
    their_back = max((pip for pip in range(1, 26) if opp[pip]), default=0)
    return my_back + their_back > 25


def probabilities(me: list[int], opp: list[int]) -> tuple[float, float, float, float, float]:
    """gnubg-style chances (win, win gammon, win backgammon, lose gammon, lose backgammon) of the side that
    has just moved, the opponent being on roll."""
    if me[0] == 15:
        return (1.0, 1.0 if opp[0] == 0 else 0.0, 0.0, 0.0, 0.0)
    mine, theirs = pips(me), pips(opp)
    race_length = max(20.0, (mine + theirs) / 2)
    lead = (theirs - mine) / race_length
    score = W_RACE * lead - W_ON_ROLL
    if contact(me, opp):
        score += _structure(me) - _structure(opp) - _shots(me, opp)
        score += W_BAR_THEM * opp[BAR] - W_BAR_US * me[BAR]
        score += W_ANCHOR * sum(1 for pip in range(19, 25) if me[pip] >= 2)
    score += W_OFF * (me[0] - opp[0])
    win = 1 / (1 + math.exp(-score * 2.2))
    win = min(0.999, max(0.001, win))
    gammon = _gammon_chance(theirs - mine, opp[0]) * win
    lose_gammon = _gammon_chance(mine - theirs, me[0]) * (1 - win)
    return (win, gammon, 0.0, lose_gammon, 0.0)


def _gammon_chance(lead: int, loser_off: int) -> float:
    """Chance that a loser with ``loser_off`` checkers off, ``lead`` pips behind, loses a gammon."""
    if loser_off:
        return 0.0
    return min(0.6, max(0.0, (lead - 20) / 100))


def equity(me: list[int], opp: list[int]) -> float:
    win, wg, wbg, lg, lbg = probabilities(me, opp)
    return 2 * win - 1 + wg - lg + wbg - lbg
