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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from bot import board_files
from bot.actions import (
    Actions,
    InputError,
    Result,
    check_player_name,
    parse_number,
    shorten,
    split_move_number,
)
from render import VIEWS, has_3d
from rules import registry

if TYPE_CHECKING:
    from bot.console_tournaments import TournamentWords

#: the longest command line read; longer input is refused before it is parsed
MAX_LINE = 4096

USAGE = """\
Commands (pbmserv style; <id> is a game number, [pw] an ignored password word):
  <game> challenge [-options] user1 user2 [user3 ...]   start a game at once (options like -size=8 -hex)
  <game> challenge [-options] user1 [user2 ...] open [open ...]
                                                        an open challenge: each 'open' is a seat anyone may take,
                                                        -rating_min=n / -rating_max=n for players so rated
  <game> join <challenge> <user> [pw]                   take a seat in an open challenge; full, the game starts
  <game> withdraw <challenge> <user> [pw]               withdraw your challenge
  <game> challenges                                     the game's open challenges ('challenges': every game's)
  <game> move <id> <user> [pw] <move>[#n]               make a move (#n: refuse unless it is move n)
  <game> board <id> <user> [pw] <move>                  same as move (pbmserv's alias)
  <game> board <id>                                     show the board (our extension)
  <game> show <id>[#n] ...                              show boards, or the position after move n
  <game> show <id>[#n] 3d                               the board's 3D view (Druid and Drogo), as a picture
  <game> resign <id> <user> [pw]                        resign (out of turn: queued until your turn)
  <game> <command> <id> <user> [pw]                     the game's own commands: pass, swap (druid);
                                                        roll, double, take, drop, greedy, manual (backgammon)
  <game> moves <id> [prefix]                            every legal move of the position (or those with a prefix)
  <game> history [<id>]                                 the move list of a game, or the finished games
                                                        ('history <id>' or 'history' alone: any game)
  <game> replay <id> [from] [to]                        an animated GIF of the game (or of those moves)
  backgammon analyze <id>                               a finished game's plays and cube actions rated by gnubg
  <game> games [user ...] [all|active|inactive|next] [page N]
                                                        games of users ('next': waiting on them), 50 a page;
                                                        'games [user ...]' alone: every game's, least time left first
  <game> help                                           rules, options and notation ('help <game>' too)
Correspondence (every game):
  <game> preview <id> <user> [pw] <move>                the position after a move, without playing it
  <game> propose <id> <user> [pw] undo|draw             propose to take back the last move, or a draw
  <game> accept <id> <user> [pw]                        accept the game's open proposal
  <game> reject <id> <user> [pw]                        reject it (no answer in time also rejects)
  <game> queue <id> <user> [pw] ["<moves>"|clear]       conditional moves: "d4 e5 d6 e7" = if d4, e5; if d6, e7
  vacation <user> [on|off]                              stop your clocks while away (alone: the bank)
  notify <user> [quiet 22-08|off [Europe/Paris]] [tz Europe/Paris] [confirm on|off]
                                                        quiet hours, time zone, preview before every move
  tick                                                  act on what is due now: warnings, timeouts, reminders
Ratings (-unrated at the challenge keeps a game out of them):
  <game> ratings [-variant options|standard] [page N]   the leaderboard, ten a page (a variant: who played it)
  <game> ratings <user>                                 a player's rating, rank and results in the game
  profile <user> [<other user>]                         a player's ratings in every game, and their chart;
                                                        with another user: their head-to-head record
Tournaments (formats: swiss, with its rounds; round-robin; knock-out):
  <game> tournament create <user> <format> [rounds] [-options] [-table=3-4] [-max_players=n] [-signup_until=TIME]
                                                        a tournament open for signup; -options are every game's
                                                        (-size=8 -days=3 -unrated); -table: players a game
  <game> tournament join|leave|start <id> <user>        enter or leave it (once started: withdraw); start it
  <game> tournament show <id>                           the standings and the round's games ('standings' too)
  <game> tournament cancel <id> <user> [reason ...]     the organiser cancels it
  <game> tournament remove <id> <user> <player> [reason ...]   the organiser takes a player out
  [<game>] tournaments                                  the tournaments signing up or running
Moderation (the console's operator; every game and challenge, of every server):
  admin cancel <id> <reason ...>                        end a game without a result (unrated); the players hear why
  admin decide <id> <user> [unrated] <reason ...>       end a game: <user> wins, the others lose (rated unless told)
  admin forfeit <user> <reason ...>                     remove a player from all their games (one opponent left
                                                        wins) and withdraw their open challenges
  admin challenges <user> <reason ...>                  withdraw the open challenges a player made
  admin log [page N]                                    what moderators did, newest first
  help                                                  this text, the games and the options every game takes
Add --as USER to act as USER where the command names no user, --now 2026-12-01T09:00Z to act at that time."""

