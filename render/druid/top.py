"""Druid's main picture: the board seen from above, large, under the shared header.

Every cell shows its top stone's owner (the cell in their colour, their letter on it) over the cell's height as a
number; empty cells are bare ground. A lintel's cells still topped by it are joined into one outlined beam, so a
lintel reads as one stone bridging its end cells. A druid (Druid's Walk) is a disc in its player's colour on a dark
ring, under the cell's letter and height. The last stone placed is outlined in the highlight colour (a druid's step:
an arrowhead across the edge it crossed); a won connection's cells are outlined and linked across their shared edges
instead, never drawn over the letters. Goal sides carry strips in their owner's colour (grey where sides are
shared), the sides of hex boards their names (NW, E...), a druid's target side stars; coordinates stand on every
edge (see render.druid.geometry).

Sizes, for the phone: every text is at least render.scene.readable size for the picture's width (11 px when the
picture is shown 400 px wide). The board fills the picture's width (at most render.scene.MAX_WIDTH); where a cell
is too narrow for its letter over its height at that size (boards from about 20 columns), cells are drawn taller
than wide rather than the texts smaller: a 26x26 board is a portrait picture. A height of 100 or more (a tower of a
hundred stones) may run a little past a narrow cell's sides.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from render import header as head
from render import png
from render.common import BACKGROUND, CLOCK_LOW, HIGHLIGHT, MUTED, Clock, Ratings, ink_on
from render.druid.geometry import (
    Point,
    goal_sides,
    label_spots,
    last_cells,
    last_step,
    plane,
    shared,
    side_edges,
    star,
    winning_paths,
)
from render.druid.words import GRID, GROUND, SHARED_SIDES, header, seat_colours, side_colour
from render.scene import MAX_WIDTH, Colour, Ellipse, Group, Item, Line, Polygon, Rect, Scene, Text, readable
from rules.druid import HEX, SQUARE, Board, DruidState

MARGIN = 18
MIN_WIDTH = 560
#: the picture's width per column of cells (coordinates included) where that stays within the limits
COLUMN_PX = 46
#: how far a cell's letter stands above its centre, and its height below, in text sizes
OFFSET = 0.43
#: hex boards: the least height of a cell, in text sizes, so that the names over neighbouring columns' tops,
#: half a cell apart upwards, do not touch
NAME_STEP = 1.7
#: a cell's text size at most this many times the least readable size (big cells, small boards)
TEXT_GROWTH = 1.5
#: colours only some positions show: a replay's palette holds them even if its sampled frames do not
KEY_COLOURS = (HIGHLIGHT, GROUND, GRID, *SHARED_SIDES)
EXACT = (HIGHLIGHT, GROUND, CLOCK_LOW)
KEY = "each cell: its owner over its height; a lintel is outlined across its cells"
WALK_KEY = "a ringed disc is a player's druid; stars mark the side it must reach"
NOSTACK_KEY = "-nostack: a corner diamond marks a sarsen top, where no sarsen may go"


@dataclass(frozen=True)
class Frame:
    """The board's measures for a picture ``width`` wide, before it is placed below a header: ``sx`` and ``sy``
    pixels per plane unit across and up, the label and cell text sizes, the strip and star sizes, and the extent
    of everything drawn (cells, strips, coordinates, side names) around the plane's origin, in pixels."""

    width: int
    sx: float
    sy: float
    text: int
    cell_text: int
    strip: float
    push: float
    star: float
    left: float
    top: float
    right: float
    bottom: float

    def at(self, x: float, y: float) -> Point:
        """A plane point in pixels, the plane's origin at (0, 0)."""
        return (x * self.sx, -y * self.sy)


def picture_width(board: Board) -> int:
    """Wide enough for the board's columns and coordinates at a comfortable size, within the limits."""
    lay = plane(board)
    xs = [x for x, _ in lay.centres]
    span = max(xs) - min(xs) + 2 * max(abs(x) for x, _ in lay.polygon)
    return max(MIN_WIDTH, min(MAX_WIDTH, round(COLUMN_PX * (span + 2.6))))


