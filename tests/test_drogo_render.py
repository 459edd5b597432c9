"""Drogo board pictures: default and largest boards, two to four players, render as small opaque PNGs; the last
placement (pointed at, even behind a tall stack) and the stacks it captured are marked; the status leads the
header; the 3D view is turned like the map; cubes never pass for floor; the empty map shows its grid."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from render.common import BACKGROUND, HIGHLIGHT, PLAYER_COLOURS, font
from render.drogo import (
    DX,
    DY,
    FOOTER,
    FOOTER_FONT,
    FRONT_LIGHT,
    GROUND,
    HEADER,
    MAP_EMPTY,
    MAP_LINE,
    RIGHT_LIGHT,
    _blocked,
    _sizes,
    axis_label_points,
    footer_lines,
    label_hidden,
    map_origin,
    pointer_tips,
    render_png,
    rise_for,
    status,
    view_for,
)
from rules.drogo import GAME, DrogoState, random_move
from rules.rng import Rng

HELP_POSITION = [
    ". . . . . .",
    ". . . . . .",
    ". x . . . .",
    "o o x . . .",
    "o o x . . .",
    "o o x . . .",
]


def played(players: int, words: tuple[str, ...], moves: int, seed: int = 5) -> DrogoState:
    names = ["ann", "bob", "cy", "di"][:players]
    state = GAME.new(GAME.parse_options(list(words), players), names, seed)
    rng = Rng(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state.push(state.forced_move() or random_move(state, rng))
    return state


def picture(state: DrogoState) -> Image.Image:
    png = render_png(state)
    assert png.startswith(b"\x89PNG") and len(png) <= 300 * 1024
    image = Image.open(io.BytesIO(png))
    assert image.mode in ("P", "RGB")
    return image.convert("RGBA")


def highlight_pixels(image: Image.Image) -> int:
    colours = image.convert("RGB").getcolors(1 << 20) or []
    return sum(count for count, colour in colours if colour == HIGHLIGHT)


@pytest.mark.parametrize(
    ("words", "players", "moves"),
    [((), 2, 0), ((), 2, 150), ((), 4, 300), (("-size=3",), 3, 40), (("-size=12",), 2, 1500)],
)
def test_boards_render_opaque_and_small(words: tuple[str, ...], players: int, moves: int):
    image = picture(played(players, words, moves))
    assert 600 <= image.width <= 1000 and 340 <= image.height <= 800
    assert image.getchannel("A").getextrema() == (255, 255)


def test_last_placement_and_captures_are_highlighted():
    before = DrogoState.from_rows(GAME.parse_options([], 2), ["ann", "bob"], HELP_POSITION)
    assert highlight_pixels(picture(before)) == 0
    quiet = before.clone()
    quiet.push(quiet.parse_move("f6"))
    capture = before.clone()
    capture.push(capture.parse_move("a4"))
    marked = highlight_pixels(picture(quiet))
    assert marked > 100
    assert highlight_pixels(picture(capture)) > 3 * marked


def test_labels_behind_taller_stacks_are_left_out():
    """A height label is drawn only where no stack in front covers any part of it: seen from the front, b1
    stands straight before b2, so a tall b1 hides b2's label and a low b1 does not."""
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


def test_blocked_agrees_with_walking_the_line_of_sight():
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


def test_a_long_result_wraps_instead_of_being_cut():
    names = ["annabelle-the-great", "bob-from-accounting", "cynthia-of-the-hills", "dimitri-the-third"]
    rows = ["xxxx oooo yyyy zzzz"] * 4
    state = DrogoState.from_rows(GAME.parse_options(["-size=4"], 4), names, rows)
    while not state.is_over:
        state.push(state.forced_move())
    reason = state.outcome().reason
    assert reason.startswith("no player can place a piece; draw")
    lines = footer_lines(state, 700)
    assert len(lines) >= 2 and " ".join(lines) == reason
    assert all(font(FOOTER_FONT).getlength(line) <= 700 for line in lines)
    assert footer_lines(state, 10_000) == [reason]
    short = picture(played(2, (), 10))
    assert picture(state).height >= short.height + FOOTER


