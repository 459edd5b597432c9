"""``/profile`` with its chart (issue 14), end to end through the actions and the chart: a busy player's profile
(every game's rating, rank, results, streak, time per move, variants), their rating series, and the chart drawn
from it, by the function the Discord command calls (:func:`bot.discord.ratings.profile_with_chart`: the chart on a
worker thread while the profile is read); not Discord itself.

**The database.** 10,000 players and 40,000 finished games among them (copies of a real game of each kind, as the
ratings bench builds them), plus 2,000 rated games of one busy player: 500 in each of the four games, Druid and
Drogo in two variants each, against random opponents, spread over two years. Those 2,000 games have their move
logs (each its template's moves, an hour or so apart, each with events as long as a real move's: ``time per move``
reads them); the others have none (no query of a profile reads them). Every game is rated by ``pbm ratings rebuild``.

**What is timed.** Three numbers: warm, the median of repeated profiles in one process that has drawn a chart
before (what every ``/profile`` but the first costs); and the first ``/profile`` of a fresh process in which
:func:`render.chart.prepare` ran at start, as the bot does (its database connection new, its caches cold). Both
are wall time on this shared machine, with the CPU time beside them. And the query of the time per move, most of
a profile's database time, side by side (interleaved) with the window over the logs it replaced. The warm profile
is interleaved with a baseline that draws the chart after reading the profile instead of meanwhile.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import Row
from bench.ratings import KINDS, NOW, _migrate, _seated, _template
from bot.actions import Actions
from bot.discord.ratings import profile_with_chart
from data.connection import drive
from data.store import Store
from render.chart import rating_chart

PLAYERS = 10_000
BACKGROUND = 40_000
SUBJECT = "alexandra"
#: the busy player's games: (game, option words, players) and how many of each
SUBJECT_GAMES = (
    (("backgammon", (), 2), 500),
    (("dragons", (), 2), 500),
    (("drogo", ("-size=4",), 2), 300),
    (("drogo", ("-size=4",), 4), 200),
    (("druid", ("-size=6",), 2), 350),
    (("druid", ("-hex",), 3), 150),
)
TWO_YEARS = 730 * 86400.0
#: a logged move's events, as long as a real one's (a Backgammon move and the next roll: about 150 characters)
EVENTS = (
    '[{{"kind":"move","text":"{0} played 13-9,13-8","player":0,"data":{{"play":"13-9,13-8"}}}},'
    '{{"kind":"roll","text":"the next player rolled 5-4","player":1,"data":{{"dice":[5,4]}}}}]'
)
TARGET_MS = 300
#: the time-per-move query before: each move's gap from a window over its game's log
WINDOW_MOVE_TIMES = (
    "SELECT type, SUM(gap), COUNT(*) FROM ("
    " SELECT g.type AS type, m.player_id AS mover, m.auto AS made, m.text AS text, m.created_at"
    " - COALESCE(LAG(m.created_at) OVER (PARTITION BY m.game_id ORDER BY m.seq), g.created_at) AS gap"
    " FROM game_players p JOIN games g ON g.id = p.game_id JOIN moves m ON m.game_id = p.game_id"
    " WHERE p.player_id = ?) AS timed"
    " WHERE mover = ? AND made = 0 AND text NOT IN ('resign', 'decline', 'timeout', 'draw', 'undo')"
    " GROUP BY type"
)


def build(path: Path, background: int) -> dict[str, int]:
    """The database (see the module docstring); the count of what it holds."""
    drive(_migrate(path))
    kinds = {kind for kind, _ in SUBJECT_GAMES} | set(KINDS)
    templates = {kind: _template(*kind, seed) for seed, kind in enumerate(sorted(kinds), start=3)}
    rng = random.Random(17)
    people = [f"p{i:05d}" for i in range(PLAYERS)]
    plan: list[tuple[tuple[Any, ...], list[str], float, bool]] = []
    for number in range(background):
        kind = KINDS[number % len(KINDS)]
        plan.append((kind, rng.sample(people, kind[2]), NOW - TWO_YEARS + number * TWO_YEARS / background, False))
    for kind, count in SUBJECT_GAMES:
        for _ in range(count):
            seats = [SUBJECT, *rng.sample(people, kind[2] - 1)]
            rng.shuffle(seats)
            plan.append((kind, seats, rng.uniform(NOW - TWO_YEARS, NOW), True))
    plan.sort(key=lambda game: game[2])
    games, seats, moves = [], [], []
    for game_id, (kind, players, ended, logged) in enumerate(plan, start=1):
        template = templates[kind]
        plies = template["move_number"]
        started = ended - plies * 3600.0
        games.append(
            (
                game_id, template["type"], template["options"], json.dumps(players), game_id, "finished", plies,
                plies if logged else 0, None, _seated(template["snapshot"], players), template["outcome"], started,
                ended, template["clock"],
            )
        )  # fmt: skip
        seats += [(game_id, seat, player) for seat, player in enumerate(players)]
        if logged:
            at = started
            for ply in range(plies):
                at += rng.uniform(60.0, 7200.0)
                mover = players[ply % len(players)]
                moves.append((game_id, ply + 1, ply + 1, mover, "13-9,13-8", EVENTS.format(mover), 0, at))
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA synchronous=OFF")
        db.executemany("INSERT INTO players (id, created_at) VALUES (?, ?)", [(p, NOW) for p in [*people, SUBJECT]])
        db.executemany(
            "INSERT INTO games (id, type, options, players, seed, status, move_number, log_length, to_move, snapshot,"
            " outcome, created_at, updated_at, clock) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            games,
        )
        db.executemany("INSERT INTO game_players (game_id, seat, player_id) VALUES (?, ?, ?)", seats)
        db.executemany(
            "INSERT INTO moves (game_id, seq, number, player_id, text, events, auto, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            moves,
        )
        db.commit()
    store = drive(Store.open(path, direct=True))
    try:
        drive(Actions(store, think=None).rebuild_ratings())
    finally:
        drive(store.close())
    with sqlite3.connect(path) as db:
        db.execute("ANALYZE")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        counted = {
            "games": len(plan),
            "moves": len(moves),
            "ratings": db.execute("SELECT COUNT(*) FROM ratings").fetchone()[0],
            "subject": db.execute("SELECT COUNT(*) FROM rating_changes WHERE player_id = ?", (SUBJECT,)).fetchone()[0],
        }
    return counted


async def one_after_the_other(actions: Actions, player: str, now: float) -> tuple[Any, bytes | None]:
    """The baseline: the profile read, then the chart drawn (on a worker thread), as a plain command would."""
    result = await actions.profile(player)
    series = await actions.rating_series(player)
    return result, await asyncio.to_thread(rating_chart, series, player=player, now=now)


async def _warm(path: Path, repeat: int) -> tuple[dict[str, list[float]], dict[str, Any], int]:
    """Wall and CPU seconds of ``repeat`` profiles in this process, after one untimed, interleaved with the
    baseline: ``{"ours": walls, "ours cpu": ..., "baseline": walls, "baseline cpu": ...}``."""
    store = await Store.open(path)
    try:
        actions = Actions(store, think=None)
        result, png = await profile_with_chart(actions, SUBJECT, NOW)
        await one_after_the_other(actions, SUBJECT, NOW)
        times: dict[str, list[float]] = {"ours": [], "ours cpu": [], "baseline": [], "baseline cpu": []}
        for _ in range(repeat):
            for name, way in (("ours", profile_with_chart), ("baseline", one_after_the_other)):
                wall, cpu = time.perf_counter(), time.process_time()
                await way(actions, SUBJECT, NOW)
                times[name].append(time.perf_counter() - wall)
                times[f"{name} cpu"].append(time.process_time() - cpu)
        assert png is not None
        return times, result.data, len(png)
    finally:
        await store.close()


#: a fresh process: the store opened and prepare() run as the bot starts, then one /profile timed
FIRST = """
import asyncio, json, time
from pathlib import Path
import render.chart
from bench.profile import NOW, SUBJECT
from bot.actions import Actions
from bot.discord.ratings import profile_with_chart
from data.store import Store

