"""``pbm do`` end to end, process start included, as a user runs it: ``show`` (the board of a game, its picture
already on disk) and a move that writes its board PNG, per game.

Each sample is a fresh ``python -m bot do`` process. Three commands run in turn, sample after sample (A B C A B C
...), so load on the machine hits all alike: the bare interpreter (``python -c pass``, the part no code of ours can
save), ours, and version 1 (extracted from git, see :mod:`bench.baseline`). Wall time and the child's own CPU time
(user + system, from ``wait4``) are both reported; the targets are ratios to the bare interpreter in the same run.
Bytecode is written as on a user's machine, and one warm-up run per tree compiles it first.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.baseline import ROOT, extract_baseline
from bench.common import Row
from rules import registry

ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


@dataclass
class Timings:
    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)

    def add(self, wall: float, cpu: float) -> None:
        self.walls.append(wall)
        self.cpus.append(cpu)

    @property
    def wall_ms(self) -> float:
        return statistics.median(self.walls) * 1000

    @property
    def cpu_ms(self) -> float:
        return statistics.median(self.cpus) * 1000


def _process(args: list[str], env: dict[str, str], cwd: str) -> tuple[str, float, float]:
    """Run a child; its stdout, wall seconds and CPU seconds (its own user + system time)."""
    start = time.perf_counter()
    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=cwd, text=True)
    assert child.stdout is not None
    out = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return out, time.perf_counter() - start, usage.ru_utime + usage.ru_stime


@dataclass
class Tree:
    """One version of pbm to run: its source folder on ``PYTHONPATH`` and its own database folder."""

    name: str
    path: Path
    data: Path

    def do(self, db: str, *words: str, json_out: bool = True) -> tuple[dict | str, float, float]:
        env = {**ENV, "PYTHONPATH": str(self.path)}
        flags = ["--json"] if json_out else []
        out, wall, cpu = _process(
            [sys.executable, "-m", "bot", "do", *flags, "--db", str(self.data / db), *words], env, str(self.data)
        )
        return (json.loads(out) if json_out else out), wall, cpu


def run(quick: bool = False) -> list[Row]:
    samples = 5 if quick else 15
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        trees = [Tree("ours", ROOT, Path(tmp) / "ours")]
        baseline = extract_baseline(Path(tmp) / "v1-src")
        if baseline is not None:
            trees.append(Tree("version 1", baseline, Path(tmp) / "v1"))
        for tree in trees:
            tree.data.mkdir(parents=True, exist_ok=True)
            tree.do("warm-up.sqlite3", "druid help")
        for name in registry.names():
            game = registry.get(name)
            players = " ".join(f"p{i}" for i in range(game.min_players))
            ids = {}
            for tree in trees:
                started, _, _ = tree.do(f"{name}.sqlite3", f"{name} challenge {players}")
                ids[tree.name] = started["game_id"]
            bare, show, move = Timings(), {t.name: Timings() for t in trees}, {t.name: Timings() for t in trees}
            for _ in range(samples):
                _, wall, cpu = _process([sys.executable, "-c", "pass"], ENV, tmp)
                bare.add(wall, cpu)
                for tree in trees:
                    _, wall, cpu = tree.do(f"{name}.sqlite3", f"{name} show {ids[tree.name]}", json_out=False)
                    show[tree.name].add(wall, cpu)
                for tree in trees:
                    listing, _, _ = tree.do(f"{name}.sqlite3", f"{name} moves {ids[tree.name]}")
                    if not listing["ok"] or not listing["items"]:
                        continue
                    words = f"{name} move {ids[tree.name]} {listing['to_move']} {listing['items'][0]}"
                    result, wall, cpu = tree.do(f"{name}.sqlite3", words)
                    if not result["ok"]:
                        raise RuntimeError(f"{tree.name} {name}: {result['message']}")
                    move[tree.name].add(wall, cpu)
            for label, timings, limit, feel in (
                ("show", show, 3.0, "a board looked at in the console (picture already on disk)"),
                ("move", move, 4.0, "a move typed in the console, its board PNG written"),
            ):
                ours = timings["ours"]
                ratio = ours.wall_ms / bare.wall_ms
                peer = f"`python -c pass` {bare.wall_ms:.0f} ms wall, {bare.cpu_ms:.0f} ms CPU"
                if "version 1" in timings and timings["version 1"].walls:
                    v1 = timings["version 1"]
                    peer += f"; version 1 {v1.wall_ms:.0f} ms ({v1.wall_ms / bare.wall_ms:.1f}x)"
                rows.append(
                    Row(
                        "console",
                        f"{name}: `pbm do` {label}, wall (median)",
                        ours.wall_ms,
                        "ms",
                        f"<= {limit:.0f}x bare",
                        ratio <= limit,
                        peer=peer,
                        note=f"{feel}; {ratio:.1f}x bare; CPU {ours.cpu_ms:.0f} ms ({ours.cpu_ms / bare.cpu_ms:.1f}x)",
                    )
                )
    return rows
