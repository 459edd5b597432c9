"""The ``pbm`` command: ``run`` (the Discord bot and the web UI; without a token, the web UI alone for the local
user), ``web`` (the web UI alone), ``web-link`` and ``web-logout`` (sign a player in or out of it), ``sync`` (push
slash commands), ``console``, ``do``, ``check``, ``backup``, ``db copy`` and ``ratings rebuild``.

``pbm do`` and ``pbm console`` on SQLite never import discord.py, asyncio or aiosqlite: they run over a direct
SQLite connection (:mod:`data.connection`), so a console move costs a process start, one SQLite transaction and one
board render. On a PostgreSQL URL they (and ``pbm check``) run the same code on an event loop kept for the whole
command or session (asyncpg needs one). ``pbm db copy FROM TO`` copies a whole database between the two.
``pbm ratings rebuild`` recomputes every rating from the finished games (see :mod:`bot.ratings`).
What a command does not need is imported only where it is used (:mod:`bot.config` too: it brings
:mod:`dataclasses`, which a console command imports only once :mod:`bot.deferred` is in place).
Every problem of the environment (a damaged or foreign database file, a full
disk, a database from a newer pbm, Discord out of reach) is one line on standard error and a non-zero exit, never
a traceback; ``--verbose`` adds the details for whoever has to dig.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Literal

NO_TOKEN = (
    "No Discord token: set DISCORD_TOKEN (or pass --token) to run the bot.\n"
    'To play without Discord, use the console: pbm console   (or one command: pbm do "druid help")'
)
#: what ``pbm run`` says when it starts without a token, before the web UI's address
RUN_WITHOUT_TOKEN = (
    "No Discord token: set DISCORD_TOKEN (or pass --token) to run the bot.\n"
    "Meanwhile the web UI serves the games on this machine, without Discord: whoever opens it here plays as the\n"
    'name they type. The console works too: pbm console   (or one command: pbm do "druid help")'
)
#: exit codes: a refused command, and a problem of the environment (database, disk, Discord, configuration)
EXIT_REFUSED = 1
EXIT_ENVIRONMENT = 2


class EnvironmentProblem(Exception):
    """Something outside pbm prevents the command (the database file, the disk, Discord); one line for people."""


if TYPE_CHECKING:
    import argparse


def _parser() -> argparse.ArgumentParser:
    import argparse

    from bot.config import db_target

    parser = argparse.ArgumentParser(prog="pbm", description="Play-by-post board games: Discord bot and console.")
    sub = parser.add_subparsers(dest="command", required=True)

    def database(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--db",
            type=db_target,
            default=None,
            help="SQLite file (a path or sqlite:///path) or postgresql:// URL"
            " (default: $PBM_DATABASE_URL, $PBM_DB or the data directory)",
        )

    # ``do`` and ``console`` are read by :func:`_local_args` (no argparse: they start faster); listed for --help
    sub.add_parser("do", help='run one console command, e.g. pbm do "druid show 1" (pbm do --help for more)')
    sub.add_parser("console", help="an interactive console of the same commands (pbm console --help)")
    for name, text in (
        ("run", "start the Discord bot and the web UI (without a token: the web UI alone, for this machine)"),
        ("sync", "push the slash commands to Discord now"),
    ):
        p = sub.add_parser(name, help=text)
        p.add_argument("--token", default=None, help="Discord bot token (default: $DISCORD_TOKEN)")
        database(p)
        p.add_argument("--verbose", action="store_true", help="on failure, print the full details")
        if name == "run":
            p.add_argument(
                "--shards", default=None, help="run only these shards, like 0,1 or 0-3 (default: $PBM_SHARDS or all)"
            )
            p.add_argument(
                "--shard-count",
                default=None,
                help="shards over all processes (default: $PBM_SHARD_COUNT or Discord's recommendation)",
            )
    web = sub.add_parser("web", help="serve the web UI alone (PBM_WEB_HOST, PBM_WEB_PORT, PBM_WEB_PUBLIC_URL)")
    database(web)
    web.add_argument("--verbose", action="store_true", help="on failure, print the full details")
    for name, text in (
        ("web-link", "print a one-time link that signs PLAYER in to the web UI (15 minutes, once)"),
        ("web-logout", "sign PLAYER out of the web UI everywhere"),
    ):
        p = sub.add_parser(name, help=text)
        p.add_argument("player", metavar="PLAYER", help="the player's name")
        database(p)
    check = sub.add_parser("check", help="check the database: SQLite's integrity check and every game replayed")
    database(check)
    backup = sub.add_parser("backup", help="copy the live database, consistently, to a new file")
    database(backup)
    backup.add_argument("path", type=Path, help="the new file (it must not exist yet)")
    db = sub.add_parser("db", help="whole databases: pbm db copy FROM TO")
    db_sub = db.add_subparsers(dest="db_command", required=True)
    copy = db_sub.add_parser(
        "copy", help="copy a whole database (SQLite or PostgreSQL) into a new file or an empty PostgreSQL database"
    )
    copy.add_argument("source", type=db_target, metavar="FROM", help="the database to copy (a path or a URL)")
    copy.add_argument("target", type=db_target, metavar="TO", help="a new SQLite file or an empty database")
    ratings = sub.add_parser("ratings", help="ratings: pbm ratings rebuild")
    ratings_sub = ratings.add_subparsers(dest="ratings_command", required=True)
    rebuild = ratings_sub.add_parser(
        "rebuild", help="recompute every rating from the finished games, in the order they were rated"
    )
    database(rebuild)
    return parser


LOCAL_USAGE = """\
usage: pbm do [options] [--] <command words ...>     run one console command, e.g. pbm do "druid show 1"
       pbm console [options]                         an interactive console of the same commands
