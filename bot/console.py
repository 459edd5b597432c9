"""The offline console front: pbmserv's command language on a local SQLite file.

``pbm do "druid challenge -size=8 alice bob"`` runs one command; ``pbm console`` reads them one per line. The
grammar is pbmserv's (``<game> <command> ...``, see :data:`USAGE`); the password word pbmserv put after the user
id is accepted and ignored, because identity comes from the front. This module parses and presents; every
action is :class:`bot.actions.Actions`.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from bot.actions import Actions, Result, split_move_number
from rules import registry
from rules.base import GameError

USAGE = """\
Commands (pbmserv style; <id> is a game number, [pw] an ignored password word):
  <game> challenge [-options] user1 user2 [user3 ...]   start a game at once (options like -size=8 -hex)
  <game> move <id> <user> [pw] <move>[#n]               make a move (#n: refuse unless it is move n)
  <game> board <id> <user> [pw] <move>                  same as move (pbmserv's alias)
  <game> board <id>                                     show the board (our extension)
  <game> show <id>[#n] ...                              show boards, or the position after move n
  <game> resign <id> <user> [pw]                        resign (out of turn: queued until your turn)
  <game> <command> <id> <user> [pw]                     the game's own commands: pass, swap (druid);
                                                        roll, double, take, drop, greedy, manual (backgammon)
  <game> moves <id> [prefix]                            every legal move of the position (or those with a prefix)
  <game> history [<id>]                                 the move list of a game, or the finished games
  <game> games [user ...] [all|active|inactive|next]    games of users ('next': waiting on them)
  <game> help                                           rules, options and notation
  help                                                  this text and the list of games
Add --as USER to act as USER where the command names no user."""

_FILTERS = ("all", "active", "inactive", "next")


class ConsoleError(Exception):
    """A command line that cannot be understood; the message says what was expected."""


@dataclass
class Outcome:
    """What the console prints for one command, and the PNG it wrote."""

    result: Result
    board_path: Path | None = None

    @property
    def ok(self) -> bool:
        return self.result.ok


class Console:
    """Runs console commands against :class:`Actions`, writing board PNGs into ``boards_dir``."""

    def __init__(self, actions: Actions, boards_dir: Path, *, identity: str | None = None, images: bool = True):
        self.actions = actions
        self.boards_dir = boards_dir
        self.identity = identity
        self.images = images

    async def run(self, line: str) -> Outcome:
        """Run one command line."""
        try:
            words = shlex.split(line)
        except ValueError as exc:
            return Outcome(Result(ok=False, message=f"cannot read the command: {exc}"))
        try:
            result, board_name = await self._dispatch(words)
        except ConsoleError as exc:
            return Outcome(Result(ok=False, message=str(exc)))
        path = self._write_board(result, board_name) if result.ok and self.images else None
        return Outcome(result, path)

    def _write_board(self, result: Result, name: str | None) -> Path | None:
        if result.state is None or name is None:
            return None
        png = result.board_png()
        if png is None:
            return None
        self.boards_dir.mkdir(parents=True, exist_ok=True)
        path = self.boards_dir / name
        path.write_bytes(png)
        return path

    async def _dispatch(self, words: list[str]) -> tuple[Result, str | None]:
        if not words or words[0].lower() in ("help", "?"):
            games = self.actions.help(None)
            return replace(games, message=f"{USAGE}\n\n{games.message}"), None
        try:
            game = registry.get(words[0]).name
        except GameError as exc:
            raise ConsoleError(f"{exc}; type 'help' for the commands") from None
        if len(words) < 2:
            raise ConsoleError(f"what should {game} do? (challenge, move, show, games, history, help ...)")
        command, args = words[1].lower(), words[2:]
        if command == "help":
            return self.actions.help(game), None
        if command == "challenge":
            return await self._challenge(game, args)
        if command in ("move", "mvoe", "board") and not (command == "board" and len(args) == 1):
            return await self._move(game, command, args)
        if command in ("board", "show"):
            return await self._show(game, command, args)
        if command == "resign":
            game_id, player, _ = await self._game_user(game, command, args)
            return await self.actions.resign(game_id, player), _board_name(game, game_id)
        if command == "moves":
            if not args:
                raise ConsoleError(f"usage: {game} moves <id> [prefix]")
            return await self.actions.moves(_game_id(args[0]), " ".join(args[1:]), limit=None), None
        if command == "history":
            if args:
                return await self.actions.history(_game_id(args[0])), None
            return await self.actions.games(None, "inactive", game), None
        if command == "games":
            return await self._games(game, args)
        if command in registry.get(game).extra_commands:
            game_id, player, _ = await self._game_user(game, command, args)
            return await self.actions.move(game_id, player, command), _board_name(game, game_id)
        raise ConsoleError(f"unknown {game} command {command!r}; type '{game} help' or 'help'")

    async def _challenge(self, game: str, args: list[str]) -> tuple[Result, str | None]:
        options = [a for a in args if a.startswith("-")]
        players = [a for a in args if not a.startswith("-")]
        if len(players) < 2:
            raise ConsoleError(f"usage: {game} challenge [-options] user1 user2 [...]")
        result = await self.actions.challenge(game, players, options, start=True)
        return result, _board_name(game, result.game_id) if result.game_id else None

    async def _move(self, game: str, command: str, args: list[str]) -> tuple[Result, str | None]:
        game_id, player, rest = await self._game_user(game, command, args)
        if not rest:
            raise ConsoleError(f"usage: {game} {command} <id> <user> [password] <move>[#n]")
        text = " ".join(rest)
        alternative = " ".join(rest[1:]) if len(rest) > 1 else None
        return await self.actions.move(game_id, player, text, alternative=alternative), _board_name(game, game_id)

    async def _show(self, game: str, command: str, args: list[str]) -> tuple[Result, str | None]:
        if not args:
            raise ConsoleError(f"usage: {game} {command} <id>[#n]")
        if len(args) > 1:
            parts = [await self._show(game, command, [a]) for a in args]
            return _merge([p[0] for p in parts]), parts[-1][1]
        ref, at = split_move_number(args[0])
        game_id = _game_id(ref)
        result = await self.actions.show(game_id, at)
        if result.ok and result.game_type != game:
            raise ConsoleError(f"game {game_id} is a {result.game_type} game, not {game}")
        name = _board_name(game, game_id, at)
        return result, name

    async def _games(self, game: str, args: list[str]) -> tuple[Result, str | None]:
        which = "active"
        users = []
        for arg in args:
            if arg.lower() in _FILTERS:
                which = arg.lower()
            else:
                users.append(arg)
        if not users and self.identity is not None:
            users = [self.identity]
        if not users:
            return await self.actions.games(None, which, game), None
        results = [await self.actions.games(user, which, game) for user in users]
        return _merge(results), None

    async def _game_user(self, game: str, command: str, args: list[str]) -> tuple[int, str, list[str]]:
        """Read ``<id> <user> ...``; with ``--as`` the user may be left out (a word naming a player of the game
        is taken as the user, anything else as the start of the move)."""
        if not args:
            raise ConsoleError(f"usage: {game} {command} <id> <user> ...")
        game_id = _game_id(args[0])
        rest = args[1:]
        if self.identity is None:
            if not rest:
                raise ConsoleError(f"usage: {game} {command} <id> <user> ... (or give --as USER)")
            return game_id, rest[0], rest[1:]
        if rest and rest[0] in await self.actions.players_of(game_id):
            return game_id, rest[0], rest[1:]
        return game_id, self.identity, rest


def _game_id(word: str) -> int:
    if not word.isdigit():
        raise ConsoleError(f"{word!r} is not a game number")
    return int(word)


def _board_name(game: str, game_id: int | None, at: int | None = None) -> str | None:
    if game_id is None:
        return None
    return f"{game}-{game_id}.png" if at is None else f"{game}-{game_id}-move{at}.png"


def _merge(results: Sequence[Result]) -> Result:
    """Several results printed as one (``show 1 2``, ``games alice bob``)."""
    last = results[-1]
    return Result(
        ok=all(r.ok for r in results),
        message="\n\n".join(r.message for r in results),
        items=[item for r in results for item in r.items],
        game_id=last.game_id,
        game_type=last.game_type,
        move_number=last.move_number,
        to_move=last.to_move,
        status=last.status,
        winners=last.winners,
        state=last.state,
        players=last.players,
    )


def render_text(outcome: Outcome) -> str:
    """The console's human-readable output for one command."""
    result = outcome.result
    parts = [result.message if result.ok else f"error: {result.message}"]
    if result.items:
        parts.append("\n".join(result.items))
    board = result.board_text() if result.ok else None
    if board:
        parts.append(board)
    if outcome.board_path is not None:
        parts.append(f"board image: {outcome.board_path}")
    return "\n\n".join(parts)


def render_json(outcome: Outcome) -> str:
    """The console's ``--json`` output: one object."""
    data = outcome.result.to_json()
    data["board_png"] = None if outcome.board_path is None else str(outcome.board_path)
    data["board_text"] = outcome.result.board_text() if outcome.result.ok else None
    return json.dumps(data, ensure_ascii=False)
