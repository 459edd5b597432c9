"""Druid's pictures (issue 27): the top-down board leads, the 3D view is the second picture.

The top-down board: every cell a tagged element with its owner's letter over its height, lintels as one outlined
stone across their cells, druids as discs in their player's colour, the last stone outlined inside its cells,
coordinates on every edge (hex rows numbered where each row leaves the board, so a cell's name is read, not
counted), hex sides named in their owner's colour, a won connection outlined without covering a letter, a druid's
target stars clear of the coordinates. The 3D view: gaps under lintels stay open, no marker for a hidden stone
(they piled up and read as stones), druids in their player's colour, the Y standing on its base as on the top-down
board, coordinates along the near sides never covered, goal strips never hidden by them. Both: small opaque PNGs at
most 800 pixels wide, square or portrait."""

from __future__ import annotations

import io
import itertools
import math

import pytest
from PIL import Image

import render
from bench.druid import random_move
from render import header as head
from render.common import BACKGROUND, HIGHLIGHT, PLAYER_COLOURS, font
from render.druid import geometry, iso, top, words
from render.png import png, raster
from render.scene import MAX_WIDTH, Ellipse, Group, Item, Line, Polygon, Rect, Scene, Text
from rules.druid import GAME, DruidState, Pass
from rules.rng import Rng

Box = tuple[float, float, float, float]


def game(words: tuple[str, ...], players: int = 2, stones: int = 0, seed: int = 1) -> DruidState:
    """A game with about ``stones`` random placements made (no passes, so it stays open unless someone wins)."""
    state = GAME.new(GAME.parse_options(words, players), [f"p{i}" for i in range(players)], seed)
    assert isinstance(state, DruidState)
    rng = Rng(seed)
    while not state.is_over and state.ply < stones:
        move = random_move(state, rng)
        if not isinstance(move, Pass):
            state.push(move)
    return state


def play(state: DruidState, *moves: str) -> DruidState:
    for text in moves:
        state.push(state.parse_move(text))
    return state


def finished(words: tuple[str, ...], players: int, seed: int) -> DruidState:
    """A game played to its end by the benchmark's random player (passes included)."""
    state = GAME.new(GAME.parse_options(words, players), [f"p{i}" for i in range(players)], seed)
    assert isinstance(state, DruidState)
    rng = Rng(seed)
    while not state.is_over:
        state.push(random_move(state, rng))
    return state


def groups(drawn: Scene | Group, kind: str) -> list[Group]:
    items = drawn.items
    found: list[Group] = []
    stack = list(items)
    while stack:
        item = stack.pop(0)
        if isinstance(item, Group):
            if item.kind == kind:
                found.append(item)
            stack[:0] = list(item.items)
    return found


def shapes(group: Group) -> list[Item]:
    """Every shape inside ``group``, nested groups included."""
    out: list[Item] = []
    for item in group.items:
        out += shapes(item) if isinstance(item, Group) else [item]
    return out


def bounds(item: Item) -> Box:
    """The box a cell's shape covers."""
    if isinstance(item, (Rect, Ellipse)):
        return item.box
    assert isinstance(item, (Polygon, Line))
    xs, ys = [x for x, _ in item.points], [y for _, y in item.points]
    return (min(xs), min(ys), max(xs), max(ys))


def text_box(text: Text) -> Box:
    """Where a centred text's ink lies: its drawn width, and a capital's height about the middle."""
    width = head.width_of(text.text, round(text.size))
    x, y = text.xy
    return (x - width / 2, y - text.size * 0.36, x + width / 2, y + text.size * 0.36)


def overlap(a: Box, b: Box, gap: float = 0.0) -> bool:
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def cells_of(drawn: Scene) -> dict[str, Group]:
    return {group.id: group for group in groups(drawn, "cell")}


def centre(box: Box) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def cell_texts(drawn: Scene) -> dict[str, list[Text]]:
    """The texts drawn over each cell (those whose middle lies inside the cell's box), top first."""
    [texts] = groups(drawn, "texts")
    boxes = {name: bounds(group.items[0]) for name, group in cells_of(drawn).items()}
    out: dict[str, list[Text]] = {name: [] for name in boxes}
    for text in (item for item in texts.items if isinstance(item, Text)):
        x, y = text.xy
        name = next(n for n, b in boxes.items() if b[0] <= x <= b[2] and b[1] <= y <= b[3])
        out[name].append(text)
    return {name: sorted(found, key=lambda t: t.xy[1]) for name, found in out.items()}


VARIANTS = [
    ((), 2, 0),
    (("-size=3",), 2, 4),
    ((), 2, 140),
    (("-size=19",), 2, 250),
    (("-size=26",), 2, 900),
    (("-hex",), 2, 60),
    (("-hex",), 3, 60),
    (("-hex", "-size=13"), 3, 300),
    (("-y",), 2, 30),
    (("-y", "-size=26"), 2, 250),
    (("-walk",), 2, 90),
    (("-hex", "-walk"), 3, 90),
    (("-nostack",), 2, 80),
]


