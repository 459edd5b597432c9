"""Druid boards as a 3D monument (an oblique view from the front, like the help file's drawings) with the two
flat summaries the help describes, owner and height, side by side beneath it.

Every cell is a prism (a square or a flat-topped hexagon) and every stone a stack of unit voxels; a lintel's
three voxels are drawn without the edges between them, so it reads as one beam, and cells left empty below a
lintel stay open, so gaps show. Stacks are painted from the farthest cell to the nearest, each bottom up.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from render.common import BACKGROUND, FOREGROUND, HIGHLIGHT, MUTED, PLAYER_COLOURS, font, to_png
from rules.druid import SIDE_NAMES, SQUARE, Board, DruidState

#: the receding axis of the oblique view: one plane unit back moves DX right and DY up (in cell widths)
DX, DY = 0.42, 0.58
#: a stone's height in cell widths
RISE = 0.62
GROUND = (92, 98, 84)
GROUND_LINE = (66, 70, 60)
MARGIN = 34
#: how far goal strips run outside the rim, in cell widths
RIM_PUSH = 0.18
#: and how far a druid's target stars stand out
STAR_PUSH = 0.36
#: room around a summary map for its goal strips and coordinates, in cells
SUMMARY_PAD = 1.6

Colour = tuple[int, int, int]
Point = tuple[float, float]


# --------------------------------------------------------------------------------------------------------------
# Plane layout of a board (cached per board)


@dataclass(frozen=True)
class Layout:
    """Cell centres in plane units (neighbours one unit apart, Y up), the cell polygon, and for each cell and
    polygon edge the neighbour across it (-1 at the rim) and the edge's outward normal."""

    centres: tuple[Point, ...]
    polygon: tuple[Point, ...]
    normals: tuple[Point, ...]
    across: tuple[tuple[int, ...], ...]
    order: tuple[int, ...]
    side_normals: dict[str, Point]


@lru_cache(maxsize=32)
def layout(board: Board) -> Layout:
    """Computed once per board: the painter's order and the neighbour across each face serve every picture."""
    if board.kind == SQUARE:
        centres = tuple((float(c), float(r - 1)) for c, r in zip(board.col, board.row, strict=True))
        polygon: tuple[Point, ...] = ((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5))
    else:
        centres = tuple((c * math.sqrt(3) / 2, y2 / 2) for c, y2 in zip(board.col, board.y2, strict=True))
        radius = 1 / math.sqrt(3)
        polygon = tuple((radius * math.cos(k * math.pi / 3), radius * math.sin(k * math.pi / 3)) for k in range(6))
    normals = tuple(_normal(polygon[k], polygon[(k + 1) % len(polygon)]) for k in range(len(polygon)))
    across = tuple(_across(board, centres, cell, normals) for cell in range(board.ncells))
    order = tuple(sorted(range(board.ncells), key=lambda i: (centres[i][0] * DX - centres[i][1], centres[i][0])))
    mid_x = sum(x for x, _ in centres) / len(centres)
    mid_y = sum(y for _, y in centres) / len(centres)
    side_normals = {}
    for side, mask in board.sides.items():
        cells = [i for i in range(board.ncells) if mask >> i & 1]
        sx = sum(centres[i][0] - mid_x for i in cells)
        sy = sum(centres[i][1] - mid_y for i in cells)
        length = math.hypot(sx, sy) or 1.0
        side_normals[side] = (sx / length, sy / length)
    return Layout(centres, polygon, normals, across, order, side_normals)


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


def _visible(normal: Point) -> bool:
    """A side face is seen when it turns towards the viewer, who looks back along (-DX, 1) from the front."""
    return normal[0] * DX - normal[1] > 1e-9


# --------------------------------------------------------------------------------------------------------------
# Colours


def _shade(colour: Colour, factor: float) -> Colour:
    return (int(colour[0] * factor), int(colour[1] * factor), int(colour[2] * factor))


def _face_light(normal: Point) -> float:
    """Front faces a little darker than tops, faces turned right darker still."""
    return 0.82 - 0.22 * max(0.0, normal[0])


