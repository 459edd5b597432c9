"""Drogo for the tree search: playouts cut short and scored by an evaluation.

Drogo games run to hundreds of placements (the 4 x size^3 cap ends most), so a playout plays only a few
placements with a light policy and then scores the board. The policy is *capture-avoiding*: it draws a few
random legal placements (``rules.drogo.random_move``; three at levels 1 and 2, six at level 3) and keeps the one
whose pieces land beside the most empty ground (breathing room, so the group is hard to surround), counting a
landing on an enemy stack as a gain of that stack. The evaluation counts each player's owned height, discounting
groups left with a single breathing cell (likely to be captured), and turns the margins into shares with a
logistic.

Level 3 also sees captures: it counts the pieces a placement captures in the order the tree tries moves and in
the playout policy, and in its evaluation a group with one breathing cell is worth nothing unless its owner is to
move (the player to move takes it with one piece). Levels 1 and 2 do without: more playouts of the captures-blind
judgement did not make a stronger player (level 3 at 100 playouts scored 69.5% against level 1, level 2 at 30
scored 73.2%), while the tree's widening tries only the best-ranked moves, so a capture ranked by breathing room
alone was rarely looked at. Ranking the root's moves by the margin they leave one placement later did not help
(80.0% against 81.2% in the same 40 games), and searching only the best of them hurt (57.5%), likely because a
one-placement margin favours building over enemy stacks, which the opponent builds over again.

Level 3's playouts are also shorter and choosier: two placements, each the best of six draws, scored by the
sharper evaluation. Four placements of three draws each mostly added noise: in the same 40 games against level 1,
two placements scored 88.8% both with 200 playouts of three draws and with 150 of six (81.2% before); the second
costs less and is kept. Level 3 also knows how to end a won game (``DrogoModel.screen``): no playout this short
sees the cap coming.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from rules.drogo import Place, random_move
from rules.rng import Rng

#: placements played by a playout before the board is scored, per level
DEPTH = {1: 2, 2: 4, 3: 2}
#: random legal placements the playout policy compares, per level
SAMPLES = {1: 3, 2: 3, 3: 6}
#: height margin that makes a 73% favourite (logistic scale)
SCALE = 4.0
#: at level 3, merit of each piece a placement captures (a breathing cell is worth 1)
CAPTURE_MERIT = 3.0


class DrogoModel:
    expand_at = 3
    cut = False
    rave = False

    def __init__(self, level: int) -> None:
        self.depth = DEPTH[level]
        self.samples = SAMPLES[level]
        #: level 3 sees captures: it ranks and plays them first, and judges groups left with one breathing cell
        #: by whose turn it is
        self.sharp = level >= 3

    def key(self, state: Any, move: Any) -> int | None:
        return None

    def screen(self, state: Any, moves: list[Any]) -> list[Any]:
        """Level 3's run-down: ahead on height while no other player can place, it plays one cube on one of its
        own stacks, without searching.

        The others can only pass, so such a game is won if the leader's groups still breathe when the placement
        cap ends it. The danger is the leader's own obligation to place every turn: once its stacks are full it
        must fill its own empty cells, and when it has filled all but one, an opponent fills that one and
        captures the whole board (a level-3 game against random play was lost so, 203 cubes to none, five
        placements before the cap). One cube on an own stack spends the least room and fills no empty cell;
        with no such placement left, the search chooses as usual.
        """
        if not self.sharp:
            return moves
        seat = state.to_move
        others = [other for other in state.active_seats() if other != seat]
        scores = state.scores()
        if any(scores[other] >= scores[seat] for other in others):
            return moves
        if any(state.has_legal_move(other) for other in others):
            return moves
        n = state.size
        for move in moves:
            if isinstance(move, Place) and len(move.cells) == 1:
                col, row = move.cells[0]
                stack = state.stacks[row * n + col]
                if stack and stack[-1] == seat and not state.captured_by(move):
                    return [move]
        return moves

    def spent(self) -> bool:
        """Drogo's playouts are cut short at a fixed depth: its playout budget is all it needs."""
        return False

    def decided(self, state: Any) -> bool:
        return False

    def progress(self, state: Any, value: float) -> tuple[Any, str] | None:
        """Every Drogo game ends, at the latest at its cap of 4 x size^3 placements: the search's choice stands."""
        return None

    def permutation(self, state: Any, move: Any) -> list[int] | None:
        return None

    def moves(self, state: Any) -> list[Any]:
        """Legal placements, best-looking first by the playout policy's own measure."""
        moves = list(state.legal_moves)
        if not moves:
            return [state.forced_move()]
        seat = state.to_move
        scored = sorted(enumerate(moves), key=lambda item: (-_merit(state, item[1], seat, self.sharp), item[0]))
        return [move for _, move in scored]

    def rollout(self, state: Any, moves: Sequence[Any], rng: random.Random) -> tuple[list[float], tuple]:
        work = state.clone()
        for move in moves:
            work.push(move)
        dice = Rng(rng.getrandbits(63))
        for _ in range(self.depth):
            if work.is_over:
                break
            forced = work.forced_move()
            if forced is not None:
                work.push(forced)
                continue
            seat = work.to_move
            best, best_merit = None, -1.0
            for _ in range(self.samples):
                move = random_move(work, dice)
                if not isinstance(move, Place):
                    break
                merit = _merit(work, move, seat, self.sharp)
                if merit > best_merit:
                    best, best_merit = move, merit
            work.push(best if best is not None else work.forced_move())
        if work.is_over:
            from ai.search import outcome_rewards

            return outcome_rewards(work), ()
        return evaluate(work, self.sharp), ()