# ---- both pictures --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("words", "players", "stones"), VARIANTS)
@pytest.mark.parametrize("view", ["top", "3d"])
def test_both_pictures_are_small_opaque_pngs_for_phones(
    words: tuple[str, ...], players: int, stones: int, view: str
) -> None:
    data = render.board_png(game(words, players, stones), view=view)
    assert data.startswith(b"\x89PNG") and len(data) <= 400 * 1024
    image = Image.open(io.BytesIO(data))
    assert "transparency" not in image.info and image.mode in ("P", "RGB")
    assert 560 <= image.width <= MAX_WIDTH and image.height >= image.width


def test_the_3d_view_is_asked_for_by_name() -> None:
    """``render.board_png(state, view="3d")`` is the 3D scene's PNG; Druid has a 3D view, Backgammon none; an
    unknown view is refused in one line."""
    state = game((), 2, 20)
    assert render.has_3d("druid") and not render.has_3d("backgammon")
    assert render.board_png(state, view="3d") == png(iso.scene_3d(state))
    assert render.board_png(state) == png(top.scene(state)) == render.board_png(state, view="top")
    assert render.board_svg(state, view="3d").count('data-kind="cell"') == sum(1 for h in state.height if h)
    with pytest.raises(LookupError, match="no view 'side': the views are top, 3d"):
        render.board_png(state, view="side")
    backgammon = __import__("rules.registry", fromlist=["get"]).get("backgammon")
    other = backgammon.new(backgammon.parse_options([], 2), ["a", "b"], 1)
    with pytest.raises(LookupError, match="Backgammon boards have no 3D view"):
        render.board_png(other, view="3d")


# ---- the top-down board ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("words", "players", "stones"), [((), 2, 60), (("-hex",), 3, 60), (("-y",), 2, 30)])
def test_every_cell_is_tagged_with_its_name_height_owner_and_stone(
    words: tuple[str, ...], players: int, stones: int
) -> None:
    state = game(words, players, stones)
    tagged = groups(top.scene(state), "cell")
    assert [group.id for group in tagged] == list(state.board.names)
    for cell, group in enumerate(tagged):
        stack = state.stacks[cell]
        kind = "" if not stack else "lintel" if state.stones[stack[-1]].kind == "l" else "sarsen"
        owner = "" if state.top[cell] < 0 else str(state.top[cell])
        assert group.data == (("height", str(state.height[cell])), ("owner", owner), ("stone", kind))


@pytest.mark.parametrize(
    ("words", "players", "stones"), [((), 2, 140), (("-hex",), 3, 60), (("-y", "-size=26"), 2, 250)]
)
def test_each_built_cell_shows_its_owners_letter_over_its_height(
    words: tuple[str, ...], players: int, stones: int
) -> None:
    """In the letter the header's chip carries (capitals), over the height in digits; bare ground shows nothing;
    both at the cell text size, inside the cell."""
    state = game(words, players, stones)
    drawn = top.scene(state)
    boxes = {name: bounds(group.items[0]) for name, group in cells_of(drawn).items()}
    for name, texts in cell_texts(drawn).items():
        cell = state.board.index[name]
        if state.top[cell] < 0:
            assert texts == [], name
            continue
        letter, height = texts
        assert letter.text == state.colours[state.top[cell]] and height.text == str(state.height[cell])
        assert letter.xy[1] < height.xy[1]
        assert overlap(text_box(letter), boxes[name]) and not overlap(text_box(letter), text_box(height))


def test_a_tall_stack_is_written_in_digits() -> None:
    state = play(game(("-size=6",)), *["c3", "pass"] * 10)
    assert [t.text for t in cell_texts(top.scene(state))["c3"]] == ["V", "10"]


def pixel(state: DruidState, at: tuple[float, float]) -> tuple[int, int, int]:
    return raster(top.scene(state)).getpixel(tuple(round(v) for v in at))


def between(drawn: Scene, a: str, b: str) -> tuple[float, float]:
    """The middle of the edge between two neighbouring square cells."""
    cells = cells_of(drawn)
    (ax, ay), (bx, by) = centre(bounds(cells[a].items[0])), centre(bounds(cells[b].items[0]))
    return ((ax + bx) / 2, (ay + by) / 2)