def seat_colours(seat: int) -> tuple[Colour, Colour]:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


# --------------------------------------------------------------------------------------------------------------
# Text: labels repeat a lot (every height digit, every coordinate), so each is rendered once as a mask


@lru_cache(maxsize=4096)
def _mask(text: str, size: int, stroke: int) -> tuple[Image.Image, int, int]:
    """``text`` as an 8-bit mask, with the position of its centre inside the mask."""
    face = font(size)
    left, top, right, bottom = face.getbbox(text, anchor="mm", stroke_width=stroke)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text(
        (-left, -top), text, font=face, fill=255, anchor="mm", stroke_width=stroke, stroke_fill=255
    )
    return mask, -left, -top


def _text(draw: ImageDraw.ImageDraw, xy: Point, text: str, size: int, fill: Colour, halo: Colour | None = None) -> None:
    """Draw ``text`` centred on ``xy``; ``halo`` rings it in another colour to stay legible over stones."""
    x, y = xy
    if halo is not None:
        mask, ox, oy = _mask(text, size, 2)
        draw.bitmap((round(x - ox), round(y - oy)), mask, fill=halo)
    mask, ox, oy = _mask(text, size, 0)
    draw.bitmap((round(x - ox), round(y - oy)), mask, fill=fill)


# --------------------------------------------------------------------------------------------------------------
# The 3D view


class View:
    """Projection of plane points and levels onto the picture: x = S (X + DX Y), y = -S DY Y - S RISE z."""

    def __init__(self, state: DruidState, scale: float) -> None:
        self.state = state
        self.board = state.board
        self.lay = layout(state.board)
        self.s = scale
        xs = [x + DX * y for x, y in self.lay.centres]
        ys = [DY * y for _, y in self.lay.centres]
        pad = 1.2
        self.left = min(xs) - pad
        self.top = max(max(ys) + pad, *(y + RISE * h + 1.0 for y, h in zip(ys, state.height, strict=True)))
        self.width = int((max(xs) + pad + DX - self.left) * scale)
        self.height = int((self.top - min(ys) + pad) * scale)

        self.origin: Point = (0.0, 0.0)

    def point(self, x: float, y: float, z: float) -> Point:
        return (
            self.origin[0] + (x + DX * y - self.left) * self.s,
            self.origin[1] + (self.top - DY * y - RISE * z) * self.s,
        )

    def corners(self, cell: int, z: float) -> list[Point]:
        cx, cy = self.lay.centres[cell]
        return [self.point(cx + px, cy + py, z) for px, py in self.lay.polygon]


def _draw_3d(image: Image.Image, view: View) -> None:
    draw = ImageDraw.Draw(image)
    state = view.state
    for cell in range(view.board.ncells):
        draw.polygon(view.corners(cell, 0), fill=GROUND, outline=GROUND_LINE)
    _draw_rim(draw, state, lambda x, y: view.point(x, y, 0), view.s, stars=True)
    _draw_labels(draw, view, back=True)
    last = state.last.get("stone")
    levels = [{state.stones[k].level: k for k in stack} for stack in state.stacks]
    width = max(1, round(view.s / 22))
    for cell in view.lay.order:
        for number in state.stacks[cell]:
            _draw_voxel(draw, view, levels, cell, number, number == last, width)
        if cell in state.druids:
            _draw_druid(draw, view, cell, state.druids.index(cell))
    _draw_labels(draw, view, back=False)


