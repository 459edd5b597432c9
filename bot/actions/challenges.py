"""Challenges: made, accepted, declined, withdrawn, expired, and the game they start."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.actions.base import ActionsBase
from bot.actions.common import (
    Result,
    _fail,
    _player_to_move,
    _run_server_loop,
)
from bot.correspondence.clock import Clock
from bot.correspondence.options import TimeRules, parse_time_rules, split_options
from data.store import (
    DamagedRowError,
    NotFoundError,
    StaleWriteError,
)
from rules import registry
from rules.base import GameDef, GameError


class ChallengeActions(ActionsBase):
    # ---- challenges ----------------------------------------------------------------------------------------

    async def challenge(
        self,
        game_name: str,
        players: Sequence[str],
        options: Sequence[str] = (),
        *,
        start: bool = False,
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> Result:
        """``players[0]`` challenges the others to ``game_name`` with pbmserv ``options`` (``-size=8`` ...).
        Options and player count are validated up front. With ``start`` (the console, as pbmserv did) the game
        begins at once; otherwise an open challenge waits for every challenged player to accept."""
        try:
            game = registry.get(game_name)
            if len(set(players)) != len(players):
                return _fail("a player cannot be challenged twice, nor challenge themself")
            game_words, server_words = split_options(options)
            parsed = game.parse_options(game_words, len(players))
            time_rules = parse_time_rules(server_words)
        except GameError as exc:
            return _fail(str(exc))
        if start:
            return await self._start_game(
                game, parsed, list(players), time_rules, guild_id=guild_id, channel_id=channel_id
            )
        expires = None if self.challenge_ttl is None else self._clock() + self.challenge_ttl
        for player in players:
            await self.store.ensure_player(player)
        challenge_id = await self.store.create_challenge(
            game.name, list(options), list(players), expires_at=expires, guild_id=guild_id, channel_id=channel_id
        )
        named = await self._with_ratings(game.name, players)
        others = ", ".join(named[1:])
        return Result(
            ok=True,
            message=f"{named[0]} challenges {others} to {game.title}{_described(game, parsed, time_rules)}"
            + f": challenge {challenge_id}",
            game_type=game.name,
            challenge_id=challenge_id,
            status="open",
            notify=list(players[1:]),
            players=list(players),
        )

    async def accept(self, challenge_id: int, player: str) -> Result:
        """A challenged player accepts; when everyone has, the game starts."""
        challenge, error = await self._open_challenge(challenge_id)
        if error is not None:
            return error
        if player not in challenge.players:
            return _fail(f"challenge {challenge_id} is not addressed to you", challenge_id=challenge_id)
        if player in challenge.accepted:
            return _fail(f"you have already accepted challenge {challenge_id}", challenge_id=challenge_id)
        accepted = [*challenge.accepted, player]
        waiting = [p for p in challenge.players if p not in accepted]
        if waiting:
            try:
                await self.store.update_challenge(challenge_id, accepted=accepted)
            except StaleWriteError:
                return _fail(f"challenge {challenge_id} has just changed; look again", challenge_id=challenge_id)
            return Result(
                ok=True,
                message=f"{player} accepted challenge {challenge_id}; waiting for {', '.join(waiting)}",
                challenge_id=challenge_id,
                game_type=challenge.type,
                status="open",
                players=challenge.players,
            )
        game = registry.get(challenge.type)
        try:
            game_words, server_words = split_options(challenge.options)
            options = game.parse_options(game_words, len(challenge.players))
            time_rules = parse_time_rules(server_words)
        except GameError as exc:
            return _fail(f"challenge {challenge_id} cannot start: {exc}", challenge_id=challenge_id)
        try:
            await self.store.update_challenge(challenge_id, status="accepted", accepted=accepted)
        except StaleWriteError:
            return _fail(f"challenge {challenge_id} has already been answered", challenge_id=challenge_id)
        result = await self._start_game(
            game, options, challenge.players, time_rules, guild_id=challenge.guild_id, channel_id=challenge.channel_id
        )
        if result.game_id is not None:
            await self.store.update_challenge(
                challenge_id, expected_status="accepted", status="accepted", game_id=result.game_id
            )
        result.challenge_id = challenge_id
        return result

    async def decline(self, challenge_id: int, player: str) -> Result:
        """A challenged player refuses; the challenge is over."""
        challenge, error = await self._open_challenge(challenge_id)
        if error is not None:
            return error
        if player not in challenge.players[1:]:
            return _fail(f"challenge {challenge_id} is not addressed to you", challenge_id=challenge_id)
        return await self._close_challenge(challenge_id, "declined", f"{player} declined challenge {challenge_id}")

    async def cancel(self, challenge_id: int, player: str) -> Result:
        """The challenger withdraws an open challenge."""
        challenge, error = await self._open_challenge(challenge_id)
        if error is not None:
            return error
        if player != challenge.players[0]:
            return _fail(f"only {challenge.players[0]} can cancel challenge {challenge_id}", challenge_id=challenge_id)
        return await self._close_challenge(challenge_id, "cancelled", f"{player} withdrew challenge {challenge_id}")

    async def expire_challenges(self) -> list[Result]:
        """Close every open challenge whose time is up; one result per challenge closed."""
        results = []
        for challenge in await self.store.expired_challenges(self._clock()):
            results.append(
                await self._close_challenge(challenge.id, "expired", f"challenge {challenge.id} expired unanswered")
            )
        return [r for r in results if r.ok]

    async def _open_challenge(self, challenge_id: int) -> tuple[Any, Result | None]:
        try:
            challenge = await self.store.load_challenge(challenge_id)
        except (NotFoundError, DamagedRowError) as exc:
            return None, _fail(str(exc), challenge_id=challenge_id)
        if challenge.status != "open":
            return None, _fail(f"challenge {challenge_id} is {challenge.status}", challenge_id=challenge_id)
        if challenge.expires_at is not None and challenge.expires_at <= self._clock():
            return None, _fail(f"challenge {challenge_id} has expired", challenge_id=challenge_id)
        return challenge, None

    async def _close_challenge(self, challenge_id: int, status: str, message: str) -> Result:
        try:
            await self.store.update_challenge(challenge_id, status=status)
        except StaleWriteError:
            return _fail(f"challenge {challenge_id} has already been answered", challenge_id=challenge_id)
        challenge = await self.store.load_challenge(challenge_id)
        return Result(
            ok=True,
            message=message,
            challenge_id=challenge_id,
            status=status,
            game_type=challenge.type,
            players=challenge.players,
        )

    async def _start_game(
        self,
        game: GameDef,
        options: dict[str, Any],
        players: list[str],
        time_rules: TimeRules,
        *,
        guild_id: int | None,
        channel_id: int | None,
        prefix: str = "",
    ) -> Result:
        seed = self._seed()
        state = game.new(options, players, seed)
        memory = state.memory()
        to_move = _player_to_move(state)
        clock = Clock(time_rules)
        paused = to_move is not None and await self._on_vacation(to_move)
        clock.next_turn(to_move, self._clock(), "UTC", paused=paused)
        game_id = await self.store.create_game(
            game.name,
            options,
            players,
            seed,
            state.to_json(),
            to_move,
            guild_id=guild_id,
            channel_id=channel_id,
            memory=memory,
            clock=await self._schedule(clock, stored=True, active=True),
        )
        entries, events = _run_server_loop(state)
        if entries:
            before = await self.store.load_game(game_id)
            await self._commit(game_id, 0, entries, state, memory_from=len(memory), before=before)
        described = _described(game, options, time_rules)
        message = f"{prefix}{game.title} game {game_id} started: {', '.join(players)}{described}"
        return await self._after_action(self._game_result(game, game_id, state, message, events, actor=None))


def _described(game: GameDef, options: dict[str, Any], time_rules: TimeRules) -> str:
    """A game's options for people, as they follow its title: the game's own as typed, then the clock
    (`` (-size=8); 3 days per move``)."""
    opts = game.format_options(options)
    return (f" ({opts})" if opts else "") + f"; {time_rules.describe()}"
