"""The palette PNG encoder (render.palette, behind render.common.to_png): valid small PNGs, player colours exact to
the unit where pieces are drawn, the other colours within a few units, and images it cannot palette directly
still encoded."""

from __future__ import annotations

import io

from PIL import Image, ImageChops, ImageDraw, ImageStat

import render
from render.backgammon import CHECKERS
from render.backgammon import layout as backgammon_layout
from render.backgammon import render_image as backgammon_image
from render.common import BACKGROUND, PLAYER_COLOURS, to_png
from render.dragons import layout as dragons_layout
from render.dragons import render_image as dragons_image
from render.druid import render_image as druid_image
from render.palette import SEPARATION, encode_png, png_bytes
from rules import registry
from rules.backgammon import EKS, OHS, BackgammonState
from rules.base import GameState
from rules.dragons.tiles import EDGE_COLOURS
from rules.rng import Rng

FILLS = [fill for fill, _outline in PLAYER_COLOURS]


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def played(name: str, moves: int, seed: int = 2, words: tuple[str, ...] = (), players: int = 2) -> GameState:
    game = registry.get(name)
    names = ["alice", "bob", "carol", "dave"][:players]
    state = game.new(game.parse_options(list(words), players), names, seed)
    rng = Rng(seed)
    while not state.is_over and state.ply < moves:
        forced = state.forced_move()
        state.push(forced if forced is not None else rng.choice(list(state.legal_moves)))
    return state


def same_colour_mask(image: Image.Image, colour: tuple[int, int, int]) -> Image.Image:
    """White where ``image`` (RGB) is exactly ``colour``."""
    difference = ImageChops.difference(image, Image.new("RGB", image.size, colour)).convert("L")
    return difference.point(lambda v: 255 if v == 0 else 0)


def assert_kept_exactly(drawn: Image.Image, png: bytes, colours: list[tuple[int, int, int]]) -> None:
    """Each of ``colours`` is drawn, and every pixel drawn in it has that exact colour in the PNG."""
    decoded = decode(png).convert("RGB")
    for colour in colours:
        before = same_colour_mask(drawn.convert("RGB"), colour)
        assert ImageStat.Stat(before).sum[0] / 255 > 50, colour
        after = same_colour_mask(decoded, colour)
        lost = ImageChops.subtract(before, after)
        assert lost.getbbox() is None, (colour, ImageStat.Stat(lost).sum[0] / 255)


def test_a_board_encodes_as_a_small_opaque_palette_png() -> None:
    data = render.board_png(played("dragons", 20))
    image = decode(data)
    assert image.format == "PNG" and image.mode == "P"
    assert "transparency" not in image.info and image.convert("RGB").getpixel((0, 0)) == BACKGROUND
    assert len(data) < 60 * 1024


def test_dragons_bands_keep_the_exact_player_colours_at_every_edge() -> None:
    state = played("dragons", 30)
    state.loops, state.last = [], None  # nothing drawn over the bands
    drawn = dragons_image(state)
    decoded = decode(to_png(drawn)).convert("RGB")
    layout = dragons_layout(state)[1]
    for cell, placement in state.tiles.items():
        for edge, colour in enumerate(EDGE_COLOURS[placement]):
            assert decoded.getpixel(layout.pixel(cell, edge, inset=0.12)) == FILLS[colour], (cell, edge)
    assert_kept_exactly(drawn, to_png(drawn), [c for pair in PLAYER_COLOURS[:2] for c in pair])


def test_backgammon_checkers_keep_their_exact_colours() -> None:
    state = BackgammonState.from_points(["alice", "bob"], {1: 2, 12: 5, 17: 3, 19: 5}, {24: 2, 13: 5}, (6, 3), "X")
    drawn = backgammon_image(state)
    decoded = decode(render.board_png(state)).convert("RGB")
    board = backgammon_layout(state)[1]
    for colour, point in ((EKS, 12), (OHS, 13)):
        x, y = (round(v) for v in board.slot_centre(point, 0))
        assert decoded.getpixel((x - 8, y - 8)) == CHECKERS[colour][0]
    assert_kept_exactly(drawn, render.board_png(state), [fill for fill, _rim in CHECKERS.values()])


def test_druid_and_drogo_pieces_keep_the_exact_player_colours() -> None:
    druid = played("druid", 30)
    drawn = druid_image(druid)
    assert_kept_exactly(drawn, to_png(drawn), FILLS[:2])
    three = druid_image(played("druid", 45, words=("-hex",), players=3))
    assert_kept_exactly(three, to_png(three), FILLS[:3])
    decoded = decode(render.board_png(played("drogo", 30))).convert("RGB")
    for fill in FILLS[:2]:  # both players' cubes are on the board, in their exact colours
        assert ImageStat.Stat(same_colour_mask(decoded, fill)).sum[0] / 255 > 200
    four = decode(render.board_png(played("drogo", 40, players=4))).convert("RGB")
    for fill in FILLS:
        assert ImageStat.Stat(same_colour_mask(four, fill)).sum[0] / 255 > 100


def test_exact_colours_survive_near_shades_and_other_colours_stay_close() -> None:
    """The hard case for a nearest-colour cache: shades one to a few units off each player colour, and more
    distinct colours than a palette holds."""
    image = Image.new("RGB", (400, 300), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for k, fill in enumerate(FILLS):
        draw.rectangle((10 + 90 * k, 10, 90 + 90 * k, 90), fill=fill)
        for step in range(1, SEPARATION):
            shade = tuple(min(255, channel + step) for channel in fill)
            draw.line((10 + 90 * k, 95 + step * 3, 90 + 90 * k, 95 + step * 3), fill=shade, width=2)
    for x in range(400):  # 400 x 80 distinct colours, beyond any palette
        for y in range(200, 280):
            image.putpixel((x, y), (x % 256, (x // 2 + y) % 256, (3 * y) % 256))
    data = png_bytes(image, FILLS)
    assert_kept_exactly(image, data, FILLS)
    top = (0, 0, 400, 195)
    error = ImageStat.Stat(ImageChops.difference(image.crop(top), decode(data).convert("RGB").crop(top))).mean
    assert max(error) < 2


def test_a_picture_with_too_many_colours_for_a_direct_palette_still_encodes() -> None:
    image = Image.new("RGB", (256, 256))
    image.putdata([(x, y, (x * y) % 256) for y in range(256) for x in range(256)])
    decoded = decode(png_bytes(image))
    assert decoded.mode == "P" and decoded.size == (256, 256)
    error = ImageStat.Stat(ImageChops.difference(image, decoded.convert("RGB"))).mean
    assert max(error) < 16


def test_every_pixel_is_written_as_pillow_reads_it_at_any_size() -> None:
    """The encoder reads a palette image's pixels through Pillow's raw encoder itself (see render.palette): the
    picture decoded is the picture given, pixel for pixel, from one pixel to many encoder blocks."""
    for size in ((1, 1), (3, 2), (700, 1), (1, 700), (300, 500)):
        image = Image.effect_noise(size, 80).convert("RGB").quantize(colors=64)
        decoded = decode(encode_png(image))
        assert decoded.size == size and decoded.tobytes() == image.tobytes()
        assert decoded.getpalette() == image.getpalette()
