"""Monte Carlo tree search (UCT) over the rules' public API, for any number of players.

Several players are handled by **max-n**: every node keeps the summed rewards of *all* seats (each playout
hands out one unit, split among winners), and the seat to move at a node picks the child that is best for
itself. Max-n needs no assumption about who gangs up on whom, and with two players it is plain UCT.

A tree node holds a real game state only once it has been visited ``expand_at`` times: a fresh leaf is
evaluated by a playout from its parent's state plus the leaf's move, which the game's :class:`Model` applies
to its own light copy. Games whose states are costly to copy (Druid) thus pay for ``clone() + push`` only on
the few nodes worth growing. Untried moves are tried in the order the model ranks them, best first, and a node
gets a new child only as its visits grow (progressive widening), so a small budget is not spread one playout
per legal move.

Models whose playouts say who ended up owning each cell (connection games) turn on **RAVE**: a move's value
is blended with its all-moves-as-first value (the playouts in which the mover ended up owning the cell), which
gives every cell a useful estimate after a few dozen playouts instead of one playout per legal move. With RAVE
all children of a node are created at once and unvisited ones are judged by that estimate.

A model that can tell whether the player to move wins at once (``decided``) makes such positions terminal as
soon as the tree grows them: the move leading there is then known lost after one visit.

A seat exchange (Druid's ``swap``) renames the seats: rewards passing up through such an edge are permuted, so
each node's statistics stay in the seat frame of the position above it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

#: exploration constant of UCB1 for rewards in [0, 1], without and with RAVE
EXPLORATION = 1.0
RAVE_EXPLORATION = 0.1
#: RAVE equivalence: the visit count at which a move's own value and its RAVE value weigh the same
RAVE_K = 300.0
#: weight of the model's ranking among moves (the best-ranked gets it all, the last none), and the exploration
#: beside it: both chosen by seeded Druid matches between levels (see the strength table in BENCHMARKS.md)
PRIOR_WEIGHT = 0.2


class Model(Protocol):
    """What the search needs to know of a game beyond the rules' public API."""

    #: visits before a leaf gets its own state (1 = at once)
    expand_at: int
    #: whether playouts report cell owners (see ``rollout``) and moves have cell keys (see ``key``)
    rave: bool
    #: whether the safety net stopped the model's own work before the playouts (Dragons' root screen)
    cut: bool

    def moves(self, state: Any) -> list[Any]:
        """The moves to search in ``state`` (legal, best-looking first); never empty while the game runs."""
        ...

    def rollout(self, state: Any, moves: Sequence[Any], rng: random.Random) -> tuple[list[float], Sequence[int]]:
        """Rewards per seat (summing to 1) of a playout from ``state`` after ``moves`` (in the frame after them),
        and, for RAVE models, the owner seat of every cell at the end of the playout (else an empty tuple)."""
        ...

    def key(self, state: Any, move: Any) -> int | None:
        """The cell a move claims, for RAVE (``None``: the move gets no RAVE value)."""
        ...

    def screen(self, state: Any, moves: list[Any]) -> list[Any]:
        """The root's moves after a tactical look (a move that wins at once alone, moves that lose at once
        dropped); models without one return ``moves``."""
        ...

    def permutation(self, state: Any, move: Any) -> list[int] | None:
        """How ``move`` renames the seats (new seat of each old seat), or ``None`` when it does not."""
        ...

    def decided(self, state: Any) -> bool:
        """Whether the player to move wins by force with its next move (the tree then treats the position as won
        for it, without a playout); models without such a test return ``False``."""
        ...

    def spent(self) -> bool:
        """Whether the search has used up the model's own budget of work, counted as deterministically as its
        playouts (Dragons counts the positions its tactics push); models without one return ``False``."""
        ...

    def progress(self, state: Any, value: float) -> tuple[Any, str] | None:
        """When the playouts can no longer tell one move from another (Druid's Walk on a full board), the move
        that moves the game on and its note, given ``value``, the search's estimate of its own choice for the
        player to move; ``None`` keeps the search's choice (models whose playouts always tell return ``None``)."""
        ...


def outcome_rewards(state: Any) -> list[float]:
    """One unit shared by the winners; a draw or a cancelled game shares it among all seats."""
    seats = len(state.players)
    outcome = state.outcome()
    winners = outcome.winners if outcome is not None else ()
    if not winners:
        return [1.0 / seats] * seats
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(seats)]


