"""Drogo boards: an isometric view of the stacks, seen from the a1 corner, beside a flat owner/height map.

In the 3D view every piece is a cube in its player's colour; the top face of each stack carries the stack's
height, so the owner (the colour on top) and the count read at a glance. Tall stacks hide the cells behind
them, which is why the flat map repeats every stack as owner colour plus height. The last placement is outlined
in the highlight colour in both views; stacks the last move captured are drawn as highlighted wire frames in 3D
and crossed out on the map.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from render.common import BACKGROUND, FOREGROUND, HIGHLIGHT, MUTED, PLAYER_COLOURS, font, to_png
from rules.drogo import COLOURS, DrogoState, cell_name

Colour = tuple[int, int, int]
Point = tuple[float, float]

GROUND = (84, 90, 102)
GROUND_LINE = (60, 64, 74)
MAP_EMPTY = (58, 62, 72)
MARGIN = 28
HEADER = 58
FOOTER = 30
FOOTER_FONT = 15
#: room for four players' names in the header on the smallest board
MIN_WIDTH = 680


@lru_cache(maxsize=512)
def _stamp(text: str, size: int) -> tuple[Image.Image, int, int]:
    """``text`` rendered once as an anti-aliased mask, with half its width and height: a 12x12 board labels
    hundreds of stacks with the same few numbers, and stamping a cached mask is much cheaper than drawing text."""
    face = font(size)
    left, top, right, bottom = face.getbbox(text)
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255)
    return mask, (right - left) // 2, (bottom - top) // 2


def _label(draw: ImageDraw.ImageDraw, centre: Point, text: str, size: int, fill: Colour) -> None:
    """Draw ``text`` centred on ``centre`` from the stamp cache."""
    mask, half_w, half_h = _stamp(text, size)
    draw.bitmap((round(centre[0]) - half_w, round(centre[1]) - half_h), mask, fill=fill)


def _shade(colour: Colour, factor: float) -> Colour:
    r, g, b = colour
    return (int(r * factor), int(g * factor), int(b * factor))


def _ink(fill: Colour) -> Colour:
    """Black or white, whichever reads better on ``fill``."""
    r, g, b = fill
    return (20, 20, 20) if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (250, 250, 250)


@dataclass(frozen=True)
class _View:
    """Isometric projection: board x (columns) runs up-right, y (rows) up-left, z (levels) straight up; the
    front corner of a1 sits at ``origin``."""

    origin: Point
    half: float

    def point(self, x: float, y: float, z: float) -> Point:
        ox, oy = self.origin
        return (ox + (x - y) * self.half, oy - (x + y) * self.half / 2 - z * self.half)

    def top(self, col: int, row: int, z: float) -> list[Point]:
        return [
            self.point(col, row, z),
            self.point(col + 1, row, z),
            self.point(col + 1, row + 1, z),
            self.point(col, row + 1, z),
        ]

    def south(self, col: int, row: int, z0: float, z1: float) -> list[Point]:
        """The face looking down the rows (towards the viewer's right)."""
        return [
            self.point(col, row, z0),
            self.point(col + 1, row, z0),
            self.point(col + 1, row, z1),
            self.point(col, row, z1),
        ]

    def west(self, col: int, row: int, z0: float, z1: float) -> list[Point]:
        """The face looking down the columns (towards the viewer's left)."""
        return [
            self.point(col, row, z0),
            self.point(col, row + 1, z0),
            self.point(col, row + 1, z1),
            self.point(col, row, z1),
        ]


def _sizes(n: int) -> tuple[int, int]:
    """Half the width of a cube in the 3D view, and a map cell's side, for an n x n board."""
    return max(16, min(44, 204 // n)), max(22, min(40, 264 // n))


def render_png(state: DrogoState) -> bytes:
    """The board as a PNG: header with players and scores, 3D view, flat map, and the last move below."""
    n = state.size
    half, cell = _sizes(n)
    view_w = 2 * n * half + half // 2
    view_h = 2 * n * half + half + 24
    map_w = n * cell
    width = max(MIN_WIDTH, MARGIN + view_w + MARGIN + 24 + map_w + 24 + MARGIN)
    footer = footer_lines(state, width - 2 * MARGIN)
    height = HEADER + max(view_h, n * cell + 40) + FOOTER * len(footer) + 12
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    _draw_header(draw, state, width)
    view = _View((MARGIN + half // 2 + n * half, HEADER + 2 * n * half), half)
    _draw_ground(draw, view, n)
    _draw_stacks(draw, view, state)
    _draw_captured(draw, view, state)
    _draw_axis_labels(draw, view, n, max(11, half // 2 + 3))
    map_x = MARGIN + view_w + MARGIN + 24
    map_y = HEADER + (view_h - n * cell) / 2
    _draw_map(draw, state, (map_x, map_y), cell)
    _draw_footer(draw, footer, height)
    return to_png(image)


# ---- 3D view -------------------------------------------------------------------------------------------------


def _draw_ground(draw: ImageDraw.ImageDraw, view: _View, n: int) -> None:
    draw.polygon([view.point(0, 0, 0), view.point(n, 0, 0), view.point(n, n, 0), view.point(0, n, 0)], fill=GROUND)
    for k in range(n + 1):
        draw.line([view.point(k, 0, 0), view.point(k, n, 0)], fill=GROUND_LINE, width=1)
        draw.line([view.point(0, k, 0), view.point(n, k, 0)], fill=GROUND_LINE, width=1)
    corner, right, left = view.point(0, 0, 0), view.point(n, 0, 0), view.point(0, n, 0)
    drop = view.half / 3
    for end, factor in ((right, 0.7), (left, 0.55)):
        slab = [corner, end, (end[0], end[1] + drop), (corner[0], corner[1] + drop)]
        draw.polygon(slab, fill=_shade(GROUND, factor))


def _placed_cubes(state: DrogoState) -> set[tuple[int, int, int]]:
    return {tuple(piece) for piece in (state.last or {}).get("placed", [])}


def _blocked(heights: list[int], n: int, x: float, y: float, z: float) -> bool:
    """Whether the point (x, y, z) is hidden by a stack nearer the viewer. Every point on the line
    (x - t, y - t, z + t), t > 0, projects to the same pixel, so the point is hidden exactly when that line runs
    through a cube: through a cell whose stack is taller than the line's height where it enters the cell."""
    t = 0.0
    while True:
        col, row = math.floor(x - t), math.floor(y - t)
        if col < 0 or row < 0:
            return False
        if col < n and row < n and heights[row * n + col] > z + t + 1e-9:
            return True
        # the next cell boundary the line crosses
        t = min(x - t - col, y - t - row) + t + 1e-9


def label_hidden(heights: list[int], n: int, col: int, row: int, half_w: float, half_h: float) -> bool:
    """Whether any part of a label centred on the top face of the stack on (col, row) would be covered by a
    stack in front of it. ``half_w`` and ``half_h`` are the label's half sizes on screen, in units of the view's
    ``half``. Nine points of the label's box are tested (corners, edge middles, centre); a partly covered label is
    left out rather than drawn cut, since the flat map beside the view gives every height anyway."""
    z = heights[row * n + col]
    for dx in (-half_w, 0.0, half_w):
        for dy in (-half_h, 0.0, half_h):
            # screen offset (dx, dy) at height z: x - y = dx and x + y = -2 dy (screen y grows downwards)
            x = col + 0.5 + (dx - 2 * dy) / 2
            y = row + 0.5 + (-dx - 2 * dy) / 2
            if _blocked(heights, n, x, y, z):
                return True
    return False


def _draw_stacks(draw: ImageDraw.ImageDraw, view: _View, state: DrogoState) -> None:
    """Paint stacks from the far corner to a1, each from the ground up, skipping faces a neighbour hides."""
    n = state.size
    placed = _placed_cubes(state)
    size = max(10, int(view.half * 0.62))
    heights = [len(stack) for stack in state.stacks]
    for depth in range(2 * n - 2, -1, -1):
        for col in range(max(0, depth - n + 1), min(n, depth + 1)):
            row = depth - col
            stack = state.stacks[row * n + col]
            left = state.height(col - 1, row) if col > 0 else 0
            front = state.height(col, row - 1) if row > 0 else 0
            for level, seat in enumerate(stack):
                fill, outline = PLAYER_COLOURS[seat]
                mark = (col, row, level) in placed
                edge = HIGHLIGHT if mark else outline
                width = 3 if mark else 1
                if level >= left or mark:
                    draw.polygon(
                        view.west(col, row, level, level + 1), fill=_shade(fill, 0.62), outline=edge, width=width
                    )
                if level >= front or mark:
                    draw.polygon(
                        view.south(col, row, level, level + 1), fill=_shade(fill, 0.8), outline=edge, width=width
                    )
            if stack:
                top_seat = stack[-1]
                fill, outline = PLAYER_COLOURS[top_seat]
                mark = (col, row, len(stack) - 1) in placed
                face = view.top(col, row, len(stack))
                draw.polygon(face, fill=fill, outline=HIGHLIGHT if mark else outline, width=3 if mark else 1)
                text = str(len(stack))
                _, half_w, half_h = _stamp(text, size)
                if not label_hidden(heights, n, col, row, half_w / view.half, half_h / view.half):
                    _label(draw, view.point(col + 0.5, row + 0.5, len(stack)), text, size, _ink(fill))


def _draw_captured(draw: ImageDraw.ImageDraw, view: _View, state: DrogoState) -> None:
    """Wire frames where the last move captured stacks (their old height), so a removal is visible."""
    for col, row, stack in (state.last or {}).get("captured", []):
        h = len(stack)
        outline = [
            view.point(col, row, 0),
            view.point(col + 1, row, 0),
            view.point(col + 1, row, h),
            view.point(col + 1, row + 1, h),
            view.point(col, row + 1, h),
            view.point(col, row + 1, 0),
            view.point(col, row, 0),
        ]
        draw.line(outline, fill=HIGHLIGHT, width=2)
        draw.line([view.point(col, row, h), view.point(col + 1, row, h)], fill=HIGHLIGHT, width=2)
        draw.line([view.point(col, row, 0), view.point(col, row, h)], fill=HIGHLIGHT, width=2)
        draw.line([view.point(col, row, h), view.point(col, row + 1, h)], fill=HIGHLIGHT, width=2)
        a, b = view.point(col + 0.2, row + 0.2, 0), view.point(col + 0.8, row + 0.8, 0)
        c, d = view.point(col + 0.8, row + 0.2, 0), view.point(col + 0.2, row + 0.8, 0)
        draw.line([a, b], fill=HIGHLIGHT, width=2)
        draw.line([c, d], fill=HIGHLIGHT, width=2)


def axis_label_points(view: _View, n: int, size: int) -> list[tuple[str, Point]]:
    """Where the coordinates go: each column letter straight below the middle of its cell's front-right face,
    each row number straight below the middle of its cell's front-left face, clear of the board's slab. Straight
    below, because the eye reads a label with the cubes above it; nothing stands in front of these edges."""
    drop = view.half / 3 + max(size * 0.75, view.half * 0.4)
    points = []
    for k in range(n):
        x, y = view.point(k + 0.5, 0, 0)
        points.append((chr(ord("a") + k), (x, y + drop)))
        x, y = view.point(0, k + 0.5, 0)
        points.append((str(k + 1), (x, y + drop)))
    return points


def _draw_axis_labels(draw: ImageDraw.ImageDraw, view: _View, n: int, size: int) -> None:
    for text, centre in axis_label_points(view, n, size):
        _label(draw, centre, text, size, FOREGROUND)


# ---- flat map, header, footer --------------------------------------------------------------------------------


def _draw_map(draw: ImageDraw.ImageDraw, state: DrogoState, origin: Point, cell: int) -> None:
    """Owner colour and height per cell, a1 bottom-left, coordinates on all four sides."""
    n = state.size
    x0, y0 = origin
    placed = {(col, row) for col, row, _ in (state.last or {}).get("placed", [])}
    captured = {(col, row) for col, row, _ in (state.last or {}).get("captured", [])}
    size = max(10, int(cell * 0.5))
    for row in range(n):
        for col in range(n):
            left, top = x0 + col * cell, y0 + (n - 1 - row) * cell
            box = [left, top, left + cell, top + cell]
            owner = state.owner(col, row)
            fill = MAP_EMPTY if owner is None else PLAYER_COLOURS[owner][0]
            draw.rectangle(box, fill=fill, outline=GROUND_LINE)
            if owner is not None:
                _label(draw, (left + cell / 2, top + cell / 2), str(state.height(col, row)), size, _ink(fill))
            if (col, row) in captured:
                pad = cell * 0.22
                draw.line([left + pad, top + pad, left + cell - pad, top + cell - pad], fill=HIGHLIGHT, width=2)
                draw.line([left + cell - pad, top + pad, left + pad, top + cell - pad], fill=HIGHLIGHT, width=2)
            if (col, row) in placed:
                draw.rectangle([left + 1, top + 1, left + cell - 1, top + cell - 1], outline=HIGHLIGHT, width=3)
    label = max(10, min(15, cell // 2))
    for k in range(n):
        letter, number = chr(ord("a") + k), str(k + 1)
        _label(draw, (x0 + (k + 0.5) * cell, y0 + n * cell + 11), letter, label, MUTED)
        _label(draw, (x0 + (k + 0.5) * cell, y0 - 11), letter, label, MUTED)
        _label(draw, (x0 - 12, y0 + (n - k - 0.5) * cell), number, label, MUTED)
        _label(draw, (x0 + n * cell + 12, y0 + (n - k - 0.5) * cell), number, label, MUTED)


def _draw_header(draw: ImageDraw.ImageDraw, state: DrogoState, width: int) -> None:
    """Players in seat order: colour swatch, letter, name and score; the one to move is underlined (in the text
    colour: the highlight colour is kept for the last move)."""
    scores = state.scores()
    x = MARGIN
    for seat, name in enumerate(state.players):
        fill, outline = PLAYER_COLOURS[seat]
        draw.rectangle([x, 16, x + 18, 34], fill=fill, outline=outline)
        short = name if len(name) <= 14 else name[:13] + "…"
        label = f"{COLOURS[seat]} {short}  {scores[seat]}"
        if seat in state.resigned:
            label += " (resigned)"
        draw.text((x + 26, 25), label, font=font(17), fill=FOREGROUND, anchor="lm")
        text_w = draw.textlength(label, font=font(17))
        if seat == state.to_move:
            draw.line([x, 42, x + 26 + text_w, 42], fill=FOREGROUND, width=3)
        x += int(26 + text_w + 28)
    title = f"Drogo {state.size}x{state.size}"
    if x - 12 + draw.textlength(title, font=font(15)) <= width - MARGIN:
        draw.text((width - MARGIN, 25), title, font=font(15), fill=MUTED, anchor="rm")


def _last_text(state: DrogoState) -> str:
    last = state.last
    if last is None:
        return "no move yet"
    who = f"{state.players[last['seat']]} ({COLOURS[last['seat']]})"
    if not last["placed"]:
        return f"{who} passed"
    cells = ",".join(cell_name(col, row) for col, row, _ in last["placed"])
    text = f"{who} played {cells}"
    captured = last["captured"]
    if captured:
        stacks, pieces = len(captured), sum(len(stack) for _, _, stack in captured)
        text += f", capturing {stacks} stack{'s' * (stacks != 1)} ({pieces} piece{'s' * (pieces != 1)})"
    return text


def footer_lines(state: DrogoState, room: float) -> list[str]:
    """The line(s) under the board: the result once the game is over, else the last move. A result too wide for
    ``room`` pixels (four long names with their scores) breaks after its "; " parts, then between words, so it
    is never cut off."""
    outcome = state.outcome()
    text = outcome.reason if outcome is not None else _last_text(state)
    face = font(FOOTER_FONT)
    if face.getlength(text) <= room:
        return [text]
    parts = text.split("; ")
    lines: list[str] = []
    for index, part in enumerate(parts):
        if index < len(parts) - 1:
            part += ";"
        line = ""
        for word in part.split(" "):
            candidate = f"{line} {word}" if line else word
            if line and face.getlength(candidate) > room:
                lines.append(line)
                candidate = word
            line = candidate
        lines.append(line)
    return lines


def _draw_footer(draw: ImageDraw.ImageDraw, lines: list[str], height: int) -> None:
    top = height - 12 - FOOTER * len(lines)
    for index, line in enumerate(lines):
        y = top + FOOTER * index + FOOTER / 2
        draw.text((MARGIN, y), line, font=font(FOOTER_FONT), fill=FOREGROUND, anchor="lm")
