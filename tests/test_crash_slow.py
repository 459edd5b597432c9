"""The store under ``kill -9``: a process plays moves as fast as it can and is killed at random moments, again and
again; afterwards ``pbm check`` finds every game equal to its replayed move log, and every move the player was
told about is in the log exactly once. Slow: run with ``python -m pytest -m slow``."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PLAYER = textwrap.dedent(
    """
    import asyncio, random, sys
    from bot.actions import Actions
    from data.store import Store

    async def main(db, seed):
        store = await Store.open(db)
        actions = Actions(store, seed_source=lambda: seed)
        rng = random.Random(seed)
        games = (await store.list_games(which="active", limit=10))[0]
        ids = [g.id for g in games]
        while len(ids) < 4:
            started = await actions.challenge(rng.choice(["druid", "drogo", "dragons", "backgammon"]),
                                              ["alice", "bob"], [], start=True)
            ids.append(started.game_id)
        while True:
            game_id = rng.choice(ids)
            listed = await actions.moves(game_id, limit=None)
            if not listed.ok or not listed.items:
                ids.remove(game_id)
                if not ids:
                    return
                continue
            done = await actions.move(game_id, listed.to_move, rng.choice(listed.items) + f"#{listed.move_number + 1}")
            if done.ok:
                print(f"{game_id} {done.move_number}", flush=True)

    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
    """
)


@pytest.mark.slow
def test_kill_nine_during_commits_loses_nothing_and_check_agrees(tmp_path: Path) -> None:
    db = tmp_path / "crash.sqlite3"
    script = tmp_path / "player.py"
    script.write_text(PLAYER)
    rng = random.Random(2026)
    told: dict[int, int] = {}
    kills = 0
    for round_number in range(40):
        process = subprocess.Popen(
            [sys.executable, str(script), str(db), str(round_number)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        time.sleep(rng.uniform(0.3, 1.2))
        process.send_signal(signal.SIGKILL)
        out, err = process.communicate()
        kills += process.returncode == -signal.SIGKILL
        assert "Traceback" not in err, err
        for line in out.splitlines():
            game_id, number = map(int, line.split())
            told[game_id] = max(told.get(game_id, 0), number)
    assert kills >= 35 and sum(told.values()) > 200, (kills, told)
    check = subprocess.run(
        [sys.executable, "-m", "bot", "check", "--db", str(db)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert "all sound" in check.stdout
    import sqlite3

    with sqlite3.connect(db) as raw:
        for game_id, number in told.items():
            stored = raw.execute("SELECT move_number FROM games WHERE id = ?", (game_id,)).fetchone()[0]
            assert stored >= number  # every move a player was told about is there
            seqs = [r[0] for r in raw.execute("SELECT seq FROM moves WHERE game_id = ? ORDER BY seq", (game_id,))]
            assert seqs == list(range(1, len(seqs) + 1))  # no action twice, none missing
