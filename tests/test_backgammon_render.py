"""The board picture: a valid opaque PNG, fast and small, and what it shows (stack counts, cube, trays, dice, the
last play and its hit, the header) checked by its pixels and by its scene; its colours keep their contrast on both
Discord themes. Issue 27's Backgammon defects each have a test here (see "defects seen")."""

from __future__ import annotations

import io
import time

from PIL import Image, ImageChops

from render import header as head
from render.backgammon import (
    BOARD_H,
    BOARD_W,
    BOARD_X,
    CHECKER,
    CHECKERS,
    CUBE,
    CUBE_FACE,
    FELT,
    FRAME,
    HALF_H,
    HIT_MARK,
    MARGIN,
    POINT_DARK,
    POINT_LIGHT,
    TRAY_X,
    WIDTH,
    Geometry,
    layout,
    render_image,
    render_png,
    replay_images,
    scene,
    status,
)
from render.common import BACKGROUND, CLOCK_LOW, FOREGROUND, HIGHLIGHT, MUTED
from render.scene import Ellipse, Group, Polygon, Text, group_texts
from rules.backgammon import EKS, GAME, OHS, BackgammonState
from rules.backgammon.movegen import BAR
from rules.rng import Rng
from tests.test_colour_vision import closest_pair

START_X = {1: 2, 12: 5, 17: 3, 19: 5}
START_O = {24: 2, 13: 5, 8: 3, 6: 5}
LONG_NAMES = ["Alexandria_the_Great_of_Macedon_", "Bartholomew_Longname_the_Third_4"]


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def where(state: BackgammonState, clock: dict[int, str] | None = None) -> Geometry:
    """Where the board is drawn under this state's header."""
    return layout(state, clock)[1]


def pixels(image: Image.Image, box: tuple[float, ...], colour: tuple[int, int, int], slack: int = 12) -> int:
    """How many pixels in ``box`` are within ``slack`` of ``colour`` on every channel."""
    counts = image.crop(tuple(round(v) for v in box)).getcolors(1 << 20)
    return sum(n for n, rgb in counts if all(abs(a - b) <= slack for a, b in zip(rgb, colour, strict=True)))


def picture(state: BackgammonState) -> Image.Image:
    return decode(render_png(state)).convert("RGB")


def around(centre: tuple[float, float], radius: float) -> tuple[float, float, float, float]:
    x, y = centre
    return (x - radius, y - radius, x + radius, y + radius)


