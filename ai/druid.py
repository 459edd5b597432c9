"""Druid for the tree search: move ranking, and playouts that fill the bare ground.

A playout copies the position's top owners into plain lists, applies the pending tree moves, then fills every
bare, druid-free ground cell with a sarsen of the player in turn, and reads who is connected. Only the ground is
filled because lintels and stacks rarely change who owns a cell in random play, and a full fill is the
classic cheap playout of connection games (it equals random play to the end when nobody may cover a cell).
The fill is *connection-seeking*: each player looks at up to three random empty cells and takes the first one
that touches a cell of its own colour, else the last one looked at.

Whoever's goal the filled board satisfies wins the playout; several (rare: paths of different players cross)
share it. When none does (the colours can block each other: a quarter of the fills from random middle games of a
10x10 square board end so, a third on the hex board), the playout goes to the seat whose best group comes nearest
its goal (:func:`_gap`): lintels bridge such gaps in real play, and a playout scored as a draw says nothing.

In Druid's Walk a druid races along its own colour: the seat with the shortest walk to its target edge wins, a
druid not yet on the board walking from its own edge; equal walks go to the player who moves first.

Once Walk's board has no bare ground left, every playout is the board as it stands: the search sees the same
outcome whatever is played, and two computer players used to step their druids back and forth for ever (issue
26, 43,873 moves). :meth:`DruidModel.progress` then moves the game on: the player whose druid wins the race walks
it home, one step nearer each turn; a player to whom no move the search tried is worth more than the board as it
stands passes, and when every player passes the game is drawn (rules-notes DU-5).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rules.druid import Lintel, Pass, Sarsen, Step, Swap

#: look at up to this many random empty cells for one touching your own colour
TRIES = 3
#: on a settled Walk board, a search's choice worth no more than this above the board as it stands changes nothing
STILL = 0.05


class DruidModel:
    expand_at = 3
    cut = False
    rave = True

    def key(self, state: Any, move: Any) -> int | None:
        """A sarsen on bare ground claims its cell; other moves get no RAVE value."""
        if isinstance(move, Sarsen):
            cell = state.board.index[move.cell]
            return cell if state.height[cell] == 0 else None
        return None

    def moves(self, state: Any) -> list[Any]:
        """Legal moves, passing only when nothing else is legal; ranked by contact with own and enemy stones,
        lintels that cover enemy tops first, sarsens stacked on one's own stones last."""
        board = state.board
        seat = state.to_move
        top = state.top
        neighbours = board.neighbours
        scored: list[tuple[float, int, Any]] = []
        fallback = None
        for order, move in enumerate(state.legal_moves):
            if isinstance(move, Pass):
                fallback = move
                continue
            if isinstance(move, Sarsen):
                cell = board.index[move.cell]
                if top[cell] < 0:
                    score = 1.0 + sum(0.6 if top[n] == seat else 0.3 if top[n] >= 0 else 0.0 for n in neighbours[cell])
                else:
                    # a sarsen on your own stone claims nothing: it only raises a lintel's end (ranked so high
                    # for its neighbours, it once had a player stack one cell ten times over)
                    score = 0.1
            elif isinstance(move, Lintel):
                a, b = board.index[move.a], board.index[move.b]
                cells = (a, board.lines[(a, b)], b)
                score = 0.5 + sum(1.5 for c in cells if top[c] not in (-1, seat))
            elif isinstance(move, Swap):
                score = 2.0
            else:  # a druid step
                score = 1.5
            scored.append((-score, order, move))
        scored.sort(key=lambda item: (item[0], item[1]))
        return [move for _, _, move in scored] or [fallback]

    def screen(self, state: Any, moves: list[Any]) -> list[Any]:
        """A move that wins at once (joins the mover's sides, or brings its druid home) is played alone."""
        seat = state.turn
        active = state.active_seats()
        for move in moves:
            if isinstance(move, Pass | Swap):
                continue
            top, druids, targets = list(state.top), list(state.druids), list(state.targets)
            _apply(state, top, druids, targets, move, seat)
            if state.walk:
                if _walk_winner(state, top, druids, targets, seat, active, arrived_only=True) == seat:
                    return [move]
            elif _connected(state, top, seat):
                return [move]
        return moves

    def spent(self) -> bool:
        """Druid's playouts cost about the same whatever the position: its playout budget is all it needs."""
        return False

    def decided(self, state: Any) -> bool:
        return False

    def progress(self, state: Any, value: float) -> tuple[Any, str] | None:
        """On a Walk board with no bare ground left (every playout then ends as the board stands), the move that
        moves the game on, with its note: the race's winner steps its druid nearer home (or brings it out), a
        player to whom the search's choice (worth ``value``) is worth no more than the board as it stands passes.
        ``None``: play the search's choice (it found something better, or there is ground left to fill)."""
        if not state.walk or any(owner < 0 for owner in state.top):
            return None
        seat = state.turn
        active = state.active_seats()
        top, druids, targets = list(state.top), list(state.druids), list(state.targets)
        winner = _walk_winner(state, top, druids, targets, seat, active, arrived_only=False)
        if winner == seat:
            return _homeward(state, seat)
        if value <= _reward(len(state.players), [] if winner is None else [winner])[seat] + STILL:
            return Pass(), "sees no move that would change the outcome"
        return None

    def permutation(self, state: Any, move: Any) -> list[int] | None:
        return [1, 0] if isinstance(move, Swap) else None

    def rollout(self, state: Any, moves: Sequence[Any], rng: random.Random) -> tuple[list[float], list[int]]:
        board = state.board
        top = list(state.top)
        druids = list(state.druids)
        targets = list(state.targets)
        seat = state.turn
        active = state.active_seats()
        seats = len(state.players)
        for move in moves:
            seat = _apply(state, top, druids, targets, move, seat)
            if state.walk:
                winner = _walk_winner(state, top, druids, targets, seat, active, arrived_only=True)
                if winner is not None:
                    return _reward(seats, [winner]), top
            elif _connected(state, top, _previous(active, seat)):
                return _reward(seats, [_previous(active, seat)]), top
        blocked = {cell for cell in druids if cell is not None}
        empty = [cell for cell in range(board.ncells) if top[cell] < 0 and cell not in blocked]
        neighbours = board.neighbours
        order = active[active.index(seat) :] + active[: active.index(seat)] if seat in active else active
        turn = 0
        below = rng.randrange
        while empty:
            mover = order[turn % len(order)]
            turn += 1
            pick = below(len(empty))
            for _ in range(TRIES - 1):
                if any(top[n] == mover for n in neighbours[empty[pick]]):
                    break
                pick = below(len(empty))
            cell = empty[pick]
            empty[pick] = empty[-1]
            empty.pop()
            top[cell] = mover
        if state.walk:
            winner = _walk_winner(state, top, druids, targets, order[0], active, arrived_only=False)
            return _reward(seats, [] if winner is None else [winner]), top
        return _reward(seats, _closest(state, top, active)), top