@pytest.mark.parametrize("n", [3, 6, 12])
def test_coordinates_sit_on_the_sides_facing_the_viewer(n: int):
    """Each column letter is below its front cell's front edge, each row number right of its row's last cell,
    beyond the board: the two sides nothing stands in front of, so no stack covers them."""
    view, _, _ = view_for(n)
    points = dict(axis_label_points(view, n, 14))
    for k in range(n):
        x, y = points[chr(ord("a") + k)]
        assert view.point(k, 0, 0)[0] + view.cell * 0.3 < x < view.point(k + 1, 0, 0)[0] - view.cell * 0.3
        assert y > view.point(k, 0, 0)[1] + view.cell / 5
        x, y = points[str(k + 1)]
        assert view.point(n, k + 1, 0)[1] < y < view.point(n, k, 0)[1]
        assert x > view.point(n, k + 1, 0)[0]


def text_bands(image: Image.Image, bottom: int) -> list[tuple[int, int]]:
    """Runs of picture rows above ``bottom`` holding anything but the background (the header's lines)."""
    rgb = image.convert("RGB")
    busy = [any(rgb.getpixel((x, y)) != BACKGROUND for x in range(rgb.width)) for y in range(bottom)]
    bands, start = [], None
    for y, on in enumerate([*busy, False]):
        if on and start is None:
            start = y
        elif not on and start is not None:
            bands.append((start, y))
            start = None
    return bands


@pytest.mark.parametrize(
    ("players", "moves", "expected"),
    [(2, 0, "ann (x) to move"), (4, 41, "bob (o) to move"), (2, 2000, "Game over: ann (x) wins")],
)
def test_status_leads_the_header(players: int, moves: int, expected: str):
    """The status (who moves, or the result) is the header's first and by far tallest line, above the seat row;
    a finished game says so there in the highlight colour, not only in small type at the bottom."""
    state = played(players, (), moves)
    assert status(state)[1] == expected
    image = picture(state)
    bands = text_bands(image, HEADER)
    heights = [bottom - top for top, bottom in bands]
    assert len(bands) == 2 and heights[0] >= 1.4 * heights[1], bands
    colours = {c for _, c in image.convert("RGB").crop((80, bands[0][0], 400, bands[0][1])).getcolors(1 << 16)}
    assert (HIGHLIGHT in colours) == state.is_over


def centre_of(image: Image.Image, colour: tuple[int, int, int], box: tuple[int, int, int, int]) -> tuple[float, float]:
    """The middle of the area ``colour`` covers inside ``box`` (picture coordinates)."""
    bands = image.convert("RGB").crop(box).split()
    mask = ImageChops.multiply(
        ImageChops.multiply(
            *(band.point(lambda v, c=c: 255 if v == c else 0) for band, c in zip(bands[:2], colour[:2], strict=True))
        ),
        bands[2].point(lambda v: 255 if v == colour[2] else 0),
    )
    found = mask.getbbox()
    assert found, colour
    return box[0] + (found[0] + found[2]) / 2, box[1] + (found[1] + found[3]) / 2


def test_the_3d_view_is_turned_like_the_map():
    """With a stack on a1 (o), f1 (y) and a6 (z): in the 3D view as on the map, f1 lies to the right of a1 at
    about its height, and a6 above it, not to its side (the old view, seen from the a1 corner, put f1 up and
    to the right and a6 up and to the left). Ivory is left out: the palette folds text into it."""
    rows = ["z . . . . .", *[". . . . . ."] * 4, "o . . . . y"]
    state = DrogoState.from_rows(GAME.parse_options([], 4), ["ann", "bob", "cy", "di"], rows)
    image = picture(state)
    split = int(map_origin(state)[0]) - 20
    for box in ((0, HEADER, split, image.height - 40), (split, HEADER, image.width, image.height - 40)):
        a1, f1, a6 = (centre_of(image, PLAYER_COLOURS[seat][0], box) for seat in (1, 2, 3))
        assert f1[0] - a1[0] > 100 and abs(f1[1] - a1[1]) < 0.25 * (f1[0] - a1[0]), (a1, f1)
        assert a1[1] - a6[1] > 100 and abs(a6[0] - a1[0]) < 0.75 * (a1[1] - a6[1]), (a1, a6)