@lru_cache(maxsize=32)
def frame(board: Board, walk: bool, named: bool) -> Frame:
    """The board's measures (``walk``: room for target stars along every side; ``named``: hex side names): the
    width across it fitted to the picture in a few rounds, since the coordinates' room depends on the scale."""
    width = picture_width(board)
    text = readable(width)
    lay = plane(board)
    xs = [x for x, _ in lay.centres]
    reach = max(abs(x) for x, _ in lay.polygon)
    span = max(xs) - min(xs) + 2 * reach
    room = width - 2 * MARGIN
    sx = room / (span + 2.6)
    for _ in range(4):
        measured = _measure(board, walk, named, width, text, sx)
        sx *= (room - (measured.right - measured.left - sx * span)) / (sx * span)
    return _measure(board, walk, named, width, text, sx)


def _measure(board: Board, walk: bool, named: bool, width: int, text: int, sx: float) -> Frame:
    """The frame at ``sx`` pixels per unit across: the cell text size and ``sy`` that fit it, and the extent. On
    hex boards the names over the columns' tops, which step up half a cell from column to column, keep a line of
    their own each (they overlap across)."""
    cell_text, sy = _cell_fit(board, sx, text)
    if board.kind == HEX:
        sy = max(sy, text * NAME_STEP)
    strip = max(3.0, round(text * 0.28))
    push = max(2.0, text * 0.12)
    star = text * 0.42 if walk else 0.0
    draft = Frame(width, sx, sy, text, cell_text, strip, push, star, 0, 0, 0, 0)
    boxes = [box for _, _, box in _label_boxes(board, draft)] + [box for _, _, _, box in _names(board, draft, named)]
    lay = plane(board)
    points = [draft.at(cx + px, cy + py) for cx, cy in lay.centres for px, py in lay.polygon]
    band = push + strip + 2 * star  # the strips and stars beyond the cells
    left = min([x - band for x, _ in points] + [b[0] for b in boxes])
    right = max([x + band for x, _ in points] + [b[2] for b in boxes])
    top = min([y - band for _, y in points] + [b[1] for b in boxes])
    bottom = max([y + band for _, y in points] + [b[3] for b in boxes])
    return Frame(width, sx, sy, text, cell_text, strip, push, star, left, top, right, bottom)


def _block(size: float) -> tuple[tuple[float, float, float], ...]:
    """A cell's texts at ``size`` around its centre, as boxes (half width, centre y, half height): the owner's
    letter above, the height below (one digit: a two-digit height may graze a hexagon's slanted sides)."""
    offset = size * OFFSET
    return ((size * 0.38, -offset, size * 0.37), (size * 0.31, offset, size * 0.37))


def _fits(polygon: Sequence[Point], size: float, square: bool) -> bool:
    """Whether a cell's letter over its height at ``size`` fit inside ``polygon`` (pixels, around its centre) with
    a little room; square cells also fit a two-digit height across, if only just."""
    pad = 1.0 + size * 0.04
    if square:
        half_w = (max(x for x, _ in polygon) - min(x for x, _ in polygon)) / 2
        half_h = (max(y for _, y in polygon) - min(y for _, y in polygon)) / 2
        return half_w >= max(size * 0.38 + pad, size * 0.58) and half_h >= size * (OFFSET + 0.37) + pad
    pad = -size * 0.05  # a glyph's box corners are mostly bare: they may just reach over a hexagon's slant
    corners = [(sign * w, y + side * h) for w, y, h in _block(size) for sign in (-1, 1) for side in (-1, 1)]
    edges = list(zip(polygon, (*polygon[1:], polygon[0]), strict=True))
    for x, y in corners:
        for (ax, ay), (bx, by) in edges:  # inside a convex polygon: on the inner side of every edge, by ``pad``
            length = math.hypot(bx - ax, by - ay)
            if ((bx - ax) * (y - ay) - (by - ay) * (x - ax)) / length * _winding(polygon) < pad:
                return False
    return True


def _winding(polygon: Sequence[Point]) -> float:
    """+1 or -1: the sign that makes :func:`_fits`'s cross products positive inside ``polygon``."""
    area = sum(ax * by - bx * ay for (ax, ay), (bx, by) in zip(polygon, (*polygon[1:], polygon[0]), strict=True))
    return 1.0 if area > 0 else -1.0


