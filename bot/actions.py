"""What players can do, independent of where they type it: challenge, accept, decline, cancel, move, resign,
show, history, games, moves, help. ACTIONS API READY.

Both fronts (the console now, Discord) call :class:`Actions` and only present the :class:`Result` it returns:
the message, the events, who must be notified, and the state to draw. Game logic lives in ``rules``; storage in
``data``; this module is the server loop of pbmserv between them:

* a move is parsed against the stored position, applied, followed by every move the server must make for the
  next players (a forced pass, Backgammon's only legal play, a queued resignation falling due), each logged as
  ``(Auto)``, and all of it committed in one transaction under the stale-move guard before anything is shown;
* a resignation during the first round means "I decline to play", as in pbmserv: the game is cancelled, or
  restarted without that player when enough players remain;
* any earlier position is a replay of the log.

Results never raise for a player's mistake: ``ok`` is false and ``message`` says what was wrong, and nothing was
changed. Player ids are plain strings: a console name, or for Discord the user's handle at first sight, kept
for good in the players table beside their Discord id (``Store.ensure_player(player_id, discord_id)``,
``Store.player_by_discord_id``), so that the same person is the same player in both fronts.

Notes for fronts:

* ``Result.notify`` names the players to ping (the player to move, after a turn change) and nobody else;
  ``Result.board_png()`` renders with Pillow and is CPU work: the Discord front runs it in an executor.
* ``Result.events`` are the things that happened (rolls, hits, captures, auto moves, passes); ``message``
  already lists their texts, one per line, and ends with the status line.
* ``moves(game_id, prefix)`` feeds autocomplete (at most 25, prefix-filtered); ``move`` re-validates everything.
* ``move(..., text)`` accepts ``#n`` at the end of ``text`` (pbmserv's stale-board guard); a front with buttons
  puts the move number it showed into the button's action so a second click is refused as stale.
* The game's own commands (``GameDef.extra_commands``: ``roll``, ``double``, ``take``, ``drop``, ``greedy``,
  ``manual`` for Backgammon; ``pass``, ``swap`` for Druid) are moves: ``move(game_id, player, "roll")``.
* The Discord front lives in ``bot.discord`` and provides ``create_bot(config)`` (no side effects at import),
  ``run_bot(config) -> int`` and ``sync_commands(config) -> int`` with :class:`bot.config.Config`; ``bot.cli``
  calls the last two for ``pbm run`` and ``pbm sync``.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from data.store import (
    DamagedRowError,
    GameRow,
    GameSummary,
    LogEntry,
    NotFoundError,
    StaleWriteError,
    Store,
    StoreError,
)
from rules import registry
from rules.base import Event, GameDef, GameError, GameState, MoveError, MoveSyntaxError, Resign, StateFormatError

_MOVE_NUMBER = re.compile(r"^(?P<text>.*?)\s*#\s*(?P<number>[^\s#]*)\s*$", re.S)
_ASCII_NUMBER = re.compile(r"[0-9]+")
#: how many legal moves ``moves`` lists at most (Discord autocomplete shows 25)
MOVE_LIST_LIMIT = 25
#: the largest game or challenge number (SQLite's integers are signed 64-bit)
MAX_ID = 2**63 - 1
#: the longest move text read; longer input is refused before any parsing
MAX_MOVE_TEXT = 200
#: how many games a listing shows at once
PAGE_SIZE = 50
#: words a listing reads as filters, so they cannot be player names
RESERVED_NAMES = ("all", "active", "inactive", "next", "page", "open", "clear")
_PLAYER_NAME = re.compile(r"[A-Za-z0-9_.-]{1,32}")


class InputError(ValueError):
    """A number or name typed by a player cannot be read; the message says why, in one line."""


def shorten(text: str, limit: int = 40) -> str:
    """What a player typed, cut for echoing in a message: never more than ``limit`` characters, one line."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def parse_number(word: str, what: str, maximum: int = MAX_ID) -> int:
    """A positive number written with the ASCII digits 0-9 and at most ``maximum``; anything else (other
    scripts' digits, superscripts, signs, a number too large to store) raises :class:`InputError`."""
    if not _ASCII_NUMBER.fullmatch(word):
        raise InputError(f"{shorten(word)!r} is not a {what}: write it with the digits 0-9")
    if len(word) > len(str(maximum)) or int(word) > maximum or int(word) == 0:
        raise InputError(f"{shorten(word)} is not a {what}: it must be between 1 and {maximum}")
    return int(word)