def _previous(active: list[int], seat: int) -> int:
    """The seat that moved just before ``seat``."""
    return active[(active.index(seat) - 1) % len(active)] if seat in active else seat


def _apply(state: Any, top: list[int], druids: list, targets: list, move: Any, seat: int) -> int:
    """Apply a tree move to the light copy; returns the seat to move next."""
    board = state.board
    if isinstance(move, Sarsen):
        top[board.index[move.cell]] = seat
        cells: tuple[int, ...] = (board.index[move.cell],)
    elif isinstance(move, Lintel):
        a, b = board.index[move.a], board.index[move.b]
        cells = (a, board.lines[(a, b)], b)
        for cell in cells:
            top[cell] = seat
    elif isinstance(move, Step):
        here = druids[seat]
        druids[seat] = board.step[here][board.dirs.index(move.direction)]
        cells = ()
    elif isinstance(move, Swap):
        return 1
    else:
        cells = ()
    if state.walk and druids[seat] is None:
        for cell in cells:
            for edge, target in _edges(state, seat):
                if board.sides[edge] >> cell & 1 and druids[seat] is None:
                    druids[seat], targets[seat] = cell, target
    active = state.active_seats()
    return active[(active.index(seat) + 1) % len(active)] if seat in active else seat


def _edges(state: Any, seat: int) -> list[tuple[str, str]]:
    first, second = state.goals[seat][0]
    return [(first, second), (second, first)]


def _mask(top: list[int], seat: int) -> int:
    mask = 0
    for cell, owner in enumerate(top):
        if owner == seat:
            mask |= 1 << cell
    return mask


def _around(nbr: tuple[int, ...], cells: int) -> int:
    """The cells next to any of ``cells`` (a mask), given each cell's neighbour mask ``nbr``."""
    grow = 0
    while cells:
        low = cells & -cells
        grow |= nbr[low.bit_length() - 1]
        cells ^= low
    return grow


def _flood(nbr: tuple[int, ...], own: int, seed: int) -> int:
    group = frontier = seed & own
    while frontier:
        frontier = _around(nbr, frontier) & own & ~group
        group |= frontier
    return group


def _connected(state: Any, top: list[int], seat: int) -> bool:
    """Whether ``seat``'s tops satisfy one of its goals (a group touching every side of a goal set)."""
    board = state.board
    own = _mask(top, seat)
    sides = board.sides
    for goal in state.goals[seat]:
        first = sides[goal[0]] & own
        while first:
            low = first & -first
            group = _flood(board.nbr_mask, own, low)
            if all(group & sides[side] for side in goal):
                return True
            first &= ~group
    return False


def _closest(state: Any, top: list[int], active: list[int]) -> list[int]:
    """The seats whose filled board comes closest to their goal: those connected, else those with the smallest
    gap (see :func:`_gap`). On a square board a full fill often connects nobody (four-way connectivity lets the
    colours block each other), and scoring those playouts as draws left most playouts saying nothing."""
    gaps = [_gap(state, top, seat) for seat in active]
    best = min(gaps)
    return [seat for seat, gap in zip(active, gaps, strict=True) if gap == best]