def _cell_fit(board: Board, sx: float, text: int) -> tuple[int, float]:
    """The text size of a cell's letter and height, and ``sy``: as large as fits cells as wide as tall (up to
    TEXT_GROWTH times ``text``), else ``text`` in cells stretched upwards until it fits."""
    polygon = plane(board).polygon
    square = board.kind == SQUARE

    def cell(sy: float) -> list[Point]:
        return [(px * sx, -py * sy) for px, py in polygon]

    for size in range(math.floor(text * TEXT_GROWTH), text - 1, -1):
        if _fits(cell(sx), size, square):
            return size, sx
    sy = sx
    while not _fits(cell(sy), text, square) and sy < 4 * sx:  # never stretched past four times: no endless loop
        sy *= 1.02
    return text, sy


def _label_boxes(board: Board, where: Frame) -> list[tuple[str, Point, tuple[float, float, float, float]]]:
    """Each coordinate's text, centre and box (pixels around the plane's origin): beyond its cell along the
    spot's direction, past the strip (and stars) and a gap, its box clear of the cell whole."""
    lay = plane(board)
    out = []
    gap = where.text * 0.3 + where.push + where.strip + 2 * where.star
    for spot in label_spots(board):
        dx, dy = spot.direction
        ux, uy = dx * where.sx, -dy * where.sy
        length = math.hypot(ux, uy)
        ux, uy = ux / length, uy / length
        reach = max(px * where.sx * ux - py * where.sy * uy for px, py in lay.polygon)
        half_w, half_h = head.width_of(spot.text, where.text) / 2, where.text * 0.4
        support = half_w * abs(ux) + half_h * abs(uy)
        cx, cy = where.at(*lay.centres[spot.cell])
        x, y = cx + ux * (reach + gap + support), cy + uy * (reach + gap + support)
        out.append((spot.text, (x, y), (x - half_w, y - half_h, x + half_w, y + half_h)))
    return out


def _names(
    board: Board, where: Frame, named: bool
) -> list[tuple[str, Point, Point, tuple[float, float, float, float]]]:
    """Hex boards' side names (``named``): each side's name, its text's centre, the side's outward direction
    (pixels) and its box, beyond the side's middle and past the coordinates of the side's cells."""
    if not named:
        return []
    lay = plane(board)
    spots = label_spots(board)
    labels = _label_boxes(board, where)
    out = []
    for side, (nx, ny) in lay.side_normals.items():
        edges = side_edges(board, side)
        mx = sum(edge.a[0] + edge.b[0] for edge in edges) / (2 * len(edges))
        my = sum(edge.a[1] + edge.b[1] for edge in edges) / (2 * len(edges))
        ux, uy = nx * where.sx, -ny * where.sy
        length = math.hypot(ux, uy)
        ux, uy = ux / length, uy / length
        half_w, half_h = head.width_of(side, where.text) / 2, where.text * 0.4
        x0, y0 = where.at(mx, my)
        mine = [box for spot, (_, _, box) in zip(spots, labels, strict=True) if board.sides[side] >> spot.cell & 1]
        beyond = max(
            max((x - x0) * ux + (y - y0) * uy for x in (box[0], box[2]) for y in (box[1], box[3])) for box in mine
        )
        distance = beyond + where.text * 0.4 + half_w * abs(ux) + half_h * abs(uy)
        x, y = x0 + ux * distance, y0 + uy * distance
        out.append((side, (x, y), (ux, uy), (x - half_w, y - half_h, x + half_w, y + half_h)))
    return out


# ---- the picture ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Placed:
    """A frame placed in a picture: the plane's origin in pixels, and the picture's height."""

    frame: Frame
    origin: Point
    height: int

    def at(self, x: float, y: float) -> Point:
        fx, fy = self.frame.at(x, y)
        return (self.origin[0] + fx, self.origin[1] + fy)


def place(board: Board, walk: bool, named: bool, top: float) -> Placed:
    """The board under a header ending at ``top``, centred across; a board less tall than wide sits in the
    middle of a square picture."""
    where = frame(shared(board), walk, named)
    natural = top + MARGIN + (where.bottom - where.top) + MARGIN
    pad = max(0.0, where.width - natural) / 2
    origin = ((where.width - (where.right - where.left)) / 2 - where.left, top + MARGIN + pad - where.top)
    return Placed(where, origin, math.ceil(max(natural, where.width)))


