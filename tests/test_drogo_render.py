"""Drogo board pictures (issue 27): the main picture is a large top-down board under the shared header, every cell
in its owner's colour with their capital letter over its height, the last move outlined, coordinates on all four
edges, at most 800 pixels wide and never wider than tall, for 2 to 4 players on 3x3 to 12x12 boards; the scores
say what they count. The 3D view is a second picture (``view="3d"``): its cubes never pass for floor, it is turned
like the top view, and the last move is outlined and pointed at even behind a nearer, taller stack."""

from __future__ import annotations

import io
import math

import pytest
from PIL import Image, ImageChops

import render
from render import drogo_3d
from render import header as head
from render.common import BACKGROUND, HIGHLIGHT, PLAYER_COLOURS
from render.drogo import (
    EMPTY,
    GRID,
    MARGIN,
    MIN_WIDTH,
    board_layout,
    header,
    letter,
    picture_width,
    render_png,
    scene,
    status,
)
from render.drogo_3d import (
    DX,
    DY,
    FRONT_LIGHT,
    GROUND,
    RIGHT_LIGHT,
    _blocked,
    axis_label_points,
    label_hidden,
    placed_outlines,
    pointer_tips,
    rise_for,
    view_for,
)
from render.scene import MAX_WIDTH, Group, Line, Rect, Scene, Text, group_texts
from rules.drogo import GAME, MAX_SIZE, MIN_SIZE, DrogoState, cell_name, random_move
from rules.rng import Rng

HELP_POSITION = [
    ". . . . . .",
    ". . . . . .",
    ". x . . . .",
    "o o x . . .",
    "o o x . . .",
    "o o x . . .",
]
NAMES = ["ann", "bob", "cy", "di"]


