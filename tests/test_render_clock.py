"""Each player's clock in the board picture's header (``render.board_png(state, clock)``), for all four games.

Without a clock the picture is today's, byte for byte. With one, only the header changes; every note is drawn
beside its own seat, in ink, led by a clock face; a note with under a day left sits on a CLOCK_LOW pill (and
only such a note), a colour that reads on the panel and stands apart from every other header colour under the
common red-green colour blindnesses and tritanopia; long names and long notes are wrapped or shortened as the
headers already do, never cut or drawn over each other. All four games draw the shared header (render.header),
checked here through their scenes.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import math
from collections.abc import Mapping

import pytest
from PIL import Image, ImageChops, __version__, features
from zlib_ng import zlib_ng

import render
from render import backgammon, dragons, drogo, druid
from render import header as head
from render.common import (
    BACKGROUND,
    CLOCK_LOW,
    FOREGROUND,
    HIGHLIGHT,
    MUTED,
    PLAYER_COLOURS,
    clock_is_low,
    ink_on,
)
from render.scene import Group, Text, group_texts
from rules import registry
from rules.base import GameState
from rules.rng import Rng
from tests.test_colour_vision import MACHADO, delta_e

NAMES = ["alice", "bob", "carol", "dave"]
LONG = [
    "Alexandria_the_Great_of_Macedon_99",
    "Bartholomew_Longname_the_Third_42",
    "Cornelius Maximilian Featherstonehaugh",
    "Dorothea Wilhelmina Zu Sayn-Wittgenstein",
]
LONG_NOTE = "paused until the end of the month (vacation), then 7d per move"

#: game, options, players, moves played, seed
POSITIONS: dict[str, tuple[str, tuple[str, ...], int, int, int]] = {
    "backgammon-start": ("backgammon", (), 2, 0, 5),
    "backgammon-mid": ("backgammon", (), 2, 30, 5),
    "backgammon-over": ("backgammon", (), 2, 2000, 5),
    "druid-square": ("druid", (), 2, 40, 5),
    "druid-hex3": ("druid", ("-hex",), 3, 60, 5),
    "druid-walk": ("druid", ("-walk",), 2, 30, 5),
    "druid-over": ("druid", ("-size=5",), 2, 2000, 5),
    "drogo-2p": ("drogo", (), 2, 40, 5),
    "drogo-4p": ("drogo", (), 4, 60, 5),
    "drogo-over": ("drogo", (), 2, 2000, 5),
    "dragons-mid": ("dragons", (), 2, 10, 9),
    "dragons-over": ("dragons", (), 2, 2000, 9),
}
#: the games mid-game, one per game and player count the brief names (Druid hex with 3, Drogo with 4)
MID = ["backgammon-mid", "druid-square", "druid-hex3", "drogo-2p", "drogo-4p", "dragons-mid"]

#: sha256 of each position's picture as drawn before clocks existed (commit 8bf1eef), with the library versions
#: that drew it: other versions of Pillow, FreeType or zlib-ng rasterise or deflate differently. Every game is drawn
#: as a scene with the shared header since issue 27 (Druid's and Drogo's main pictures are their top-down boards)
TODAY = {
    "backgammon-start": "ab3accddf383ace19d2f1533f20d4e22",
    "backgammon-mid": "4c1f3619aedfc8ffcb8fd983a184f19d",
    "backgammon-over": "5e6cae0d378acd6579fc1f21cf4ed61c",
    "druid-square": "29bfe10dcd5e5e29aeb8da98380e20f8",
    "druid-hex3": "c7d7b79a63baa79b0c241699c7408687",
    "druid-walk": "02d0d6cda678c8a0a56b8141e951af4a",
    "druid-over": "b875c508cca59f57d499b42c13792221",
    "drogo-2p": "d33a15854b32633ba465628fe69bb284",
    "drogo-4p": "ec407e3ed0ebc0457022790cbce51111",
    "drogo-over": "8178e5f867ecda8b7a53df46b6b89617",
    "dragons-mid": "d1bf1c9f3f84ae24f1da5aa92b8fb52b",
    "dragons-over": "c8cd2fc00fb2a34b00fee1f1aead475c",
}
TODAY_VERSIONS = ("13.0.0", "2.14.3", "2.3.3")


def played(key: str, names: list[str] | None = None, words: tuple[str, ...] | None = None) -> GameState:
    """The position ``key`` names (with other options ``words``, if given), its players called ``names``."""
    name, options, players, moves, seed = POSITIONS[key]
    words = options if words is None else words
    game = registry.get(name)
    state = game.new(game.parse_options(list(words), players), (names or NAMES)[:players], seed)
    rng = Rng(seed)
    for _ in range(moves):
        if state.is_over:
            break
        forced = state.forced_move()
        state.push(forced if forced is not None else state.random_move(rng))
    return state


def drawing(state: GameState, clock: Mapping[int, str] | None = None) -> Image.Image:
    """The picture as drawn, before the PNG's palette merges the shades of anti-aliased edges (which depend on
    every colour in the picture, so a note in the header may move a shade anywhere by a few units)."""
    name = state.game.name
    if name == "druid":
        return druid.render_image(state, clock)
    if name == "dragons":
        return dragons.render_image(state, clock=clock)
    return {"backgammon": backgammon, "drogo": drogo}[name].render_image(state, clock)


def header_bottom(state: GameState, width: int) -> int:
    """Where the picture below the header (the board, its coordinates) begins when there is no clock."""
    name = state.game.name
    if name == "druid":
        placed = druid.top.layout(state)[1]
        return math.floor(placed.origin[1] + placed.frame.top)
    if name == "dragons":
        return math.ceil(dragons.layout(state)[1].header_bottom)
    if name == "backgammon":
        return math.ceil(backgammon.layout(state)[1].top - backgammon.LABEL)
    where = drogo.layout(state)[1]
    return where.top - where.band


def shared_seats(
    state: GameState, clock: Mapping[int, str] | None = None, ratings: Mapping[int, str] | None = None
) -> dict[int, Group]:
    """The seat groups of a shared header, by seat."""
    return {int(group.id): group for group in render.board_scene(state, clock, ratings).tagged("seat")}


def text_box(text: Text) -> tuple[float, float, float, float]:
    """Where a text of a scene is drawn (left, top, right, bottom), by its font's measures."""
    width = head.width_of(text.text, round(text.size))
    left = text.xy[0] - {"l": 0, "m": width / 2, "r": width}[text.anchor[0]]
    middle = text.xy[1] if text.anchor[1] == "m" else text.xy[1] + text.size / 2
    return (left, middle - text.size * 0.6, left + width, middle + text.size * 0.6)