_FILTERS = ("all", "active", "inactive", "next")
#: the words that may open a command line besides a game's name
_TOP_WORDS = ("help", "tick", "vacation", "notify", "profile", "challenges", "games", "history", "admin", "tournaments")
#: every game's commands (a game adds its own, like Backgammon's roll); an unknown one is answered with the closest
_GAME_COMMANDS = (
    "challenge", "join", "withdraw", "challenges", "move", "board", "show", "preview", "propose", "accept", "reject",
    "queue", "resign", "moves", "history", "games", "ratings", "analyze", "replay", "help", "tournament", "tournaments",
)  # fmt: skip


#: each ``admin`` command and its usage line
_ADMIN_USAGE = {
    "cancel": "usage: admin cancel <id> <reason ...>",
    "decide": "usage: admin decide <id> <user> [unrated] <reason ...>",
    "forfeit": "usage: admin forfeit <user> <reason ...>",
    "challenges": "usage: admin challenges <user> <reason ...>",
    "log": "usage: admin log [page N]",
}


class ConsoleError(Exception):
    """A command line that cannot be understood; the message says what was expected."""


@dataclass(frozen=True)
class Wanted:
    """Which picture a command writes of the position it answers about: the board as it stands, after move
    ``at``, or a preview's; in ``view`` ("top", or "3d"). Its file is named for the game the answer shows, not
    the one the command named: a first-round decline answers with the game that replaces the declined one."""

    at: int | None = None
    preview: bool = False
    view: str = "top"


#: the board as it stands, and a preview's
BOARD, PREVIEW = Wanted(), Wanted(preview=True)


