"""The profile's rating chart, judged by its pixels: a line of its own colour per game type (and none for a game not
played), the legend naming them with shapes as well as colours, labelled axes, the empty picture, and the same
bytes every time, on any thread. Issue 27: games of one day are spread by game number (they stood in a spike at the
right edge of a time axis padded to three days), and the axes' texts are 11 pixels tall on a phone."""

from __future__ import annotations

import io
import itertools
import random
import subprocess
import sys
import warnings
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image, ImageChops

from render.chart import (
    GRID,
    HEIGHT,
    LABEL_SIZE,
    LEGEND_SIZE,
    LEGEND_Y,
    PLOT_BOX,
    SMALLEST_TITLE,
    STYLES,
    TICK_SIZE,
    WIDTH,
    rating_chart,
    x_axis,
)
from render.common import BACKGROUND
from render.scene import PHONE_TEXT, PHONE_WIDTH
from tests.test_colour_vision import MACHADO, closest_pair, delta_e

Points = list[tuple[float, int]]

NOW = 1_764_000_000.0  # 2025-11-24
DAY = 86400.0
GAMES = list(STYLES)


def walk(seed: int, games: int, start: float, end: float) -> Points:
    """``games`` ratings between ``start`` and ``end``, a seeded random walk from 1500 as a player's would go."""
    rng = random.Random(seed)
    rating, points = 1500, []
    for when in sorted(rng.uniform(start, end) for _ in range(games)):
        rating += rng.randint(-25, 27)
        points.append((when, rating))
    return points


def busy() -> dict[str, Points]:
    """Four game types, 500 rated games each, over two years."""
    return {game: walk(k, 500, NOW - 730 * DAY + k * 30 * DAY, NOW - k * 10 * DAY) for k, game in enumerate(GAMES)}


def picture(series: dict[str, Points], player: str = "alice", now: float | None = NOW) -> Image.Image:
    image = Image.open(io.BytesIO(rating_chart(series, player=player, now=now)))
    assert image.format == "PNG"
    return image.convert("RGB")


def inside_plot(image: Image.Image) -> Image.Image:
    """The plot area without its frame: where only the lines and the grid are drawn."""
    left, top, right, bottom = PLOT_BOX
    return image.crop((left + 3, top, right, bottom - 3))


def legend_band(image: Image.Image) -> Image.Image:
    return image.crop((0, LEGEND_Y - 18, WIDTH, LEGEND_Y + 18))


def count(image: Image.Image, colour: tuple[int, int, int]) -> int:
    return next((n for n, c in image.getcolors(1 << 18) or [] if c == colour), 0)


def mask(image: Image.Image, colour: tuple[int, int, int]) -> Image.Image:
    """White where ``image`` is exactly ``colour``, black elsewhere."""
    red, green, blue = ImageChops.difference(image, Image.new("RGB", image.size, colour)).split()
    return ImageChops.lighter(ImageChops.lighter(red, green), blue).point(lambda v: 255 if v == 0 else 0)


def ink(image: Image.Image, box: tuple[int, int, int, int]) -> tuple[int, int, int, int] | None:
    """The bounding box of whatever stands out from the panel inside ``box`` (None: nothing drawn there)."""
    region = image.crop(box)
    panel = Image.new("RGB", region.size, BACKGROUND)
    return ImageChops.difference(region, panel).convert("L").point(lambda v: 255 if v > 40 else 0).getbbox()


def test_a_busy_profile_draws_four_lines_each_in_its_colour_and_named_in_the_legend() -> None:
    image = picture(busy())
    assert image.size == (WIDTH, HEIGHT)
    for game, style in STYLES.items():
        assert count(inside_plot(image), style.colour) > 1500, game  # 500 games: a line across the plot
        assert count(legend_band(image), style.colour) > 60, game