def mover(state: GameState) -> int:
    return state.to_move if state.to_move is not None else 0


def count(image: Image.Image, colour: tuple[int, int, int], box: tuple[int, int, int, int] | None = None) -> int:
    region = image.convert("RGB").crop(box) if box else image.convert("RGB")
    return sum(n for n, rgb in region.getcolors(1 << 20) if rgb == colour)


def where(image: Image.Image, colour: tuple[int, int, int], box: tuple[int, int, int, int]) -> tuple[int, ...] | None:
    """The bounding box (picture coordinates) of ``colour``'s pixels inside ``box``."""
    region = image.convert("RGB").crop(box)
    mask = Image.new("L", region.size)
    mask.putdata([255 if pixel == colour else 0 for pixel in region.get_flattened_data()])
    found = mask.getbbox()
    return None if found is None else (box[0] + found[0], box[1] + found[1], box[0] + found[2], box[1] + found[3])


# ---- no clock: today's picture --------------------------------------------------------------------------------


@pytest.mark.parametrize("key", list(POSITIONS))
def test_no_clock_draws_todays_picture(key: str) -> None:
    """None, {}, a note for a seat the game does not have and an empty note all draw the picture without notes,
    and that picture is the one drawn before clocks existed (checked by digest where the libraries that drew it
    then are installed)."""
    state = played(key)
    plain = render.board_png(state)
    for clock in (None, {}, {7: "6d 23h left"}, {0: "", 1: "  "}):
        assert render.board_png(state, clock) == plain, clock
    versions = (__version__, features.version("freetype2"), zlib_ng.ZLIBNG_VERSION)
    if versions != TODAY_VERSIONS:
        pytest.skip(f"digests recorded with Pillow, FreeType, zlib-ng {TODAY_VERSIONS}, not {versions}")
    assert hashlib.sha256(plain).hexdigest()[:32] == TODAY[key]


# ---- with a clock: the header alone changes, each note by its seat --------------------------------------------


def sample_clock(state: GameState) -> dict[int, str]:
    """The mover under a day, the others on days, paused, or at the move limit."""
    others = iter(["7d per move", "paused (vacation)", "6d 23h left"])
    return {seat: "23h 10m left" if seat == mover(state) else next(others) for seat in range(len(state.players))}


