"""A player's rating over time, one line per game type: the picture on a profile.

Drawn by matplotlib, imported inside :func:`rating_chart` only, so that a move or a board shown in the console
never pays its import (about a third of a second). The figure is built with the object-oriented API on its own
Agg canvas, never pyplot's global state, and changes no global setting: charts can be drawn on worker threads off
the bot's event loop, several at once.

Made for a phone in a Discord embed: a wide 800x450 picture, the boards' opaque dark panel, and every text at
least :func:`render.scene.readable` size (11 pixels when the picture is shown 400 wide). Each game type has a fixed
colour, chosen to stay apart under deuteranopia, protanopia and tritanopia and to stand off the panel
(tests/test_render_chart.py judges them with tests/test_colour_vision.py's simulation), and a marker shape of its
own, in the legend too, so that colour never carries the meaning alone.

The horizontal axis is time (dates, UTC) when the games span :data:`SHORT_SPAN` or more; games played closer
together than that (a first evening of play) would stand in a vertical spike on a time axis, so they are drawn
evenly spaced by game number instead, all game types counted together in the order played, and the axis says so
and on which days.
"""

from __future__ import annotations

import bisect
import datetime
import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from PIL import Image

from render.common import BACKGROUND, FOREGROUND, MUTED
from render.palette import png_bytes
from render.scene import readable

if TYPE_CHECKING:  # for annotations only: matplotlib is imported when a chart is drawn
    from matplotlib.axes import Axes
    from matplotlib.backend_bases import RendererBase
    from matplotlib.figure import Figure

Colour = tuple[int, int, int]


class Style(NamedTuple):
    """How one game type's line is drawn."""

    colour: Colour
    #: a matplotlib marker code
    marker: str


#: game type -> its line, in the order lines and legend entries are drawn
STYLES: dict[str, Style] = {
    "Backgammon": Style((250, 190, 40), "o"),  # amber, circles
    "Dragons": Style((230, 85, 80), "^"),  # red, triangles
    "Druid": Style((70, 140, 250), "s"),  # blue, squares
    "Drogo": Style((208, 236, 250), "D"),  # pale sky, diamonds
}

#: picture size in pixels
WIDTH, HEIGHT = 800, 450
#: the plot area (the axes' inside) in pixels: left, top, right, bottom
PLOT_BOX = (100, 108, 776, 370)
#: the title's left end and middle, the legend row's middle, in pixels
TITLE_X, TITLE_Y = 20, 36
LEGEND_Y = 82
#: what follows the player's name in the title
TITLE_TAIL = " · rating over time"
#: faint lines across the plot area at the rating and date ticks
GRID = (60, 64, 74)
#: type sizes in pixels: the axes' labels, ticks and legend at the least size a phone shows at 11 pixels
TITLE_SIZE = 30
#: the title shrinks to this before the name is cut
SMALLEST_TITLE = readable(WIDTH)
LABEL_SIZE = readable(WIDTH)
TICK_SIZE = readable(WIDTH)
LEGEND_SIZE = readable(WIDTH)
#: line width and marker size in pixels
LINE_WIDTH = 3
MARKER_SIZE = 15
#: markers on a line: this many, evenly spread over its time (and one on its last game), so 500 games stay a line
MARKERS = 6
#: DPI of the figure: sizes in points are pixels * 72 / DPI
DPI = 100
#: the rating axis spans at least this much, so one game or a flat run is not stretched into a cliff
MIN_RATING_SPAN = 100
#: games spanning less time than this are drawn by game number, not on a time axis (see the module docstring)
SHORT_SPAN = 3 * 86400.0


