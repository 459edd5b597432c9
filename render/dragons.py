"""Dragons boards: hex tiles whose coloured bands join across edges into continuous dragons.

Every band crosses a tile edge at its midpoint and at right angles, so bands of neighbouring tiles meet flush and
a dragon reads as one sinuous stroke. A shoulder's band hugs its three edges (two arcs round the two corners it
wraps); a crossed tail draws the three tails of each colour meeting in the centre, one colour passing over the
other; the old disjoint tails end in round tips. Open positions carry the number a player types (``d3``), owed
gaps are framed in the highlight colour, the last placement and its auto moves are badged 1, 2, 3... in order,
loops the last move made are traced, and a legend draws the eight tile letters. The picture is drawn at twice its
size and scaled down, which smooths the curves without an anti-aliasing library.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
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
    draw_text,
    font,
    note_lines,
    note_width,
    rating_label,
    to_png,
)
from rules.dragons import DragonsState
from rules.dragons.tiles import COLOUR_NAMES, DIRECTIONS, LETTERS, REGIONS, Cell, Region

Colour = tuple[int, int, int]
Point = tuple[float, float]

SCALE = 2
RADIUS = 34 * SCALE
LEGEND_RADIUS = 24 * SCALE
MARGIN = 20 * SCALE
HEADER = 64 * SCALE
STATUS_SIZE = 26 * SCALE
ROW_SIZE = 14 * SCALE
#: the seat row's middle; with a clock each seat's note stands under its name, in this line pitch (in the margin
#: above the board); seats that do not fit beside each other flow into more rows, and the header grows
SEATS_Y = HEADER - 14 * SCALE
NOTE_LINE = 17 * SCALE
TILE_FILL = (62, 68, 82)
TILE_LINE = (96, 102, 118)
OPEN_LINE = (88, 94, 108)
GAP_FILL = (84, 70, 30)
WIN_LOOP = (70, 215, 235)
#: colours only some positions show: a replay's palette holds them even if its sampled frames do not
KEY_COLOURS = (WIN_LOOP, GAP_FILL, HIGHLIGHT, OPEN_LINE)
SQRT3 = math.sqrt(3.0)


def hex_centre(cell: Cell, radius: float, origin: Point) -> Point:
    """Flat-topped axial layout (rules-notes D5, D7)."""
    q, r = cell
    return (origin[0] + 1.5 * radius * q, origin[1] + SQRT3 * radius * (r + q / 2))


def corners(centre: Point, radius: float) -> list[Point]:
    """Corner k sits between edge k and edge k+1 (edge 0 = N), at angle -60 + 60k degrees."""
    x, y = centre
    return [
        (x + radius * math.cos(math.radians(-60 + 60 * k)), y + radius * math.sin(math.radians(-60 + 60 * k)))
        for k in range(6)
    ]


def midpoint(centre: Point, radius: float, edge: int) -> Point:
    apothem = radius * SQRT3 / 2
    angle = math.radians(-90 + 60 * edge)
    return (centre[0] + apothem * math.cos(angle), centre[1] + apothem * math.sin(angle))


@dataclass(frozen=True)
class Stroke:
    """One piece of a band's centre line: an arc (centre, radius, start and end angles in degrees) or a segment
    (``points``); ``tip`` gives the segment a round end (the old tiles' tail tips)."""

    points: tuple[Point, ...] = ()
    centre: Point = (0.0, 0.0)
    radius: float = 0.0
    angles: tuple[float, float] = (0.0, 0.0)
    tip: bool = False


def band_strokes(region: Region, centre: Point, radius: float) -> list[Stroke]:
    """Centre lines of one band, each leaving its edge midpoint at right angles so that bands of neighbouring
    tiles meet flush. A shoulder is a wide arc joining its outer two edges, centred on the neighbour beyond its
    middle edge (a Tantrix curve), plus a stem to the middle edge; crossed tails are three spokes meeting in the
    centre; a disjoint tail is a short stub with a round tip."""
    edges = region.edges
    if len(edges) == 1:
        mid = midpoint(centre, radius, edges[0])
        end = (mid[0] + (centre[0] - mid[0]) * 0.55, mid[1] + (centre[1] - mid[1]) * 0.55)
        return [Stroke(points=(mid, end), tip=True)]
    if set(edges) in ({0, 2, 4}, {1, 3, 5}):
        return [Stroke(points=(midpoint(centre, radius, e), centre)) for e in edges]
    middle = next(e for e in edges if (e - 1) % 6 in edges and (e + 1) % 6 in edges)
    apothem = radius * SQRT3 / 2
    theta = -90 + 60 * middle
    ux, uy = math.cos(math.radians(theta)), math.sin(math.radians(theta))
    far = (centre[0] + 2 * apothem * ux, centre[1] + 2 * apothem * uy)
    inner = 2 * apothem - apothem * SQRT3
    stem = (midpoint(centre, radius, middle), (centre[0] + inner * ux, centre[1] + inner * uy))
    return [Stroke(centre=far, radius=apothem * SQRT3, angles=(theta + 150, theta + 210)), Stroke(points=stem)]


def _stroke(draw: ImageDraw.ImageDraw, stroke: Stroke, colour: Colour, width: float) -> None:
    if stroke.points:
        draw.line(stroke.points, fill=colour, width=round(width))
        if stroke.tip:
            x, y = stroke.points[-1]
            draw.ellipse((x - width / 2, y - width / 2, x + width / 2, y + width / 2), fill=colour)
        return
    x, y = stroke.centre
    outer = stroke.radius + width / 2
    draw.arc((x - outer, y - outer, x + outer, y + outer), *stroke.angles, fill=colour, width=round(width))


def draw_band(draw: ImageDraw.ImageDraw, strokes: Sequence[Stroke], colour: int, width: float) -> None:
    """Outline first, then the fill, so the band reads on the tile and crossings show which band is on top."""
    fill, line = PLAYER_COLOURS[colour]
    for stroke in strokes:
        _stroke(draw, stroke, line, width * 1.4)
    for stroke in strokes:
        _stroke(draw, stroke, fill, width)
    if len(strokes) == 3:
        half = width * 0.6
        draw.ellipse(
            (
                strokes[0].points[1][0] - half,
                strokes[0].points[1][1] - half,
                strokes[0].points[1][0] + half,
                strokes[0].points[1][1] + half,
            ),
            fill=fill,
        )


def paste_tile(image: Image.Image, placement: int, crossed: bool, centre: Point, radius: int) -> None:
    """Stamp a cached picture of the tile: a board repeats the same 8 tiles, and pasting beats redrawing arcs."""
    picture, mask = _sprite(placement, crossed, radius)
    image.paste(picture, (round(centre[0]) - radius, round(centre[1]) - radius), mask)


@lru_cache(maxsize=64)
def _sprite(placement: int, crossed: bool, radius: int) -> tuple[Image.Image, Image.Image]:
    """The tile drawn on a clear square, as its colours and a one-bit mask of its pixels: Pillow draws polygons,
    arcs and lines without anti-aliasing, so every pixel is the tile's or clear, and copying through a one-bit
    mask is the same picture as blending the transparent drawing, at two thirds of the time."""
    sprite = Image.new("RGBA", (2 * radius + 1, 2 * radius + 1), (0, 0, 0, 0))
    draw_tile(ImageDraw.Draw(sprite), placement, crossed, (radius, radius), radius)
    return sprite.convert("RGB"), _opaque(sprite)


def _opaque(sprite: Image.Image) -> Image.Image:
    """The pixels of ``sprite`` drawn on (alpha 255; the rest are clear) as a one-bit mask."""
    return sprite.getchannel("A").convert("1", dither=Image.Dither.NONE)


def draw_tile(draw: ImageDraw.ImageDraw, placement: int, crossed: bool, centre: Point, radius: float) -> None:
    draw.polygon(corners(centre, radius * 0.985), fill=TILE_FILL, outline=TILE_LINE, width=max(1, SCALE))
    width = radius * 0.22
    regions = REGIONS[crossed][placement]
    for region in sorted(regions, key=lambda reg: reg.colour):
        draw_band(draw, band_strokes(region, centre, radius), region.colour, width)


class Layout:
    """Where one state's cells go, in drawing pixels (``centre``) and in the final picture (``pixel``)."""

    def __init__(self, state: DragonsState, extent: Iterable[Cell] = (), top: int = HEADER) -> None:
        """``extent``: more cells the picture must have room for (a replay lays every frame out alike); ``top``:
        the header's height."""
        self.state = state
        self.numbers = {} if state.is_over else {cell: i for i, cell in enumerate(state.positions(), 1)}
        self.gaps = set() if state.is_over else set(state.gaps)
        self.shown = shown = set(state.tiles) | set(self.numbers) | self.gaps | {(0, 0)} | set(extent)
        xs = [1.5 * RADIUS * q for q, _ in shown]
        ys = [SQRT3 * RADIUS * (r + q / 2) for q, r in shown]
        self.board_width = max(xs) - min(xs) + 2 * RADIUS
        self.board_height = max(ys) - min(ys) + SQRT3 * RADIUS
        legend_width = 8 * (LEGEND_RADIUS * 2.4) + 2 * MARGIN
        self.width = int(max(self.board_width + 2 * MARGIN, legend_width, 560 * SCALE))
        self.origin = (
            (self.width - self.board_width) / 2 + RADIUS - min(xs),
            top + MARGIN + SQRT3 * RADIUS / 2 - min(ys),
        )
        self.board_bottom = top + MARGIN + self.board_height
        self.height = int(self.board_bottom + MARGIN + LEGEND_RADIUS * 2 + 40 * SCALE + 30 * SCALE)

    def centre(self, cell: Cell) -> Point:
        return hex_centre(cell, RADIUS, self.origin)

    def pixel(self, cell: Cell, edge: int | None = None, inset: float = 0.0) -> tuple[int, int]:
        """The final picture's pixel at a cell's centre, or at ``inset`` of the way from an edge's midpoint
        towards the centre (where that edge's band is drawn)."""
        x, y = self.centre(cell)
        if edge is not None:
            mx, my = midpoint((x, y), RADIUS, edge)
            x, y = mx + (x - mx) * inset, my + (y - my) * inset
        return (round(x / SCALE), round(y / SCALE))


def render_png(state: DragonsState, clock: Clock | None = None, ratings: Ratings | None = None) -> bytes:
    """The board as PNG bytes; the winning loop's colour kept exact, like the players'; ``clock`` and ``ratings``
    as for :func:`render.board_png`."""
    return to_png(render_image(state, clock=clock, ratings=ratings), [WIN_LOOP, CLOCK_LOW])


def replay_images(states: Sequence[DragonsState]) -> Iterator[Image.Image]:
    """The boards of a replay, all laid out for the cells any of them shows, so that tiles keep their place from
    frame to frame (and a GIF stores only what changed), each the picture :func:`render_image` draws.

    Tiles are only ever added in a game, so one drawing layer keeps the tiles placed so far (redrawn only if a
    state does not continue the one before), and a scaled-down copy of it is kept up to date where tiles land.
    A frame is that copy with, scaled down from the layer, just the boxes the frame's marks are drawn in (the
    header, the open cells, the last move, the loops, the note under the legend); the layer and the copy under
    those marks are put back afterwards. No whole picture is drawn, reduced or copied per frame: each picture
    yielded is that copy itself, valid until the next is asked for (copy it to keep it)."""
    extent = set().union(*(Layout(state).shown for state in states))
    layer: Image.Image | None = None
    small = Image.new("RGB", (1, 1))
    placed: dict[Cell, int] = {}
    for state in states:
        layout = Layout(state, extent)
        if layer is None or any(state.tiles.get(cell) != tile for cell, tile in placed.items()):
            layer, placed = _base(state, layout), {}
            small = layer.reduce(SCALE)
        for cell, placement in state.tiles.items():
            if cell not in placed:
                paste_tile(layer, placement, state.crossed, layout.centre(cell), RADIUS)
                placed[cell] = placement
                _reduce_into(small, layer, _cell_box(layout, cell, layer.size))
        marks = _mark_boxes(state, layout, layer.size)
        saved = [(box, layer.crop(box), small.crop(_scaled_down(box))) for box in marks]
        _draw_marks(layer, state, layout)
        for box in marks:
            _reduce_into(small, layer, box)
        yield small
        for box, patch, small_patch in reversed(saved):
            layer.paste(patch, box[:2])
            small.paste(small_patch, (box[0] // SCALE, box[1] // SCALE))


def _reduce_into(small: Image.Image, layer: Image.Image, box: tuple[int, int, int, int]) -> None:
    """Scale ``box`` of the drawing-size ``layer`` down into ``small`` (``box`` on SCALE's grid: its pixels are
    the same as in a reduction of the whole layer)."""
    small.paste(layer.crop(box).reduce(SCALE), (box[0] // SCALE, box[1] // SCALE))


def _scaled_down(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """Where ``box`` of the drawing-size layer lands in its reduction (a partial block at an edge included)."""
    return (box[0] // SCALE, box[1] // SCALE, -(-box[2] // SCALE), -(-box[3] // SCALE))


def _snapped(box: tuple[float, float, float, float], size: tuple[int, int]) -> tuple[int, int, int, int]:
    """``box`` grown to SCALE's grid and clipped to a picture of ``size`` (at an edge that is off the grid, the
    reduction of the box ends in the same partial block as the whole picture's)."""
    left, top, right, bottom = (math.floor(box[0]), math.floor(box[1]), math.ceil(box[2]), math.ceil(box[3]))
    width, height = size
    return (
        max(0, left - left % SCALE),
        max(0, top - top % SCALE),
        min(width, right + (-right) % SCALE),
        min(height, bottom + (-bottom) % SCALE),
    )


def _cell_box(layout: Layout, cell: Cell, size: tuple[int, int]) -> tuple[int, int, int, int]:
    """All a cell's tile, frames, labels, badges and loop traces can touch (in drawing pixels): tiles and frames
    are sprites reaching RADIUS + 1 from the centre's pixel, badges, labels and traces stay within RADIUS."""
    x, y = layout.centre(cell)
    reach = RADIUS + 2 * SCALE
    return _snapped((x - reach, y - reach, x + reach, y + reach), size)


def _mark_boxes(state: DragonsState, layout: Layout, size: tuple[int, int]) -> list[tuple[int, int, int, int]]:
    """The boxes :func:`_draw_marks` draws in without a clock: the header band, the band of the note under the
    legend, and the boxes of the open cells, the last move's cells and the cells of the loops."""
    cells = set(layout.numbers) | layout.gaps
    if state.last is not None:
        cells |= {state.last["cell"], *(cell for cell, _ in state.last["autos"])}
    for _, loop, _won in state.loops:
        cells |= set(loop)
    note_y = layout.board_bottom + MARGIN + 2 * LEGEND_RADIUS + 32 * SCALE
    bands = [(0, 0, size[0], HEADER + 8 * SCALE), (0, note_y - 16 * SCALE, size[0], note_y + 16 * SCALE)]
    return [_snapped(band, size) for band in bands] + [_cell_box(layout, cell, size) for cell in sorted(cells)]


def render_image(
    state: DragonsState, extent: Iterable[Cell] = (), clock: Clock | None = None, ratings: Ratings | None = None
) -> Image.Image:
    """The board as an RGB image, with room for the ``extent`` cells too; ``clock`` and ``ratings`` as for
    :func:`render.board_png`."""
    layout = Layout(state, extent)
    seats = seat_cells(state, layout.width, clock, ratings)
    if header_height(seats) != HEADER:
        layout = Layout(state, extent, header_height(seats))
    image = _base(state, layout)
    for cell, placement in state.tiles.items():
        paste_tile(image, placement, state.crossed, layout.centre(cell), RADIUS)
    return _finish(image, state, layout, seats)


def _base(state: DragonsState, layout: Layout) -> Image.Image:
    """A fresh drawing-size canvas with what does not change during a game: the panel and the legend's tiles.
    Drawn anew each time (eight cached sprites and letters): no slower than copying a kept one, and a console
    command, which draws one picture per process, does not pay for a second canvas of this size."""
    image = Image.new("RGB", (layout.width, layout.height), BACKGROUND)
    y = layout.board_bottom + MARGIN + LEGEND_RADIUS
    step = LEGEND_RADIUS * 2.4
    x0 = (layout.width - step * 8) / 2 + step / 2
    for placement, letter in enumerate(LETTERS):
        centre = (x0 + step * placement, y)
        paste_tile(image, placement, state.crossed, centre, LEGEND_RADIUS)
        _stamp(image, (centre[0], y + LEGEND_RADIUS + 10 * SCALE), letter, 15 * SCALE, FOREGROUND)
    return image


def _finish(
    image: Image.Image, state: DragonsState, layout: Layout, seats: list[SeatCell] | None = None
) -> Image.Image:
    """Draw what changes with every move over the tiles on ``image``, then scale it down to the picture."""
    _draw_marks(image, state, layout, seats)
    return image.reduce(SCALE)


def _draw_marks(image: Image.Image, state: DragonsState, layout: Layout, seats: list[SeatCell] | None = None) -> None:
    """What changes with every move, drawn over the tiles (drawing size); a replay keeps :func:`_mark_boxes`
    in step with it."""
    draw = ImageDraw.Draw(image)
    _header(image, draw, state, layout, seats)
    _open_cells(image, draw, layout)
    _last_move(image, draw, state, layout, badges=False)
    _loops(draw, state, layout)
    _last_move(image, draw, state, layout, badges=True)
    _legend_note(image, state, layout)


def _status(state: DragonsState) -> tuple[int | None, str]:
    """The header's large line and the colour it concerns (whoever moves, or the winner)."""
    outcome = state.outcome()
    if outcome is None:
        status = f"{COLOUR_NAMES[state.turn]} ({state.players[state.turn]}) to move"
        if state.gap_owed:
            status += ": a gap move is owed"
        return state.turn, status
    if outcome.winners:
        return outcome.winners[0], outcome.reason[:1].upper() + outcome.reason[1:]
    return None, f"Game cancelled: {outcome.reason}" if outcome.cancelled else f"Game over: {outcome.reason}"


class SeatCell(NamedTuple):
    """Where a seat stands in the header with a clock (drawing pixels): its arrowhead's left and its name line's
    middle, its label, and its note's lines (more than one only for a note wider than the picture)."""

    seat: int
    x: float
    y: float
    label: str
    note: list[str]


def seat_cells(
    state: DragonsState, width: int, clock: Clock | None, ratings: Ratings | None = None
) -> list[SeatCell] | None:
    """With a clock, each seat's name line with its note under it, side by side left of the tiles left, or in
    more rows where long names need them; with ratings, the seats flow the same way (their names grow longer);
    None without a note or a rating."""
    notes = [clock_note(clock, seat) for seat in range(len(state.players))]
    if not any(notes) and not ratings:
        return None
    face = font(ROW_SIZE)
    pool_w = face.getlength(f"Tiles left: {state.remaining}") + 18 * SCALE
    room = width - 2 * MARGIN - 40 * SCALE
    cells: list[SeatCell] = []
    x, y, lines = float(MARGIN), float(SEATS_Y), 1
    for seat, (name, note) in enumerate(zip(state.players, notes, strict=True)):
        label = f"{COLOUR_NAMES[seat]} {name}{rating_label(ratings, seat)}"
        parts = note_lines(note, ROW_SIZE, room) if note else []  # wider than the picture: wrapped
        wide = max(face.getlength(label), note_width(parts, ROW_SIZE) if parts else 0)
        right = width - MARGIN - (pool_w if y == SEATS_Y else 0)
        if x > MARGIN and x + 40 * SCALE + wide > right:
            x, y, lines = float(MARGIN), y + NOTE_LINE * lines + 22 * SCALE, 1
        cells.append(SeatCell(seat, x, y, label, parts))
        lines = max(lines, len(parts))
        x += 40 * SCALE + wide + 18 * SCALE
    return cells


def header_height(cells: list[SeatCell] | None) -> int:
    """HEADER, unless the seats and their notes need more rows than one."""
    if not cells:
        return HEADER
    bottom = max(cell.y + NOTE_LINE * len(cell.note) + ROW_SIZE * 0.62 for cell in cells)
    return max(HEADER, round(bottom + 6 * SCALE - MARGIN))


def _header(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    state: DragonsState,
    layout: Layout,
    cells: list[SeatCell] | None = None,
) -> None:
    """The status in large type behind a chip of the colour it concerns (whoever moves, or the winner): the most
    visible thing above the board. Below it, each player's colour chip, letter and name, the one concerned
    marked with an arrowhead, and the tiles left at the right; with a clock, each seat's note under its name
    (the mover's in the text colour, the other muted, one with under a day left on a CLOCK_LOW pill)."""
    concerned, status = _status(state)
    x = MARGIN
    middle = MARGIN // 2 + STATUS_SIZE // 2 + 2 * SCALE
    if concerned is not None:
        _chip(draw, (x, middle), concerned, 30 * SCALE, 18 * SCALE)
        x += 38 * SCALE
    size = STATUS_SIZE
    while size > 18 * SCALE and draw.textlength(status, font=font(size)) > layout.width - MARGIN - x:
        size -= SCALE
    draw_text(draw, (x, middle), status, size, HIGHLIGHT, "lm")
    pool = f"Tiles left: {state.remaining}"
    if cells is not None:
        for cell in cells:
            _seat(image, draw, cell.seat, concerned, cell.x, cell.y, cell.label)
            if cell.note:
                ink = FOREGROUND if cell.seat == state.to_move else MUTED
                draw_note(draw, (cell.x + 40 * SCALE, cell.y + NOTE_LINE), cell.note, ROW_SIZE, ink, "lm", NOTE_LINE)
        _stamp(image, (layout.width - MARGIN, SEATS_Y), pool, ROW_SIZE, FOREGROUND, "rm")
        return
    x = MARGIN
    y = SEATS_Y
    for seat, name in enumerate(state.players):
        label = f"{COLOUR_NAMES[seat]} {name}"
        _seat(image, draw, seat, concerned, x, y, label)
        x += 40 * SCALE + draw.textlength(label, font=font(ROW_SIZE)) + 18 * SCALE
    _stamp(image, (layout.width - MARGIN, y), pool, ROW_SIZE, FOREGROUND, "rm")


def _seat(
    image: Image.Image, draw: ImageDraw.ImageDraw, seat: int, concerned: int | None, x: float, y: float, label: str
) -> None:
    """A seat's arrowhead (when the status concerns it), colour chip and label, its line's middle at ``y``."""
    if seat == concerned:
        draw.polygon([(x, y - 6 * SCALE), (x + 8 * SCALE, y), (x, y + 6 * SCALE)], fill=HIGHLIGHT)
    x += 12 * SCALE
    _chip(draw, (x, y), seat, 22 * SCALE, 12 * SCALE)
    _stamp(image, (x + 28 * SCALE, y), label, ROW_SIZE, FOREGROUND, "lm")


def _chip(draw: ImageDraw.ImageDraw, left_middle: Point, seat: int, width: float, height: float) -> None:
    """A rounded bar in a player's band colours, as their dragons are drawn."""
    fill, line = PLAYER_COLOURS[seat]
    x, y = left_middle
    box = (x, y - height / 2, x + width, y + height / 2)
    draw.rounded_rectangle(box, radius=height / 2.4, fill=fill, outline=line, width=SCALE)


def _open_cells(image: Image.Image, draw: ImageDraw.ImageDraw, layout: Layout) -> None:
    """Open positions: outlined, with the number a player types and the cell's coordinates; owed gaps filled."""
    numbers = layout.numbers
    for cell in set(numbers) | layout.gaps:
        x, y = centre = layout.centre(cell)
        if cell in layout.gaps:
            _hexagon(image, centre, 0.94, GAP_FILL, HIGHLIGHT, 3 * SCALE)
            _stamp(image, (x, y - RADIUS * 0.5), "gap", 10 * SCALE, HIGHLIGHT)
        else:
            _hexagon(image, centre, 0.94, None, OPEN_LINE, SCALE)
        if cell in numbers:
            _stamp(image, centre, str(numbers[cell]), 19 * SCALE, FOREGROUND)
            _stamp(image, (x, y + RADIUS * 0.62), f"{cell[0]},{cell[1]}", 9 * SCALE, MUTED)


def _hexagon(image: Image.Image, centre: Point, size: float, fill: Colour | None, outline: Colour, width: int) -> None:
    """A hexagon of ``size`` times a tile's radius, from a cached sprite: Pillow draws a polygon's thick outline
    through a mask as large as the whole picture, which cost more than everything else on a big board. An outline
    alone (every open position has one) is its colour through a one-bit mask of the sprite's pixels: the same
    pixels (polygons are not anti-aliased, so the sprite is opaque or clear), pasted in a fifth of the time."""
    corner = (round(centre[0]) - RADIUS, round(centre[1]) - RADIUS)
    if fill is None:
        image.paste(outline, corner, _outline_mask(size, outline, width))
        return
    sprite = _hexagon_sprite(size, fill, outline, width)
    image.paste(sprite, corner, sprite)


@lru_cache(maxsize=16)
def _hexagon_sprite(size: float, fill: Colour | None, outline: Colour, width: int) -> Image.Image:
    sprite = Image.new("RGBA", (2 * RADIUS + 1, 2 * RADIUS + 1), (0, 0, 0, 0))
    ImageDraw.Draw(sprite).polygon(corners((RADIUS, RADIUS), RADIUS * size), fill=fill, outline=outline, width=width)
    return sprite


@lru_cache(maxsize=16)
def _outline_mask(size: float, outline: Colour, width: int) -> Image.Image:
    return _opaque(_hexagon_sprite(size, None, outline, width))


def _stamp(image: Image.Image, xy: Point, text: str, size: int, colour: Colour, anchor: str = "mm") -> None:
    """``text`` placed like ``draw.text(xy, ..., anchor=anchor)`` at ``xy`` rounded to whole pixels, through
    :func:`draw_text`'s cache of rasterised glyphs: a big board shows a hundred labels, and rasterising each anew
    was most of the drawing."""
    draw_text(ImageDraw.Draw(image), (round(xy[0]), round(xy[1])), text, size, colour, anchor)


def _loops(draw: ImageDraw.ImageDraw, state: DragonsState, layout: Layout) -> None:
    """Loops the last move made, traced through the edges they cross; the winning one thick, in a colour no band
    has, over a dark edge so that it reads on ivory and red bands alike."""
    for _, loop, won in sorted(state.loops, key=lambda entry: entry[2]):  # the winning loop on top
        points = _loop_points(loop, layout)
        if won:
            draw.line([*points, points[0]], fill=BACKGROUND, width=9 * SCALE, joint="curve")
        draw.line([*points, points[0]], fill=WIN_LOOP if won else MUTED, width=(5 if won else 2) * SCALE, joint="curve")


def _loop_points(loop: Sequence[Cell], layout: Layout) -> list[Point]:
    """The midpoints of the edges the loop crosses, in order: a trace that follows the bands."""
    points = []
    for i, cell in enumerate(loop):
        other = loop[(i + 1) % len(loop)]
        edge = DIRECTIONS.index((other[0] - cell[0], other[1] - cell[1]))
        points.append(midpoint(layout.centre(cell), RADIUS, edge))
    return points


def _last_move(
    image: Image.Image, draw: ImageDraw.ImageDraw, state: DragonsState, layout: Layout, badges: bool
) -> None:
    """Frame the last placement and its auto moves (``badges=False``), or number them 1, 2, 3... in order
    (``badges=True``): the frames go under the loop trace, the numbers over it."""
    if state.last is None:
        return
    order = [state.last["cell"], *(cell for cell, _ in state.last["autos"])]
    for number, cell in enumerate(order, 1):
        centre = layout.centre(cell)
        if not badges:
            _hexagon(image, centre, 0.97, None, HIGHLIGHT, (4 if number == 1 else 2) * SCALE)
            continue
        x, y = corners(centre, RADIUS)[4]
        badge = 9 * SCALE
        x += badge * 1.1
        draw.ellipse((x - badge, y - badge, x + badge, y + badge), fill=HIGHLIGHT, outline=BACKGROUND, width=SCALE)
        _stamp(image, (x, y), str(number), 12 * SCALE, BACKGROUND)


def _legend_note(image: Image.Image, state: DragonsState, layout: Layout) -> None:
    """Under the legend's tiles: how to read the badges (after a move) and how to type a move."""
    y = layout.board_bottom + MARGIN + LEGEND_RADIUS
    note = "type a letter and a position number, e.g. d3"
    if state.last is not None:
        autos = len(state.last["autos"])
        note = (
            "badges: 1 = last tile"
            + (f", 2-{autos + 1} = its auto moves in order" if autos > 1 else ", 2 = its auto move" if autos else "")
            + "; "
            + note
        )
    _stamp(image, (layout.width / 2, y + LEGEND_RADIUS + 32 * SCALE), note, 11 * SCALE, MUTED)
