"""Druid's second picture: the monument in 3D, an oblique view from the front (like the help file's drawings),
under the shared header; asked for when wanted (``render.board_png(state, view="3d")``), since the top-down board
(render.druid.top) carries the whole position.

Every cell is a prism and every stone a stack of unit voxels; a lintel's three voxels are drawn without the edges
between them, so it reads as one beam, and cells left empty below a lintel stay open, so gaps show. Stacks are
painted from the farthest cell to the nearest, each bottom up. The board lies as on the top-down board (the Y on its
base), seen from its bottom edge.

At most CAP levels are drawn (a taller stack ends in its top owner's colour and carries its true height in digits),
and levels grow thinner as the board grows taller, so a late board does not turn into a forest of towers. Stones
behind taller ones are hidden, as in any view of a monument: nothing is drawn for them (markers for them piled up
and read as stones), and the header says so and points to the top-down board. Coordinates stand only along the
sides that face the viewer, where no stone can rise in front of them (thinned where they would touch); goal sides
carry strips, a druid's target side stars on its strip, clear of the coordinates. A druid is a robed figure in its
player's colour; the last stone is edged and pointed at in the highlight colour, a won connection traced over the
tops of its cells, a druid's last step an arrow.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from render import header as head
from render.common import BACKGROUND, CLOCK_LOW, HIGHLIGHT, MUTED, Clock, Ratings, ink_on
from render.druid.geometry import (
    Point,
    goal_sides,
    label_spots,
    last_step,
    plane,
    shared,
    side_edges,
    star,
    winning_paths,
)
from render.druid.words import GRID, GROUND, header, seat_colours, side_colour
from render.scene import MAX_WIDTH, Colour, Ellipse, Group, Item, Line, Polygon, Rect, Scene, Text, readable
from rules.druid import Board, DruidState

#: the receding axis of the oblique view: one plane unit back moves DX right and DY up (in cell widths)
DX, DY = 0.42, 0.58
#: a stone's height in cell widths on a low board, and how tall (in cell widths) the tallest drawn stack may get
RISE = 0.62
TALLEST = 1.3
#: how far (plane units) the goal strips run outside the rim
RIM_PUSH = 0.18
#: levels drawn at most; a taller stack ends in a folded level in its top owner's colour, labelled with its height
CAP = 4
MARGIN = 18
MIN_WIDTH = 560
#: the largest cell width (pixels) of the view, for small boards
LARGEST = 44.0
EXACT = (HIGHLIGHT, GROUND, CLOCK_LOW)
NOTE = "3D view: stones behind taller ones are hidden; the top-down board shows every cell"


def _visible(normal: Point) -> bool:
    """A side face is seen when it turns towards the viewer, who looks back along (-DX, 1) from the front."""
    return normal[0] * DX - normal[1] > 1e-9


def _shade(colour: Colour, factor: float) -> Colour:
    return (int(colour[0] * factor), int(colour[1] * factor), int(colour[2] * factor))


def _face_light(normal: Point) -> float:
    """Front faces a little darker than tops, faces turned right darker still."""
    return 0.82 - 0.22 * max(0.0, normal[0])


@dataclass(frozen=True)
class Faces:
    """A board's cell polygon seen from the front: the side faces turned towards the viewer (index, next corner,
    normal), the corners where an upright edge may show (index, the corner before), the top's edges, and a unit's
    whole outline as corners of its bottom (True) or top (False)."""

    faces: tuple[tuple[int, int, Point], ...]
    uprights: tuple[tuple[int, int], ...]
    rims: tuple[tuple[int, int], ...]


@lru_cache(maxsize=32)
def faces(board: Board) -> Faces:
    lay = plane(board)
    n = len(lay.polygon)
    visible = [_visible(normal) for normal in lay.normals]
    return Faces(
        tuple((k, (k + 1) % n, lay.normals[k]) for k in range(n) if visible[k]),
        tuple((k, (k - 1) % n) for k in range(n) if visible[k] or visible[(k - 1) % n]),
        tuple((k, (k + 1) % n) for k in range(n)),
    )


@lru_cache(maxsize=32)
def order(board: Board) -> tuple[int, ...]:
    """The painter's order: farthest cell first (highest up the projected board), then left to right."""
    centres = plane(board).centres
    return tuple(sorted(range(board.ncells), key=lambda i: (centres[i][0] * DX - centres[i][1], centres[i][0])))