def rating_chart(series: Mapping[str, Sequence[tuple[float, int]]], *, player: str, now: float | None = None) -> bytes:
    """The PNG of ``player``'s ratings over time: ``series`` maps a game type ("Backgammon", "Dragons", "Druid",
    "Drogo") to its (unix time, display rating) points, oldest first. Game types without points draw nothing;
    with none at all the picture says there are no rated games yet. ``now`` (unix time), when later than the last
    game, ends the time axis there, so a game not played for a while shows as a line that stops early.

    Raises :class:`ValueError` for a game type with no style here."""
    unknown = sorted(set(series) - set(STYLES))
    if unknown:
        raise ValueError(f"no chart style for {', '.join(map(repr, unknown))} (games: {', '.join(STYLES)})")
    lines = {game: sorted(series[game], key=lambda point: point[0]) for game in STYLES if series.get(game)}

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH / DPI, HEIGHT / DPI), dpi=DPI, facecolor=_rgb(BACKGROUND))
    canvas = FigureCanvasAgg(figure)
    if lines:
        _draw_lines(figure, lines, now)
    else:
        _draw_nothing_yet(figure)
    _draw_title(figure, canvas.get_renderer(), player)
    canvas.draw()
    image = Image.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
    return png_bytes(image.convert("RGB"), [style.colour for style in STYLES.values()])


def prepare() -> None:
    """Import matplotlib and load its fonts now, by drawing a picture and throwing it away: about a third of a
    second a process pays once. The bot calls this on a worker thread as it starts, so that its first ``/profile``
    is as quick as every other; the console, which draws one chart per process at most, does not."""
    rating_chart({}, player="")


def _draw_title(figure: Figure, renderer: RendererBase, player: str) -> None:
    """The player's name and TITLE_TAIL across the top, in the largest size from TITLE_SIZE down to SMALLEST_TITLE
    that fits the width; a name still too long is cut, with an ellipsis, until it fits."""
    name = _shown_name(player)
    room = WIDTH - 2 * TITLE_X
    title = figure.text(
        _fx(TITLE_X), _fy(TITLE_Y), "", color=_rgb(FOREGROUND), va="center", ha="left", parse_math=False,
        weight="bold",
    )  # fmt: skip
    for size in range(TITLE_SIZE, SMALLEST_TITLE - 1, -2):
        title.set_fontsize(_pt(size))
        title.set_text(f"{name}{TITLE_TAIL}")
        if title.get_window_extent(renderer).width <= room:
            return
    while len(name) > 1 and title.get_window_extent(renderer).width > room:
        name = name[:-1]
        title.set_text(f"{name.rstrip()}…{TITLE_TAIL}")


class Axis(NamedTuple):
    """The horizontal axis: each game type's points as (x, rating), the axis's limits and its label; ``by_game``
    when x is the game's number (1 for the first shown) rather than matplotlib's date number."""

    lines: dict[str, list[tuple[float, int]]]
    limits: tuple[float, float]
    label: str
    by_game: bool


def x_axis(lines: Mapping[str, list[tuple[float, int]]], now: float | None) -> Axis:
    """Time, or game numbers where the games span less than SHORT_SPAN (``now`` then plays no part: a game number
    has no today). Game numbers count every game type's games together, in the order played (a tie in time in
    STYLES order)."""
    from matplotlib.dates import date2num

    first = min(points[0][0] for points in lines.values())
    last = max(points[-1][0] for points in lines.values())
    if last - first < SHORT_SPAN:
        played = sorted(
            (when, order, game, index)
            for order, (game, points) in enumerate(lines.items())
            for index, (when, _rating) in enumerate(points)
        )
        number = {(game, index): k + 1 for k, (_when, _order, game, index) in enumerate(played)}
        numbered = {
            game: [(float(number[game, index]), rating) for index, (_when, rating) in enumerate(points)]
            for game, points in lines.items()
        }
        margin = max(0.5, len(played) * 0.03)
        label = f"Game, in the order played ({_days(first, last)}, UTC)"
        return Axis(numbered, (1 - margin, len(played) + margin), label, True)
    epoch = float(date2num(datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)))  # 0 unless date.epoch was changed
    dated = {game: [(epoch + when / 86400, rating) for when, rating in points] for game, points in lines.items()}
    start, end = _time_range(first, max(last, now) if now is not None else last)
    return Axis(dated, (epoch + start / 86400, epoch + end / 86400), "Date (UTC)", False)


