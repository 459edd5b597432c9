"""Where a Druid board's cells lie, shared by the top-down board (render.druid.top) and the 3D view
(render.druid.iso), so that the two pictures of a game always have the same orientation.

Plane units: neighbouring cells' centres are one unit apart, x to the right, y up. Square cells are unit squares,
column A on the left and row 1 at the bottom. Hex cells are flat-topped hexagons in upright columns A, B, ..., each
column's row 1 its bottom cell (rules-notes DU-1). The Y board is the same hexagons turned a twelfth of a turn
clockwise, so that its row 1 lies flat along the bottom and its corner A<n> is the apex on top: the triangle stands
on its base in both pictures (the 3D view looks at it from the base, whose stones are nearest).

Coordinates stand outside the board (:func:`label_spots`): square boards letters below and above, numbers left and
right; hex boards each column's letter below its bottom cell, each row's number at both ends of the row (a hex row
runs down to the middle column and up again, and its number stands where its line leaves the board), and the full
name of each column's top cell above it (as the text board numbers the tops of the columns); the Y board its column
letters under row 1, each row's number on the left and the name of the cell ending each row on the right.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from rules.druid import HEX, SQUARE, YBOARD, Board, DruidState, board_for

Point = tuple[float, float]

SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class Plane:
    """A board in plane units: cell centres, the cell polygon around a centre, each polygon edge's outward normal
    and the neighbour across it (-1 at the rim), and each side's outward direction."""

    centres: tuple[Point, ...]
    polygon: tuple[Point, ...]
    normals: tuple[Point, ...]
    across: tuple[tuple[int, ...], ...]
    side_normals: dict[str, Point]


def shared(board: Board) -> Board:
    """The one board of its shape and size (rules.druid.board_for's), which the caches here are keyed by: a
    copied state (``clone`` deep-copies, as a replay's recorded frames are) carries a board of its own."""
    return board_for(board.kind, board.size)


def plane(board: Board) -> Plane:
    """The board's plane layout, computed once per board."""
    return _plane(shared(board))


def _turn(point: Point, degrees: float) -> Point:
    """``point`` turned about the origin by ``degrees`` (counter-clockwise, y up)."""
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return (point[0] * c - point[1] * s, point[0] * s + point[1] * c)


@lru_cache(maxsize=32)
def _plane(board: Board) -> Plane:
    if board.kind == SQUARE:
        centres = tuple((float(c), float(r - 1)) for c, r in zip(board.col, board.row, strict=True))
        polygon: tuple[Point, ...] = ((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5))
    else:
        radius = 1 / SQRT3
        centres = tuple((c * SQRT3 / 2, y2 / 2) for c, y2 in zip(board.col, board.y2, strict=True))
        polygon = tuple((radius * math.cos(k * math.pi / 3), radius * math.sin(k * math.pi / 3)) for k in range(6))
        if board.kind == YBOARD:  # row 1 flat along the bottom: a twelfth of a turn clockwise
            centres = tuple(_turn(point, -30.0) for point in centres)
            polygon = tuple(_turn(point, -30.0) for point in polygon)
    normals = tuple(_normal(polygon[k], polygon[(k + 1) % len(polygon)]) for k in range(len(polygon)))
    across = tuple(_across(board, centres, cell, normals) for cell in range(board.ncells))
    mid_x = sum(x for x, _ in centres) / len(centres)
    mid_y = sum(y for _, y in centres) / len(centres)
    side_normals = {}
    for side, mask in board.sides.items():
        cells = [i for i in range(board.ncells) if mask >> i & 1]
        sx = sum(centres[i][0] - mid_x for i in cells)
        sy = sum(centres[i][1] - mid_y for i in cells)
        length = math.hypot(sx, sy) or 1.0
        side_normals[side] = (sx / length, sy / length)
    return Plane(centres, polygon, normals, across, side_normals)


def _normal(a: Point, b: Point) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    return dy / length, -dx / length