def _draw_voxel(
    draw: ImageDraw.ImageDraw,
    view: View,
    levels: list[dict[int, int]],
    cell: int,
    number: int,
    is_last: bool,
    width: int,
) -> None:
    """One unit of a stone at ``cell``: its visible side faces and its top, outlined where the stone ends."""
    state = view.state
    stone = state.stones[number]
    level = stone.level
    fill, edge = seat_colours(stone.owner)
    if is_last:
        edge = HIGHLIGHT
    lay = view.lay
    n = len(lay.polygon)
    inside = [lay.across[cell][k] >= 0 and levels[lay.across[cell][k]].get(level) == number for k in range(n)]
    low, high = view.corners(cell, level - 1), view.corners(cell, level)
    seen = [_visible(lay.normals[k]) and not inside[k] for k in range(n)]
    for k in range(n):
        if seen[k]:
            j = (k + 1) % n
            quad = [low[k], low[j], high[j], high[k]]
            draw.polygon(quad, fill=_shade(fill, _face_light(lay.normals[k])))
            draw.line([quad[0], quad[1]], fill=edge, width=width)
    for k in range(n):
        before = (k - 1) % n
        if (seen[k] and not inside[before]) or (seen[before] and not inside[k]):
            draw.line([low[k], high[k]], fill=edge, width=width)
    if levels[cell].get(level + 1) is None:
        top = high
        draw.polygon(top, fill=fill)
        for k in range(n):
            if not inside[k]:
                draw.line([top[k], top[(k + 1) % n]], fill=edge, width=width)
        if stone.kind == "s" and state.options.get("nostack"):
            _mark_sarsen(draw, top, edge)


def _mark_sarsen(draw: ImageDraw.ImageDraw, top: list[Point], colour: Colour) -> None:
    """-nostack: sarsen tops carry a small diamond, since nothing may be stacked on them."""
    cx = sum(x for x, _ in top) / len(top)
    cy = sum(y for _, y in top) / len(top)
    r = (max(x for x, _ in top) - min(x for x, _ in top)) / 6
    draw.polygon([(cx - r, cy), (cx, cy - r * 0.6), (cx + r, cy), (cx, cy + r * 0.6)], outline=colour)


def _draw_druid(draw: ImageDraw.ImageDraw, view: View, cell: int, seat: int) -> None:
    """A robed figure standing on the druid's cell, in its owner's colour with a bright rim."""
    cx, cy = view.lay.centres[cell]
    foot_x, foot_y = view.point(cx, cy, view.state.height[cell])
    s = max(view.s, 24.0)
    fill, edge = seat_colours(seat)
    rim = max(2, round(s / 14))
    body = [(foot_x - 0.3 * s, foot_y), (foot_x + 0.3 * s, foot_y), (foot_x, foot_y - 0.85 * s)]
    draw.polygon(body, fill=fill, outline=HIGHLIGHT, width=rim)
    r = 0.18 * s
    head = (foot_x, foot_y - 0.92 * s)
    draw.ellipse([head[0] - r, head[1] - r, head[0] + r, head[1] + r], fill=edge, outline=HIGHLIGHT, width=rim)


def _side_colours(state: DruidState) -> dict[str, tuple[Colour, bool]]:
    """Colour of each board side and whether it is a druid's target: players' own sides where sides belong to
    players; the two alternating triples of two-player hex in two greys; Y's three sides in one."""
    out: dict[str, tuple[Colour, bool]] = {}
    kind = state.board.kind
    if kind == SQUARE or len(state.players) == 3:
        for seat, goals in enumerate(state.goals):
            for side in goals[0]:
                out[side] = (seat_colours(seat)[0], state.targets[seat] == side)
    elif kind == "hex":
        for side in ("NW", "E", "SW"):
            out[side] = ((200, 200, 200), False)
        for side in ("NE", "SE", "W"):
            out[side] = ((120, 120, 120), False)
    else:
        out = {side: ((200, 200, 200), False) for side in state.board.sides}
    return out


def _rim(state: DruidState) -> list[tuple[Point, Point, Point, Colour, bool]]:
    """Goal-side rim segments in plane units: (end, end, outward normal, colour, is a druid's target)."""
    board = state.board
    lay = layout(board)
    out = []
    for side, (colour, target) in _side_colours(state).items():
        nx, ny = lay.side_normals[side]
        for cell in range(board.ncells):
            if not board.sides[side] >> cell & 1:
                continue
            cx, cy = lay.centres[cell]
            for k, (ex, ey) in enumerate(lay.normals):
                if lay.across[cell][k] < 0 and ex * nx + ey * ny >= 0.45:
                    a, b = lay.polygon[k], lay.polygon[(k + 1) % len(lay.polygon)]
                    out.append(((cx + a[0], cy + a[1]), (cx + b[0], cy + b[1]), (ex, ey), colour, target))
    return out


