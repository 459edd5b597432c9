"""The SQLite file itself, as opening it and the maintenance commands meet it: whether this process may write it
(or the folder its journal goes in), how to open it read-only or without creating it, where a damaged file is
damaged, and a backup that is checked before it takes its name.

Nothing here knows pbm's tables beyond their names: :class:`data.store.core.CoreStore` calls these and turns
what they find into its own errors, so a file's problem is one line that says what is wrong and where.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any, NamedTuple

#: ``PRAGMA integrity_check(TABLE)`` (one table and its indexes) exists from SQLite 3.33
CHECKS_ONE_TABLE = sqlite3.sqlite_version_info >= (3, 33, 0)
#: the files SQLite keeps beside a database while it is in use
JOURNAL_SUFFIXES = ("-wal", "-shm", "-journal")


class Backup(NamedTuple):
    """A backup as written: its file, and how many games it holds."""

    path: Path
    games: int


def folder_of(where: str) -> Path:
    """The folder a database file is in, as an absolute path (messages name it; ``.`` would say nothing)."""
    return Path(os.path.abspath(where)).parent


def uri(where: str, mode: str) -> str:
    """An SQLite URI for the file at ``where``: ``ro`` (read only), ``rw`` (never create it) or ``rwc``.

    Read-only, a file with no journal beside it is opened ``immutable``: then SQLite creates no ``-wal`` and
    ``-shm`` files (it could not in a read-only folder, and in a writable one a reader would leave them behind,
    owned by the reader, in the way of the bot). No journal means no connection has the database open for
    writing, and whatever it holds is in the file itself; a reader that finds a journal opens it normally,
    through that journal."""
    address = f"{Path(os.path.abspath(where)).as_uri()}?mode={mode}"
    if mode == "ro" and not any(Path(f"{where}{suffix}").exists() for suffix in ("-wal", "-journal")):
        address += "&immutable=1"
    return address


def read_only_reason(where: str) -> str | None:
    """Why this process may not write the database at ``where`` (``None``: it may). A file without write
    permission is read-only; so is one in a folder that does not let SQLite create its journal beside it, unless
    the journal files are already there and writable (a bot serving from that folder made them)."""
    file, folder = Path(where), folder_of(where)
    if file.exists() and not os.access(file, os.W_OK):
        return "the database file is read-only (check the file's permissions)"
    if os.access(folder, os.W_OK | os.X_OK):
        return None
    if file.exists() and all(os.access(f"{where}{suffix}", os.W_OK) for suffix in ("-wal", "-shm")):
        return None
    return (
        f"the folder {folder} is read-only, and SQLite writes the database's journal beside it"
        " (check the folder's permissions)"
    )


def absence(where: str) -> str | None:
    """Why there is no database at ``where`` to open without making one: no file, or an empty one (a new WAL
    database's first pages may still be in its ``-wal`` file: that is not empty). ``None``: there is a file."""
    file = Path(where)
    if not file.exists():
        return "there is no database there"
    wal = Path(f"{where}-wal")
    if file.is_file() and file.stat().st_size == 0 and not (wal.exists() and wal.stat().st_size > 0):
        return "the file is empty (0 bytes): there is no database in it"
    return None


def opening_problem(where: str, *, read_only: bool, create: bool) -> str | None:
    """Why the database at ``where`` cannot be opened as asked, before SQLite is asked (``None``: try it). pbm
    makes no folder for a path it is given (a typo would otherwise start a fresh database somewhere, and the games
    would seem lost); a database opened to be written must be writable; one opened without ``create`` must be
    there already."""
    folder = folder_of(where)
    if folder.exists() and not folder.is_dir():
        return f"{folder} is a file, not a folder"
    if not folder.is_dir():
        return (
            f"the folder {folder} does not exist (pbm makes no folders for a database path: create it, or check"
            " the path)"
        )
    if not create or read_only:
        missing = absence(where)
        if missing is not None:
            return missing
    return None if read_only else read_only_reason(where)


async def _first_column(db: Any, sql: str) -> list[str]:
    async with db.execute(sql) as cursor:
        return [str(row[0]) for row in await cursor.fetchall()]


async def damaged_tables(db: Any) -> list[str]:
    """The tables whose own integrity check fails or stops (each with its indexes); empty when that cannot be
    told (SQLite before 3.33, or a table list that cannot be read)."""
    if not CHECKS_ONE_TABLE:
        return []
    try:
        names = await _first_column(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")
    except sqlite3.DatabaseError:
        return []
    found = []
    for name in names:
        quoted = '"' + name.replace('"', '""') + '"'
        try:
            sound = await _first_column(db, f"PRAGMA integrity_check({quoted})") == ["ok"]
        except sqlite3.DatabaseError:
            sound = False
        if not sound:
            found.append(name)
    return found


def is_damage(exc: BaseException) -> bool:
    """Whether SQLite's error means the file itself is damaged (rather than busy, full or not writable)."""
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text


def listed(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


async def damage(db: Any, found: list[str]) -> str:
    """One clause for a damaged file: where (the tables) and SQLite's first finding, with how many more (SQLite's
    findings may span lines, under a ``*** in database main ***`` heading: each line is one)."""
    found = [
        part.strip()
        for line in found
        for part in line.splitlines()
        if part.strip() and not part.strip().startswith("*** in database")
    ] or ["no details"]
    tables = await damaged_tables(db)
    where = ""
    if tables:
        where = f" in the table {tables[0]}" if len(tables) == 1 else f" in the tables {listed(tables)}"
    more = f", and {plural(len(found) - 1, 'more finding')}" if len(found) > 1 else ""
    return f"the database file is damaged{where} (SQLite: {found[0]}{more})"


async def integrity_problems(db: Any) -> list[str]:
    """SQLite's integrity check and foreign-key check, as clauses that say where; empty when the file is sound.
    A page so damaged that SQLite's check stops at it ("database disk image is malformed") is looked for table by
    table, so the answer still says where."""
    try:
        lines = await _first_column(db, "PRAGMA integrity_check")
    except sqlite3.DatabaseError as exc:
        lines = [str(exc)]
    if lines != ["ok"]:
        return [await damage(db, lines)]
    try:
        async with db.execute("PRAGMA foreign_key_check") as cursor:
            rows = list(await cursor.fetchall())
    except sqlite3.DatabaseError as exc:
        return [await damage(db, [str(exc)])]
    return [
        f"the database's rows do not fit together: row {r[1]} of {r[0]} points to a missing row of {r[2]}" for r in rows
    ]


def partial_file(target: Path) -> Path:
    """An empty file beside ``target`` for a backup to be written into (``VACUUM INTO`` takes an empty file),
    readable by its owner only, as the database should be."""
    import tempfile  # not at the top: the console's start-up does not need it

    handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent)
    os.close(handle)
    return Path(name)


def check_copy(path: Path, version: int) -> tuple[list[str], int]:
    """A new copy checked before it counts: SQLite's integrity and foreign-key checks, and the schema version it
    should have. Its problems, and how many games it holds."""
    raw = sqlite3.connect(uri(str(path), "ro"), uri=True)
    try:
        lines = [str(r[0]) for r in raw.execute("PRAGMA integrity_check").fetchall()]
        problems = [] if lines == ["ok"] else [f"SQLite: {lines[0]}"]
        broken = raw.execute("PRAGMA foreign_key_check").fetchall()
        problems += [f"row {r[1]} of {r[0]} points to a missing row of {r[2]}" for r in broken]
        found = int(raw.execute("SELECT version FROM schema_version").fetchone()[0])
        if found != version:
            problems.append(f"it is at schema version {found}, not {version}")
        games = int(raw.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.DatabaseError as exc:
        return [f"SQLite: {exc}"], 0
    finally:
        raw.close()
    return problems, games


def publish(partial: Path, target: Path) -> None:
    """Give the checked copy its name without ever replacing a file that appeared there meanwhile (a hard link
    fails if the name is taken), and make the name durable."""
    try:
        os.link(partial, target)
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: a rename, after one more look
        if target.exists():
            raise FileExistsError(str(target)) from None
        os.rename(partial, target)
    else:
        partial.unlink()
    try:
        folder = os.open(target.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(folder)
    except OSError:
        pass
    finally:
        os.close(folder)


def remove_new_database(where: str) -> None:
    """Delete a database file this command created and could not finish, with its journal files: a failed copy
    leaves nothing behind."""
    for name in (where, *(f"{where}{suffix}" for suffix in JOURNAL_SUFFIXES)):
        Path(name).unlink(missing_ok=True)