@pytest.mark.parametrize("played", [("Backgammon",), ("Dragons", "Drogo"), ("Backgammon", "Druid", "Drogo")])
def test_a_game_not_played_draws_no_line_and_no_legend_entry(played: Sequence[str]) -> None:
    image = picture({game: walk(k, 40, NOW - 90 * DAY, NOW) for k, game in enumerate(played)})
    for game, style in STYLES.items():
        drawn = count(inside_plot(image), style.colour), count(legend_band(image), style.colour)
        if game in played:
            assert drawn[0] > 300 and drawn[1] > 60, game
        else:
            assert drawn == (0, 0), game


def test_the_line_follows_the_ratings() -> None:
    """A rating climbing steadily from 1300 to 1700 runs from the lower left of the plot to the upper right."""
    climb = [(NOW - (100 - k) * DAY, 1300 + 4 * k) for k in range(101)]
    line = mask(inside_plot(picture({"Druid": climb})), STYLES["Druid"].colour)
    third = line.width // 3
    left = line.crop((0, 0, third, line.height)).getbbox()
    right = line.crop((2 * third, 0, line.width, line.height)).getbbox()
    assert left is not None and right is not None
    assert left[1] > line.height / 2 > right[3]  # screen rows grow downward: the left third is all lower


def test_now_ends_the_time_axis_so_a_game_left_for_a_year_stops_early() -> None:
    """The line of a game last played a year ago ends in the left half when ``now`` is today, and reaches the
    right edge when no ``now`` is given."""
    old = {"Backgammon": walk(3, 60, NOW - 730 * DAY, NOW - 365 * DAY)}

    def rightmost(image: Image.Image) -> int:
        box = mask(inside_plot(image), STYLES["Backgammon"].colour).getbbox()
        assert box is not None
        return box[2]

    width = PLOT_BOX[2] - PLOT_BOX[0]
    assert rightmost(picture(old, now=NOW)) < width * 0.6
    assert rightmost(picture(old, now=None)) > width * 0.9


def test_one_game_is_drawn_as_a_marker() -> None:
    """A single rated game has no line to draw: its marker still shows."""
    image = picture({"Drogo": [(NOW - 3600, 1512)]})
    assert count(inside_plot(image), STYLES["Drogo"].colour) > 40


def test_each_game_has_a_shape_of_its_own_in_the_legend() -> None:
    """Colour is not the only cue: each game's legend key (its line and marker), taken as a shape, differs from
    every other game's."""
    shapes = {}
    for game, style in STYLES.items():
        key = mask(legend_band(picture({game: walk(1, 30, NOW - 60 * DAY, NOW)})), style.colour)
        box = key.getbbox()
        assert box is not None
        key = key.crop(box)
        shapes[game] = frozenset((x, y) for y in range(key.height) for x in range(key.width) if key.getpixel((x, y)))
    for a, b in itertools.combinations(GAMES, 2):
        assert len(shapes[a] ^ shapes[b]) > 20, (a, b)


def test_line_colours_stay_apart_for_colour_blindness() -> None:
    """Every pair of game colours at least 30 apart (Delta E, as seen with full deuteranopia, protanopia or
    tritanopia, and normally: Druid's blue and Drogo's first pale sky fell to 29 under tritanopia); every colour at
    least 30 off the panel and the grid behind it."""
    colours = [style.colour for style in STYLES.values()]
    assert closest_pair(colours)[0] >= 30
    for colour, vision in itertools.product(colours, MACHADO):
        assert delta_e(colour, BACKGROUND, vision) >= 30 and delta_e(colour, GRID, vision) >= 30, (colour, vision)


