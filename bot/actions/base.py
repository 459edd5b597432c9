"""The state every group of actions shares (the store, the clock, the seed source) and the steps they all take:
loading a game, committing actions under the stale-move guard, and turning a position into a :class:`Result`."""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Concatenate, NamedTuple, ParamSpec, TypeVar

from bot.actions.common import (
    Result,
    _fail,
    _player_to_move,
    _winners,
    closing_status,
    think_here,
)
from bot.correspondence.clock import Clock
from bot.correspondence.periods import QuietHours, delivery_time, vacation_runs_out, warning_time
from bot.ratings import RATER, Shift, is_rated, rated_game, row_text, shown
from data.store import (
    ClockWrite,
    DamagedRowError,
    DatabaseUnavailableError,
    GameRow,
    LogEntry,
    NotFoundError,
    RatingWrite,
    StaleWriteError,
    Store,
)
from rules import registry
from rules.base import Event, GameDef, GameError, GameState, StateFormatError

#: how many games' last change times a process keeps (see :meth:`ActionsBase._changed_since`) before it forgets
#: those older than :data:`CHANGES_FORGOTTEN_AFTER` seconds: no command waits that long to be handled
CHANGES_KEPT = 10_000
CHANGES_FORGOTTEN_AFTER = 60.0

#: how long (seconds) a player's settings are trusted once read: an action reads them once, however many steps it
#: takes (and a busy bot once a second per player), and another process's change is seen within a second
PLAYER_SETTINGS_TTL = 1.0


class PlayerSettings(NamedTuple):
    """What a player's clocks depend on (time zone, quiet hours, vacation), and how they want their moves and
    turns handled (a preview before each move; turns told by DM: ``notify_dm`` ``on``, ``off``, ``closed``)."""

    tz: str
    quiet: QuietHours | None
    on_vacation: bool
    preview: bool
    notify_dm: str | None


@dataclass
class MoveAttempt:
    """A move a front will post under a nonce, from the moment its commit is tried: where it goes in its game's
    log (``seq``, from 1), who made it and how it is written; ``committed`` once its transaction is."""

    game_id: int
    seq: int
    player: str
    text: str
    committed: bool = False


def changed_meanwhile(game_id: int) -> Result:
    """The refusal of an action on a position that changed before it could be played."""
    return _fail(
        f"game {game_id} changed while your move was being made (another move got there first); "
        "nothing was played: look at the board and try again",
        game_id=game_id,
    )


P = ParamSpec("P")
A = TypeVar("A", bound="ActionsBase")


def one_transaction(
    command: Callable[Concatenate[A, P], Awaitable[Result]],
) -> Callable[Concatenate[A, P], Awaitable[Result]]:
    """Make a command's writes one transaction (:meth:`data.store.Store.atomic`): when it fails halfway, what it
    wrote before is rolled back with the rest, and the database is as it was. Only a computer player's thinking
    splits it (what came before is committed first, see :meth:`data.store.Store.suspended`)."""

    @functools.wraps(command)
    async def run(self: A, *args: P.args, **kwargs: P.kwargs) -> Result:
        try:
            async with self.store.atomic():
                return await command(self, *args, **kwargs)
        except StaleWriteError:  # a collision no guard of the command answered: all of it was rolled back
            return _fail("another command changed the same things at that moment: nothing was done; try again")

    return run