def _across(board: Board, centres: tuple[Point, ...], cell: int, normals: tuple[Point, ...]) -> tuple[int, ...]:
    out = []
    cx, cy = centres[cell]
    for nx, ny in normals:
        match = -1
        for other in board.neighbours[cell]:
            ox, oy = centres[other]
            if abs((ox - cx) * nx + (oy - cy) * ny - 1.0) < 1e-6:
                match = other
        out.append(match)
    return tuple(out)


# ---- sides ------------------------------------------------------------------------------------------------------


class Edge(NamedTuple):
    """One polygon edge of a cell on a side, in plane units: its ends and its outward normal."""

    cell: int
    a: Point
    b: Point
    normal: Point


def side_edges(board: Board, side: str) -> tuple[Edge, ...]:
    """The rim edges along ``side``: edges of its cells with no neighbour across that face the side's way."""
    return _side_edges(shared(board), side)


@lru_cache(maxsize=128)
def _side_edges(board: Board, side: str) -> tuple[Edge, ...]:
    lay = plane(board)
    nx, ny = lay.side_normals[side]
    out = []
    for cell in range(board.ncells):
        if not board.sides[side] >> cell & 1:
            continue
        cx, cy = lay.centres[cell]
        for k, (ex, ey) in enumerate(lay.normals):
            if lay.across[cell][k] < 0 and ex * nx + ey * ny >= 0.45:
                a, b = lay.polygon[k], lay.polygon[(k + 1) % len(lay.polygon)]
                out.append(Edge(cell, (cx + a[0], cy + a[1]), (cx + b[0], cy + b[1]), (ex, ey)))
    return tuple(out)


def goal_sides(state: DruidState) -> dict[str, int | None]:
    """Each side of the board and the seat it belongs to: the players' own sides on the square board and in
    three-player hex (both of a seat's sides), None where sides are shared (two-player hex, where either player
    may join either triple, and the Y's three sides, which everyone must join)."""
    kind = state.board.kind
    if kind == SQUARE or (kind == HEX and len(state.players) == 3):
        return {side: seat for seat, goals in enumerate(state.goals) for side in goals[0]}
    return dict.fromkeys(state.board.sides)


# ---- coordinates ------------------------------------------------------------------------------------------------


class Spot(NamedTuple):
    """A coordinate outside the board: ``text`` stands beyond ``cell`` in the plane ``direction`` (a unit
    vector), on the board's ``edge`` ("bottom", "top", "left" or "right")."""

    cell: int
    direction: Point
    text: str
    edge: str


def label_spots(board: Board) -> tuple[Spot, ...]:
    """Every coordinate around the board (see the module docstring), bottom edge first."""
    return _label_spots(shared(board))


@lru_cache(maxsize=32)
def _label_spots(board: Board) -> tuple[Spot, ...]:
    columns = [
        sorted((i for i in range(board.ncells) if board.col[i] == c), key=board.row.__getitem__)
        for c in range(board.ncols)
    ]
    rows: dict[int, list[int]] = {}
    for cell in sorted(range(board.ncells), key=board.col.__getitem__):
        rows.setdefault(board.row[cell], []).append(cell)
    letters = [chr(65 + c) for c in range(board.ncols)]
    spots: list[Spot] = []
    if board.kind == SQUARE:
        spots += [Spot(cells[0], (0.0, -1.0), letters[c], "bottom") for c, cells in enumerate(columns)]
        spots += [Spot(cells[-1], (0.0, 1.0), letters[c], "top") for c, cells in enumerate(columns)]
        spots += [Spot(cells[0], (-1.0, 0.0), str(r), "left") for r, cells in sorted(rows.items())]
        spots += [Spot(cells[-1], (1.0, 0.0), str(r), "right") for r, cells in sorted(rows.items())]
    elif board.kind == HEX:
        up_left, up_right = (-SQRT3 / 2, 0.5), (SQRT3 / 2, 0.5)
        middle = board.ncols // 2
        spots += [Spot(cells[0], _outward(c, middle, -1), letters[c], "bottom") for c, cells in enumerate(columns)]
        spots += [
            Spot(cells[-1], _outward(c, middle, 1), board.names[cells[-1]].upper(), "top")
            for c, cells in enumerate(columns)
        ]
        spots += [Spot(cell, up_left, str(board.row[cell]), "left") for cell in columns[0]]
        spots += [Spot(cell, up_right, str(board.row[cell]), "right") for cell in columns[-1]]
    else:
        spots += [Spot(cell, (0.0, -1.0), letters[board.col[cell]], "bottom") for cell in rows[1]]
        spots += [Spot(cell, (-1.0, 0.0), str(board.row[cell]), "left") for cell in columns[0]]
        spots += [
            Spot(cells[-1], (1.0, 0.0), board.names[cells[-1]].upper(), "right") for _r, cells in sorted(rows.items())
        ]
    return tuple(spots)