def test_a_placement_behind_a_tall_stack_is_pointed_at():
    """b2 is played right behind a six-high b1 that hides it in 3D; a pointer is drawn above it, on top."""
    rows = [*[". . . . . ."] * 4, ". . . . . .", "x oooooo . . . ."]
    before = DrogoState.from_rows(GAME.parse_options([], 2), ["ann", "bob"], rows)
    state = before.clone()
    state.push(state.parse_move("b2"))
    image = picture(state).convert("RGB")
    view, _, _ = view_for(6)
    (tip,) = pointer_tips(view, state)
    x, y = round(tip[0]), round(tip[1])
    window = image.crop((x - 10, y - round(view.cell * 0.45), x + 10, y))
    assert sum(n for n, colour in window.getcolors(1 << 16) if colour == HIGHLIGHT) >= 60
    assert pointer_tips(view, before) == []


def test_buried_cubes_do_not_look_like_floor():
    """The front face of a cube under three others: every player's face shading stays far from the floor's
    colour, and an outline separates it from the cube above."""
    for seat in range(4):
        fill = PLAYER_COLOURS[seat][0]
        for light in (FRONT_LIGHT, RIGHT_LIGHT):
            shaded = tuple(int(c * light) for c in fill)
            assert sum((a - b) ** 2 for a, b in zip(shaded, GROUND, strict=True)) ** 0.5 > 60, (seat, light)
    rows = [*[". . . . . ."] * 5, ". xoxx . . . ."]
    state = DrogoState.from_rows(GAME.parse_options([], 2), ["ann", "bob"], rows)
    image = picture(state).convert("RGB")
    view, _, _ = view_for(6)
    x, y = view.point(1.5, 0, 0.5)
    assert image.getpixel((round(x), round(y))) == tuple(int(c * FRONT_LIGHT) for c in PLAYER_COLOURS[0][0])
    _, edge_y = view.point(1.5, 0, 1)
    edge = {image.getpixel((round(x), round(edge_y) + k)) for k in (-1, 0, 1)}
    assert PLAYER_COLOURS[0][1] in edge or PLAYER_COLOURS[1][1] in edge


def test_the_empty_map_shows_its_grid():
    """On an empty board the map's cell borders stand out from the empty cells (they once matched them)."""
    state = played(2, (), 0)
    image = picture(state).convert("RGB")
    x0, y0 = map_origin(state)
    _, cell = _sizes(6)
    assert sum(abs(a - b) for a, b in zip(MAP_LINE, MAP_EMPTY, strict=True)) >= 90
    for k in range(1, 6):
        across = {image.getpixel((round(x0 + k * cell) + d, round(y0 + cell / 2))) for d in (-1, 0, 1)}
        down = {image.getpixel((round(x0 + cell / 2), round(y0 + k * cell) + d)) for d in (-1, 0, 1)}
        assert MAP_LINE in across and MAP_LINE in down
        assert image.getpixel((round(x0 + (k + 0.5) * cell), round(y0 + cell / 2))) == MAP_EMPTY


def test_map_cells_carry_the_owner_letter():
    """Besides the height in the middle, an owned cell shows its owner's letter in its top left corner."""
    rows = [*[". . . . . ."] * 5, "xx o . . . ."]
    state = DrogoState.from_rows(GAME.parse_options([], 2), ["ann", "bob"], rows)
    image = picture(state).convert("L")
    x0, y0 = map_origin(state)
    _, cell = _sizes(6)
    top = y0 + 5 * cell
    for col, light in ((0, True), (1, False)):
        corner = image.crop(
            (round(x0 + col * cell + 2), round(top + 2), round(x0 + col * cell + cell * 0.45), round(top + cell * 0.45))
        )
        ink = [v for v in corner.getdata() if (v < 80 if light else v > 200)]
        assert len(ink) >= 4, col