def test_the_start_renders_as_an_opaque_png() -> None:
    state = GAME.new(GAME.parse_options([], 2), ["alice", "bob"], 1)
    image = decode(render_png(state))
    assert image.format == "PNG" and image.width == WIDTH and image.height >= WIDTH  # square or portrait
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
    before = picture(state)
    state.push(state.parse_move("1-4*,12-18"))
    after = picture(state)
    board = where(state)
    assert board == where(BackgammonState.from_points(["alice", "bob"], {1: 1}, {13: 1}, (6, 3), "X"))
    assert state.last["steps"] and any(hit for _s, _d, hit in state.last["steps"])
    # a burst round point 4, where the hit happened, under the hitting checker, which itself stays unmarked
    burst = around(board.slot_centre(4, 0), CHECKER)
    assert pixels(after, burst, HIT_MARK, 10) > 150 and pixels(before, burst, HIT_MARK, 10) == 0
    inner = around(board.slot_centre(4, 0), CHECKER // 2 - 6)
    assert pixels(after, inner, CHECKERS[EKS][0], 0) > 300 and pixels(after, inner, HIT_MARK, 60) == 0
    # an arrow from there to the hit O checker waiting on the bar
    (x0, y0), (x1, y1) = board.slot_centre(4, 0), board.bar_slot(OHS, 0)
    assert state.points[OHS][BAR] == 1
    for t in (0.45, 0.6, 0.75):
        x, y = round(x0 + (x1 - x0) * t), round(y0 + (y1 - y0) * t)
        assert pixels(after, (x - 2, y - 2, x + 3, y + 3), HIT_MARK, 10) > 0, t
    # a dashed ring where a checker left (1; 12, showing its count, on its fifth checker) and a full ring round
    # where one arrived (18); 13, untouched, is not marked
    for point, level, marked in ((1, 0, True), (18, 0, True), (12, 4, True), (13, 4, False)):
        ring = pixels(after, around(board.slot_centre(point, level), CHECKER // 2 + 2), HIGHLIGHT, 30)
        assert (ring > 40) == marked, (point, ring)
        assert pixels(before, around(board.slot_centre(point, level), CHECKER // 2 + 2), HIGHLIGHT, 30) == 0


def test_a_finished_game_renders() -> None:
    state = BackgammonState.from_points(["alice", "bob"], {24: 15}, {2: 1, 1: 1}, (2, 1), "O")
    state.push(state.parse_move("2-H,1-H"))
    assert state.is_over
    decode(render_png(state))


# ----------------------------------------------------------------------------------------------------------------
# What the picture shows, checked by its pixels


LABEL_INK = CHECKERS[OHS][0]  # a count on a dark X checker is written in the light colour


def test_a_stack_above_five_shows_its_count_on_the_fifth_checker() -> None:
    def label_ink(count: int) -> int:
        state = BackgammonState.from_points(["alice", "bob"], {24: count, 1: 15 - count}, {6: 15}, (3, 1))
        return pixels(picture(state), around(where(state).slot_centre(24, 4), 9), LABEL_INK)

    assert label_ink(5) == 0
    six, seven = label_ink(6), label_ink(7)
    assert six > 8 and seven > 8
    state6 = BackgammonState.from_points(["alice", "bob"], {24: 6, 1: 9}, {6: 15}, (3, 1))
    state7 = BackgammonState.from_points(["alice", "bob"], {24: 7, 1: 8}, {6: 15}, (3, 1))
    box = tuple(round(v) for v in around(where(state6).slot_centre(24, 4), 9))
    assert picture(state6).crop(box).tobytes() != picture(state7).crop(box).tobytes()  # "6" and "7" differ


def test_the_cube_lies_on_the_bar_in_the_middle_or_at_its_owners_end() -> None:
    def cube_thirds(owner_colour: int | None) -> tuple[int, int, int]:
        state = BackgammonState.from_points(["alice", "bob"], START_X, START_O, (3, 1))
        if owner_colour is not None:
            state.cube, state.cube_owner = 2, state.seat_of_colour(owner_colour)
        image, top = picture(state), where(state).top
        bar = (BOARD_X + 6 * 38, top, BOARD_X + 6 * 38 + 44, top + BOARD_H)
        third = BOARD_H // 3
        counts = [
            pixels(image, (bar[0], top + k * third, bar[2], top + (k + 1) * third), CUBE_FACE, 4) for k in range(3)
        ]
        assert pixels(image, (0, 0, WIDTH, image.height), CUBE_FACE, 4) == sum(counts)  # nowhere else
        return counts[0], counts[1], counts[2]

    top, middle, bottom = cube_thirds(None)
    assert middle > 500 and top == bottom == 0
    top, middle, bottom = cube_thirds(EKS)  # X plays towards the top right
    assert top > 500 and middle == bottom == 0
    top, middle, bottom = cube_thirds(OHS)
    assert bottom > 500 and top == middle == 0


def test_borne_off_checkers_fill_their_owners_tray_and_are_counted_in_the_header() -> None:
    def tray_ink(off: int) -> tuple[int, int]:
        state = BackgammonState.from_points(["alice", "bob"], {24: 15 - off}, {1: 15 - off}, (3, 1))
        image, top = picture(state), where(state).top
        top_tray = (TRAY_X, top, TRAY_X + 48, top + HALF_H)
        bottom_tray = (TRAY_X, top + BOARD_H - HALF_H, TRAY_X + 48, top + BOARD_H)
        rows = {group.id: group_texts(group) for group in scene(state).tagged("seat")}
        assert (f"{off} off" in rows["0"][-1]) == bool(off) and (f"{off} off" in rows["1"][-1]) == bool(off), rows
        return pixels(image, top_tray, CHECKERS[EKS][0], 4), pixels(image, bottom_tray, CHECKERS[OHS][0], 4)

    assert tray_ink(0) == (0, 0)
    x3, o3 = tray_ink(3)
    x12, o12 = tray_ink(12)
    assert 0 < x3 < x12 and 0 < o3 < o12
    assert abs(x12 - 4 * x3) < x3 and abs(o12 - 4 * o3) < o3


def test_the_dice_are_drawn_only_when_a_play_is_due() -> None:
    die_face = (250, 250, 250)
    state = BackgammonState.from_points(["alice", "bob"], START_X, START_O, (3, 1))
    top = where(state).top
    middle = (BOARD_X, top + BOARD_H // 2 - 25, BOARD_X + BOARD_W, top + BOARD_H // 2 + 25)
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
    w, h = rgb.size
    for corner in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):
        assert rgb.getpixel(corner) == BACKGROUND
    for text_colour in (FOREGROUND, MUTED, HIGHLIGHT):
        assert contrast(text_colour, BACKGROUND) >= 4.5
    assert contrast(CHECKERS[OHS][0], CHECKERS[EKS][0]) >= 7  # X and O differ in lightness, not only hue
    for point in (FELT, POINT_DARK, POINT_LIGHT, FRAME):  # each checker shows on every point, the bar, the trays
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
    assert status(state).text == "alice to play 3-1"
    state.manual = [True, True]
    state.push(state.parse_move("8-5,6-5"))
    assert status(state).text == "bob to roll or double"
    state.push(state.parse_move("double"))
    assert status(state).text == "alice to take or drop: bob doubles to 2"  # whoever must act comes first
    state.push(state.parse_move("drop"))
    assert status(state).text == "bob wins: alice refused the double, 1 point"


def status_group(state: BackgammonState) -> Group:
    [group] = scene(state).tagged("status")
    return group


def disc_of(group: Group) -> Ellipse:
    """The disc of the chip in a header group."""
    [chip] = [item for item in group.items if isinstance(item, Group) and item.kind == "chip"]
    [disc] = [item for item in chip.items if isinstance(item, Ellipse)]
    return disc


def test_the_player_to_move_is_the_largest_text_in_the_header_with_their_disc_and_marker() -> None:
    state = BackgammonState.from_points(["alice", "bob"], START_X, START_O, (3, 1), "O")
    drawn = scene(state)
    [status_text] = [item for item in status_group(state).items if isinstance(item, Text)]
    seats = {group.id: group for group in drawn.tagged("seat")}
    for group in seats.values():
        row = [item for item in group.items if isinstance(item, Text)]
        assert status_text.size >= 1.4 * row[0].size
    # the disc before the status is the mover's (O, light); the arrowhead marks O's row (alice), not X's
    disc = disc_of(status_group(state))
    assert disc.fill == CHECKERS[OHS][0]
    assert state.seat_of_colour(OHS) == 0
    assert any(isinstance(item, Polygon) and item.fill == HIGHLIGHT for item in seats["0"].items)
    assert not any(isinstance(item, Polygon) for item in seats["1"].items)
    image = render_image(state)
    x, y = disc.box[0] + 6, (disc.box[1] + disc.box[3]) / 2
    assert pixels(image, (x, y - 6, x + 12, y + 6), CHECKERS[OHS][0], 0) > 60


def test_the_result_takes_the_status_place_with_the_winners_disc_and_no_turn_marker() -> None:
    state = BackgammonState.from_points(["alice", "bob"], {24: 15}, {2: 1, 1: 1}, (2, 1), "O")
    state.push(state.parse_move("2-H,1-H"))
    assert status(state).text.startswith("alice wins: ")
    assert disc_of(status_group(state)).fill == CHECKERS[OHS][0]
    for group in scene(state).tagged("seat"):
        assert not any(isinstance(item, Polygon) for item in group.items), group.id


def test_long_player_names_never_run_past_the_edge() -> None:
    names = ["Alexandria_the_Great_of_Macedon_", "Bartholomew_Longname_the_Third_4"]
    state = BackgammonState.from_points(names, START_X, START_O, (3, 1))
    state.manual, state.greedy, state.cube, state.cube_owner = [True, True], [True, True], 4, 1
    state.push(state.parse_move("8-5,6-5"))
    state.push(state.parse_move("double"))
    clock = {0: "less than a minute left", 1: "7d per move"}
    drawn = scene(state, clock)
    for text in drawn.texts():
        left = {"l": text.xy[0], "m": text.xy[0] - head.width_of(text.text, round(text.size)) / 2}.get(
            text.anchor[0], text.xy[0] - head.width_of(text.text, round(text.size))
        )
        right = left + head.width_of(text.text, round(text.size))
        assert left >= MARGIN - 1 and right <= WIDTH - MARGIN + 1, text
    joined = " ".join(t.text for t in drawn.tagged("status")[0].items if isinstance(t, Text))
    assert joined == status(state).text  # wrapped, whole


def test_colours_that_carry_meaning_stay_apart_under_red_green_colour_blindness() -> None:
    """X against O, and the hit burst against everything it is drawn on or next to, simulated for protanopia and
    deuteranopia (and normal vision): at least Delta E 20 apart."""
    assert closest_pair([CHECKERS[EKS][0], CHECKERS[OHS][0]])[0] > 20
    for other in (FELT, POINT_DARK, POINT_LIGHT, HIGHLIGHT, CHECKERS[EKS][0], CHECKERS[OHS][0]):
        assert closest_pair([HIT_MARK, other])[0] > 20, other


# ----------------------------------------------------------------------------------------------------------------
# Issue 27's defects seen, each fixed


def test_the_landing_ring_marks_a_point_of_more_than_five_checkers() -> None:
    """6-5 played 24-13 from the start: the sixth checker on 13 is not drawn, so its ring goes round the fifth,
    the one showing the count (it marked nothing before)."""
    state = BackgammonState.from_points(["alice", "bob"], START_X, START_O, (6, 5), "O")
    state.push(state.parse_move("24-18,18-13"))
    board = where(state)
    image = picture(state)
    assert state.points[OHS][13] == 6
    ring = around(board.slot_centre(13, 4), CHECKER // 2 + 2)
    assert pixels(image, ring, HIGHLIGHT, 30) > 40
    [marks] = scene(state).tagged("last-play")
    centres = {((m.box[0] + m.box[2]) / 2, (m.box[1] + m.box[3]) / 2) for m in marks.items if isinstance(m, Ellipse)}
    assert centres == {board.slot_centre(13, 4)}
    assert pixels(image, around(board.slot_centre(18, 0), CHECKER // 2 + 2), HIGHLIGHT, 30) == 0  # passed through


def test_a_hit_arrow_never_covers_the_count_on_the_bar() -> None:
    """O already waits on the bar; X hits another on 20, across the board from O's half of the bar: the bar's
    second checker shows "2", and the arrow stops at the edge of the nearest bar checker (it ran over the count to
    the farther one), under the bar's checkers: the count reads as without any arrow."""
    state = BackgammonState.from_points(["alice", "bob"], {17: 1, 12: 14}, {20: 1, 13: 12, 7: 1, "bar": 1}, (6, 3), "X")
    state.push(state.parse_move("17-20*,12-18"))
    assert state.points[OHS][BAR] == 2
    board = where(state)
    marked = render_image(state)
    state.last = None
    plain = render_image(state)
    for level in (0, 1):
        box = tuple(round(v) for v in around(board.bar_slot(OHS, level), CHECKER // 2))
        assert ImageChops.difference(marked.crop(box), plain.crop(box)).getbbox() is None, level
    assert pixels(marked, around(board.bar_slot(OHS, 1), 8), CHECKERS[EKS][0], 0) > 8  # the "2", in X's dark ink
    assert pixels(marked, (0, 0, WIDTH, marked.height), HIT_MARK, 10) > pixels(plain, (0, 0, WIDTH, 999), HIT_MARK, 10)


def test_an_offered_cube_shows_the_value_offered_outlined() -> None:
    state = BackgammonState.from_points(["alice", "bob"], START_X, START_O, (3, 1))
    state.manual = [True, True]
    state.push(state.parse_move("8-5,6-5"))
    state.push(state.parse_move("double"))
    [cube] = scene(state).tagged("cube")
    assert group_texts(cube) == ["2"] and dict(cube.data)["state"] == "offered"
    centre = where(state).cube_centre(None)
    image = picture(state)
    assert pixels(image, around(centre, CUBE / 2 + 1), HIGHLIGHT, 20) > 100
    state.push(state.parse_move("take"))
    [cube] = scene(state).tagged("cube")
    assert group_texts(cube) == ["2"] and dict(cube.data)["state"] == "owned by O"
    assert pixels(picture(state), around(centre, CUBE / 2 + 1), HIGHLIGHT, 20) == 0


def test_clock_notes_stay_whole_beside_an_owned_cube_and_both_modes() -> None:
    """The notes wrapped "7d per / move" once the cube was owned and [manual] showed: each note is now one line,
    right-aligned at the row's right end, clear of the row's text."""
    state = BackgammonState.from_points(["alice", "bob"], START_X, START_O, (3, 1))
    state.cube, state.cube_owner, state.manual, state.greedy = 2, 0, [True, True], [True, True]
    clock = {0: "7d per move", 1: "6d 23h left"}
    for group in scene(state, clock).tagged("seat"):
        [note] = [item for item in group.items if isinstance(item, Group) and item.kind == "clock"]
        assert group_texts(note) == [clock[int(group.id)]]
        row = [item for item in group.items if isinstance(item, Text)]
        assert len(row) == 1 and ("cube 2" in row[0].text) == (group.id == "0")
        [face] = [item for item in note.items if isinstance(item, Ellipse)]
        end = row[0].xy[0] + head.width_of(row[0].text, round(row[0].size))
        assert end + 8 <= face.box[0] and note.items[-1].xy[1] == row[0].xy[1]
        right = note.items[-1].xy[0] + head.width_of(note.items[-1].text, round(note.items[-1].size))
        assert abs(right - (WIDTH - MARGIN)) <= 1


def test_the_result_says_single_game_gammon_or_backgammon_with_its_points() -> None:
    def won(x: dict[int | str, int], cube: int = 1) -> str:
        state = BackgammonState.from_points(["alice", "bob"], x, {2: 1, 1: 1}, (2, 1), "O")
        state.cube = cube
        state.push(state.parse_move("2-H,1-H"))
        return status(state).text

    assert won({24: 10}) == "alice wins: single game, 1 point"
    assert won({24: 15}) == "alice wins: gammon, 2 points"
    assert won({24: 14, 3: 1}) == "alice wins: backgammon, 3 points"
    assert won({24: 15}, cube=4) == "alice wins: gammon, 8 points (cube at 4)"


def test_the_opening_roll_says_why_its_player_starts() -> None:
    forced = GAME.new(GAME.parse_options(["-force"], 2), ["alice", "bob"], 1)
    (first, second) = forced.opening[-1]
    lines = group_texts(scene(forced).tagged("lines")[0])
    expected = f"opening roll: alice {first}, bob {second}; -force: alice, named first, plays O and starts"
    assert " ".join(lines) == expected
    free = GAME.new(GAME.parse_options([], 2), ["alice", "bob"], 1)
    (first, second) = free.opening[-1]
    higher = "alice" if first > second else "bob"
    lines = group_texts(scene(free).tagged("lines")[0])
    assert " ".join(lines) == f"opening roll: alice {first}, bob {second}: {higher} rolled higher, plays O and starts"


def test_a_low_clock_sits_on_its_pill_at_the_rows_right_end() -> None:
    state = BackgammonState.from_points(["alice", "bob"], START_X, START_O, (3, 1))
    image = render_image(state, {0: "2h 5m left"})
    box = (WIDTH // 2, 0, WIDTH, where(state).top)
    assert pixels(image, box, CLOCK_LOW, 0) > 150
    assert pixels(image, (0, 0, WIDTH // 2, image.height), CLOCK_LOW, 0) == 0


def test_a_replay_keeps_the_board_in_one_place_whatever_each_header_holds() -> None:
    """A long play wraps the last-move line onto a second line and pushes that picture's board down; a replay
    lays every frame out with the board where the lowest needs it."""
    game = GAME.new(GAME.parse_options([], 2), LONG_NAMES, 4)
    rng = Rng(4)
    states = [game.clone()]
    while len(states) < 14:
        forced = game.forced_move()
        game.push(forced if forced is not None else game.random_move(rng))
        states.append(game.clone())

    def felt_top(image: Image.Image) -> int:
        return next(y for y in range(image.height) if image.getpixel((BOARD_X + 1, y)) == FELT)

    alone = {felt_top(render_image(state)) for state in states}
    assert len(alone) > 1  # these frames' headers differ in height
    assert {felt_top(image) for image in replay_images(states)} == {max(alone)}