options (before the command's words; from the first word on, everything belongs to the command):
  --db TARGET      SQLite file (a path or sqlite:///path) or postgresql:// URL
                   (default: $PBM_DATABASE_URL, $PBM_DB or the data directory)
  --as USER        act as USER where a command names no user
  --boards DIR     where board PNGs go (default: <database name>-boards beside the database)
  --no-images      do not write board PNGs
  --json           (do) print one JSON object
  --now TIME       act as if it were TIME (UTC, like 2026-12-01T09:00Z): scripts and tests of clocks
  -h, --help       this text; pbm do help lists the commands"""


class UsageError(Exception):
    """The options of ``pbm do`` / ``pbm console`` cannot be read."""


def _local_args(argv: Sequence[str]) -> SimpleNamespace | None:
    """Read ``pbm do`` / ``pbm console`` options by hand (argparse costs a tenth of a console command's start).
    pbm's options count only before the command's words (or before a ``--`` that ends them); from the first
    other word on, everything is the command's, even words that look like options (``-size=8``, Druid's pass
    ``--``, a stray ``--db``). ``None`` for ``--help`` (printed here)."""
    from bot.config import db_target

    command, rest = argv[0], list(argv[1:])
    values: dict[str, object] = {
        "db": None,
        "identity": None,
        "boards": None,
        "no_images": False,
        "json": False,
        "now": None,
    }
    names = {"--db": "db", "--as": "identity", "--boards": "boards", "--now": "now"}
    index = 0
    while index < len(rest):
        word = rest[index]
        name, sep, inline = word.partition("=")
        if word in ("-h", "--help"):
            print(LOCAL_USAGE)
            return None
        if name in names:
            if sep:
                value = inline
            elif index + 1 < len(rest):
                index += 1
                value = rest[index]
            else:
                raise UsageError(f"{name} needs a value")
            if name == "--now":
                values["now"] = _read_time(value)
            elif name == "--as":
                values["identity"] = _read_identity(value)
            else:
                values[names[name]] = db_target(value) if name == "--db" else Path(value)
        elif word == "--no-images":
            values["no_images"] = True
        elif word == "--json" and command == "do":
            values["json"] = True
        elif word == "--":
            index += 1
            break
        elif word.startswith("--"):
            raise UsageError(f"unknown option {word!r} (pbm {command} --help lists them)")
        else:
            break
        index += 1
    words = rest[index:]
    if command == "console" and words:
        raise UsageError("pbm console takes no command words; type them at its prompt (or use pbm do)")
    return SimpleNamespace(command=command, words=words, **values)


#: the times ``--now`` accepts, inclusive and exclusive (UTC): well inside what the clocks can walk around
#: (:mod:`bot.correspondence.periods` reads years 1653 to 5138), so a deadline a month or a vacation bank later
#: is still in range
NOW_RANGE = ("1700-01-01", "5000-01-01")


def _read_time(text: str) -> float:
    """``--now``'s value: an ISO 8601 time (``2026-12-01T09:00Z``; without a zone it is UTC), within
    :data:`NOW_RANGE`."""
    from datetime import UTC, datetime

    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise UsageError(f"--now {text!r}: write a time like 2026-12-01T09:00Z") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    earliest, end = (datetime.fromisoformat(day).replace(tzinfo=UTC).timestamp() for day in NOW_RANGE)
    if not earliest <= moment.timestamp() < end:
        raise UsageError(f"--now {text!r}: pbm keeps time from {NOW_RANGE[0]} up to {NOW_RANGE[1]} (UTC)")
    return moment.timestamp()


def _read_identity(name: str) -> str:
    """``--as``'s value, checked as a player name before any command can take it to the database."""
    from bot.actions import InputError, check_player_name
    from bot.console import printable

    if any("\udc80" <= char <= "\udcff" for char in name):
        raise UsageError(f"--as {printable(name)}: not UTF-8 text (check the terminal's encoding)")
    try:
        check_player_name(name)
    except InputError as exc:
        raise UsageError(f"--as: {exc}") from None
    return name


def _boards_dir(db_path: Path | str) -> Path:
    """Boards of a database go beside it under its own name, so two databases in one folder never share them; a
    PostgreSQL database's go in the data directory, under the database's name."""
    if isinstance(db_path, str):
        from bot.config import default_data_dir

        name = db_path.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1] or "postgresql"
        return default_data_dir() / f"{name}-boards"
    return db_path.parent / f"{db_path.stem}-boards"


def _where(target: Path | str) -> str:
    """A database as messages name it (a PostgreSQL URL without its password)."""
    if isinstance(target, Path):
        return str(target)
    from data.store.core import redacted

    return redacted(target)


class _Runner:
    """Runs the store's coroutines: on SQLite with :func:`data.connection.drive` (no event loop, nothing imported),
    on PostgreSQL on one event loop kept for the whole command or session (the connection belongs to it)."""

    def __init__(self, *targets: Path | str) -> None:
        self._loop: Any = None
        if any(not isinstance(t, Path) for t in targets):
            import asyncio

            self._loop = asyncio.new_event_loop()

    def __call__(self, coroutine: Any) -> Any:
        if self._loop is None:
            from data.connection import drive

            return drive(coroutine)
        return self._loop.run_until_complete(coroutine)

    def close(self) -> None:
        if self._loop is not None:
            self._loop.close()


async def _open_store(
    db_path: Path | str,
    *,
    direct: bool = False,
    use: Literal["any", "write", "read", "keep"] = "any",
    create: bool = True,
):  # -> data.store.Store
    """The database for one command, opened as the command uses it (``use``):

    - ``any`` (the console, whose commands are not known yet): an SQLite file this process may not write (the
      file, or the folder its journal goes in) is opened read-only, so the commands that only look (show,
      history, games, moves, profile, ratings, challenges, help) work, and one that would change it gets one
      line (:func:`_environment_problem`); any other file normally;
    - ``write`` (the bot, a ratings rebuild, the target of a copy): a read-only file is refused at once;
    - ``read`` (``check``, the source of a copy): read-only, so checking writes nothing, not even a journal;
      a database from an older pbm is first brought up to date, as any command of this pbm would (read-only,
      it is refused in one line);
    - ``keep`` (``backup``): read-only, and a database from an older pbm is copied as it is.

    Without ``create`` the database must exist: ``check``, ``backup`` and ``db copy`` never make one."""
    from data.store import DatabaseUnusableError, OutOfDateError, Store
    from data.store.upkeep import read_only_reason

    sqlite = isinstance(db_path, Path) and str(db_path) != ":memory:"
    read_only = sqlite and use in ("read", "keep")
    if sqlite and use == "any" and Path(db_path).exists():
        read_only = read_only_reason(str(db_path)) is not None
    try:
        try:
            return await Store.open(db_path, direct=direct, read_only=read_only, create=create, migrate=use != "keep")
        except OutOfDateError:
            if use != "read" or read_only_reason(str(db_path)) is not None:
                raise
            return await Store.open(db_path, direct=direct, create=create)
    except DatabaseUnusableError as exc:
        raise EnvironmentProblem(str(exc)) from exc


def _environment_problem(db_path: Path | str, exc: BaseException) -> EnvironmentProblem:
    """One line for a database error met while a command ran; a write refused by a read-only file or folder
    says which, and that nothing was done."""
    from data.store import describe_database_error

    file = str(db_path) if isinstance(db_path, Path) else None
    text = describe_database_error(exc, file)
    if "readonly" in str(exc).lower():
        text += "; this command would change it, so nothing was done"
    return EnvironmentProblem(f"{_where(db_path)}: {text}")


def _console_session(args: Any, lines: Sequence[str] | None, drive: _Runner) -> int:
    """``pbm do`` (``lines`` given) or ``pbm console`` on the database: on SQLite over a direct connection and
    without an event loop (see :mod:`data.connection`), on PostgreSQL on ``drive``'s one event loop; a database
    error while a command runs (a full disk, a lost server) is one line: it ends ``pbm do``, and the interactive
    console goes on to the next command."""
    import sqlite3
    import time

    from bot.actions import Actions, Result
    from bot.config import ai_seconds, default_db_path
    from bot.console import Console, Outcome, printable, render_json, render_text

    db_path: Path | str = args.db or default_db_path()
    store = drive(_open_store(db_path, direct=True))
    errors = (sqlite3.Error, OSError, *store.database_errors)
    _tolerant_streams()
    try:
        clock = (lambda: args.now) if args.now is not None else time.time
        console = Console(
            Actions(store, ai_seconds=ai_seconds(), clock=clock),
            args.boards or _boards_dir(db_path),
            identity=args.identity,
            images=not args.no_images,
        )
        if lines is not None:
            try:
                outcome = drive(console.run(" ".join(lines)))
            except errors as exc:
                raise _environment_problem(db_path, exc) from exc
            print(render_json(outcome) if args.json else render_text(outcome))
            return 0 if outcome.ok else EXIT_REFUSED
        print(f"pbm console on {printable(_where(db_path))}; 'help' lists the commands, 'quit' leaves.")
        while True:
            try:
                line = input("pbm> ")
            except EOFError:
                print()
                return 0
            if line.strip().lower() in ("quit", "exit"):
                return 0
            if not line.strip():
                continue
            try:
                outcome = drive(console.run(line))
            except errors as exc:
                outcome = Outcome(Result(ok=False, message=str(_environment_problem(db_path, exc))))
            print(render_text(outcome))
    finally:
        try:
            drive(store.close())
        except errors as exc:
            raise _environment_problem(db_path, exc) from exc


def _tolerant_streams() -> None:
    """Bytes that are not UTF-8 typed at the console's prompt reach :meth:`bot.console.Console.run` (as
    ``surrogateescape`` hands them over, like a command line's), which refuses them in one line; and a path or
    word printed back never stops the output with an encoding error, whatever the terminal's locale."""
    for stream, errors in ((sys.stdin, "surrogateescape"), (sys.stdout, "backslashreplace")):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors=errors)


