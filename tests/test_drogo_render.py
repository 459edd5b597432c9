"""Drogo board pictures: default and largest boards, two to four players, render as small opaque PNGs, and the
last placement and the stacks it captured are marked."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render.common import HIGHLIGHT
from render.drogo import render_png
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
