"""``pbm do`` end to end: wall time of a move command, process start included, per game.

Each sample is a fresh ``python -m bot do`` process that opens the database, loads the game, validates and
commits the move, and writes the board PNG, exactly as a user runs it. The peer, in the same run, is the bare
interpreter (``python -c pass``): the part of the time no code of ours can save. Bytecode is written as it is on a
user's machine (``PYTHONDONTWRITEBYTECODE`` is dropped for the children) and one warm-up run compiles it first.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import Row
from rules import registry

ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def _interpreter_start() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], env=ENV, check=True)
    return time.perf_counter() - start


def _do(db: Path, *words: str) -> tuple[dict, float]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "bot", "do", "--json", "--db", str(db), *words],
        capture_output=True,
        text=True,
        check=False,
        env=ENV,
    )
    elapsed = time.perf_counter() - start
    if not done.stdout.strip():
        raise RuntimeError(f"pbm do printed nothing: {done.stderr}")
    return json.loads(done.stdout), elapsed


def run(quick: bool = False) -> list[Row]:
    samples = 5 if quick else 20
    rows = []
    bare = statistics.median([_interpreter_start() for _ in range(samples)]) * 1000
    with tempfile.TemporaryDirectory() as tmp:
        _do(Path(tmp) / "warm-up.sqlite3", "druid help")
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
                    peer=f"`python -c pass` {bare:.0f} ms ({median / bare:.1f}x)",
                    note=f"{len(times)} moves, board PNG written",
                )
            )
    return rows
