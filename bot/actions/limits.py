"""Fair use of a server: the per-member limits its settings set (:data:`bot.actions.settings.LIMITS`), identical
pending challenges merged into the first, and commands per member rate limited.

**Where the checks run.** A challenge made in a server goes through :meth:`LimitActions.challenge_in_server`: the
game offered, computer opponents allowed, the server's default options added, an identical open challenge found
(and answered instead of made again), then the limits, then :meth:`ChallengeActions.challenge`. Accepting or
taking a seat is checked against the running-games limit (:meth:`LimitActions.may_join`). The console has no
server: none of this applies there.

**One at a time.** The checks and the new challenge are made under a lock per server and member: a member's
commands in a server all reach one process (Discord sends a server's events to the process of its shard), so two
``/challenge`` sent together cannot both pass a limit with one place left, nor both make the same challenge.

**The rate.** :class:`CommandRate` is a token bucket per server and member on the actions' injectable clock: a
burst of commands passes (``PBM_COMMAND_BURST``, 10 by default), then one every ``PBM_COMMAND_SECONDS`` (2); the
Discord front answers a command beyond it "slow down" with the wait (:mod:`bot.discord.tree`), never dropping it.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

from bot.actions.base import ActionsBase
from bot.actions.common import Result, _fail, _is_computer_name
from bot.actions.settings import LIMITS_BY_NAME, ServerSettings, with_defaults
from bot.correspondence.options import split_seat_options
from bot.text import count
from data.store import ChallengeRow
from rules import registry
from rules.base import GameError

#: buckets kept before the full ones (members quiet for a while) are forgotten
BUCKETS_KEPT = 10_000


class CommandRate:
    """A token bucket per key (a server and a member): ``burst`` tokens, one back every ``seconds`` seconds of
    ``clock``. :meth:`wait` takes a token and answers 0, or answers how long until one is back."""

    def __init__(self, clock: Callable[[], float], *, burst: int, seconds: float) -> None:
        self._clock = clock
        self.burst = burst
        self.seconds = seconds
        #: key -> (tokens, when they were counted)
        self._buckets: dict[Any, tuple[float, float]] = {}

    def wait(self, key: Any) -> float:
        """Take a token for ``key`` and return 0, or (none left) the seconds until one is back, taking none."""
        now = self._clock()
        tokens, then = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + max(0.0, now - then) / self.seconds)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) * self.seconds
        self._buckets[key] = (tokens - 1.0, now)
        if len(self._buckets) > BUCKETS_KEPT:
            self._forget_full(now)
        return 0.0

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have filled up again: a member away that long starts afresh anyway."""
        self._buckets = {
            key: (tokens, then)
            for key, (tokens, then) in self._buckets.items()
            if tokens + (now - then) / self.seconds < self.burst
        }


def slow_down(seconds: float) -> str:
    """The answer to a command over the rate: how long to wait, in whole seconds."""
    wait = max(1, math.ceil(seconds))
    return f"slow down: you sent many commands in a short time; try again in {count(wait, 'second')}"


def over_limit(name: str, have: int) -> str:
    """The refusal of a member at a limit: which, and how to free a place."""
    limit = LIMITS_BY_NAME[name]
    what = " ".join(part for part in (count(have, limit.noun), limit.after) if part)
    return f"you have {what} in this server, the most it allows: {limit.free}"


def default_level(settings: ServerSettings) -> int:
    """The computer's level when a member names none: 2, or the server's highest when that is lower."""
    return min(2, settings.computer_level)


