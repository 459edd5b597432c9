"""Drogo boards: an oblique view of the stacks from the front (a1 bottom left, columns to the right, rows going
back), the same way round as the flat owner/height map beside it.

In the 3D view every piece is a cube in its player's colour, every face outlined, so a cube half buried in a
stack still reads as a cube and not as a patch of floor; the top face of each stack carries the stack's height.
Tall stacks hide cells behind them, which is why the flat map repeats every stack as owner colour, owner letter
and height. The last placement is outlined in the highlight colour in both views and pointed at from above in
3D (the pointer is drawn last, so a stack in front never hides it); stacks the last move captured are drawn as
highlighted wire frames in 3D and crossed out on the map. The header leads with the player to move, or the
result, in large type.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

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
    font,
    ink_on,
    note_lines,
    note_width,
    rating_label,
    seat_chip,
    to_png,
    wrap_text,
)
from rules.drogo import COLOURS, DrogoState, cell_name

Colour = tuple[int, int, int]
Point = tuple[float, float]

GROUND = (62, 67, 78)
GROUND_LINE = (100, 107, 122)
MAP_EMPTY = (58, 62, 72)
MAP_LINE = (104, 110, 126)
MARGIN = 28
STATUS_FONT = 26
SEAT_FONT = 17
#: the header: status line, then one row of seat chips
HEADER = 96
#: with a clock: each seat's note under its name, in this size and line pitch; where the seats do not fit in
#: one row they flow into more, and the header grows
NOTE_FONT = 16
NOTE_LINE = 21
SEATS_TOP = 47
FOOTER = 30
FOOTER_FONT = 15
#: room for four players' names in the header on the smallest board
MIN_WIDTH = 680
#: the receding axis: one row back moves DX cell widths right and DY up; a level rises ``rise`` cell widths
DX, DY = 0.42, 0.58
RISE = 0.6
#: the tallest possible stack (n levels) is drawn at most this many cell widths high
TALLEST = 3.0
#: how much each visible side face is darkened: front (looking down the rows), right
FRONT_LIGHT, RIGHT_LIGHT = 0.84, 0.68


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


def rise_for(n: int) -> float:
    """A level's height in cell widths on an n x n board: a full stack (n high) stays within TALLEST."""
    return min(RISE, TALLEST / n)


@dataclass(frozen=True)
class _View:
    """Oblique projection: board x (columns) runs right, y (rows) back (up and a little right), z (levels) up, all
    in cell widths of ``cell`` pixels; the front-left corner of a1 sits at ``origin``."""

    origin: Point
    cell: float
    rise: float

    def point(self, x: float, y: float, z: float) -> Point:
        ox, oy = self.origin
        return (ox + (x + DX * y) * self.cell, oy - (DY * y + self.rise * z) * self.cell)

    def top(self, col: int, row: int, z: float) -> list[Point]:
        return [
            self.point(col, row, z),
            self.point(col + 1, row, z),
            self.point(col + 1, row + 1, z),
            self.point(col, row + 1, z),
        ]

    def front(self, col: int, row: int, z0: float, z1: float) -> list[Point]:
        """The face looking down the rows, towards the viewer."""
        return [
            self.point(col, row, z0),
            self.point(col + 1, row, z0),
            self.point(col + 1, row, z1),
            self.point(col, row, z1),
        ]

    def right(self, col: int, row: int, z0: float, z1: float) -> list[Point]:
        """The face looking along the columns, towards h, l (the viewer's right)."""
        return [
            self.point(col + 1, row, z0),
            self.point(col + 1, row + 1, z0),
            self.point(col + 1, row + 1, z1),
            self.point(col + 1, row, z1),
        ]


