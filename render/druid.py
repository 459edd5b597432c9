"""Druid boards as a 3D monument (an oblique view from the front, like the help file's drawings) with the two
flat summaries the help describes, owner and height, side by side beneath it.

Every cell is a prism (a square or a flat-topped hexagon) and every stone a stack of unit voxels; a lintel's
three voxels are drawn without the edges between them, so it reads as one beam, and cells left empty below a
lintel stay open, so gaps show. Stacks are painted from the farthest cell to the nearest, each bottom up.

Read on a phone, a late board must not turn into a forest of towers: at most CAP levels are drawn (a taller stack
ends in its top owner's colour and carries its true height), and levels grow thinner as the board grows taller.
Coordinates stand only along the sides that face the viewer, where no stone can rise in front of them, and are
drawn last; the target stars, the last move's marker and a finished game's winning path are drawn on top too.
A stone that nearer stones or a beam cover entirely (one behind a lintel, or under its middle) is seen through
them: its top's outline and a dot in its owner's colour are drawn over whatever hides it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from PIL import Image, ImageDraw

from render.common import (
    BACKGROUND,
    CLOCK_LOW,
    FOREGROUND,
    HIGHLIGHT,
    MUTED,
    PLAYER_COLOURS,
    Clock,
    Ratings,
    clock_note,
    draw_note,
    draw_text,
    font,
    ink_on,
    note_lines,
    note_width,
    rating_label,
    seat_chip,
    to_png,
    wrap_text,
)
from rules.druid import SIDE_NAMES, SQUARE, Board, DruidState, board_for

#: the receding axis of the oblique view: one plane unit back moves DX right and DY up (in cell widths)
DX, DY = 0.42, 0.58
#: a stone's height in cell widths on a low board, and how tall (in cell widths) the tallest drawn stack may get
RISE = 0.62
TALLEST = 1.3
#: levels drawn at most; a taller stack ends in a folded level in its top owner's colour, labelled with its height
CAP = 4
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


def layout(board: Board) -> Layout:
    """Computed once per board: the painter's order and the neighbour across each face serve every picture."""
    return _layout(shared(board))


def shared(board: Board) -> Board:
    """The one board of its shape and size (rules.druid.board_for's), which the caches here are keyed by: a
    copied state (``clone`` deep-copies, as a replay's recorded frames are) carries a board of its own."""
    return board_for(board.kind, board.size)


@lru_cache(maxsize=32)
def _layout(board: Board) -> Layout:
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
# Drawing core: a big board draws thousands of faces and edges, and ImageDraw's per-call colour lookup cost more
# than the rasterising; the hot paths call Pillow's drawing core with inks resolved once (the same pixels)


@lru_cache(maxsize=1024)
def _ink(colour: Colour) -> int:
    """``colour`` as the drawing core's ink for an RGB picture (what ImageDraw resolves on every call)."""
    return _INKER.draw_ink(colour)


_INKER = ImageDraw.Draw(Image.new("RGB", (1, 1))).draw


@lru_cache(maxsize=256)
def _face_ink(colour: Colour, normal: Point) -> int:
    """The ink of a side face of ``colour`` turned towards ``normal``."""
    return _ink(_shade(colour, _face_light(normal)))


# --------------------------------------------------------------------------------------------------------------
# Text: labels repeat a lot (every height digit, every coordinate), so each is rendered once as a mask


@lru_cache(maxsize=4096)
def _mask(text: str, size: int, stroke: int) -> tuple[Any, int, int]:
    """``text`` as an 8-bit mask (Pillow's drawing-core image, what ``draw_bitmap`` takes; ``size`` is its width
    and height), with the position of its centre inside the mask: the glyphs ``draw.text(..., anchor="mm")``
    draws, from one rasterisation (a console command draws every label cold)."""
    mask, (left, top) = font(size).getmask2(text, "L", anchor="mm", stroke_width=stroke, stroke_filled=True)
    return mask, -left, -top


def _text(draw: ImageDraw.ImageDraw, xy: Point, text: str, size: int, fill: Colour, halo: Colour | None = None) -> None:
    """Draw ``text`` centred on ``xy``; ``halo`` rings it in another colour to stay legible over stones."""
    x, y = xy
    core = draw.draw
    if halo is not None:
        mask, ox, oy = _mask(text, size, 2)
        core.draw_bitmap((round(x - ox), round(y - oy)), mask, _ink(halo))
    mask, ox, oy = _mask(text, size, 0)
    core.draw_bitmap((round(x - ox), round(y - oy)), mask, _ink(fill))


# --------------------------------------------------------------------------------------------------------------
# The 3D view


