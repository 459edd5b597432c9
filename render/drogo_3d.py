"""Drogo's second picture: the stacks seen from the front and a little above (a1 bottom left, columns to the
right, rows going back), the same way round as the top view, under the same header. Asked for when wanted
(``render.board_png(state, view="3d")``); the top view (render.drogo) carries the whole position.

Every piece is a cube in its player's colour, every face outlined, so a cube half buried in a stack still reads as
a cube and not as a patch of floor; the top face of each stack carries the stack's height where no nearer stack
covers any of it. The cubes the last move placed are outlined in the highlight colour over everything drawn
(through any nearer, taller stack that hides them, on a dark halo) and pointed at from above, so the arrow always
points at the moved stack; stacks the last move captured are drawn as highlighted wire frames.

Drawn as a scene (render.scene): the ground and the coordinates are its static group; each stack is a group
``kind="cell"`` (``id="c3"``, ``data`` ``height`` and ``owner``), the last move's marks ``last-move``, the captured
stacks' frames ``captured``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from render import drogo
from render import header as head
from render.common import BACKGROUND, CLOCK_LOW, FOREGROUND, HIGHLIGHT, PLAYER_COLOURS, Clock, Ratings, ink_on
from render.scene import Colour, Group, Item, Line, Point, Polygon, Scene, Text, readable
from rules.drogo import DrogoState, cell_name

GROUND = (62, 67, 78)
GROUND_LINE = (100, 107, 122)
#: the receding axis: one row back moves DX cell widths right and DY up; a level rises ``rise`` cell widths
DX, DY = 0.42, 0.58
RISE = 0.6
#: the tallest possible stack (n levels) is drawn at most this many cell widths high
TALLEST = 3.0
#: how much each visible side face is darkened: front (looking down the rows), right
FRONT_LIGHT, RIGHT_LIGHT = 0.84, 0.68
EXACT = (HIGHLIGHT, GROUND, GROUND_LINE, CLOCK_LOW)


def _shade(colour: Colour, factor: float) -> Colour:
    r, g, b = colour
    return (int(r * factor), int(g * factor), int(b * factor))


def rise_for(n: int) -> float:
    """A level's height in cell widths on an n x n board: a full stack (n high) stays within TALLEST."""
    return min(RISE, TALLEST / n)


@dataclass(frozen=True)
class View:
    """Oblique projection: board x (columns) runs right, y (rows) back (up and a little right), z (levels) up, all
    in cell widths of ``cell`` pixels; the front-left corner of a1 sits at ``origin``. ``text`` is the size of the
    coordinates and the heights."""

    origin: Point
    cell: float
    rise: float
    text: int

    def point(self, x: float, y: float, z: float) -> Point:
        ox, oy = self.origin
        return (ox + (x + DX * y) * self.cell, oy - (DY * y + self.rise * z) * self.cell)

    def top(self, col: int, row: int, z: float) -> tuple[Point, ...]:
        return (
            self.point(col, row, z),
            self.point(col + 1, row, z),
            self.point(col + 1, row + 1, z),
            self.point(col, row + 1, z),
        )

    def front(self, col: int, row: int, z0: float, z1: float) -> tuple[Point, ...]:
        """The face looking down the rows, towards the viewer."""
        return (
            self.point(col, row, z0),
            self.point(col + 1, row, z0),
            self.point(col + 1, row, z1),
            self.point(col, row, z1),
        )

    def right(self, col: int, row: int, z0: float, z1: float) -> tuple[Point, ...]:
        """The face looking along the columns, towards the last column (the viewer's right)."""
        return (
            self.point(col + 1, row, z0),
            self.point(col + 1, row + 1, z0),
            self.point(col + 1, row + 1, z1),
            self.point(col + 1, row, z1),
        )

    def arrow(self) -> float:
        """The height of the arrowhead pointing at the last move: half a cell, within 14 pixels and twice the
        text's size."""
        return arrow_size(self.cell, self.text)

    def stroke(self) -> float:
        """The width of the highlight's lines: 2 to 5 pixels as the cells grow."""
        return float(min(5, max(2, round(self.cell / 14))))


def arrow_size(cell: float, text: int) -> float:
    return max(14.0, min(cell * 0.5, text * 2.0))


def view_for(n: int, width: int, top: float) -> tuple[View, int]:
    """The 3D view of an n x n board filling a picture ``width`` wide under a header ending at ``top``, and the
    y where the view ends (its column letters included)."""
    text = readable(width)
    rise = rise_for(n)
    room = width - 2 * drogo.MARGIN - text * 2.2  # the row numbers on the right
    cell = room / (n * (1 + DX))
    ground_y = top + arrow_size(cell, text) + 6 + (n * DY + n * rise) * cell
    view = View((drogo.MARGIN, ground_y), cell, rise, text)
    return view, math.ceil(ground_y + cell / 5 + text * 1.9)