class ActionsBase:
    """The transport-free actions' shared core. ``seed_source`` gives each new game its RNG seed (tests pass a
    fixed one)."""

    def __init__(
        self,
        store: Store,
        *,
        seed_source: Callable[[], int] | None = None,
        challenge_ttl: float | None = 24 * 3600.0,
        clock: Callable[[], float] = time.time,
        think: Callable[[GameState, str, float | None], Awaitable[tuple[str, str]]] | None = think_here,
        think_now: Callable[[float | None], bool] | None = None,
        ai_seconds: float | None = None,
        reminder_interval: float = 24 * 3600.0,
        offload: Callable[..., Awaitable[Any]] | None = None,
    ) -> None:
        """``think`` makes computer players' moves (``None``: they never move by themselves); ``think_now(seconds)``
        tells whether it would start on a move at once (``None``: always; a pool of busy workers would make it
        wait): a command waits only for a move worked out at once, and leaves any other for the front to have
        played in its turn (see :meth:`bot.actions.play.PlayActions.computer_reply`). ``ai_seconds`` is
        their wall-clock safety net (``PBM_AI_SECONDS``; default per level). ``clock`` is the one source of the
        time for everything, the store's stamps included (tests and ``--now`` move it); untimed games remind
        the player to move every ``reminder_interval`` seconds. ``offload`` runs CPU-heavy work off the caller's
        event loop (the bot passes ``asyncio.to_thread``)."""
        self.store = store
        store.now = clock
        self.reminder_interval = reminder_interval
        self._offload_to = offload
        #: games whose computer player this process is working out a move for
        self._thinking: set[int] = set()
        self._player_settings_read: dict[str, tuple[float, PlayerSettings]] = {}
        #: when (time.monotonic()) this process last committed a change to each game
        self._changed_at: dict[int, float] = {}
        #: the moves fronts are making, by the nonce they will post them under (see :meth:`move_landed`)
        self._attempts: dict[str, MoveAttempt] = {}
        self._think = think
        self._think_now = think_now
        self.ai_seconds = ai_seconds
        self._seed = seed_source or (lambda: int.from_bytes(os.urandom(8), "big") >> 1)
        self.challenge_ttl = challenge_ttl
        self._clock = clock

    async def _commit(
        self,
        game_id: int,
        log_length: int,
        entries: list[LogEntry],
        state: GameState,
        memory_from: int,
        *,
        before: GameRow | None,
        memory_reset: bool = False,
        claim: int | None = None,
        refill: bool = False,
        will_post: str | None = None,
        at: float | None = None,
        proposal: int | None = None,
    ) -> Result | None:
        """Commit actions under the stale-move guard (``log_length`` is what the caller read); the game's memory
        held ``memory_from`` values when it was read, and what the actions added is appended. The game's clock
        (read in ``before``) moves on in the same transaction: a turn that passed refills the clock for the
        player to move (``refill`` forces it), and the next timer is scheduled; ``claim`` is the clock timer a
        sweep acts on (see :class:`data.store.ClockWrite`). A game these actions finish is rated in the same
        transaction, unless it was started ``-unrated`` (see :mod:`bot.ratings`). ``will_post`` is the nonce
        under which the front will post the new board: the commit marks it as still to be posted (see
        :meth:`data.store.Store.mark_unposted`). ``at`` is when the actions take effect, if not now (a timeout
        at its deadline). The commit voids the game's open proposal, which no longer holds, unless these actions
        carry it out (``proposal``)."""
        outcome = state.outcome()
        status = "active" if outcome is None else ("cancelled" if outcome.cancelled else "finished")
        to_move = _player_to_move(state)
        clock_json = None if before is None else before.clock
        turn_passed = (
            refill
            or before is None
            or to_move != before.to_move
            or any(not e.auto and e.text not in state.game.extra_commands for e in entries)
        )
        write = await self._clock_after(clock_json, to_move, turn_passed=turn_passed, active=status == "active", at=at)
        rating = None
        match = getattr(state, "match", None)
        end = None if match is None or outcome is None else state.match_end()  # type: ignore[attr-defined]
        if status == "finished" and outcome is not None and is_rated(clock_json) and (end is None or end.over):
            options = state.options if before is None else before.options
            points = None if match is None else match.length  # a match is rated once, as its last game
            counted = rated_game(state.game, options, outcome, state.players, state.resigned, points=points)
            rating = None if counted is None else RatingWrite(counted, RATER)
        attempt = None
        if will_post is not None and entries:
            attempt = self._attempts[will_post] = MoveAttempt(
                game_id, log_length + 1, entries[0].player_id, entries[0].text
            )
        try:
            await self.store.commit_actions(
                game_id,
                log_length,
                entries,
                snapshot=state.to_json(),
                move_number=state.ply,
                status=status,
                to_move=to_move,
                outcome=None if outcome is None else outcome.to_json(),
                memory_from=memory_from,
                memory_append=state.memory()[0 if memory_reset else memory_from :],
                clock=write._replace(claim=claim),
                memory_reset=memory_reset,
                rating=rating,
                unposted=will_post,
                at=at,
                carried_out=proposal,
            )
        except StaleWriteError:
            return changed_meanwhile(game_id)
        if attempt is not None:
            # asked only now that the write is done: in a command's unit that had written nothing before, asking
            # before the write would have run at once, and a write the lock then refused would count as played
            self.store.after_commit(lambda: setattr(attempt, "committed", True))
        if match is not None and match.id is not None and status != "active":
            await self._record_match(state, match, end)
        self.store.after_commit(lambda: self._note_change(game_id))
        if status != "active":
            await self._game_over(game_id, state)
        return None

    async def _game_over(self, game_id: int, state: GameState) -> None:
        """What a game's end changes besides the game, in the transaction of the commit that ended it: a
        tournament records the result and may pair its next round (:mod:`bot.actions.tournaments`)."""

    async def _match_goes_on(self, ended: int, following: int) -> None:
        """A Backgammon match's game ``ended`` and its next game ``following`` started, in the same transaction:
        a tournament's board is played on in the new game; nothing here."""

    def _tell_news(self, result: Result) -> None:
        """Put on ``result`` what its game's end did elsewhere (a tournament's news: its lines in the message,
        the rest in ``result.news`` for the fronts to post); nothing here."""

    async def _record_match(self, state: GameState, match: Any, end: Any) -> None:
        """The match of a game that just ended, updated in the same transaction: its score after a game won on the
        board, its winner once it is over, cancelled with its game (a game declined or cancelled by a moderator:
        the match ends without a result)."""
        if end is None:
            await self.store.record_match(match.id, match.score, status="cancelled")
        elif end.winner is None:
            await self.store.record_match(match.id, end.score)
        else:
            await self.store.record_match(match.id, end.score, status="finished", winner=state.players[end.winner])

    async def move_landed(self, nonce: str, *, outcome_unknown: bool) -> bool | None:
        """Whether the move a front made under ``nonce`` (``move(..., will_post=nonce)``) was played, after the
        command failed because the database became unavailable: not if its commit was never tried, or failed
        before its ``COMMIT``; yes if it was committed; when the ``COMMIT`` itself went unanswered
        (``outcome_unknown``), what the move log says at its place (``None`` while the database cannot be
        asked, or when no move of this nonce reached its commit although a ``COMMIT`` went unanswered: a
        resignation typed as a move is not tracked)."""
        attempt = self._attempts.get(nonce)
        if attempt is None:
            return None if outcome_unknown else False
        if attempt.committed:
            return True
        if not outcome_unknown:
            return False
        try:
            logged = await self.store.move_at(attempt.game_id, attempt.seq)
        except DatabaseUnavailableError:
            return None
        return logged is not None and (logged.player_id, logged.text) == (attempt.player, attempt.text)

    def attempted_move(self, nonce: str) -> str | None:
        """How the move made under ``nonce`` is written (as the log has it), once its commit was tried."""
        attempt = self._attempts.get(nonce)
        return None if attempt is None else attempt.text

    def forget_move(self, nonce: str) -> None:
        """The front is done with the move made under ``nonce``."""
        self._attempts.pop(nonce, None)

    def _note_change(self, game_id: int) -> None:
        now = time.monotonic()
        self._changed_at[game_id] = now
        if len(self._changed_at) > CHANGES_KEPT:
            self._changed_at = {g: t for g, t in self._changed_at.items() if now - t < CHANGES_FORGOTTEN_AFTER}

    def _changed_since(self, game_id: int, arrived: float | None) -> bool:
        """Whether this process changed the game after a command arrived (``arrived``: its ``time.monotonic()``).
        Such a command was sent against an older position, however long it then waited to be handled: a second
        tap of the same move, handled after the opponent's reply, must not be played on the new position."""
        return arrived is not None and self._changed_at.get(game_id, float("-inf")) > arrived

    async def _offload(self, function: Callable[..., Any], *args: Any) -> Any:
        """Run CPU-heavy work (an analysis): where the front gave an ``offload`` (the bot: a worker thread), there,
        so the event loop keeps answering; else here (the console has nothing else to serve)."""
        if self._offload_to is None:
            return function(*args)
        return await self._offload_to(function, *args)

    # ---- clocks --------------------------------------------------------------------------------------------

    async def _clock_after(
        self,
        clock_json: dict[str, Any] | None,
        to_move: str | None,
        *,
        turn_passed: bool,
        active: bool,
        at: float | None = None,
    ) -> ClockWrite:
        """The clock write after actions taking effect ``at`` (now unless given): when the turn passed, the
        outgoing player's time is booked and the player to move starts a full turn (paused while they are on
        vacation); then the next timer."""
        now = self._clock() if at is None else at
        clock = await self._running_clock(Clock.from_json(clock_json), now)
        if clock.timed and (turn_passed or not active):
            outgoing = await self._tz(clock.player) if clock.player is not None else "UTC"
            paused = active and to_move is not None and await self._on_vacation(to_move)
            clock.next_turn(to_move if active else None, now, outgoing, paused=paused)
        return await self._schedule(clock, stored=clock_json is not None, active=active, to_move=to_move)

    async def _running_clock(self, clock: Clock, now: float) -> Clock:
        """``clock`` as its timers make it by ``now``: a clock paused for a vacation whose bank has run out runs
        again from the moment it did, before any sweep has ended the vacation (every timer takes effect as of its
        due time, however late it is acted on)."""
        if not clock.paused or clock.player is None:
            return clock
        bank = await self.store.vacation(clock.player)
        if bank is None or bank.since is None:
            return clock  # paused with no vacation behind it: pbm check reports it
        ends = vacation_runs_out(bank.balance, bank.as_of, bank.since)
        if ends <= now:
            clock.resume(ends)
        return clock

    async def _schedule(self, clock: Clock, *, stored: bool, active: bool, to_move: str | None = None) -> ClockWrite:
        """A clock as it is written: its JSON (``None`` kept for games from before clocks), the deadline of the
        player to move, and the next timer: the next warning (moved out of quiet hours) or the timeout; for an
        untimed game the next reminder of ``to_move`` (out of their quiet hours)."""
        now = self._clock()
        json_form = clock.to_json() if stored else None
        if not active:
            return ClockWrite(json_form, None, None)
        if not clock.timed:
            quiet = await self._quiet(to_move) if to_move is not None else None
            return ClockWrite(json_form, None, delivery_time(now + self.reminder_interval, quiet))
        if clock.player is None:
            return ClockWrite(json_form, None, None)
        tz = await self._tz(clock.player)
        deadline = clock.deadline(tz)
        if deadline is None:
            return ClockWrite(json_form, None, None)  # paused: resuming schedules it again
        quiet = await self._quiet(clock.player)
        times = [warning_time(w.due, deadline, quiet) for w in clock.pending_warnings(tz)]
        return ClockWrite(json_form, deadline, min([*times, deadline]))

    async def _player_settings(self, player: str) -> PlayerSettings:
        """A player's settings (:class:`PlayerSettings`), read once for every step of an action: kept for a second
        (:data:`PLAYER_SETTINGS_TTL`), and forgotten at once when this process changes them."""
        now = time.monotonic()
        known = self._player_settings_read.get(player)
        if known is not None and now - known[0] < PLAYER_SETTINGS_TTL:
            return known[1]
        tz, quiet_text, on_vacation, preview, notify_dm = await self.store.player_settings(player)
        zone_name = tz or "UTC"
        quiet = None
        if quiet_text:
            try:
                quiet = QuietHours.parse(quiet_text, zone_name)
            except ValueError:
                quiet = None  # a setting written by an older pbm that no longer reads: no quiet hours
        found = PlayerSettings(zone_name, quiet, on_vacation, preview == "on", notify_dm)
        self._player_settings_read[player] = (now, found)
        return found

    def _forget_player_settings(self, player: str) -> None:
        self._player_settings_read.pop(player, None)

    async def _tz(self, player: str | None) -> str:
        """A player's time zone (UTC unless they set one)."""
        return "UTC" if player is None else (await self._player_settings(player)).tz

    async def _quiet(self, player: str) -> QuietHours | None:
        """A player's quiet hours, if they set any."""
        return (await self._player_settings(player)).quiet

    async def _on_vacation(self, player: str) -> bool:
        return (await self._player_settings(player)).on_vacation

    async def _attach_clock(self, result: Result, *, ended: bool = False) -> Result:
        """Put the game's clock on a result about it: seconds left per player (``--json``) and a note per
        player (board headers, text boards); and the players' ratings (see :meth:`_attach_ratings`)."""
        if result.game_id is None or result.state is None:
            return result
        clock_json = await self.store.clock_of(result.game_id)
        await self._attach_ratings(result, clock_json, ended=ended)
        if result.status not in (None, "active"):
            return result
        now = self._clock()
        clock = await self._running_clock(Clock.from_json(clock_json), now)
        if not clock.timed:
            return result
        players = list(result.state.players)
        tz = await self._tz(clock.player)
        result.clock = clock.seconds_left(players, now, tz)
        result.clock_notes = clock.notes(players, now, tz)
        return result

    async def _attach_ratings(self, result: Result, clock_json: dict[str, Any] | None, *, ended: bool) -> None:
        """Put on a result about a game whether it is rated and each player's rating in its type (after a
        finished rated game, the rating it left them with). ``ended``: the action just ended the game, and its
        message says what that did to the ratings (``ratings: alice 1532 (+14), bob 1468 (-14)``)."""
        state = result.state
        if result.game_id is None or state is None or result.status not in (None, "active", "finished"):
            return
        result.rated = is_rated(clock_json)
        if result.status == "finished" and result.rated:
            changes = await self.store.game_rating_changes(result.game_id)
            if changes:
                result.rating_changes = [Shift.of(change) for change in changes]
                result.ratings = {c.player_id: shown(c.mu_after, c.sigma_after) for c in changes}
                if ended:
                    result.message += "\nratings: " + ", ".join(shift.text() for shift in result.rating_changes)
                return
        rows = await self.store.ratings_of(state.game.name, list(state.players))
        result.ratings = {player: row_text(rows.get(player)) for player in state.players}
        if ended and result.status == "finished" and not result.rated:
            result.message += "\nan unrated game: the ratings do not change"

    async def _with_ratings(self, game_type: str, players: list[str]) -> list[str]:
        """The players with their ratings in a game type, as a challenge names them: ``alice (1532)``."""
        rows = await self.store.ratings_of(game_type, players)
        return [f"{p} ({row_text(rows.get(p))})" for p in players]

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
        summary = closing_status(game, state, lines)
        if summary is not None:
            lines.append(summary)
        if outcome is not None and getattr(state, "match", None) is not None:
            said = state.match_text()  # type: ignore[attr-defined]  # what the game did to its match, said once
            if said not in lines:
                lines.append(said)
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