class View:
    """Projection of plane points and levels onto the picture: x = S (X + DX Y), y = -S DY Y - S rise z, where
    ``rise`` shrinks from RISE so that the tallest drawn stack (at most CAP levels) stays within TALLEST."""

    def __init__(self, state: DruidState, scale: float) -> None:
        self.state = state
        self.board = state.board
        self.lay = layout(state.board)
        #: each cell's place in the painter's order
        self.place = {cell: k for k, cell in enumerate(self.lay.order)}
        self.s = scale
        self.drawn = [min(h, CAP) for h in state.height]
        self.rise = min(RISE, TALLEST / max(1, *self.drawn))
        xs = [x + DX * y for x, y in self.lay.centres]
        ys = [DY * y for _, y in self.lay.centres]
        pad = 1.2
        self.left = min(xs) - pad
        self.top = max(max(ys) + pad, *(y + self.rise * h + 1.0 for y, h in zip(ys, self.drawn, strict=True)))
        self.width = int((max(xs) + pad + DX - self.left) * scale)
        self.height = int((self.top - min(ys) + pad) * scale)

        self.origin: Point = (0.0, 0.0)
        self._corners: dict[tuple[int, float, Point], list[Point]] = {}
        #: a cell's side faces that turn towards the viewer (index, next corner, normal), the corners where an
        #: upright edge may show (index, the corner before: one of the faces on either side is seen), and the
        #: top's edges (index, next corner); each in corner order
        n = len(self.lay.polygon)
        visible = [_visible(normal) for normal in self.lay.normals]
        self.faces = tuple((k, (k + 1) % n, self.lay.normals[k]) for k in range(n) if visible[k])
        self.uprights = tuple((k, (k - 1) % n) for k in range(n) if visible[k] or visible[(k - 1) % n])
        self.rims = tuple((k, (k + 1) % n) for k in range(n))
        #: a unit's outline on the picture (its seen faces and its top together), as corners of its bottom (True)
        #: or of its top (False): where a seen face turns into an unseen one the outline climbs from one to the other
        outline: list[tuple[int, bool]] = []
        for k in range(n):
            before, after = visible[(k - 1) % n], visible[k]
            if before == after:
                outline.append((k, before))
            else:
                outline += [(k, before), (k, after)]
        self.outline = tuple(outline)

    def point(self, x: float, y: float, z: float) -> Point:
        return (
            self.origin[0] + (x + DX * y - self.left) * self.s,
            self.origin[1] + (self.top - DY * y - self.rise * z) * self.s,
        )

    def corners(self, cell: int, z: float) -> list[Point]:
        """The cell's polygon at level ``z`` (computed once: a level's top is the next level's bottom); not to be
        changed by the caller."""
        key = (cell, z, self.origin)
        points = self._corners.get(key)
        if points is None:  # self.point's arithmetic inlined, in the same order (the same coordinates)
            cx, cy = self.lay.centres[cell]
            (ox, oy), left, top, rise, s = self.origin, self.left, self.top, self.rise, self.s
            points = self._corners[key] = [
                (ox + (cx + px + DX * (cy + py) - left) * s, oy + (top - DY * (cy + py) - rise * z) * s)
                for px, py in self.lay.polygon
            ]
        return points


def _draw_3d(image: Image.Image, view: View) -> None:
    draw = ImageDraw.Draw(image)
    state = view.state
    levels = [{state.stones[k].level: k for k in stack} for stack in state.stacks]
    core = draw.draw
    for cell in range(view.board.ncells):
        if 1 not in levels[cell]:  # a cell built on from the ground hides its floor entirely
            corners = view.corners(cell, 0)
            core.draw_polygon(corners, _ink(GROUND), 1)
            core.draw_polygon(corners, _ink(GROUND_LINE), 0, 1)
    _draw_rim(draw, state, lambda x, y: view.point(x, y, 0), view.s, stars=False)
    last = state.last.get("stone")
    last_cells = set(state.stones[last].cells) if last is not None else set()
    width = max(1, round(view.s / 22))
    for cell in view.lay.order:
        for number in state.stacks[cell]:
            level = state.stones[number].level
            if level < CAP or (level == CAP and state.height[cell] == CAP):
                _draw_voxel(draw, view, levels, cell, number, number == last, width)
        if state.height[cell] > CAP:
            _draw_folded(draw, view, cell, cell in last_cells and state.stones[last].level >= CAP, width)
        if cell in state.druids:
            _draw_druid(draw, view, cell, state.druids.index(cell))
    for cell, level, owner in hidden_tops(view):
        _mark_hidden(draw, view, cell, level, owner)
    _draw_rim(draw, state, lambda x, y: view.point(x, y, 0), view.s, strips=False)
    _draw_labels(draw, view)
    _draw_marks(draw, state, lambda cell: view.point(*view.lay.centres[cell], view.drawn[cell]), view.s)


#: a stone showing fewer pixels than this share of a cell's width squared counts as hidden
HIDDEN = 0.12


#: the scale, relative to the picture's, at which :func:`hidden_tops` paints stone numbers
PROBE_SCALE = 0.5