class View:
    """Projection of plane points and levels onto the picture: x = S (X + DX Y), y = -S DY Y - S rise z, where
    ``rise`` shrinks from RISE so that the tallest drawn stack (at most CAP levels) stays within TALLEST; ``s`` as
    large as fits :data:`MAX_WIDTH` (at most :data:`LARGEST`)."""

    def __init__(self, state: DruidState) -> None:
        self.state = state
        self.board = shared(state.board)
        self.lay = plane(self.board)
        self.drawn = [min(h, CAP) for h in state.height]
        self.rise = min(RISE, TALLEST / max(1, *self.drawn))
        xs = [x + DX * y for x, y in self.lay.centres]
        ys = [DY * y for _, y in self.lay.centres]
        pad = 1.3
        self.left = min(xs) - pad
        span = max(xs) + pad + DX - self.left
        # the right side's coordinates stand past the pad: room for the widest, at the widest picture's text size
        text = readable(MAX_WIDTH)
        widest = max((head.width_of(s.text, text) for s in label_spots(self.board) if s.edge == "right"), default=0)
        labels = text * 0.3 + 2 * _star_size(text) + 6 + widest
        self.s = min(LARGEST, (MAX_WIDTH - 2 * MARGIN - labels) / span)
        self.top = max(max(ys) + pad, *(y + self.rise * h + 1.0 for y, h in zip(ys, self.drawn, strict=True)))
        self.width = math.ceil(span * self.s + labels)
        self.height = math.ceil((self.top - min(ys) + pad) * self.s)
        self.origin: Point = (0.0, 0.0)
        self._corners: dict[tuple[int, float], list[Point]] = {}

    def point(self, x: float, y: float, z: float) -> Point:
        return (
            self.origin[0] + (x + DX * y - self.left) * self.s,
            self.origin[1] + (self.top - DY * y - self.rise * z) * self.s,
        )

    def corners(self, cell: int, z: float) -> list[Point]:
        """The cell's polygon at level ``z`` (computed once: a level's top is the next level's bottom); not to be
        changed by the caller."""
        key = (cell, z)
        points = self._corners.get(key)
        if points is None:
            cx, cy = self.lay.centres[cell]
            points = self._corners[key] = [self.point(cx + px, cy + py, z) for px, py in self.lay.polygon]
        return points

    def top_of(self, cell: int) -> Point:
        """Where the top of ``cell``'s drawn stack is, in the middle."""
        return self.point(*self.lay.centres[cell], self.drawn[cell])


def layout_3d(
    state: DruidState, clock: Clock | None = None, ratings: Ratings | None = None
) -> tuple[Group, View, int, int]:
    """The header as drawn for the 3D picture, the view placed under it, and the picture's width and height (a
    board lower than wide sits in the middle of a square picture)."""
    view = View(state)
    width = max(MIN_WIDTH, view.width + 2 * MARGIN)
    top, bottom = head.draw(header(state, (NOTE,)), width, head.Sizes.for_width(width, MARGIN), clock, ratings)
    natural = bottom + MARGIN + view.height + MARGIN
    pad = max(0.0, width - natural) / 2
    view.origin = ((width - view.width) / 2, bottom + MARGIN + pad)
    return top, view, width, math.ceil(max(natural, width))


def scene_3d(state: DruidState, clock: Clock | None = None, ratings: Ratings | None = None) -> Scene:
    """The 3D view as a scene; ``clock`` and ``ratings`` as for :func:`render.board_png`."""
    top, view, width, height = layout_3d(state, clock, ratings)
    text = readable(width)
    items: list[Item] = [top, _ground(view), _strips(view, text), _stacks(view, text)]
    items += [_labels(view, text), _marks(view)]
    return Scene(width, height, BACKGROUND, tuple(items), exact=EXACT)


# ---- the ground and the goal sides ------------------------------------------------------------------------------


def _ground(view: View) -> Group:
    """Every cell's floor not built on from the ground (a cell built on from level 1 hides its floor)."""
    items: list[Item] = []
    for cell, stack in enumerate(view.state.stacks):
        if not stack or view.state.stones[stack[0]].level != 1:
            items.append(Polygon(tuple(view.corners(cell, 0)), GROUND, GRID, 1))
    return Group(tuple(items), "ground")