async def _check(db_path: Path | str) -> int:
    """``pbm check``: a damaged file is one line and exit 2 (an environment problem); games that differ from
    their move log are listed, exit 1. A missing or empty file is reported, never made into a database."""
    from bot.actions import Actions
    from bot.maintenance import check

    store = await _open_store(db_path, direct=True, use="read", create=False)
    try:
        report = await check(Actions(store))
    except (OSError, *store.database_errors) as exc:
        raise _environment_problem(db_path, exc) from exc
    finally:
        await store.close()
    if report.file_problems:
        raise EnvironmentProblem(f"{_where(db_path)}: {report.damage()}")
    print("\n".join(report.lines()))
    return 0 if report.ok else EXIT_REFUSED


async def _rebuild_ratings(db_path: Path | str) -> int:
    """``pbm ratings rebuild``: every rating recomputed from the finished games and replaced in one transaction."""
    from bot.actions import Actions

    store = await _open_store(db_path, direct=True, use="write", create=False)
    try:
        result = await Actions(store).rebuild_ratings()
    except store.database_errors as exc:
        raise _environment_problem(db_path, exc) from exc
    finally:
        await store.close()
    print(result.message)
    return 0


async def _web_sign_in(db_path: Path | str, command: str, player: str) -> int:
    """``pbm web-link PLAYER`` (a one-time sign-in link, printed) and ``pbm web-logout PLAYER`` (every session of
    theirs ended). A name that cannot sign in is refused in one line (exit 1)."""
    import time

    from bot.actions import InputError
    from bot.signin import check_web_player, link_sentence, sign_in_link
    from bot.text import count

    try:
        check_web_player(player)
    except InputError as exc:
        from bot.console import printable

        print(f"pbm: {printable(str(exc))}", file=sys.stderr)
        return EXIT_REFUSED
    base_url = _web_config().base_url if command == "web-link" else ""
    store = await _open_store(db_path, direct=True, use="write")
    try:
        if command == "web-link":
            print(link_sentence(player, await sign_in_link(store, player, base_url, time.time())))
        else:
            ended = await store.end_web_sessions(player)
            print(f"{player} is signed out of the web UI ({count(ended, 'session')} ended)")
    except store.database_errors as exc:
        raise _environment_problem(db_path, exc) from exc
    finally:
        await store.close()
    return 0


