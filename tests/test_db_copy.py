"""``pbm db copy``: a real SQLite database with games of every kind copied to PostgreSQL and back, through the
store and through the real command; and the console and ``pbm check`` on a PostgreSQL URL, through ``python -m bot``.

The tests are plain functions (not coroutines): the command runs its own event loop for PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.actions import Actions
from bot.cli import main
from bot.console import Console
from data.store import Store
from tests.databases import Databases

ROOT = Path(__file__).resolve().parent.parent


async def _fill(path: Path) -> None:
    """A database with a few real games: timed ones, a finished one, a Drogo game with memory, a queued line, an
    open proposal, a vacation, a setting."""
    now = [1_796_115_600.0]  # 2026-12-01T09:00Z
    store = await Store.open(path)
    actions = Actions(store, seed_source=lambda: 7, clock=lambda: now[0], think=None)
    console = Console(actions, path.parent, images=False)
    for line in (
        "druid challenge -size=5 -days=2 alice bob",  # 1: timed, a queued line
        "druid move 1 alice c3",
        'druid queue 1 alice "d4 e5"',
        "druid challenge -size=5 -days=3 bob carol",  # 2: timed, an open proposal
        "druid move 2 bob c3",
        "druid move 2 carol d4",
        "druid propose 2 carol undo",
        "druid challenge -size=5 alice carol",  # 3: finished
        "druid move 3 alice c3",
        "druid move 3 carol d4",
        "druid resign 3 alice",
        "drogo challenge -size=4 alice bob",  # 4: Drogo, with memory
        "drogo move 4 alice a1",
        "drogo move 4 bob d4",
        "vacation carol on",
    ):
        outcome = await console.run(line)
        assert outcome.ok, f"{line!r}: {outcome.result.message}"
        now[0] += 60
    await store.set_setting("alice", "tz", "Europe/Berlin")
    await store.close()


async def _tables(target: str | Path) -> dict[str, list[tuple[Any, ...]]]:
    async with await Store.open(target) as store:
        out = {}
        for table in store.table_names():
            columns = sorted(await store.column_names(table))
            out[table] = [row async for batch in store.read_rows(table, columns, batch=3) for row in batch]
        return out


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        timeout=120,
    )


@pytest.fixture
def pg(tmp_path: Path, postgres_server: str):
    databases = Databases("postgresql", tmp_path, postgres_server)
    yield databases
    asyncio.run(databases.drop_all())


def test_sqlite_to_postgresql_and_back_keeps_every_row(tmp_path: Path, pg: Databases, capsys) -> None:
    source = tmp_path / "pbm.sqlite3"
    asyncio.run(_fill(source))
    url = str(asyncio.run(pg.target("copy")))
    assert main(["db", "copy", str(source), url]) == 0
    out = capsys.readouterr().out
    assert "4 games checked: all sound" in out
    assert "game_memory" in out and "queued_lines" in out
    back = tmp_path / "back.sqlite3"
    assert main(["db", "copy", url, f"sqlite:///{back}"]) == 0
    assert "4 games checked: all sound" in capsys.readouterr().out
    original = asyncio.run(_tables(source))
    assert all(original[t] for t in ("players", "games", "moves", "game_memory", "timers", "vacations"))
    assert all(original[t] for t in ("proposals", "queued_lines", "settings", "game_players"))
    assert asyncio.run(_tables(url)) == original
    assert asyncio.run(_tables(back)) == original
    assert main(["check", "--db", url]) == 0
    assert main(["check", "--db", str(back)]) == 0
    # SQLite to SQLite too
    third = tmp_path / "third.sqlite3"
    assert main(["db", "copy", str(back), str(third)]) == 0
    assert asyncio.run(_tables(third)) == original

    async def play_on() -> None:
        async with await Store.open(url) as store:
            actions = Actions(store, seed_source=lambda: 7, think=None)
            console = Console(actions, tmp_path, images=False)
            made = await console.run("druid challenge -size=5 -days=2 dave erin")
            assert made.ok, made.result.message
            assert made.result.game_id == 5
            moved = await console.run("druid move 5 dave c3")
            assert moved.ok, moved.result.message
            assert (await console.run("druid propose 5 dave undo")).ok
            assert (await console.run('druid queue 1 alice "d4 e5"')).ok

    asyncio.run(play_on())
    assert main(["check", "--db", url]) == 0


def test_a_copy_into_a_database_with_pbm_data_is_refused_and_changes_nothing(
    tmp_path: Path, pg: Databases, capsys
) -> None:
    source = tmp_path / "pbm.sqlite3"
    asyncio.run(_fill(source))
    url = str(asyncio.run(pg.target("copy")))
    assert main(["db", "copy", str(source), url]) == 0
    before = asyncio.run(_tables(url))
    capsys.readouterr()
    assert main(["db", "copy", str(source), url]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already holds pbm data" in err
    assert asyncio.run(_tables(url)) == before
    other = tmp_path / "other.sqlite3"
    assert main(["db", "copy", str(source), str(other)]) == 0
    assert main(["db", "copy", url, str(other)]) == 1
    assert main(["db", "copy", str(tmp_path / "missing.sqlite3"), str(tmp_path / "new.sqlite3")]) == 2
    assert not (tmp_path / "new.sqlite3").exists()


@pytest.mark.parametrize("to_postgresql", [True, False], ids=["to-postgresql", "to-sqlite"])
def test_an_interrupted_copy_leaves_the_target_without_rows(
    tmp_path: Path, pg: Databases, monkeypatch: pytest.MonkeyPatch, to_postgresql: bool, capsys
) -> None:
    source = tmp_path / "pbm.sqlite3"
    asyncio.run(_fill(source))
    target = str(asyncio.run(pg.target("copy"))) if to_postgresql else str(tmp_path / "copy.sqlite3")
    real = Store.read_rows

    async def failing(self: Store, table: str, columns: Any, batch: int = 500):
        if table == "queued_lines":  # the last table: everything else is written by now
            raise OSError("the source went away")
        async for rows in real(self, table, columns, batch):
            yield rows

    monkeypatch.setattr(Store, "read_rows", failing)
    assert main(["db", "copy", str(source), target]) == 2
    assert "the source went away" in capsys.readouterr().err
    monkeypatch.setattr(Store, "read_rows", real)
    copied = asyncio.run(_tables(target))
    assert all(rows == [] for rows in copied.values()), copied
    # and the empty target takes a copy afterwards
    assert main(["db", "copy", str(source), target]) == 0
    assert asyncio.run(_tables(target)) == asyncio.run(_tables(source))


def test_the_console_and_check_on_a_postgresql_url_print_what_they_print_on_sqlite(
    tmp_path: Path, pg: Databases
) -> None:
    source = tmp_path / "pbm.sqlite3"
    asyncio.run(_fill(source))
    url = str(asyncio.run(pg.target("copy")))
    copied = _cli("db", "copy", str(source), url)
    assert copied.returncode == 0, copied.stderr
    for args in (["do", "--no-images", "druid show 1"], ["do", "--json", "--no-images", "drogo show 4"], ["check"]):
        on_sqlite = _cli(*args, env={"PBM_DATABASE_URL": str(source)})
        on_postgresql = _cli(*args, env={"PBM_DATABASE_URL": url, "PBM_DB": str(tmp_path / "ignored.sqlite3")})
        assert on_sqlite.returncode == on_postgresql.returncode == 0, (on_sqlite.stderr, on_postgresql.stderr)
        assert on_sqlite.stdout == on_postgresql.stdout and on_sqlite.stdout
    assert not (tmp_path / "ignored.sqlite3").exists()
    move = _cli("do", "--no-images", "--db", url, "druid move 1 bob d2")
    assert move.returncode == 0, move.stderr
    backup = _cli("backup", "--db", url, str(tmp_path / "b.sqlite3"))
    assert backup.returncode == 2 and backup.stderr.count("\n") == 1 and "pg_dump" in backup.stderr


def test_pbm_database_url_wins_over_pbm_db(tmp_path: Path) -> None:
    from bot.config import default_db_path

    assert default_db_path({"PBM_DB": "a.sqlite3"}) == Path("a.sqlite3")
    assert default_db_path({"PBM_DB": "a.sqlite3", "PBM_DATABASE_URL": "sqlite:///b.sqlite3"}) == Path("b.sqlite3")
    assert default_db_path({"PBM_DATABASE_URL": "sqlite:////tmp/c.sqlite3"}) == Path("/tmp/c.sqlite3")
    assert default_db_path({"PBM_DATABASE_URL": "postgresql://u@/d"}) == "postgresql://u@/d"