def check_player_name(name: str) -> None:
    """Console player names: 1-32 letters, digits, ``_``, ``.`` or ``-`` (the characters of Discord usernames),
    and not a word that listings read as a filter. ``:`` is kept for the server's own players."""
    if not _PLAYER_NAME.fullmatch(name):
        raise InputError(
            f"{shorten(name)!r} cannot be a player name: use 1 to 32 letters, digits, '_', '.' or '-'"
        )
    if name.lower() in RESERVED_NAMES:
        raise InputError(f"{name!r} cannot be a player name: listings read it as a filter word")


@dataclass
class Result:
    """What an action did. ``notify`` lists the players to ping (the player to move after a turn change);
    ``state`` is the position to draw (``None`` when there is no board to show)."""

    ok: bool
    message: str
    game_id: int | None = None
    game_type: str | None = None
    move_number: int | None = None
    to_move: str | None = None
    status: str | None = None
    winners: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    notify: list[str] = field(default_factory=list)
    state: GameState | None = None
    items: list[str] = field(default_factory=list)
    challenge_id: int | None = None
    players: list[str] = field(default_factory=list)
    legal_moves: list[str] | None = None

    def legal_move_texts(self) -> list[str]:
        """The legal moves of the player to move in the position this result is about (empty when the game is
        over or there is none): ``legal_moves`` when the action listed them, else read from ``state``."""
        if self.legal_moves is not None:
            return self.legal_moves
        state = self.state
        if state is None or state.is_over or state.to_move is None or self.status not in (None, "active"):
            return []
        return [state.move_text(m) for m in state.legal_moves]

    def board_png(self) -> bytes | None:
        """The board picture of ``state`` (imports Pillow on first use; fronts call it off their event loop)."""
        if self.state is None:
            return None
        from render import board_png

        return board_png(self.state)

    def board_text(self) -> str | None:
        return None if self.state is None else self.state.text_board()

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "message": self.message,
            "game": self.game_type,
            "game_id": self.game_id,
            "challenge_id": self.challenge_id,
            "move_number": self.move_number,
            "to_move": self.to_move,
            "status": self.status,
            "winner": self.winners[0] if len(self.winners) == 1 else (self.winners or None),
            "players": self.players,
            "events": [e.to_json() for e in self.events],
            "notify": self.notify,
            "items": self.items,
            "legal_moves": self.legal_move_texts() if self.game_id is not None else [],
        }


def _fail(message: str, **fields: Any) -> Result:
    return Result(ok=False, message=message, **fields)


def _refusal(exc: GameError) -> str:
    """A rules refusal for people: what the player typed is echoed shortened, the reason whole."""
    if isinstance(exc, MoveError) and exc.text:
        message = f"{shorten(exc.text)}: {exc.reason}"
        return message + (f" (expected {exc.expected})" if exc.expected else "")
    return str(exc)


def _stale(game_id: int, state: GameState, expected: int | None) -> Result | None:
    """pbmserv's ``#n`` guard: a refusal when the game is no longer at move ``expected``."""
    if expected is None or expected == state.ply + 1:
        return None
    return _fail(
        f"move received as move #{expected}, but game {game_id} is at move #{state.ply + 1}: "
        "the board has changed since you looked",
        game_id=game_id,
        move_number=state.ply,
    )


def split_move_number(text: str) -> tuple[str, int | None]:
    """Split pbmserv's ``move#moveno`` suffix: ``"c3#5"`` -> ``("c3", 5)``; a suffix that is not a move number
    written with the digits 0-9 raises :class:`InputError`."""
    match = _MOVE_NUMBER.match(text)
    if match is None:
        return text.strip(), None
    return match.group("text").strip(), parse_number(match.group("number"), "move number", 10**9)


def status_line(game: GameDef, state: GameState, *, with_reason: bool = True) -> str:
    """One line on how the game stands: whose turn it is, or how it ended (and why, unless ``with_reason`` is
    false because the lines above already say it)."""
    outcome = state.outcome()
    if outcome is None:
        seat = state.to_move
        return f"{game.title}: {state.players[seat]} to move (move {state.ply + 1})" if seat is not None else ""
    details = [outcome.reason] if with_reason else []
    if outcome.cancelled:
        verdict = "cancelled"
    elif outcome.draw:
        verdict = "drawn"
    else:
        verdict = f"{' and '.join(state.players[w] for w in outcome.winners)} won"
        if outcome.points != 1:
            details.append(f"{outcome.points} points")
    return f"{game.title}: {verdict}" + (f" ({', '.join(details)})" if details else "")