async def _backup(db_path: Path, target: Path) -> int:
    """``pbm backup``: reported done only once the copy has passed its check (see ``Store.backup``). The database
    is only read (it may be read-only; one from an older pbm is copied as it is); a missing or empty one is
    reported, never made."""
    from data.store import StoreError

    store = await _open_store(db_path, direct=True, use="keep", create=False)
    try:
        written = await store.backup(target)
    except StoreError as exc:
        raise EnvironmentProblem(str(exc)) from exc
    except (OSError, *store.database_errors) as exc:
        raise _environment_problem(db_path, exc) from exc
    finally:
        await store.close()
    games = "1 game" if written.games == 1 else f"{written.games} games"
    print(f"backed up {db_path} to {written.path} ({games}; the copy passed SQLite's integrity check)")
    return 0


def _run_copy(source: Path | str, target: Path | str) -> int:
    """``pbm db copy FROM TO``: on SQLite alone without an event loop, else on one kept for the whole copy. A new
    target file that the copy could not finish is deleted: a failed copy leaves nothing behind."""
    if _where(source) == _where(target) or (
        isinstance(source, Path) and isinstance(target, Path) and source.resolve() == target.resolve()
    ):
        raise EnvironmentProblem(f"{_where(source)}: a database cannot be copied into itself")
    new_file = isinstance(target, Path) and str(target) != ":memory:" and not target.exists()
    drive = _Runner(source, target)
    try:
        return drive(_copy(source, target))
    except BaseException:
        if new_file:
            from data.store.upkeep import remove_new_database

            remove_new_database(str(target))
        raise
    finally:
        drive.close()