def _days(first: float, last: float) -> str:
    """The dates from ``first`` to ``last`` (unix times, UTC): ``24 Nov 2025``, ``23-24 Nov 2025``,
    ``30 Nov - 2 Dec 2025``, ``31 Dec 2025 - 1 Jan 2026``."""
    start = datetime.datetime.fromtimestamp(first, datetime.UTC)
    end = datetime.datetime.fromtimestamp(last, datetime.UTC)
    if start.date() == end.date():
        return f"{start.day} {start:%b %Y}"
    if (start.year, start.month) == (end.year, end.month):
        return f"{start.day}-{end.day} {end:%b %Y}"
    if start.year == end.year:
        return f"{start.day} {start:%b} - {end.day} {end:%b %Y}"
    return f"{start.day} {start:%b %Y} - {end.day} {end:%b %Y}"


def _draw_lines(figure: Figure, lines: Mapping[str, list[tuple[float, int]]], now: float | None) -> None:
    """One line per game type with its markers, the axes with dates (or game numbers) and ratings, and the legend
    between the title and the plot."""
    from matplotlib.ticker import MaxNLocator

    left, top, right, bottom = PLOT_BOX
    axes = figure.add_axes(
        (_fx(left), _fy(bottom), (right - left) / WIDTH, (bottom - top) / HEIGHT), facecolor=_rgb(BACKGROUND)
    )
    axis = x_axis(lines, now)
    for number, (game, points) in enumerate(axis.lines.items()):
        style = STYLES[game]
        axes.plot(
            [x for x, _ in points], [rating for _, rating in points], color=_rgb(style.colour),
            linewidth=_pt(LINE_WIDTH), marker=style.marker, markersize=_pt(MARKER_SIZE),
            markeredgecolor=_rgb(BACKGROUND), markeredgewidth=_pt(1.5),
            markevery=_marked(points, (number + 1) / (len(lines) + 1)), solid_joinstyle="round",
            solid_capstyle="round", label=game,
        )  # fmt: skip
    axes.set_xlim(*axis.limits)
    axes.set_ylim(*_rating_range(lines))
    if axis.by_game:
        axes.xaxis.set_major_locator(MaxNLocator(nbins=6, integer=True, min_n_ticks=1))
    else:
        _date_ticks(axes)
    axes.yaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))
    axes.grid(True, color=_rgb(GRID), linewidth=_pt(1))
    axes.set_axisbelow(True)
    axes.tick_params(colors=_rgb(MUTED), labelcolor=_rgb(FOREGROUND), labelsize=_pt(TICK_SIZE), length=_pt(5))
    for spine in axes.spines.values():
        spine.set_color(_rgb(MUTED))
    axes.spines[["top", "right"]].set_visible(False)
    axes.set_xlabel(axis.label, fontsize=_pt(LABEL_SIZE), color=_rgb(MUTED), labelpad=_pt(6))
    axes.set_ylabel("Rating", fontsize=_pt(LABEL_SIZE), color=_rgb(MUTED), labelpad=_pt(8))
    figure.legend(
        loc="center left", bbox_to_anchor=(_fx(TITLE_X - 4), _fy(LEGEND_Y)), ncol=len(lines), frameon=False,
        fontsize=_pt(LEGEND_SIZE), labelcolor=_rgb(FOREGROUND), handlelength=2.0, handletextpad=0.5,
        columnspacing=1.4, borderaxespad=0, borderpad=0,
    )  # fmt: skip


