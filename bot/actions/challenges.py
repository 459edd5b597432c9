"""Challenges: made, accepted, declined, withdrawn, expired, and the game they start."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.actions.base import ActionsBase, one_transaction
from bot.actions.common import (
    PAGE_SIZE,
    Result,
    _fail,
    _player_to_move,
    _run_server_loop,
)
from bot.correspondence.clock import Clock
from bot.correspondence.options import (
    TimeRules,
    parse_rating_range,
    parse_time_rules,
    split_options,
    split_seat_options,
)
from bot.correspondence.periods import format_left
from bot.text import count
from data.store import (
    ChallengeRow,
    DamagedRowError,
    NotFoundError,
    StaleWriteError,
)
from rules import registry
from rules.base import GameDef, GameError, GameState

#: how many times an answer to a challenge is tried when other players answered it at the same moment
ANSWER_ATTEMPTS = 5


class ChallengeActions(ActionsBase):
    # ---- challenges ----------------------------------------------------------------------------------------

    @one_transaction
    async def challenge(
        self,
        game_name: str,
        players: Sequence[str],
        options: Sequence[str] = (),
        *,
        start: bool = False,
        open_seats: int = 0,
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> Result:
        """``players[0]`` challenges the others to ``game_name`` with pbmserv ``options`` (``-size=8`` ...), and
        keeps ``open_seats`` more seats for anyone to take (an open challenge; ``-rating_min=n`` /
        ``-rating_max=n`` among the options say for whom). Options and player count are validated up front.
        With ``start`` (the console, as pbmserv did) the named players are seated at once and the game begins as
        soon as nobody else is needed; otherwise the challenge waits for every named player to accept and every
        open seat to be taken."""
        try:
            game = registry.get(game_name)
            if len(set(players)) != len(players):
                return _fail("a player cannot be challenged twice, nor challenge themself")
            words, range_words = split_seat_options(options)
            game_words, server_words = split_options(words)
            parsed = game.parse_options(game_words, len(players) + open_seats)
            time_rules = parse_time_rules(server_words)
            rating_min, rating_max = parse_rating_range(range_words)
        except GameError as exc:
            return _fail(str(exc))
        if range_words and not open_seats:
            return _fail("a rating range is for open seats: leave a seat open, or leave out the range")
        if start and not open_seats:
            return await self._start_game(
                game, parsed, list(players), time_rules, guild_id=guild_id, channel_id=channel_id
            )
        expires = None if self.challenge_ttl is None else self._clock() + self.challenge_ttl
        for player in players:
            await self.store.ensure_player(player)
        challenge_id = await self.store.create_challenge(
            game.name,
            words,
            list(players),
            expires_at=expires,
            guild_id=guild_id,
            channel_id=channel_id,
            accepted=list(players) if start else None,
            open_seats=open_seats,
            rating_min=rating_min,
            rating_max=rating_max,
        )
        named = await self._with_ratings(game.name, players)
        described = _described(game, parsed, time_rules)
        if len(players) > 1:
            said = f"{named[0]} challenges {', '.join(named[1:])} to {game.title}{described}"
        else:
            said = f"{named[0]} offers a game of {game.title}{described}"
        seats = f", {seats_open(open_seats, rating_min, rating_max)}" if open_seats else ""
        return Result(
            ok=True,
            message=f"{said}: challenge {challenge_id}{seats}",
            game_type=game.name,
            challenge_id=challenge_id,
            status="open",
            notify=[] if start else list(players[1:]),
            players=list(players),
        )

    @one_transaction
    async def accept(self, challenge_id: int, player: str) -> Result:
        """A challenged player accepts, or anyone else takes an open seat (an open challenge is joined by
        accepting it); when every named player has accepted and every seat is taken, the game starts."""
        for _attempt in range(ANSWER_ATTEMPTS):
            challenge, error = await self._open_challenge(challenge_id)
            if error is not None:
                return error
            if player in challenge.players:
                answered = await self._accept_named(challenge, player)
            else:
                answered = await self._take_open_seat(challenge, player)
            if answered is not None:
                return answered
        return _fail(
            f"challenge {challenge_id} is being answered by many at once; try again", challenge_id=challenge_id
        )

    async def _accept_named(self, challenge: ChallengeRow, player: str) -> Result | None:
        """A named player's acceptance (``None``: someone else answered meanwhile; read again)."""
        if player in challenge.accepted:
            if challenge.open_seats and player == challenge.players[0]:
                return _fail(
                    f"challenge {challenge.id} is yours: others take its open seats", challenge_id=challenge.id
                )
            return _fail(f"you have already accepted challenge {challenge.id}", challenge_id=challenge.id)
        accepted = [*challenge.accepted, player]
        return await self._seat(challenge, accepted, challenge.joined, f"{player} accepted challenge {challenge.id}")

    async def _take_open_seat(self, challenge: ChallengeRow, player: str) -> Result | None:
        """Anyone not named takes an open seat (``None``: someone else answered meanwhile; read again).
        Nobody holds two seats."""
        if not challenge.open_seats:
            return _fail(f"challenge {challenge.id} is not addressed to you", challenge_id=challenge.id)
        if player in challenge.joined:
            return _fail(f"you already have a seat in challenge {challenge.id}", challenge_id=challenge.id)
        if challenge.free_seats <= 0:
            return _fail(f"challenge {challenge.id} has no open seat left", challenge_id=challenge.id)
        if challenge.rating_min is not None or challenge.rating_max is not None:
            refused = await self._outside_range(challenge, player)
            if refused:
                return _fail(refused, challenge_id=challenge.id)
        await self.store.ensure_player(player)
        joined = [*challenge.joined, player]
        return await self._seat(
            challenge, challenge.accepted, joined, f"{player} took a seat in challenge {challenge.id}"
        )

    async def _outside_range(self, challenge: ChallengeRow, player: str) -> str | None:
        """Why a player's rating keeps them out of a challenge's open seats (``None``: it does not). The shown
        number is compared, so a new player (everyone starts at the same number) is judged by that number."""
        rating = await self.display_rating(player, challenge.type)  # type: ignore[attr-defined]
        seats = f"challenge {challenge.id}'s seats are for players rated"
        if challenge.rating_min is not None and rating < challenge.rating_min:
            return f"{seats} {challenge.rating_min} or more; you are {rating}"
        if challenge.rating_max is not None and rating > challenge.rating_max:
            return f"{seats} {challenge.rating_max} or less; you are {rating}"
        return None

    async def _seat(self, challenge: ChallengeRow, accepted: list[str], joined: list[str], said: str) -> Result | None:
        """Record an answer, and start the game when nobody else is needed (``None``: the challenge changed
        since it was read, and nothing was written)."""
        waiting = [p for p in challenge.players if p not in accepted]
        free = challenge.open_seats - len(joined)
        if waiting or free:
            try:
                await self.store.update_challenge(challenge.id, accepted=accepted, joined=joined, seen=challenge)
            except StaleWriteError:
                return None
            still = ([f"waiting for {', '.join(waiting)}"] if waiting else []) + (
                [seats_open(free, challenge.rating_min, challenge.rating_max)] if free else []
            )
            return Result(
                ok=True,
                message="; ".join([said, *still]),
                challenge_id=challenge.id,
                game_type=challenge.type,
                status="open",
                players=[*challenge.players, *joined],
            )
        seated = [*challenge.players, *joined]
        game = registry.get(challenge.type)
        try:
            game_words, server_words = split_options(challenge.options)
            options = game.parse_options(game_words, len(seated))
            time_rules = parse_time_rules(server_words)
        except GameError as exc:
            return _fail(f"challenge {challenge.id} cannot start: {exc}", challenge_id=challenge.id)
        try:
            await self.store.update_challenge(
                challenge.id, status="accepted", accepted=accepted, joined=joined, seen=challenge
            )
        except StaleWriteError:
            return None
        result = await self._start_game(
            game,
            options,
            seated,
            time_rules,
            guild_id=challenge.guild_id,
            channel_id=challenge.channel_id,
            challenge_id=challenge.id,
        )
        result.challenge_id = challenge.id
        return result

    async def decline(self, challenge_id: int, player: str) -> Result:
        """A challenged player refuses; the challenge is over. A seat taken in an open challenge is kept."""
        challenge, error = await self._open_challenge(challenge_id)
        if error is not None:
            return error
        if player in challenge.joined:
            return _fail(
                f"you took a seat in challenge {challenge_id}; it is kept until the game starts",
                challenge_id=challenge_id,
            )
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

    async def challenges_open_to_all(self, game_type: str | None = None, *, guild_id: int | None = None) -> Result:
        """The open challenges that keep seats for anyone, oldest first (:data:`PAGE_SIZE` at most): of one
        server (``guild_id``) or everywhere, of one game or all. ``challenges`` holds the rows shown, for fronts
        that link to each challenge's message."""
        if game_type is not None:
            try:
                game_type = registry.get(game_type).name
            except GameError as exc:
                return _fail(str(exc))
        now = self._clock()
        rows, total = await self.store.challenges_with_open_seats(
            now, guild_id=guild_id, game_type=game_type, limit=PAGE_SIZE
        )
        kind = f"{registry.get(game_type).title} " if game_type else ""
        if not rows:
            return Result(ok=True, message=f"no open {kind}challenges", game_type=game_type)
        more = f", the {len(rows)} oldest shown" if total > len(rows) else ""
        return Result(
            ok=True,
            message=f"{count(total, f'open {kind}challenge')}{more}",
            items=[_challenge_line(row, now) for row in rows],
            game_type=game_type,
            challenges=rows,
        )

    async def expire_challenges(self) -> list[Result]:
        """Close every open challenge whose time is up; one result per challenge closed."""
        results = []
        for challenge in await self.store.expired_challenges(self._clock()):
            results.append(
                await self._close_challenge(challenge.id, "expired", f"challenge {challenge.id} expired unanswered")
            )
        return [r for r in results if r.ok]

    async def _open_challenge(self, challenge_id: int) -> tuple[Any, Result | None]:
        """The challenge if it can still be answered, else why not."""
        try:
            challenge = await self.store.load_challenge(challenge_id)
        except (NotFoundError, DamagedRowError) as exc:
            return None, _fail(str(exc), challenge_id=challenge_id)
        if challenge.status == "accepted":
            game = "its game is starting" if challenge.game_id is None else f"it is game {challenge.game_id}"
            return None, _fail(f"challenge {challenge_id} was accepted: {game}", challenge_id=challenge_id)
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
        challenge_id: int | None = None,
        state: GameState | None = None,
        reply: bool = True,
    ) -> Result:
        """Create a game (the one ``challenge_id`` started, if any, which then names it) and play what the server
        and computer players play at once. ``state``: the game's first position when it is made already (the next
        game of a Backgammon match); a first game of a match (``-match=n``) starts the match. ``reply``: computer
        players to move reply at once (else the caller has them reply)."""
        if state is None:
            state = game.new(options, players, self._seed())
        seed = state.seed
        match = getattr(state, "match", None)
        if match is not None and match.id is None:
            match = replace(match, id=await self.store.create_match(match.length, players))
            state.match = match  # type: ignore[attr-defined]
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
        if match is not None:
            await self.store.link_match_game(match.id, match.game, game_id)
        if challenge_id is not None:  # before any computer thinks: the challenge names its game from the start
            await self.store.update_challenge(
                challenge_id, expected_status="accepted", status="accepted", game_id=game_id
            )
        entries, events = _run_server_loop(state)
        if entries:
            before = await self.store.load_game(game_id)
            await self._commit(game_id, 0, entries, state, memory_from=len(memory), before=before)
        described = _described(game, options, time_rules)
        message = f"{prefix}{game.title} game {game_id} started: {', '.join(players)}{described}"
        if match is not None:
            message += "\nM" + match.describe(players)[1:]
        started = self._game_result(game, game_id, state, message, events, actor=None)
        return await self._after_action(started) if reply else started


