"""What a console command loads: ``pbm do`` is a process per command, so every module executed is paid on every
move. A show and a move of each game, each in a fresh interpreter as a user runs them, must execute only what
they use: the game's own rules (and renderer, for a move), never the other games, the Discord front, the event
loop, PostgreSQL, time zone files, or the modules :mod:`bot.deferred` keeps lazy. This guards the import list,
not the time (timings live in bench/console.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rules import registry

ROOT = Path(__file__).resolve().parent.parent
#: when the commands whose picture is compared run
NOW = "2026-12-01T09:00Z"

#: run ``pbm ARGS`` in this interpreter, then list the modules executed (lazy ones not yet used are left out)
PROBE = """
import json, sys, types
from bot.cli import main
code = main(sys.argv[1:])
loaded = sorted(name for name, module in sys.modules.items() if type(module) is types.ModuleType)
print(json.dumps({"code": code, "loaded": loaded}))
"""

#: never executed by a show or a move on SQLite: other fronts and databases, and what start-up does not use
NEVER = (
    "discord",
    "bot.discord",
    "asyncio",
    "aiosqlite",
    "asyncpg",
    "argparse",
    "zoneinfo",
    "inspect",
    "ast",
    "dis",
    "tokenize",
    "logging",
    "threading",
    "email",
    "http",
    "ssl",
    "PIL.ExifTags",
    "PIL.TiffTags",
    "PIL.GimpGradientFile",
    "PIL.GimpPaletteFile",
    "PIL.PaletteFile",
    "PIL.ImageFile",
    "PIL.PngImagePlugin",
    "render.replay",
    "ai",
)


def pbm(tmp_path: Path, *args: str) -> tuple[list[str], int, set[str]]:
    """What ``pbm ARGS`` printed (its lines), its exit code and the modules it executed."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    *printed, last = done.stdout.strip().splitlines()
    answer = json.loads(last)
    return printed, answer["code"], set(answer["loaded"])


def executed(loaded: set[str], prefix: str) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for name in loaded)


@pytest.mark.parametrize("name", registry.names())
def test_a_show_and_a_move_load_only_what_they_use(tmp_path: Path, name: str) -> None:
    db = str(tmp_path / "imports.sqlite3")
    game = registry.get(name)
    players = " ".join(f"p{i}" for i in range(game.min_players))
    # one moment for both: a clock note that moved on (7d left, then 6d 23h) is a new picture, drawn again
    _, code, _ = pbm(tmp_path, "do", "--db", db, "--now", NOW, f"{name} challenge {players}")
    assert code == 0
    others = [other for other in registry.names() if other != name]

    _, code, shown = pbm(tmp_path, "do", "--db", db, "--now", NOW, f"{name} show 1")
    assert code == 0
    assert f"rules.{name}" in shown
    # the picture on disk already shows this position (the challenge drew it): nothing is drawn
    drawing = ("PIL", "zlib_ng", "render.common", "render.palette", *(f"render.{game}" for game in registry.names()))
    for module in (*NEVER, *drawing, *(f"rules.{other}" for other in others)):
        assert not executed(shown, module), f"{name} show executed {module}"

    printed, _, _ = pbm(tmp_path, "do", "--json", "--db", db, f"{name} moves 1")
    listing = json.loads(printed[0])
    words = f"{name} move 1 {listing['to_move']} {listing['items'][0]}"
    printed, code, moved = pbm(tmp_path, "do", "--db", db, words)
    assert code == 0, printed
    assert {f"rules.{name}", f"render.{name}", "PIL.Image"} <= moved, "the move drew its board"
    assert f"board image: {tmp_path / 'imports-boards' / f'{name}-1.png'}" in printed
    for module in (*NEVER, *(f"rules.{other}" for other in others), *(f"render.{other}" for other in others)):
        assert not executed(moved, module), f"{name} move executed {module}"


def test_deferred_imports_nest_and_load_on_first_use() -> None:
    """A command run inside another's deferral (a test calling main() twice over) still imports; a deferred module
    is executed the moment something reads it."""
    code = """
import sys, types
from bot.deferred import deferred
with deferred(frozenset({"colorsys"})):
    with deferred(frozenset({"colorsys"})):
        import colorsys
    assert type(sys.modules["colorsys"]) is not types.ModuleType, "not executed yet"
print(colorsys.rgb_to_hsv(1.0, 0.0, 0.0), type(sys.modules["colorsys"]) is types.ModuleType)
"""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(0.0, 1.0, 1.0) True"