def test_a_lintel_is_one_outlined_stone_across_its_cells() -> None:
    """V's lintel C3-E3 covers the grid lines between its cells (there in V's colour), edged in V's rim colour;
    two sarsens side by side keep the grid line between them. Covered in the middle, a lintel shows its two ends."""
    state = play(game(("-size=6",)), "c3", "c5", "e3", "d5", "c3-e3")
    drawn = top.scene(state)
    [lintel] = groups(drawn, "lintel")
    assert (lintel.id, lintel.data) == ("c3-e3", (("owner", "0"), ("level", "2")))
    ivory, rim = PLAYER_COLOURS[0]
    assert pixel(state, between(drawn, "c3", "d3")) == ivory
    assert pixel(state, between(drawn, "d3", "e3")) == ivory
    assert pixel(state, between(drawn, "c5", "d5")) == top.GRID
    assert [line.colour for line in shapes(lintel) if isinstance(line, Line)] == [rim]
    state = play(game(("-size=6",)), "c3", "pass", "e3", "pass", "c3-e3", "pass", "d3")
    [lintel] = groups(top.scene(state), "lintel")
    assert len([item for item in shapes(lintel) if isinstance(item, Polygon)]) == 2  # its two ends


def test_the_druid_is_a_disc_in_its_players_colour_under_the_cell_texts() -> None:
    """Not the highlight colour, which is the last move's alone; the cell's letter and height stay on top."""
    state = play(game(("-walk", "-size=6")), "c1", "a3", "c2")
    drawn = top.scene(state)
    found = {group.id: group for group in groups(drawn, "druid")}
    assert set(found) == {"0", "1"}
    for seat, group in found.items():
        [disc] = group.items
        assert isinstance(disc, Ellipse) and disc.fill == PLAYER_COLOURS[int(seat)][0] and disc.outline == BACKGROUND
        assert group.data == (("cell", state.board.names[state.druids[int(seat)]]),)
    [texts] = groups(drawn, "texts")
    first_text = next(k for k, item in enumerate(texts.items) if isinstance(item, Text))
    assert all(isinstance(item, Group) and item.kind == "druid" for item in texts.items[:first_text])
    assert [t.text for t in cell_texts(drawn)["a3"]] == ["H", "1"]


def segments(group: Group) -> list[Line]:
    return [item for item in shapes(group) if isinstance(item, Line)]


def crosses(line: Line, box: Box) -> bool:
    """Whether a straight line, with its width, passes through ``box`` (sampled along its length)."""
    (ax, ay), (bx, by) = line.points[0], line.points[-1]
    steps = max(2, math.ceil(math.hypot(bx - ax, by - ay)))
    half = line.width / 2
    for k in range(steps + 1):
        x, y = ax + (bx - ax) * k / steps, ay + (by - ay) * k / steps
        if overlap((x - half, y - half, x + half, y + half), box):
            return True
    return False


def inside(line: Line, boxes: list[Box]) -> bool:
    """Both ends of the line, and its middle, inside one of ``boxes``."""
    points = [line.points[0], line.points[-1], centre(bounds(line))]
    return all(any(b[0] - 1 <= x <= b[2] + 1 and b[1] - 1 <= y <= b[3] + 1 for b in boxes) for x, y in points)


def test_the_last_stone_is_outlined_as_one_shape_inside_its_cells() -> None:
    """A lintel's outline runs round its three cells, not between them, and crosses no letter."""
    state = play(game(("-size=6",)), "c3", "c5", "e3", "d5", "c3-e3")
    drawn = top.scene(state)
    [last] = groups(drawn, "last-move")
    lines = segments(last)
    cells = cells_of(drawn)
    boxes = [bounds(cells[name].items[0]) for name in ("c3", "d3", "e3")]
    assert lines and all(line.colour == HIGHLIGHT and inside(line, boxes) for line in lines)
    for seam in (between(drawn, "c3", "d3"), between(drawn, "d3", "e3")):
        assert not any(crosses(line, (seam[0] - 1, seam[1] - 1, seam[0] + 1, seam[1] + 1)) for line in lines)
    texts = [text for found in cell_texts(drawn).values() for text in found]
    assert not any(crosses(line, text_box(text)) for line in lines for text in texts)


def labels(drawn: Scene) -> dict[str, list[Text]]:
    [group] = groups(drawn, "coordinates")
    out: dict[str, list[Text]] = {}
    for text in group.items:
        assert isinstance(text, Text)
        out.setdefault(text.text, []).append(text)
    return out