@dataclass
class Outcome:
    """What the console prints for one command, and the PNG it wrote. ``sections`` are the separate answers of
    a command about several players (``games bob carol``), printed one after another. A 3D view is answered in
    one line (``view``), which names the picture."""

    result: Result
    board_path: Path | None = None
    sections: list[Result] = field(default_factory=list)
    view: str = "top"

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
        if len(line) > MAX_LINE:
            too_long = f"the command is too long ({len(line)} characters; at most {MAX_LINE})"
            return Outcome(Result(ok=False, message=too_long))
        unreadable = _undecodable(line)
        if unreadable:
            return Outcome(Result(ok=False, message=unreadable))
        try:
            words = shlex.split(line)
        except ValueError as exc:
            return Outcome(Result(ok=False, message=f"cannot read the command: {exc}"))
        try:
            result, wanted = await self._dispatch(words)
        except (ConsoleError, InputError) as exc:
            return Outcome(Result(ok=False, message=str(exc)))
        sections = result.sections if isinstance(result, _Sections) else []
        path = self._write_board(result, wanted) if result.ok and self.images else None
        view = wanted.view if wanted is not None else "top"
        if view == "3d" and path is not None:
            result.message = f"{board_files.caption_3d(result)}: {printable(str(path))}"
        return Outcome(result, path, sections, view)

    def _write_board(self, result: Result, wanted: Wanted | None) -> Path | None:
        """The picture ``wanted`` of the position ``result`` answers about, in ``boards_dir``, named for the game
        it shows; drawn only when the file there does not already show the same picture (position, clock notes,
        ratings and view: see :mod:`bot.board_files`)."""
        made = board_files.picture(result, wanted.view) if wanted is not None else None
        if made is None or wanted is None or result.game_id is None:
            return None
        name = board_files.file_name(
            made.state.game.name, result.game_id, at=wanted.at, preview=wanted.preview, view=wanted.view
        )
        path = self.boards_dir / name
        key = made.key()
        if not board_files.shows(path, key):
            board_files.write(path, made.png(), key)
        return path

    async def _dispatch(self, words: list[str]) -> tuple[Result, Wanted | None]:
        first = words[0].lower() if words else "help"
        if first in ("help", "?"):
            return self._help(words[1:]), None
        if first in ("tick", "vacation", "notify"):
            return await self._correspondence(first, words[1:]), None
        if first == "profile":
            return await self._profile(words[1:]), None
        if first == "challenges":
            if len(words) > 1:
                raise ConsoleError("usage: challenges   (or <game> challenges for one game's)")
            return await self.actions.challenges_open_to_all(), None
        if first == "games":
            return await self._games(None, words[1:])
        if first == "history":
            return await self._history(None, words[1:]), None
        if first == "admin":
            return await self._admin(words[1:])
        if first == "tournaments":
            return await self._tournaments(None, words[1:]), None
        if first not in registry.names():
            hint = _did_you_mean(first, (*_TOP_WORDS, *registry.names())) or "; type 'help' for the commands"
            raise ConsoleError(_unknown_game(words[0], hint))
        game = registry.get(first).name
        if len(words) < 2:
            raise ConsoleError(f"what should {game} do? (challenge, move, show, games, history, help ...)")
        command, args = words[1].lower(), words[2:]
        if command == "help":
            return self.actions.help(game), None
        if command == "challenge":
            return await self._challenge(game, args)
        if command in ("join", "withdraw"):
            challenge_id, player = await self._challenge_user(game, command, args)
            if command == "join":
                joined = await self.actions.accept(challenge_id, player)
                return joined, BOARD
            return await self.actions.cancel(challenge_id, player), None
        if command == "challenges":
            if args:
                raise ConsoleError(f"usage: {game} challenges")
            return await self.actions.challenges_open_to_all(game), None
        if command in ("move", "board") and not (command == "board" and len(args) == 1):
            return await self._move(game, command, args)
        if command == "preview":
            game_id, player, rest = await self._game_user(game, command, args)
            if not rest:
                raise ConsoleError(f"usage: {game} preview <id> <user> [password] <move>")
            alternative = " ".join(rest[1:]) if len(rest) > 1 else None
            preview = await self.actions.preview(game_id, player, " ".join(rest), alternative=alternative)
            return preview, PREVIEW
        if command == "propose":
            game_id, player, rest = await self._game_user(game, command, args)
            if not rest or rest[-1].lower() not in ("undo", "draw"):
                raise ConsoleError(f"usage: {game} propose <id> <user> [password] undo|draw")
            return await self.actions.propose(game_id, player, rest[-1]), BOARD
        if command in ("accept", "reject"):
            game_id, player, _rest = await self._game_user(game, command, args)
            return await self.actions.answer(game_id, player, accept=command == "accept"), BOARD
        if command == "queue":
            game_id, player, rest = await self._game_user(game, command, args)
            line = " ".join(rest) if rest else None
            if rest and len(rest) > 1 and rest[-1].lower() == "clear":
                line = "clear"
            return await self.actions.queue(game_id, player, line), None
        if command in ("board", "show"):
            return await self._show(game, command, args)
        if command == "resign":
            game_id, player, rest = await self._game_user(game, command, args)
            expected = _resign_guard(rest)
            return await self.actions.resign(game_id, player, expected), BOARD
        if command == "moves":
            if not args:
                raise ConsoleError(f"usage: {game} moves <id> [prefix]")
            game_id = await self._game_of(game, args[0])
            return await self.actions.moves(game_id, " ".join(args[1:]), limit=None), None
        if command == "history":
            return await self._history(game, args), None
        if command == "games":
            return await self._games(game, args)
        if command == "ratings":
            return await self._ratings(game, args), None
        if command == "analyze":
            if len(args) != 1:
                raise ConsoleError(f"usage: {game} analyze <id>   (a finished Backgammon game)")
            return await self.actions.analyze(await self._game_of(game, args[0])), None
        if command == "replay":
            return await self._replay(game, args), None
        if command == "tournament":
            return await self._tournament_words().run(game, args), None
        if command == "tournaments":
            return await self._tournaments(game, args), None
        if command in registry.get(game).extra_commands:
            game_id, player, rest = await self._game_user(game, command, args)
            guard = "".join(rest).strip()
            text = command + (guard if guard.startswith("#") else "")
            return await self.actions.move(game_id, player, text), BOARD
        known = (*_GAME_COMMANDS, *registry.get(game).extra_commands)
        suggestion = _did_you_mean(command, known) or f"; type '{game} help' or 'help'"
        raise ConsoleError(f"unknown {game} command {shorten(command)!r}{suggestion}")

    def _help(self, args: list[str]) -> Result:
        """``help``: the commands, the games and the options every game takes; ``help <game>``: that game's."""
        if len(args) > 1:
            raise ConsoleError("usage: help [<game>]")
        if args:
            wanted = args[0].lower()
            if wanted not in registry.names():
                raise ConsoleError(_unknown_game(args[0], _did_you_mean(wanted, registry.names())))
            return self.actions.help(wanted)
        games = self.actions.help(None)
        return replace(games, message=f"{USAGE}\n\n{games.message}")

    async def _history(self, game: str | None, args: list[str]) -> Result:
        """``[<game>] history <id>``: a game's move list (without the game word, any game's: game numbers are
        unique across games); ``[<game>] history`` alone: the finished games (of every game without the word)."""
        if len(args) > 1:
            raise ConsoleError(f"usage: {_prefix(game)}history [<id>]")
        if not args:
            return await self.actions.games(None, "inactive", game)
        game_id = parse_number(args[0], "game number") if game is None else await self._game_of(game, args[0])
        return await self.actions.history(game_id)

    async def _correspondence(self, command: str, args: list[str]) -> Result:
        """The commands about a player rather than a game: ``tick``, ``vacation``, ``notify``."""
        if command == "tick":
            if args:
                raise ConsoleError("usage: tick   (acts on everything due now; --now sets the time)")
            return await self.actions.tick()
        user = args[0] if args else self.identity
        if user is None:
            raise ConsoleError(f"usage: {command} <user> ...")
        if args and args[0] == user:
            args = args[1:]
        check_player_name(user)
        if command == "vacation":
            if len(args) > 1 or (args and args[0].lower() not in ("on", "off")):
                raise ConsoleError("usage: vacation <user> [on|off]")
            return await self.actions.vacation(user, args[0] if args else None)
        settings: dict[str, str] = {}
        words = list(args)
        while words:
            key = words.pop(0).lower()
            if key not in ("quiet", "tz", "confirm") or key in settings:
                raise ConsoleError(
                    "usage: notify <user> [quiet 22-08|off [Europe/Paris]] [tz Europe/Paris] [confirm on|off]"
                )
            if not words:
                raise ConsoleError(f"notify: {key} needs a value")
            settings[key] = words.pop(0)
            if key == "quiet" and words and words[0].lower() not in ("quiet", "tz", "confirm") and "tz" not in settings:
                settings["tz"] = words.pop(0)  # quiet hours with their zone: notify alice quiet 22-08 Europe/Paris
        return await self.actions.notify_settings(user, **settings)

    async def _admin(self, args: list[str]) -> tuple[Result, Wanted | None]:
        """``admin cancel|decide|forfeit|challenges|log ...``: moderation by the console's operator (``--as`` names
        them in the audit log), over every game (see :mod:`bot.actions.moderation`)."""
        what = args[0].lower() if args else ""
        rest = args[1:]
        moderator = self.identity or "operator"
        usage = _ADMIN_USAGE.get(what)
        if usage is None:
            hint = _did_you_mean(what, tuple(_ADMIN_USAGE)) if what else ""
            raise ConsoleError(f"usage: admin {'|'.join(_ADMIN_USAGE)} ...{hint}")
        if what == "log":
            if rest and (len(rest) != 2 or rest[0].lower() != "page"):
                raise ConsoleError(usage)
            return await self.actions.admin_log(None, rest[1] if rest else None), None
        if len(rest) < 2:
            raise ConsoleError(usage)
        if what in ("forfeit", "challenges"):
            check_player_name(rest[0])
            act = self.actions.admin_forfeit if what == "forfeit" else self.actions.admin_challenges
            return await act(rest[0], moderator, " ".join(rest[1:]), guild_id=None), None
        game_id = parse_number(rest[0], "game number")
        kind = await self.actions.store.game_type_of(game_id)
        if what == "cancel":
            result = await self.actions.admin_cancel(game_id, moderator, " ".join(rest[1:]), guild_id=None)
        else:
            check_player_name(rest[1])
            unrated = len(rest) > 2 and rest[2].lower() == "unrated"
            reason = " ".join(rest[3:] if unrated else rest[2:])
            result = await self.actions.admin_decide(
                game_id, moderator, rest[1], reason, rated=not unrated, guild_id=None
            )
        return result, BOARD if kind is not None else None

    async def _replay(self, game: str, args: list[str]) -> Result:
        """``<game> replay <id> [from] [to]``: an animated GIF of the game beside the boards."""
        if not args or len(args) > 3:
            raise ConsoleError(f"usage: {game} replay <id> [from move] [to move]")
        game_id = await self._game_of(game, args[0])
        bounds = [0 if word == "0" else parse_number(word, "move number", 10**9) for word in args[1:]]
        result = await self.actions.replay_frames(game_id, *bounds)
        if not result.ok or not self.images:
            return result
        from render.replay import replay_gif

        made = replay_gif(result.frames)
        path = self.boards_dir / f"{game}-{game_id}-replay.gif"
        board_files.write_whole(path, made.data)
        size = f"{len(made.data) / 1024:.0f} KiB"
        note = f"; {made.note}" if made.note else ""
        result.message += f"\n{made.frames} frames, {size}{note}\nreplay: {path}"
        return result

    def _tournament_words(self) -> TournamentWords:
        """The reader of ``<game> tournament ...`` (:mod:`bot.console_tournaments`)."""
        from bot.console_tournaments import TournamentWords

        return TournamentWords(self.actions, self.identity, self.boards_dir if self.images else None, ConsoleError)

    async def _tournaments(self, game: str | None, args: list[str]) -> Result:
        """``[<game>] tournaments``: those signing up or running."""
        if args:
            raise ConsoleError(f"usage: {_prefix(game)}tournaments")
        return await self.actions.tournaments(game)

    async def _game_of(self, game: str, word: str) -> int:
        """The game number ``word`` names, refused when that game is of another kind than the command's word
        (``druid move 1`` on a Drogo game 1)."""
        game_id = parse_number(word, "game number")
        kind = await self.actions.store.game_type_of(game_id)
        if kind is not None and kind != game:
            raise ConsoleError(f"game {game_id} is a {registry.get(kind).title} game, not {game}: use '{kind} ...'")
        return game_id

    async def _challenge(self, game: str, args: list[str]) -> tuple[Result, Wanted | None]:
        """``<game> challenge [-options] user1 user2 ...``: a game started at once; each ``open`` in place of a
        user is a seat anyone may take (``join``), and the game waits until they are all taken."""
        options = [a for a in args if a.startswith("-")]
        names = [a for a in args if not a.startswith("-")]
        players = [a for a in names if a.lower() != "open"]
        open_seats = len(names) - len(players)
        if not names or names[0].lower() == "open" or len(names) < 2:
            raise ConsoleError(f"usage: {game} challenge [-options] user1 user2 [...]   (open: a seat for anyone)")
        for player in players:
            check_player_name(player)
        result = await self.actions.challenge(game, players, options, start=True, open_seats=open_seats)
        return result, BOARD

    async def _challenge_user(self, game: str, command: str, args: list[str]) -> tuple[int, str]:
        """Read ``<challenge> <user> [pw]`` (with ``--as`` the user may be left out), refusing a challenge to
        another game than the command's word."""
        if not args or (self.identity is None and len(args) < 2):
            raise ConsoleError(f"usage: {game} {command} <challenge> <user> [password]")
        challenge_id = parse_number(args[0], "challenge number")
        kind = await self.actions.store.challenge_type_of(challenge_id)
        if kind is not None and kind != game:
            raise ConsoleError(
                f"challenge {challenge_id} is for {registry.get(kind).title}, not {game}: use '{kind} {command} ...'"
            )
        player = args[1] if len(args) > 1 else self.identity
        assert player is not None
        check_player_name(player)
        return challenge_id, player

    async def _move(self, game: str, command: str, args: list[str]) -> tuple[Result, Wanted | None]:
        game_id, player, rest = await self._game_user(game, command, args)
        if not rest:
            raise ConsoleError(f"usage: {game} {command} <id> <user> [password] <move>[#n]")
        text = " ".join(rest)
        alternative = " ".join(rest[1:]) if len(rest) > 1 else None
        if "#" not in text and await self.actions.wants_preview(player):
            # the player asked for every move to be previewed first: this shows it; the #n form plays it
            preview = await self.actions.preview(game_id, player, text, alternative=alternative)
            return preview, PREVIEW
        return await self.actions.move(game_id, player, text, alternative=alternative), BOARD

    async def _show(self, game: str, command: str, args: list[str]) -> tuple[Result, Wanted | None]:
        """``<game> show <id>[#n] ...``: boards as they stand or after move n; ``... 3d`` at the end: the 3D
        view of one board, as a picture only."""
        if not args:
            raise ConsoleError(f"usage: {game} {command} <id>[#n]")
        if command == "show" and args[-1].lower() in VIEWS:
            return await self._show_view(game, args[:-1], args[-1].lower())
        if len(args) > 1:
            parts = [await self._show(game, command, [a]) for a in args]
            failed = [p for p in parts if not p[0].ok]
            if failed:
                return failed[0]  # a missing board among several: say which, in one line
            return _merge([p[0] for p in parts]), parts[-1][1]
        ref, at = _split_show(args[0])
        game_id = await self._game_of(game, ref)
        return await self.actions.show(game_id, at), Wanted(at=at)

    async def _show_view(self, game: str, args: list[str], view: str) -> tuple[Result, Wanted | None]:
        """``<game> show <id>[#n] top|3d``: one board in that view. The 3D view is only a picture, so a game
        without one, several boards at once and ``--no-images`` are refused before anything is read."""
        if len(args) != 1:
            raise ConsoleError(f"one board at a time in a view: {game} show <id>[#n] {view}")
        if view == "3d":
            if not has_3d(game):
                title = registry.get(game).title
                raise ConsoleError(f"{title} has no 3D view; '{game} show {shorten(args[0])}' shows its board")
            if not self.images:
                raise ConsoleError("the 3D view is only a picture, and --no-images writes none")
        ref, at = _split_show(args[0])
        game_id = await self._game_of(game, ref)
        return await self.actions.show(game_id, at), Wanted(at=at, view=view)

    async def _games(self, game: str | None, args: list[str]) -> tuple[Result, Wanted | None]:
        """``[<game>] games [user ...] [all|active|inactive|next] [page N]``: the games of each user named (or of
        ``--as``, or everyone's), of one game or, without the game word, of every game (running ones with the
        least time left first, as Discord's /games). A filter or a page given twice is refused, and so is the
        whole listing when one user's part of it is: the answer is then that one line."""
        usage = f"usage: {_prefix(game)}games [user ...] [all|active|inactive|next] [page N]"
        which: str | None = None
        page: int | None = None
        users: list[str] = []
        words = iter(args)
        for arg in words:
            if arg.lower() in _FILTERS:
                if which is not None:
                    raise ConsoleError(f"{usage}   (one filter: all, active, inactive or next)")
                which = arg.lower()
            elif arg.lower() == "page":
                number = next(words, None)
                if number is None or page is not None:
                    raise ConsoleError(usage if number is None else f"{usage}   (one page number)")
                page = parse_number(number, "page number", 10**6)
            else:
                check_player_name(arg)
                users.append(arg)
        which, page = which or "active", page or 1
        if not users and self.identity is not None:
            users = [self.identity]
        if not users:
            return await self.actions.games(None, which, game, page), None
        results = [await self.actions.games(user, which, game, page) for user in users]
        refused = [result for result in results if not result.ok]
        if refused:
            return refused[0], None
        if len(results) == 1:
            return results[0], None
        return _Sections.of(results), None

    async def _ratings(self, game: str, args: list[str]) -> Result:
        """``<game> ratings [-variant options|standard] [page N]`` (the leaderboard) or ``<game> ratings <user>``."""
        usage = f"usage: {game} ratings [-variant options|standard] [page N]   or   {game} ratings <user>"
        variant: list[str] = []
        users: list[str] = []
        page = 1
        words = iter(args)
        for arg in words:
            if arg.startswith("-") or arg.lower() == "standard":
                variant.append(arg)
            elif arg.lower() == "page":
                number = next(words, None)
                if number is None:
                    raise ConsoleError(usage)
                page = parse_number(number, "page number", 10**6)
            else:
                check_player_name(arg)
                users.append(arg)
        if users:
            if len(users) > 1 or variant or page != 1:
                raise ConsoleError(usage)
            return await self.actions.player_rating(game, users[0])
        return await self.actions.leaderboard(game, variant, page)

    async def _profile(self, args: list[str]) -> Result:
        """``profile <user> [<other user>]``: a player's profile, with the chart of their ratings over time beside
        the boards, or two players' head-to-head record."""
        users = args or ([self.identity] if self.identity is not None else [])
        if not 1 <= len(users) <= 2:
            raise ConsoleError("usage: profile <user> [<other user>]")
        for user in users:
            check_player_name(user)
        if len(users) == 2:
            return await self.actions.head_to_head(users[0], users[1])
        result = await self.actions.profile(users[0])
        if not result.ok or not self.images:
            return result
        from render.chart import rating_chart

        path = self.boards_dir / f"profile-{users[0].replace(':', '')}.png"
        board_files.write_whole(path, rating_chart(await self.actions.rating_series(users[0]), player=users[0]))
        result.message += f"\nrating chart: {path}"
        result.data["chart"] = str(path)
        return result

    async def _game_user(self, game: str, command: str, args: list[str]) -> tuple[int, str, list[str]]:
        """Read ``<id> <user> ...``; with ``--as`` the user may be left out (a word naming a player of the game
        is taken as the user, anything else as the start of the move)."""
        if not args:
            raise ConsoleError(f"usage: {game} {command} <id> <user> ...")
        game_id = await self._game_of(game, args[0])
        rest = args[1:]
        if self.identity is None:
            if not rest:
                raise ConsoleError(f"usage: {game} {command} <id> <user> ... (or give --as USER)")
            check_player_name(rest[0])  # before any question about the player reaches the database
            return game_id, rest[0], rest[1:]
        if rest and rest[0] in await self.actions.players_of(game_id):
            return game_id, rest[0], rest[1:]
        return game_id, self.identity, rest


