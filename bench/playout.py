"""Random playouts, the path an AI playout takes: from the start of a game to its end, each ply a forced move or a
uniformly random legal move, pushed. Measured for today's rules and for a baseline commit side by side.

Run as a script (``python bench/playout.py GAME PATH SECONDS SEED``) it plays seeded games of ``GAME`` for about
``SECONDS`` and prints one JSON line: plies, games, wall and CPU seconds of the playouts alone (imports excluded).
It imports nothing but ``rules``, so the same file runs against any tree put first on ``PYTHONPATH``: the
baseline is ``git archive <commit> rules`` extracted into a temporary folder. ``PATH`` is ``list`` (choose from
``list(state.legal_moves)``, the public API every version has) or ``fast`` (the state's ``random_move(rng)`` where
the version offers one, else the same as ``list``).

:func:`compare` runs baseline and current tree alternately (A B A B), so machine load hits both alike.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the code the speed issue measured (before the rules were made faster)
BASELINE = "9211617"
#: game -> (option words, number of players) measured
GAMES: dict[str, tuple[list[str], int]] = {
    "druid": (["-size=10"], 2),
    "drogo": (["-size=6"], 2),
    "dragons": ([], 2),
    "backgammon": ([], 2),
}


def play(name: str, path: str, seconds: float, seed: int) -> dict[str, float]:
    """Seeded random games of ``name`` for about ``seconds``; the plies made and the time they took."""
    from rules import registry

    game = registry.get(name)
    words, nplayers = GAMES[name]
    options = game.parse_options(words, nplayers)
    players = [f"p{i}" for i in range(nplayers)]
    plies = games = 0
    wall = cpu = 0.0
    while wall < seconds:
        rng = random.Random(seed + games)
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        state = game.new(options, players, seed + games)
        fast = getattr(state, "random_move", None) if path == "fast" else None
        while not state.is_over:
            move = state.forced_move()
            if move is None:
                move = fast(rng) if fast is not None else rng.choice(list(state.legal_moves))
            state.push(move)
            plies += 1
        wall += time.perf_counter() - start_wall
        cpu += time.process_time() - start_cpu
        games += 1
    return {"plies": plies, "games": games, "wall": wall, "cpu": cpu}


def _extract(commit: str, into: str) -> None:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "rules"], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", into], input=archive.stdout, check=True)


def _run(tree: str, name: str, path: str, seconds: float, seed: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": tree}
    command = [sys.executable, str(Path(__file__).resolve()), name, path, str(seconds), str(seed)]
    done = subprocess.run(command, check=True, capture_output=True, text=True, env=env, cwd=tree)
    return json.loads(done.stdout)


def compare(name: str, path: str, rounds: int, seconds: float) -> dict[str, float]:
    """Baseline and current tree, ``rounds`` times each, alternating; median plies/s (wall and CPU) of each."""
    rates: dict[str, dict[str, list[float]]] = {side: {"wall": [], "cpu": []} for side in ("base", "now")}
    with tempfile.TemporaryDirectory() as base:
        _extract(BASELINE, base)
        for round_ in range(rounds):
            for side, tree in (("base", base), ("now", str(ROOT))):
                out = _run(tree, name, path, seconds, 1000 * round_)
                rates[side]["wall"].append(out["plies"] / out["wall"])
                rates[side]["cpu"].append(out["plies"] / out["cpu"])
    result = {f"{side}_{clock}": statistics.median(rates[side][clock]) for side in rates for clock in ("wall", "cpu")}
    result["ratio_wall"] = result["now_wall"] / result["base_wall"]
    result["ratio_cpu"] = result["now_cpu"] / result["base_cpu"]
    return result


def rows(name: str, quick: bool, target: float | None) -> list:
    """Bench rows for ``name``: today's tree against :data:`BASELINE`, on both paths, as ratios (CPU-time rates
    decide; wall-time rates are in the note). ``target`` is the ratio the AI's path must reach."""
    from bench.common import Row

    rounds, seconds = (2, 0.5) if quick else (4, 2.0)
    out = []
    words, nplayers = GAMES[name]
    label = f"{name} {' '.join(words)}".strip()
    for path, what in (("fast", "AI playout path: state.random_move where offered"), ("list", "legal_moves list")):
        got = compare(name, path, rounds, seconds)
        note = (
            f"{label}, {nplayers} players; plies/s CPU {got['base_cpu']:,.0f} -> {got['now_cpu']:,.0f}, "
            f"wall {got['base_wall']:,.0f} -> {got['now_wall']:,.0f} (wall ratio {got['ratio_wall']:.2f}x); "
            f"{rounds} runs of {seconds:g} s each side, interleaved"
        )
        aimed = target if path == "fast" else None  # the target is the AI's path; the list path is for reference
        ok = None if aimed is None else got["ratio_cpu"] >= aimed
        goal = "" if aimed is None else f">= {aimed:g}x"
        out.append(Row(name, f"random plies/s, {what}", got["ratio_cpu"], "x", goal, ok, f"rules at {BASELINE}", note))
    return out


if __name__ == "__main__":
    game_name, how, budget, first_seed = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
    print(json.dumps(play(game_name, how, budget, first_seed)))
