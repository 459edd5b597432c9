"""The board picture: a valid opaque PNG, fast and small, and what it shows (stack counts, cube, trays, dice, the
last play and its hit) checked by its pixels; its colours keep their contrast on both Discord themes."""

from __future__ import annotations

import io
import time

from PIL import Image

from render.backgammon import (
    BOARD_H,
    BOARD_W,
    BOARD_X,
    BOARD_Y,
    CHECKER,
    CHECKERS,
    CUBE_FACE,
    FELT,
    FRAME,
    HALF_H,
    HEIGHT,
    HIT_MARK,
    MARGIN,
    POINT_DARK,
    POINT_LIGHT,
    TRAY_W,
    WIDTH,
    _bar_slot,
    _slot_centre,
    _status,
    render_image,
    render_png,
)
from render.common import BACKGROUND, FOREGROUND, HIGHLIGHT, MUTED
from rules.backgammon import EKS, GAME, OHS, BackgammonState
from rules.backgammon.movegen import BAR
from tests.test_colour_vision import closest_pair

START_X = {1: 2, 12: 5, 17: 3, 19: 5}
START_O = {24: 2, 13: 5, 8: 3, 6: 5}


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
    # a burst round point 4, where the hit happened, under the hitting checker, which itself stays unmarked
    burst = around(_slot_centre(4, 0), CHECKER)
    assert pixels(after, burst, HIT_MARK, 10) > 150 and pixels(before, burst, HIT_MARK, 10) == 0
    inner = around(_slot_centre(4, 0), CHECKER // 2 - 6)
    assert pixels(after, inner, CHECKERS[EKS][0], 0) > 300 and pixels(after, inner, HIT_MARK, 60) == 0
    # an arrow from there to the hit O checker waiting on the bar
    (x0, y0), (x1, y1) = _slot_centre(4, 0), _bar_slot(OHS, 0)
    assert state.points[OHS][BAR] == 1
    for t in (0.45, 0.6, 0.75):
        x, y = round(x0 + (x1 - x0) * t), round(y0 + (y1 - y0) * t)
        assert pixels(after, (x - 2, y - 2, x + 3, y + 3), HIT_MARK, 10) > 0, t
    # a dashed ring where the checker left (1) and a full ring round where it arrived (18); 12 is not marked
    for point, level, marked in ((1, 0, True), (18, 0, True), (12, 4, False)):
        ring = pixels(after, around(_slot_centre(point, level), CHECKER // 2 + 2), HIGHLIGHT, 30)
        assert (ring > 40) == marked, (point, ring)
        assert pixels(before, around(_slot_centre(point, level), CHECKER // 2 + 2), HIGHLIGHT, 30) == 0


def test_a_finished_game_renders() -> None:
    state = BackgammonState.from_points(["alice", "bob"], {24: 15}, {2: 1, 1: 1}, (2, 1), "O")
    state.push(state.parse_move("2-H,1-H"))
    assert state.is_over
    decode(render_png(state))


# ----------------------------------------------------------------------------------------------------------------
# What the picture shows, checked by its pixels


def pixels(image: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int], slack: int = 12) -> int:
    """How many pixels in ``box`` are within ``slack`` of ``colour`` on every channel."""
    counts = image.crop(box).getcolors(1 << 20)
    return sum(n for n, rgb in counts if all(abs(a - b) <= slack for a, b in zip(rgb, colour, strict=True)))


def picture(state: BackgammonState) -> Image.Image:
    return decode(render_png(state)).convert("RGB")


def around(centre: tuple[int, int], radius: int) -> tuple[int, int, int, int]:
    x, y = centre
    return (x - radius, y - radius, x + radius, y + radius)


LABEL_INK = CHECKERS[OHS][0]  # a count on a dark X checker is written in the light colour


def test_a_stack_above_five_shows_its_count_on_the_fifth_checker() -> None:
    def label_ink(count: int) -> int:
        state = BackgammonState.from_points(["alice", "bob"], {24: count, 1: 15 - count}, {6: 15}, (3, 1))
        return pixels(picture(state), around(_slot_centre(24, 4), 9), LABEL_INK)

    assert label_ink(5) == 0
    six, seven = label_ink(6), label_ink(7)
    assert six > 8 and seven > 8
    state6 = BackgammonState.from_points(["alice", "bob"], {24: 6, 1: 9}, {6: 15}, (3, 1))
    state7 = BackgammonState.from_points(["alice", "bob"], {24: 7, 1: 8}, {6: 15}, (3, 1))
    box = around(_slot_centre(24, 4), 9)
    assert picture(state6).crop(box).tobytes() != picture(state7).crop(box).tobytes()  # "6" and "7" differ


def test_the_cube_sits_in_the_middle_or_on_its_owners_side() -> None:
    def cube_rows(owner_colour: int | None) -> tuple[int, int, int]:
        state = BackgammonState.from_points(["alice", "bob"], START_X, START_O, (3, 1))
        if owner_colour is not None:
            state.cube, state.cube_owner = 2, state.seat_of_colour(owner_colour)
        image = picture(state)
        left = (0, 0, BOARD_X, HEIGHT)
        top = pixels(image, (0, BOARD_Y, BOARD_X, BOARD_Y + BOARD_H // 3), CUBE_FACE, 4)
        bottom = pixels(image, (0, BOARD_Y + 2 * BOARD_H // 3, BOARD_X, BOARD_Y + BOARD_H), CUBE_FACE, 4)
        return top, pixels(image, left, CUBE_FACE, 4) - top - bottom, bottom

    top, middle, bottom = cube_rows(None)
    assert middle > 500 and top == bottom == 0
    top, middle, bottom = cube_rows(EKS)  # X plays towards the top right
    assert top > 500 and middle == bottom == 0
    top, middle, bottom = cube_rows(OHS)
    assert bottom > 500 and top == middle == 0


def test_borne_off_checkers_fill_their_owners_tray() -> None:
    def tray_ink(off: int) -> tuple[int, int]:
        state = BackgammonState.from_points(["alice", "bob"], {24: 15 - off}, {1: 15 - off}, (3, 1))
        image = picture(state)
        left = BOARD_X + BOARD_W + 8
        top_tray = (left, BOARD_Y, left + TRAY_W - 14, BOARD_Y + HALF_H)
        bottom_tray = (left, BOARD_Y + BOARD_H - HALF_H, left + TRAY_W - 14, BOARD_Y + BOARD_H)
        return pixels(image, top_tray, CHECKERS[EKS][0], 4), pixels(image, bottom_tray, CHECKERS[OHS][0], 4)

    assert tray_ink(0) == (0, 0)
    x3, o3 = tray_ink(3)
    x12, o12 = tray_ink(12)
    assert 0 < x3 < x12 and 0 < o3 < o12
    assert abs(x12 - 4 * x3) < x3 and abs(o12 - 4 * o3) < o3


def test_the_dice_are_drawn_only_when_a_play_is_due() -> None:
    die_face = (250, 250, 250)
    state = BackgammonState.from_points(["alice", "bob"], START_X, START_O, (3, 1))
    middle = (BOARD_X, BOARD_Y + BOARD_H // 2 - 25, BOARD_X + BOARD_W, BOARD_Y + BOARD_H // 2 + 25)
    assert pixels(picture(state), middle, die_face, 3) > 1500
    state.manual[1] = True
    state.push(state.parse_move("8-5,6-5"))
    assert state.phase == "decide"
    assert pixels(picture(state), middle, die_face, 3) == 0


def test_the_panel_reads_on_dark_and_light_themes() -> None:
    """The picture brings its own opaque panel, so Discord's theme never shows through; its texts and both
    checker colours keep a clear contrast on what they are drawn on."""
    state = BackgammonState.from_points(["alice", "bob"], START_X, START_O, (3, 1))
    image = decode(render_png(state))
    assert "A" not in image.getbands() and "transparency" not in image.info
    rgb = image.convert("RGB")
    for corner in ((0, 0), (WIDTH - 1, 0), (0, HEIGHT - 1), (WIDTH - 1, HEIGHT - 1)):
        assert rgb.getpixel(corner) == BACKGROUND
    for text_colour in (FOREGROUND, MUTED, HIGHLIGHT):
        assert contrast(text_colour, BACKGROUND) >= 4.5
    assert contrast(FOREGROUND, FRAME) >= 4.5  # the tray counts
    assert contrast(CHECKERS[OHS][0], CHECKERS[EKS][0]) >= 7  # X and O differ in lightness, not only hue
    for point in (FELT, POINT_DARK, POINT_LIGHT):  # each checker shows against every point by fill or rim
        assert all(max(contrast(CHECKERS[c][0], point), contrast(CHECKERS[c][1], point)) >= 2 for c in (EKS, OHS))


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG contrast ratio of two sRGB colours."""

    def luminance(rgb: tuple[int, int, int]) -> float:
        channels = [c / 255 for c in rgb]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_status_line_says_whose_turn_and_what_is_asked() -> None:
    state = BackgammonState.from_points(["alice", "bob"], START_X, START_O, (3, 1))
    assert _status(state) == "alice to play 3-1"
    state.manual = [True, True]
    state.push(state.parse_move("8-5,6-5"))
    assert _status(state) == "bob to roll or double"
    state.push(state.parse_move("double"))
    assert _status(state) == "alice to take or drop: bob doubles to 2"  # whoever must act comes first
    state.push(state.parse_move("drop"))
    assert _status(state) == "bob wins 1 point"


def test_long_player_names_never_run_into_the_other_header_texts() -> None:
    names = ["Alexandria_the_Great_of_Macedon_99", "Bartholomew_Longname_the_Third_42"]
    state = BackgammonState.from_points(names, START_X, START_O, (3, 1))
    state.manual, state.greedy, state.cube, state.cube_owner = [True, True], [True, True], 4, 1
    state.push(state.parse_move("8-5,6-5"))
    state.push(state.parse_move("double"))
    image = render_image(state)  # the drawing itself: text colours before the PNG palette merges antialiasing shades
    status_row = image.crop((0, 3, WIDTH, 27))
    assert pixels(status_row, (0, 0, WIDTH, 24), HIGHLIGHT, 40) > 100
    assert pixels(status_row, (WIDTH - MARGIN + 1, 0, WIDTH, 24), HIGHLIGHT, 40) == 0  # inside the margin
    # the X row: the name and pips (bright) stop before the cube text (muted) at the right begins
    x_row = image.crop((0, 32, WIDTH, 52))
    bright = [x for x in range(WIDTH) for y in range(20) if x_row.getpixel((x, y))[0] > 200 and x > MARGIN + 20]
    muted = [x for x in range(MARGIN + 20, WIDTH) for y in range(20) if x_row.getpixel((x, y)) == MUTED]
    assert bright and muted and max(bright) < min(muted) - 8


def ink_box(image: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> tuple[int, int]:
    """Height of the area inked in ``colour`` (exactly) inside ``box``, and how many pixels it covers."""
    region = image.crop(box)
    mask = Image.new("L", region.size)
    mask.putdata([255 if pixel == colour else 0 for pixel in region.get_flattened_data()])
    bbox = mask.getbbox()
    return (0 if bbox is None else bbox[3] - bbox[1]), sum(1 for v in mask.get_flattened_data() if v)


def test_the_player_to_move_is_the_largest_text_in_the_header_with_their_disc() -> None:
    state = BackgammonState.from_points(["alice", "bob"], START_X, START_O, (3, 1), "O")
    image = render_image(state)
    status_height, status_ink = ink_box(image, (MARGIN + 30, 0, WIDTH, 36), HIGHLIGHT)
    for y in (52, 76):  # the two player rows
        row_height, row_ink = ink_box(image, (MARGIN + 36, y - 12, WIDTH // 2, y + 12), FOREGROUND)
        assert status_height >= 1.4 * row_height and status_ink > 1.5 * row_ink, (y, status_height, row_height)
    # the disc before the status is the mover's (O, light); the arrowhead marks O's row, not X's
    assert pixels(image, (MARGIN + 6, 14, MARGIN + 18, 26), CHECKERS[OHS][0], 0) > 60
    assert pixels(image, (MARGIN, 70, MARGIN + 9, 82), HIGHLIGHT, 0) > 20
    assert pixels(image, (MARGIN, 46, MARGIN + 9, 58), HIGHLIGHT, 0) == 0


def test_the_result_takes_the_status_place_with_the_winners_disc() -> None:
    state = BackgammonState.from_points(["alice", "bob"], {24: 15}, {2: 1, 1: 1}, (2, 1), "O")
    state.push(state.parse_move("2-H,1-H"))
    image = render_image(state)
    assert _status(state).startswith("alice wins")
    assert pixels(image, (MARGIN + 6, 14, MARGIN + 18, 26), CHECKERS[OHS][0], 0) > 60
    assert ink_box(image, (MARGIN + 30, 0, WIDTH, 36), HIGHLIGHT)[0] >= 18


def test_colours_that_carry_meaning_stay_apart_under_red_green_colour_blindness() -> None:
    """X against O, and the hit burst against everything it is drawn on or next to, simulated for protanopia and
    deuteranopia (and normal vision): at least Delta E 20 apart."""
    assert closest_pair([CHECKERS[EKS][0], CHECKERS[OHS][0]])[0] > 20
    for other in (FELT, POINT_DARK, POINT_LIGHT, HIGHLIGHT, CHECKERS[EKS][0], CHECKERS[OHS][0]):
        assert closest_pair([HIT_MARK, other])[0] > 20, other