def _strip_width(view: View) -> float:
    return max(3.0, round(view.s / 7))


def _star_size(text: int) -> float:
    return text * 0.42


def _strips(view: View, text: int) -> Group:
    """Goal sides as strips just outside the board, in their owner's colour (grey where shared); a druid's target
    side carries a star by each cell, on the strip, where the coordinates keep clear of it."""
    state = view.state
    width = _strip_width(view)
    targets = {target for target in state.targets if target is not None}
    groups: list[Item] = []
    for side, owner in goal_sides(state).items():
        colour = side_colour(state, owner, side)
        items: list[Item] = []
        stars: dict[int, list[Point]] = {}
        for edge in side_edges(view.board, side):
            ex, ey = edge.normal
            a = view.point(edge.a[0] + ex * RIM_PUSH, edge.a[1] + ey * RIM_PUSH, 0)
            b = view.point(edge.b[0] + ex * RIM_PUSH, edge.b[1] + ey * RIM_PUSH, 0)
            items.append(Line((a, b), colour, width))
            stars.setdefault(edge.cell, []).append(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
        if side in targets:
            for points in stars.values():
                x = sum(p[0] for p in points) / len(points)
                y = sum(p[1] for p in points) / len(points)
                items.append(Polygon(star((x, y), _star_size(text)), colour, BACKGROUND, 1))
        groups.append(Group(tuple(items), "side", side))
    return Group(tuple(groups), "sides")


# ---- the stones ---------------------------------------------------------------------------------------------------


def _stacks(view: View, text: int) -> Group:
    """Every cell's stack, farthest first, each a group tagged ``kind="cell"`` (its name, height and owner), and
    the druids standing on them."""
    state = view.state
    levels = [{state.stones[k].level: k for k in stack} for stack in state.stacks]
    last = state.last.get("stone")
    last_cells = set(state.stones[last].cells) if last is not None else set()
    width = max(1.0, round(view.s / 22))
    shape = faces(view.board)
    groups: list[Item] = []
    for cell in order(view.board):
        items: list[Item] = []
        for number in state.stacks[cell]:
            level = state.stones[number].level
            if level < CAP or (level == CAP and state.height[cell] == CAP):
                items += _voxel(view, shape, levels, cell, number, number == last, width)
        if state.height[cell] > CAP:
            items += _folded(view, cell, cell in last_cells and state.stones[last].level >= CAP, width, text)
        if cell in state.druids:
            items.append(_druid(view, cell, state.druids.index(cell)))
        if items:
            owner = state.top[cell]
            data = (("height", str(state.height[cell])), ("owner", "" if owner < 0 else str(owner)))
            groups.append(Group(tuple(items), "cell", view.board.names[cell], data))
    return Group(tuple(groups), "stacks")


def _voxel(
    view: View,
    shape: Faces,
    levels: list[dict[int, int]],
    cell: int,
    number: int,
    is_last: bool,
    width: float,
) -> list[Item]:
    """One unit of a stone at ``cell``: its visible side faces and its top, outlined where the stone ends. The
    last stone is outlined thickly in the highlight colour."""
    state = view.state
    stone = state.stones[number]
    level = stone.level
    fill, edge = seat_colours(stone.owner)
    if is_last:
        edge, width = HIGHLIGHT, _last_width(view.s)
    # what stands next door at this level, across each face (None: nothing, or the rim); the same stone
    # across a face (a lintel's next voxel) leaves that face's edges undrawn
    beside = [levels[other].get(level) if other >= 0 else None for other in view.lay.across[cell]]
    low, high = view.corners(cell, level - 1), view.corners(cell, level)
    items: list[Item] = []
    seen = [False] * len(beside)
    for k, j, normal in shape.faces:
        # a face against a unit at the same level next door is painted over by it (drawn later, nearer the viewer)
        if beside[k] is None:
            seen[k] = True
            items.append(Polygon((low[k], low[j], high[j], high[k]), _shade(fill, _face_light(normal))))
            items.append(Line((low[k], low[j]), edge, width))
    for k, before in shape.uprights:
        if (seen[k] and beside[before] != number) or (seen[before] and beside[k] != number):
            items.append(Line((low[k], high[k]), edge, width))
    if levels[cell].get(level + 1) is None:
        items.append(Polygon(tuple(high), fill))
        for k, j in shape.rims:
            if beside[k] != number:
                items.append(Line((high[k], high[j]), edge, width))
        if stone.kind == "s" and state.nostack:
            items.append(_sarsen_mark(high, edge))
    return items


def _folded(view: View, cell: int, is_last: bool, width: float, text: int) -> list[Item]:
    """The top drawn level of a stack taller than CAP: one unit in the colour of the stack's top owner, its top
    carrying the true height on a plate of that colour (the levels above are left out, so that tall stacks hide
    less of the board)."""
    state = view.state
    fill, edge = seat_colours(state.top[cell])
    if is_last:
        edge, width = HIGHLIGHT, _last_width(view.s)
    n = len(view.lay.polygon)
    low, high = view.corners(cell, CAP - 1), view.corners(cell, CAP)
    items: list[Item] = []
    for k in range(n):
        if _visible(view.lay.normals[k]):
            j = (k + 1) % n
            items.append(Polygon((low[k], low[j], high[j], high[k]), _shade(fill, _face_light(view.lay.normals[k]))))
            items += [Line((low[k], low[j]), edge, width), Line((low[k], high[k]), edge, width)]
            items.append(Line((low[j], high[j]), edge, width))
    items += [Polygon(tuple(high), fill), Line((*high, high[0]), edge, width)]
    x, y = view.top_of(cell)
    label = str(state.height[cell])
    half = head.width_of(label, text) / 2 + text * 0.2
    items.append(Rect((x - half, y - text * 0.62, x + half, y + text * 0.62), fill, edge, 1, radius=text * 0.25))
    items.append(Text((x, y), label, text, ink_on(fill), "mm"))
    return items


def _last_width(unit: float) -> float:
    """The last stone's outline: thick enough to find at a glance on a phone."""
    return max(3.0, round(unit / 9))


def _sarsen_mark(top: Sequence[Point], colour: Colour) -> Item:
    """-nostack: sarsen tops carry a small diamond, since nothing may be stacked on them."""
    cx = sum(x for x, _ in top) / len(top)
    cy = sum(y for _, y in top) / len(top)
    r = (max(x for x, _ in top) - min(x for x, _ in top)) / 6
    return Polygon(((cx - r, cy), (cx, cy - r * 0.6), (cx + r, cy), (cx, cy + r * 0.6)), None, colour, 1)


def _druid(view: View, cell: int, seat: int) -> Group:
    """A robed figure standing on the druid's cell, in its player's colour edged in dark (tagged
    ``kind="druid"``): the highlight colour is the last move's alone."""
    foot_x, foot_y = view.top_of(cell)
    s = max(view.s, 24.0)
    fill, _rim = seat_colours(seat)
    rim = max(2.0, round(s / 14))
    body = ((foot_x - 0.3 * s, foot_y), (foot_x + 0.3 * s, foot_y), (foot_x, foot_y - 0.85 * s))
    r = 0.2 * s
    hx, hy = foot_x, foot_y - 0.92 * s
    items: list[Item] = [
        Polygon(body, fill, BACKGROUND, rim),
        Ellipse((hx - r, hy - r, hx + r, hy + r), fill, BACKGROUND, rim),
    ]
    return Group(tuple(items), "druid", str(seat), (("cell", view.board.names[cell]),))


# ---- coordinates and marks ------------------------------------------------------------------------------------------


def _labels(view: View, text: int) -> Group:
    """The coordinates along the sides facing the viewer (square: letters below and numbers on the right; hex:
    the columns' letters below; Y: letters below and the rows' last cells on the right), past the strips and
    stars; where they would touch (big boards), only every second, third... is kept (see :func:`_thinned`)."""
    band = view.s * RIM_PUSH + _strip_width(view) + 2 * _star_size(text)
    kept: list[tuple[str, Point, tuple[float, float, float, float]]] = []
    for edge in ("bottom", "right"):
        spots = [spot for spot in label_spots(view.board) if spot.edge == edge and _visible(spot.direction)]
        boxes = []
        ux, uy = (0.0, 1.0) if edge == "bottom" else (1.0, 0.0)  # straight down, or right, in the picture
        for spot in spots:
            corners = view.corners(spot.cell, 0)
            reach = max(x * ux + y * uy for x, y in corners)
            if edge == "bottom":  # under the middle of the cell's lowest edge
                x = sum(p[0] for p in sorted(corners, key=lambda p: -p[1])[:2]) / 2
                y = reach
            else:
                x, y = reach, sum(p[1] for p in sorted(corners, key=lambda p: -p[0])[:2]) / 2
            half_w, half_h = head.width_of(spot.text, text) / 2, text * 0.4
            distance = band + text * 0.3 + half_w * ux + half_h * uy
            x, y = x + ux * distance, y + uy * distance
            boxes.append((spot.text, (x, y), (x - half_w, y - half_h, x + half_w, y + half_h)))
        kept += _thinned(boxes, text * 0.3)
    return Group(tuple(Text(xy, label, text, MUTED, "mm") for label, xy, _ in kept), "coordinates")


def _thinned(
    boxes: list[tuple[str, Point, tuple[float, float, float, float]]], gap: float
) -> list[tuple[str, Point, tuple[float, float, float, float]]]:
    """Every ``step``-th of a side's coordinates, the smallest step at which none touches the next, the first and
    the last always kept (the one before the last left out if it would touch it): evenly spaced, easy to count
    on from."""
    for step in range(1, len(boxes) + 1):
        chosen = list(range(0, len(boxes), step))
        if chosen[-1] != len(boxes) - 1:
            chosen.append(len(boxes) - 1)
            if len(chosen) > 2 and _touch(boxes[chosen[-2]][2], boxes[chosen[-1]][2], gap):
                del chosen[-2]
        if not any(_touch(boxes[a][2], boxes[b][2], gap) for a, b in itertools.pairwise(chosen)):
            return [boxes[k] for k in chosen]
    return boxes[:1]


def _touch(a: tuple[float, float, float, float], b: tuple[float, float, float, float], gap: float) -> bool:
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def _marks(view: View) -> Group:
    """On top of everything: a druid's last step (an arrow), else the winning connection traced over its cells'
    tops, else a pointer down at the last stone."""
    state = view.state
    step = last_step(state)
    if step is not None:
        return Group(tuple(_path([view.top_of(cell) for cell in step], max(3.0, round(view.s / 7)), True)), "last-move")
    paths = winning_paths(state)
    if paths:
        items: list[Item] = []
        for path in paths:
            items += _path([view.top_of(cell) for cell in path], max(3.0, round(view.s / 6)))
        return Group(tuple(items), "winning-path")
    last = state.last.get("stone")
    if last is None:
        return Group((), "last-move")
    cells = state.stones[last].cells
    x, y = view.top_of(cells[len(cells) // 2])
    return Group((_pointer((x, y - view.s * 0.12), view.s * 0.62),), "last-move")


def _pointer(tip: Point, size: float) -> Item:
    """A highlight arrowhead pointing down at ``tip``, edged in dark so it reads over any stone."""
    x, y = tip
    half = size * 0.42
    return Polygon(
        ((x, y), (x - half, y - size), (x + half, y - size)), HIGHLIGHT, BACKGROUND, max(2.0, round(size / 10))
    )


def _path(points: list[Point], width: float, arrow: bool = False) -> list[Item]:
    """A highlight line through ``points`` on a dark casing (so it reads over stones of every colour), with a
    dot on every cell, or an arrowhead at the end."""
    items: list[Item] = [
        Line(tuple(points), BACKGROUND, width + 4, round=True),
        Line(tuple(points), HIGHLIGHT, width, round=True),
    ]
    r = width * 0.9
    for x, y in points[:-1] if arrow else points:
        items.append(Ellipse((x - r, y - r, x + r, y + r), HIGHLIGHT, BACKGROUND, 2))
    if arrow and len(points) >= 2:
        (ax, ay), (bx, by) = points[-2], points[-1]
        length = math.hypot(bx - ax, by - ay) or 1.0
        ux, uy = (bx - ax) / length, (by - ay) / length
        size = width * 3
        tip = (bx + ux * width, by + uy * width)
        left = (tip[0] - ux * size - uy * size * 0.6, tip[1] - uy * size + ux * size * 0.6)
        right = (tip[0] - ux * size + uy * size * 0.6, tip[1] - uy * size - ux * size * 0.6)
        items.append(Polygon((tip, left, right), HIGHLIGHT, BACKGROUND, 2))
    return items
