"""Dragons board pictures: bands of the right colour cross every tile edge at its midpoint (so neighbouring tiles
join into one dragon), owed gaps and the last move are marked, pictures of a finished 50-tile game and of the
largest pool stay small and fast enough for Discord, and at most 800 pixels wide. Issue 27's Dragons defects each
have a test here (see "defects seen")."""

from __future__ import annotations

import io
import time

from PIL import Image

from render import header as head
from render import png
from render.common import BACKGROUND, HIGHLIGHT, PLAYER_COLOURS
from render.dragons import (
    GAP_FILL,
    MARGIN,
    SCALE,
    TILE_FILL,
    WIN_LOOP,
    Layout,
    hexagon_symbol,
    layout,
    render_image,
    render_png,
    scene,
    status,
    tile_symbol,
    winning_dragon,
)
from render.scene import MAX_WIDTH, Group, Polygon, Scene, Text, Use, group_texts
from rules import registry
from rules.dragons import DragonsState
from rules.dragons.tiles import DIRECTIONS, EDGE_COLOURS
from rules.rng import Rng
from tests.test_colour_vision import closest_pair

GAME = registry.get("dragons")
LONG = ["Alexandria_the_Great_of_Macedon_", "Bartholomew_Longname_the_Third_4"]


def played(words: list[str], seed: int, stop_at: int | None = None, names: list[str] | None = None) -> DragonsState:
    state = GAME.new(GAME.parse_options(words, 2), names or ["alice", "bob"], seed)
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


def where(state: DragonsState) -> Layout:
    return layout(state)[1]


def near(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True))


def test_bands_cross_each_edge_midpoint_in_the_edge_colour_on_both_sides() -> None:
    state = played([], 5, stop_at=20)
    state.loops, state.last = [], None  # no loop trace or move frame over the bands
    image = decode(render_png(state))
    board = where(state)
    checked = 0
    for cell, placement in state.tiles.items():
        for edge, colour in enumerate(EDGE_COLOURS[placement]):
            pixel = image.getpixel(board.pixel(cell, edge, inset=0.12))
            assert near(pixel, PLAYER_COLOURS[colour][0]), (cell, edge, pixel)
            checked += 1
    assert checked == 6 * len(state.tiles)


def test_help_example_badges_the_move_and_its_auto_move() -> None:
    state = GAME.new(GAME.parse_options([], 2), ["alice", "bob"], 1)
    for text in ["g@0,0", "d@0,1", "c@1,-1"]:
        state.push(state.parse_move(text))
    badges = [group_texts(group) for group in scene(state).tagged("badges")]
    assert badges == [["1", "2"]]
    with_badges = render_image(state)
    state.last = None
    without = render_image(state)
    assert scene(state).tagged("badges") == [Group((), "badges")]

    def highlighted(image: Image.Image) -> int:
        return sum(1 for pixel in image.get_flattened_data() if near(pixel, HIGHLIGHT, 10))

    assert highlighted(with_badges) > highlighted(without) + 200


def test_owed_gaps_are_filled_in_the_gap_colour() -> None:
    state = GAME.new(GAME.parse_options([], 2), ["alice", "bob"], 1)
    for text in ["e@0,0", "b@0,1", "c@1,-1"]:
        state.push(state.parse_move(text))
    image = decode(render_png(state))
    x, y = where(state).pixel((1, 0))
    assert near(image.getpixel((x + 6, y + 5)), GAP_FILL, 12)
    [spot] = scene(state).tagged("spot")
    assert spot.id == "1" and dict(spot.data)["cell"] == "1,0"


def test_finished_games_and_the_largest_pool_render_small_fast_opaque_and_at_most_800_wide() -> None:
    for words, seed in (([], 3), (["-num_tiles=200", "-tantrix"], 3), (["-tails", "-may_complete"], 4)):
        state = played(words, seed)
        start = time.perf_counter()
        data = render_png(state)
        elapsed = time.perf_counter() - start
        image = decode(data)
        assert len(data) <= 400 * 1024
        assert elapsed < 2.0
        assert image.getpixel((0, 0)) == BACKGROUND
        assert image.width <= MAX_WIDTH and image.height >= image.width


def test_an_empty_board_renders_square() -> None:
    image = decode(render_png(GAME.new(GAME.parse_options([], 2), ["alice", "bob"], 1)))
    assert image.width >= 500 and image.height == image.width


def test_the_player_to_move_is_the_largest_text_in_the_header_behind_their_chip() -> None:
    state = played([], 5, stop_at=6)
    drawn = scene(state)
    [status_group] = drawn.tagged("status")
    [line] = [item for item in status_group.items if isinstance(item, Text)]
    assert line.fill == HIGHLIGHT and line.text == status(state).text
    assert line.text.startswith(f"{state.players[state.turn]} to move")
    for seat in drawn.tagged("seat"):
        assert all(line.size >= 1.4 * text.size for text in seat.items if isinstance(text, Text))
    [chip] = [item for item in status_group.items if isinstance(item, Group) and item.kind == "chip"]
    assert chip.items[0].fill == PLAYER_COLOURS[state.turn][0]
    image = render_image(state)
    x0, y0, x1, y1 = (round(v) for v in chip.items[0].box)
    assert sum(1 for p in image.crop((x0, y0, x1, y1)).get_flattened_data() if p == PLAYER_COLOURS[state.turn][0]) > 150