def _rim_width(unit: float) -> int:
    return max(3, round(unit / 7))


def _star_size(unit: float) -> int:
    return max(12, round(unit / 2))


def _draw_rim(
    draw: ImageDraw.ImageDraw,
    state: DruidState,
    to_screen: Callable[[float, float], Point],
    unit: float,
    stars: bool,
) -> None:
    """Goal sides as thick strips just outside the board; a druid's target side also carries stars.
    ``to_screen`` maps plane points to the picture and ``unit`` is a cell's width there."""
    width = _rim_width(unit)
    star = _star_size(unit)
    for (ax, ay), (bx, by), (ex, ey), colour, target in _rim(state):
        push = RIM_PUSH
        draw.line(
            [to_screen(ax + ex * push, ay + ey * push), to_screen(bx + ex * push, by + ey * push)],
            fill=colour,
            width=width,
        )
        if target and stars:
            mid = to_screen((ax + bx) / 2 + ex * STAR_PUSH, (ay + by) / 2 + ey * STAR_PUSH)
            _text(draw, mid, "*", star, HIGHLIGHT)


class Spot(NamedTuple):
    """Where a coordinate label goes: outside ``cell`` along the plane ``direction``, whose edge lies ``reach``
    from the cell's centre that way; ``text`` in full and ``short`` for cramped boards."""

    cell: int
    direction: Point
    reach: float
    text: str
    short: str


@lru_cache(maxsize=32)
def label_spots(board: Board, back: bool) -> tuple[Spot, ...]:
    """The coordinates along the far (``back``) or near edges. Square: letters above and below, numbers left and
    right. Hex and Y: each column's top cell above it and its bottom cell below it, standing out along the
    rim's outward normal there (their short forms: the top row's number, the column letter)."""
    if board.kind == SQUARE:
        n = board.size
        spots = []
        for i in range(n):
            letter, number = chr(65 + i), str(i + 1)
            if back:
                spots.append(Spot(board.index[f"{chr(97 + i)}{n}"], (0.0, 1.0), 0.5, letter, letter))
            else:
                spots.append(Spot(board.index[f"{chr(97 + i)}1"], (0.0, -1.0), 0.5, letter, letter))
                spots.append(Spot(board.index[f"a{i + 1}"], (-1.0, 0.0), 0.5, number, number))
                spots.append(Spot(board.index[f"{chr(96 + n)}{i + 1}"], (1.0, 0.0), 0.5, number, number))
        return tuple(spots)
    lay = layout(board)
    spots = []
    for column in range(board.ncols):
        cells = [i for i in range(board.ncells) if board.col[i] == column]
        cell = (max if back else min)(cells, key=lambda i: board.row[i])
        rim = [lay.normals[k] for k in range(len(lay.polygon)) if lay.across[cell][k] < 0]
        facing = [(x, y) for x, y in rim if (y > 1e-9 if back else y < -1e-9)]
        dx, dy = sum(x for x, _ in facing), sum(y for _, y in facing)
        length = math.hypot(dx, dy) or 1.0
        name = board.names[cell].upper()
        short = str(board.row[cell]) if back else name[0]
        spots.append(Spot(cell, (dx / length, dy / length), 0.62, name, short))
    return tuple(spots)