class Node:
    __slots__ = (
        "amaf_n",
        "amaf_w",
        "children",
        "key",
        "move",
        "parent",
        "perm",
        "prior",
        "seat",
        "state",
        "sums",
        "terminal",
        "untried",
        "visits",
    )

    def __init__(self, parent: Node | None, move: Any, perm: list[int] | None, seats: int) -> None:
        self.parent = parent
        self.move = move
        self.perm = perm
        self.children: list[Node] = []
        self.untried: list[Any] = []
        self.visits = 0
        self.sums = [0.0] * seats
        self.state: Any = None
        self.seat = -1
        self.terminal: list[float] | None = None
        self.key: int | None = None
        self.amaf_n = 0
        self.amaf_w = 0.0
        self.prior = 0.0

    def grow(self, state: Any, model: Model, root: bool = False) -> None:
        """Attach the real position of this node and list its moves (as children at once under RAVE)."""
        self.state = state
        if state.to_move is None:
            self.terminal = outcome_rewards(state)
            return
        self.seat = state.to_move
        if not root and model.decided(state):
            # the player to move wins with its next move: the position is as good as over
            self.terminal = [1.0 if seat == self.seat else 0.0 for seat in range(len(self.sums))]
            return
        moves = model.moves(state)
        if not model.rave:
            self.untried = list(reversed(moves))
            return
        seats = len(self.sums)
        count = len(moves)
        for rank, move in enumerate(moves):
            child = Node(self, move, model.permutation(state, move), seats)
            child.key = model.key(state, move)
            # the model's ranking, as a bonus that stays: a few noisy playouts must not overturn it (with a
            # bonus of 0.05, 150 playouts at the root alone played worse than 30)
            child.prior = PRIOR_WEIGHT * (count - rank) / count
            self.children.append(child)


def search(
    state: Any,
    model: Model,
    playouts: int,
    rng: random.Random,
    deadline: float,
    timer: Callable[[], float] = time.monotonic,
) -> tuple[Any, Node]:
    """Run ``playouts`` iterations, fewer if the model's own budget is spent first (:meth:`Model.spent`), and
    return the most visited root move and the root (``root.visits`` counts the iterations run). ``deadline``, a
    ``timer()`` value, is a guard only: a search it stops (fewer iterations than ``playouts`` while the model's
    budget is not spent) makes a choice that depends on the machine's speed. ``state`` is not modified."""
    seats = len(state.players)
    root = Node(None, None, None, seats)
    root.grow(state, model, root=True)
    if model.rave:
        screened = model.screen(state, [child.move for child in root.children])
        root.children = [child for child in root.children if child.move in screened]
    else:
        root.untried = list(reversed(model.screen(state, list(reversed(root.untried)))))
    choices = root.children if model.rave else root.untried
    if len(choices) == 1:
        only = choices[0]
        return (only.move if model.rave else only), root
    select = _select_rave if model.rave else _select
    for done in range(playouts):
        if done and (model.spent() or timer() > deadline):
            break
        node = root
        while True:
            if node.state is None:
                if node.visits + 1 < model.expand_at:
                    break
                child_state = node.parent.state.clone()
                child_state.push(node.move)
                node.grow(child_state, model)
            if node.terminal is not None:
                break
            if node.untried and len(node.children) < _widening(node.visits):
                move = node.untried.pop()
                child = Node(node, move, model.permutation(node.state, move), seats)
                node.children.append(child)
                node = child
                break
            node = select(node)
        if node.terminal is not None:
            rewards, owners = list(node.terminal), ()
        elif node.state is not None:
            rewards, owners = model.rollout(node.state, (), rng)
        else:
            rewards, owners = model.rollout(node.parent.state, (node.move,), rng)
        _backup(node, rewards, owners)
    best = max(root.children, key=lambda child: (child.visits, child.sums[root.seat]))
    return best.move, root


def _widening(visits: int) -> int:
    """Progressive widening: how many children a node may have after ``visits`` visits. A small budget is
    spent on the model's best-ranked moves instead of one playout per legal move."""
    return 2 + int(1.5 * math.sqrt(visits))


def _select(node: Node) -> Node:
    seat = node.seat
    log_n = math.log(node.visits)
    best, best_score = node.children[0], -1.0
    for child in node.children:
        score = child.sums[seat] / child.visits + EXPLORATION * math.sqrt(log_n / child.visits)
        if score > best_score:
            best, best_score = child, score
    return best


def _select_rave(node: Node) -> Node:
    seat = node.seat
    log_n = math.log(node.visits + 1)
    fallback = node.sums[seat] / node.visits if node.visits else 0.5
    best, best_score = node.children[0], -1.0
    for child in node.children:
        n = child.visits
        if child.amaf_n:
            amaf = child.amaf_w / child.amaf_n
            if n:
                beta = math.sqrt(RAVE_K / (3 * n + RAVE_K))
                value = beta * amaf + (1 - beta) * child.sums[seat] / n
            else:
                value = amaf
        else:
            value = child.sums[seat] / n if n else fallback
        score = value + child.prior + RAVE_EXPLORATION * math.sqrt(log_n / (n + 1))
        if score > best_score:
            best, best_score = child, score
    return best


def _backup(node: Node | None, rewards: list[float], owners: Sequence[int]) -> None:
    while node is not None:
        parent = node.parent
        if owners and node.state is not None and node.seat >= 0:
            seat = node.seat
            won = rewards[seat]
            for child in node.children:
                key = child.key
                if key is not None and owners[key] == seat:
                    child.amaf_n += 1
                    child.amaf_w += won
        if node.perm is not None:
            # rewards are in the frame after the move; old seat s is new seat perm[s]
            rewards = [rewards[node.perm[seat]] for seat in range(len(rewards))]
            owners = ()
        node.visits += 1
        sums = node.sums
        for seat, value in enumerate(rewards):
            sums[seat] += value
        node = parent
