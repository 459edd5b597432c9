"""The architecture's import rule, checked on the source: imports point downward only (``bot -> ai, data, render,
rules``; ``render -> rules``; ``ai -> rules``), ``rules`` stays pure (no I/O, no asyncio, no Pillow, no clock, no
global random), and nothing below ``bot.discord`` knows Discord. A violation names the file, the line and the
import."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: for each package, the top-level modules its code may not import (ours and third-party)
FORBIDDEN = {
    "rules": {"ai", "bot", "data", "render", "PIL", "aiosqlite", "asyncio", "discord", "sqlite3", "time", "random"}
    | {"io", "matplotlib"},
    "render": {"ai", "bot", "data", "discord", "aiosqlite", "asyncio", "sqlite3"},
    "data": {"ai", "bot", "render", "discord", "PIL", "matplotlib"},
    "ai": {"bot", "data", "render", "discord", "PIL", "aiosqlite", "asyncio", "sqlite3", "matplotlib"},
    "bot": set(),
}


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every absolute import in the file, conditional and function-level ones included."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def violations(package: str, forbidden: set[str]) -> list[str]:
    out = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for line, module in imported_modules(path):
            if module.split(".")[0] in forbidden:
                out.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    return out


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_point_downward(package: str) -> None:
    assert violations(package, FORBIDDEN[package]) == []


def test_computer_players_read_only_the_rules() -> None:
    """``ai`` imports the standard library, ``rules``, itself and the optional gnubg-nn: nothing else."""
    allowed = set(sys.stdlib_module_names) | {"ai", "rules", "gnubg_nn"}
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted((ROOT / "ai").rglob("*.py"))
        for line, module in imported_modules(path)
        if module.split(".")[0] not in allowed
    ]
    assert found == []


def test_only_the_discord_front_imports_discord() -> None:
    outside = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted((ROOT / "bot").rglob("*.py"))
        if "discord" not in path.relative_to(ROOT / "bot").parts[:1]
        for line, module in imported_modules(path)
        if module.split(".")[0] == "discord" and not module.startswith("bot.")
    ]
    assert outside == []


def test_the_checker_sees_a_violation(tmp_path: Path) -> None:
    """The rule above is not vacuous: a stray import is reported with its file and line."""
    stray = tmp_path / "stray.py"
    stray.write_text("import os\n\n\ndef f():\n    from PIL import Image\n")
    assert imported_modules(stray) == [(1, "os"), (5, "PIL")]
