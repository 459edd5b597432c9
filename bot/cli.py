"""The ``pbm`` command: ``run`` (the Discord bot), ``sync`` (push slash commands), ``console`` and ``do``.

``pbm do`` and ``pbm console`` never import discord.py: a console move costs a process start, one SQLite
transaction and one board render.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.config import Config, default_db_path

NO_TOKEN = (
    "No Discord token: set DISCORD_TOKEN (or pass --token) to run the bot.\n"
    'To play without Discord, use the console: pbm console   (or one command: pbm do "druid help")'
)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pbm", description="Play-by-post board games: Discord bot and console.")
    sub = parser.add_subparsers(dest="command", required=True)

    def local(p: argparse.ArgumentParser) -> None:
        p.add_argument("--db", type=Path, default=None, help="SQLite file (default: $PBM_DB or the data directory)")
        p.add_argument("--as", dest="identity", default=None, help="act as this user where a command names none")
        p.add_argument("--boards", type=Path, default=None, help="where board PNGs go (default: beside the db)")
        p.add_argument("--no-images", action="store_true", help="do not write board PNGs")

    do = sub.add_parser("do", help='run one console command, e.g. pbm do "druid show 1"')
    local(do)
    do.add_argument("--json", action="store_true", help="print one JSON object")
    do.add_argument("words", nargs="+", help="the command: one quoted string, or separate words")
    console = sub.add_parser("console", help="an interactive console of the same commands")
    local(console)
    for name, text in (("run", "start the Discord bot"), ("sync", "push the slash commands to Discord now")):
        p = sub.add_parser(name, help=text)
        p.add_argument("--token", default=None, help="Discord bot token (default: $DISCORD_TOKEN)")
        p.add_argument("--db", type=Path, default=None, help="SQLite file (default: $PBM_DB or the data directory)")
    return parser


_VALUE_OPTIONS = ("--db", "--as", "--boards")
_FLAG_OPTIONS = ("--json", "--no-images", "-h", "--help")


def _words_after_options(argv: Sequence[str]) -> list[str]:
    """Arrange a ``pbm do`` line so that argparse reads pbm's own options as options and everything else as the
    command's words, wherever they stand: pbmserv words may start with a dash (``-size=8``, and ``--``, a pass),
    which argparse would otherwise take for options or for the end of its options."""
    argv = list(argv)
    if not argv or argv[0] != "do":
        return argv
    options: list[str] = []
    words: list[str] = []
    index = 1
    while index < len(argv):
        word = argv[index]
        if word in _VALUE_OPTIONS and index + 1 < len(argv):
            options += argv[index : index + 2]
            index += 2
            continue
        if word in _FLAG_OPTIONS or word.split("=", 1)[0] in _VALUE_OPTIONS:
            options.append(word)
        elif not (word == "--" and not words):  # a leading "--" is the user's own end-of-options marker
            words.append(word)
        index += 1
    return ["do", *options, "--", *words]


async def _console_session(args: argparse.Namespace, lines: Sequence[str] | None) -> int:
    from bot.actions import Actions
    from bot.console import Console, render_json, render_text
    from data.store import Store

    db_path: Path = args.db or default_db_path()
    boards = args.boards or db_path.parent / "boards"
    store = await Store.open(db_path)
    try:
        console = Console(Actions(store), boards, identity=args.identity, images=not args.no_images)
        if lines is not None:
            outcome = await console.run(" ".join(lines))
            print(render_json(outcome) if args.json else render_text(outcome))
            return 0 if outcome.ok else 1
        print(f"pbm console on {db_path}; 'help' lists the commands, 'quit' leaves.")
        loop = asyncio.get_running_loop()
        while True:
            try:
                line = await loop.run_in_executor(None, input, "pbm> ")
            except EOFError:
                print()
                return 0
            if line.strip().lower() in ("quit", "exit"):
                return 0
            if line.strip():
                print(render_text(await console.run(line)))
    finally:
        await store.close()


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(_words_after_options(sys.argv[1:] if argv is None else argv))
    if args.command in ("do", "console"):
        try:
            return asyncio.run(_console_session(args, args.words if args.command == "do" else None))
        except BrokenPipeError:
            # The reader went away (``pbm do ... | head``): the command has run and is committed; say nothing
            # more, and keep Python from complaining about stdout again at exit.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 1
    config = Config.from_env(token=args.token, db_path=args.db)
    if not config.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    from bot.discord import run_bot, sync_commands

    return run_bot(config) if args.command == "run" else sync_commands(config)


if __name__ == "__main__":
    sys.exit(main())
