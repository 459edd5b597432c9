"""Dragons for the tree search: full playouts with a loop-extending policy.

Dragons games are short (a loop closes within a few dozen tiles), so playouts run to the end through the real
rules (``clone() + push``). The policy is *loop-extending*: it draws three random legal placements and keeps
the one whose cell already touches the most edges of the mover's colour, since a tile joining two ends of the
mover's band is how loops close; a tile that also meets many enemy edges counts a little against.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ai.search import outcome_rewards

#: random legal placements the playout policy compares
SAMPLES = 3
#: playout length limit (a safety net: the pool ends every game sooner)
MAX_PLIES = 400


class DragonsModel:
    expand_at = 2
    rave = False

    def key(self, state: Any, move: Any) -> int | None:
        return None

    def permutation(self, state: Any, move: Any) -> list[int] | None:
        return None

    def screen(self, state: Any, moves: list[Any]) -> list[Any]:
        """Try each root move on a copy: one that wins at once is played; ones that close a winning loop for
        the opponent (or end in a draw while others do not) are dropped."""
        seat = state.to_move
        keep, draws = [], []
        for move in moves:
            trial = state.clone()
            trial.push(move)
            outcome = trial.outcome()
            if outcome is None:
                keep.append(move)
            elif seat in outcome.winners:
                return [move]
            elif not outcome.winners:
                draws.append(move)
        return keep or draws or moves

    def moves(self, state: Any) -> list[Any]:
        moves = list(state.legal_moves)
        seat = state.to_move
        ranked = sorted(enumerate(moves), key=lambda item: (-_merit(state, item[1], seat), item[0]))
        return [move for _, move in ranked]

    def rollout(self, state: Any, moves: Sequence[Any], rng: random.Random) -> tuple[list[float], tuple]:
        work = state.clone()
        for move in moves:
            if work.is_over:
                break
            work.push(move)
        for _ in range(MAX_PLIES):
            if work.is_over:
                break
            forced = work.forced_move()
            if forced is not None:
                work.push(forced)
                continue
            moves_now = list(work.legal_moves)
            if not moves_now:
                break
            seat = work.to_move
            best, best_merit = None, -99.0
            for _ in range(SAMPLES):
                move = moves_now[rng.randrange(len(moves_now))]
                merit = _merit(work, move, seat)
                if merit > best_merit:
                    best, best_merit = move, merit
            work.push(best)
        return outcome_rewards(work), ()


def _merit(state: Any, move: Any, seat: int) -> float:
    """Closed sides of the move's cell in the mover's colour, less half those in the enemy's."""
    sides = state.frontier.get(move.cell)
    if sides is None:
        return 0.0
    closed, x_sides = sides
    mine = x_sides if seat == 1 else closed & ~x_sides
    theirs = closed & ~mine
    return bin(mine).count("1") - 0.5 * bin(theirs).count("1")