def _merit(state: Any, move: Any, seat: int, sharp: bool = False) -> float:
    """Breathing room of a placement's cells, plus the height of enemy stacks it lands on (and when ``sharp``,
    the pieces it captures)."""
    if not isinstance(move, Place):
        return 0.0
    merit = CAPTURE_MERIT * state.captured_by(move) if sharp else 0.0
    n = state.size
    stacks = state.stacks
    for col, row in set(move.cells):
        stack = stacks[row * n + col]
        if stack and stack[-1] != seat:
            merit += len(stack) + 1
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            c, r = col + dc, row + dr
            if 0 <= c < n and 0 <= r < n and not stacks[r * n + c]:
                merit += 1.0
    return merit


def evaluate(state: Any, sharp: bool = False) -> list[float]:
    """Shares of a position not played out: owned height per seat, a group with one breathing cell counting
    half (when ``sharp``: nothing, unless its owner is to move), turned into shares by a logistic on the margins
    (resigned seats get nothing)."""
    n = state.size
    stacks = state.stacks
    seats = len(state.players)
    scores = [0.0] * seats
    seen = [False] * (n * n)
    mover = state.to_move
    for start in range(n * n):
        if seen[start] or not stacks[start]:
            continue
        owner = stacks[start][-1]
        group, todo, breath = [], [start], set()
        seen[start] = True
        while todo:
            cell = todo.pop()
            group.append(cell)
            row, col = divmod(cell, n)
            for c, r in ((col + 1, row), (col - 1, row), (col, row + 1), (col, row - 1)):
                if 0 <= c < n and 0 <= r < n:
                    other = r * n + c
                    if not stacks[other]:
                        breath.add(other)
                    elif not seen[other] and stacks[other][-1] == owner:
                        seen[other] = True
                        todo.append(other)
        height = sum(len(stacks[cell]) for cell in group)
        if len(breath) > 1:
            scores[owner] += height
        elif not sharp or owner == mover:
            scores[owner] += height * 0.5
    active = state.active_seats()
    weights = [math.exp(scores[seat] / SCALE) if seat in active else 0.0 for seat in range(seats)]
    peak = max(weights)
    if peak == math.inf or peak == 0.0:
        best = max(active, key=lambda seat: scores[seat])
        return [1.0 if seat == best else 0.0 for seat in range(seats)]
    total = sum(weights)
    return [w / total for w in weights]