def test_the_winning_loop_is_traced_at_the_end_of_the_game() -> None:
    state = played([], 3)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners and "loop" in outcome.reason
    [(colour, loop, _won)] = [entry for entry in state.loops if entry[2]]
    assert colour == outcome.winners[0]
    image = decode(render_png(state))
    board = where(state)
    for i, cell in enumerate(loop):  # the trace crosses the middle of every edge between consecutive loop tiles
        other = loop[(i + 1) % len(loop)]
        edge = DIRECTIONS.index((other[0] - cell[0], other[1] - cell[1]))
        assert image.getpixel(board.pixel(cell, edge)) == WIN_LOOP, (cell, edge)
    assert sum(1 for p in image.get_flattened_data() if p == WIN_LOOP) > 60 * len(loop)
    assert winning_dragon(state) is None  # a loop win traces the loop, not a dragon


def test_band_and_loop_colours_stay_apart_under_red_green_colour_blindness() -> None:
    fills = [PLAYER_COLOURS[seat][0] for seat in range(2)]
    assert closest_pair(fills)[0] > 20
    for colour in (*fills, TILE_FILL):
        assert closest_pair([WIN_LOOP, colour])[0] > 20, colour
        assert closest_pair([colour, BACKGROUND])[0] > 20 or colour == TILE_FILL
    for fill in fills:
        assert closest_pair([fill, TILE_FILL])[0] > 20


def test_tile_and_outline_symbols_are_opaque_or_clear_so_one_bit_masks_paste_them_exactly() -> None:
    """Tiles and open-position outlines are pasted through one-bit masks (render.png): the same pixels as
    blending the transparent drawings only while Pillow draws them without anti-aliasing."""
    for radius in (34, 24, 25.5):
        symbols = [
            tile_symbol(p, crossed, radius, traced)
            for p in range(8)
            for crossed in (False, True)
            for traced in ((), (0,))
        ]
        symbols.append(hexagon_symbol(radius, 0.94, None, (88, 94, 108), 1))
        for symbol in symbols:
            drawn = png.symbol_image(symbol, SCALE)
            assert set(drawn.getchannel("A").histogram()[1:255]) == {0}
            half = drawn.width // 2
            size = half + 1  # picture pixels: the drawing and one more column and row, to reduce evenly
            blended = Image.new("RGB", (size * SCALE, size * SCALE), BACKGROUND)
            blended.paste(drawn, (0, 0), drawn)
            placed = Scene(size, size, BACKGROUND, (Use("s", (half / SCALE, half / SCALE)),), {"s": symbol}, SCALE)
            assert png.raster(placed).tobytes() == blended.reduce(SCALE).tobytes()


# ----------------------------------------------------------------------------------------------------------------
# Issue 27's defects seen, each fixed


def status_lines(state: DragonsState) -> list[Text]:
    [group] = scene(state).tagged("status")
    return [item for item in group.items if isinstance(item, Text) and item.fill == HIGHLIGHT]


def assert_within(state: DragonsState, lines: list[Text]) -> None:
    width = where(state).width
    for line in lines:
        assert line.anchor == "lm" and line.xy[0] + head.width_of(line.text, round(line.size)) <= width - MARGIN


def test_the_status_line_wraps_a_tantrix_ending_whole() -> None:
    """It ran past the edge ("...worth 12 po"): now it wraps between words, every word kept."""
    state = played(["-tantrix"], 3, names=LONG)
    lines = status_lines(state)
    assert len(lines) >= 2 and " ".join(line.text for line in lines) == status(state).text
    assert status(state).text.endswith(" points") and " wins: the tiles ran out, the best dragon, worth " in (
        status(state).text
    )
    assert_within(state, lines)


def test_the_status_line_keeps_a_gap_owed_beside_a_32_letter_name() -> None:
    state = GAME.new(GAME.parse_options([], 2), LONG, 1)
    for text in ["e@0,0", "b@0,1", "c@1,-1"]:
        state.push(state.parse_move(text))
    assert state.gap_owed
    lines = status_lines(state)
    assert " ".join(line.text for line in lines) == f"{LONG[1]} to move: a gap move is owed"
    assert_within(state, lines)


def test_a_tantrix_ending_traces_the_winning_dragon() -> None:
    state = played(["-tantrix"], 3)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners and not state.loops
    dragon = winning_dragon(state)
    assert dragon is not None and dragon.colour == outcome.winners[0]
    scores = outcome.scores
    assert scores is not None and dragon.holes * (2 if dragon.closed else 1) == scores[outcome.winners[0]]
    traced = {group.id for group in scene(state).tagged("tile") if ("winning", "dragon") in group.data}
    assert traced == {f"{q},{r}" for (q, r), _index in dragon.nodes}
    image = decode(render_png(state))
    assert sum(1 for p in image.get_flattened_data() if p == WIN_LOOP) > 20 * len(traced)
    resigned = played(["-tantrix"], 3, stop_at=30)
    resigned.resign(resigned.to_move)
    assert resigned.outcome() is not None and winning_dragon(resigned) is None  # won by resignation: no dragon


def test_after_the_end_no_typing_hint_and_no_turn_marker() -> None:
    running = played([], 3, stop_at=10)
    over = played([], 3)
    for state, finished in ((running, False), (over, True)):
        drawn = scene(state)
        note = " ".join(group_texts(drawn.tagged("note")[0]))
        assert ("type a letter" in note) != finished, note
        markers = [item for seat in drawn.tagged("seat") for item in seat.items if isinstance(item, Polygon)]
        assert (markers == []) == finished
