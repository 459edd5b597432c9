"""Dragons boards: hex tiles whose coloured bands join across edges into continuous dragons.

Every band crosses a tile edge at its midpoint and at right angles, so bands of neighbouring tiles meet flush and
a dragon reads as one sinuous stroke. A shoulder's band hugs its three edges (two arcs round the two corners it
wraps); a crossed tail draws the three tails of each colour meeting in the centre, one colour passing over the
other; the old disjoint tails end in round tips. Open positions carry the number a player types (``d3``), owed
gaps are filled and framed in the highlight colour, the last placement and its auto moves are badged 1, 2, 3... in
order, loops the last move made are traced, the winning loop or (when the pool ran out) the winning dragon is
traced in a colour no band has, and a legend draws the eight tile letters. The shared header (render.header)
opens the picture: the status, a row per player, the tiles left and the last move in words.

Drawn as a scene (render.scene) at twice its size and scaled down, which smooths the curves. Each tile is a
symbol (``tile-<letter>-...``), placed in a group tagged ``kind="tile"`` with its cell (``id="1,-1"``); each open
position is tagged ``kind="spot"`` with the number a player types and ``data-cell`` its cell. The picture is at
most :data:`render.scene.MAX_WIDTH` wide: a board that would be wider is drawn with smaller tiles; it is never
wider than tall.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from render import header as head
from render import png
from render.common import BACKGROUND, CLOCK_LOW, FOREGROUND, HIGHLIGHT, MUTED, PLAYER_COLOURS, Clock, Ratings
from render.scene import (
    MAX_WIDTH,
    Arc,
    Colour,
    Ellipse,
    Group,
    Item,
    Line,
    Point,
    Polygon,
    Scene,
    Symbol,
    Text,
    Use,
    readable,
)
from rules.dragons import DragonsState
from rules.dragons.graph import Dragon, RegionGraph
from rules.dragons.options import tiebreak
from rules.dragons.tiles import COLOUR_NAMES, DIRECTIONS, LETTERS, REGIONS, Cell, Region

SCALE = 2
#: a tile's radius (centre to corner) where the board fits the picture at it; larger boards get smaller tiles
RADIUS = 34
LEGEND_RADIUS = 24
MARGIN = 20
#: room between the header and the board, and under the legend's note
GAP = 12
MIN_WIDTH = 560
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


def stroke_items(stroke: Stroke, colour: Colour, width: float) -> list[Item]:
    """A stroke ``width`` wide: a segment (with its round tip) or an arc."""
    if stroke.points:
        items: list[Item] = [Line(stroke.points, colour, width)]
        if stroke.tip:
            x, y = stroke.points[-1]
            items.append(Ellipse((x - width / 2, y - width / 2, x + width / 2, y + width / 2), colour))
        return items
    return [Arc(stroke.centre, stroke.radius, *stroke.angles, colour, width)]


def band_items(strokes: Sequence[Stroke], colour: int, width: float) -> list[Item]:
    """Outline first, then the fill, so the band reads on the tile and crossings show which band is on top."""
    fill, line = PLAYER_COLOURS[colour]
    items: list[Item] = []
    for stroke in strokes:
        items += stroke_items(stroke, line, width * 1.4)
    for stroke in strokes:
        items += stroke_items(stroke, fill, width)
    if len(strokes) == 3:
        x, y = strokes[0].points[1]
        half = width * 0.6
        items.append(Ellipse((x - half, y - half, x + half, y + half), fill))
    return items


@lru_cache(maxsize=64)
def tile_symbol(placement: int, crossed: bool, radius: float, traced: tuple[int, ...] = ()) -> Symbol:
    """A tile around its centre: the hexagon, then its bands, lower colour first; the bands ``traced`` (indices
    of the tile's regions: those of the winning dragon) with a thin line in the winning colour along their
    middles, so that the band's own colour still shows on both sides."""
    items: list[Item] = [Polygon(tuple(corners((0.0, 0.0), radius * 0.985)), TILE_FILL, TILE_LINE, 1)]
    width = radius * 0.22
    regions = REGIONS[crossed][placement]
    for region in sorted(regions, key=lambda reg: reg.colour):
        items += band_items(band_strokes(region, (0.0, 0.0), radius), region.colour, width)
    for index in traced:
        for stroke in band_strokes(regions[index], (0.0, 0.0), radius):
            items += stroke_items(stroke, WIN_LOOP, width * 0.45)
    return Symbol(radius, tuple(items))


def tile_name(placement: int, crossed: bool, radius: float, traced: tuple[int, ...] = ()) -> str:
    name = f"tile-{LETTERS[placement]}-{'crossed' if crossed else 'tails'}-{radius:g}"
    return name + "".join(f"-traced{index}" for index in traced)


@lru_cache(maxsize=64)
def hexagon_symbol(radius: float, size: float, fill: Colour | None, outline: Colour, width: float) -> Symbol:
    """A hexagon of ``size`` times a tile's radius: an open position's outline, a gap, a last-move frame."""
    return Symbol(radius, (Polygon(tuple(corners((0.0, 0.0), radius * size)), fill, outline, width),))


class Layout:
    """Where one state's cells go (picture pixels), for a header ``top`` pixels tall: the tile radius that fits the
    board in :data:`MAX_WIDTH`, the picture's size (never wider than tall), the board and the legend."""

    def __init__(
        self, state: DragonsState, extent: Iterable[Cell] = (), top: float = 0.0, board_top: float = 0.0
    ) -> None:
        """``extent``: more cells the picture must have room for, and ``board_top``: the least y of the board's
        top (a replay lays every frame out alike, whatever each frame's header holds)."""
        self.state = state
        self.numbers = {} if state.is_over else {cell: i for i, cell in enumerate(state.positions(), 1)}
        self.gaps = set() if state.is_over else set(state.gaps)
        self.shown = shown = set(state.tiles) | set(self.numbers) | self.gaps | {(0, 0)} | set(extent)
        qs = [q for q, _ in shown]
        ys = [SQRT3 * (r + q / 2) for q, r in shown]
        fit = (MAX_WIDTH - 2 * MARGIN) / (1.5 * (max(qs) - min(qs)) + 2)
        self.radius = radius = min(RADIUS, math.floor(fit * SCALE) / SCALE)
        self.board_width = radius * (1.5 * (max(qs) - min(qs)) + 2)
        self.board_height = radius * (max(ys) - min(ys) + SQRT3)
        self.width = int(max(self.board_width + 2 * MARGIN, MIN_WIDTH))
        self.text = text = readable(self.width)
        self.note = head.wrap(note_text(state), text, self.width - 2 * MARGIN)
        legend = 2 * LEGEND_RADIUS + text * 2.4 + text * 1.45 * (len(self.note) - 0.5)
        natural = top + GAP + self.board_height + MARGIN + legend + GAP
        pad = max(0.0, self.width - natural) / 2  # a small board sits in the middle of a square picture
        self.header_bottom = top
        self.top = max(top + GAP + pad, board_top)
        self.origin = (
            (self.width - self.board_width) / 2 + radius - 1.5 * radius * min(qs),
            self.top + radius * (SQRT3 / 2 - min(ys)),
        )
        self.board_bottom = self.top + self.board_height
        self.legend_y = self.board_bottom + pad + MARGIN + LEGEND_RADIUS
        self.note_y = self.legend_y + LEGEND_RADIUS + text * 2.4
        self.height = math.ceil(max(natural + self.top - (top + GAP + pad), self.width))

    def centre(self, cell: Cell) -> Point:
        return hex_centre(cell, self.radius, self.origin)

    def pixel(self, cell: Cell, edge: int | None = None, inset: float = 0.0) -> tuple[int, int]:
        """The picture's pixel at a cell's centre, or at ``inset`` of the way from an edge's midpoint towards the
        centre (where that edge's band is drawn)."""
        x, y = self.centre(cell)
        if edge is not None:
            mx, my = midpoint((x, y), self.radius, edge)
            x, y = mx + (x - mx) * inset, my + (y - my) * inset
        return (round(x), round(y))


def layout(
    state: DragonsState,
    clock: Clock | None = None,
    ratings: Ratings | None = None,
    extent: Iterable[Cell] = (),
    board_top: float = 0.0,
) -> tuple[Group, Layout]:
    """The header as drawn for this picture, and where the board and the legend go below it (``extent`` and
    ``board_top`` as for :class:`Layout`)."""
    cells = set(extent)
    width = Layout(state, cells).width
    group, bottom = head.draw(header(state), width, head.Sizes.for_width(width, MARGIN), clock, ratings)
    return group, Layout(state, cells, bottom, board_top)


def scene(
    state: DragonsState,
    clock: Clock | None = None,
    ratings: Ratings | None = None,
    extent: Iterable[Cell] = (),
    board_top: float = 0.0,
) -> Scene:
    """The board as a scene (``extent`` and ``board_top`` as for :class:`Layout`); ``clock`` and ``ratings`` as
    for :func:`render.board_png`."""
    top, where = layout(state, clock, ratings, extent, board_top)
    symbols: dict[str, Symbol] = {}
    items: list[Item] = [top, _legend(state, where, symbols), _tiles(state, where, symbols)]
    items += [_open_cells(where, symbols), _frames(state, where, symbols), _loops(state, where)]
    items += [_badges(state, where), _legend_note(where)]
    return Scene(where.width, where.height, BACKGROUND, tuple(items), symbols, SCALE, (WIN_LOOP, CLOCK_LOW))


def render_image(state: DragonsState, clock: Clock | None = None, ratings: Ratings | None = None) -> Image.Image:
    """The board as an RGB image; ``clock`` and ``ratings`` as for :func:`render.board_png`."""
    return png.raster(scene(state, clock, ratings))


def render_png(state: DragonsState, clock: Clock | None = None, ratings: Ratings | None = None) -> bytes:
    """The board as PNG bytes; the winning loop's colour kept exact, like the players'."""
    return png.png(scene(state, clock, ratings))


def replay_images(states: Sequence[DragonsState]) -> Iterator[Image.Image]:
    """The boards of a replay, all laid out for the cells any of them shows and with the board at the same
    height, so that tiles keep their place (and size) from frame to frame and a GIF stores only what changed."""
    extent = set().union(*(Layout(state).shown for state in states))
    board_top = max(layout(state, extent=extent)[1].top for state in states)
    for state in states:
        yield png.raster(scene(state, extent=extent, board_top=board_top))


# ---- the board ------------------------------------------------------------------------------------------------


def _tile(
    symbols: dict[str, Symbol], placement: int, crossed: bool, radius: float, traced: tuple[int, ...] = ()
) -> str:
    name = tile_name(placement, crossed, radius, traced)
    if name not in symbols:
        symbols[name] = tile_symbol(placement, crossed, radius, traced)
    return name


def _hexagon(
    symbols: dict[str, Symbol], radius: float, size: float, fill: Colour | None, outline: Colour, width: float
) -> str:
    paint = "none" if fill is None else "".join(f"{channel:02x}" for channel in fill)
    name = f"hexagon-{radius:g}-{size:g}-{paint}-{width:g}"
    if name not in symbols:
        symbols[name] = hexagon_symbol(radius, size, fill, outline, width)
    return name


def _tiles(state: DragonsState, where: Layout, symbols: dict[str, Symbol]) -> Group:
    """Every tile, those of the winning dragon (:func:`winning_dragon`) with its bands traced."""
    dragon = winning_dragon(state)
    traced: dict[Cell, list[int]] = {}
    for cell, index in dragon.nodes if dragon is not None else ():
        traced.setdefault(cell, []).append(index)
    groups: list[Item] = []
    for cell, placement in state.tiles.items():
        bands = tuple(sorted(traced.get(cell, ())))
        use = Use(_tile(symbols, placement, state.crossed, where.radius, bands), where.centre(cell))
        data = (("letter", LETTERS[placement]), *((("winning", "dragon"),) if bands else ()))
        groups.append(Group((use,), "tile", f"{cell[0]},{cell[1]}", data))
    return Group(tuple(groups), "tiles")


def _open_cells(where: Layout, symbols: dict[str, Symbol]) -> Group:
    """Open positions: outlined, with the number a player types and the cell's coordinates (a second way of
    typing it: minor text); owed gaps filled and framed."""
    r = where.radius
    groups: list[Item] = []
    for cell in sorted(set(where.numbers) | where.gaps, key=lambda c: where.numbers.get(c, 0)):
        x, y = centre = where.centre(cell)
        if cell in where.gaps:
            items: list[Item] = [Use(_hexagon(symbols, r, 0.94, GAP_FILL, HIGHLIGHT, 3), centre)]
        else:
            items = [Use(_hexagon(symbols, r, 0.94, None, OPEN_LINE, 1), centre)]
        number = where.numbers.get(cell)
        if number is not None:
            items.append(Text(centre, str(number), readable(where.width, 19), FOREGROUND, "mm"))
            items.append(Text((x, y + r * 0.62), f"{cell[0]},{cell[1]}", 9 * r / RADIUS, MUTED, "mm", minor=True))
        kind, ident = ("spot", str(number)) if number is not None else ("gap", f"{cell[0]},{cell[1]}")
        groups.append(Group(tuple(items), kind, ident, (("cell", f"{cell[0]},{cell[1]}"),)))
    return Group(tuple(groups), "open")


def _last_cells(state: DragonsState) -> list[Cell]:
    if state.last is None:
        return []
    return [state.last["cell"], *(cell for cell, _ in state.last["autos"])]


def _frames(state: DragonsState, where: Layout, symbols: dict[str, Symbol]) -> Group:
    """The last placement framed thick, its auto moves thin (under the loop trace)."""
    items: list[Item] = []
    for number, cell in enumerate(_last_cells(state), 1):
        name = _hexagon(symbols, where.radius, 0.97, None, HIGHLIGHT, 4 if number == 1 else 2)
        items.append(Use(name, where.centre(cell)))
    return Group(tuple(items), "last-move")


def _badges(state: DragonsState, where: Layout) -> Group:
    """The last placement and its auto moves numbered 1, 2, 3... in order (over the loop trace)."""
    size = readable(where.width)
    badge = size * 0.72
    items: list[Item] = []
    for number, cell in enumerate(_last_cells(state), 1):
        x, y = corners(where.centre(cell), where.radius)[4]
        x += badge * 1.1
        items.append(Ellipse((x - badge, y - badge, x + badge, y + badge), HIGHLIGHT, BACKGROUND, 1))
        items.append(Text((x, y), str(number), size, BACKGROUND, "mm"))
    return Group(tuple(items), "badges")


def _loops(state: DragonsState, where: Layout) -> Group:
    """Loops the last move made, traced through the edges they cross; the winning one thick, in a colour no band
    has, over a dark edge so that it reads on ivory and red bands alike."""
    k = where.radius / RADIUS
    items: list[Item] = []
    for _, loop, won in sorted(state.loops, key=lambda entry: entry[2]):  # the winning loop on top
        points = _loop_points(loop, where)
        closed = (*points, points[0])
        if won:
            items.append(Line(closed, BACKGROUND, 9 * k, round=True))
        items.append(Line(closed, WIN_LOOP if won else MUTED, (5 if won else 2) * k, round=True))
    return Group(tuple(items), "loops")


def _loop_points(loop: Sequence[Cell], where: Layout) -> list[Point]:
    """The midpoints of the edges the loop crosses, in order: a trace that follows the bands."""
    points = []
    for i, cell in enumerate(loop):
        other = loop[(i + 1) % len(loop)]
        edge = DIRECTIONS.index((other[0] - cell[0], other[1] - cell[1]))
        points.append(midpoint(where.centre(cell), where.radius, edge))
    return points


def winning_dragon(state: DragonsState) -> Dragon | None:
    """The dragon that won a game played to the end of the pool or to a closed dragon (not a loop: those are
    traced as loops): the winner's best by the goal's measure (Tantrix points; holes; size where the largest
    wins a tie). None while the game runs, after a resignation, a draw, a loop win, or a tie the largest lost."""
    outcome = state.outcome()
    if outcome is None or not outcome.winners or state.resigned or outcome.cause:
        return None
    if any(won for _colour, _loop, won in state.loops):
        return None
    goal = state.goal
    if goal not in ("tantrix", "all_out_most_eyes", "end_first", "end_single", "end_most", "loop"):
        return None
    if goal == "loop" and tiebreak(state.options) != "tie_largest_wins":
        return None
    seat = outcome.winners[0]
    graph = RegionGraph(state.tiles, state.crossed)
    mine = graph.dragons_through(sorted(state.tiles), lambda node: graph.colour(node) == seat)
    if goal == "tantrix":
        return max(mine, key=lambda d: d.holes * (2 if d.closed else 1), default=None)
    complete = [d for d in mine if d.closed and d.holes >= state.num_eyes]
    if goal == "loop":
        return max(complete, key=lambda d: d.size, default=None)
    return max(complete, key=lambda d: d.holes, default=None)


# ---- the legend -----------------------------------------------------------------------------------------------


def _legend(state: DragonsState, where: Layout, symbols: dict[str, Symbol]) -> Group:
    """The eight tiles with the letters a player types."""
    step = LEGEND_RADIUS * 2.4
    x0 = (where.width - step * 8) / 2 + step / 2
    y = where.legend_y
    groups: list[Item] = []
    for placement, letter in enumerate(LETTERS):
        x = x0 + step * placement
        use = Use(_tile(symbols, placement, state.crossed, LEGEND_RADIUS), (x, y))
        text = Text((x, y + LEGEND_RADIUS + where.text * 0.75), letter, where.text, FOREGROUND, "mm")
        groups.append(Group((use, text), "letter", letter))
    return Group(tuple(groups), "legend")


def note_text(state: DragonsState) -> str:
    """What the note under the legend says: how to read the badges (after a move), the gaps owed, and, while the
    game runs, how to type a move."""
    parts = []
    if state.last is not None:
        autos = len(state.last["autos"])
        more = f", 2-{autos + 1} = its auto moves in order" if autos > 1 else ", 2 = its auto move" if autos else ""
        parts.append(f"badges: 1 = last tile{more}")
    if not state.is_over:
        if state.gap_owed:
            parts.append("a gap (framed) must be filled first")
        parts.append("type a letter and a position number, e.g. d3")
    return "; ".join(parts)


def _legend_note(where: Layout) -> Group:
    size = where.text
    items: list[Item] = []
    for k, line in enumerate(where.note):
        if line:
            items.append(Text((where.width / 2, where.note_y + k * size * 1.45), line, size, MUTED, "mm"))
    return Group(tuple(items), "note")


# ---- the header -------------------------------------------------------------------------------------------------


def header(state: DragonsState) -> head.Header:
    """The shared header: status, a row per player, the tiles left and the last move in words."""
    seats = tuple(
        head.Seat(seat, name, COLOUR_NAMES[seat], *PLAYER_COLOURS[seat]) for seat, name in enumerate(state.players)
    )
    left = f"{state.remaining} tile{'s' if state.remaining != 1 else ''} left"
    lines = (last_text(state),) if state.last is not None else ()
    return head.Header(status(state), seats, None if state.is_over else state.to_move, lines, left)


def status(state: DragonsState) -> head.Status:
    """``alice to move``, ``alice to move: a gap move is owed``, ``alice wins: a loop through 12 tiles``..."""
    outcome = state.outcome()
    if outcome is None:
        detail = "a gap move is owed" if state.gap_owed else ""
        return head.Status.to_move(state.turn, state.players[state.turn], "move", detail)
    return head.Status.ended(outcome, state.players, _how(state, outcome.reason))


def _how(state: DragonsState, reason: str) -> str:
    """The rules' sentence for the end as the status's how: the winner's own name and "wins" taken off the front
    (the status says them), every player named by name alone, "the tiles ran out" kept as a lead."""
    lead = ""
    if reason.startswith("the tiles ran out; "):
        lead, reason = "the tiles ran out, ", reason.removeprefix("the tiles ran out; ")
    reason = reason.removeprefix("draw: ")
    outcome = state.outcome()
    if outcome is not None and outcome.winners:
        winner = f"{COLOUR_NAMES[outcome.winners[0]]} ({state.players[outcome.winners[0]]})"
        for front in (f"{winner} wins with ", f"{winner} wins: ", f"{winner} "):
            if reason.startswith(front):
                reason = reason.removeprefix(front)
                break
    for seat, name in enumerate(state.players):
        reason = reason.replace(f"{COLOUR_NAMES[seat]} ({name})", name)
    return lead + reason


def last_text(state: DragonsState) -> str:
    """The last placement and its auto moves in words, as typed."""
    last = state.last
    assert last is not None
    cell = last["cell"]
    words = f"placed {LETTERS[last['placement']]}@{cell[0]},{cell[1]}"
    autos = [f"{LETTERS[p]}@{c[0]},{c[1]}" for c, p in last["autos"]]
    if autos:
        words += f", then {len(autos)} auto move{'s' if len(autos) != 1 else ''}: {', '.join(autos)}"
    return head.last_move(state.players[last["seat"]], words)