def layout(
    state: DruidState, clock: Clock | None = None, ratings: Ratings | None = None, board_top: float = 0.0
) -> tuple[Group, Placed]:
    """The header as drawn for this picture, and where the board goes below it (at ``board_top`` or lower)."""
    named = state.board.kind == "hex"
    where = frame(shared(state.board), state.walk, named)
    lines = (KEY, *((WALK_KEY,) if state.walk else ()), *((NOSTACK_KEY,) if state.nostack else ()))
    group, bottom = head.draw(
        header(state, lines), where.width, head.Sizes.for_width(where.width, MARGIN), clock, ratings
    )
    return group, place(state.board, state.walk, named, max(bottom, board_top))


def scene(
    state: DruidState, clock: Clock | None = None, ratings: Ratings | None = None, board_top: float = 0.0
) -> Scene:
    """The top-down board as a scene, its coordinates' top at ``board_top`` or lower (a replay keeps the board in
    one place); ``clock`` and ``ratings`` as for :func:`render.board_png`."""
    top, placed = layout(state, clock, ratings, board_top)
    items: list[Item] = [_surround(state, placed), top, _cells(state, placed), _marks(state, placed)]
    return Scene(placed.frame.width, placed.height, BACKGROUND, tuple(items), exact=EXACT)


def render_image(state: DruidState, clock: Clock | None = None, ratings: Ratings | None = None) -> Image.Image:
    """The top-down board as an RGB image; ``clock`` and ``ratings`` as for :func:`render.board_png`."""
    return png.raster(scene(state, clock, ratings))


def replay_images(states: Sequence[DruidState]) -> Iterator[Image.Image]:
    """The boards of a replay, each with the board at the same height (the lowest any frame's header needs), so
    that a frame changes only where the game did and a GIF stores only that."""
    board_top = max(header_end(layout(state)[1]) for state in states)
    for state in states:
        yield png.raster(scene(state, board_top=board_top))


def header_end(placed: Placed) -> float:
    """Where the header ends above a placed board (what ``board_top`` asks for)."""
    return placed.origin[1] + placed.frame.top - MARGIN


# ---- around the board: strips, stars, coordinates, side names ------------------------------------------------------


def _surround(state: DruidState, placed: Placed) -> Group:
    """The goal strips, the target stars, the coordinates and the side names: the same in every picture of a game
    (until a druid's target is known), so drawn once and kept (a static group)."""
    where = placed.frame
    ox, oy = placed.origin
    items: list[Item] = []
    targets = {target for target in state.targets if target is not None}
    for side, owner in goal_sides(state).items():
        colour = side_colour(state, owner, side)
        strips: list[Item] = []
        for edge in side_edges(state.board, side):
            ux, uy = edge.normal[0] * where.sx, -edge.normal[1] * where.sy
            length = math.hypot(ux, uy)
            shift = where.push + where.strip / 2
            dx, dy = ux / length * shift, uy / length * shift
            (ax, ay), (bx, by) = placed.at(*edge.a), placed.at(*edge.b)
            strips.append(Line(((ax + dx, ay + dy), (bx + dx, by + dy)), colour, where.strip))
        if side in targets:
            strips += _stars(state, placed, side, colour)
        items.append(Group(tuple(strips), "side", side, (("owner", "" if owner is None else str(owner)),)))
    labels: list[Item] = [
        Text((ox + x, oy + y), text, where.text, MUTED, "mm") for text, (x, y), _ in _label_boxes(state.board, where)
    ]
    items.append(Group(tuple(labels), "coordinates"))
    for side, (x, y), _, _ in _names(state.board, where, state.board.kind == "hex"):
        owner = goal_sides(state)[side]
        text = Text((ox + x, oy + y), side, where.text, side_colour(state, owner, side), "mm")
        items.append(Group((text,), "side-name", side))
    return Group(tuple(items), "surround", static=True)


def _stars(state: DruidState, placed: Placed, side: str, colour: Colour) -> list[Item]:
    """A star on the strip by each cell of a druid's target side, in the strip's colour on a dark rim."""
    where = placed.frame
    out: list[Item] = []
    by_cell: dict[int, list[Point]] = {}
    for edge in side_edges(state.board, side):
        ux, uy = edge.normal[0] * where.sx, -edge.normal[1] * where.sy
        length = math.hypot(ux, uy)
        shift = where.push + where.strip + where.star
        (ax, ay), (bx, by) = placed.at(*edge.a), placed.at(*edge.b)
        by_cell.setdefault(edge.cell, []).append(
            ((ax + bx) / 2 + ux / length * shift, (ay + by) / 2 + uy / length * shift)
        )
    for points in by_cell.values():
        x = sum(p[0] for p in points) / len(points)
        y = sum(p[1] for p in points) / len(points)
        out.append(Polygon(star((x, y), where.star), colour, BACKGROUND, 1))
    return out