def _sizes(n: int) -> tuple[int, int]:
    """A cell's width in the 3D view, and a map cell's side, for an n x n board."""
    return max(22, min(64, 290 // n)), max(28, min(40, 300 // n))


def view_for(n: int, top: int = HEADER) -> tuple[_View, int, int]:
    """The 3D view of an n x n board placed in the picture under a header ``top`` high, with the view's width
    and height."""
    cell, _ = _sizes(n)
    rise = rise_for(n)
    view_w = round((n * (1 + DX)) * cell) + 40
    view_h = round((n * DY + n * rise) * cell) + 56
    return _View((MARGIN + 10, top + view_h - 44), cell, rise), view_w, view_h


def render_png(state: DrogoState, clock: Clock | None = None, ratings: Ratings | None = None) -> bytes:
    """The board as a PNG: header with the status and the players, 3D view, flat map, and the last move below;
    ``clock`` and ``ratings`` as for :func:`render.board_png`."""
    return to_png(render_image(state, clock, ratings), [HIGHLIGHT, MAP_LINE, MAP_EMPTY, GROUND, CLOCK_LOW])


def render_image(state: DrogoState, clock: Clock | None = None, ratings: Ratings | None = None) -> Image.Image:
    n = state.size
    _, cell = _sizes(n)
    _, view_w, _ = view_for(n)
    map_w = n * cell
    width = max(MIN_WIDTH, MARGIN + view_w + MARGIN + 24 + map_w + 24 + MARGIN)
    seats = seat_cells(state, width, clock, ratings)
    top = header_height(state, seats)
    view, _, view_h = view_for(n, top)
    footer = footer_lines(state, width - 2 * MARGIN)
    height = top + max(view_h, n * cell + 40) + FOOTER * len(footer) + 12
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    _draw_header(draw, state, width, seats)
    _draw_ground(draw, view, n)
    _draw_stacks(draw, view, state)
    _draw_captured(draw, view, state)
    _draw_pointers(draw, view, state)
    _draw_axis_labels(draw, view, n, label_size(view))
    _draw_map(draw, state, map_origin(state, top), cell)
    _draw_footer(draw, footer, height)
    return image


def map_origin(state: DrogoState, top: int = HEADER) -> Point:
    """The top-left corner of the flat map under a header ``top`` high."""
    n = state.size
    _, cell = _sizes(n)
    _, view_w, view_h = view_for(n)
    return MARGIN + view_w + MARGIN + 24, top + (view_h - n * cell) / 2


def label_size(view: _View) -> int:
    return max(11, min(18, round(view.cell * 0.34)))


# ---- 3D view -------------------------------------------------------------------------------------------------


def _draw_ground(draw: ImageDraw.ImageDraw, view: _View, n: int) -> None:
    """The board: a slab with every cell's outline, so empty cells read as a grid."""
    corners = [view.point(0, 0, 0), view.point(n, 0, 0), view.point(n, n, 0), view.point(0, n, 0)]
    drop = view.cell / 5
    a, b, c = corners[0], corners[1], corners[2]
    draw.polygon([a, b, (b[0], b[1] + drop), (a[0], a[1] + drop)], fill=_shade(GROUND, 0.7))
    draw.polygon([b, c, (c[0], c[1] + drop), (b[0], b[1] + drop)], fill=_shade(GROUND, 0.55))
    draw.polygon(corners, fill=GROUND)
    for k in range(n + 1):
        draw.line([view.point(k, 0, 0), view.point(k, n, 0)], fill=GROUND_LINE, width=1)
        draw.line([view.point(0, k, 0), view.point(n, k, 0)], fill=GROUND_LINE, width=1)


def _placed_cubes(state: DrogoState) -> set[tuple[int, int, int]]:
    return {tuple(piece) for piece in (state.last or {}).get("placed", [])}


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
    rather than drawn cut, since the flat map beside the view gives every height anyway."""
    z = heights[row * n + col]
    for dx in (-half_w, 0.0, half_w):
        for dy in (-half_h, 0.0, half_h):
            # screen offset (dx, dy) at height z (screen y grows downwards): dx = x + DX y' and dy = -DY y'
            back = -dy / DY
            if _blocked(heights, n, rise, col + 0.5 + dx - DX * back, row + 0.5 + back, z):
                return True
    return False


def _draw_stacks(draw: ImageDraw.ImageDraw, view: _View, state: DrogoState) -> None:
    """Paint stacks from the back row to the front, each row left to right, each stack from the ground up,
    skipping faces a neighbour hides; every face is outlined so each cube keeps its shape."""
    n = state.size
    placed = _placed_cubes(state)
    size = max(10, int(view.cell * 0.36))
    heights = [len(stack) for stack in state.stacks]
    # the tallest stack in each row and the rows before it: a label no stack there rises above is never hidden
    before: list[int] = []
    for row in range(n):
        before.append(max(heights[row * n : row * n + n] + before[-1:]))
    for row in range(n - 1, -1, -1):
        for col in range(n):
            stack = state.stacks[row * n + col]
            right = state.height(col + 1, row) if col < n - 1 else 0
            front = state.height(col, row - 1) if row > 0 else 0
            for level, seat in enumerate(stack):
                fill, outline = PLAYER_COLOURS[seat]
                mark = (col, row, level) in placed
                edge = HIGHLIGHT if mark else outline
                width = 3 if mark else 1
                if level >= right or mark:
                    draw.polygon(
                        view.right(col, row, level, level + 1),
                        fill=_shade(fill, RIGHT_LIGHT),
                        outline=edge,
                        width=width,
                    )
                if level >= front or mark:
                    draw.polygon(
                        view.front(col, row, level, level + 1),
                        fill=_shade(fill, FRONT_LIGHT),
                        outline=edge,
                        width=width,
                    )
            if stack:
                fill, outline = PLAYER_COLOURS[stack[-1]]
                mark = (col, row, len(stack) - 1) in placed
                face = view.top(col, row, len(stack))
                draw.polygon(face, fill=fill, outline=HIGHLIGHT if mark else outline, width=3 if mark else 1)
                text = str(len(stack))
                _, half_w, half_h = _stamp(text, size)
                if before[row] <= len(stack) or not label_hidden(
                    heights, n, view.rise, col, row, half_w / view.cell, half_h / view.cell
                ):
                    _label(draw, view.point(col + 0.5, row + 0.5, len(stack)), text, size, ink_on(fill))


def _draw_captured(draw: ImageDraw.ImageDraw, view: _View, state: DrogoState) -> None:
    """Wire frames where the last move captured stacks (their old height) and a cross on the ground, so a
    removal is visible."""
    for col, row, stack in (state.last or {}).get("captured", []):
        h = len(stack)
        low = view.top(col, row, 0)
        high = view.top(col, row, h)
        draw.line([*high, high[0]], fill=HIGHLIGHT, width=2)
        draw.line([low[3], low[0], low[1], low[2]], fill=HIGHLIGHT, width=2)
        for k in range(4):
            draw.line([low[k], high[k]], fill=HIGHLIGHT, width=2)
        a, b = view.point(col + 0.2, row + 0.2, 0), view.point(col + 0.8, row + 0.8, 0)
        c, d = view.point(col + 0.8, row + 0.2, 0), view.point(col + 0.2, row + 0.8, 0)
        draw.line([a, b], fill=HIGHLIGHT, width=2)
        draw.line([c, d], fill=HIGHLIGHT, width=2)


def pointer_tips(view: _View, state: DrogoState) -> list[Point]:
    """Where the last placement's pointers point: the back edge of each placed stack's top, so the arrow does not
    cover the height written on it."""
    cells = {(col, row) for col, row, _ in (state.last or {}).get("placed", [])}
    tips = []
    for col, row in sorted(cells):
        x, y = view.point(col + 0.5, row + 0.9, state.height(col, row))
        tips.append((x, y - view.cell * 0.04))
    return tips


def _draw_pointers(draw: ImageDraw.ImageDraw, view: _View, state: DrogoState) -> None:
    """A highlight arrowhead above each cube the last move placed, drawn after every stack, so a placement
    behind a tall stack still shows."""
    size = max(14.0, view.cell * 0.5)
    half = size * 0.42
    for x, y in pointer_tips(view, state):
        arrow = [(x, y), (x - half, y - size), (x + half, y - size)]
        draw.polygon(arrow, fill=HIGHLIGHT, outline=BACKGROUND, width=2)


def axis_label_points(view: _View, n: int, size: int) -> list[tuple[str, Point]]:
    """Where the coordinates go: each column letter below the middle of its front cell's front edge, each row
    number right of the middle of its rightmost cell's right edge. These are the two sides facing the viewer:
    no stack stands in front of them, so none can cover them."""
    drop = view.cell / 5 + size * 0.9
    points = []
    for k in range(n):
        x, y = view.point(k + 0.5, 0, 0)
        points.append((chr(ord("a") + k), (x, y + drop)))
        x, y = view.point(n, k + 0.5, 0)
        points.append((str(k + 1), (x + size * 0.9 + 4, y)))
    return points


def _draw_axis_labels(draw: ImageDraw.ImageDraw, view: _View, n: int, size: int) -> None:
    for text, centre in axis_label_points(view, n, size):
        _label(draw, centre, text, size, FOREGROUND)


# ---- flat map, header, footer --------------------------------------------------------------------------------


def _draw_map(draw: ImageDraw.ImageDraw, state: DrogoState, origin: Point, cell: int) -> None:
    """Owner colour, owner letter (top left, so colour is never the only cue) and height per cell, a1 bottom
    left, coordinates on all four sides; grid lines light enough to show on an empty board."""
    n = state.size
    x0, y0 = origin
    placed = {(col, row) for col, row, _ in (state.last or {}).get("placed", [])}
    captured = {(col, row) for col, row, _ in (state.last or {}).get("captured", [])}
    size = max(10, int(cell * 0.5))
    small = max(8, int(cell * 0.3))
    for row in range(n):
        for col in range(n):
            left, top = x0 + col * cell, y0 + (n - 1 - row) * cell
            owner = state.owner(col, row)
            fill = MAP_EMPTY if owner is None else PLAYER_COLOURS[owner][0]
            draw.rectangle([left, top, left + cell, top + cell], fill=fill, outline=MAP_LINE)
            if owner is not None:
                ink = ink_on(fill)
                _label(
                    draw,
                    (left + cell / 2 + cell * 0.08, top + cell / 2 + cell * 0.06),
                    str(state.height(col, row)),
                    size,
                    ink,
                )
                _label(draw, (left + small * 0.55 + 2, top + small * 0.55 + 2), COLOURS[owner], small, ink)
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


def status(state: DrogoState) -> tuple[int | None, str]:
    """The header's large first line and the seat it concerns: who is to move, else the result in short (the
    footer spells out the scores)."""
    outcome = state.outcome()
    if outcome is None:
        seat = state.turn
        return seat, f"{state.players[seat]} ({COLOURS[seat]}) to move"
    if outcome.winners:
        seat = outcome.winners[0]
        return seat, f"Game over: {state.players[seat]} ({COLOURS[seat]}) wins"
    return None, "Game over: cancelled" if outcome.cancelled else "Game over: a draw"


class SeatCell(NamedTuple):
    """Where a seat stands in the header with a clock: its arrowhead's left and its name line's top, its label,
    its note's lines (more than one only for a note wider than the header), and how far right it reaches."""

    seat: int
    x: int
    y: int
    label: str
    note: list[str]
    right: float


def _seat_label(state: DrogoState, index: int, scores: list[int], ratings: Ratings | None = None) -> str:
    name = state.players[index]
    short = name if len(name) <= 14 else name[:13] + "…"
    label = f"{short}{rating_label(ratings, index)}  {scores[index]}"
    return label + f" ({state.out_reason(index)})" if index in state.resigned else label


def seat_cells(
    state: DrogoState, width: int, clock: Clock | None, ratings: Ratings | None = None
) -> list[SeatCell] | None:
    """With a clock, each seat's name line with its note under it, the seats flowing into as many rows as the
    width needs (one on every board for four players with short names and notes); with ratings, the seats flow
    the same way (the names grow longer); None without a note or a rating."""
    notes = [clock_note(clock, index) for index in range(len(state.players))]
    if not any(notes) and not ratings:
        return None
    room = width - 2 * MARGIN
    face = font(SEAT_FONT)
    scores = state.scores()
    cells: list[SeatCell] = []
    x, y, lines = MARGIN, SEATS_TOP, 1
    for index, note in enumerate(notes):
        label = _seat_label(state, index, scores, ratings)
        parts = note_lines(note, NOTE_FONT, room - 40) if note else []  # wider than the header: wrapped
        wide = max(face.getlength(label), note_width(parts, NOTE_FONT) if parts else 0)
        if x > MARGIN and x + 40 + wide > MARGIN + room:
            x, y, lines = MARGIN, y + 26 + NOTE_LINE * lines, 1
        cells.append(SeatCell(index, x, y, label, parts, x + 40 + wide))
        lines = max(lines, len(parts))
        x += int(40 + wide + 26)
    return cells


def header_height(state: DrogoState, cells: list[SeatCell] | None) -> int:
    """HEADER, unless the seats and their notes need more rows than one, or reach over the flat map where a big
    board's map rises beside the header (its top coordinates must stay clear of the notes)."""
    if not cells:
        return HEADER
    bottom = max(cell.y + 13 + NOTE_LINE * len(cell.note) + 10 for cell in cells)
    top = max(HEADER, bottom + 5)
    _, cell = _sizes(state.size)
    x0, y0 = map_origin(state, top)
    label = max(10, min(15, cell // 2))
    if max(seat.right for seat in cells) > x0 - 12 - label:
        top += max(0, math.ceil(bottom + 6 - (y0 - 11 - label / 2)))
    return top


def _draw_header(draw: ImageDraw.ImageDraw, state: DrogoState, width: int, cells: list[SeatCell] | None) -> None:
    """The status first and largest, behind the concerned seat's lettered chip (in the highlight colour once the
    game is over); then each seat's chip, name and score, the player to move pointed at, and with a clock the
    seat's note under its name (the mover's in the text colour, the others muted, any with under a day left on
    a CLOCK_LOW pill)."""
    seat, text = status(state)
    chip = STATUS_FONT + 4
    x, y = MARGIN, 10
    if seat is not None:
        seat_chip(draw, (x, y, x + chip, y + chip), seat, COLOURS[seat])
    size = STATUS_FONT
    room = width - 2 * MARGIN - chip - 12
    title = f"Drogo {state.size}x{state.size}"
    title_w = draw.textlength(title, font=font(15))
    while size > 16 and draw.textlength(text, font=font(size)) > room:
        size -= 1
    colour = FOREGROUND if state.outcome() is None else HIGHLIGHT
    indent = chip + 12 if seat is not None else 0
    draw.text((x + indent, y + chip / 2), text, font=font(size), fill=colour, anchor="lm")
    if draw.textlength(text, font=font(size)) + title_w + 24 <= room:
        draw.text((width - MARGIN, y + chip / 2), title, font=font(15), fill=MUTED, anchor="rm")
    if cells is not None:
        for cell in cells:
            _draw_seat(draw, state, cell.seat, cell.x, cell.y, cell.label)
            if cell.note:
                ink = FOREGROUND if cell.seat == state.to_move else MUTED
                at = (cell.x + 40, cell.y + 13 + NOTE_LINE)
                draw_note(draw, at, cell.note, NOTE_FONT, ink, "lm", NOTE_LINE)
        return
    y = 56
    scores = state.scores()
    for index in range(len(state.players)):
        label = _seat_label(state, index, scores)
        _draw_seat(draw, state, index, x, y, label)
        x += int(40 + draw.textlength(label, font=font(SEAT_FONT)) + 26)


def _draw_seat(draw: ImageDraw.ImageDraw, state: DrogoState, index: int, x: int, y: int, label: str) -> None:
    """A seat's arrowhead (when it is to move), lettered chip and label, its line's top at ``y``."""
    if index == state.to_move:
        draw.polygon([(x + 10, y + 13), (x, y + 6), (x, y + 20)], fill=FOREGROUND)
    seat_chip(draw, (x + 14, y + 4, x + 32, y + 22), index, COLOURS[index])
    draw.text((x + 40, y + 13), label, font=font(SEAT_FONT), fill=FOREGROUND, anchor="lm")


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
    """The line(s) under the board: the full result once the game is over, else the last move. A result too
    wide for ``room`` pixels (four long names with their scores) breaks after its "; " parts, then between
    words, so it is never cut off."""
    outcome = state.outcome()
    text = outcome.reason if outcome is not None else _last_text(state)
    if font(FOOTER_FONT).getlength(text) <= room:
        return [text]
    parts = text.split("; ")
    lines: list[str] = []
    for index, part in enumerate(parts):
        lines.extend(wrap_text(part + (";" if index < len(parts) - 1 else ""), FOOTER_FONT, room))
    return lines


def _draw_footer(draw: ImageDraw.ImageDraw, lines: list[str], height: int) -> None:
    top = height - 12 - FOOTER * len(lines)
    for index, line in enumerate(lines):
        y = top + FOOTER * index + FOOTER / 2
        draw.text((MARGIN, y), line, font=font(FOOTER_FONT), fill=FOREGROUND, anchor="lm")