class _Sections(Result):
    """Several answers printed one after another (``games bob carol``): each keeps its own heading and list."""

    sections: list[Result]

    @classmethod
    def of(cls, results: Sequence[Result]) -> _Sections:
        merged = _merge(results)
        out = cls(**{f: getattr(merged, f) for f in merged.__dataclass_fields__})
        out.sections = list(results)
        return out


def _undecodable(line: str) -> str | None:
    """Why ``line`` cannot be read, when it holds bytes that were not UTF-8 (Python hands them over as lone
    surrogates, ``\\udcff`` for the byte 0xff): such text can be neither a name nor a move, and must never reach
    the database, which stores UTF-8."""
    for index, char in enumerate(line):
        if "\ud800" <= char <= "\udfff":
            where = f"{_escape(char)} at character {index + 1}"
            return f"the command is not UTF-8 text ({where}): check the terminal's encoding"
    return None


def _did_you_mean(word: str, known: Sequence[str]) -> str:
    """``; did you mean 'move'?`` for the known word closest to a mistyped one, or "" when none is close: a
    typo is answered, never acted on."""
    from difflib import get_close_matches

    close = get_close_matches(word.lower(), known, n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def _unknown_game(word: str, hint: str) -> str:
    """The refusal of a word that names no game (cut to a readable length), with the games and ``hint``."""
    return f"unknown game {shorten(word)!r} (games: {', '.join(registry.names())}){hint}"


def _prefix(game: str | None) -> str:
    """The game word that starts a usage line (``druid ``), or nothing for the commands of every game."""
    return f"{game} " if game else ""


def _split_show(word: str) -> tuple[str, int | None]:
    """``12#4`` -> (``12``, 4): a game number and the move to show it after (``#0``: the start)."""
    ref, sep, at = word.partition("#")
    if not sep:
        return ref, None
    if at == "0":
        return ref, 0
    return ref, parse_number(at, "move number", 10**9)


def _resign_guard(rest: list[str]) -> int | None:
    """The ``#n`` of ``resign <id> <user> [pw] #n`` (also written ``pw#n``); other words are the password."""
    joined = " ".join(rest)
    if "#" not in joined:
        return None
    return split_move_number(joined)[1]


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


def printable(text: str) -> str:
    """``text`` with every character a terminal would act on written out as Python writes it in a string
    (``\\r``, ``\\x1b``; a byte that was not UTF-8 as ``\\xff``): echoed input can neither split a line nor
    steer the terminal."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else _escape(char) for char in text)


def _escape(char: str) -> str:
    """One unprintable character as Python writes it; a byte that was not UTF-8 (``surrogateescape``'s
    ``\\udcff``) as the byte itself, ``\\xff``."""
    if "\udc80" <= char <= "\udcff":
        return f"\\x{ord(char) - 0xDC00:02x}"
    return repr(char)[1:-1]


def render_text(outcome: Outcome) -> str:
    """The console's human-readable output for one command; a refusal is one line, whatever it echoes."""
    if outcome.sections:
        return "\n\n".join(render_text(Outcome(section)) for section in outcome.sections)
    result = outcome.result
    if not result.ok:
        return f"error: {printable(result.message)}"
    if outcome.view == "3d" and outcome.board_path is not None:
        return result.message  # one line, naming the picture
    parts = [result.message]
    if result.items:
        parts.append("\n".join(result.items))
    board = result.board_text()
    if board:
        parts.append(board)
    if outcome.board_path is not None:
        parts.append(f"board image: {printable(str(outcome.board_path))}")
    return "\n\n".join(parts)


def render_json(outcome: Outcome) -> str:
    """The console's ``--json`` output: one object; a refusal's message is one line, as in the text."""
    data = outcome.result.to_json()
    if not outcome.ok:
        data["message"] = printable(outcome.result.message)
    data["guard"] = _guard(outcome.result)
    data["board_png"] = None if outcome.board_path is None else str(outcome.board_path)
    data["board_text"] = outcome.result.board_text() if outcome.result.ok else None
    return json.dumps(data, ensure_ascii=False)


def _guard(result: Result) -> int | None:
    """The ``#n`` a move made from the position answered about carries (the ``(move n)`` of its text): one
    more than ``move_number``, which counts the moves made; a preview's is the move it shows. ``None`` when
    nobody is to move there (a finished game, a listing)."""
    if result.played is not None and "#" in result.played:
        return int(result.played.rpartition("#")[2])
    if not result.ok or result.move_number is None or result.to_move is None or result.status != "active":
        return None
    return result.move_number + 1