def hidden_tops(view: View) -> list[tuple[int, int, int]]:
    """The stones whose presence the 3D view would not show, as (cell, drawn level, owner): a cell's top stone,
    or the stone right under a lintel's middle (where a gap could be as well), that nearer stones, beams or
    druids cover (almost) entirely. Found by painting each drawn unit in its stone's number instead of its
    colours, in the same order as the picture, and counting the pixels each stone keeps; a lintel counts as
    seen when any of its three units is."""
    state = view.state
    if max(view.drawn, default=0) <= 1 and not state.druids:  # nothing on the board stands higher than a stone
        return []
    wanted: dict[int, tuple[int, int]] = {}
    for cell, stack in enumerate(state.stacks):
        if not stack:
            continue
        level = view.drawn[cell]

        def alone(z: int, cell: int = cell) -> bool:
            """Whether the unit at level ``z`` is drawn as itself (not left out or folded, see :func:`_draw_3d`)."""
            return z < CAP or z == CAP == state.height[cell]

        wanted.setdefault(stack[-1], (cell, level))
        for below, above in itertools.pairwise(stack):
            stone, beam = state.stones[below], state.stones[above]
            if beam.kind == "l" and beam.cells[1] == cell and beam.level == stone.level + 1 and alone(beam.level):
                wanted.setdefault(below, (cell, stone.level))
    if not wanted:
        return []
    # painted at half the picture's scale: a quarter of the pixels to fill and count, the same verdicts
    view = View(state, view.s * PROBE_SCALE)
    ids = Image.new("I", (view.width, view.height), 0)
    core = ImageDraw.Draw(ids).draw
    outline = view.outline
    for cell in view.lay.order:
        stack = state.stacks[cell]
        for number in stack:
            level = state.stones[number].level
            if level < CAP or level == CAP == state.height[cell]:
                low, high = view.corners(cell, level - 1), view.corners(cell, level)
                core.draw_polygon([low[k] if bottom else high[k] for k, bottom in outline], number + 1, 1)
        if state.height[cell] > CAP:  # the folded level stands for the top stone
            low, high = view.corners(cell, CAP - 1), view.corners(cell, CAP)
            core.draw_polygon([low[k] if bottom else high[k] for k, bottom in outline], stack[-1] + 1, 1)
        if cell in state.druids:
            _draw_druid(ImageDraw.Draw(ids), view, cell, 0, ink=0)
    seen = {colour - 1: n for n, colour in ids.getcolors(ids.width * ids.height) if colour}
    least = HIDDEN * view.s * view.s
    out = []
    for number, (cell, level) in wanted.items():
        if seen.get(number, 0) < least:
            out.append((cell, level, state.stones[number].owner))
    return sorted(out, key=lambda mark: view.place[mark[0]])


def _mark_hidden(draw: ImageDraw.ImageDraw, view: View, cell: int, level: int, owner: int) -> None:
    """A hidden stone seen through what covers it: its top's outline and a dot in its owner's colour where its
    top lies, each on a dark casing so that it reads over a stone of any colour, its own included."""
    fill, _ = seat_colours(owner)
    top = view.corners(cell, level)
    width = max(1, round(view.s / 22))
    draw.line([*top, top[0]], fill=BACKGROUND, width=width + 2, joint="curve")
    draw.line([*top, top[0]], fill=fill, width=width, joint="curve")
    cx, cy = view.lay.centres[cell]
    x, y = view.point(cx, cy, level)
    r = view.s * 0.16
    draw.ellipse([x - r, y - r, x + r, y + r], fill=fill, outline=BACKGROUND, width=max(2, round(view.s / 16)))