def test_a_square_board_has_coordinates_on_all_four_edges() -> None:
    """A column's letter above and below it, a row's number left and right of it, every one readable."""
    drawn = top.scene(game(("-size=8",), 2, 10))
    cells = {name: centre(bounds(group.items[0])) for name, group in cells_of(drawn).items()}
    found = labels(drawn)
    for k in range(8):
        letter, number = "ABCDEFGH"[k], str(k + 1)
        above, below = sorted(found[letter], key=lambda t: t.xy[1])
        assert abs(above.xy[0] - cells[f"{letter.lower()}8"][0]) < 1 and above.xy[1] < cells[f"{letter.lower()}8"][1]
        assert abs(below.xy[0] - cells[f"{letter.lower()}1"][0]) < 1 and below.xy[1] > cells[f"{letter.lower()}1"][1]
        left, right = sorted(found[number], key=lambda t: t.xy[0])
        assert abs(left.xy[1] - cells[f"a{number}"][1]) < 1 and left.xy[0] < cells[f"a{number}"][0]
        assert abs(right.xy[1] - cells[f"h{number}"][1]) < 1 and right.xy[0] > cells[f"h{number}"][0]


def on_line(point: tuple[float, float], a: tuple[float, float], b: tuple[float, float], slack: float) -> bool:
    """Whether ``point`` lies within ``slack`` pixels of the line through ``a`` and ``b``."""
    (px, py), (ax, ay), (bx, by) = point, a, b
    return abs((bx - ax) * (py - ay) - (by - ay) * (px - ax)) / math.hypot(bx - ax, by - ay) <= slack


@pytest.mark.parametrize("size", [5, 13])
def test_hex_rows_are_numbered_where_each_row_leaves_the_board(size: int) -> None:
    """Typing F3 needs no counting: row 3 runs straight from its number at the board's right edge through I3,
    H3 and G3 to F3 (and from its number at the left edge to E3); each column's letter stands under its bottom
    cell and the name of its top cell over it, each nearer its own cell than any other."""
    state = game(("-hex", f"-size={size}"), 2, 0)
    board = state.board
    drawn = top.scene(state)
    cells = {name: centre(bounds(group.items[0])) for name, group in cells_of(drawn).items()}
    found = labels(drawn)
    first, middle, last = "a", chr(96 + size), chr(96 + 2 * size - 1)
    for row in range(1, size + 1):
        left, right = sorted(found[str(row)], key=lambda t: t.xy[0])
        for end, label in ((first, left), (last, right)):
            ends = cells[f"{end}{row}"], cells[f"{middle}{row}"]
            run = range(min(ord(end), ord(middle)), max(ord(end), ord(middle)) + 1)
            assert all(on_line(cells[f"{chr(c)}{row}"], *ends, 1.5) for c in run)
            assert on_line(label.xy, *ends, 1.5) and math.dist(label.xy, ends[0]) < math.dist(label.xy, ends[1])
    for column in range(board.ncols):
        up = [board.names[c] for c in range(board.ncells) if board.col[c] == column]
        for name, label, below in ((up[0], found[chr(65 + column)], True), (up[-1], found[up[-1].upper()], False)):
            [text] = label
            nearest = min(cells, key=lambda other: math.dist(cells[other], text.xy))
            assert nearest == name and (text.xy[1] > cells[name][1]) == below, (name, nearest)


def test_hex_sides_are_named_on_the_board_in_their_owners_colours() -> None:
    """Three players: each player's two sides, named as the header names them, in their colour; two players:
    the triples NW, E, SW and NE, SE, W in two greys, the header naming both."""
    state = game(("-hex",), 3, 0)
    drawn = top.scene(state)
    named = {group.id: group.items[0] for group in groups(drawn, "side-name")}
    assert set(named) == {"NW", "NE", "W", "E", "SW", "SE"}
    for seat, goals in enumerate(state.goals):
        for side in goals[0]:
            assert named[side].fill == PLAYER_COLOURS[seat][0]
            assert side in words.goal(state, seat)
    two = game(("-hex",), 2, 0)
    named = {group.id: group.items[0].fill for group in groups(top.scene(two), "side-name")}
    assert named["NW"] == named["E"] == named["SW"] != named["NE"] == named["SE"] == named["W"]
    assert words.goal(two, 0) == "joins NW, E and SW or NE, SE and W sides"


@pytest.mark.parametrize(("words", "players", "stones"), VARIANTS)
def test_coordinates_and_side_names_stand_clear_of_the_board_and_each_other(
    words: tuple[str, ...], players: int, stones: int
) -> None:
    """No coordinate or side name touches another, a cell, a strip or a star, and all stay inside the picture."""
    state = game(words, players, stones)
    drawn = top.scene(state)
    texts = [t for t in groups(drawn, "coordinates")[0].items if isinstance(t, Text)]
    texts += [group.items[0] for group in groups(drawn, "side-name")]  # type: ignore[misc]
    boxes = [text_box(text) for text in texts]
    for (a, ta), (b, tb) in itertools.combinations(zip(boxes, texts, strict=True), 2):
        assert not overlap(a, b), (ta.text, tb.text)
    cells = [bounds(group.items[0]) for group in groups(drawn, "cell")]
    strips = [item for side in groups(drawn, "side") for item in side.items if isinstance(item, Line)]
    stars = [bounds(item) for side in groups(drawn, "side") for item in side.items if isinstance(item, Polygon)]
    for box, text in zip(boxes, texts, strict=True):
        assert box[0] >= 0 and box[2] <= drawn.width, text.text
        assert not any(overlap(box, other) for other in cells + stars), text.text
        assert not any(crosses(strip, box) for strip in strips), text.text