async def _copy(source: Path | str, target: Path | str) -> int:
    """Copy every row of ``source`` into the new or empty ``target`` (migrated to the same schema version first),
    then check the target as ``pbm check`` does; prints each table's row count on both sides."""
    from bot.actions import Actions
    from bot.maintenance import check
    from data.store import DatabaseUnusableError, StoreError

    origin = await _open_store(source, direct=True, use="read", create=False)
    try:
        copy = await _open_store(target, direct=True, use="write")
        try:
            if not await copy.is_empty():
                print(
                    f"pbm: {_where(target)} already holds pbm data: copy into a new file or an empty database",
                    file=sys.stderr,
                )
                return EXIT_REFUSED
            try:
                counts = await origin.copy_into(copy)
            except DatabaseUnusableError as exc:  # the source could not be read: it names itself
                raise EnvironmentProblem(str(exc)) from exc
            except StoreError as exc:
                raise EnvironmentProblem(f"{_where(target)}: {exc}") from exc
            except (OSError, *origin.database_errors, *copy.database_errors) as exc:
                raise _environment_problem(target, exc) from exc
            print(f"copied {_where(source)} to {_where(target)} (schema version {await copy.schema_version()})")
            width = max(len(table) for table, _, _ in counts)
            print(f"{'table':<{width}}  {'from':>8}  {'to':>8}")
            for table, here, there in counts:
                print(f"{table:<{width}}  {here:>8}  {there:>8}")
            report = await check(Actions(copy))
            if report.file_problems:
                raise EnvironmentProblem(f"{_where(target)}: {report.damage()}")
            print("\n".join(report.lines()))
            return 0 if report.ok else EXIT_REFUSED
        finally:
            await copy.close()
    finally:
        await origin.close()