class Actions:
    """The transport-free actions. ``seed_source`` gives each new game its RNG seed (tests pass a fixed one)."""

    def __init__(
        self,
        store: Store,
        *,
        seed_source: Callable[[], int] | None = None,
        challenge_ttl: float | None = 24 * 3600.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self._seed = seed_source or (lambda: int.from_bytes(os.urandom(8), "big") >> 1)
        self.challenge_ttl = challenge_ttl
        self._clock = clock

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
            parsed = game.parse_options(options, len(players))
        except GameError as exc:
            return _fail(str(exc))
        if start:
            return await self._start_game(game, parsed, list(players), guild_id=guild_id, channel_id=channel_id)
        expires = None if self.challenge_ttl is None else self._clock() + self.challenge_ttl
        for player in players:
            await self.store.ensure_player(player)
        challenge_id = await self.store.create_challenge(
            game.name, list(options), list(players), expires_at=expires, guild_id=guild_id, channel_id=channel_id
        )
        others = ", ".join(players[1:])
        return Result(
            ok=True,
            message=f"{players[0]} challenges {others} to {game.title}"
            + (f" ({game.format_options(parsed)})" if game.format_options(parsed) else "")
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
            options = game.parse_options(challenge.options, len(challenge.players))
        except GameError as exc:
            return _fail(f"challenge {challenge_id} cannot start: {exc}", challenge_id=challenge_id)
        try:
            await self.store.update_challenge(challenge_id, status="accepted", accepted=accepted)
        except StaleWriteError:
            return _fail(f"challenge {challenge_id} has already been answered", challenge_id=challenge_id)
        result = await self._start_game(
            game, options, challenge.players, guild_id=challenge.guild_id, channel_id=challenge.channel_id
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
        *,
        guild_id: int | None,
        channel_id: int | None,
        prefix: str = "",
    ) -> Result:
        seed = self._seed()
        state = game.new(options, players, seed)
        memory = state.memory()
        game_id = await self.store.create_game(
            game.name,
            options,
            players,
            seed,
            state.to_json(),
            _player_to_move(state),
            guild_id=guild_id,
            channel_id=channel_id,
            memory=memory,
        )
        entries, events = _run_server_loop(state)
        if entries:
            await self._commit(game_id, 0, entries, state, memory_from=len(memory))
        opts = game.format_options(options)
        message = f"{prefix}{game.title} game {game_id} started: {', '.join(players)}" + (f" ({opts})" if opts else "")
        return self._game_result(game, game_id, state, message, events, actor=None)

    # ---- moves ---------------------------------------------------------------------------------------------

    async def move(self, game_id: int, player: str, text: str, *, alternative: str | None = None) -> Result:
        """``player`` makes a move written ``text`` (pbmserv notation, optionally ending ``#moveno``).

        ``alternative`` is another reading of the same input, tried when ``text`` is not a move at all: the
        console passes the input without pbmserv's password word, which it cannot tell from a move by itself.
        """
        if len(text) > MAX_MOVE_TEXT:
            return _fail(f"a move is at most {MAX_MOVE_TEXT} characters; {shorten(text)} is longer", game_id=game_id)
        try:
            text, expected = split_move_number(text)
            if alternative is not None:
                alternative, _ = split_move_number(alternative)
        except InputError as exc:
            return _fail(str(exc), game_id=game_id)
        if not text:
            return _fail("no move given", game_id=game_id)
        loaded = await self._load(game_id)
        if isinstance(loaded, Result):
            return loaded
        row, game, state = loaded
        if row.status != "active":
            return _fail(f"game {game_id} is over", game_id=game_id, game_type=game.name, state=state)
        if player not in state.players:
            return _fail(f"{shorten(player)} is not playing in game {game_id}", game_id=game_id, game_type=game.name)
        stale = _stale(game_id, state, expected)
        if stale is not None:
            stale.game_type = game.name
            return stale
        seat = state.seat_of(player)
        if text.lower() in ("resign", "forfeit"):
            return await self._resign(row, game, state, player)
        try:
            try:
                move = state.parse_move(text, seat)
            except MoveSyntaxError as whole:
                if alternative is None:
                    raise
                try:
                    move = state.parse_move(alternative, seat)
                except MoveSyntaxError:
                    # Neither reading is a move: blame the one the player meant. A first word that is part of
                    # a move (``13-7`` of ``13-7 bar-``) was no password, so the whole text is what was wrong.
                    if _is_move_fragment(state, text.split()[0], seat):
                        raise whole from None
                    raise
        except GameError as exc:
            return _fail(_refusal(exc), game_id=game_id, game_type=game.name, state=state, move_number=state.ply)
        if isinstance(move, Resign):
            return await self._resign(row, game, state, player)
        move_text = state.move_text(move)
        events = state.push(move)
        entries = [LogEntry(state.ply, player, move_text, [e.to_json() for e in events])]
        more_entries, more_events = _run_server_loop(state)
        error = await self._commit(game_id, row.log_length, entries + more_entries, state, len(row.memory))
        if error is not None:
            return error
        return self._game_result(
            game, game_id, state, _announce(game, player, move_text, events), events + more_events, actor=player
        )

    async def resign(self, game_id: int, player: str, expected: int | None = None) -> Result:
        """``player`` resigns (pbmserv semantics: see the module docstring); ``expected`` is the ``#n`` guard."""
        loaded = await self._load(game_id)
        if isinstance(loaded, Result):
            return loaded
        row, game, state = loaded
        if row.status != "active":
            return _fail(f"game {game_id} is over", game_id=game_id, game_type=game.name)
        if player not in state.players:
            return _fail(f"{shorten(player)} is not playing in game {game_id}", game_id=game_id, game_type=game.name)
        stale = _stale(game_id, state, expected)
        if stale is not None:
            stale.game_type = game.name
            return stale
        return await self._resign(row, game, state, player)

    async def _resign(self, row: GameRow, game: GameDef, state: GameState, player: str) -> Result:
        if state.ply < len(row.players):
            return await self._decline_game(row, game, state, player)
        waiting_on = _player_to_move(state)
        try:
            events = state.resign(state.seat_of(player))
        except GameError as exc:
            return _fail(str(exc), game_id=row.id, game_type=game.name)
        entries = [LogEntry(state.ply, player, "resign", [e.to_json() for e in events])]
        more_entries, more_events = _run_server_loop(state)
        error = await self._commit(row.id, row.log_length, entries + more_entries, state, len(row.memory))
        if error is not None:
            return error
        # A resignation queued (or withdrawn) out of turn changes nobody's turn: nobody is pinged for it.
        return self._game_result(
            game,
            row.id,
            state,
            events[0].text,
            events + more_events,
            actor=player,
            ping=_player_to_move(state) != waiting_on,
        )

    async def _decline_game(self, row: GameRow, game: GameDef, state: GameState, player: str) -> Result:
        """Resigning in the first round: the player declines. The game is cancelled, and restarted without them
        (as a new game) when enough players remain."""
        reason = f"{player} declined to play"
        state.cancel(reason)
        event = Event("resign", reason, row.players.index(player), {"declined": True})
        error = await self._commit(
            row.id, row.log_length, [LogEntry(state.ply, player, "decline", [event.to_json()])], state, len(row.memory)
        )
        if error is not None:
            return error
        remaining = [p for p in row.players if p != player]
        cancelled = self._game_result(
            game, row.id, state, f"{reason}; game {row.id} is cancelled", [event], actor=player
        )
        if len(remaining) < game.min_players:
            return cancelled
        try:
            options = game.parse_options(game.format_options(row.options).split(), len(remaining))
        except GameError as exc:
            cancelled.message += f"\nIt cannot restart without {player}: {exc}"
            return cancelled
        result = await self._start_game(
            game,
            options,
            remaining,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            prefix=f"{reason}; game {row.id} is cancelled. ",
        )
        result.events.insert(0, event)
        return result

    async def _commit(
        self, game_id: int, log_length: int, entries: list[LogEntry], state: GameState, memory_from: int
    ) -> Result | None:
        """Commit actions under the stale-move guard (``log_length`` is what the caller read); the game's memory
        held ``memory_from`` values when it was read, and what the actions added is appended."""
        outcome = state.outcome()
        status = "active" if outcome is None else ("cancelled" if outcome.cancelled else "finished")
        try:
            await self.store.commit_actions(
                game_id,
                log_length,
                entries,
                snapshot=state.to_json(),
                move_number=state.ply,
                status=status,
                to_move=_player_to_move(state),
                outcome=None if outcome is None else outcome.to_json(),
                memory_from=memory_from,
                memory_append=state.memory()[memory_from:],
            )
        except StaleWriteError:
            return _fail(
                f"game {game_id} changed while your move was being made (another move got there first); "
                "nothing was played: look at the board and try again",
                game_id=game_id,
            )
        return None

    # ---- looking -------------------------------------------------------------------------------------------

    async def show(self, game_id: int, at: int | None = None) -> Result:
        """The game as it stands, or after move ``at`` (a replay of the log)."""
        loaded = await self._load(game_id)
        if isinstance(loaded, Result):
            return loaded
        row, game, state = loaded
        if at is None:
            return self._game_result(game, game_id, state, status_line(game, state), [], actor=None, ping=False)
        if not 0 <= at <= row.move_number:
            return _fail(f"game {game_id} has moves 0 to {row.move_number}; there is no move {at}", game_id=game_id)
        try:
            past = await self.replay(row, until=at)
        except (StoreError, GameError, StateFormatError) as exc:
            return _fail(f"game {game_id} cannot be replayed: {exc}", game_id=game_id)
        result = self._game_result(game, game_id, past, f"game {game_id} after move {at}", [], actor=None, ping=False)
        result.move_number = at
        return result

    async def replay(self, row: GameRow, until: int | None = None) -> GameState:
        """Rebuild a game from its seed and its log, up to move number ``until`` (all of it by default)."""
        game = registry.get(row.type)
        state = game.new(row.options, row.players, row.seed)
        for entry in await self.store.log(row.id):
            if until is not None and entry.number > until:
                break
            _apply_logged(state, entry)
        return state

    async def history(self, game_id: int) -> Result:
        """The move list, one line per logged action, with ``(Auto)`` marking what the server played and, for a
        game of chance, the dice the player moved with (``bob (6-5): 13-8,6-5``), read from the logged roll
        events. A resignation asked for out of turn (or withdrawn) is a note without a number; the resignation
        itself appears once, where it took effect. No replay: the cost is one read of the log."""
        loaded = await self._load(game_id)
        if isinstance(loaded, Result):
            return loaded
        row, game, state = loaded
        try:
            log = await self.store.log_lines(game_id)
        except DamagedRowError as exc:
            return _fail(str(exc), game_id=game_id)
        lines = []
        dice = game.new(row.options, row.players, row.seed).turn_context()  # the opening roll is not logged
        previous_number = 0
        for entry in log:
            if entry.text == "resign" and not entry.auto and entry.number == previous_number:
                lines.append(f"      ({_first_event_text(entry.events_json) or f'{entry.player_id} asked to resign'})")
                continue
            previous_number = entry.number
            play = entry.text not in game.extra_commands
            context = dice if play else ""
            if play:
                dice = ""  # a play uses the dice up
            dice = _rolled(entry.events_json) or dice
            who = f"{entry.player_id} ({context})" if context else entry.player_id
            auto = " (Auto)" if entry.auto else ""
            lines.append(f"{entry.number:>4}. {who}: {entry.text}{auto}")
        header = f"{game.title} game {game_id}: {', '.join(row.players)}"
        opts = game.format_options(row.options)
        if opts:
            header += f" ({opts})"
        return Result(
            ok=True,
            message=header + "\n" + status_line(game, state),
            game_id=game_id,
            game_type=game.name,
            move_number=state.ply,
            status=row.status,
            items=lines,
            players=list(state.players),
            to_move=_player_to_move(state),
            winners=_winners(state),
            legal_moves=_legal_texts(state),
        )

    async def games(
        self, player: str | None, which: str = "active", game_type: str | None = None, page: int = 1
    ) -> Result:
        """Games of a player (pbmserv ``games userid [all|active|inactive|next]``), newest first, a page of
        :data:`PAGE_SIZE` at a time; ``next`` lists the games waiting on that player. Without a player: every
        game of the type. The message says how many there are and how many more pages follow."""
        if which not in ("all", "active", "inactive", "next"):
            return _fail(f"unknown filter {shorten(which)!r} (all, active, inactive or next)")
        if which == "next" and player is None:
            return _fail("'next' lists the games waiting on a player: name the player")
        if page < 1:
            return _fail("pages are numbered from 1")
        if game_type is not None:
            try:
                game_type = registry.get(game_type).name
            except GameError as exc:
                return _fail(str(exc))
        rows, total = await self.store.list_games(
            player_id=player, which=which, game_type=game_type, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE
        )
        lines = [_game_line(r) for r in rows]
        who = player or "everyone"
        kind = "" if which == "all" else f"{which} "
        if total == 0:
            message = f"no {kind}games for {who}"
        elif not lines:
            return _fail(f"{who} has {total} {kind}game(s): there is no page {page}")
        else:
            message = f"{total} {kind}game(s) for {who}"
            first = (page - 1) * PAGE_SIZE + 1
            if total > len(lines):
                message += f", {first}-{first + len(lines) - 1} shown"
                left = total - (first + len(lines) - 1)
                if left > 0:
                    message += f"; {left} more (page {page + 1})"
        return Result(ok=True, message=message, items=lines, game_type=game_type)

    async def moves(self, game_id: int, prefix: str = "", limit: int | None = MOVE_LIST_LIMIT) -> Result:
        """The legal moves of the current position whose text starts with ``prefix`` (case-insensitive), at most
        ``limit`` of them (all with ``None``; Discord's autocomplete takes 25), in the game's canonical notation;
        ``message`` gives the full count."""
        loaded = await self._load(game_id)
        if isinstance(loaded, Result):
            return loaded
        row, game, state = loaded
        if state.is_over:
            return _fail(f"game {game_id} is over", game_id=game_id, game_type=game.name)
        wanted = prefix.strip().lower()
        every = _legal_texts(state)
        matching = [text for text in every if text.lower().startswith(wanted)]
        shown = matching if limit is None else matching[:limit]
        more = f" (first {len(shown)} shown)" if len(matching) > len(shown) else ""
        seat = state.to_move
        who = state.players[seat] if seat is not None else "nobody"
        return Result(
            ok=True,
            message=f"{len(matching)} legal move(s) for {who}{more}",
            game_id=game_id,
            game_type=game.name,
            move_number=state.ply,
            to_move=_player_to_move(state),
            items=shown,
            status=row.status,
            legal_moves=every,
        )

    async def players_of(self, game_id: int) -> list[str]:
        """The seats of a game (empty when there is no such game or it cannot be read)."""
        loaded = await self._load(game_id)
        return [] if isinstance(loaded, Result) else list(loaded[2].players)

    def help(self, game_name: str | None = None) -> Result:
        """Rules summary, options and notation of a game, or the list of games."""
        if game_name is None:
            lines = [f"{g.name}: {g.summary}" for g in (registry.get(n) for n in registry.names())]
            return Result(ok=True, message="Games: " + ", ".join(registry.names()), items=lines)
        try:
            game = registry.get(game_name)
        except GameError as exc:
            return _fail(str(exc))
        options = [opt.describe() for opt in game.options]
        players = (
            f"{game.min_players} players"
            if game.min_players == game.max_players
            else f"{game.min_players} to {game.max_players} players"
        )
        text = f"**{game.title}** ({players}): {game.summary}\n\n{game.help}\n\n**Moves.** {game.notation}"
        return Result(ok=True, message=text, game_type=game.name, items=options)

    # ---- helpers -------------------------------------------------------------------------------------------

    async def _load(self, game_id: int) -> tuple[GameRow, GameDef, GameState] | Result:
        try:
            row = await self.store.load_game(game_id)
            game = registry.get(row.type)
            state = game.load(row.snapshot)
            state.restore_memory(row.memory)
            if state.ply != row.move_number:
                raise DamagedRowError(
                    f"its snapshot is at move {state.ply} but the game is at move {row.move_number}; run pbm check"
                )
        except NotFoundError as exc:
            return _fail(str(exc), game_id=game_id)
        except (DamagedRowError, StateFormatError, GameError) as exc:
            return _fail(f"game {game_id} cannot be read: {exc}", game_id=game_id)
        return row, game, state

    def _game_result(
        self,
        game: GameDef,
        game_id: int,
        state: GameState,
        message: str,
        events: list[Event],
        *,
        actor: str | None,
        ping: bool = True,
    ) -> Result:
        outcome = state.outcome()
        status = "active" if outcome is None else ("cancelled" if outcome.cancelled else "finished")
        to_move = _player_to_move(state)
        notify = [to_move] if ping and to_move is not None and (to_move != actor or len(events) > 1) else []
        lines = [message, *(e.text for e in events if e.text and e.text != message)]
        said = outcome is not None and any(outcome.reason in line for line in lines)
        summary = status_line(game, state, with_reason=not said)
        if summary and summary not in lines:
            lines.append(summary)
        return Result(
            ok=True,
            message="\n".join(lines),
            game_id=game_id,
            game_type=game.name,
            move_number=state.ply,
            to_move=to_move,
            status=status,
            winners=_winners(state),
            events=events,
            notify=notify,
            state=state,
            players=list(state.players),
        )


def _player_to_move(state: GameState) -> str | None:
    seat = state.to_move
    return None if seat is None or state.is_over else state.players[seat]


def _announce(game: GameDef, player: str, move_text: str, events: list[Event]) -> str:
    """The first line after a move: a one-word command says what it did in the game's words ("bob refused the
    double: alice wins 1 point", "bob turned manual mode on"); a move is "alice played c3"."""
    if move_text in game.extra_commands and events and events[0].text:
        return events[0].text
    return f"{player} played {move_text}"


def _legal_texts(state: GameState) -> list[str]:
    """The legal moves of the player to move, in the game's canonical notation (none once the game is over)."""
    if state.is_over or state.to_move is None:
        return []
    return [state.move_text(m) for m in state.legal_moves]


def _winners(state: GameState) -> list[str]:
    outcome = state.outcome()
    return [] if outcome is None else [state.players[w] for w in outcome.winners]


def _run_server_loop(state: GameState) -> tuple[list[LogEntry], list[Event]]:
    """Play every move the server must make now (pbmserv's ``NextPlayer`` loop) and return their log entries."""
    entries: list[LogEntry] = []
    events: list[Event] = []
    while (move := state.forced_move()) is not None:
        seat = move.player if isinstance(move, Resign) else state.to_move
        player = state.players[seat] if seat is not None else None
        text = state.move_text(move)
        caused = state.push(move)
        entries.append(LogEntry(state.ply, player, text, [e.to_json() for e in caused], auto=True))
        events.extend(caused)
    return entries, events


def _is_move_fragment(state: GameState, word: str, seat: int) -> bool:
    """Whether ``word`` alone reads as move notation (legal here or not), as a password word would not."""
    try:
        state.parse_move(word, seat)
    except MoveSyntaxError:
        return False
    except GameError:
        return True
    return True


def _apply_logged(state: GameState, entry: LogEntry) -> None:
    """Re-apply one logged action during a replay; a log that no longer replays is reported as damaged."""
    if entry.auto:
        move = state.forced_move()
        if move is None or state.move_text(move) != entry.text:
            raise DamagedRowError(f"move {entry.number} ({entry.text}, played by the server) does not replay")
        state.push(move)
        return
    seat = state.seat_of(entry.player_id or "")
    if entry.text == "decline":
        state.cancel(f"{entry.player_id} declined to play")
        return
    if entry.text == "resign":
        state.resign(seat)
        return
    state.push(state.parse_move(entry.text, seat))


def _rolled(events_json: str) -> str:
    """The dice of the last roll among a logged action's events (``6-5``), or ``""``; the JSON is only parsed
    when it mentions a roll, so listing a long log stays cheap."""
    if '"roll"' not in events_json:
        return ""
    dice = ""
    for event in json.loads(events_json):
        if event.get("kind") == "roll" and event.get("data", {}).get("dice"):
            dice = "-".join(str(d) for d in event["data"]["dice"])
    return dice


def _first_event_text(events_json: str) -> str:
    events = json.loads(events_json)
    return str(events[0].get("text", "")) if events else ""


def _game_line(row: GameSummary) -> str:
    """pbmserv's games listing: board, game, move count, players, status."""
    if row.status == "active":
        status = f"{row.to_move}'s turn" if row.to_move else "in progress"
    elif row.status == "cancelled":
        status = "cancelled"
    else:
        outcome = row.outcome or {}
        winners = outcome.get("winners") or []
        seats = row.seats or row.players
        if winners:
            names = " and ".join(str(seats[w]) for w in winners if 0 <= w < len(seats))
            points = outcome.get("points", 1)
            status = f"{names} won" + (f" {points} points" if points != 1 else "")
        else:
            status = "draw"
    return f"{row.type} {row.id}: move {row.move_number}, {', '.join(row.players)}: {status}"
