"""The architecture's import rule, checked on the source: imports point downward only (``bot -> ai, data, render,
rules``; ``render -> rules``; ``ai -> rules``), ``rules`` stays pure (no I/O, no asyncio, no Pillow, no clock, no
global random), nothing below ``bot.discord`` knows Discord, and inside ``bot.discord`` imports point one way (no
module imports, even only for type checking, a module that imports it). A violation names the file, the line and
the import, or the circle."""

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


#: standard-library modules that reach outside a computation (files, processes, the clock, chance)
IMPURE = {"asyncio", "datetime", "io", "os", "pathlib", "random", "shutil", "socket", "sqlite3", "subprocess", "sys"}
IMPURE |= {"tempfile", "threading", "time"}


def competition_violations(folder: Path) -> list[str]:
    """Imports in ``folder`` other than the standard library's pure modules, ``rules`` and ``bot.competition``."""
    allowed = (set(sys.stdlib_module_names) - IMPURE) | {"rules"}
    return [
        f"{path.relative_to(folder.parent)}:{line} imports {module}"
        for path in sorted(folder.rglob("*.py"))
        for line, module in imported_modules(path)
        if module.split(".")[0] not in allowed and not (module + ".").startswith("bot.competition.")
    ]


def test_the_competition_core_is_pure() -> None:
    """``bot.competition`` (tournament formats, pairings, standings) is plain computation the store, the console,
    Discord and the web all stand on: it imports the standard library's pure modules, ``rules`` and itself, and
    nothing that does I/O or reads the clock or chance (so two processes pair the same round alike)."""
    folder = ROOT / "bot" / "competition"
    assert len(list(folder.glob("*.py"))) >= 5
    assert competition_violations(folder) == []


def test_the_competition_checker_sees_a_violation(tmp_path: Path) -> None:
    """The rule above is not vacuous: the clock, a database and another part of ``bot`` are each reported."""
    folder = tmp_path / "competition"
    folder.mkdir()
    (folder / "stray.py").write_text(
        "import fractions\nimport time\nfrom bot.competition.model import Table\nfrom bot.actions import Actions\n"
        "import sqlite3\nfrom rules import registry\n"
    )
    assert competition_violations(folder) == [
        "competition/stray.py:2 imports time",
        "competition/stray.py:4 imports bot.actions",
        "competition/stray.py:5 imports sqlite3",
    ]


def test_only_the_discord_front_imports_discord() -> None:
    outside = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted((ROOT / "bot").rglob("*.py"))
        if "discord" not in path.relative_to(ROOT / "bot").parts[:1]
        for line, module in imported_modules(path)
        if module.split(".")[0] == "discord" and not module.startswith("bot.")
    ]
    assert outside == []


def test_the_web_front_knows_no_discord_and_only_the_command_line_knows_it() -> None:
    """``bot.web`` imports the actions, the store, the renderers and the rules, never the Discord front (it learns
    of nothing from Discord, and tells Discord through an announcer the command line wires); and nothing imports
    ``bot.web`` but the command line."""
    web = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted((ROOT / "bot" / "web").rglob("*.py"))
        for line, module in imported_modules(path)
        if module.split(".")[0] == "discord" or module.startswith("bot.discord")
    ]
    assert web == []
    importers = {
        str(path.relative_to(ROOT))
        for package in ("bot", "data", "render", "rules", "ai")
        for path in (ROOT / package).rglob("*.py")
        if (ROOT / "bot" / "web") not in path.parents
        for _, module in imported_modules(path)
        if module == "bot.web" or module.startswith("bot.web.")
    }
    assert importers == {"bot/cli.py"}


def test_the_checker_sees_a_violation(tmp_path: Path) -> None:
    """The rule above is not vacuous: a stray import is reported with its file and line."""
    stray = tmp_path / "stray.py"
    stray.write_text("import os\n\n\ndef f():\n    from PIL import Image\n")
    assert imported_modules(stray) == [(1, "os"), (5, "PIL")]


def package_imports(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` (dotted, its ``__init__`` as the package's name) and the modules of the package
    it imports, conditional and type-checking imports included."""
    folder = ROOT / package.replace(".", "/")
    graph: dict[str, set[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        graph[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = set()
    for name in graph:
        path = folder / ("__init__.py" if name == package else name.removeprefix(package + ".") + ".py")
        for _, module in imported_modules(path):
            while module and module not in graph and module.startswith(package):
                module = module.rpartition(".")[0]
            if module in graph and module != name:
                graph[name].add(module)
    return graph


def import_circle(graph: dict[str, set[str]]) -> list[str]:
    """A circle of imports (``[a, b, a]``: a imports b, which imports a), or ``[]`` when imports point one way."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str]:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return []
        for target in sorted(graph[module]):
            found = visit(target, [*path, module])
            if found:
                return found
        done.add(module)
        return []

    for module in sorted(graph):
        found = visit(module, [])
        if found:
            return found
    return []


def test_the_discord_front_imports_one_way() -> None:
    graph = package_imports("bot.discord")
    assert {"bot.discord.client", "bot.discord.cog", "bot.discord.buttons", "bot.discord.ratings"} <= set(graph)
    assert graph["bot.discord.client"] >= {"bot.discord.cog", "bot.discord.front", "bot.discord.ratings"}
    assert import_circle(graph) == []


def test_the_circle_finder_sees_a_circle() -> None:
    """The rule above is not vacuous: a module that imports its importer, however far round, is a circle."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_circle(graph) == ["a", "b", "c", "a"]
    assert import_circle({"a": {"b"}, "b": set(), "d": {"a", "b"}}) == []