def _gap(state: Any, top: list[int], seat: int) -> int:
    """How far ``seat``'s best group is from a goal: the sum, over the goal's sides, of the group's distance in
    cells to each (0: the goal is met). Lintels bridge such gaps in real play, so the nearest group is the
    likeliest to connect."""
    board = state.board
    own = _mask(top, seat)
    rings = _rings(board)
    best = board.ncells
    remaining = own
    while remaining:
        group = _flood(board.nbr_mask, own, remaining & -remaining)
        remaining &= ~group
        for goal in state.goals[seat]:
            total = 0
            for side in goal:
                total += next((d for d, ring in enumerate(rings[side]) if group & ring), board.ncells)
            best = min(best, total)
    return best


_RINGS: dict[tuple[str, int], dict[str, list[int]]] = {}


def _rings(board: Any) -> dict[str, list[int]]:
    """Per side of ``board``: the cells at distance 0, 1, 2... from it, as masks (computed once per board)."""
    known = _RINGS.get((board.kind, board.size))
    if known is not None:
        return known
    rings: dict[str, list[int]] = {}
    for side, mask in board.sides.items():
        layers, seen, frontier = [mask], mask, mask
        while True:
            frontier = _around(board.nbr_mask, frontier) & ~seen
            if not frontier:
                break
            layers.append(frontier)
            seen |= frontier
        rings[side] = layers
    _RINGS[(board.kind, board.size)] = rings
    return rings


def _walk_length(state: Any, top: list[int], start: int, target: int, seat: int) -> int | None:
    """Steps along ``seat``'s tops from the cells of ``start`` (a mask) to the side mask ``target``."""
    board = state.board
    own = _mask(top, seat)
    reached = start & own
    steps = 0
    while reached:
        if reached & target:
            return steps
        new = _around(board.nbr_mask, reached) & own & ~reached
        if not new:
            return None
        reached |= new
        steps += 1
    return None


def _walk_winner(
    state: Any, top: list[int], druids: list, targets: list, first: int, active: list[int], arrived_only: bool
) -> int | None:
    """Walk: a druid standing on its target edge wins at once; otherwise (after a fill) the shortest walk wins."""
    sides = state.board.sides
    best: tuple[int, int] | None = None
    winner = None
    order = active[active.index(first) :] + active[: active.index(first)] if first in active else active
    for rank, seat in enumerate(order):
        cell = druids[seat]
        if cell is not None and sides[targets[seat]] >> cell & 1:
            return seat
        if arrived_only:
            continue
        if cell is not None:
            length = _walk_length(state, top, 1 << cell, sides[targets[seat]], seat)
        else:
            lengths = [
                _walk_length(state, top, sides[edge], sides[target], seat) for edge, target in _edges(state, seat)
            ]
            found = [n for n in lengths if n is not None]
            length = min(found) + 1 if found else None
        if length is not None and (best is None or (length, rank) < best):
            best, winner = (length, rank), seat
    return winner


def _distances(state: Any, seat: int, target: int) -> list[int | None]:
    """Steps from each cell to the side mask ``target`` along ``seat``'s tops (``None``: no way)."""
    board = state.board
    own = _mask(state.top, seat)
    found: list[int | None] = [None] * board.ncells
    layer, seen, steps = target & own, target & own, 0
    while layer:
        rest = layer
        while rest:
            low = rest & -rest
            found[low.bit_length() - 1] = steps
            rest ^= low
        layer = _around(board.nbr_mask, layer) & own & ~seen
        seen |= layer
        steps += 1
    return found


def _homeward(state: Any, seat: int) -> tuple[Any, str] | None:
    """The move that takes ``seat``'s druid one step nearer its target edge along its own colour, or, with no
    druid yet, the sarsen on its own edge that brings the druid out where the walk is shortest; ``None`` when
    there is none (then the search's choice stands)."""
    board = state.board
    legal = state.legal_moves
    here = state.druids[seat]
    if here is not None:
        distance = _distances(state, seat, board.sides[state.targets[seat]])
        steps = []
        for move in board.step_moves:
            there = board.step[here][board.dirs.index(move.direction)]
            if there >= 0 and distance[there] is not None and move in legal:
                steps.append((distance[there], move))
        if not steps:
            return None
        left, move = min(steps, key=lambda item: item[0])
        return move, f"walks its druid home: {_steps(left)} to go"
    starts = []
    for edge, target in _edges(state, seat):
        distance = _distances(state, seat, board.sides[target])
        for cell in range(board.ncells):
            if board.sides[edge] >> cell & 1 and distance[cell] is not None and board.sarsens[cell] in legal:
                starts.append((distance[cell], cell))
    if not starts:
        return None
    left, cell = min(starts)
    return board.sarsens[cell], f"brings its druid out: {_steps(left)} to go"


def _steps(count: int) -> str:
    return "1 step" if count == 1 else f"{count} steps"


def _reward(seats: int, winners: list[int]) -> list[float]:
    if not winners:
        return [1.0 / seats] * seats
    share = 1.0 / len(winners)
    return [share if seat in winners else 0.0 for seat in range(seats)]
