"""The profile's rating chart (render.chart): a busy player, four game types of 500 rated games each.

``/profile`` with its chart should answer within 300 ms, so the chart must take well under that. Three numbers
matter, the first two measured in fresh processes (the interpreter's own start left out): the first chart a
process draws, which also pays matplotlib's import; the first chart after :func:`render.chart.prepare` ran as the
process started (what the bot does); and every chart after that.

The encoder is compared side by side, interleaved (A B A B): the chart goes through the boards' palette encoder
(render.palette); the baseline writes the same picture as a truecolour PNG with Pillow at zlib level 6, which is
what matplotlib's own ``savefig`` produces.
"""

from __future__ import annotations

import io
import json
import random
import statistics
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from PIL import Image

import render.chart
from bench.common import Row, timed

GAMES = ("Backgammon", "Dragons", "Druid", "Drogo")
NOW = 1_764_000_000.0
DAY = 86400.0


def busy_series(games: int = 500) -> dict[str, list[tuple[float, int]]]:
    """Four game types, ``games`` rated games each over two years: a seeded random walk from 1500 per game."""
    series = {}
    for k, game in enumerate(GAMES):
        rng = random.Random(k)
        rating, points = 1500, []
        for when in sorted(rng.uniform(NOW - 730 * DAY, NOW - k * DAY) for _ in range(games)):
            rating += rng.randint(-25, 27)
            points.append((when, rating))
        series[game] = points
    return series


#: run in a fresh interpreter: the series built first, then ({prepare}) render.chart imported and one chart
#: drawn, timed
FIRST = """
import json, time
from bench.chart import busy_series, NOW
series = busy_series()
{prepare}
wall, cpu = time.perf_counter(), time.process_time()
from render.chart import rating_chart
data = rating_chart(series, player="Alexandra the Great", now=NOW)
print(json.dumps([time.perf_counter() - wall, time.process_time() - cpu, len(data)]))
"""
PREPARED = "import render.chart; render.chart.prepare()"


def truecolour_png(image: Image.Image, exact: Sequence[tuple[int, int, int]] = ()) -> bytes:
    """What matplotlib's ``savefig`` would write: every colour kept, zlib level 6. ``exact`` needs nothing."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=6)
    return buffer.getvalue()


@contextmanager
def truecolour() -> Iterator[None]:
    """render.chart encoding with :func:`truecolour_png`, drawing exactly as it does."""
    saved = render.chart.png_bytes
    render.chart.png_bytes = truecolour_png
    try:
        yield
    finally:
        render.chart.png_bytes = saved


def _first(repeat: int) -> dict[str, list[tuple[float, float]]]:
    """(wall, CPU) seconds of the first chart in ``repeat`` fresh processes, "cold" and "prepared" alternating."""
    found: dict[str, list[tuple[float, float]]] = {"cold": [], "prepared": []}
    for _ in range(repeat):
        for kind, prepare in (("cold", ""), ("prepared", PREPARED)):
            code = FIRST.format(prepare=prepare)
            done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
            wall, cpu, _ = json.loads(done.stdout.strip().splitlines()[-1])
            found[kind].append((wall, cpu))
    return found


def _ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


def run(quick: bool = False) -> list[Row]:
    series = busy_series()

    def draw() -> bytes:
        return render.chart.rating_chart(series, player="Alexandra the Great", now=NOW)

    def empty() -> bytes:
        return render.chart.rating_chart({}, player="Alexandra the Great", now=NOW)

    first = _first(3 if quick else 7)
    cold_walls, cold_cpus = [w for w, _ in first["cold"]], [c for _, c in first["cold"]]
    ready_walls, ready_cpus = [w for w, _ in first["prepared"]], [c for _, c in first["prepared"]]
    size = len(draw())  # the first in this process: matplotlib imported here, outside the warm samples
    with truecolour():
        true_size = len(draw())
    ours, theirs, nothing = [], [], []
    for _ in range(5 if quick else 25):
        ours.append(timed(draw))
        with truecolour():
            theirs.append(timed(draw))
        nothing.append(timed(empty))
    wall, cpu = _ms([w for w, _ in ours]), _ms([c for _, c in ours])
    true_wall, true_cpu = _ms([w for w, _ in theirs]), _ms([c for _, c in theirs])
    cold_wall, cold_cpu = _ms(cold_walls), _ms(cold_cpus)
    felt = "a busy /profile's chart: 4 game types x 500 rated games"
    return [
        Row(
            "chart", "rating chart, first in a process (matplotlib import included), wall (median)", cold_wall, "ms",
            "<= 300 ms", cold_wall <= 300, note=(
                f"{felt}; {len(cold_walls)} fresh processes, walls "
                f"{', '.join(f'{w * 1000:.0f}' for w in sorted(cold_walls))} ms; CPU {cold_cpu:.0f} ms; paid once "
                "per process"
            ),
        ),
        Row(
            "chart", "rating chart, first after prepare() at the process's start, wall (median)", _ms(ready_walls),
            "ms", "<= 100 ms", _ms(ready_walls) <= 100, note=(
                f"what the bot's first /profile waits for: prepare() runs on a worker thread as the bot starts; "
                f"walls {', '.join(f'{w * 1000:.0f}' for w in sorted(ready_walls))} ms; CPU {_ms(ready_cpus):.0f} ms"
            ),
        ),
        Row(
            "chart", "rating chart, warm, wall (median)", wall, "ms", "<= 100 ms", wall <= 100,
            "truecolour PNG (savefig's)", f"{felt}; CPU {cpu:.1f} ms; {len(ours)} draws interleaved with the baseline",
        ),
        Row(
            "chart", "rating chart, warm: time ours/truecolour (CPU)", cpu / true_cpu, "x", "<= 1", cpu <= true_cpu,
            "truecolour PNG (savefig's)", f"palette {cpu:.1f} ms CPU ({wall:.1f} wall), truecolour {true_cpu:.1f} ms "
            f"CPU ({true_wall:.1f} wall)",
        ),
        Row(
            "chart", "rating chart PNG size", size / 1024, "KB", "<= 100 KB", size <= 100 * 1024,
            "truecolour PNG (savefig's)", f"truecolour {true_size / 1024:.1f} KB ({size / true_size:.2f}x)",
        ),
        Row(
            "chart", "no rated games yet picture, warm, wall (median)", _ms([w for w, _ in nothing]), "ms",
            "<= 100 ms", _ms([w for w, _ in nothing]) <= 100, note=f"CPU {_ms([c for _, c in nothing]):.1f} ms",
        ),
    ]  # fmt: skip