def _draw_labels(draw: ImageDraw.ImageDraw, view: View, back: bool) -> None:
    """Coordinates around the 3D board. The far labels go down before the stones (which may hide them: the
    summaries repeat them), the near ones on top. Hex and Y columns of one cell are named once, in front.
    Along a druid's target side they also stand clear of its stars."""
    size = max(11, min(18, round(view.s * 0.42)))
    board = view.board
    targets = [
        (board.sides[side], view.lay.side_normals[side])
        for side, (_, target) in _side_colours(view.state).items()
        if target
    ]
    for spot in label_spots(board, back):
        if back and board.kind != SQUARE and board.col_len[board.col[spot.cell]] == 1:
            continue
        text = spot.text if view.s >= 30 else spot.short
        cx, cy = view.lay.centres[spot.cell]
        dx, dy = spot.direction
        if any(mask >> spot.cell & 1 and nx * dx + ny * dy >= 0.45 for mask, (nx, ny) in targets):
            beyond, band = STAR_PUSH, _star_size(view.s) * 0.4
        else:
            beyond, band = RIM_PUSH, _rim_width(view.s) / 2
        ox, oy = _clear_of_rim(spot, lambda x, y: view.point(x, y, 0), beyond, band, text, size, 2)
        _text(draw, view.point(cx + ox, cy + oy, 0), text, size, FOREGROUND, BACKGROUND)


def _clear_of_rim(
    spot: Spot,
    to_screen: Callable[[float, float], Point],
    beyond: float,
    band: float,
    text: str,
    size: int,
    stroke: int,
) -> Point:
    """Where ``text`` stands outside ``spot.cell``, as an offset from its centre: past the cell's edge, whatever
    runs along it (centred ``beyond`` cells out, ``band`` pixels deep) and a small gap, measured in pixels
    along the projected direction."""
    dx, dy = spot.direction
    (x0, y0), (x1, y1) = to_screen(0.0, 0.0), to_screen(dx, dy)
    vx, vy = x1 - x0, y1 - y0
    unit = math.hypot(vx, vy)
    mask, _, _ = _mask(text, size, stroke)
    support = mask.width / 2 * abs(vx) / unit + mask.height / 2 * abs(vy) / unit
    t = spot.reach + beyond + (band + 3 + support) / unit
    return t * dx, t * dy


# --------------------------------------------------------------------------------------------------------------
# Flat summaries


def _summary_size(board: Board, cell_px: float) -> tuple[int, int]:
    lay = layout(board)
    xs = [x for x, _ in lay.centres]
    ys = [y for _, y in lay.centres]
    return int((max(xs) - min(xs) + 2 * SUMMARY_PAD) * cell_px), int((max(ys) - min(ys) + 2 * SUMMARY_PAD) * cell_px)


def _draw_summary(
    draw: ImageDraw.ImageDraw, state: DruidState, origin: tuple[int, int], cell_px: float, heights: bool
) -> None:
    """One flat map: each cell tinted by its top owner, showing the owner letter or the height."""
    board = state.board
    lay = layout(board)
    min_x = min(x for x, _ in lay.centres)
    max_y = max(y for _, y in lay.centres)
    ox, oy = origin
    text_px = max(9, round(cell_px * 0.6))
    last = state.last.get("stone")
    last_cells = set(state.stones[last].cells) if last is not None else set()
    for cell in range(board.ncells):
        cx = ox + (lay.centres[cell][0] - min_x + SUMMARY_PAD) * cell_px
        cy = oy + (max_y - lay.centres[cell][1] + SUMMARY_PAD) * cell_px
        polygon = [(cx + px * cell_px * 0.97, cy - py * cell_px * 0.97) for px, py in lay.polygon]
        owner = state.top[cell]
        if owner >= 0:
            fill = seat_colours(owner)[0]
            ink = (20, 20, 20) if sum(fill) > 450 else (250, 250, 250)
        else:
            fill, ink = GROUND, MUTED
        draw.polygon(polygon, fill=fill, outline=HIGHLIGHT if cell in last_cells else GROUND_LINE)
        text = state.height_glyph(cell) if heights else state.owner_glyph(cell)
        if cell in state.druids:
            r = cell_px * 0.42
            draw.ellipse([cx - r, cy - r, cx + r, cy + r], outline=HIGHLIGHT, width=max(2, round(cell_px / 9)))
        if text != ".":
            _text(draw, (cx, cy), text, text_px, ink)
    _draw_rim(
        draw,
        state,
        lambda x, y: (ox + (x - min_x + SUMMARY_PAD) * cell_px, oy + (max_y - y + SUMMARY_PAD) * cell_px),
        cell_px * 0.8,
        stars=False,
    )
    _summary_labels(draw, board, lay, (ox, oy), cell_px, min_x, max_y)


