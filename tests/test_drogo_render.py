"""Drogo board pictures: default and largest boards, two to four players, render as small opaque PNGs, and the
last placement and the stacks it captured are marked."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render.common import HIGHLIGHT, font
from render.drogo import (
    FOOTER,
    FOOTER_FONT,
    _blocked,
    _sizes,
    _View,
    axis_label_points,
    footer_lines,
    label_hidden,
    render_png,
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
    """A height label is drawn only where no stack in front covers any part of it: b2 sits straight behind a1
    (seen from the a1 corner), so a tall a1 hides b2's label and a low a1 does not."""
    n = 4

    def heights(**stacks: int) -> list[int]:
        board = [0] * (n * n)
        for name, height in stacks.items():
            board[(int(name[1]) - 1) * n + ord(name[0]) - ord("a")] = height
        return board

    half_w, half_h = 0.3, 0.25
    assert label_hidden(heights(a1=3, b2=1), n, 1, 1, half_w, half_h)
    assert not label_hidden(heights(a1=1, b2=1), n, 1, 1, half_w, half_h)
    assert not label_hidden(heights(a1=3, b2=1), n, 0, 0, half_w, half_h)
    # two cells behind and one level lower than a tall stack: still hidden; far to the side: not
    assert label_hidden(heights(a1=4, c3=2), n, 2, 2, half_w, half_h)
    assert not label_hidden(heights(a1=4, d1=1), n, 3, 0, half_w, half_h)


def test_blocked_agrees_with_walking_the_line_of_sight():
    """The exact cell-by-cell test against a plain walk along the line of sight in steps of 1/2000."""
    rng = Rng(11)
    n = 5
    for _ in range(20):
        heights = [rng.below(n + 1) for _ in range(n * n)]
        for _ in range(25):
            # off the 0.01 grid by 0.003 and 0.007: every stretch between cell borders is longer than a step
            x, y = rng.below(500) / 100 + 0.003, rng.below(500) / 100 + 0.007
            z = rng.below(n + 1)
            walked = any(
                0 <= int(x - t) < n
                and 0 <= int(y - t) < n
                and x - t >= 0
                and y - t >= 0
                and heights[int(y - t) * n + int(x - t)] > z + t
                for t in (k / 2000 for k in range(2 * n * 2000))
            )
            assert _blocked(heights, n, x, y, z) == walked, (heights, x, y, z)


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
def test_coordinates_sit_straight_below_their_cells(n: int):
    """Each column letter is under its cell's front-right face and each row number under its cell's front-left
    face (not half a cell along, where the eye would give it to the neighbour), below the board's slab."""
    half, _ = _sizes(n)
    view = _View((500, 500), half)
    points = dict(axis_label_points(view, n, max(11, half // 2 + 3)))
    for k in range(n):
        x, y = points[chr(ord("a") + k)]
        assert view.point(k, 0, 0)[0] + half * 0.3 < x < view.point(k + 1, 0, 0)[0] - half * 0.3
        assert y > view.point(k + 1, 0, 0)[1] + half / 3
        x, y = points[str(k + 1)]
        assert view.point(0, k + 1, 0)[0] + half * 0.3 < x < view.point(0, k, 0)[0] - half * 0.3
        assert y > view.point(0, k + 1, 0)[1] + half / 3