# ---- the cells ----------------------------------------------------------------------------------------------------


def _cells(state: DruidState, placed: Placed) -> Group:
    """Every cell in three layers: the cells themselves (tagged ``kind="cell"`` with their name, height, owner
    and top stone's kind: what a web page makes tappable), the lintels over them, then the druids and the texts,
    which nothing covers."""
    board = state.board
    where = placed.frame
    lay = plane(board)
    square = board.kind == SQUARE
    centres = [tuple(round(v) for v in placed.at(*centre)) for centre in lay.centres]
    cells: list[Item] = []
    for cell in range(board.ncells):
        owner = state.top[cell]
        fill = seat_colours(owner)[0] if owner >= 0 else GROUND
        stone = state.stones[state.stacks[cell][-1]] if state.stacks[cell] else None
        data = (
            ("height", str(state.height[cell])),
            ("owner", "" if owner < 0 else str(owner)),
            ("stone", "" if stone is None else "lintel" if stone.kind == "l" else "sarsen"),
        )
        shape = _cell_shape(lay.polygon, centres[cell], where, fill, square)
        cells.append(Group((shape,), "cell", board.names[cell], data))
    return Group(
        (Group(tuple(cells), "cells"), _beams(state, placed, centres), _texts(state, placed, centres)), "board"
    )


def _texts(state: DruidState, placed: Placed, centres: Sequence[tuple[int, ...]]) -> Group:
    """The druids, then each built cell's owner letter over its height, in the ink that reads on its colour; under
    -nostack, a sarsen top's diamond (the help: "sarsens are specially marked when this option is on")."""
    where = placed.frame
    size = where.cell_text
    offset = size * OFFSET
    items: list[Item] = []
    if state.nostack:
        corner = min(plane(state.board).polygon, key=lambda p: (round(p[0], 6), -p[1]))  # the left (upper) corner
        r = max(2.0, min(where.sx, where.sy) * 0.09)
        for cell, stack in enumerate(state.stacks):
            if stack and state.stones[stack[-1]].kind == "s":
                x, y = centres[cell]
                cx = x + corner[0] * where.sx + (r + 2) * (1 if corner[0] < 0 else -1)
                cy = y - corner[1] * where.sy + (r + 2) * (1 if corner[1] > 0 else -1 if corner[1] < 0 else 0)
                rim = seat_colours(state.top[cell])[1]
                items.append(Polygon(((cx - r, cy), (cx, cy - r), (cx + r, cy), (cx, cy + r)), rim))
    for seat, cell in enumerate(state.druids):
        if cell is not None:
            items.append(_druid(where, centres[cell], seat, state.board.names[cell]))
    for cell, owner in enumerate(state.top):
        if owner < 0:
            continue
        x, y = centres[cell]
        on = state.druids.index(cell) if cell in state.druids else owner
        ink = ink_on(seat_colours(on)[0])
        items.append(Text((x, y - offset), state.colours[owner], size, ink, "mm"))
        items.append(Text((x, y + offset), str(state.height[cell]), size, ink, "mm"))
    return Group(tuple(items), "texts")


def _cell_shape(polygon: Sequence[Point], centre: Sequence[float], where: Frame, fill: Colour, square: bool) -> Item:
    """A cell's ground or stone, edged by the grid: squares as rectangles whose right and bottom pixels are the
    next cells' (Pillow boxes include both ends), so that neighbours never overlap."""
    x, y = centre
    if square:
        half_w, half_h = where.sx / 2, where.sy / 2
        box = (round(x - half_w), round(y - half_h), round(x + half_w) - 1, round(y + half_h) - 1)
        return Rect(box, fill, GRID, 1)
    return Polygon(tuple((x + px * where.sx, y - py * where.sy) for px, py in polygon), fill, GRID, 1)