@pytest.mark.parametrize("key", MID)
def test_notes_change_the_header_and_nothing_else(key: str) -> None:
    state = played(key)
    plain, noted = drawing(state), drawing(state, sample_clock(state))
    assert noted.size == plain.size  # the header keeps its height
    box = ImageChops.difference(plain, noted).getbbox()
    assert box is not None, "no note drawn"
    assert box[3] <= header_bottom(state, plain.width), (box, header_bottom(state, plain.width))
    png = Image.open(io.BytesIO(render.board_png(state, sample_clock(state))))
    assert png.size == plain.size and png.mode == "P"


def seat_chip_box(image: Image.Image, state: GameState, seat: int, bottom: int) -> tuple[int, ...]:
    """Where ``seat``'s chip (or Backgammon disc) stands in the seat line(s) of the header, found by its fill."""
    name = state.game.name
    if name in render.SCENE_GAMES:
        [chip] = [item for item in shared_seats(state)[seat].items if isinstance(item, Group) and item.kind == "chip"]
        fill, box = chip.items[0].fill, tuple(round(v) for v in chip.items[0].box)  # type: ignore[union-attr]
    else:
        fill, box = PLAYER_COLOURS[seat][0], (0, 44, image.width // 2 + 200, 60 if name == "dragons" else 80)
    found = where(image, fill, box)
    assert found is not None, (seat, fill)
    return found


@pytest.mark.parametrize("key", MID)
def test_each_note_stands_by_its_own_seat(key: str) -> None:
    """One seat at a time under a day: its pill is on that seat's line (Druid, Backgammon) or right under its
    name (Drogo, Dragons, where the seats stand side by side), and carries the note's text in dark ink."""
    state = played(key)
    plain = drawing(state)
    bottom = header_bottom(state, plain.width)
    for seat in range(len(state.players)):
        clock = {other: "7d per move" for other in range(len(state.players))}
        clock[seat] = "2h 5m left"
        image = drawing(state, clock)
        pill = where(image, CLOCK_LOW, (0, 0, image.width, image.height))
        assert pill is not None and pill[3] <= bottom, (seat, pill)
        ink = sum(
            1 for p in image.crop(pill).get_flattened_data() if sum(p) < 3 * 80 and p != BACKGROUND
        )  # the text, and the clock face before it
        assert ink >= 40, (seat, ink)
        chip = seat_chip_box(image, state, seat, bottom)
        middle = (chip[1] + chip[3]) / 2
        if state.game.name in render.SCENE_GAMES:
            assert pill[1] <= middle <= pill[3], (seat, pill, chip)
        else:
            assert middle < pill[1] <= chip[3] + 12, (seat, pill, chip)
            assert chip[0] <= pill[0] <= chip[2] + 24, (seat, pill, chip)


@pytest.mark.parametrize("key", MID)
def test_plain_notes_are_text_the_movers_bright_the_others_muted(key: str) -> None:
    """Notes with days left draw no pill: the mover's note in the text colour, the others' muted, each with
    about as much ink as its text needs."""
    state = played(key)
    clock = {seat: "6d 23h left" for seat in range(len(state.players))}
    plain, noted = drawing(state), drawing(state, clock)
    bottom = header_bottom(state, plain.width)
    assert count(noted, CLOCK_LOW) == 0
    changed = ImageChops.difference(plain, noted).convert("L").point(lambda v: 255 if v else 0)
    new = Image.new("RGB", noted.size, BACKGROUND)
    new.paste(noted, mask=changed)
    bright, muted = count(new, FOREGROUND, (0, 0, noted.width, bottom)), count(new, MUTED, (0, 0, noted.width, bottom))
    others = len(state.players) - 1
    assert bright >= 25 and muted >= 25 * others, (bright, muted)


# ---- the low-time warning ---------------------------------------------------------------------------------------


def test_what_counts_as_under_a_day() -> None:
    low = ["23h 10m left", "12m left", "2h 5m left", "less than a minute left", "0d 5h left", " 1h left "]
    fine = ["6d 23h left", "7d per move", "paused (vacation)", "1d left", "2 days left", "1w 2d left", "", "5h"]
    assert [note for note in low if not clock_is_low(note)] == []
    assert [note for note in fine if clock_is_low(note)] == []


@pytest.mark.parametrize("key", MID)
def test_the_low_time_colour_appears_only_under_a_day(key: str) -> None:
    """In the PNG sent (CLOCK_LOW is kept exact): present when the mover, or another seat, has under a day left;
    absent with days left, a move limit, a pause, or no clock."""
    state = played(key)
    seats = range(len(state.players))
    other = (mover(state) + 1) % len(state.players)

    def low_pixels(clock: dict[int, str] | None) -> int:
        return count(Image.open(io.BytesIO(render.board_png(state, clock))), CLOCK_LOW)

    assert low_pixels(None) == 0
    assert low_pixels({seat: "6d 23h left" for seat in seats}) == 0
    assert low_pixels({seat: ("7d per move", "paused (vacation)")[seat % 2] for seat in seats}) == 0
    assert low_pixels({mover(state): "23h 10m left"}) > 150
    assert low_pixels({mover(state): "6d 23h left", other: "less than a minute left"}) > 150


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    def luminance(colour: tuple[int, int, int]) -> float:
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (v / 255 for v in colour)]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("vision", list(MACHADO))
def test_the_low_time_colour_reads_and_stands_apart(vision: str) -> None:
    """The pill stands off the panel, and from the header's texts, the highlight, every player colour and the
    Backgammon checkers, as seen with each vision (Delta E over 25); its ink reads on it (WCAG AAA, 7:1) and the
    pill on the panel (AA for text, 4.5:1)."""
    neighbours = [
        BACKGROUND,
        FOREGROUND,
        MUTED,
        HIGHLIGHT,
        *(fill for fill, _ in PLAYER_COLOURS),
        *(fill for fill, _ in backgammon.CHECKERS.values()),
    ]
    close = [(colour, round(delta_e(CLOCK_LOW, colour, vision))) for colour in neighbours]
    assert [pair for pair in close if pair[1] <= 25] == []
    assert contrast(CLOCK_LOW, ink_on(CLOCK_LOW)) >= 7
    assert contrast(CLOCK_LOW, BACKGROUND) >= 4.5


