"""The board picture: a valid opaque PNG for the start, a crowded end position and a position after a hit."""

from __future__ import annotations

import io
import time

from PIL import Image

from render.backgammon import HEIGHT, WIDTH, render_png
from rules.backgammon import GAME, BackgammonState


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_the_start_renders_as_an_opaque_png() -> None:
    state = GAME.new(GAME.parse_options([], 2), ["alice", "bob"], 1)
    image = decode(render_png(state))
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
    assert image.mode in ("P", "RGB")
    assert "A" not in image.getbands() and "transparency" not in image.info


def test_a_crowded_position_with_the_cube_at_64_renders_small_and_fast() -> None:
    state = BackgammonState.from_points(["alice", "bob"], {"bar": 4, 24: 11}, {1: 15}, (6, 6), "X")
    state.cube, state.cube_owner = 64, 0
    state.greedy = [True, True]
    start = time.process_time()
    data = render_png(state)
    assert time.process_time() - start < 0.5
    assert len(data) <= 250 * 1024
    decode(data)


def test_the_last_play_and_its_hit_are_drawn() -> None:
    state = BackgammonState.from_points(["alice", "bob"], {1: 1, 12: 14}, {13: 13, 7: 1, 4: 1}, (6, 3), "X")
    before = decode(render_png(state)).convert("RGB")
    state.push(state.parse_move("1-4*,12-18"))
    after = decode(render_png(state)).convert("RGB")
    assert state.last["steps"] and any(hit for _s, _d, hit in state.last["steps"])
    # the hit mark is red over point 4, in the bottom right quarter
    box = (WIDTH // 2, HEIGHT // 2, WIDTH, HEIGHT)
    assert red_pixels(after.crop(box)) > 50 and red_pixels(before.crop(box)) == 0


def red_pixels(image: Image.Image) -> int:
    return sum(n for n, (r, g, b) in image.getcolors(1 << 20) if r > 230 and g < 120 and b < 120)


def test_a_finished_game_renders() -> None:
    state = BackgammonState.from_points(["alice", "bob"], {24: 15}, {2: 1, 1: 1}, (2, 1), "O")
    state.push(state.parse_move("2-H,1-H"))
    assert state.is_over
    decode(render_png(state))
