"""Today's code as a peer: version 1 (the commit every speed figure of the current issues is measured against),
extracted from git into a temporary folder and run in its own processes, beside ours, in the same bench run.

Both sides run the same worker script (:mod:`bench.worker`) as a child process; only ``PYTHONPATH`` differs, so
``import rules`` means version 1 in one child and the current tree in the other. Requests alternate between the
two (A B A B ...), so a machine that slows down slows both alike.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: version 1 as it landed, before any version 2 work
BASELINE_COMMIT = "9211617"
WORKER = Path(__file__).resolve().parent / "worker.py"


def extract_baseline(into: Path) -> Path | None:
    """Version 1's packages under ``into`` (``None`` when git or the commit is not available)."""
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", BASELINE_COMMIT, "rules", "render", "data", "bot"],
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    into.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


@dataclass
class Worker:
    """A child process running :mod:`bench.worker` on one tree; :meth:`call` sends one request, returns its answer."""

    name: str
    process: subprocess.Popen[str]

    @classmethod
    def start(cls, name: str, tree: Path) -> Worker:
        env = {**os.environ, "PYTHONPATH": str(tree)}
        process = subprocess.Popen(
            [sys.executable, "-P", str(WORKER)],  # -P: bench/ (render.py, ...) must not shadow the tree
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=tempfile.gettempdir(),
        )
        return cls(name, process)

    def call(self, op: str, **args: Any) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"op": op, **args}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the {self.name} worker died during {op}")
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"the {self.name} worker failed {op}: {answer['error']}")
        return answer

    def stop(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)