def played(
    players: int, words: tuple[str, ...], moves: int, seed: int = 5, names: list[str] | None = None
) -> DrogoState:
    state = GAME.new(GAME.parse_options(list(words), players), (names or NAMES)[:players], seed)
    rng = Rng(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state.push(state.forced_move() or random_move(state, rng))
    return state


def position(rows: list[str], players: int = 2, words: tuple[str, ...] = (), turn: int = 0) -> DrogoState:
    return DrogoState.from_rows(GAME.parse_options(list(words), players), NAMES[:players], rows, turn)


def decode(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG") and len(data) <= 300 * 1024
    image = Image.open(io.BytesIO(data))
    assert image.mode in ("P", "RGB")
    return image.convert("RGB")


def picture(state: DrogoState, view: str = "top") -> Image.Image:
    return decode(render.board_png(state, view=view))


def highlight_pixels(image: Image.Image, box: tuple[int, int, int, int] | None = None) -> int:
    region = image.crop(box) if box else image
    return sum(count for count, colour in region.getcolors(1 << 20) or [] if colour == HIGHLIGHT)


def board_highlight(state: DrogoState, view: str = "top") -> int:
    """The highlight colour's pixels below the header (whose status is in that colour too)."""
    width = picture_width(state.size)
    bottom = math.ceil(head.draw(header(state), width, head.Sizes.for_width(width, MARGIN), None, None)[1])
    image = picture(state, view)
    return highlight_pixels(image, (0, bottom, image.width, image.height))


def cells(drawn: Scene) -> dict[str, Group]:
    return {group.id: group for group in drawn.tagged("cell")}


# ---- the top view ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("words", "players", "moves"),
    [
        ((), 2, 0),
        ((), 2, 150),
        ((), 4, 300),
        ((f"-size={MIN_SIZE}",), 3, 40),
        ((f"-size={MAX_SIZE}",), 4, 3000),
        (("-size=9", "-single"), 2, 200),
    ],
)
@pytest.mark.parametrize("view", ["top", "3d"])
def test_pictures_are_opaque_small_at_most_800_wide_and_never_landscape(
    words: tuple[str, ...], players: int, moves: int, view: str
) -> None:
    image = picture(played(players, words, moves), view)
    assert MIN_WIDTH <= image.width <= MAX_WIDTH and image.height >= image.width, image.size
    assert Image.open(io.BytesIO(render.board_png(played(2, words, 3), view=view))).mode == "P"


@pytest.mark.parametrize("n", range(MIN_SIZE, MAX_SIZE + 1))
def test_the_board_fills_the_width_with_cells_that_hold_their_texts(n: int) -> None:
    """Cells and coordinates take all of the width but the margins; every cell holds its letter over its height
    at the texts' size; the widest picture (12x12) is still under the limit."""
    where = board_layout(n, 100)
    assert n * where.cell >= where.width * 0.8, (n, where.cell, where.width)
    assert where.cell >= 2.5 * where.cell_text >= 2.5 * where.text
    assert where.width <= MAX_WIDTH


def test_every_cell_is_tagged_with_its_height_and_owner_and_shows_them() -> None:
    """Each of the n x n cells is a group named as typed, with ``height`` and ``owner`` (the seat, "" when empty);
    an owned cell shows its owner's capital letter over its height in a colour that reads on the owner's fill, on
    that fill; an empty cell shows nothing on bare ground."""
    state = played(4, (), 300)
    drawn = scene(state)
    found = cells(drawn)
    assert len(found) == 36
    for row in range(6):
        for col in range(6):
            group = found[cell_name(col, row)]
            owner, height = state.owner(col, row), state.height(col, row)
            assert dict(group.data) == {"height": str(height), "owner": "" if owner is None else str(owner)}
            rect = group.items[0]
            assert isinstance(rect, Rect) and rect.outline == GRID
            if owner is None:
                assert rect.fill == EMPTY and group_texts(group) == []
            else:
                assert rect.fill == PLAYER_COLOURS[owner][0]
                assert group_texts(group) == [COLOURS_UPPER[owner], str(height)]
    assert {letter(seat) for seat in range(4)} == {"X", "O", "Y", "Z"}


COLOURS_UPPER = "XOYZ"


def test_the_letters_on_the_board_are_the_header_chips_letters() -> None:
    state = played(4, (), 300)
    drawn = scene(state)
    chips = {group.id for group in drawn.tagged("chip")}
    on_board = {group_texts(group)[0] for group in drawn.tagged("cell") if group_texts(group)}
    assert on_board <= chips == {"X", "O", "Y", "Z"}


def test_cells_show_owner_colour_letter_and_height_in_pixels() -> None:
    """In the PNG: an owned cell is its owner's fill with ink of the contrasting colour (the letter, the number) in
    both its upper and lower halves; an empty cell is plain ground."""
    state = position([*[". . . . . ."] * 5, "xx o . . . ."])
    image = picture(state)
    found = cells(scene(state))
    for name, light in (("a1", True), ("b1", False)):
        x0, y0, x1, y1 = (round(v) for v in found[name].items[0].box)  # type: ignore[union-attr]
        cell = image.crop((x0 + 3, y0 + 3, x1 - 3, y1 - 3))
        assert cell.getpixel((2, 2)) == PLAYER_COLOURS[0 if light else 1][0]
        half = cell.height // 2
        for part in (cell.crop((0, 0, cell.width, half)), cell.crop((0, half, cell.width, cell.height))):
            ink = [v for v in part.convert("L").get_flattened_data() if (v < 80 if light else v > 200)]
            assert len(ink) >= 20, name
    x0, y0, x1, y1 = (round(v) for v in found["d1"].items[0].box)  # type: ignore[union-attr]
    assert {colour for _count, colour in image.crop((x0 + 1, y0 + 1, x1, y1)).getcolors()} == {EMPTY}


def test_the_empty_board_shows_its_grid() -> None:
    """On an empty board the cell borders stand out from the empty cells and from the panel."""
    state = played(2, (), 0)
    image = picture(state)
    found = cells(scene(state))
    assert sum(abs(a - b) for a, b in zip(GRID, EMPTY, strict=True)) >= 90
    for name in ("a1", "c4", "f6"):
        x0, y0, x1, y1 = (round(v) for v in found[name].items[0].box)  # type: ignore[union-attr]
        assert image.getpixel((x0, (y0 + y1) // 2)) == GRID and image.getpixel((x1, y0 + 3)) == GRID
        assert image.getpixel(((x0 + x1) // 2, (y0 + y1) // 2)) == EMPTY


@pytest.mark.parametrize("n", [MIN_SIZE, 6, MAX_SIZE])
def test_coordinates_stand_on_all_four_edges(n: int) -> None:
    """Every column letter above and below its column, every row number left and right of its row, outside the
    board, at the readable size."""
    state = played(2, (f"-size={n}",), 0)
    drawn = scene(state)
    found = cells(drawn)
    [coordinates] = drawn.tagged("coordinates")
    texts = [item for item in coordinates.items if isinstance(item, Text)]
    left, top = found["a" + str(n)].items[0].box[:2]  # type: ignore[union-attr]
    right, bottom = found[cell_name(n - 1, 0)].items[0].box[2:]  # type: ignore[union-attr]
    for k in range(n):
        column = found[cell_name(k, 0)].items[0].box  # type: ignore[union-attr]
        row = found[cell_name(0, k)].items[0].box  # type: ignore[union-attr]
        letters = [t for t in texts if t.text == chr(ord("a") + k)]
        numbers = [t for t in texts if t.text == str(k + 1)]
        assert len(letters) == 2 and len(numbers) == 2
        assert all(column[0] < t.xy[0] < column[2] for t in letters)
        assert sorted(t.xy[1] < top for t in letters) == [False, True]
        assert all(t.xy[1] < top or t.xy[1] > bottom for t in letters)
        assert all(row[1] < t.xy[1] < row[3] for t in numbers)
        assert all(t.xy[0] < left or t.xy[0] > right for t in numbers)
        assert sorted(t.xy[0] < left for t in numbers) == [False, True]


@pytest.mark.parametrize(
    ("words", "move", "outlined"),
    [((), "c3,d3", {"c3", "d3"}), ((), "c3,c3", {"c3"}), (("-single",), "e5", {"e5"})],
)
def test_the_last_move_is_outlined(words: tuple[str, ...], move: str, outlined: set[str]) -> None:
    """Both cells of a two-cube move, the one cell of two cubes on one stack or of -single's cube: outlined in the
    highlight colour on the cell's border, drawn after every cell; nothing is outlined before the first move."""
    state = played(2, words, 0)
    assert scene(state).tagged("last-move") == []
    state.push(state.parse_move("a1"))
    state.push(state.parse_move(move))
    drawn = scene(state)
    [mark] = drawn.tagged("last-move")
    assert set(mark.id.split(",")) == outlined
    found = cells(drawn)
    boxes = {item.box for item in mark.items if isinstance(item, Rect) and item.outline == HIGHLIGHT}
    assert boxes == {found[name].items[0].box for name in outlined}  # type: ignore[union-attr]
    order = [group.kind for group in drawn.tagged() if group.kind in ("cell", "last-move")]
    assert order[-1] == "last-move"
    image = picture(state)
    for name in outlined:
        x0, y0, x1, y1 = (round(v) for v in found[name].items[0].box)  # type: ignore[union-attr]
        assert image.getpixel((x0 + 1, (y0 + y1) // 2)) == HIGHLIGHT
        assert image.getpixel(((x0 + x1) // 2, y1 - 1)) == HIGHLIGHT


def test_captured_stacks_are_crossed_out_or_bracketed_in_place() -> None:
    """a4 captures the O group of the help file's example: its cells are crossed in the highlight colour, empty;
    with -in_place they turn to X and stay, bracketed at their corners, their texts clear."""
    for words, owner in (((), None), (("-in_place",), 0)):
        state = position(HELP_POSITION, words=words)
        assert board_highlight(state) == 0
        state.push(state.parse_move("a4"))
        drawn = scene(state)
        [captured] = drawn.tagged("captured")
        assert all(isinstance(item, Line) and item.colour == HIGHLIGHT for item in captured.items)
        assert len(captured.items) == (2 if owner is None else 4) * 6
        found = cells(drawn)
        image = picture(state)
        for name in ("a1", "b2", "b3"):
            assert found[name].data[1] == ("owner", "" if owner is None else "0")
            x0, y0, x1, y1 = (round(v) for v in found[name].items[0].box)  # type: ignore[union-attr]
            middle = ((x0 + x1) // 2, (y0 + y1) // 2)
            if owner is None:
                assert image.getpixel(middle) == HIGHLIGHT  # the cross
            else:
                assert highlight_pixels(image, (x0 + 1, y0 + 1, x0 + 12, y0 + 12)) > 10  # a corner's bracket
                inner = (x0 + (x1 - x0) // 4, y0 + (y1 - y0) // 4, x1 - (x1 - x0) // 4, y1 - (y1 - y0) // 4)
                assert highlight_pixels(image, inner) == 0


# ---- the header: status grammar, scores labelled ---------------------------------------------------------------


def test_each_player_row_says_what_the_score_counts() -> None:
    """A row per player in seat order with their chip and 'height N': the total height of the stacks they own,
    their score; a resigned player says so."""
    state = played(4, (), 300)
    state.resign(state.to_move)
    scores = state.scores()
    drawn = scene(state)
    seats = drawn.tagged("seat")
    assert [group.id for group in seats] == ["0", "1", "2", "3"]
    for seat, group in enumerate(seats):
        row = " ".join(group_texts(group))
        assert f"{NAMES[seat]}  height {scores[seat]}" in row, row
        assert ("resigned" in row) == (seat in state.resigned)


@pytest.mark.parametrize(
    ("players", "moves", "expected"),
    [
        (2, 0, "ann to move"),
        (4, 41, "bob to move"),
        (2, 2000, "ann wins: height 121 to 39"),
        (4, 5000, "di wins: height 133 to 2, 0 and 0"),
    ],
)
def test_the_status_leads_the_header_in_the_shared_grammar(players: int, moves: int, expected: str) -> None:
    """The status (who moves, or the result with the heights) is the header's first and largest text, in the
    highlight colour; once the game is over, the turn marker is gone and a line says why it ended."""
    state = played(players, (), moves)
    assert status(state).text == expected
    drawn = scene(state)
    texts = drawn.texts()
    [status_group] = drawn.tagged("status")
    first = next(item for item in status_group.items if isinstance(item, Text))
    assert first.text == expected and first.fill == HIGHLIGHT
    assert first.size == max(text.size for text in texts)
    lines = " ".join(text for group in drawn.tagged("lines") for text in group_texts(group))
    if state.is_over:
        assert header(state).mover is None
        assert lines.startswith("ended: ")
    else:
        assert "ended" not in lines


def test_resignations_draws_and_cancellations_read_in_the_same_grammar() -> None:
    resigned = played(2, (), 10)
    assert resigned.to_move == 0
    resigned.resign(0)
    assert status(resigned).text == "bob wins: ann resigned"
    cancelled = played(2, (), 0)
    cancelled.cancel("bob declined to play")
    assert status(cancelled).text == "Game cancelled: bob declined to play"
    drawn = position(["xxxx oooo . .", *["xx oo . ."] * 3], words=("-size=4",))
    while not drawn.is_over:
        drawn.push(drawn.forced_move() or random_move(drawn, Rng(1)))
    text = status(drawn).text
    outcome = drawn.outcome()
    assert outcome is not None
    if outcome.winners:
        assert text.startswith(f"{NAMES[outcome.winners[0]]} wins: height ")
    else:
        assert text.startswith("Draw: ") and " tie on height " in text


def test_a_long_result_wraps_instead_of_being_cut() -> None:
    """Four long names: the status and the lines wrap between words, whole, inside the margins."""
    names = ["annabelle-the-great", "bob-from-accounting", "cynthia-of-the-hills", "dimitri-the-third"]
    state = position(["xxxx oooo yyyy zzzz"] * 4, players=4, words=("-size=4",))
    state.players = names
    while not state.is_over:
        state.push(state.forced_move())
    drawn = scene(state)
    expected = status(state).text
    [status_group] = drawn.tagged("status")
    shown = " ".join(item.text for item in status_group.items if isinstance(item, Text))
    assert shown == expected and expected.startswith("Draw: ")
    assert len([item for item in status_group.items if isinstance(item, Text)]) >= 2
    lines = " ".join(group_texts(drawn.tagged("lines")[0]))
    assert "ended: no player can place a piece" in lines
    for text in drawn.texts():
        assert text.xy[0] >= 0 and text.xy[0] <= drawn.width


def test_the_last_move_is_said_in_words() -> None:
    state = position(HELP_POSITION)
    state.push(state.parse_move("a4"))
    assert group_texts(scene(state).tagged("lines")[0])[-1].startswith(
        "last: ann played a4, capturing 6 stacks (6 pieces)"
    )
    assert header(state).aside == "6x6"
    assert header(played(2, ("-size=8", "-single", "-in_place"), 0)).aside == "8x8, -single, -in_place"


# ---- the 3D view -----------------------------------------------------------------------------------------------


def test_the_3d_view_is_a_second_picture_asked_for() -> None:
    """``view="3d"`` draws the stacks seen from the front, under the same header; the main picture is the top
    view. Both are scenes, so both have an SVG."""
    state = played(4, (), 200)
    assert render.has_3d("drogo")
    top, solid = render.board_scene(state), render.board_scene(state, view="3d")
    assert top.tagged("coordinates") and not solid.tagged("coordinates")
    assert solid.tagged("ground")
    assert [g.data for g in top.tagged("seat")] == [g.data for g in solid.tagged("seat")]
    assert group_texts(top.tagged("header")[0]) == group_texts(solid.tagged("header")[0])
    assert render.board_svg(state, view="3d").startswith("<svg")
    stacks = {group.id: dict(group.data) for group in solid.tagged("cell")}
    assert stacks == {name: dict(group.data) for name, group in cells(top).items() if dict(group.data)["height"] != "0"}


def test_a_placement_behind_a_taller_stack_is_outlined_through_it_and_pointed_at() -> None:
    """Issue 27 (``drogo show 9#300``, move a6,b6): the moved stack hidden behind a nearer, taller one. Its cubes
    are outlined in the highlight colour over everything drawn, so the arrow, drawn last, meets the moved stack's
    own outline and not the nearer stack alone."""
    rows = [". . . . . .", "xxxxxx xxxxxx . . . .", *[". . . . . ."] * 4]
    state = position(rows, turn=1)
    state.push(state.parse_move("a6,b6"))
    drawn = render.board_scene(state, view="3d")
    order = [group.kind for group in drawn.tagged() if group.kind in ("cell", "last-move")]
    assert order == ["cell"] * 4 + ["last-move"]
    [mark] = drawn.tagged("last-move")
    assert mark.id == "a6,b6"
    view = drogo_3d.layout(state)[1]
    tops = [(*view.top(col, 5, 1), view.top(col, 5, 1)[0]) for col in (0, 1)]
    traced = [item.points for item in mark.items if isinstance(item, Line) and item.colour == HIGHLIGHT]
    assert all(top in traced for top in tops)
    assert traced == placed_outlines(view, state)
    image = picture(state, "3d")
    for col in (0, 1):
        # the middle of the placed cube's top front edge lies inside the six-high stack in front of it
        x, y = (round(v) for v in view.point(col + 0.5, 5, 1))
        assert highlight_pixels(image, (x - 3, y - 3, x + 4, y + 4)) >= 6, col
        tip_x, tip_y = pointer_tips(view, state)[col]
        assert view.point(col, 6, 1)[0] < tip_x < view.point(col + 1, 5, 1)[0]
        assert view.point(col, 6, 1)[1] - 2 <= tip_y <= view.point(col, 5, 1)[1]
        assert highlight_pixels(image, (round(tip_x) - 3, round(tip_y) - 12, round(tip_x) + 4, round(tip_y))) > 15


def test_the_last_placement_and_captures_are_highlighted_in_3d() -> None:
    before = position(HELP_POSITION)
    assert board_highlight(before, "3d") == 0
    quiet = before.clone()
    quiet.push(quiet.parse_move("f6"))
    capture = before.clone()
    capture.push(capture.parse_move("a4"))
    marked = board_highlight(quiet, "3d")
    assert marked > 100
    assert board_highlight(capture, "3d") > 3 * marked


def test_the_3d_view_is_turned_like_the_top_view() -> None:
    """With a stack on a1 (O), f1 (Y) and a6 (Z): in the 3D view as on the top view, f1 lies to the right of a1
    at about its height, and a6 above it, not to its side. Ivory is left out: the palette folds text into it."""
    rows = ["z . . . . .", *[". . . . . ."] * 4, "o . . . . y"]
    state = position(rows, players=4)
    for view in ("top", "3d"):
        image = picture(state, view)
        a1, f1, a6 = (centre_of(image, PLAYER_COLOURS[seat][0]) for seat in (1, 2, 3))
        assert f1[0] - a1[0] > 100 and abs(f1[1] - a1[1]) < 0.25 * (f1[0] - a1[0]), (view, a1, f1)
        assert a1[1] - a6[1] > 100 and abs(a6[0] - a1[0]) < 0.75 * (a1[1] - a6[1]), (view, a1, a6)


def centre_of(image: Image.Image, colour: tuple[int, int, int]) -> tuple[float, float]:
    """The middle of the area ``colour`` covers below the header (the header's chips carry the same colours)."""
    top = image.height // 3
    region = image.crop((0, top, image.width, image.height))
    mask = Image.new("L", region.size)
    mask.putdata([255 if pixel == colour else 0 for pixel in region.get_flattened_data()])
    found = mask.getbbox()
    assert found, colour
    return (found[0] + found[2]) / 2, top + (found[1] + found[3]) / 2


def test_buried_cubes_do_not_look_like_floor() -> None:
    """The front face of a cube under three others: every player's face shading stays far from the floor's
    colour, and an outline separates it from the cube above."""
    for seat in range(4):
        fill = PLAYER_COLOURS[seat][0]
        for light in (FRONT_LIGHT, RIGHT_LIGHT):
            shaded = tuple(int(c * light) for c in fill)
            assert sum((a - b) ** 2 for a, b in zip(shaded, GROUND, strict=True)) ** 0.5 > 60, (seat, light)
    rows = [*[". . . . . ."] * 5, ". xoxx . . . ."]
    state = position(rows)
    image = picture(state, "3d")
    view = drogo_3d.layout(state)[1]
    x, y = view.point(1.5, 0, 0.5)
    assert image.getpixel((round(x), round(y))) == tuple(int(c * FRONT_LIGHT) for c in PLAYER_COLOURS[0][0])
    _, edge_y = view.point(1.5, 0, 1)
    edge = {image.getpixel((round(x), round(edge_y) + k)) for k in (-1, 0, 1)}
    assert PLAYER_COLOURS[0][1] in edge or PLAYER_COLOURS[1][1] in edge


@pytest.mark.parametrize("n", [MIN_SIZE, 6, MAX_SIZE])
def test_3d_coordinates_sit_on_the_sides_facing_the_viewer(n: int) -> None:
    """Each column letter is below its front cell's front edge, each row number right of its row's last cell,
    beyond the board: the two sides nothing stands in front of, so no stack covers them."""
    view, _ = view_for(n, MIN_WIDTH, 100)
    points = dict(axis_label_points(view, n))
    for k in range(n):
        x, y = points[chr(ord("a") + k)]
        assert view.point(k, 0, 0)[0] + view.cell * 0.3 < x < view.point(k + 1, 0, 0)[0] - view.cell * 0.3
        assert y > view.point(k, 0, 0)[1] + view.cell / 5
        x, y = points[str(k + 1)]
        assert view.point(n, k + 1, 0)[1] < y < view.point(n, k, 0)[1]
        assert x > view.point(n, k + 1, 0)[0]


def test_heights_behind_taller_stacks_are_left_out() -> None:
    """A height is written on a stack's top only where no stack in front covers any part of it: seen from the
    front, b1 stands straight before b2, so a tall b1 hides b2's height and a low b1 does not."""
    n = 4
    rise = rise_for(n)

    def heights(**stacks: int) -> list[int]:
        board = [0] * (n * n)
        for name, height in stacks.items():
            board[(int(name[1]) - 1) * n + ord(name[0]) - ord("a")] = height
        return board

    half_w, half_h = 0.3, 0.2
    assert label_hidden(heights(b1=3, b2=1), n, rise, 1, 1, half_w, half_h)
    assert not label_hidden(heights(b1=1, b2=1), n, rise, 1, 1, half_w, half_h)
    assert not label_hidden(heights(b1=3, b2=1), n, rise, 1, 0, half_w, half_h)
    # behind and to the side, or further back and higher: not hidden
    assert not label_hidden(heights(b1=3, d3=1), n, rise, 3, 2, half_w, half_h)
    assert not label_hidden(heights(b1=2, b4=4), n, rise, 1, 3, half_w, half_h)
    # two rows behind a tall stack and lower: still hidden
    assert label_hidden(heights(b1=4, b3=1), n, rise, 1, 2, half_w, half_h)
    state = position([*[". . . . . ."] * 4, ". x . . . .", ". xxxxx . . . ."])
    drawn = render.board_scene(state, view="3d")
    stacks = cells(drawn)
    assert group_texts(stacks["b1"]) == ["5"] and group_texts(stacks["b2"]) == []


def test_blocked_agrees_with_walking_the_line_of_sight() -> None:
    """The exact cell-by-cell test against a plain walk along the line of sight in steps of 1/2000."""
    rng = Rng(11)
    n = 5
    rise = rise_for(n)
    for _ in range(20):
        heights = [rng.below(n + 1) for _ in range(n * n)]
        for _ in range(25):
            # off the 0.01 grid by 0.003 and 0.007: every stretch between cell borders is longer than a step
            x, y = rng.below(500) / 100 + 0.003, rng.below(500) / 100 + 0.007
            z = rng.below(n + 1)
            walked = False
            for t in (k / 2000 for k in range(2 * n * 2000)):
                px, py = x + DX * t, y - t
                if 0 <= px < n and 0 <= py < n and heights[int(py) * n + int(px)] > z + DY / rise * t:
                    walked = True
                    break
            assert _blocked(heights, n, rise, x, y, z) == walked, (heights, x, y, z)


def test_render_png_is_the_top_view_and_differs_from_the_3d_view() -> None:
    state = played(2, (), 30)
    top = decode(render_png(state))
    assert decode(render.board_png(state)).tobytes() == top.tobytes()
    solid = picture(state, "3d")
    assert top.size != solid.size or ImageChops.difference(top, solid).getbbox() is not None
    assert top.getpixel((0, 0)) == BACKGROUND
