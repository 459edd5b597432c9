"""The store at scale: commit a move and load a game in a file holding 10,000 games and 1,000,000 logged moves.

The file is filled through the real schema (``Store.open`` runs the migrations), with bulk inserts for speed;
every game carries a real mid-game snapshot of a registered game, so JSON sizes are honest. Loading a game is
timed for a short game and for one with a 20,000-move log, to show that the cost does not grow with length.

The peer, on the same file in the same run, is the standard library's ``sqlite3`` doing the same write (the
guarded snapshot update and the log row, one ``BEGIN IMMEDIATE`` transaction, the same pragmas) and the same read,
synchronously and with no JSON parsing: the floor that aiosqlite's thread hop, our guard and the rules' loading
sit on.
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
from typing import TYPE_CHECKING

from bench.baseline import ROOT, Worker, extract_baseline
from bench.common import Row
from bot.actions import Actions
from data.store import LogEntry, Store
from rules import registry
from rules.base import GameState

if TYPE_CHECKING:
    from bench.long_games import LongGame

GAMES = 10_000
MOVES = 1_000_000
LONG_GAME_MOVES = 20_000


def sample_state(moves: int = 40) -> GameState:
    """A real position some moves into a random game of the first game whose engine is present."""
    rng = random.Random(7)
    for name in registry.names():
        try:
            game = registry.get(name)
        except ImportError:
            continue
        options = game.parse_options([], game.min_players)
        state = game.new(options, [f"player{i}" for i in range(game.min_players)], 1)
        for _ in range(moves):
            if state.is_over:
                break
            forced = state.forced_move()
            legal = list(state.legal_moves) if forced is None else [forced]
            if not legal:
                break
            state.push(rng.choice(legal))
        return state
    raise RuntimeError("no game engine is installed")


def build(path: Path, games: int, moves: int, snapshot: dict) -> None:
    """Fill a fresh database: ``games`` games, ``moves`` log rows spread over them, game 1 the longest."""
    asyncio.run(_migrate(path))
    text = json.dumps(snapshot, separators=(",", ":"))
    now = time.time()
    per_game = (moves - LONG_GAME_MOVES) // (games - 1)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=OFF")
        db.executemany("INSERT INTO players (id, created_at) VALUES (?, ?)", [(f"player{i}", now) for i in range(200)])
        rows = []
        for game_id in range(1, games + 1):
            length = LONG_GAME_MOVES if game_id == 1 else per_game
            rows.append(
                (
                    game_id,
                    snapshot["game"],
                    "{}",
                    '["player0","player1"]',
                    1,
                    "active",
                    length,
                    length,
                    "player0",
                    text,
                    now,
                    now,
                )
            )
        db.executemany(
            "INSERT INTO games (id, type, options, players, seed, status, move_number, log_length, to_move, snapshot,"
            " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        db.executemany(
            "INSERT INTO game_players (game_id, seat, player_id) VALUES (?, ?, ?)",
            [(g, s, "player0" if s == 0 else f"player{1 + g % 199}") for g in range(1, games + 1) for s in (0, 1)],
        )

        def log_rows():
            for game_id in range(1, games + 1):
                length = LONG_GAME_MOVES if game_id == 1 else per_game
                for seq in range(1, length + 1):
                    yield (game_id, seq, seq, "player0", "c3", "[]", 0, now)

        db.executemany(
            "INSERT INTO moves (game_id, seq, number, player_id, text, events, auto, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            log_rows(),
        )


async def _migrate(path: Path) -> None:
    await (await Store.open(path)).close()


async def measure(path: Path, games: int, samples: int) -> dict[str, list[float]]:
    store = await Store.open(path)
    rng = random.Random(3)
    times: dict[str, list[float]] = {
        "commit": [], "load_short": [], "load_long": [], "games_all": [], "games_next": [], "choices": []
    }  # fmt: skip
    actions = Actions(store)
    try:
        for _ in range(samples):
            game_id = rng.randrange(2, games + 1)
            start = time.perf_counter()
            row = await store.load_game(game_id)
            state = registry.load_state(row.snapshot)
            times["load_short"].append(time.perf_counter() - start)

            start = time.perf_counter()
            row = await store.load_game(1)
            registry.load_state(row.snapshot)
            times["load_long"].append(time.perf_counter() - start)

            row = await store.load_game(game_id)
            start = time.perf_counter()
            await store.commit_actions(
                game_id,
                row.log_length,
                [LogEntry(row.move_number + 1, "player0", "c3", [{"kind": "place", "text": "player0 played c3"}])],
                snapshot=state.to_json(),
                move_number=row.move_number + 1,
                status="active",
                to_move="player1",
                outcome=None,
            )
            times["commit"].append(time.perf_counter() - start)

            for key, call in (
                ("games_all", lambda: actions.games("player0", "all")),
                ("games_next", lambda: actions.games("player0", "next")),
                ("choices", lambda: store.game_choices("player0", "1")),
            ):
                start = time.perf_counter()
                await call()
                times[key].append(time.perf_counter() - start)
    finally:
        await store.close()
    return times


def measure_sqlite3(path: Path, games: int, samples: int) -> dict[str, list[float]]:
    """The same commit and load as :func:`measure`, with the standard library's synchronous ``sqlite3``."""
    db = sqlite3.connect(path, isolation_level=None)
    for pragma in ("journal_mode=WAL", "foreign_keys=ON", "synchronous=FULL", "busy_timeout=10000"):
        db.execute(f"PRAGMA {pragma}")
    rng = random.Random(5)
    times: dict[str, list[float]] = {"commit": [], "load_short": []}
    try:
        for _ in range(samples):
            game_id = rng.randrange(2, games + 1)
            start = time.perf_counter()
            snapshot, log_length = db.execute(
                "SELECT snapshot, log_length FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            times["load_short"].append(time.perf_counter() - start)
            start = time.perf_counter()
            db.execute("BEGIN IMMEDIATE")
            updated = db.execute(
                "UPDATE games SET snapshot = ?, move_number = move_number + 1, log_length = log_length + 1,"
                " updated_at = ? WHERE id = ? AND log_length = ?",
                (snapshot, time.time(), game_id, log_length),
            )
            assert updated.rowcount == 1
            db.execute(
                "INSERT INTO moves (game_id, seq, number, player_id, text, events, auto, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, log_length + 1, log_length + 1, "player0", "c3", "[]", 0, time.time()),
            )
            db.execute("COMMIT")
            times["commit"].append(time.perf_counter() - start)
    finally:
        db.close()
    return times


def run(quick: bool = False) -> list[Row]:
    games, moves, samples = (1_000, 100_000, 100) if quick else (GAMES, MOVES, 500)
    state = sample_state()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite3"
        started = time.perf_counter()
        build(path, games, moves, state.to_json())
        built = time.perf_counter() - started
        size_mb = path.stat().st_size / 1e6
        times = asyncio.run(measure(path, games, samples))
        peer = measure_sqlite3(path, games, samples)
    scale = f"{games:,} games, {moves:,} moves, {size_mb:.0f} MB file, {state.game.name} snapshots"
    commit = statistics.median(times["commit"]) * 1000
    short = statistics.median(times["load_short"]) * 1000
    long = statistics.median(times["load_long"]) * 1000
    peer_commit = statistics.median(peer["commit"]) * 1000
    peer_load = statistics.median(peer["load_short"]) * 1000
    return [
        Row(
            "store",
            "commit a move (median)",
            commit,
            "ms",
            "<= 5 ms",
            commit <= 5,
            peer=f"stdlib sqlite3 {peer_commit:.3f} ms ({commit / peer_commit:.1f}x)",
            note=scale,
        ),
        Row("store", "commit a move (p95)", sorted(times["commit"])[int(0.95 * samples)] * 1000, "ms"),
        Row(
            "store",
            "load a game, ~100-move log (median)",
            short,
            "ms",
            "<= 2 ms",
            short <= 2,
            peer=f"stdlib sqlite3 row read {peer_load:.3f} ms ({short / peer_load:.1f}x)",
            note="row read and the rules state rebuilt from its snapshot",
        ),
        Row(
            "store",
            f"load a game, {LONG_GAME_MOVES:,}-move log (median)",
            long,
            "ms",
            "<= 2 ms",
            long <= 2,
            note=f"long/short = {long / short:.2f}",
        ),
        Row(
            "store",
            "games of a player in every game (median)",
            statistics.median(times["games_all"]) * 1000,
            "ms",
            note=f"/games, `games player0 all`: the first page of {games:,} games, and how many more",
        ),
        Row(
            "store",
            "games waiting on that player (median)",
            statistics.median(times["games_next"]) * 1000,
            "ms",
            note="/games waiting, `games player0 next`",
        ),
        Row(
            "store",
            "autocomplete of a game number (median)",
            statistics.median(times["choices"]) * 1000,
            "ms",
            note="every keystroke in /move's game option: one indexed query",
        ),
        Row("store", "build the file", built, "s"),
        *long_game_rows(quick),
    ]


# ---- long games, beside version 1 ------------------------------------------------------------------------------


def _timed_moves(workers: list[Worker], dbs: dict, games: list[tuple[dict, tuple[str, ...]]]) -> list[dict]:
    """Play each game's moves (``(ids by worker, move texts)``) through the actions on every worker, five at a
    time, alternating workers and games (A B A B ...), so that machine load hits every game and worker alike."""
    out: list[dict[str, list[tuple[float, float]]]] = [{w.name: [] for w in workers} for _ in games]
    for first in range(0, max(len(moves) for _, moves in games), 5):
        for (ids, moves), times in zip(games, out, strict=True):
            for worker in workers:
                batch = moves[first : first + 5]
                answer = worker.call("moves", db=dbs[worker.name], game_id=ids[worker.name], moves=batch)
                times[worker.name] += list(zip(answer["walls"], answer["cpus"], strict=True))
    return out


def _build(worker: Worker, dbs: dict, game: LongGame, moves: tuple[str, ...]) -> int:
    """A new game of ``game``'s kind on ``worker``'s database, ``moves`` appended through the store: its id."""
    built = worker.call(
        "build", db=dbs[worker.name], game=game.game, options=list(game.options), players=list(game.players),
        seed=game.seed, moves=list(moves),
    )  # fmt: skip
    return built["game_id"]


def _med(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(p[0] for p in pairs) * 1000, statistics.median(p[1] for p in pairs) * 1000


def _versus_row(metric: str, pairs: dict[str, list[tuple]], feel: str, target: str = "", limit: float | None = None):
    ours_wall, ours_cpu = _med(pairs["ours"])
    peer = ""
    if "v1" in pairs:
        v1_wall, v1_cpu = _med(pairs["v1"])
        peer = f"version 1: {v1_wall:.2f} ms wall, {v1_cpu:.2f} ms CPU (ours/v1 {ours_wall / v1_wall:.2f})"
    ok = None if limit is None else ours_wall <= limit
    return Row("store", metric, ours_wall, "ms", target, ok, peer, f"{feel}; CPU {ours_cpu:.2f} ms")


def long_game_rows(quick: bool = False) -> list[Row]:
    """Moves early and late in a long Drogo game, ``history`` and ``show #n`` on a 20,000-move log, and loading
    the largest boards, each measured on version 1 and on ours in the same run."""
    from bench import long_games

    drogo = long_games.drogo_late(1500 if quick else 6000)
    games = [drogo, long_games.druid_largest(), long_games.dragons_largest(), long_games.druid_tower(
        4000 if quick else 20_000)]  # fmt: skip
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        workers = [Worker.start("ours", ROOT)]
        baseline = extract_baseline(Path(tmp) / "v1")
        if baseline is not None:
            workers.append(Worker.start("v1", baseline))
        try:
            dbs = {w.name: str(Path(tmp) / f"{w.name}.sqlite3") for w in workers}
            ids: dict[str, dict[str, int]] = {}
            late_ids: dict[str, int] = {}
            for game in games:
                ids[game.label] = {}
                for worker in workers:
                    if game is drogo:  # two games: one at move 40, one 20 moves from the end, played in turns
                        late_ids[worker.name] = _build(worker, dbs, game, game.moves[:-20])
                    head = game.moves[:40] if game is drogo else game.moves
                    ids[game.label][worker.name] = _build(worker, dbs, game, head)
            early, late = _timed_moves(
                workers, dbs, [(ids[drogo.label], drogo.moves[40:60]), (late_ids, drogo.moves[-20:])]
            )
            ids[drogo.label] = late_ids  # shown below: the long game
            n = len(drogo.moves)
            rows.append(_versus_row("Drogo 12x12: a move at move 50", early, "a move (one command to its commit)"))
            (late_wall, late_cpu), (early_wall, early_cpu) = _med(late["ours"]), _med(early["ours"])
            wall, cpu = late_wall / early_wall, late_cpu / early_cpu
            late_row = _versus_row(f"Drogo 12x12: a move at move {n - 10}", late, "a move, late in a long game")
            rows.append(
                Row(late_row.group, late_row.metric, late_row.value, "ms", "late/early <= 1.5", max(wall, cpu) <= 1.5,
                    late_row.peer, late_row.note + f"; late/early {wall:.2f} wall, {cpu:.2f} CPU (moves interleaved)")
            )  # fmt: skip
            samples = 3 if quick else 5
            for game in games:
                label = game.label
                shown = {w.name: [] for w in workers}
                for _ in range(samples):
                    for worker in workers:
                        a = worker.call("show", db=dbs[worker.name], game_id=ids[label][worker.name])
                        shown[worker.name].append((a["wall"], a["cpu"]))
                rows.append(_versus_row(f"load and show: {label} ({len(game.moves):,} moves)", shown,
                                        "the board shown (/board, show), before drawing"))  # fmt: skip
            tower = games[-1]
            for op, at in (("history", None), ("show", len(tower.moves) // 2)):
                pairs = {w.name: [] for w in workers}
                for _ in range(samples):
                    for worker in workers:
                        a = worker.call(op, db=dbs[worker.name], game_id=ids[tower.label][worker.name], at=at)
                        pairs[worker.name].append((a["wall"], a["cpu"]))
                if op == "history":
                    rows.append(_versus_row(f"history of a {len(tower.moves):,}-move game", pairs,
                                            "/history, a listing", "<= 300 ms", 300.0))  # fmt: skip
                else:
                    rows.append(_versus_row(f"show #{at:,} of a {len(tower.moves):,}-move game", pairs,
                                            "/board at:, a replay of the log"))  # fmt: skip
        finally:
            for worker in workers:
                worker.stop()
    return rows