async def main():
    store = await Store.open(Path({path!r}))
    render.chart.prepare()
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        await profile_with_chart(Actions(store, think=None), SUBJECT, NOW)
        print(json.dumps([time.perf_counter() - wall, time.process_time() - cpu]))
    finally:
        await store.close()

asyncio.run(main())
"""


def _first(path: Path, repeat: int) -> tuple[list[float], list[float]]:
    walls, cpus = [], []
    for _ in range(repeat):
        done = subprocess.run(
            [sys.executable, "-c", FIRST.format(path=str(path))], capture_output=True, text=True, check=True
        )
        wall, cpu = json.loads(done.stdout.strip().splitlines()[-1])
        walls.append(wall)
        cpus.append(cpu)
    return walls, cpus


def _move_times(path: Path, repeat: int) -> tuple[list[float], list[float]]:
    """Seconds of the store's time-per-move query and of the window it replaced, interleaved; they must agree."""
    store = drive(Store.open(path, direct=True))
    ours, window = [], []
    try:
        with sqlite3.connect(path) as raw:
            for _ in range(repeat):
                started = time.perf_counter()
                found = drive(store.move_times(SUBJECT))
                ours.append(time.perf_counter() - started)
                started = time.perf_counter()
                before = raw.execute(WINDOW_MOVE_TIMES, (SUBJECT, SUBJECT)).fetchall()
                window.append(time.perf_counter() - started)
                expected = {str(t): (float(s), int(n)) for t, s, n in before}
                assert found.keys() == expected.keys()
                assert all(math.isclose(found[t][0], expected[t][0]) and found[t][1] == expected[t][1] for t in found)
    finally:
        drive(store.close())
    return ours, window