def _described(game: GameDef, options: dict[str, Any], time_rules: TimeRules) -> str:
    """A game's options for people, as they follow its title: the game's own as typed, then the clock
    (`` (-size=8); 3 days per move``)."""
    opts = game.format_options(options)
    return (f" ({opts})" if opts else "") + f"; {time_rules.describe()}"


def seats_open(free: int, rating_min: int | None, rating_max: int | None) -> str:
    """How many open seats are left and for whom (``2 seats open to players rated 1400 to 1800``)."""
    seats = f"{count(free, 'seat')} open"
    if rating_min is not None and rating_max is not None:
        return f"{seats} to players rated {rating_min} to {rating_max}"
    if rating_min is not None:
        return f"{seats} to players rated {rating_min} or more"
    if rating_max is not None:
        return f"{seats} to players rated {rating_max} or less"
    return f"{seats} to anyone"


def _challenge_line(row: ChallengeRow, now: float) -> str:
    """One open challenge in a listing: ``challenge 4: Drogo (-size=7), alice, carol: 2 seats open to anyone,
    23h left``."""
    game = registry.get(row.type)
    words = " ".join(row.options)
    title = f"{game.title} ({words})" if words else game.title
    seats = seats_open(row.free_seats, row.rating_min, row.rating_max) if row.free_seats else "no seat left"
    waiting = [p for p in row.players if p not in row.accepted]
    if waiting:
        seats += f", waiting for {', '.join(waiting)}"
    left = "" if row.expires_at is None else f", {format_left(row.expires_at - now)} left"
    return f"challenge {row.id}: {title}, {', '.join(row.seated)}: {seats}{left}"
