"""The console's tournament commands: ``<game> tournament create|join|leave|start|show|standings|cancel|remove ...``
and ``[<game>] tournaments``. This module reads the words; every action is
:class:`bot.actions.tournaments.TournamentActions`.

``create`` reads ``<user> <format> [rounds]`` and option words: the tournament's own (``-table=3-4``,
``-max_players=n``, ``-signup_until=TIME``, ``-rounds=n``) and everything else as the options every game of the
tournament takes (``-size=8``, ``-days=3``, ``-unrated``, Backgammon's ``-match=n``). With ``--as`` the user may be
left out wherever a command names one.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bot import board_files
from bot.actions import Actions, Result, check_player_name, parse_number
from bot.actions.tournament_text import FORMAT_WORDS, picture_of

#: each tournament command and its usage line
USAGE = {
    "create": "usage: {game} tournament create <user> <format> [rounds] [-options] [-table=3-4] [-max_players=n]"
    " [-signup_until=TIME]",
    "join": "usage: {game} tournament join <id> <user>",
    "leave": "usage: {game} tournament leave <id> <user>   (once it has started: withdraw)",
    "start": "usage: {game} tournament start <id> <user>",
    "show": "usage: {game} tournament show <id>",
    "standings": "usage: {game} tournament standings <id>",
    "cancel": "usage: {game} tournament cancel <id> <user> [reason ...]",
    "remove": "usage: {game} tournament remove <id> <user> <player> [reason ...]",
}
#: the option words ``create`` reads itself (the rest go to every game)
_OWN_OPTIONS = ("table", "max_players", "signup_until", "rounds")


class TournamentWords:
    """Reads the tournament commands of one console (its actions, its ``--as`` identity, where pictures go)."""

    def __init__(
        self,
        actions: Actions,
        identity: str | None,
        boards_dir: Path | None,
        refuse: Callable[[str], Exception],
    ) -> None:
        self.actions = actions
        self.identity = identity
        self.boards_dir = boards_dir
        self.refuse = refuse

    async def run(self, game: str, args: list[str]) -> Result:
        """``<game> tournament <command> ...``."""
        command = args[0].lower() if args else ""
        usage = USAGE.get(command)
        if usage is None:
            from difflib import get_close_matches

            close = get_close_matches(command, tuple(USAGE), n=1)
            hint = f"; did you mean {close[0]!r}?" if close and command else ""
            raise self.refuse(f"usage: {game} tournament {'|'.join(USAGE)} ...{hint}")
        usage = usage.format(game=game)
        rest = args[1:]
        if command == "create":
            return await self._create(game, rest, usage)
        if not rest:
            raise self.refuse(usage)
        number = parse_number(rest[0], "tournament number")
        organiser = await self._organiser(number, game, command)
        if command in ("show", "standings"):
            if len(rest) != 1:
                raise self.refuse(usage)
            return await self.standings(number)
        if command in ("join", "leave", "start"):
            user, words = self._user(rest[1:], usage, None)
            if len(words) > 1:  # pbmserv's password word is accepted and ignored
                raise self.refuse(usage)
            act = {
                "join": self.actions.join_tournament,
                "leave": self.actions.leave_tournament,
                "start": self.actions.start_tournament,
            }[command]
            return await act(number, user)
        user, words = self._user(rest[1:], usage, organiser)
        if command == "cancel":
            return await self.actions.cancel_tournament(number, user, " ".join(words) or None)
        if not words:
            raise self.refuse(usage)
        check_player_name(words[0])
        return await self.actions.remove_from_tournament(number, user, words[0], " ".join(words[1:]) or None)

    def _user(self, words: list[str], usage: str, organiser: str | None) -> tuple[str, list[str]]:
        """The user a command names, its first word; with ``--as`` it may be left out: then a first word is the
        user only when it is ``--as``'s name or (``organiser`` given: for cancel and remove, whose next words are a
        player or a reason) the organiser's."""
        named = self.identity is None or organiser is None or (words and words[0] in (self.identity, organiser))
        if words and named:
            check_player_name(words[0])
            return words[0], words[1:]
        if self.identity is None:
            raise self.refuse(usage)
        return self.identity, words

    async def _create(self, game: str, args: list[str], usage: str) -> Result:
        """``create <user> <format> [rounds] [-options]``."""
        words = [a for a in args if not a.startswith("-")]
        own: dict[str, str] = {}
        options = []
        for word in (a for a in args if a.startswith("-")):
            name, equals, value = word[1:].partition("=")
            if name.lower() in _OWN_OPTIONS:
                if not equals or not value or name.lower() in own:
                    raise self.refuse(f"{usage}   (-{name.lower()} once, with a value: -{name.lower()}=...)")
                own[name.lower()] = value
            else:
                options.append(word)
        if words and words[0].lower() in FORMAT_WORDS and self.identity is not None:
            words.insert(0, self.identity)
        if len(words) not in (2, 3):
            raise self.refuse(usage)
        check_player_name(words[0])
        rounds_word = words[2] if len(words) == 3 else own.get("rounds")
        if len(words) == 3 and "rounds" in own:
            raise self.refuse(f"{usage}   (the number of rounds once)")
        rounds = None if rounds_word is None else parse_number(rounds_word, "number of rounds", 1000)
        most = own.get("max_players")
        return await self.actions.create_tournament(
            game,
            words[0],
            words[1],
            rounds=rounds,
            options=options,
            table=own.get("table"),
            max_players=None if most is None else parse_number(most, "number of players", 10**6),
            signup_until=own.get("signup_until"),
        )

    async def standings(self, number: int) -> Result:
        """A tournament's standings, and their picture beside the boards."""
        result = await self.actions.tournament_standings(number)
        if not result.ok or self.boards_dir is None or not result.data.get("rows"):
            return result
        from render.standings import standings_png

        path = self.boards_dir / f"tournament-{number}.png"
        board_files.write_whole(path, standings_png(**picture_of(result)))
        result.message += f"\nstandings: {path}"
        return result

    async def _organiser(self, number: int, game: str, command: str) -> str | None:
        """The organiser of a tournament (``None``: there is none, or it does not read; the action says so),
        refusing one of another game than the command's word (``druid tournament join 3`` on Drogo's)."""
        from data.store import StoreError

        try:
            row = await self.actions.store.load_tournament(number)
        except StoreError:
            return None
        if row.game_type != game:
            kind = row.game_type
            raise self.refuse(f"tournament {number} is of {kind}, not {game}: use '{kind} tournament {command} ...'")
        return row.organiser