def _ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


def run(quick: bool = False) -> list[Row]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "profile.sqlite3"
        started = time.perf_counter()
        held = build(path, 5_000 if quick else BACKGROUND)
        built = time.perf_counter() - started
        size = path.stat().st_size / 1e6
        times, data, png = asyncio.run(_warm(path, 5 if quick else 20))
        first_walls, first_cpus = _first(path, 3 if quick else 7)
        ours, window = _move_times(path, 3 if quick else 10)
    games = {section["game"]: section["games"] for section in data["games"]}
    felt = (
        f"{SUBJECT}: {held['subject']:,} rated games ({', '.join(f'{n} {g}' for g, n in games.items())}), "
        f"{held['moves']:,} moves logged; {held['games']:,} finished games, {held['ratings']:,} ratings; "
        f"{size:.0f} MB SQLite file built in {built:.0f} s"
    )
    warm, walls, baseline = _ms(times["ours"]), times["ours"], _ms(times["baseline"])
    first = _ms(first_walls)
    return [
        Row(
            "profile", "/profile with its chart, warm, wall (median)", warm, "ms", f"<= {TARGET_MS} ms",
            warm <= TARGET_MS, f"the chart after the profile {baseline:.0f} ms ({warm / baseline:.2f}x)",
            f"CPU {_ms(times['ours cpu']):.0f} ms; {len(walls)} runs interleaved with the baseline; chart "
            f"{png / 1024:.0f} KB; {felt}",
        ),
        Row(
            "profile", "/profile with its chart, first after prepare() at the process's start, wall (median)", first,
            "ms", f"<= {TARGET_MS} ms", first <= TARGET_MS, note=(
                f"{len(first_walls)} fresh processes, walls {', '.join(f'{w * 1000:.0f}' for w in sorted(first_walls))}"
                f" ms; CPU {_ms(first_cpus):.0f} ms; the database connection new"
            ),
        ),
        Row(
            "profile", "time per move of the busy player (median)", _ms(ours), "ms", "", None,
            f"window over the logs {_ms(window):.0f} ms ({_ms(ours) / _ms(window):.2f}x)",
            f"{held['moves']:,} moves of their games; {len(ours)} runs of each, interleaved, the same sums",
        ),
    ]  # fmt: skip