@pytest.mark.parametrize(
    ("words", "players", "seed"),
    [((), 2, 1), (("-size=6",), 2, 3), (("-y", "-size=6"), 2, 3), (("-hex",), 2, 4), (("-hex", "-size=4"), 3, 4)],
)
def test_a_won_connection_is_outlined_without_covering_a_letter(
    words: tuple[str, ...], players: int, seed: int
) -> None:
    """The traced path is the winner's own cells, each next to the one before, from one goal side to the other
    (and to the third side for hex and Y); on the board its outline stays inside its cells and crosses no text."""
    state = finished(words, players, seed)
    (winner,) = state.outcome().winners
    paths = geometry.winning_paths(state)
    board = state.board
    assert paths
    sides = next(sides for sides in state.goals[winner] if len(sides) == len(paths) + 1)
    covered = set()
    for path in paths:
        assert all(state.top[cell] == winner for cell in path)
        assert all(b in board.neighbours[a] for a, b in itertools.pairwise(path))
        covered.update(path)
    assert all(any(board.sides[side] >> cell & 1 for cell in covered) for side in sides)
    drawn = top.scene(state)
    [traced] = groups(drawn, "winning-path")
    cells = cells_of(drawn)
    boxes = [bounds(cells[board.names[cell]].items[0]) for cell in covered]
    lines = segments(traced)
    assert lines and all(line.colour == HIGHLIGHT and inside(line, boxes) for line in lines)
    texts = [text for found in cell_texts(drawn).values() for text in found]
    assert not any(crosses(line, text_box(text)) for line in lines for text in texts)


def test_no_path_after_a_draw() -> None:
    state = finished((), 2, 2)
    assert geometry.winning_paths(state) == [] and not groups(top.scene(state), "winning-path")


def test_a_druids_step_is_an_arrowhead_across_the_edge_it_crossed() -> None:
    state = finished(("-walk",), 2, 1)
    assert state.outcome().reason == "V's druid reached the bottom row"
    (step,) = geometry.winning_paths(state)
    assert state.druids[0] == step[1] and step[0] in state.board.neighbours[step[1]]
    drawn = top.scene(state)
    [last] = groups(drawn, "last-move")
    [arrow] = [item for item in last.items if isinstance(item, Polygon)]
    cells = cells_of(drawn)
    a, b = (centre(bounds(cells[state.board.names[cell]].items[0])) for cell in step)
    tip = max(arrow.points, key=lambda p: (p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1]))
    assert math.dist(tip, b) < math.dist(tip, a)  # it points the way the druid went
    assert math.dist(centre(bounds(arrow)), ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)) < 3


def test_walk_targets_are_starred_clear_of_the_coordinates() -> None:
    """Each druid's target side carries stars on its strip, in its owner's colour; no star touches a coordinate
    (the stars once stood in the labels: "5**")."""
    state = play(game(("-hex", "-walk"), 3), "c1", "b6", "a3")
    assert state.targets == ["NE", "SE", "E"]
    drawn = top.scene(state)
    stars = {group.id: [i for i in group.items if isinstance(i, Polygon)] for group in groups(drawn, "side")}
    assert {side for side, found in stars.items() if found} == {"NE", "SE", "E"}
    assert {star.fill for star in stars["E"]} == {PLAYER_COLOURS[2][0]}
    texts = [text_box(t) for t in groups(drawn, "coordinates")[0].items if isinstance(t, Text)]
    assert not any(overlap(bounds(star), box) for found in stars.values() for star in found for box in texts)


def test_a_26x26_board_is_a_tall_picture_with_every_text_readable() -> None:
    """Too many columns for a letter over a height in square cells at 11 px on a phone: the cells grow taller
    than wide instead of the texts smaller, and a two-digit height still fits across its cell."""
    state = game(("-size=26",), 2, 900)
    drawn = top.scene(state)
    where = top.frame(geometry.shared(state.board), False, False)
    assert drawn.width <= MAX_WIDTH and drawn.height > 1.5 * drawn.width
    assert where.cell_text * 400 / drawn.width >= 11 and where.sy > where.sx
    ink = font(where.cell_text).getbbox("26")
    assert ink[2] - ink[0] <= where.sx