# ---- long names and long notes ----------------------------------------------------------------------------------


def long_clock(state: GameState) -> dict[int, str]:
    clock = {seat: "paused (vacation)" for seat in range(len(state.players))}
    clock[mover(state)] = "less than a minute left"
    clock[(mover(state) + 1) % len(state.players)] = LONG_NOTE
    return clock


def edges_clear(image: Image.Image, bottom: int) -> None:
    """Nothing in the header runs into the picture's outer columns (text cut off at the edge)."""
    for box in ((0, 0, 3, bottom), (image.width - 3, 0, image.width, bottom)):
        assert count(image, BACKGROUND, box) == 3 * bottom, box


def assert_header_clear(state: GameState, clock: Mapping[int, str], ratings: Mapping[int, str] | None = None) -> None:
    """A shared header with long names and notes: every note whole and right-aligned at the margin, every row's
    text whole, no text past the margins, no two texts of the header over each other."""
    drawn = render.board_scene(state, clock, ratings)
    margins = {"backgammon": backgammon.MARGIN, "dragons": dragons.MARGIN, "drogo": drogo.MARGIN}
    margin = {**margins, "druid": druid.top.MARGIN}[state.game.name]
    [header] = drawn.tagged("header")
    boxes = []
    for group in drawn.tagged("seat"):
        seat = int(group.id)
        [note] = [item for item in group.items if isinstance(item, Group) and item.kind == "clock"]
        assert " ".join(group_texts(note)) == clock[seat]
        rows = " ".join(item.text for item in group.items if isinstance(item, Text))
        assert rows.replace("  ", " ").startswith(state.players[seat])
    for text in (
        item for item, _groups in drawn.walk() if isinstance(item, Text) and any(g is header for g in _groups)
    ):
        box = text_box(text)
        assert margin - 1 <= box[0] and box[2] <= drawn.width - margin + 1, text
        if text.anchor[0] != "m":  # chip letters sit inside their chips
            boxes.append((box, text.text))
    for (first, a), (second, b) in itertools.combinations(boxes, 2):
        overlap = (
            min(first[2], second[2]) - max(first[0], second[0]),
            min(first[3], second[3]) - max(first[1], second[1]),
        )
        assert overlap[0] <= 0 or overlap[1] <= 2, (a, b)
    edges_clear(drawing(state, clock), header_bottom(state, drawn.width))


#: positions whose shared header is checked with long names and notes, and other options than the position's
SHARED_HEADERS = [
    ("backgammon-start", None),
    ("backgammon-mid", None),
    ("dragons-mid", None),
    ("dragons-over", None),
    ("drogo-2p", None),
    ("drogo-4p", None),
    ("drogo-4p", ("-size=12",)),
    ("drogo-4p", ("-size=3",)),
    ("drogo-over", None),
    ("druid-square", None),
    ("druid-hex3", None),
    ("druid-walk", None),
    ("druid-over", None),
]


@pytest.mark.parametrize(("key", "words"), SHARED_HEADERS)
def test_shared_header_long_names_and_notes(key: str, words: tuple[str, ...] | None) -> None:
    state = played(key, LONG, words)
    assert_header_clear(state, long_clock(state))