def _outward(column: int, middle: int, up: int) -> Point:
    """Which way a hex column's bottom letter (``up`` -1) or top name (``up`` 1) stands out: square to the side
    the cell is on (SW, SE, NW or NE), straight down or up from the middle column. The bottoms and tops of the
    columns step half a cell from column to column, so their labels stand in a row along the side, each clear of
    the strip under the next column."""
    if column == middle:
        return (0.0, float(up))
    return (-0.5 if column < middle else 0.5, up * SQRT3 / 2)


def star(centre: Point, radius: float) -> tuple[Point, ...]:
    """A five-pointed star around ``centre`` (picture pixels, y down), a point upwards: a druid's target side."""
    x, y = centre
    points = []
    for k in range(10):
        r = radius if k % 2 == 0 else radius * 0.45
        angle = math.radians(-90 + 36 * k)
        points.append((x + r * math.cos(angle), y + r * math.sin(angle)))
    return tuple(points)


# ---- the end of a game, and the last move ------------------------------------------------------------------------


def winning_paths(state: DruidState) -> list[list[int]]:
    """The cells to trace over a won game, as chains of neighbouring cell indices. A connection (square, hex, Y):
    a shortest chain of the winner's cells between the first two sides of the goal it completed and, for a goal of
    three sides, a shortest branch from that chain to the third. Walk: the druid's winning step. A draw, a
    resignation or a game still on: nothing."""
    outcome = state.outcome()
    if outcome is None or len(outcome.winners) != 1 or state.recompute_winners() != set(outcome.winners):
        return []
    seat = outcome.winners[0]
    if state.walk:
        step = last_step(state)
        return [step] if step is not None else []
    board = state.board
    own = [state.top[cell] == seat for cell in range(board.ncells)]
    for sides in state.goals[seat]:
        masks = [board.sides[side] for side in sides]
        trunk = _chain(board, own, [c for c in range(board.ncells) if masks[0] >> c & 1], masks[1])
        if trunk is None:
            continue
        paths = [trunk]
        for mask in masks[2:]:
            branch = _chain(board, own, trunk, mask)
            if branch is None:
                break
            paths.append(branch)
        else:
            return paths
    return []


def _chain(board: Board, own: list[bool], starts: list[int], goal: int) -> list[int] | None:
    """A shortest path over ``own`` cells from any of ``starts`` to a cell in the ``goal`` mask (breadth first)."""
    came: dict[int, int] = {cell: -1 for cell in starts if own[cell]}
    frontier = list(came)
    while frontier:
        following = []
        for cell in frontier:
            if goal >> cell & 1:
                path = [cell]
                while came[path[-1]] >= 0:
                    path.append(came[path[-1]])
                return path[::-1]
            for other in board.neighbours[cell]:
                if own[other] and other not in came:
                    came[other] = cell
                    following.append(other)
        frontier = following
    return None


def last_step(state: DruidState) -> list[int] | None:
    """Walk: the cells of the last move's druid step (from, to), if the last move was one."""
    if state.last.get("kind") != "step":
        return None
    start, end = state.last["druid"]
    return [state.board.index[start], state.board.index[end]]


def last_cells(state: DruidState) -> tuple[int, ...]:
    """The cells of the last stone placed, if the last move placed one."""
    number = state.last.get("stone")
    return () if number is None else state.stones[number].cells