def test_the_header_names_each_goal_and_each_druid() -> None:
    state = play(game(("-walk", "-size=5")), "c2")
    assert words.status(state).text == "p1 to move"
    assert words.facts(state, 0) == ("druid not on the board yet (it comes on the bottom row or top row)",)
    play(state, "a3")
    assert words.facts(state, 1) == ("druid on A3, to the right column (starred)",)
    assert words.last_text(state) == "last: p1 placed a sarsen on A3 at level 1; the druid appears there"
    assert words.facts(game((), 2), 0) == ("joins bottom and top rows",)
    assert words.facts(game(("-hex",), 3), 2) == ("joins W and E sides",)
    assert words.status(finished((), 2, 1)).text == "p0 wins: joined top and bottom"
    assert words.status(finished((), 2, 2)).text == "Draw: all players passed in succession"
    assert words.status(finished(("-walk",), 2, 1)).text == "p0 wins: the druid reached the bottom row"
    swapped = play(game(()), "c3", "swap")
    assert words.last_text(swapped) == "last: p1 swapped and now plays V" and words.status(swapped).text == "p0 to move"
    assert words.last_text(play(swapped, "pass")) == "last: p0 passed"
    lintel = play(game(("-size=6",)), "c3", "pass", "e3", "pass", "e3-c3")
    assert words.last_text(lintel) == "last: p0 laid a lintel E3-C3 at level 2"
    assert words.last_text(game(())) == ""


# ---- the Y board: the same way up in both pictures ------------------------------------------------------------------


def test_the_y_stands_on_its_base_in_both_pictures() -> None:
    """Row 1 (A1 to H1) level along the bottom, left to right, and the corner A8 above its middle: on the
    top-down board and in the 3D view alike (they were drawn in different orientations)."""
    state = game(("-y",), 2, 0)
    cells = {name: centre(bounds(group.items[0])) for name, group in cells_of(top.scene(state)).items()}
    _, view, _, _ = iso.layout_3d(state)
    seen = {name: view.point(*view.lay.centres[state.board.index[name]], 0) for name in ("a1", "h1", "a8")}
    for where in (cells, seen):
        (ax, ay), (hx, hy), (tx, ty) = where["a1"], where["h1"], where["a8"]
        assert abs(ay - hy) < 1 and ax < tx < hx and ty < ay - 100


# ---- the 3D view ----------------------------------------------------------------------------------------------------


def drawn_3d(state: DruidState) -> tuple[Image.Image, iso.View]:
    _, view, _, _ = iso.layout_3d(state)
    return raster(iso.scene_3d(state)), view


def colour_at(state: DruidState, cell: str, z: float) -> tuple[int, int, int]:
    """The pixel where the middle of ``cell``'s front face at height ``z`` is projected."""
    image, view = drawn_3d(state)
    x, y = view.lay.centres[state.board.index[cell]]
    return image.getpixel(tuple(round(v) for v in view.point(x, y - 0.5, z)))


def test_gap_under_a_lintel_stays_open() -> None:
    with_gap = play(game(("-size=6",)), "c3", "pass", "e3", "pass", "c3-e3")
    assert colour_at(with_gap, "d3", 0.5) in (BACKGROUND, top.GROUND, top.GRID)
    filled = play(game(("-size=6",)), "c3", "d3", "e3", "pass", "c3-e3")
    red = PLAYER_COLOURS[1][0]
    pixel = colour_at(filled, "d3", 0.5)
    assert pixel[0] > pixel[1] + 40 and pixel[0] > 100 and pixel != red, "the H sarsen under the beam is shaded red"
    assert colour_at(filled, "d3", 1.5) != pixel, "the V lintel above it is a different colour"


def stone_colours(state: DruidState, seats: range | None = None) -> set[tuple[int, int, int]]:
    """Every colour a stone's face can take in the 3D view: each seat's fill, as a top and as each lit side."""
    lay = geometry.plane(state.board)
    out = set()
    for seat in seats if seats is not None else range(len(state.players)):
        fill = PLAYER_COLOURS[seat][0]
        out.add(fill)
        for normal in lay.normals:
            factor = iso._face_light(normal)
            out.add((int(fill[0] * factor), int(fill[1] * factor), int(fill[2] * factor)))
    return out


def test_a_hidden_stone_gets_no_marker() -> None:
    """V's sarsen on B8 under H's lintel A8-C8, with H's B7 in front of it, cannot be seen from the front; it
    once got a white dot on the red beam, which read as a white stone (and such dots piled up from move 20).
    Nothing is drawn for it now, and the header says that hidden stones are on the top-down board."""
    state = play(game(("-size=8",)), "b8", "a8", "pass", "c8", "pass", "b7", "pass", "a8-c8")
    image, view = drawn_3d(state)
    x, y = view.lay.centres[state.board.index["b8"]]
    cx, cy = (round(v) for v in view.point(x, y, 1))
    r = round(view.s / 5)
    window = image.crop((cx - r, cy - r, cx + r, cy + r)).convert("RGB")
    assert not {colour for _, colour in window.getcolors(1 << 16)} & stone_colours(state, range(1))
    lines = groups(iso.scene_3d(state), "lines")[0]
    assert iso.NOTE in " ".join(t.text for t in lines.items if isinstance(t, Text))


