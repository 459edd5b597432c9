"""``python -m bench [--quick] [group ...]``: run the benchmarks, print a table, append it to BENCHMARKS.md.

Each group is a module ``bench.<group>`` with ``run(quick: bool) -> list[Row]``; ``load`` (run only when named)
also takes the size options ``--games --guilds --moves --processes --concurrency``. Peers (gnubg-nn for
Backgammon) are measured in the same run, so ratios compare like with like.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import os
import platform
import sys
import time
from pathlib import Path

from bench.common import Row

GROUPS = (
    "store",
    "console",
    "backgammon",
    "druid",
    "drogo",
    "dragons",
    "render",
    "chart",
    "discord",
    "correspondence",
    "ratings",
    "competition",
    "profile",
    "ai",
    "web",
)
#: groups run only when named: the load test takes many minutes at full scale
EXTRA_GROUPS = ("load",)
RESULTS = Path(__file__).resolve().parent.parent / "BENCHMARKS.md"


def machine() -> str:
    """A one-line description of this machine: CPU model, cores, memory, OS and Python."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kib = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f", {kib / 1024 / 1024:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores{memory}, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}"
    )


def _format(value: float) -> str:
    if value >= 1000:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.3f}"


def table(rows: list[Row]) -> str:
    lines = [
        "| group | metric | value | unit | target | met | compared with | note |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        met = "" if r.ok is None else ("yes" if r.ok else "**no**")
        lines.append(
            f"| {r.group} | {r.metric} | {_format(r.value)} | {r.unit} | {r.target} | {met} | {r.peer} | {r.note} |"
        )
    return "\n".join(lines)


def _counts(text: str) -> tuple[int, ...]:
    """``1,2`` -> ``(1, 2)``: the bot process counts of a load run."""
    try:
        counts = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--processes takes counts such as 1,2, not {text!r}") from None
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"--processes takes counts of 1 or more, not {text!r}")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("groups", nargs="*", help=f"which groups (default: all of {', '.join(GROUPS)})")
    parser.add_argument("--quick", action="store_true", help="small samples, a few seconds per group")
    parser.add_argument("--no-write", action="store_true", help="print only; do not append to BENCHMARKS.md")
    load = parser.add_argument_group("load test (group load, run only when named)")
    load.add_argument("--games", type=int, help="games played (default 1,000; --quick 40)")
    load.add_argument("--guilds", type=int, help="guilds they are spread across (default 100; --quick 4)")
    load.add_argument("--moves", type=int, help="moves sent in all (default 20,000; --quick 400)")
    load.add_argument("--processes", type=_counts, help="bot process counts to run, in order (default 1,2)")
    load.add_argument("--concurrency", type=int, help="moves in flight (default 16 per process)")
    args = parser.parse_args(argv)
    unknown = [g for g in args.groups if g not in GROUPS + EXTRA_GROUPS]
    if unknown:
        parser.error(f"unknown group(s) {', '.join(unknown)}; choose from {', '.join(GROUPS + EXTRA_GROUPS)}")
    load_options = {k: getattr(args, k) for k in ("games", "guilds", "moves", "processes", "concurrency")}
    rows: list[Row] = []
    started = time.perf_counter()
    for group in args.groups or GROUPS:
        module = importlib.import_module(f"bench.{group}")
        print(f"running {group} ...", file=sys.stderr, flush=True)
        options = load_options if group == "load" else {}
        rows.extend(module.run(quick=args.quick, **options))
    elapsed = time.perf_counter() - started
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    mode = "quick" if args.quick else "full"
    report = f"## {when} ({mode} run, {elapsed:.0f} s)\n\nMachine: {machine()}\n\n{table(rows)}\n"
    print(report)
    if not args.no_write:
        header = "" if RESULTS.exists() else "# Benchmarks\n\nAppended by `python -m bench`; newest last.\n\n"
        with RESULTS.open("a", encoding="utf-8") as out:
            out.write(header + report + "\n")
    return 1 if any(r.ok is False for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
