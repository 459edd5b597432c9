"""Each Discord server's settings: where games live, each game's default options and which games are offered,
computer opponents, the per-member limits, and who may start games. SETTINGS API.

**Reading.** :meth:`SettingsActions.server_settings` gives a server's :class:`ServerSettings` (the defaults for a
server that never changed anything, and for ``None``: the console has no server). A front reads them once per
command and passes them on. They are cached in the process; each read costs one primary key lookup of their
version (:mod:`data.store.settings`), so a change made by any process on the database takes effect at the next
command of every other, and a change made here at once.

**Changing.** One method per group of settings (:meth:`SettingsActions.set_channel`, ``set_defaults``,
``set_offered``, ``set_computer``, ``set_limits``, ``set_role``), each checking what it is given and answering a
:class:`Result` (a refusal in one line, and nothing changed). Every change is written under the version it was
read at (two moderators changing settings at once both get their change), and goes in the audit log.

**Adding a setting** (for later work): a field with its default on :class:`ServerSettings`, read and written by
``from_json`` / ``to_json`` (a stored object without it reads the default, so no migration is needed), a line
in :meth:`ServerSettings.describe`, and a setter built on :meth:`SettingsActions._change`. A new per-member limit is
one :class:`Limit` in :data:`LIMITS`: it is then stored, shown, settable (``set_limits``) and, where a front checks
it, enforced by :mod:`bot.actions.limits`. Keys a newer pbm stored are kept as they are by an older one.

Channels and roles are Discord ids; :meth:`ServerSettings.describe` takes how the front names them.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from bot.actions.base import ActionsBase
from bot.actions.common import Result, _fail
from bot.correspondence.options import parse_time_rules, split_options, split_seat_options
from bot.text import count
from data.store import StaleWriteError
from rules import registry
from rules.base import GameError, OptionError

#: how many times a change is tried when another moderator's change got in between
CHANGE_ATTEMPTS = 5
#: the most characters of default options kept per game
MAX_DEFAULTS = 200
#: the computer's levels (``ai:1`` easy .. ``ai:3`` hard)
COMPUTER_LEVELS = (1, 2, 3)


class Naming(NamedTuple):
    """How a front names a channel and a role by their ids: Discord mentions them (``<#id>``, ``<@&id>``);
    :data:`PLAIN` writes the ids out, as the audit log keeps them."""

    channel: Callable[[int], str]
    role: Callable[[int], str]


PLAIN = Naming(lambda channel_id: f"channel {channel_id}", lambda role_id: f"role {role_id}")


class Limit(NamedTuple):
    """A per-member limit of a server: its name (the key stored, the ``/settings limits`` option), the default,
    the highest value a server may set, what it counts (a noun for :func:`bot.text.count`, and the words after
    the count), and how a member frees a place (the end of the refusal)."""

    name: str
    default: int
    most: int
    noun: str
    after: str
    free: str


#: the per-member limits, per server (``tournaments``: those a member organises that are signing up or running)
LIMITS = (
    Limit(
        "open_challenges",
        10,
        100,
        "open challenge",
        "waiting for an answer",
        "withdraw one, or wait until one is answered or expires, to make another",
    ),
    Limit("running_games", 100, 1000, "running game", "", "finish or resign one to start another"),
    Limit(
        "computer_games",
        3,
        50,
        "running game",
        "against me",
        "finish or resign one of them to start another",
    ),
    Limit("tournaments", 2, 50, "tournament", "organised", "finish one to organise another"),
)
LIMITS_BY_NAME = {limit.name: limit for limit in LIMITS}


#: the keys :meth:`ServerSettings.to_json` writes (any other is a newer pbm's, kept as it is)
_STORED_KEYS = ("channel", "private_threads", "defaults", "not_offered", "computer", "computer_level", "limits", "role")


def _default_limits() -> dict[str, int]:
    return {limit.name: limit.default for limit in LIMITS}


@dataclass(frozen=True)
class ServerSettings:
    """A server's settings (see the module docstring). ``channel_id``: where games live (``None``: any channel);
    ``private_threads``: games in private threads; ``defaults``: each game's default option words;
    ``not_offered``: games that cannot be challenged to here; ``computer`` and ``computer_level``: computer
    opponents and the highest level; ``limits``: by :data:`LIMITS` name; ``role_id``: who may start games
    (``None``: everyone). ``version`` is the stored version they were read at."""

    channel_id: int | None = None
    private_threads: bool = False
    defaults: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    not_offered: frozenset[str] = frozenset()
    computer: bool = True
    computer_level: int = 3
    limits: Mapping[str, int] = field(default_factory=_default_limits)
    role_id: int | None = None
    version: int = 0
    #: keys stored by a newer pbm, kept as they are when this one writes
    extra: Mapping[str, Any] = field(default_factory=dict)

    def offered(self, game: str) -> bool:
        return game not in self.not_offered

    def offered_games(self) -> list[str]:
        """The games that can be challenged to here, by registry name."""
        return [name for name in registry.names() if self.offered(name)]

    def defaults_for(self, game: str) -> tuple[str, ...]:
        return tuple(self.defaults.get(game, ()))

    def limit(self, name: str) -> int:
        return int(self.limits.get(name, LIMITS_BY_NAME[name].default))

    def highest_level(self) -> int | None:
        """The highest computer level a member may challenge (``None``: computer opponents are off)."""
        return self.computer_level if self.computer else None

    @classmethod
    def from_json(cls, data: Mapping[str, Any], version: int = 0) -> ServerSettings:
        """Settings as stored; a value that does not read (written by hand, or by a newer pbm differently) is the
        default, so a server's settings always read."""
        known = (
            "channel",
            "private_threads",
            "defaults",
            "not_offered",
            "computer",
            "computer_level",
            "limits",
            "role",
        )
        defaults = {
            str(game): tuple(str(w) for w in words)
            for game, words in _mapping(data.get("defaults")).items()
            if game in registry.names() and isinstance(words, list)
        }
        limits = _default_limits()
        for name, value in _mapping(data.get("limits")).items():
            if name in LIMITS_BY_NAME and isinstance(value, int) and 1 <= value <= LIMITS_BY_NAME[name].most:
                limits[name] = value
        level = data.get("computer_level")
        return cls(
            channel_id=_snowflake(data.get("channel")),
            private_threads=data.get("private_threads") is True,
            defaults=defaults,
            not_offered=frozenset(g for g in _list(data.get("not_offered")) if g in registry.names()),
            computer=data.get("computer") is not False,
            computer_level=level if isinstance(level, int) and level in COMPUTER_LEVELS else 3,
            limits=limits,
            role_id=_snowflake(data.get("role")),
            version=version,
            extra={k: v for k, v in data.items() if k not in known},
        )

    def to_json(self) -> dict[str, Any]:
        return {
            **self.extra,
            "channel": self.channel_id,
            "private_threads": self.private_threads,
            "defaults": {game: list(words) for game, words in sorted(self.defaults.items()) if words},
            "not_offered": sorted(self.not_offered),
            "computer": self.computer,
            "computer_level": self.computer_level,
            "limits": dict(self.limits),
            "role": self.role_id,
        }

    def describe(self, naming: Naming = PLAIN) -> list[str]:
        """One line per setting, for people; ``naming`` names a channel or a role as the front shows them."""
        where = "any channel" if self.channel_id is None else naming.channel(self.channel_id)
        threads = "private threads" if self.private_threads else "public threads"
        offered = [registry.get(name).title for name in self.offered_games()]
        off = [registry.get(name).title for name in sorted(self.not_offered)]
        games = ", ".join(offered) or "none"
        if off:
            games += f" (not offered: {', '.join(off)})"
        defaults = [
            f"{registry.get(game).title} {' '.join(words)}" for game, words in sorted(self.defaults.items()) if words
        ]
        computer = f"on, up to level {self.computer_level}" if self.computer else "off"
        limits = ", ".join(_limit_text(limit, self.limit(limit.name)) for limit in LIMITS)
        who = "everyone" if self.role_id is None else f"members with the {naming.role(self.role_id)} role"
        return [
            f"games live in: {where}, in {threads}",
            f"games offered: {games}",
            f"default options: {'; '.join(defaults) or 'none'}",
            f"computer opponents: {computer}",
            f"limits per member: {limits}",
            f"who may start games: {who}",
        ]


def _limit_text(limit: Limit, value: int) -> str:
    """``10 open challenges waiting for an answer``."""
    return " ".join(part for part in (count(value, limit.noun), limit.after) if part)


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _snowflake(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def option_name(word: str) -> str:
    """The name of a challenge option word: ``-days=3`` is ``days``, ``-hex`` is ``hex``."""
    return word[1:].partition("=")[0].lower() if word.startswith("-") else ""


def with_defaults(settings: ServerSettings, game: str, words: list[str]) -> tuple[list[str], list[str]]:
    """A challenge's option words with the server's defaults for ``game`` added where the member gave no option of
    the same name (``-days=5`` typed overrides a default ``-days=3``); and the defaults added."""
    given = {option_name(word) for word in words}
    added = [word for word in settings.defaults_for(game) if option_name(word) not in given]
    return added + words, added


def read_default_options(game_name: str, text: str) -> tuple[str, ...]:
    """Default options for a game as typed (``-days=3 -size=8``), checked as a challenge's are (the game's own for
    some player count it allows, and the clock's); raises :class:`rules.base.GameError` naming what is wrong."""
    game = registry.get(game_name)
    if len(text) > MAX_DEFAULTS:
        raise OptionError(f"default options are at most {MAX_DEFAULTS} characters")
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise OptionError(f"cannot read the options: {exc}") from None
    loose = [word for word in words if not word.startswith("-")]
    if loose:
        raise OptionError(f"options start with '-': {loose[0]!r} is not an option")
    rest, seat_words = split_seat_options(words)
    if seat_words:
        raise OptionError("a rating range is chosen with each open challenge; it cannot be a default")
    game_words, server_words = split_options(rest)
    parse_time_rules(server_words)
    problem: GameError | None = None
    for players in range(game.min_players, game.max_players + 1):
        try:
            game.parse_options(game_words, players)
            return tuple(words)
        except GameError as exc:
            problem = problem or exc
    assert problem is not None
    raise problem


class SettingsActions(ActionsBase):
    """Reading and changing a server's settings (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: each server's settings as last read in this process
        self._server_settings: dict[int, ServerSettings] = {}

    async def server_settings(self, guild_id: int | None) -> ServerSettings:
        """A server's settings (the defaults for ``None``, the console): from the cache while their stored version
        is the one cached, else read again."""
        if guild_id is None:
            return ServerSettings()
        cached = self._server_settings.get(guild_id)
        version = await self.store.server_settings_version(guild_id)
        if cached is not None and cached.version == version:
            return cached
        row = await self.store.server_settings(guild_id)
        settings = ServerSettings.from_json(row.data, row.version)
        self._server_settings[guild_id] = settings
        return settings

    async def show_settings(self, guild_id: int, naming: Naming = PLAIN) -> Result:
        """A server's settings, one line each."""
        settings = await self.server_settings(guild_id)
        return Result(ok=True, message="Settings of this server:", items=settings.describe(naming))

    async def set_channel(
        self,
        guild_id: int,
        moderator: str,
        channel_id: int | None,
        *,
        private: bool | None = None,
        anywhere: bool = False,
        naming: Naming = PLAIN,
    ) -> Result:
        """Where games live: ``channel_id`` (or any channel, with ``anywhere``), and whether their threads are
        private; what is not given stays."""
        if anywhere and channel_id is not None:
            return _fail("give a channel or `anywhere`, not both")
        if channel_id is None and not anywhere and private is None:
            return _fail("give a channel, `anywhere`, or `private_threads`")

        def change(old: ServerSettings) -> ServerSettings:
            place = None if anywhere else channel_id if channel_id is not None else old.channel_id
            return replace(old, channel_id=place, private_threads=old.private_threads if private is None else private)

        return await self._change(guild_id, moderator, "channel", change, _channel_line, naming)

    async def set_defaults(self, guild_id: int, moderator: str, game_name: str, text: str) -> Result:
        """A game's default challenge options (``""``: none), checked as a challenge's are."""
        try:
            game = registry.get(game_name).name
            words = read_default_options(game, text)
        except GameError as exc:
            return _fail(str(exc))

        def change(old: ServerSettings) -> ServerSettings:
            defaults = {**old.defaults, game: words}
            return replace(old, defaults={g: w for g, w in defaults.items() if w})

        def line(new: ServerSettings, naming: Naming) -> str:
            title = registry.get(game).title
            if not words:
                return f"{title} challenges have no default options now"
            return f"{title} challenges start with {' '.join(words)} now, unless the challenger gives those options"

        return await self._change(guild_id, moderator, f"defaults {game}", change, line, PLAIN)

    async def set_offered(self, guild_id: int, moderator: str, game_name: str, offered: bool) -> Result:
        """Whether members may challenge each other to ``game_name`` here (games under way go on)."""
        try:
            game = registry.get(game_name).name
        except GameError as exc:
            return _fail(str(exc))

        def change(old: ServerSettings) -> ServerSettings:
            closed = old.not_offered - {game} if offered else old.not_offered | {game}
            return replace(old, not_offered=frozenset(closed))

        def line(new: ServerSettings, naming: Naming) -> str:
            title = registry.get(game).title
            if offered:
                return f"{title} is offered in this server now"
            return f"{title} is no longer offered in this server (games under way go on)"

        return await self._change(guild_id, moderator, f"offered {game}", change, line, PLAIN)

    async def set_computer(self, guild_id: int, moderator: str, on: bool | None, level: int | None) -> Result:
        """Computer opponents on or off, and the highest level members may choose."""
        if on is None and level is None:
            return _fail("give `on` or `level`")
        if level is not None and level not in COMPUTER_LEVELS:
            return _fail(f"the computer's levels are 1 (easy) to 3 (hard), not {level}")

        def change(old: ServerSettings) -> ServerSettings:
            return replace(
                old,
                computer=old.computer if on is None else on,
                computer_level=old.computer_level if level is None else level,
            )

        def line(new: ServerSettings, naming: Naming) -> str:
            if not new.computer:
                return "computer opponents are off in this server now (games under way go on)"
            return f"computer opponents are on in this server now, up to level {new.computer_level}"

        return await self._change(guild_id, moderator, "computer", change, line, PLAIN)

    async def set_limits(self, guild_id: int, moderator: str, values: Mapping[str, int | None]) -> Result:
        """New values of per-member limits, by :data:`LIMITS` name (``None``: unchanged)."""
        given = {name: value for name, value in values.items() if value is not None}
        if not given:
            return _fail("give a new value for at least one limit: " + ", ".join(limit.name for limit in LIMITS))
        for name, value in given.items():
            limit = LIMITS_BY_NAME.get(name)
            if limit is None:
                return _fail(f"there is no limit {name!r}; the limits are {', '.join(LIMITS_BY_NAME)}")
            if not 1 <= value <= limit.most:
                return _fail(f"{name} is 1 to {limit.most}, not {value}")

        def change(old: ServerSettings) -> ServerSettings:
            return replace(old, limits={**old.limits, **given})

        def line(new: ServerSettings, naming: Naming) -> str:
            shown = [_limit_text(LIMITS_BY_NAME[name], new.limit(name)) for name in given]
            return "limits per member now: " + ", ".join(shown)

        return await self._change(guild_id, moderator, "limits", change, line, PLAIN)

    async def set_role(self, guild_id: int, moderator: str, role_id: int | None, naming: Naming = PLAIN) -> Result:
        """Who may start games: members with the role ``role_id``, or (``None``) everyone."""

        def change(old: ServerSettings) -> ServerSettings:
            return replace(old, role_id=role_id)

        def line(new: ServerSettings, naming: Naming) -> str:
            if role_id is None:
                return "everyone may start games in this server now"
            return f"only members with the {naming.role(role_id)} role may start games in this server now"

        return await self._change(guild_id, moderator, "role", change, line, naming)

    async def _change(
        self,
        guild_id: int,
        moderator: str,
        what: str,
        change: Callable[[ServerSettings], ServerSettings],
        line: Callable[[ServerSettings, Naming], str],
        naming: Naming,
    ) -> Result:
        """Apply ``change`` to the stored settings under the version read (again, when another change got in
        between), record it in the audit log (channels and roles by their ids), and answer with ``line``, naming
        them with ``naming``."""
        for _attempt in range(CHANGE_ATTEMPTS):
            old = await self.server_settings(guild_id)
            new = change(old)
            try:
                version = await self.store.save_server_settings(
                    guild_id, new.to_json(), expected_version=old.version, by=moderator
                )
            except StaleWriteError:
                continue
            self._server_settings[guild_id] = replace(new, version=version)
            said = f"changed the settings: {line(new, PLAIN)}"
            await self.store.add_audit(guild_id, moderator, "settings", what, "", {"said": said})
            now = line(new, naming)
            return Result(ok=True, message=now[0].upper() + now[1:] + ".")
        return _fail("the settings are being changed by several moderators at once; try again")


def _channel_mention(channel_id: int) -> str:
    return f"<#{channel_id}>"


def _role_mention(role_id: int) -> str:
    return f"<@&{role_id}>"


def _channel_line(new: ServerSettings, naming: Naming) -> str:
    threads = "private threads" if new.private_threads else "public threads"
    if new.channel_id is None:
        return f"games may be challenged to in any channel now, and are played in {threads}"
    return f"games live in {naming.channel(new.channel_id)} now, in {threads}"