def layout(state: DrogoState, clock: Clock | None = None, ratings: Ratings | None = None) -> tuple[Group, View, int]:
    """The header as drawn for this picture, the view of the stacks below it and the picture's height."""
    n = state.size
    width = drogo.picture_width(n)
    top, bottom = head.draw(drogo.header(state), width, head.Sizes.for_width(width, drogo.MARGIN), clock, ratings)
    view, end = view_for(n, width, bottom)
    return top, view, max(width, end + drogo.MARGIN // 2)


def scene(state: DrogoState, clock: Clock | None = None, ratings: Ratings | None = None) -> Scene:
    """The 3D view as a scene, under the shared header; ``clock`` and ``ratings`` as for
    :func:`render.board_png`."""
    top, view, height = layout(state, clock, ratings)
    items: list[Item] = [_ground(view, state.size), top, _stacks(view, state), _captured(view, state)]
    items.append(_last_move(view, state))
    return Scene(drogo.picture_width(state.size), height, BACKGROUND, tuple(items), exact=EXACT)


# ---- the ground -------------------------------------------------------------------------------------------------


def _ground(view: View, n: int) -> Group:
    """The board: a slab with every cell's outline, so empty cells read as a grid, and the coordinates on the two
    sides facing the viewer, where no stack can cover them. The same for every position: static."""
    corners = (view.point(0, 0, 0), view.point(n, 0, 0), view.point(n, n, 0), view.point(0, n, 0))
    drop = view.cell / 5
    a, b, c = corners[0], corners[1], corners[2]
    items: list[Item] = [
        Polygon((a, b, (b[0], b[1] + drop), (a[0], a[1] + drop)), _shade(GROUND, 0.7)),
        Polygon((b, c, (c[0], c[1] + drop), (b[0], b[1] + drop)), _shade(GROUND, 0.55)),
        Polygon(corners, GROUND),
    ]
    for k in range(n + 1):
        items.append(Line((view.point(k, 0, 0), view.point(k, n, 0)), GROUND_LINE))
        items.append(Line((view.point(0, k, 0), view.point(n, k, 0)), GROUND_LINE))
    for text, centre in axis_label_points(view, n):
        items.append(Text(centre, text, view.text, FOREGROUND, "mm"))
    return Group(tuple(items), "ground", static=True)


def axis_label_points(view: View, n: int) -> list[tuple[str, Point]]:
    """Where the coordinates go: each column letter below the middle of its front cell's front edge, each row
    number right of its rightmost cell's right edge (of its far end: the edge slants)."""
    size = view.text
    drop = view.cell / 5 + size * 0.9
    points = []
    for k in range(n):
        x, y = view.point(k + 0.5, 0, 0)
        points.append((chr(ord("a") + k), (x, y + drop)))
        x, y = view.point(n, k + 0.5, 0)
        points.append((str(k + 1), (x + DX * view.cell / 2 + size * 0.8, y)))
    return points


# ---- the stacks -------------------------------------------------------------------------------------------------


def _blocked(heights: list[int], n: int, rise: float, x: float, y: float, z: float) -> bool:
    """Whether the point (x, y, z) is hidden by a stack nearer the viewer. Every point on the line
    (x + DX t, y - t, z + DY t / rise), t > 0, projects to the same pixel, so the point is hidden exactly when
    that line runs through a cube: through a cell whose stack is taller than the line's height where it enters
    the cell (the line only climbs)."""
    climb = DY / rise
    t = 0.0
    while True:
        px, py = x + DX * t, y - t
        col, row = math.floor(px), math.floor(py)
        if col >= n or row < 0 or px < 0 or py > n:
            return False
        if col >= 0 and row < n and heights[row * n + col] > z + climb * t + 1e-9:
            return True
        # the next cell border the line crosses: the right side of this column or the front of this row
        t += min((col + 1 - px) / DX, py - row) + 1e-9


def label_hidden(heights: list[int], n: int, rise: float, col: int, row: int, half_w: float, half_h: float) -> bool:
    """Whether any part of a label centred on the top face of the stack on (col, row) would be covered by a
    stack in front of it. ``half_w`` and ``half_h`` are the label's half sizes on screen, in cell widths. Nine
    points of the label's box are tested (corners, edge middles, centre); a partly covered label is left out
    rather than drawn cut, since the top view gives every height anyway."""
    z = heights[row * n + col]
    for dx in (-half_w, 0.0, half_w):
        for dy in (-half_h, 0.0, half_h):
            # screen offset (dx, dy) at height z (screen y grows downwards): dx = x + DX y' and dy = -DY y'
            back = -dy / DY
            if _blocked(heights, n, rise, col + 0.5 + dx - DX * back, row + 0.5 + back, z):
                return True
    return False


def _stacks(view: View, state: DrogoState) -> Group:
    """Stacks from the back row to the front, each row left to right, each stack from the ground up, skipping
    faces a neighbour hides; every face outlined so each cube keeps its shape. Each stack is tagged as its cell."""
    n = state.size
    heights = [len(stack) for stack in state.stacks]
    # the tallest stack in each row and the rows before it: a label no stack there rises above is never hidden
    before: list[int] = []
    for row in range(n):
        before.append(max(heights[row * n : row * n + n] + before[-1:]))
    groups: list[Item] = []
    for row in range(n - 1, -1, -1):
        for col in range(n):
            stack = state.stacks[row * n + col]
            if stack:
                groups.append(_stack(view, state, col, row, heights, before[row]))
    return Group(tuple(groups), "stacks")


def _stack(view: View, state: DrogoState, col: int, row: int, heights: list[int], cover: int) -> Group:
    """One stack's visible faces, its top in its owner's colour with the height on it where nothing covers it
    (``cover``: the tallest stack in this row and the rows in front)."""
    n = state.size
    stack = state.stacks[row * n + col]
    right = state.height(col + 1, row) if col < n - 1 else 0
    front = state.height(col, row - 1) if row > 0 else 0
    items: list[Item] = []
    for level, seat in enumerate(stack):
        fill, outline = PLAYER_COLOURS[seat]
        if level >= right:
            items.append(Polygon(view.right(col, row, level, level + 1), _shade(fill, RIGHT_LIGHT), outline))
        if level >= front:
            items.append(Polygon(view.front(col, row, level, level + 1), _shade(fill, FRONT_LIGHT), outline))
    owner = stack[-1]
    fill, outline = PLAYER_COLOURS[owner]
    items.append(Polygon(view.top(col, row, len(stack)), fill, outline))
    text = str(len(stack))
    half_w, half_h = head.width_of(text, view.text) / 2 / view.cell, view.text * 0.38 / view.cell
    if cover <= len(stack) or not label_hidden(heights, n, view.rise, col, row, half_w, half_h):
        items.append(Text(view.point(col + 0.5, row + 0.5, len(stack)), text, view.text, ink_on(fill), "mm"))
    data = (("height", text), ("owner", str(owner)))
    return Group(tuple(items), "cell", cell_name(col, row), data)


def _captured(view: View, state: DrogoState) -> Group:
    """Wire frames where the last move captured stacks (their old height) and a cross on the ground, so a
    removal is visible."""
    width = view.stroke()
    items: list[Item] = []
    for col, row, stack in (state.last or {}).get("captured", []):
        low, high = view.top(col, row, 0), view.top(col, row, len(stack))
        items.append(Line((*high, high[0]), HIGHLIGHT, width))
        items.append(Line((low[3], low[0], low[1], low[2]), HIGHLIGHT, width))
        items += [Line((low[k], high[k]), HIGHLIGHT, width) for k in range(4)]
        a, b = view.point(col + 0.2, row + 0.2, 0), view.point(col + 0.8, row + 0.8, 0)
        c, d = view.point(col + 0.8, row + 0.2, 0), view.point(col + 0.2, row + 0.8, 0)
        items += [Line((a, b), HIGHLIGHT, width), Line((c, d), HIGHLIGHT, width)]
    return Group(tuple(items), "captured") if items else Group(())


def placed_outlines(view: View, state: DrogoState) -> list[tuple[Point, ...]]:
    """The outlines of the cubes the last move placed: each cube's front and right faces, and the top face of
    the one on top of its stack (closed paths, in drawing order)."""
    placed = (state.last or {}).get("placed", [])
    paths: list[tuple[Point, ...]] = []
    for col, row, level in placed:
        for face in (view.front(col, row, level, level + 1), view.right(col, row, level, level + 1)):
            paths.append((*face, face[0]))
        if level + 1 == state.height(col, row):
            face = view.top(col, row, level + 1)
            paths.append((*face, face[0]))
    return paths


def pointer_tips(view: View, state: DrogoState) -> list[Point]:
    """Where the last placement's arrows point: the back edge of each placed stack's top (outlined over
    everything, so the arrow meets the moved stack's own outline even behind a taller stack), clear of the height
    written on it."""
    cells = sorted({(col, row) for col, row, _level in (state.last or {}).get("placed", [])})
    tips = []
    for col, row in cells:
        x, y = view.point(col + 0.5, row + 0.9, state.height(col, row))
        tips.append((x, y - view.cell * 0.04))
    return tips


def _last_move(view: View, state: DrogoState) -> Group:
    """The placed cubes' outlines in the highlight colour on a dark halo, then an arrowhead above each placed
    stack: drawn after every stack, so neither hides behind a nearer, taller stack."""
    width = view.stroke()
    items: list[Item] = [Line(path, BACKGROUND, width + 2, round=True) for path in placed_outlines(view, state)]
    items += [Line(path, HIGHLIGHT, width, round=True) for path in placed_outlines(view, state)]
    size = view.arrow()
    half = size * 0.42
    for x, y in pointer_tips(view, state):
        items.append(Polygon(((x, y), (x - half, y - size), (x + half, y - size)), HIGHLIGHT, BACKGROUND, 2))
    if not items:
        return Group(())
    cells = ",".join(cell_name(col, row) for col, row in sorted({(c, r) for c, r, _ in state.last["placed"]}))
    return Group(tuple(items), "last-move", cells)
