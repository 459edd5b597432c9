"""Dragons board pictures: bands of the right colour cross every tile edge at its midpoint (so neighbouring tiles
join into one dragon), owed gaps and the last move are marked, and pictures of a finished 50-tile game and of the
largest pool stay small and fast enough for Discord."""

from __future__ import annotations

import io
import time

from PIL import Image

from render.common import BACKGROUND, HIGHLIGHT, PLAYER_COLOURS
from render.dragons import GAP_FILL, Layout, render_image, render_png
from rules import registry
from rules.dragons import DragonsState
from rules.dragons.tiles import EDGE_COLOURS
from rules.rng import Rng

GAME = registry.get("dragons")


def played(words: list[str], seed: int, stop_at: int | None = None) -> DragonsState:
    state = GAME.new(GAME.parse_options(words, 2), ["alice", "bob"], seed)
    assert isinstance(state, DragonsState)
    rng = Rng(seed)
    while not state.is_over and (stop_at is None or len(state.tiles) < stop_at):
        forced = state.forced_move()
        state.push(forced if forced is not None else rng.choice(list(state.legal_moves)))
    return state


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def near(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True))


def test_bands_cross_each_edge_midpoint_in_the_edge_colour_on_both_sides() -> None:
    state = played([], 5, stop_at=20)
    state.loops, state.last = [], None  # no loop trace or move frame over the bands
    image = decode(render_png(state))
    layout = Layout(state)
    checked = 0
    for cell, placement in state.tiles.items():
        for edge, colour in enumerate(EDGE_COLOURS[placement]):
            pixel = image.getpixel(layout.pixel(cell, edge, inset=0.12))
            assert near(pixel, PLAYER_COLOURS[colour][0]), (cell, edge, pixel)
            checked += 1
    assert checked == 6 * len(state.tiles)


def test_help_example_badges_the_move_and_its_auto_move() -> None:
    state = GAME.new(GAME.parse_options([], 2), ["alice", "bob"], 1)
    for text in ["g@0,0", "d@0,1", "c@1,-1"]:
        state.push(state.parse_move(text))
    with_badges = render_image(state)
    state.last = None
    without = render_image(state)
    assert with_badges.size == without.size
    changed = sum(
        1 for a, b in zip(with_badges.get_flattened_data(), without.get_flattened_data(), strict=True) if a != b
    )
    highlighted = sum(1 for pixel in with_badges.get_flattened_data() if near(pixel, HIGHLIGHT, 10))
    assert changed > 200 and highlighted > 200


def test_owed_gaps_are_filled_in_the_gap_colour() -> None:
    state = GAME.new(GAME.parse_options([], 2), ["alice", "bob"], 1)
    for text in ["e@0,0", "b@0,1", "c@1,-1"]:
        state.push(state.parse_move(text))
    image = decode(render_png(state))
    x, y = Layout(state).pixel((1, 0))
    assert near(image.getpixel((x + 12, y + 10)), GAP_FILL, 12)


def test_finished_games_and_the_largest_pool_render_small_fast_and_opaque() -> None:
    for words, seed in (([], 3), (["-num_tiles=200", "-tantrix"], 3), (["-tails", "-may_complete"], 4)):
        state = played(words, seed)
        start = time.perf_counter()
        data = render_png(state)
        elapsed = time.perf_counter() - start
        image = decode(data)
        assert len(data) <= 400 * 1024
        assert elapsed < 2.0
        assert image.getpixel((0, 0)) == BACKGROUND


def test_an_empty_board_renders() -> None:
    image = decode(render_png(GAME.new(GAME.parse_options([], 2), ["alice", "bob"], 1)))
    assert image.width >= 500 and image.height >= 200