def _json_failure(message: str) -> str:
    """``pbm do --json`` always prints its one object, also when the command could not run at all."""
    return json.dumps({"ok": False, "message": message, "game_id": None, "items": [], "legal_moves": []})


def main(argv: Sequence[str] | None = None) -> int:
    """``pbm ARGS``; the exit code."""
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader went away (``pbm do ... | head``): what ran is committed; say nothing more, and keep Python
        # from complaining about stdout again at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_REFUSED


def _main(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("do", "console"):
        from bot.deferred import deferred

        with deferred():
            try:
                parsed = _local_args(argv)
            except UsageError as exc:
                from bot.console import printable

                print(f"pbm: {printable(str(exc))}", file=sys.stderr)
                return EXIT_ENVIRONMENT
            return 0 if parsed is None else _on_database(parsed)
    args = _parser().parse_args(argv)
    if args.command == "db":
        try:
            return _run_copy(args.source, args.target)
        except EnvironmentProblem as exc:
            print(f"pbm: {exc}", file=sys.stderr)
            return EXIT_ENVIRONMENT
        except KeyboardInterrupt:
            return 130
    if args.command in ("check", "backup", "ratings", "web-link", "web-logout"):
        return _on_database(args)
    from bot.config import Config, shard_count, shard_ids

    try:
        sharding = {}
        if args.command == "run":
            sharding = {
                "shard_ids": shard_ids(args.shards, "--shards"),
                "shard_count": shard_count(args.shard_count, "--shard-count"),
            }
        config = Config.from_env(token=getattr(args, "token", None), db_path=args.db, **sharding)
    except SystemExit as exc:
        if not isinstance(exc.code, str):
            raise
        print(f"pbm: {exc.code}", file=sys.stderr)
        return EXIT_ENVIRONMENT
    serving_web = args.command == "web" or (args.command == "run" and not config.token)
    if not config.token and not serving_web:
        print(NO_TOKEN, file=sys.stderr)
        return EXIT_ENVIRONMENT
    import asyncio

    try:
        web_config = _web_config() if args.command in ("run", "web") else None
        asyncio.run(_preflight(config.db_path))
    except EnvironmentProblem as exc:
        print(f"pbm: {exc}", file=sys.stderr)
        return EXIT_ENVIRONMENT
    if serving_web:
        assert web_config is not None
        return _serve_web(web_config, config, local=args.command == "run")
    from bot.discord import run_bot, sync_commands

    if args.command == "run":
        assert web_config is not None
        return run_bot(config, verbose=args.verbose, alongside=_web_beside_the_bot(web_config, config))
    return sync_commands(config, verbose=args.verbose)


def _web_config() -> Any:  # -> bot.config.WebConfig
    """The web UI's settings; a bad one is one line (:class:`EnvironmentProblem`)."""
    from bot.config import WebConfig

    try:
        return WebConfig.from_env()
    except SystemExit as exc:
        raise EnvironmentProblem(str(exc.code)) from None


def _serve_web(web_config: Any, config: Any, *, local: bool) -> int:
    """``pbm web``, and ``pbm run`` without a token (``local``: it says how to add one, and trusts the local
    user; see :mod:`bot.web.security`)."""
    from bot.web.serve import serve_until_stopped

    if local:
        print(RUN_WITHOUT_TOKEN, flush=True)
    print(f"Games are kept in {_where(config.db_path)}.", flush=True)
    return serve_until_stopped(
        web_config, config.db_path, local=local, say=lambda line: print(line, flush=True), ai_seconds=config.ai_seconds
    )


def _web_beside_the_bot(web_config: Any, config: Any) -> Any:
    """What ``pbm run`` serves beside the bot: the web UI, whose moves the bot posts at once, with the bot's
    ``/healthz`` and ``/metrics`` on its port. An address that is taken only costs the web UI (logged); the bot
    runs on."""
    import contextlib
    import logging

    @contextlib.asynccontextmanager
    async def alongside(bot: Any) -> Any:
        from bot.discord.web_bridge import WebAnnouncer
        from bot.web.serve import WebStartError, web_server

        log = logging.getLogger("pbm.web")
        serving = web_server(
            web_config,
            config.db_path,
            announcer=WebAnnouncer(bot),
            ai_seconds=config.ai_seconds,
            clock=bot.clock,
            ops=bot.ops,
        )
        try:
            running = await serving.__aenter__()
        except WebStartError as exc:
            log.warning("%s; the bot runs without it (PBM_WEB_HOST and PBM_WEB_PORT choose another)", exc)
            yield None
            return
        log.info("the web UI is at %s", web_config.public_url or running.address)
        try:
            yield running
        finally:
            await serving.__aexit__(None, None, None)

    return alongside


def _on_database(args: Any) -> int:
    """``pbm do``, ``console``, ``check``, ``backup``, ``ratings rebuild``, ``web-link`` and ``web-logout``:
    commands on the database alone (no Discord)."""
    from bot.config import default_db_path

    db_path: Path | str = args.db or default_db_path()
    try:
        if args.command in ("do", "console"):
            _make_data_dir(db_path)
        if args.command == "backup" and not isinstance(db_path, Path):
            raise EnvironmentProblem(
                f"{_where(db_path)}: pbm backup works on SQLite files; back up a PostgreSQL database with"
                " pg_dump (or copy it with pbm db copy)"
            )
        if args.command == "do" and not args.words:
            raise EnvironmentProblem('no command given: try pbm do "help"')
        drive = _Runner(db_path)
        try:
            if args.command == "check":
                return drive(_check(db_path))
            if args.command == "backup":
                return drive(_backup(db_path, args.path))  # type: ignore[arg-type]
            if args.command == "ratings":
                return drive(_rebuild_ratings(db_path))
            if args.command in ("web-link", "web-logout"):
                return drive(_web_sign_in(db_path, args.command, args.player))
            return _console_session(args, args.words if args.command == "do" else None, drive)
        finally:
            drive.close()
    except EnvironmentProblem as exc:
        from bot.console import printable

        line = printable(str(exc))  # a path typed with a control character in it stays one line
        if getattr(args, "json", False):
            print(_json_failure(line))
        print(f"pbm: {line}", file=sys.stderr)
        return EXIT_ENVIRONMENT
    except KeyboardInterrupt:
        return 130


async def _preflight(db_path: Path) -> None:
    """Open (and migrate) the database before connecting to Discord, so a bad file is one line, not a bot that
    logs in and then fails; the bot writes, so a read-only file is refused here too."""
    _make_data_dir(db_path)
    store = await _open_store(db_path, use="write")
    await store.close()


def _make_data_dir(db_path: Path | str) -> None:
    """pbm's own data directory, made on first use (:func:`bot.config.make_data_dir`); a folder that cannot be
    made is one line."""
    from bot.config import make_data_dir

    try:
        make_data_dir(db_path)
    except OSError as exc:
        raise EnvironmentProblem(f"{_where(db_path)}: its folder cannot be made ({exc.strerror or exc})") from exc


def entry() -> int:
    """The ``pbm`` program (and ``python -m bot``). ``pbm do`` ends its process as soon as its output is out:
    everything it wrote is closed by then (the database, the board file), and the interpreter's usual tear-down,
    freeing every module and object one by one, would add a tenth to the command for nothing."""
    code = main()
    if sys.argv[1:2] == ["do"]:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BrokenPipeError:  # the reader went away (``pbm do ... | head``), as in main()
            pass
        os._exit(code)
    return code


if __name__ == "__main__":
    sys.exit(entry())