class LimitActions(ActionsBase):
    """Challenges and acceptances in a server, checked against its settings (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: (server, member) -> the lock their challenges are made under (asyncio's, made on first use: the console
        #: never imports asyncio) and how many hold or wait for it
        self._member_locks: dict[tuple[int, str], list[Any]] = {}

    async def challenge_in_server(
        self,
        settings: ServerSettings,
        guild_id: int,
        channel_id: int | None,
        game_name: str,
        players: Sequence[str],
        options: Sequence[str],
        *,
        open_seats: int = 0,
    ) -> Result:
        """``players[0]`` challenges in a server whose settings are ``settings``: refused (one line, nothing made)
        when the game is not offered, a computer opponent is off or above the highest level, or a limit is
        reached; an identical open challenge is answered instead of made again; the server's default options
        are added where the challenger gave none of the same name."""
        try:
            game = registry.get(game_name)
        except GameError as exc:
            return _fail(str(exc))
        if not settings.offered(game.name):
            offered = ", ".join(registry.get(name).title for name in settings.offered_games()) or "none"
            return _fail(f"{game.title} is not offered in this server (games here: {offered})")
        computers = [p for p in players[1:] if _is_computer_name(p)]
        refused = _computer_refusal(settings, computers)
        if refused:
            return _fail(refused)
        words, added = with_defaults(settings, game.name, list(options))
        async with self._one_at_a_time((guild_id, players[0])):
            same = await self._same_challenge(guild_id, game.name, players, words, open_seats)
            if same is not None:
                return _fail(_already(same, players, game.title), challenge_id=same.id, game_type=game.name)
            refused = await self._limit_refusal(settings, guild_id, players[0], computers, open_seats)
            if refused:
                return _fail(refused)
            result = await self.challenge(  # type: ignore[attr-defined]
                game.name, players, words, open_seats=open_seats, guild_id=guild_id, channel_id=channel_id
            )
        if not result.ok and added:
            result.message += f" (this server adds {' '.join(added)} to {game.title} challenges)"
        return result

    @asynccontextmanager
    async def _one_at_a_time(self, key: tuple[int, str]) -> AsyncIterator[None]:
        """Hold the lock of a server's member; it is forgotten once nobody holds or waits for it."""
        import asyncio

        entry = self._member_locks.setdefault(key, [asyncio.Lock(), 0])
        entry[1] += 1
        try:
            async with entry[0]:
                yield
        finally:
            entry[1] -= 1
            if entry[1] == 0:
                del self._member_locks[key]

    async def may_join(self, settings: ServerSettings, guild_id: int, player: str) -> str | None:
        """Why ``player`` may not accept a challenge or take a seat in a server (``None``: they may): a game it
        starts would be one running game too many."""
        name = "running_games"
        have = await self.store.running_games_in(guild_id, player)
        return over_limit(name, have) if have >= settings.limit(name) else None

    async def _same_challenge(
        self, guild_id: int, game: str, players: Sequence[str], words: list[str], open_seats: int
    ) -> ChallengeRow | None:
        """An open challenge identical to the one asked for: the same challenger, players, game, options (as
        stored: without the rating range, which is compared apart) and open seats."""
        stored, range_words = split_seat_options(words)
        found = await self.store.same_open_challenge(guild_id, game, players, stored, open_seats, self._clock())
        if found is None:
            return None
        wanted = _rating_range(range_words)
        return found if (found.rating_min, found.rating_max) == wanted else None

    async def _limit_refusal(
        self, settings: ServerSettings, guild_id: int, player: str, computers: list[str], open_seats: int
    ) -> str | None:
        """Which limit a new challenge would pass, if any: games against the computer, running games, open
        challenges (a challenge only the computer answers starts at once and is never left open)."""
        if computers:
            have = await self.store.running_games_in(guild_id, player, with_computer=True)
            if have >= settings.limit("computer_games"):
                return over_limit("computer_games", have)
        have = await self.store.running_games_in(guild_id, player)
        if have >= settings.limit("running_games"):
            return over_limit("running_games", have)
        return None if computers and not open_seats else await self._open_challenges_refusal(settings, guild_id, player)

    async def _open_challenges_refusal(self, settings: ServerSettings, guild_id: int, player: str) -> str | None:
        have = await self.store.open_challenges_sent(guild_id, player, self._clock())
        return over_limit("open_challenges", have) if have >= settings.limit("open_challenges") else None


def _computer_refusal(settings: ServerSettings, computers: list[str]) -> str | None:
    """Why the computer cannot play here (turned off, or above the highest level), or ``None``."""
    if not computers:
        return None
    highest = settings.highest_level()
    if highest is None:
        return "computer opponents are turned off in this server; challenge a member"
    level = max(int(name.partition(":")[2]) for name in computers)
    if level > highest:
        return f"the computer plays up to level {highest} in this server; choose a level from 1 to {highest}"
    return None


def _rating_range(words: list[str]) -> tuple[int | None, int | None]:
    """The rating range the words ask for (``-rating_min=1400``); a range that does not read is no range: the
    challenge itself refuses it."""
    from bot.correspondence.options import parse_rating_range

    try:
        return parse_rating_range(words)
    except GameError:
        return None, None


def _already(row: ChallengeRow, players: Sequence[str], title: str) -> str:
    """The answer to a challenge made twice: the first one, still open."""
    options = f" ({' '.join(row.options)})" if row.options else ""
    if len(players) > 1:
        return f"you already challenged {', '.join(players[1:])} to {title}{options}: challenge {row.id} is waiting"
    return f"you already offered a game of {title}{options}: challenge {row.id} is waiting for players"