def test_druids_stand_in_their_players_colours() -> None:
    """Robed figures in the owner's colour, edged in dark: the highlight colour is the last move's alone."""
    state = play(game(("-walk", "-size=5")), "c1", "a3")
    drawn = iso.scene_3d(state)
    found = {group.id: group for group in groups(drawn, "druid")}
    assert set(found) == {"0", "1"}
    for seat, group in found.items():
        assert {item.fill for item in group.items} == {PLAYER_COLOURS[int(seat)][0]}  # type: ignore[union-attr]
        assert {item.outline for item in group.items} == {BACKGROUND}  # type: ignore[union-attr]
    marked = [g for g in groups(drawn, "last-move")]
    assert all(
        HIGHLIGHT not in {getattr(i, "fill", None), getattr(i, "outline", None)}
        for g in found.values()
        for i in g.items
    )
    assert marked


@pytest.mark.parametrize(
    ("words", "players", "moves"),
    [
        ((), 2, ()),
        (("-size=26",), 2, ()),
        (("-hex",), 2, ()),
        (("-hex",), 3, ()),
        (("-hex", "-size=13"), 3, ()),
        (("-y",), 2, ()),
        (("-walk", "-size=6"), 2, ("c1", "f3")),
        (("-hex", "-walk"), 3, ("c1", "g1", "i3")),
    ],
)
def test_goal_strips_are_not_hidden_by_coordinates(words: tuple[str, ...], players: int, moves: tuple) -> None:
    """On a board with no stone in front of the rim every goal strip segment shows its side's colour in the 3D view:
    the coordinates standing around the rim keep clear of it, also where a druid's target stars run along it. A
    segment shared by two sides at a corner may show either colour."""
    state = play(game(words, players), *moves)
    image, _ = drawn_3d(state)
    drawn = iso.scene_3d(state)
    colours: dict[tuple[int, int], set[tuple[int, int, int]]] = {}
    for side in groups(drawn, "side"):
        for line in (item for item in side.items if isinstance(item, Line)):
            (ax, ay), (bx, by) = line.points
            for k in (0.2, 0.8):  # off the middle, where a target star sits
                spot = (round(ax + (bx - ax) * k), round(ay + (by - ay) * k))
                colours.setdefault(spot, set()).add(line.colour)

    def seen(spot: tuple[int, int], allowed: set) -> bool:
        x, y = spot
        return any(image.getpixel((x + i, y + j)) in allowed for i in (-1, 0, 1) for j in (-1, 0, 1))

    assert colours and [spot for spot, allowed in colours.items() if not seen(spot, allowed)] == []


@pytest.mark.parametrize(
    ("words", "players", "stones"),
    [
        ((), 2, 170),
        (("-size=26",), 2, 900),
        (("-hex",), 3, 150),
        (("-y",), 2, 60),
        (("-walk",), 2, 90),
        (("-hex", "-walk"), 3, 120),
    ],
)
def test_3d_coordinates_are_never_covered_nor_touch(words: tuple[str, ...], players: int, stones: int) -> None:
    """Late in a game, no stone colour and no highlight shows inside any 3D coordinate's box (stones in column A
    once stood over the row numbers); where the near sides have more coordinates than room (26 columns), they are
    thinned so that none touches the next, the last one kept."""
    state = game(words, players, stones)
    image, _ = drawn_3d(state)
    drawn = iso.scene_3d(state)
    texts = [t for t in groups(drawn, "coordinates")[0].items if isinstance(t, Text)]
    assert len(texts) >= min(8, state.board.ncols)
    forbidden = stone_colours(state) | {HIGHLIGHT}
    for text in texts:
        box = tuple(round(v) for v in text_box(text))
        colours = {colour for _, colour in image.crop(box).convert("RGB").getcolors(1 << 16)}
        assert not colours & forbidden, (text.text, colours & forbidden)
    for a, b in itertools.combinations(texts, 2):
        assert not overlap(text_box(a), text_box(b)), (a.text, b.text)
    if state.board.kind == "square":
        assert {"A", chr(64 + state.board.size), "1", str(state.board.size)} <= {t.text for t in texts}


def top_point(view: iso.View, state: DruidState, cell: str, lift: float = 0.0) -> tuple[int, int]:
    x, y = view.lay.centres[state.board.index[cell]]
    return tuple(round(v) for v in view.point(x, y, min(state.height[state.board.index[cell]], iso.CAP) + lift))