def _summary_labels(
    draw: ImageDraw.ImageDraw,
    board: Board,
    lay: Layout,
    origin: tuple[int, int],
    cell_px: float,
    min_x: float,
    max_y: float,
) -> None:
    """Coordinates around a summary, all four sides on the square board; hex and Y: column letters below,
    each column's top row number above. Like the 3D view's, they stand clear of the goal strips."""
    ox, oy = origin
    size = max(9, round(cell_px * 0.5))

    def at(x: float, y: float) -> Point:
        return ox + (x - min_x + SUMMARY_PAD) * cell_px, oy + (max_y - y + SUMMARY_PAD) * cell_px

    for back in (True, False):
        for spot in label_spots(board, back):
            text = spot.text if board.kind == SQUARE else spot.short
            dx, dy = _clear_of_rim(spot, at, RIM_PUSH, _rim_width(cell_px * 0.8) / 2, text, size, 0)
            cx, cy = lay.centres[spot.cell]
            _text(draw, at(cx + dx, cy + dy), text, size, MUTED)


# --------------------------------------------------------------------------------------------------------------
# Page


def _header(state: DruidState) -> list[tuple[str, Colour]]:
    """One line per seat: colour letter, player, goal; the player to move marked; then the result if over."""
    lines = []
    for seat, player in enumerate(state.players):
        goal = " and ".join(SIDE_NAMES[side] for side in state.goals[seat][0])
        if state.board.kind == "y":
            goal = "all three sides"
        elif len(state.goals[seat]) > 1:
            goal = "three alternating sides (NW E SW or NE SE W)"
        if state.walk:
            target = state.targets[seat]
            goal = f"druid to the {SIDE_NAMES[target]}" if target else f"{goal} (druid not on the board yet)"
        mark = "  <- to move" if state.to_move == seat else ""
        if seat in state.resigned:
            mark = "  (resigned)"
        lines.append((f"{state.colours[seat]}  {player}: {goal}{mark}", seat_colours(seat)[0]))
    outcome = state.outcome()
    if outcome is not None:
        lines.append((f"Game over: {outcome.reason}", HIGHLIGHT))
    return lines


def render_png(state: DruidState) -> bytes:
    return to_png(render_scene(state)[0])


def render_scene(state: DruidState) -> tuple[Image.Image, View]:
    """The picture and the 3D view's projection (tests use it to find where a cell was drawn)."""
    board = state.board
    lay = layout(board)
    span = max(x for x, _ in lay.centres) - min(x for x, _ in lay.centres) + 2 * SUMMARY_PAD
    cell_px = max(16.0, min(24.0, 250 / span))
    sum_w, sum_h = _summary_size(board, cell_px)
    # the 3D view takes at least the width of the two summaries side by side, so big boards stay legible
    extent = max(x + DX * y for x, y in lay.centres) - min(x + DX * y for x, y in lay.centres) + 2.8
    view = View(state, max(18.0, min(44.0, max(540, 2 * sum_w + 24) / extent)))
    header = _header(state)
    line_px = 22
    head_h = line_px * len(header) + 12
    caption = 22
    width = max(view.width, 2 * sum_w + 24) + MARGIN
    height = head_h + view.height + caption + sum_h + MARGIN
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for k, (text, colour) in enumerate(header):
        draw.text((MARGIN // 2, 8 + k * line_px), text, font=font(17), fill=colour)
    view.origin = ((width - view.width) // 2, head_h)
    _draw_3d(image, view)
    top = head_h + view.height
    left = (width - 2 * sum_w - 24) // 2
    for k, (title, heights) in enumerate((("Owner", False), ("Height", True))):
        x = left + k * (sum_w + 24)
        draw.text((x + sum_w // 2, top + caption // 2), title, font=font(15), fill=MUTED, anchor="mm")
        _draw_summary(draw, state, (x, top + caption), cell_px, heights)
    return image, view