def _draw_marks(draw: ImageDraw.ImageDraw, state: DruidState, at: Callable[[int], Point], unit: float) -> None:
    """On top of everything: the winning path of a won game, else the last move (an arrow along a druid's
    step, or a pointer down at the last stone). ``at`` maps a cell to the point to mark it by."""
    step = _last_step(state)
    if step is not None:
        _draw_path(draw, [at(cell) for cell in step], max(3, round(unit / 7)), arrow=True)
        return
    paths = winning_paths(state)
    for path in paths:
        _draw_path(draw, [at(cell) for cell in path], max(3, round(unit / 6)))
    last = state.last.get("stone")
    if last is not None and not paths:
        cells = state.stones[last].cells
        x, y = at(cells[len(cells) // 2])
        _draw_pointer(draw, (x, y - unit * 0.12), unit * 0.62)


def _draw_voxel(
    draw: ImageDraw.ImageDraw,
    view: View,
    levels: list[dict[int, int]],
    cell: int,
    number: int,
    is_last: bool,
    width: int,
) -> None:
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
    core, edge_ink = draw.draw, _ink(edge)
    seen = [False] * len(beside)
    for k, j, normal in view.faces:
        # a face against a unit at the same level next door is painted over by it (drawn later, nearer the viewer)
        if beside[k] is None:
            seen[k] = True
            core.draw_polygon([low[k], low[j], high[j], high[k]], _face_ink(fill, normal), 1)
            core.draw_lines([low[k], low[j]], edge_ink, width)
    for k, before in view.uprights:
        if (seen[k] and beside[before] != number) or (seen[before] and beside[k] != number):
            core.draw_lines([low[k], high[k]], edge_ink, width)
    if levels[cell].get(level + 1) is None:
        top = high
        core.draw_polygon(top, _ink(fill), 1)
        for k, j in view.rims:
            if beside[k] != number:
                core.draw_lines([top[k], top[j]], edge_ink, width)
        if stone.kind == "s" and state.options.get("nostack"):
            _mark_sarsen(draw, top, edge)


def _draw_folded(draw: ImageDraw.ImageDraw, view: View, cell: int, is_last: bool, width: int) -> None:
    """The top drawn level of a stack taller than CAP: one unit in the colour of the stack's top owner, its top
    carrying the true height (the levels above are left out so that tall stacks hide less of the board)."""
    state = view.state
    fill, edge = seat_colours(state.top[cell])
    if is_last:
        edge, width = HIGHLIGHT, _last_width(view.s)
    lay = view.lay
    n = len(lay.polygon)
    low, high = view.corners(cell, CAP - 1), view.corners(cell, CAP)
    for k in range(n):
        if _visible(lay.normals[k]):
            j = (k + 1) % n
            draw.polygon([low[k], low[j], high[j], high[k]], fill=_shade(fill, _face_light(lay.normals[k])))
            draw.line([low[k], low[j]], fill=edge, width=width)
            draw.line([low[k], high[k]], fill=edge, width=width)
            draw.line([low[j], high[j]], fill=edge, width=width)
    draw.polygon(high, fill=fill)
    draw.line([*high, high[0]], fill=edge, width=width)
    cx, cy = lay.centres[cell]
    _text(draw, view.point(cx, cy, CAP), str(state.height[cell]), max(10, round(view.s * 0.42)), ink_on(fill))


def _last_width(unit: float) -> int:
    """The last stone's outline: thick enough to find at a glance on a phone."""
    return max(3, round(unit / 9))


def _draw_pointer(draw: ImageDraw.ImageDraw, tip: Point, size: float) -> None:
    """A highlight arrowhead pointing down at ``tip``, ringed in dark so it reads over any stone."""
    x, y = tip
    half = size * 0.42
    arrow = [(x, y), (x - half, y - size), (x + half, y - size)]
    draw.polygon(arrow, fill=HIGHLIGHT, outline=BACKGROUND, width=max(2, round(size / 10)))


def _draw_path(draw: ImageDraw.ImageDraw, points: list[Point], width: int, arrow: bool = False) -> None:
    """A highlight line through ``points`` on a dark casing (so it reads over stones of every colour), with a
    dot on every cell, or an arrowhead at the end."""
    casing = width + 4
    draw.line(points, fill=BACKGROUND, width=casing, joint="curve")
    draw.line(points, fill=HIGHLIGHT, width=width, joint="curve")
    r = width * 0.9
    dots = points[:-1] if arrow else points
    for x, y in dots:
        draw.ellipse([x - r, y - r, x + r, y + r], fill=HIGHLIGHT, outline=BACKGROUND, width=2)
    if arrow and len(points) >= 2:
        (ax, ay), (bx, by) = points[-2], points[-1]
        length = math.hypot(bx - ax, by - ay) or 1.0
        ux, uy = (bx - ax) / length, (by - ay) / length
        head = width * 3
        tip = (bx + ux * width, by + uy * width)
        left = (tip[0] - ux * head - uy * head * 0.6, tip[1] - uy * head + ux * head * 0.6)
        right = (tip[0] - ux * head + uy * head * 0.6, tip[1] - uy * head - ux * head * 0.6)
        draw.polygon([tip, left, right], fill=HIGHLIGHT, outline=BACKGROUND, width=2)


def _mark_sarsen(draw: ImageDraw.ImageDraw, top: list[Point], colour: Colour) -> None:
    """-nostack: sarsen tops carry a small diamond, since nothing may be stacked on them."""
    cx = sum(x for x, _ in top) / len(top)
    cy = sum(y for _, y in top) / len(top)
    r = (max(x for x, _ in top) - min(x for x, _ in top)) / 6
    draw.polygon([(cx - r, cy), (cx, cy - r * 0.6), (cx + r, cy), (cx, cy + r * 0.6)], outline=colour)


def _draw_druid(draw: ImageDraw.ImageDraw, view: View, cell: int, seat: int, ink: int | None = None) -> None:
    """A robed figure standing on the druid's cell, in its owner's colour with a bright rim (all in ``ink``
    instead on :func:`hidden_tops`'s picture of stone numbers)."""
    cx, cy = view.lay.centres[cell]
    foot_x, foot_y = view.point(cx, cy, view.drawn[cell])
    s = max(view.s, 24.0)
    fill, edge = seat_colours(seat)
    bright: Colour | int = HIGHLIGHT
    if ink is not None:
        fill = edge = bright = ink
    rim = max(2, round(s / 14))
    body = [(foot_x - 0.3 * s, foot_y), (foot_x + 0.3 * s, foot_y), (foot_x, foot_y - 0.85 * s)]
    draw.polygon(body, fill=fill, outline=bright, width=rim)
    r = 0.18 * s
    head = (foot_x, foot_y - 0.92 * s)
    draw.ellipse([head[0] - r, head[1] - r, head[0] + r, head[1] + r], fill=edge, outline=bright, width=rim)


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
    return list(_rim_of(shared(state.board), tuple(_side_colours(state).items())))


@lru_cache(maxsize=64)
def _rim_of(
    board: Board, sides: tuple[tuple[str, tuple[Colour, bool]], ...]
) -> tuple[tuple[Point, Point, Point, Colour, bool], ...]:
    """:func:`_rim` for a board and its sides' colours, found once (every picture of a game draws it three times)."""
    lay = layout(board)
    out = []
    for side, (colour, target) in sides:
        nx, ny = lay.side_normals[side]
        for cell in range(board.ncells):
            if not board.sides[side] >> cell & 1:
                continue
            cx, cy = lay.centres[cell]
            for k, (ex, ey) in enumerate(lay.normals):
                if lay.across[cell][k] < 0 and ex * nx + ey * ny >= 0.45:
                    a, b = lay.polygon[k], lay.polygon[(k + 1) % len(lay.polygon)]
                    out.append(((cx + a[0], cy + a[1]), (cx + b[0], cy + b[1]), (ex, ey), colour, target))
    return tuple(out)


def _rim_width(unit: float) -> int:
    return max(3, round(unit / 7))


def _star_size(unit: float) -> int:
    return max(12, round(unit / 2))


def _draw_rim(
    draw: ImageDraw.ImageDraw,
    state: DruidState,
    to_screen: Callable[[float, float], Point],
    unit: float,
    strips: bool = True,
    stars: bool = True,
) -> None:
    """Goal sides as thick strips just outside the board; a druid's target side also carries stars (the 3D view
    draws the stars in a pass of their own, after the stones, so no stone or druid covers them).
    ``to_screen`` maps plane points to the picture and ``unit`` is a cell's width there."""
    width = _rim_width(unit)
    star = _star_size(unit)
    for (ax, ay), (bx, by), (ex, ey), colour, target in _rim(state):
        push = RIM_PUSH
        if strips:
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


def label_spots(board: Board, back: bool) -> tuple[Spot, ...]:
    """The coordinates along the far (``back``) or near edges. Square: letters above and below, numbers left and
    right. Hex and Y: each column's top cell above it and its bottom cell below it, standing out along the
    rim's outward normal there (their short forms: the top row's number, the column letter)."""
    return _label_spots(shared(board), back)


@lru_cache(maxsize=32)
def _label_spots(board: Board, back: bool) -> tuple[Spot, ...]:
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


def front_spots(board: Board) -> tuple[Spot, ...]:
    """The coordinates the 3D view shows: those standing out from a side that faces the viewer (square: the
    letters below and the numbers on the right; hex and Y: each column's bottom cell). A stone only ever hides
    what lies behind it, and nothing on the board lies in front of these, so no stack or druid covers them; the
    far sides' coordinates are left to the flat maps below."""
    return tuple(spot for spot in label_spots(board, False) if _visible(spot.direction))


def label_boxes(view: View) -> list[tuple[str, Point, tuple[int, int, int, int]]]:
    """Each 3D coordinate, its centre, and the box (left, top, right, bottom) its text and halo take."""
    size = _label_size(view)
    board = view.board
    targets = [
        (board.sides[side], view.lay.side_normals[side])
        for side, (_, target) in _side_colours(view.state).items()
        if target
    ]
    out = []
    for spot in front_spots(board):
        text = spot.text if view.s >= 30 else spot.short
        cx, cy = view.lay.centres[spot.cell]
        dx, dy = spot.direction
        if any(mask >> spot.cell & 1 and nx * dx + ny * dy >= 0.45 for mask, (nx, ny) in targets):
            beyond, band = STAR_PUSH, _star_size(view.s) * 0.4
        else:
            beyond, band = RIM_PUSH, _rim_width(view.s) / 2
        ox, oy = _clear_of_rim(spot, lambda x, y: view.point(x, y, 0), beyond, band, text, size, 2)
        x, y = view.point(cx + ox, cy + oy, 0)
        mask, mx, my = _mask(text, size, 2)
        left, top = round(x - mx), round(y - my)
        out.append((text, (x, y), (left, top, left + mask.size[0], top + mask.size[1])))
    return out


def _label_size(view: View) -> int:
    return max(11, min(18, round(view.s * 0.42)))


def _draw_labels(draw: ImageDraw.ImageDraw, view: View) -> None:
    """Coordinates around the 3D board, drawn after the stones on a halo, clear of the goal strips and stars."""
    size = _label_size(view)
    for text, centre, _ in label_boxes(view):
        _text(draw, centre, text, size, FOREGROUND, BACKGROUND)


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
    runs along it (centred ``beyond`` cells out, ``band`` pixels deep) and a small gap. Distances are taken in
    pixels across the edge as drawn (the oblique view slants side edges), and the label's box must clear it
    whole, corners included."""
    dx, dy = spot.direction
    (x0, y0), (x1, y1) = to_screen(0.0, 0.0), to_screen(dx, dy)
    vx, vy = x1 - x0, y1 - y0
    tx, ty = to_screen(-dy, dx)
    tx, ty = tx - x0, ty - y0
    length = math.hypot(tx, ty) or 1.0
    nx, ny = ty / length, -tx / length
    if nx * vx + ny * vy < 0:
        nx, ny = -nx, -ny
    across = nx * vx + ny * vy
    width, height = _mask(text, size, stroke)[0].size
    support = width / 2 * abs(nx) + height / 2 * abs(ny)
    t = spot.reach + beyond + (band + 3 + support) / across
    return t * dx, t * dy


# --------------------------------------------------------------------------------------------------------------
# The end of a game: what won it


def winning_paths(state: DruidState) -> list[list[int]]:
    """The cells to trace over a won game, as polylines of cell indices. A connection (square, hex, Y): a
    shortest chain of the winner's cells between the first two sides of the goal it completed and, for a goal
    of three sides, a shortest branch from that chain to the third. Walk: the druid's winning step. A draw, a
    resignation or a game still on: nothing."""
    outcome = state.outcome()
    if outcome is None or len(outcome.winners) != 1 or state.recompute_winners() != set(outcome.winners):
        return []
    seat = outcome.winners[0]
    if state.walk:
        step = _last_step(state)
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


def _last_step(state: DruidState) -> list[int] | None:
    """Walk: the cells of the last move's druid step (from, to), if the last move was one."""
    if state.last.get("kind") != "step":
        return None
    start, end = state.last["druid"]
    return [state.board.index[start], state.board.index[end]]


# --------------------------------------------------------------------------------------------------------------
# Flat summaries


def _summary_size(board: Board, cell_px: float) -> tuple[int, int]:
    lay = layout(board)
    xs = [x for x, _ in lay.centres]
    ys = [y for _, y in lay.centres]
    return int((max(xs) - min(xs) + 2 * SUMMARY_PAD) * cell_px), int((max(ys) - min(ys) + 2 * SUMMARY_PAD) * cell_px)


def _draw_cells(draw: ImageDraw.ImageDraw, state: DruidState, origin: tuple[int, int], cell_px: float) -> None:
    """A flat map's cells, each tinted by its top owner, the last stone's cells outlined thickly in the highlight
    colour. Both maps show the same cells: the second is copied from the first (see :func:`render_scene`)."""
    last = state.last.get("stone")
    last_cells = set(state.stones[last].cells) if last is not None else set()
    core = draw.draw
    _, polygons = _summary_cells(shared(state.board), origin, cell_px)
    for cell, polygon in enumerate(polygons):
        owner = state.top[cell]
        core.draw_polygon(polygon, _ink(seat_colours(owner)[0] if owner >= 0 else GROUND), 1)
        core.draw_polygon(polygon, _ink(GROUND_LINE), 0, 1)
        if cell in last_cells:
            draw.line([*polygon, polygon[0]], fill=HIGHLIGHT, width=3, joint="curve")


def _draw_summary(
    draw: ImageDraw.ImageDraw, state: DruidState, origin: tuple[int, int], cell_px: float, heights: bool
) -> None:
    """One flat map over its cells (:func:`_draw_cells`), showing the owner letter or the height (in digits, 10
    and up in a smaller size); the owner map also carries the winning path or the druid's last step, beneath
    the letters."""
    board = state.board
    lay = layout(board)
    min_x = min(x for x, _ in lay.centres)
    max_y = max(y for _, y in lay.centres)
    ox, oy = origin

    def at(cell: int) -> Point:
        x, y = lay.centres[cell]
        return ox + (x - min_x + SUMMARY_PAD) * cell_px, oy + (max_y - y + SUMMARY_PAD) * cell_px

    text_px = max(9, round(cell_px * 0.6))
    inks = [ink_on(seat_colours(owner)[0]) if owner >= 0 else MUTED for owner in state.top]
    centres, _ = _summary_cells(shared(board), origin, cell_px)
    if not heights:
        step = _last_step(state)
        for path in [step] if step is not None else winning_paths(state):
            _draw_path(draw, [at(cell) for cell in path], 3, arrow=step is not None)
    for cell in range(board.ncells):
        cx, cy = centres[cell]
        if cell in state.druids:
            r = cell_px * 0.42
            draw.ellipse([cx - r, cy - r, cx + r, cy + r], outline=HIGHLIGHT, width=max(2, round(cell_px / 9)))
        height = state.height[cell]
        text = (str(height) if height else ".") if heights else state.owner_glyph(cell)
        if text != ".":
            _text(draw, (cx, cy), text, text_px if len(text) == 1 else round(text_px * 0.78), inks[cell])
    _draw_rim(
        draw,
        state,
        lambda x, y: (ox + (x - min_x + SUMMARY_PAD) * cell_px, oy + (max_y - y + SUMMARY_PAD) * cell_px),
        cell_px * 0.8,
        stars=False,
    )
    _summary_labels(draw, board, lay, (ox, oy), cell_px, min_x, max_y)


@lru_cache(maxsize=8)
def _summary_cells(
    board: Board, origin: tuple[int, int], cell_px: float
) -> tuple[tuple[Point, ...], tuple[list[Point], ...]]:
    """A flat map's cell centres and cell polygons (a little inside the cell), found once per map."""
    lay = layout(board)
    min_x = min(x for x, _ in lay.centres)
    max_y = max(y for _, y in lay.centres)
    ox, oy = origin
    centres = tuple(
        (ox + (x - min_x + SUMMARY_PAD) * cell_px, oy + (max_y - y + SUMMARY_PAD) * cell_px) for x, y in lay.centres
    )
    polygons = tuple(
        [(cx + px * cell_px * 0.97, cy - py * cell_px * 0.97) for px, py in lay.polygon] for cx, cy in centres
    )
    return centres, polygons


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


STATUS_FONT = 26
SEAT_FONT = 15
SEAT_LINE = 21


def status(state: DruidState) -> tuple[int | None, str]:
    """The header's first line and the seat it concerns: who is to move, else who won and how, else the draw."""
    outcome = state.outcome()
    if outcome is None:
        seat = state.turn
        return seat, f"{state.players[seat]} ({state.colours[seat]}) to move"
    if outcome.winners:
        seat = outcome.winners[0]
        return seat, f"{state.players[seat]} ({state.colours[seat]}) wins: {outcome.reason}"
    return None, f"{'Game cancelled' if outcome.cancelled else 'Draw'}: {outcome.reason}"


def seat_lines(state: DruidState, ratings: Ratings | None = None) -> list[str]:
    """One line per seat under the status: the player (and their rating) and what they must do."""
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
        out = f" ({state.out_reason(seat)})" if seat in state.resigned else ""
        lines.append(f"{player}{rating_label(ratings, seat)}: {goal}{out}")
    return lines


class Header(NamedTuple):
    """The header laid out for a picture ``width`` wide: the status in large type (wrapped, never cut) and
    each seat's wrapped line. With a clock, ``notes[seat]`` holds a note (or "") for each of the seat's lines,
    drawn right-aligned at ``right``; a line of its own is added only where the note fits beside no text line."""

    seat: int | None
    status: list[str]
    status_size: int
    seats: list[list[str]]
    notes: list[list[str]] | None = None
    right: int = 0

    @property
    def height(self) -> int:
        status = len(self.status) * round(self.status_size * 1.25)
        return 10 + status + 8 + sum(len(lines) for lines in self.seats) * SEAT_LINE + 10


#: room kept between a seat's text and its clock note
NOTE_GAP = 12


def header(state: DruidState, width: int, clock: Clock | None = None, ratings: Ratings | None = None) -> Header:
    seat, text = status(state)
    chip = STATUS_FONT + 6
    room = width - MARGIN - chip - 10
    size = STATUS_FONT
    while size > 18 and font(size).getlength(text) > room:
        size -= 1
    seat_room = width - MARGIN - 44
    seats = [wrap_text(line, SEAT_FONT, seat_room) for line in seat_lines(state, ratings)]
    if not any(clock_note(clock, k) for k in range(len(seats))):
        return Header(seat, wrap_text(text, size, room), size, seats)
    notes = []
    for k, line in enumerate(seat_lines(state, ratings)):
        seats[k], marks = _place_note(line, seats[k], clock_note(clock, k), seat_room)
        notes.append(marks)
    return Header(seat, wrap_text(text, size, room), size, seats, notes, width - MARGIN // 2)


def _place_note(line: str, lines: list[str], note: str, room: int) -> tuple[list[str], list[str]]:
    """A seat's lines and the note beside each: on the last line when it fits there (rewrapped narrower if that
    costs no extra line), else right-aligned on a line of its own (wrapped too, if wider than the room)."""
    if not note:
        return lines, [""] * len(lines)
    face = font(SEAT_FONT)
    need = note_width(note, SEAT_FONT) + NOTE_GAP
    if face.getlength(lines[-1]) + need <= room:
        return lines, [""] * (len(lines) - 1) + [note]
    narrower = wrap_text(line, SEAT_FONT, room - need)
    if len(narrower) == len(lines) and all(face.getlength(part) + need <= room for part in narrower):
        return narrower, [""] * (len(lines) - 1) + [note]
    parts = note_lines(note, SEAT_FONT, room)
    return lines + [""] * len(parts), [""] * len(lines) + parts


def _draw_header(draw: ImageDraw.ImageDraw, state: DruidState, head: Header) -> None:
    """The status first and largest, behind a chip of the seat it concerns (letter inside, so colour is not
    the only cue), in the highlight colour once the game is over; then a small chip and line per seat, the
    player to move pointed at, and the seat's clock note at the right (the mover's in the text colour, the
    others muted, any with under a day left on a CLOCK_LOW pill)."""
    x, y = MARGIN // 2, 10
    step = round(head.status_size * 1.25)
    chip = STATUS_FONT + 4
    if head.seat is not None:
        seat_chip(draw, (x, y, x + chip, y + chip), head.seat, state.colours[head.seat])
    colour = FOREGROUND if state.outcome() is None else HIGHLIGHT
    for k, line in enumerate(head.status):
        indent = chip + 10 if head.seat is not None else 0
        draw_text(draw, (x + indent, y + chip / 2 + k * step), line, head.status_size, colour, "lm")
    y += len(head.status) * step + 8
    for seat, lines in enumerate(head.seats):
        box = (x + 19, y + 3, x + 33, y + 17)
        seat_chip(draw, box, seat, state.colours[seat])
        if seat == state.to_move:
            draw.polygon([(x + 14, y + 10), (x + 4, y + 4), (x + 4, y + 16)], fill=FOREGROUND)
        notes = head.notes[seat] if head.notes else []
        if any(notes):
            first = next(k for k, note in enumerate(notes) if note)
            ink = FOREGROUND if seat == state.to_move else MUTED
            at = (head.right, y + 10 + first * SEAT_LINE)
            draw_note(draw, at, [note for note in notes if note], SEAT_FONT, ink, "rm", SEAT_LINE)
        for line in lines:
            if line:
                draw_text(draw, (x + 42, y + 10), line, SEAT_FONT, FOREGROUND, "lm")
            y += SEAT_LINE


def render_png(state: DruidState, clock: Clock | None = None, ratings: Ratings | None = None) -> bytes:
    return to_png(render_image(state, clock, ratings), [HIGHLIGHT, GROUND, CLOCK_LOW])


def render_image(state: DruidState, clock: Clock | None = None, ratings: Ratings | None = None) -> Image.Image:
    """The picture as an RGB image (a replay maps it onto its own palette, with no PNG in between)."""
    return render_scene(state, clock, ratings)[0]


def render_scene(
    state: DruidState, clock: Clock | None = None, ratings: Ratings | None = None
) -> tuple[Image.Image, View]:
    """The picture and the 3D view's projection (tests use it to find where a cell was drawn); ``clock`` and
    ``ratings`` as for :func:`render.board_png`."""
    board = state.board
    lay = layout(board)
    span = max(x for x, _ in lay.centres) - min(x for x, _ in lay.centres) + 2 * SUMMARY_PAD
    cell_px = max(16.0, min(24.0, 250 / span))
    sum_w, sum_h = _summary_size(board, cell_px)
    # the 3D view takes at least the width of the two summaries side by side, so big boards stay legible
    extent = max(x + DX * y for x, y in lay.centres) - min(x + DX * y for x, y in lay.centres) + 2.8
    view = View(state, max(18.0, min(44.0, max(540, 2 * sum_w + 24) / extent)))
    caption = 22
    width = max(view.width, 2 * sum_w + 24) + MARGIN
    head = header(state, width, clock, ratings)
    head_h = head.height
    height = head_h + view.height + caption + sum_h + MARGIN
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    _draw_header(draw, state, head)
    view.origin = ((width - view.width) // 2, head_h)
    _draw_3d(image, view)
    top = head_h + view.height
    left = (width - 2 * sum_w - 24) // 2
    # the two maps tint the same cells alike, a whole number of pixels apart: the cells are drawn once and copied
    _draw_cells(draw, state, (left, top + caption), cell_px)
    cells = image.crop((left, top + caption, left + sum_w, top + caption + sum_h))
    image.paste(cells, (left + sum_w + 24, top + caption))
    for k, (title, heights) in enumerate((("Owner", False), ("Height", True))):
        x = left + k * (sum_w + 24)
        draw_text(draw, (x + sum_w // 2, top + caption // 2), title, 15, MUTED, "mm")
        _draw_summary(draw, state, (x, top + caption), cell_px, heights)
    return image, view