def test_the_last_stone_is_pointed_at_even_behind_a_tall_stack() -> None:
    """A stone placed right behind a tall stack is hidden in 3D; the pointer above it is drawn on top."""
    state = play(game(("-size=6",)), *["c3", "pass"] * 5, "c4")
    image, view = drawn_3d(state)
    x, y = top_point(view, state, "c4")
    window = image.crop((x - 12, y - round(view.s * 0.7), x + 12, y)).convert("RGB")
    assert sum(n for n, colour in window.getcolors(1 << 16) if colour == HIGHLIGHT) >= 40


def test_tall_stacks_are_capped_and_labelled_in_digits() -> None:
    """A stack of ten is drawn CAP levels high (two faces seen per level, one top), its top in its owner's colour
    carrying "10" on a plate of that colour (the text board's "A" means nothing on a picture)."""
    state = play(game(("-size=6",)), *["c3", "pass"] * 10)
    image, view = drawn_3d(state)
    x, y = top_point(view, state, "c3")
    [cell] = [g for g in groups(iso.scene_3d(state), "cell") if g.id == "c3"]
    polygons = [item for item in shapes(cell) if isinstance(item, Polygon)]
    ivory = PLAYER_COLOURS[0][0]
    assert len(polygons) == 2 * iso.CAP + 1 and [p.fill for p in polygons].count(ivory) == 1
    [label] = [item for item in shapes(cell) if isinstance(item, Text)]
    assert label.text == "10" and math.dist(label.xy, (x, y)) < 2 and label.size * 400 / image.width >= 11


def test_a_won_walk_shows_the_winning_step_in_3d() -> None:
    state = finished(("-walk",), 2, 1)
    step = geometry.last_step(state)
    assert step is not None
    image, view = drawn_3d(state)
    a, b = (top_point(view, state, state.board.names[cell]) for cell in step)
    middle = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
    assert HIGHLIGHT in {image.getpixel((middle[0] + i, middle[1] + j)) for i in (-1, 0, 1) for j in (-1, 0, 1)}


def test_a_won_connection_is_traced_over_its_cells_in_3d() -> None:
    state = finished((), 2, 1)
    image, view = drawn_3d(state)
    for path in geometry.winning_paths(state):
        for cell in path:
            x, y = top_point(view, state, state.board.names[cell])
            assert HIGHLIGHT in {image.getpixel((x + i, y + j)) for i in (-1, 0, 1) for j in (-1, 0, 1)}


def test_nostack_marks_every_sarsen_top() -> None:
    """-nostack: the help says sarsens are specially marked; each sarsen top carries a diamond in its corner (in
    its owner's rim colour, clear of the letter), a lintel's cells none, and the header says what it means."""
    state = play(game(("-nostack", "-size=6")), "c3", "c5", "e3", "d5", "c3-e3", "b5")
    drawn = top.scene(state)
    [texts] = groups(drawn, "texts")
    diamonds = [item for item in texts.items if isinstance(item, Polygon)]
    sarsens = [c for c, stack in enumerate(state.stacks) if stack and state.stones[stack[-1]].kind == "s"]
    assert len(diamonds) == len(sarsens) == 3  # c5, d5, b5: c3 and e3 are under the lintel
    cells = cells_of(drawn)
    for cell in sarsens:
        box = bounds(cells[state.board.names[cell]].items[0])
        [diamond] = [d for d in diamonds if overlap(bounds(d), box)]
        assert diamond.fill == PLAYER_COLOURS[state.top[cell]][1] and centre(bounds(diamond))[0] < centre(box)[0]
        [letter, _] = cell_texts(drawn)[state.board.names[cell]]
        assert not overlap(bounds(diamond), text_box(letter))
    assert top.NOSTACK_KEY in " ".join(t.text for t in groups(drawn, "lines")[0].items if isinstance(t, Text))
    assert not [
        item for item in groups(top.scene(game(("-size=6",), 2, 10)), "texts")[0].items if isinstance(item, Polygon)
    ]


def test_a_replay_keeps_the_board_in_one_place() -> None:
    """Frames whose headers differ in height (a long name wraps) still draw the board at the same place, so that
    a GIF frame changes only where the game did."""
    states = [play(game(("-size=6",), 2), *moves) for moves in ((), ("c3",), ("c3", "pass", "e3", "pass", "c3-e3"))]
    states[2].players[0] = "Alexandria_the_Great_of_Macedon_the_Third_and_Last"
    assert len({top.layout(state)[1].origin for state in states}) > 1
    board_top = max(top.header_end(top.layout(state)[1]) for state in states)
    scenes = [top.scene(state, board_top=board_top) for state in states]
    assert len({tuple(bounds(g.items[0]) for g in groups(drawn, "cell")) for drawn in scenes}) == 1
    images = list(top.replay_images(states))
    assert [image.tobytes() for image in images] == [raster(drawn).tobytes() for drawn in scenes]
