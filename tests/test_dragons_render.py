"""Dragons board pictures: bands of the right colour cross every tile edge at its midpoint (so neighbouring tiles
join into one dragon), owed gaps and the last move are marked, and pictures of a finished 50-tile game and of the
largest pool stay small and fast enough for Discord."""

from __future__ import annotations

import io
import time

from PIL import Image, ImageDraw

import render.dragons as dragons_render
from render.common import BACKGROUND, FOREGROUND, HIGHLIGHT, PLAYER_COLOURS
from render.dragons import GAP_FILL, TILE_FILL, WIN_LOOP, Layout, render_image, render_png
from rules import registry
from rules.dragons import DragonsState
from rules.dragons.tiles import DIRECTIONS, EDGE_COLOURS
from rules.rng import Rng
from tests.test_colour_vision import closest_pair

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


def ink(image: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> tuple[int, int]:
    """Height of the area inked exactly in ``colour`` inside ``box``, and how many pixels that is."""
    region = image.crop(box)
    inked = [i for i, pixel in enumerate(region.get_flattened_data()) if pixel == colour]
    if not inked:
        return 0, 0
    rows = [i // region.width for i in inked]
    return max(rows) - min(rows) + 1, len(inked)


def test_the_player_to_move_is_the_largest_text_in_the_header_behind_their_colour() -> None:
    state = played([], 5, stop_at=6)
    image = render_image(state)
    status_height, status_ink = ink(image, (40, 0, image.width, 40), HIGHLIGHT)
    row_height, row_ink = ink(image, (30, 42, image.width // 2, 62), FOREGROUND)
    assert status_height >= 1.5 * row_height and status_ink > 1.5 * row_ink, (status_height, row_height)
    mover_fill = PLAYER_COLOURS[state.turn][0]
    assert sum(1 for p in image.crop((10, 8, 40, 34)).get_flattened_data() if p == mover_fill) > 150


def test_the_winning_loop_is_traced_at_the_end_of_the_game() -> None:
    state = played([], 3)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners and "loop" in outcome.reason
    [(colour, loop, _won)] = [entry for entry in state.loops if entry[2]]
    assert colour == outcome.winners[0]
    image = decode(render_png(state))
    layout = Layout(state)
    for i, cell in enumerate(loop):  # the trace crosses the middle of every edge between consecutive loop tiles
        other = loop[(i + 1) % len(loop)]
        edge = DIRECTIONS.index((other[0] - cell[0], other[1] - cell[1]))
        assert image.getpixel(layout.pixel(cell, edge)) == WIN_LOOP, (cell, edge)
    assert sum(1 for p in image.get_flattened_data() if p == WIN_LOOP) > 60 * len(loop)


def test_band_and_loop_colours_stay_apart_under_red_green_colour_blindness() -> None:
    fills = [PLAYER_COLOURS[seat][0] for seat in range(2)]
    assert closest_pair(fills)[0] > 20
    for colour in (*fills, TILE_FILL):
        assert closest_pair([WIN_LOOP, colour])[0] > 20, colour
        assert closest_pair([colour, BACKGROUND])[0] > 20 or colour == TILE_FILL
    for fill in fills:
        assert closest_pair([fill, TILE_FILL])[0] > 20


def test_tile_and_outline_sprites_are_opaque_or_clear_so_one_bit_masks_paste_them_exactly() -> None:
    """Tiles and open-position outlines are copied through one-bit masks (render.dragons): the same pixels as
    blending the transparent drawings only while Pillow draws them without anti-aliasing."""
    for radius in (dragons_render.RADIUS, dragons_render.LEGEND_RADIUS):
        for crossed in (False, True):
            for placement in range(8):
                drawn = Image.new("RGBA", (2 * radius + 1, 2 * radius + 1), (0, 0, 0, 0))
                dragons_render.draw_tile(ImageDraw.Draw(drawn), placement, crossed, (radius, radius), radius)
                assert set(drawn.getchannel("A").histogram()[1:255]) == {0}
                blended = Image.new("RGB", drawn.size, (38, 41, 48))
                blended.paste(drawn, (0, 0), drawn)
                copied = Image.new("RGB", drawn.size, (38, 41, 48))
                dragons_render.paste_tile(copied, placement, crossed, (radius, radius), radius)
                assert copied.tobytes() == blended.tobytes()
    outline = dragons_render._hexagon_sprite(0.94, None, dragons_render.OPEN_LINE, dragons_render.SCALE)
    assert set(outline.getchannel("A").histogram()[1:255]) == {0}