def _beams(state: DruidState, placed: Placed, centres: Sequence[tuple[int, ...]]) -> Group:
    """Every lintel where it still tops its cells: those cells merged into one shape in the owner's colour (over
    the grid lines between them), edged in the owner's dark rim colour, so that a lintel reads as one stone
    bridging its end cells; a lintel covered in the middle shows as its two ends, each edged alike. Tagged
    ``kind="lintel"`` with its cells as typed (``c3-e3``)."""
    where = placed.frame
    lay = plane(state.board)
    names = state.board.names
    rim_w = max(2.0, round(min(where.sx, where.sy) * 0.07))
    groups: list[Item] = []
    seen: set[int] = set()
    for stack in state.stacks:
        number = stack[-1] if stack else -1
        if number < 0 or number in seen or state.stones[number].kind != "l":
            continue
        seen.add(number)
        stone = state.stones[number]
        fill, rim = seat_colours(stone.owner)
        runs: list[list[int]] = [[]]
        for part in stone.cells:
            if state.stacks[part][-1] == number:
                runs[-1].append(part)
            elif runs[-1]:
                runs.append([])
        shapes: list[Item] = []
        for run in (run for run in runs if run):
            polygons = [
                [(centres[part][0] + px * where.sx, centres[part][1] - py * where.sy) for px, py in lay.polygon]
                for part in run
            ]
            outline = tuple(_inset(_union(polygons), rim_w / 2 + 1))
            shapes += [Polygon(outline, fill), Line((*outline, outline[0]), rim, rim_w, round=True)]
        ident = f"{names[stone.cells[0]]}-{names[stone.cells[-1]]}"
        groups.append(Group(tuple(shapes), "lintel", ident, (("owner", str(stone.owner)), ("level", str(stone.level)))))
    return Group(tuple(groups), "lintels")


def _union(polygons: Sequence[Sequence[Point]]) -> list[Point]:
    """The outline of neighbouring convex polygons that share whole edges (a lintel's cells): every edge but the
    shared ones, chained into one loop, with the corners that no longer turn left out."""
    edges: list[tuple[Point, Point]] = []
    for polygon in polygons:
        edges += list(zip(polygon, (*polygon[1:], polygon[0]), strict=True))

    def same(p: Point, q: Point) -> bool:
        return abs(p[0] - q[0]) < 1.5 and abs(p[1] - q[1]) < 1.5  # centres are rounded one by one

    kept = [(a, b) for a, b in edges if not any(same(a, d) and same(b, c) for c, d in edges)]
    loop = [kept[0][0]]
    current = kept.pop(0)
    while kept:
        following = next(k for k, (a, _b) in enumerate(kept) if same(a, current[1]))
        current = kept.pop(following)
        loop.append(current[0])
    return [
        point
        for k, point in enumerate(loop)
        if abs(_cross(loop[k - 1], point, loop[(k + 1) % len(loop)])) > 1e-6 * max(1.0, _span(loop)) ** 2
    ]


def _cross(a: Point, b: Point, c: Point) -> float:
    return (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])


def _span(points: Sequence[Point]) -> float:
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return max(max(xs) - min(xs), max(ys) - min(ys))


def _inset(polygon: Sequence[Point], distance: float) -> list[Point]:
    """``polygon`` (a simple polygon, convex or not) with every edge moved ``distance`` pixels inwards, corners
    mitred: so that an outline drawn on it lies inside the cells and never over a neighbour."""
    lines = _edge_lines(polygon, distance)
    return [_meet(lines[k - 1], lines[k]) for k in range(len(lines))]


def _druid(where: Frame, centre: Sequence[float], seat: int, cell: str) -> Group:
    """A druid: a disc in its player's colour on a dark ring, filling most of its cell (tagged ``kind="druid"``
    with the seat, ``data-cell`` the cell it stands on)."""
    x, y = centre
    r = min(where.sx, where.sy) * 0.44
    rx, ry = min(r * 1.15, where.sx * 0.44), min(r * 1.15, where.sy * 0.44)
    ring = max(2.0, min(rx, ry) * 0.16)
    fill = seat_colours(seat)[0]
    disc = Ellipse((x - rx, y - ry, x + rx, y + ry), fill, BACKGROUND, ring)
    return Group((disc,), "druid", str(seat), (("cell", cell),))


# ---- marks: the last move, the winning connection ------------------------------------------------------------------


def _marks(state: DruidState, placed: Placed) -> Group:
    """A won connection outlined (each chain of its cells as one shape); else the last stone's cells outlined as
    one shape, or a druid's last step (its arrowhead across the edge it crossed, the cell it reached outlined).
    Outlines lie inside the cells' edges, clear of the letters in their middles."""
    paths = winning_paths(state)
    step = last_step(state)
    width = max(3.0, round(placed.frame.text * 0.2))
    if paths and step is None:
        chains = tuple(Group(tuple(_outline(state, placed, path, width)), "chain") for path in paths)
        return Group(chains, "winning-path")
    if step is not None:
        return Group(_step(state, placed, step, width), "last-move", "step")
    return Group(tuple(_outline(state, placed, list(last_cells(state)), width)), "last-move")


