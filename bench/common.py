"""Helpers shared by the benchmark modules: timing and the result row every module returns."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    """One measured number. ``target`` is the issue's goal in words (``<= 5 ms``) and ``ok`` whether it is met
    (``None`` where there is no target). ``peer`` names what it is compared with, side by side in the same run."""

    group: str
    metric: str
    value: float
    unit: str
    target: str = ""
    ok: bool | None = None
    peer: str = ""
    note: str = ""


def samples(fn: Callable[[], object], repeat: int) -> list[float]:
    """Wall times of ``repeat`` calls of ``fn``, in seconds."""
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def cpu_samples(fn: Callable[[], object], repeat: int) -> list[float]:
    """CPU seconds of ``repeat`` calls of ``fn``: on a shared machine, waiting for a core is not our cost."""
    out = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        out.append(time.process_time() - start)
    return out


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds of one call of ``fn``."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def median_ms(times: list[float]) -> float:
    return statistics.median(times) * 1000.0


def rate(count: int, seconds: float) -> float:
    """Items per second."""
    return count / seconds if seconds > 0 else float("inf")