def _date_ticks(axes: Axes) -> None:
    """Dates on the time axis, as short as they can be (``24 Nov``, ``Dec``, ``2026``)."""
    from matplotlib.dates import AutoDateLocator, ConciseDateFormatter

    locator = AutoDateLocator(minticks=3, maxticks=6, tz=datetime.UTC)
    axes.xaxis.set_major_locator(locator)
    axes.xaxis.set_major_formatter(
        ConciseDateFormatter(
            locator, tz=datetime.UTC, formats=["%Y", "%b", "%d %b", "%H:%M", "%H:%M", "%S"],
            zero_formats=["", "%Y", "%b", "%d %b", "%H:%M", "%H:%M"], show_offset=False,
        )
    )  # fmt: skip


def _marked(points: Sequence[tuple[float, int]], phase: float) -> list[int]:
    """Which points of a line carry its marker: the one nearest each of MARKERS evenly spread places along the axis
    (shifted by ``phase`` of a step, different per line, so lines running together show both shapes), and the last
    game."""
    first, last = points[0][0], points[-1][0]
    step = (last - first) / MARKERS
    times = [when for when, _ in points]
    chosen = {len(points) - 1}
    for k in range(MARKERS):
        target = first + (k + phase) * step
        index = bisect.bisect_left(times, target)
        nearest = min((i for i in (index - 1, index) if 0 <= i < len(times)), key=lambda i: abs(times[i] - target))
        chosen.add(nearest)
    return sorted(chosen)


def _draw_nothing_yet(figure: Figure) -> None:
    """No rated game: a clear sentence, and what will appear, centred where the plot would be."""
    middle = (PLOT_BOX[1] + PLOT_BOX[3]) / 2
    figure.text(
        0.5, _fy(middle - 22), "No rated games yet", ha="center", va="center", fontsize=_pt(TITLE_SIZE),
        color=_rgb(FOREGROUND), weight="bold",
    )  # fmt: skip
    figure.text(
        0.5, _fy(middle + 26), "Each game's line appears once a rated game ends.", ha="center",
        va="center", fontsize=_pt(LABEL_SIZE), color=_rgb(MUTED),
    )  # fmt: skip


def _time_range(first: float, last: float) -> tuple[float, float]:
    """The time axis in unix time: the first game to the last (or ``now``), with a little margin so markers at
    either end are drawn whole."""
    margin = (last - first) * 0.03
    return first - margin, last + margin


def _rating_range(lines: Mapping[str, list[tuple[float, int]]]) -> tuple[float, float]:
    """The rating axis: every point, at least MIN_RATING_SPAN, and room so markers are not cut at the edges."""
    low = min(rating for points in lines.values() for _, rating in points)
    high = max(rating for points in lines.values() for _, rating in points)
    if high - low < MIN_RATING_SPAN:
        middle = (low + high) / 2
        low, high = middle - MIN_RATING_SPAN / 2, middle + MIN_RATING_SPAN / 2
    margin = (high - low) * 0.08
    return low - margin, high + margin


def _shown_name(player: str) -> str:
    """``player`` as the title can draw it: characters the font lacks (emoji) dropped and spaces collapsed; "?"
    when nothing is left."""
    drawable = _drawable_characters()
    return " ".join("".join(ch for ch in player if ord(ch) in drawable).split()) or "?"


@functools.cache
def _drawable_characters() -> frozenset[int]:
    """The code points the title's font (matplotlib's default, its bundled DejaVu Sans) has glyphs for."""
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    return frozenset(FT2Font(font_manager.findfont(font_manager.FontProperties())).get_charmap())


def _rgb(colour: Colour) -> tuple[float, float, float]:
    return (colour[0] / 255, colour[1] / 255, colour[2] / 255)


def _pt(pixels: float) -> float:
    """Pixels as points at the figure's DPI (matplotlib sizes type and lines in points)."""
    return pixels * 72 / DPI


def _fx(x: float) -> float:
    """A pixel column as a figure fraction."""
    return x / WIDTH


def _fy(y: float) -> float:
    """A pixel row (from the top) as a figure fraction (from the bottom)."""
    return 1 - y / HEIGHT