def _outline(state: DruidState, placed: Placed, chain: Sequence[int], width: float) -> list[Item]:
    """The outline of a chain of neighbouring cells (a lintel's, a winning path's) as one shape, in the highlight
    colour and ``width`` wide, just inside the cells: every cell edge but those between cells next in the chain,
    each edge's line run on to meet the next one's (or, where the chain goes on, to the edge between)."""
    lay = plane(state.board)
    where = placed.frame
    links = {pair for a, b in itertools.pairwise(chain) for pair in ((a, b), (b, a))}
    inset = width / 2 + 0.5
    items: list[Item] = []
    for cell in chain:
        cx, cy = (round(v) for v in placed.at(*lay.centres[cell]))
        polygon = [(cx + px * where.sx, cy - py * where.sy) for px, py in lay.polygon]
        n = len(polygon)
        edges = _edge_lines(polygon, 0.0)
        inner = _edge_lines(polygon, inset)
        going_on = [(cell, lay.across[cell][k]) in links for k in range(n)]
        for k in range(n):
            if going_on[k]:
                continue
            before = edges[k - 1] if going_on[k - 1] else inner[k - 1]
            after = edges[(k + 1) % n] if going_on[(k + 1) % n] else inner[(k + 1) % n]
            start, end = _meet(inner[k], before), _meet(inner[k], after)
            dx, dy = end[0] - start[0], end[1] - start[1]
            length = math.hypot(dx, dy) or 1.0
            grow = width / 2 / length  # square ends run on to fill the corner
            start = start if going_on[k - 1] else (start[0] - dx * grow, start[1] - dy * grow)
            end = end if going_on[(k + 1) % n] else (end[0] + dx * grow, end[1] + dy * grow)
            items.append(Line((start, end), HIGHLIGHT, width))
    return items


def _edge_lines(polygon: Sequence[Point], inset: float) -> list[tuple[Point, Point]]:
    """Each edge of a simple ``polygon`` as a line (a point on it, its direction), moved ``inset`` inwards."""
    area = sum(ax * by - bx * ay for (ax, ay), (bx, by) in zip(polygon, (*polygon[1:], polygon[0]), strict=True))
    turn = 1.0 if area > 0 else -1.0
    lines = []
    for (ax, ay), (bx, by) in zip(polygon, (*polygon[1:], polygon[0]), strict=True):
        length = math.hypot(bx - ax, by - ay)
        nx, ny = -(by - ay) / length * turn, (bx - ax) / length * turn
        lines.append(((ax + nx * inset, ay + ny * inset), (bx - ax, by - ay)))
    return lines


def _meet(a: tuple[Point, Point], b: tuple[Point, Point]) -> Point:
    """Where two lines (a point, a direction) cross."""
    (px, py), (dx, dy) = a
    (qx, qy), (ex, ey) = b
    t = ((qx - px) * ey - (qy - py) * ex) / (dx * ey - dy * ex)
    return (px + dx * t, py + dy * t)


def _step(state: DruidState, placed: Placed, step: list[int], width: float) -> tuple[Item, ...]:
    """A druid's step: the cell it left thinly outlined, the one it reached thickly, and an arrowhead on the edge
    between them pointing the way it went."""
    lay = plane(state.board)
    start, end = step
    (ax, ay), (bx, by) = placed.at(*lay.centres[start]), placed.at(*lay.centres[end])
    mx, my = (ax + bx) / 2, (ay + by) / 2
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length, (by - ay) / length
    size = min(placed.frame.sx, placed.frame.sy) * 0.21
    tip, back = (mx + ux * size, my + uy * size), (mx - ux * size, my - uy * size)
    arrow = (tip, (back[0] - uy * size, back[1] + ux * size), (back[0] + uy * size, back[1] - ux * size))
    return (
        *_outline(state, placed, [start], max(2.0, width / 2)),
        *_outline(state, placed, [end], width),
        Polygon(arrow, HIGHLIGHT, BACKGROUND, 2),
    )
