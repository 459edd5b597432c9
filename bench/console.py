"""``pbm do`` end to end: wall time of a move command, process start included, per game.

Each sample is a fresh ``python -m bot do`` process that opens the database, loads the game, validates and
commits the move, and writes the board PNG, exactly as a user runs it.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import Row
from rules import registry


def _do(db: Path, *words: str) -> tuple[dict, float]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "bot", "do", "--json", "--db", str(db), *words],
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if not done.stdout.strip():
        raise RuntimeError(f"pbm do printed nothing: {done.stderr}")
    return json.loads(done.stdout), elapsed


def run(quick: bool = False) -> list[Row]:
    samples = 5 if quick else 20
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in registry.names():
            db = Path(tmp) / f"{name}.sqlite3"
            game = registry.get(name)
            players = [f"p{i}" for i in range(game.min_players)]
            started, _ = _do(db, f"{name} challenge {' '.join(players)}")
            game_id = started["game_id"]
            times = []
            for _ in range(samples):
                listing, _ = _do(db, f"{name} moves {game_id}")
                if not listing["ok"] or not listing["items"]:
                    break
                result, elapsed = _do(db, f"{name} move {game_id} {listing['to_move']} {listing['items'][0]}")
                if not result["ok"]:
                    raise RuntimeError(f"{name}: {result['message']}")
                times.append(elapsed)
            median = statistics.median(times) * 1000
            rows.append(
                Row(
                    "console",
                    f"{name}: `pbm do` move, wall (median)",
                    median,
                    "ms",
                    "<= 200 ms",
                    median <= 200,
                    note=f"{len(times)} moves, board PNG written",
                )
            )
    return rows
