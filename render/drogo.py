"""Drogo's main picture: the board seen from above, large, under the shared header.

Every cell is drawn in its owner's colour (the owner of its top cube) with the owner's letter in capitals, as in
the header's chips, over the stack's height as a number; empty cells are bare ground. A four-player game reads
from this picture alone: who owns what, how high, what the last move did. The last placement is outlined in the
highlight colour (both cells of a two-cube move; the one cell of a single cube, or of two cubes on one stack); a
stack the last move captured is crossed out (its cell is empty now), or, with ``-in_place``, marked at its corners
(it changed colour and stays). Coordinates stand on all four edges. The header (render.header) says who is to move
or how the game ended, each player's height (their score: the total height of the stacks they own), the board's
size and options, and the last move in words.

Sizes, for the phone: the picture is :data:`MIN_WIDTH` wide, a little more where a 12x12 board's cells need it to
hold their letter over their height at :func:`render.scene.readable` size, and never wider than tall. The board
fills the width.

The 3D view of the stacks (render.drogo_3d) is a second picture, asked for with ``view="3d"``
(:func:`render.board_png`); :func:`scene_3d` draws it.

Drawn as a scene (render.scene): every cell a group ``kind="cell"`` with its name (``id="c3"``) and ``data``
``height`` and ``owner`` (the owner's seat, "" for an empty cell); the coordinates are the scene's static group;
the last move's outlines are tagged ``last-move``, the captured stacks' marks ``captured``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from PIL import Image

from render import header as head
from render import png
from render.common import BACKGROUND, CLOCK_LOW, HIGHLIGHT, MUTED, PLAYER_COLOURS, Clock, Ratings, ink_on
from render.scene import MAX_WIDTH, Group, Item, Line, Rect, Scene, Text, readable
from rules.drogo import COLOURS, DrogoState, cell_name

MARGIN = 14
#: the narrowest picture: room for four players' rows and a 6x6 board's cells at a comfortable size
MIN_WIDTH = 560
#: a cell is at least this many times its texts' size tall: room for the owner's letter over the height
CELL_TEXTS = 2.5
#: a cell's texts grow with the cell up to the status line's size (the header's largest text)
TEXT_GROWTH = head.STATUS_RATIO
#: the coordinates' bands beside and above the board, in the coordinates' text size: room for "12" and a gap
SIDE_BAND = 1.7
END_BAND = 1.5
EMPTY = (58, 62, 72)
GRID = (104, 110, 126)
#: colours only some positions show: a replay's palette holds them even if its sampled frames do not
KEY_COLOURS = (HIGHLIGHT, EMPTY, GRID)
EXACT = (HIGHLIGHT, EMPTY, GRID, CLOCK_LOW)


def letter(seat: int) -> str:
    """A seat's letter as the pictures show it: the rules' colour letter in capitals (``X``, ``O``, ``Y``, ``Z``)."""
    return COLOURS[seat].upper()


@dataclass(frozen=True)
class Layout:
    """Where the top view's parts go in a picture ``width`` wide whose board starts ``top`` pixels down: cells
    ``cell`` pixels square from ``left``, coordinates at ``text`` size, cell texts at ``cell_text``."""

    n: int
    width: int
    text: int
    cell: int
    cell_text: int
    left: int
    top: int

    @property
    def band(self) -> int:
        """The height of the coordinate bands above and below the board."""
        return round(self.text * END_BAND)

    @property
    def height(self) -> int:
        """The picture's height: the board, its bottom coordinates and a margin; at least its width."""
        return max(self.width, self.top + self.n * self.cell + self.band + MARGIN // 2)

    def box(self, col: int, row: int) -> tuple[int, int, int, int]:
        """A cell's box, a1 at the bottom left; neighbours share their border's pixels (one grid line)."""
        x = self.left + col * self.cell
        y = self.top + (self.n - 1 - row) * self.cell
        return (x, y, x + self.cell, y + self.cell)

    def centre(self, col: int, row: int) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box(col, row)
        return ((x0 + x1) / 2, (y0 + y1) / 2)


def _cell_size(n: int, width: int) -> int:
    text = readable(width)
    return (width - 2 * MARGIN - 2 * round(text * SIDE_BAND)) // n


def picture_width(n: int) -> int:
    """:data:`MIN_WIDTH`, or wider (by 8 pixels at a time, up to MAX_WIDTH) until an n x n board's cells hold their
    texts at readable size: readable sizes grow with the width, but more slowly than the cells do."""
    width = MIN_WIDTH
    while width < MAX_WIDTH and _cell_size(n, width) < CELL_TEXTS * readable(width):
        width += 8
    return width


def board_layout(n: int, top: float) -> Layout:
    """The top view of an n x n board whose coordinates start at ``top`` (under the header)."""
    width = picture_width(n)
    text = readable(width)
    cell = _cell_size(n, width)
    cell_text = min(round(text * TEXT_GROWTH), max(text, math.floor(cell / CELL_TEXTS)))
    band = round(text * END_BAND)
    return Layout(n, width, text, cell, cell_text, (width - n * cell) // 2, math.ceil(top) + band)


def layout(
    state: DrogoState, clock: Clock | None = None, ratings: Ratings | None = None, board_top: float = 0.0
) -> tuple[Group, Layout]:
    """The header as drawn for this picture, and where the board goes below it (its top coordinates at
    ``board_top`` or lower: a replay keeps the board in one place)."""
    width = picture_width(state.size)
    group, bottom = head.draw(header(state), width, head.Sizes.for_width(width, MARGIN), clock, ratings)
    return group, board_layout(state.size, max(bottom, board_top))


def scene(
    state: DrogoState, clock: Clock | None = None, ratings: Ratings | None = None, board_top: float = 0.0
) -> Scene:
    """The top view as a scene; ``clock`` and ``ratings`` as for :func:`render.board_png`, ``board_top`` as for
    :func:`layout`."""
    top, where = layout(state, clock, ratings, board_top)
    items: list[Item] = [_coordinates(where), top, _cells(state, where), _captured(state, where)]
    items.append(_last_move(state, where))
    return Scene(where.width, where.height, BACKGROUND, tuple(items), exact=EXACT)


def render_image(state: DrogoState, clock: Clock | None = None, ratings: Ratings | None = None) -> Image.Image:
    """The top view as a Pillow RGB image; ``clock`` and ``ratings`` as for :func:`render.board_png`."""
    return png.raster(scene(state, clock, ratings))


def render_png(state: DrogoState, clock: Clock | None = None, ratings: Ratings | None = None) -> bytes:
    """The top view as PNG bytes, ready to attach to a message."""
    return png.png(scene(state, clock, ratings))


def replay_images(states: Sequence[DrogoState]) -> Iterator[Image.Image]:
    """The boards of a replay with the board at the same height in every frame (the lowest any frame's header
    needs), so that a frame changes only where the game did and a GIF stores only that."""
    lowest = max((layout(state)[1] for state in states), key=lambda where: where.top)
    board_top = lowest.top - lowest.band
    for state in states:
        yield png.raster(scene(state, board_top=board_top))


def scene_3d(state: DrogoState, clock: Clock | None = None, ratings: Ratings | None = None) -> Scene:
    """The second picture: the stacks seen from the front, under the same header (render.drogo_3d)."""
    from render import drogo_3d

    return drogo_3d.scene(state, clock, ratings)


# ---- the board ------------------------------------------------------------------------------------------------


def _coordinates(where: Layout) -> Group:
    """Column letters above and below the board, row numbers left and right of it: the same in every picture
    of a board size and header height, so drawn once (static)."""
    n, size = where.n, where.text
    x0, y0 = where.left, where.top
    x1, y1 = x0 + n * where.cell, y0 + n * where.cell
    gap = size * 0.75
    items: list[Item] = []
    for k in range(n):
        name, number = chr(ord("a") + k), str(k + 1)
        x = x0 + (k + 0.5) * where.cell
        y = y1 - (k + 0.5) * where.cell
        items += [Text((x, y0 - gap), name, size, MUTED, "mm"), Text((x, y1 + gap), name, size, MUTED, "mm")]
        items += [Text((x0 - gap, y), number, size, MUTED, "mm"), Text((x1 + gap, y), number, size, MUTED, "mm")]
    return Group(tuple(items), "coordinates", static=True)


def _cells(state: DrogoState, where: Layout) -> Group:
    """Every cell, tagged with its name, height and owner: the owner's colour with their letter over the height,
    or bare ground."""
    size = where.cell_text
    offset = size * 0.46
    groups: list[Item] = []
    for row in range(where.n):
        for col in range(where.n):
            owner = state.owner(col, row)
            height = state.height(col, row)
            fill = EMPTY if owner is None else PLAYER_COLOURS[owner][0]
            items: list[Item] = [Rect(where.box(col, row), fill, GRID)]
            if owner is not None:
                x, y = where.centre(col, row)
                ink = ink_on(fill)
                items.append(Text((x, y - offset), letter(owner), size, ink, "mm"))
                items.append(Text((x, y + offset), str(height), size, ink, "mm"))
            data = (("height", str(height)), ("owner", "" if owner is None else str(owner)))
            groups.append(Group(tuple(items), "cell", cell_name(col, row), data))
    return Group(tuple(groups), "board")


def mark_width(where: Layout) -> float:
    """The width of the captured stacks' marks, 2 to 5 pixels as the cells grow (the last move's outline is a
    pixel wider)."""
    return float(min(5, max(2, round(where.cell * 0.06))))


def _captured(state: DrogoState, where: Layout) -> Group:
    """The stacks the last move captured: a cross on each emptied cell, or with ``-in_place`` (the stack stays,
    in the capturer's colour) a bracket at each corner, clear of the cell's texts."""
    width = mark_width(where)
    items: list[Item] = []
    for col, row, _stack in (state.last or {}).get("captured", []):
        x0, y0, x1, y1 = where.box(col, row)
        if state.owner(col, row) is None:
            pad = where.cell * 0.24
            items.append(Line(((x0 + pad, y0 + pad), (x1 - pad, y1 - pad)), HIGHLIGHT, width))
            items.append(Line(((x1 - pad, y0 + pad), (x0 + pad, y1 - pad)), HIGHLIGHT, width))
            continue
        pad, arm = width + 2, where.cell * 0.22
        for x, y, dx, dy in ((x0, y0, 1, 1), (x1, y0, -1, 1), (x0, y1, 1, -1), (x1, y1, -1, -1)):
            cx, cy = x + dx * pad, y + dy * pad
            items.append(Line(((cx + dx * arm, cy), (cx, cy), (cx, cy + dy * arm)), HIGHLIGHT, width))
    return Group(tuple(items), "captured") if items else Group(())


def _last_move(state: DrogoState, where: Layout) -> Group:
    """The last placement's cells outlined in the highlight colour, drawn after every cell so that no
    neighbour's grid line crosses the outline."""
    width = mark_width(where) + 1
    cells = sorted({(col, row) for col, row, _level in (state.last or {}).get("placed", [])})
    items: list[Item] = [Rect(where.box(col, row), None, HIGHLIGHT, width) for col, row in cells]
    names = ",".join(cell_name(col, row) for col, row in cells)
    return Group(tuple(items), "last-move", names) if items else Group(())


# ---- the header ------------------------------------------------------------------------------------------------


def header(state: DrogoState) -> head.Header:
    """The shared header: status, a row per player with their height (their score), the board's size and
    options aside, how the game ended and the last move in words."""
    scores = state.scores()
    seats = []
    for seat, name in enumerate(state.players):
        facts = (f"height {scores[seat]}", *((state.out_reason(seat),) if seat in state.resigned else ()))
        seats.append(head.Seat(seat, name, letter(seat), *PLAYER_COLOURS[seat], facts))
    lines = [line for line in (_ending(state), last_text(state)) if line]
    return head.Header(
        status(state), tuple(seats), None if state.is_over else state.to_move, tuple(lines), aside(state)
    )


def aside(state: DrogoState) -> str:
    """The board's size and the options that change play: ``6x6``, ``8x8, -single, -in_place``."""
    words = [f"-{name}" for name in ("single", "in_place", "easy_free", "no_superko") if state.options.get(name)]
    return ", ".join([f"{state.size}x{state.size}", *words])


def status(state: DrogoState) -> head.Status:
    """``alice to move``; ``alice wins: height 47 to 34, 18 and 2``; ``alice wins: bob resigned``; ``Draw: alice
    and bob tie on height 30``; ``Game cancelled: bob declined to play``."""
    outcome = state.outcome()
    if outcome is None:
        return head.Status.to_move(state.turn, state.players[state.turn])
    if outcome.cancelled:
        return head.Status.ended(outcome, state.players, "")
    why, scored, _table = outcome.reason.partition("; ")
    if not scored:  # a resignation or a timeout: the reason says it ("bob resigned")
        return head.Status.ended(outcome, state.players, why)
    scores = state.scores()
    if outcome.winners:
        winner = outcome.winners[0]
        rest = sorted((scores[seat] for seat in range(len(scores)) if seat != winner), reverse=True)
        return head.Status.ended(outcome, state.players, f"height {scores[winner]} to {_listed(rest)}")
    best = max(scores[seat] for seat in state.active_seats())
    tied = [state.players[seat] for seat in state.active_seats() if scores[seat] == best]
    return head.Status.ended(outcome, state.players, f"{_listed(tied)} tie on height {best}")


def _listed(values: Sequence[object]) -> str:
    """``34``, ``34 and 18``, ``34, 18 and 2``."""
    words = [str(value) for value in values]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _ending(state: DrogoState) -> str:
    """Why a game scored on the board ended (``ended: no player can place a piece``); "" otherwise."""
    outcome = state.outcome()
    if outcome is None or outcome.cancelled:
        return ""
    why, scored, _table = outcome.reason.partition("; ")
    return f"ended: {why}" if scored else ""


def last_text(state: DrogoState) -> str:
    """The last move in words (``last: bob played c3,d3, capturing 2 stacks (5 pieces)``), "" before any."""
    last = state.last
    if last is None:
        return ""
    name = state.players[last["seat"]]
    if not last["placed"]:
        return head.last_move(name, "had no legal placement and passed")
    words = "played " + ",".join(cell_name(col, row) for col, row, _level in last["placed"])
    captured = last["captured"]
    if captured:
        stacks, pieces = len(captured), sum(len(stack) for _col, _row, stack in captured)
        verb = "taking over" if state.options.get("in_place") else "capturing"
        words += f", {verb} {stacks} stack{'s' * (stacks != 1)} ({pieces} piece{'s' * (pieces != 1)})"
    return head.last_move(name, words)
