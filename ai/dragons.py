"""Dragons for the tree search: full playouts with a loop-extending policy, and exact tactics near the root.

Dragons games are short (a loop closes within a few dozen tiles), so playouts run to the end through the real
rules (``clone() + push``). The policy is *loop-extending*: it draws three random legal placements and keeps
the one whose cell already touches the most edges of the mover's colour, since a tile joining two ends of the
mover's band is how loops close; a tile that also meets many enemy edges counts a little against.

Playouts are a poor judge of tactics here: the one reply in thirty that closes a loop is easily never tried.
So the tactics are exact, and they are what sets the levels apart (the number of playouts hardly does: with the
same tactics, 500 playouts scored only 57.5% against 30 in 200 games, 18% of them drawn):

- every level plays a move that wins at once and avoids one that makes the opponent's loop itself;
- levels 2 and 3 also screen the root's moves two plies deep (:meth:`DragonsModel.screen`), and ask every
  position the tree grows whether its player to move wins at once (:meth:`DragonsModel.decided`); such a
  position counts as won without a playout, so the move leading to it is dropped after one visit.

The gap fills the server makes are followed throughout: a fill can close a loop, and a move that leaves the
opponent only a fill gives its maker two moves in a row.

A search's time goes to those tactics, not to its playouts: trying every move of every position the tree grows
costs pushes in proportion to the open positions, and the root's screen in proportion to their square, so a
late-game level-3 search pushed 47,000 positions where a mid-game one often needs a few thousand. Levels 2 and 3
therefore also stop at a number of positions pushed (:data:`WORK`), counted like the playouts, so that the same
position gets the same choice on any machine; a wall clock used to stop them, wherever the machine had got to.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ai.search import outcome_rewards

#: random legal placements the playout policy compares
SAMPLES = 3
#: playout length limit (a safety net: the pool ends every game sooner)
MAX_PLIES = 400
#: positions a search of each level may push (screen, tactics and playouts together) before it stops. Mid-game
#: positions (move 8 of ten seeded games between levels 2, as ``python -m bench ai`` plays them) need at most
#: 19,681 at level 2 and 40,368 at level 3, so they run their whole playout budget as before; a late one (move 12)
#: needs 27,928 and 33,163. A search so costs about what the old wall-clock caps of 1 s and 2 s allowed on a quiet
#: core (a push costs 40 to 130 microseconds of CPU here, more as the picture grows). Level 1 has no tactics.
WORK = {1: None, 2: 24_000, 3: 48_000}


class DragonsModel:
    expand_at = 2
    rave = False

    def __init__(self, level: int, late: Callable[[], bool] = lambda: False) -> None:
        """``late`` tells when the wall-clock safety net has run out (a guard only: see :data:`WORK`)."""
        #: levels 2 and 3 look at the opponent's replies at the root and ask every position the tree grows for a
        #: win at once (:meth:`decided`); level 1 sees only its own move's result
        self.tactical = level >= 2
        self.work = WORK[level]
        #: positions pushed so far by this model's search (its screen, tactics and playouts)
        self.pushed = 0
        self.late = late
        #: whether the safety net stopped the root's screen before its work was done
        self.cut = False

    def spent(self) -> bool:
        """Whether the search has pushed its level's :data:`WORK`: it then stops as at its playout budget."""
        return self.work is not None and self.pushed >= self.work

    def key(self, state: Any, move: Any) -> int | None:
        return None

    def permutation(self, state: Any, move: Any) -> list[int] | None:
        return None

    def screen(self, state: Any, moves: list[Any]) -> list[Any]:
        """The root's moves, each followed by the gap fills the server then makes (one may close a loop, and the
        last may hand the turn back to the mover). A move that wins is played at once; one that loses is
        dropped. Levels 2 and 3 look one ply further: a move that leaves the opponent nothing but a gap fill
        before a winning move is played at once, and the moves kept are, in order of preference, those after
        which the opponent has no winning reply (with those the screen had no work left to look at, which are
        the lowest ranked: a late position of a 200-tile game has thousands of replies to try), then those that
        leave the game drawn, then any."""
        seat = state.to_move
        safe, exposed, draws = [], [], []
        for move in moves:
            after = self._settled(state, move)
            outcome = after.outcome()
            if outcome is not None:
                if seat in outcome.winners:
                    return [move]
                if not outcome.winners:
                    draws.append(move)
            elif not self.tactical or self.spent() or self._late():
                safe.append(move)
            elif after.to_move == seat:
                if self._wins_at_once(after, again=0):
                    return [move]
                safe.append(move)
            else:
                (exposed if self._wins_at_once(after) else safe).append(move)
        return safe or draws or exposed or moves

    def _late(self) -> bool:
        """Whether the safety net has run out (noted: the choice may then depend on the machine's speed)."""
        self.cut = self.cut or self.late()
        return self.cut

    def decided(self, state: Any) -> bool:
        """Exact, at the price of trying every move (and the moves after a gap fill that hands the turn back):
        most of a level-2 or level-3 search's time goes here (BENCHMARKS.md, the ai group)."""
        return self.tactical and self._wins_at_once(state)

    def progress(self, state: Any, value: float) -> tuple[Any, str] | None:
        """Every Dragons game ends, at the latest when the pool of tiles runs out: the search's choice stands."""
        return None

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
            self.pushed += 1
        for _ in range(MAX_PLIES):
            if work.is_over:
                break
            forced = work.forced_move()
            if forced is not None:
                work.push(forced)
                self.pushed += 1
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
            self.pushed += 1
        return outcome_rewards(work), ()

    def _settled(self, state: Any, move: Any) -> Any:
        """A copy of ``state`` after ``move`` and the forced moves (gap fills) that follow it."""
        trial = state.clone()
        trial.push(move)
        self.pushed += 1
        while not trial.is_over:
            forced = trial.forced_move()
            if forced is None:
                break
            trial.push(forced)
            self.pushed += 1
        return trial

    def _wins_at_once(self, state: Any, again: int = 1) -> bool:
        """Whether the player to move has a move that wins, forced moves after it included, or (``again`` times
        over) a move after which the other player's only move is a gap fill and a winning move follows."""
        seat = state.to_move
        for move in state.legal_moves:
            after = self._settled(state, move)
            outcome = after.outcome()
            if outcome is not None:
                if seat in outcome.winners:
                    return True
            elif again and after.to_move == seat and self._wins_at_once(after, again - 1):
                return True
        return False


def _merit(state: Any, move: Any, seat: int) -> float:
    """Closed sides of the move's cell in the mover's colour, less half those in the enemy's."""
    sides = state.frontier.get(move.cell)
    if sides is None:
        return 0.0
    closed, x_sides = sides
    mine = x_sides if seat == 1 else closed & ~x_sides
    theirs = closed & ~mine
    return bin(mine).count("1") - 0.5 * bin(theirs).count("1")