def test_the_axes_are_labelled_and_ticked() -> None:
    """Beside the plot the word "Rating" and below it the dates and "Date (UTC)": ink in those strips when there
    are lines, none in the empty picture (so what the strips hold is the axes' labels)."""
    left, top, right, bottom = PLOT_BOX
    strips = {
        "rating label": (0, top, 34, bottom),
        "rating ticks": (34, top - 8, 76, bottom + 8),
        "date ticks": (left, bottom + 3, right, bottom + 30),
        "date label": (left, bottom + 30, right, HEIGHT),
    }
    drawn, empty = picture(busy()), picture({})
    for name, box in strips.items():
        assert ink(drawn, box) is not None, name
        assert ink(empty, box) is None, name
    label = ink(drawn, strips["rating label"])
    assert label is not None and label[3] - label[1] > 40  # a word written upward, not a stray tick
    label = ink(drawn, strips["date label"])
    assert label is not None and label[2] - label[0] > 80


def test_games_of_one_day_are_spread_by_game_number() -> None:
    """Thirteen games of two types within six hours: numbered 1 to 13 in the order played, all types together, the
    axis saying so and on which day; the lines spread over the plot's width (they stood in a spike at its right
    edge). Six days of games keep the time axis, and ``now`` plays no part in game numbers."""
    drogo = walk(1, 8, NOW - 0.3 * DAY, NOW - 0.05 * DAY)
    druid = walk(2, 5, NOW - 0.25 * DAY, NOW - 0.1 * DAY)
    axis = x_axis({"Drogo": drogo, "Druid": druid}, NOW)
    assert axis.by_game and axis.label == "Game, in the order played (24 Nov 2025, UTC)"
    order = sorted(
        [(when, "Drogo", k) for k, (when, _) in enumerate(drogo)] + [(w, "Druid", k) for k, (w, _) in enumerate(druid)]
    )
    for number, (_when, game, k) in enumerate(order, 1):
        assert axis.lines[game][k] == (number, (drogo if game == "Drogo" else druid)[k][1])
    assert axis.limits[0] < 1 and axis.limits[1] > 13
    assert x_axis({"Drogo": drogo}, NOW + 300 * DAY) == x_axis({"Drogo": drogo}, None)
    week = x_axis({"Dragons": walk(4, 20, NOW - 6 * DAY, NOW)}, NOW)
    assert not week.by_game and week.label == "Date (UTC)"
    assert x_axis({"Drogo": [(NOW - 3600, 1512)]}, NOW).limits == (0.5, 1.5)
    image = picture({"Drogo": drogo, "Druid": druid})
    width = PLOT_BOX[2] - PLOT_BOX[0]
    for game in ("Drogo", "Druid"):
        box = mask(inside_plot(image), STYLES[game].colour).getbbox()
        assert box is not None and box[2] - box[0] > width * (0.8 if game == "Drogo" else 0.6), (game, box)


def test_days_across_months_and_years_are_written_short() -> None:
    hour = 3600.0
    dec31 = 1_767_139_200.0  # 2025-12-31 00:00 UTC
    assert x_axis({"Druid": [(dec31, 1500), (dec31 + 30 * hour, 1510)]}, None).label.endswith(
        "(31 Dec 2025 - 1 Jan 2026, UTC)"
    )
    nov30 = dec31 - 31 * DAY
    assert "(30 Nov - 1 Dec 2025, UTC)" in x_axis({"Druid": [(nov30, 1500), (nov30 + 30 * hour, 1510)]}, None).label
    assert "(23-24 Nov 2025, UTC)" in x_axis({"Druid": [(NOW - DAY, 1500), (NOW, 1510)]}, None).label


def test_every_text_is_11_px_tall_on_a_phone() -> None:
    """Shown 400 pixels wide, the axes' labels and ticks, the legend and the smallest title are 11 pixels (font
    size) or more; and the ticks' digits drawn are as tall as digits of that size (DejaVu's are 0.73 of it): they
    were 20 pixels in 800, 8 on a phone by their ink."""
    for size in (LABEL_SIZE, TICK_SIZE, LEGEND_SIZE, SMALLEST_TITLE):
        assert size * PHONE_WIDTH / WIDTH >= PHONE_TEXT, size
    image = picture({"Druid": walk(2, 20, NOW - 30 * DAY, NOW)})
    left, top, _right, bottom = PLOT_BOX
    heights = []
    for y in range(top, bottom, 4):  # each tick label's ink, in the column of ticks left of the plot
        box = ink(image, (34, y, left - 8, y + 40))
        if box is not None and box[1] > 0 and box[3] < 40:
            heights.append(box[3] - box[1])
    assert heights and min(heights) >= 0.73 * TICK_SIZE - 1, heights


def test_no_rated_games_yet_is_a_picture_with_a_message() -> None:
    image = picture({})
    assert image.size == (WIDTH, HEIGHT)
    for style in STYLES.values():
        assert count(image, style.colour) == 0
    message = ink(image, PLOT_BOX)
    assert message is not None and message[2] - message[0] > 300  # a line of text across the middle of the frame
    assert rating_chart({"Druid": [], "Drogo": []}, player="alice", now=NOW) == rating_chart(
        {}, player="alice", now=NOW
    )


def test_the_title_carries_the_players_name_and_nothing_else_changes() -> None:
    """Below the title nothing changes but by a few units of colour: the title's pixels change the counts the PNG's
    palette is picked by, so an anti-aliased edge may map to a neighbouring shade."""
    series = {"Dragons": walk(5, 50, NOW - 100 * DAY, NOW)}
    alice, bob = picture(series, "alice"), picture(series, "bob")
    title = (0, 0, WIDTH, LEGEND_Y - 20)
    assert ImageChops.difference(alice.crop(title), bob.crop(title)).getbbox() is not None
    rest = (0, LEGEND_Y - 20, WIDTH, HEIGHT)
    changed = ImageChops.difference(alice.crop(rest), bob.crop(rest)).convert("L").point(lambda v: 255 if v > 12 else 0)
    assert changed.getbbox() is None


@pytest.mark.parametrize(
    "player", ["a_very_long_display_name_of_32_ch", "🎲🎲 dice fan 🎲", "$\\frac{$ not math", "W" * 32]
)
def test_any_name_gives_a_title_within_the_picture_and_no_warning(player: str) -> None:
    """Long names shrink the title, then are cut; emoji the font lacks are left out (no warning, no empty box);
    dollar signs are text, not mathematics."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        image = picture({"Druid": walk(2, 20, NOW - 30 * DAY, NOW)}, player)
    title = ink(image, (0, 0, WIDTH, LEGEND_Y - 20))
    assert title is not None and title[0] >= 10 and title[2] <= WIDTH - 10


def test_the_same_ratings_give_the_same_bytes_on_any_thread() -> None:
    """Deterministic, and safe off the event loop: four charts drawn at once on worker threads are byte for byte
    the ones drawn one after another."""
    cases = [busy(), {"Druid": walk(9, 12, NOW - 40 * DAY, NOW)}, {}, {"Drogo": [(NOW - 3600, 1512)]}]
    alone = [rating_chart(series, player=f"p{k}", now=NOW) for k, series in enumerate(cases)]
    assert alone[0] == rating_chart(cases[0], player="p0", now=NOW)
    shuffled = {game: random.Random(7).sample(points, len(points)) for game, points in cases[0].items()}
    assert rating_chart(shuffled, player="p0", now=NOW) == alone[0]  # drawn in time order whatever the order given
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda k: rating_chart(cases[k], player=f"p{k}", now=NOW), range(4)))
    assert together == alone


def test_an_unknown_game_type_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match=r"no chart style for 'Chess' \(games: Backgammon, Dragons, Druid, Drogo\)"):
        rating_chart({"Chess": [(NOW, 1500)]}, player="alice")


def test_importing_the_chart_module_does_not_import_matplotlib_and_prepare_does() -> None:
    """matplotlib's import costs about a third of a second: only drawing a chart, or preparing to, pays it."""
    code = (
        "import sys, render.chart; print('matplotlib' in sys.modules); "
        "render.chart.prepare(); print('matplotlib.backends.backend_agg' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True"]
