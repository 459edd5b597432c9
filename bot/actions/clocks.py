"""Time: the sweep over due timers (warnings, reminders, timeouts, vacations that run out, proposals that expire,
pings held through quiet hours), vacations, and the player's notification settings (quiet hours, time zone,
preview before every move).

The sweep acts on each due timer inside the transaction that claims it (see :mod:`data.store.correspondence`),
so a timer is acted on once however many processes sweep, and a timeout goes through the same guarded commit as
a move: whichever commits first wins, the other is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.actions.base import ActionsBase, one_transaction
from bot.actions.common import Result, _fail, _run_server_loop, shorten
from bot.correspondence.clock import Clock
from bot.correspondence.periods import (
    DAY,
    QuietHours,
    format_left,
    format_local,
    vacation_bank,
    vacation_runs_out,
    warning_time,
    zone,
)
from bot.text import count
from data.store import ClockWrite, DamagedRowError, LogEntry, NotFoundError, StaleWriteError, TimerRow, VacationRow

#: the most due timers one sweep takes on; the rest wait for the next sweep
SWEEP_BATCH = 1000
#: how each warning begins ("alice, half your time is gone in game 3: 3d 12h left ..."); the time left is the
#: real one when sent, which quiet hours can bring forward
_WARNING_WORDS = {
    "half": "half your time is gone",
    "day": "your time is running out",
    "hour": "your time is running out",
}


@dataclass
class Notice:
    """Something the sweep (or a vacation switch) did that people must hear of. ``ping`` are the players to
    mention (or DM, where they opted in); ``result`` is the game as it now stands when the board changed (a
    timeout, and the replies that followed it), for the front to post as a turn."""

    kind: str
    text: str
    game_id: int | None = None
    ping: list[str] = field(default_factory=list)
    result: Result | None = None


class ClockActions(ActionsBase):
    # ---- the sweep -----------------------------------------------------------------------------------------

    async def sweep(self) -> list[Notice]:
        """Act on every timer due now (at most :data:`SWEEP_BATCH`), earliest first, and say what happened. Each
        takes effect as of its due time, however late the sweep: a vacation ends when its bank emptied, a timeout
        is dated at its deadline. What that makes due in turn (the clock of a vacation that ended days ago) is
        acted on in the same sweep. Safe to run in several processes at once: each timer is acted on once, in a
        transaction of its own."""
        notices: list[Notice] = []
        seen: set[int] = set()
        while len(seen) < SWEEP_BATCH:
            due = [t for t in await self.store.due_timers(self._clock(), SWEEP_BATCH) if t.id not in seen]
            if not due:
                break
            for timer in due[: SWEEP_BATCH - len(seen)]:
                seen.add(timer.id)
                async with self.store.atomic():
                    notices += await self._act_on(timer)
        return notices + await self.record_left_over()  # type: ignore[attr-defined]

    async def _act_on(self, timer: TimerRow) -> list[Notice]:
        """One due timer: claimed and acted on in the caller's transaction (a failure leaves it to the next
        sweep)."""
        if timer.kind == "clock":
            return await self._clock_due(timer)
        if not await self.store.claim_timer(timer.id):
            return []  # another process took it
        if timer.kind == "deliver":
            return await self._deliver(timer)
        if timer.kind == "vacation" and timer.player_id is not None:
            return await self._vacation_off(timer.player_id, by_hand=False)
        if timer.kind == "tournament" and timer.ref is not None:
            return await self.signup_closes(timer.ref)  # type: ignore[attr-defined]
        if timer.kind == "proposal" and timer.ref is not None:
            expired = await self.expire_proposal(timer.ref)  # type: ignore[attr-defined]
            if expired is not None:
                return [Notice("proposal", expired.message, expired.game_id, expired.notify, expired)]
        return []

    async def _clock_due(self, timer: TimerRow) -> list[Notice]:
        """A game's clock timer: remind (untimed), warn, or apply the timeout; then schedule the next."""
        assert timer.game_id is not None
        loaded = await self._load(timer.game_id)
        if isinstance(loaded, Result):
            await self.store.claim_timer(timer.id)  # a game that cannot be read is reported when opened
            return []
        row, game, state = loaded
        if row.timer_id != timer.id or row.status != "active" or row.to_move is None:
            await self.store.claim_timer(timer.id)  # a leftover: the game is over, or has a newer timer
            return []
        now = self._clock()
        clock = Clock.from_json(row.clock)
        if not clock.timed:
            write = await self._schedule(clock, stored=row.clock is not None, active=True, to_move=row.to_move)
            if not await self._write_clock(row.id, row.log_length, write._replace(claim=timer.id)):
                return []
            text = f"{row.to_move}, game {row.id} is waiting for your move."
            return [Notice("reminder", text, row.id, [row.to_move])]
        player = row.to_move
        tz = await self._tz(player)
        if clock.player != player:  # a clock that lost track of the turn (never written so): a fresh turn from now
            clock.next_turn(player, now, tz, paused=await self._on_vacation(player))
            write = await self._schedule(clock, stored=True, active=True)
            await self._write_clock(row.id, row.log_length, write._replace(claim=timer.id))
            return []
        left = clock.left(now, tz)
        deadline = clock.deadline(tz)
        if left is not None and left <= 0 and deadline is not None:
            return await self._time_out(row, game, state, player, timer.id, at=min(deadline, now))
        quiet = await self._quiet(player)
        due = [
            w
            for w in clock.pending_warnings(tz)
            if deadline is not None and warning_time(w.due, deadline, quiet) <= now
        ]
        clock.mark_warned([w.name for w in due])
        write = await self._schedule(clock, stored=True, active=True)
        if not await self._write_clock(row.id, row.log_length, write._replace(claim=timer.id)) or not due:
            return []
        when = format_local(deadline, tz) if deadline is not None else ""
        text = (
            f"{player}, {_WARNING_WORDS[due[-1].name]} in game {row.id}: {format_left(left or 0.0)} left"
            f" (until {when})."
        )
        return [Notice("warning", text, row.id, [player])]

    async def _write_clock(self, game_id: int, log_length: int, write: ClockWrite) -> bool:
        try:
            await self.store.update_clock(game_id, log_length, write)
        except (StaleWriteError, LookupError):
            return False
        return True

    async def _time_out(self, row, game, state, player: str, timer_id: int, *, at: float) -> list[Notice]:
        """``player`` ran out of time at ``at``: with two players they lose on time, with more they are out and
        the others play on, the next one's turn starting then. Committed under the game's guard and the timer's
        claim: a move that got there first wins, and a second sweep finds nothing to do."""
        seat = state.seat_of(player)
        events = state.time_out(seat)
        entries = [LogEntry(state.ply, player, "timeout", [e.to_json() for e in events])]
        more_entries, more_events = _run_server_loop(state)
        error = await self._commit(
            row.id, row.log_length, entries + more_entries, state, len(row.memory), before=row, claim=timer_id, at=at
        )
        if error is not None:
            return []
        result = self._game_result(game, row.id, state, events[0].text, events + more_events, actor=None)
        # everyone in the game hears of it (players in their quiet hours when those end)
        result.notify = [*dict.fromkeys([*result.notify, *(p for p in state.players if p != player)])]
        result = await self._after_action(result)  # type: ignore[attr-defined]
        return [Notice("timeout", result.message, row.id, list(result.notify), result)]

    async def _deliver(self, timer: TimerRow) -> list[Notice]:
        """The pings held for a player in a game through their quiet hours, as one message: the news, and the
        turn if the game still waits on them at the move it was about (a turn they have played since, or were
        told of directly, is not told again)."""
        game_id, player, data = timer.game_id, timer.player_id, timer.data
        if game_id is None or player is None:
            return []
        if "news" not in data:  # held by an older pbm: one ping, its text written out
            if data.get("turn", True) and not await self._waits_on(game_id, player, None):
                return []
            return [Notice("reminder", str(data.get("text", "")), game_id, [player])]
        news = [str(line) for line in data["news"]]
        waiting = bool(data.get("turn")) and await self._waits_on(game_id, player, timer.ref)
        if not news and not waiting:
            return []
        if news:
            text = f"{player}, game {game_id}: {'; '.join(news)}" + ("; your move." if waiting else "")
        else:
            text = f"{player}, game {game_id} is waiting for your move."
        return [Notice("reminder", text, game_id, [player])]

    async def _waits_on(self, game_id: int, player: str, move_number: int | None) -> bool:
        """Whether a game still waits on ``player`` at ``move_number`` (``None``: at any move)."""
        try:
            row = await self.store.load_game(game_id)
        except (NotFoundError, DamagedRowError):
            return False
        if row.status != "active" or row.to_move != player:
            return False
        return move_number is None or row.move_number == move_number

    async def tick(self) -> Result:
        """The sweep once, for the console (``pbm do tick``, with ``--now`` to act at another time), and, as the
        bot's sweep does, computer players whose turn waits play on (games between computer players pause after
        a number of moves in a row: see :data:`bot.actions.play.COMPUTER_MOVES_IN_A_ROW`)."""
        notices = await self.sweep()
        items = [f"{n.kind}: {n.text}" for n in notices]
        resumed = await self.resume_computers(0.0)  # type: ignore[attr-defined]
        items += [f"game {r.game_id}: {r.message}" for r in resumed]
        done = len(notices) + len(resumed)
        when = format_local(self._clock(), "UTC")
        message = f"{count(done, 'thing')} done at {when}" if done else f"nothing due at {when}"
        return Result(ok=True, message=message, items=items)

    # ---- vacation ------------------------------------------------------------------------------------------

    async def _bank(self, player: str) -> VacationRow:
        """A player's vacation bank as stored, or the one every player starts with (14 days, growing from
        the day they were first seen)."""
        stored = await self.store.vacation(player)
        if stored is not None:
            return stored
        first_seen = await self.store.player_since(player)
        start = self._clock() if first_seen is None else min(first_seen, self._clock())
        return VacationRow(14 * DAY, start, None)

    @one_transaction
    async def vacation(self, player: str, switch: str | None = None) -> Result:
        """``on``: the clocks of all ``player``'s timed games stand still (except ``-novacation`` games) while
        the bank drains; ``off``: they run again; nothing: show the bank. A vacation whose bank has run out is
        over from that moment, whether or not a sweep has ended it yet."""
        stored = await self._bank(player)
        now = self._clock()
        bank = _as_of(stored, now)
        left = vacation_bank(bank.balance, bank.as_of, now, on_since=bank.since)
        if switch is None:
            state = "on vacation" if bank.since is not None else "not on vacation"
            until = ""
            if bank.since is not None:
                ends = vacation_runs_out(bank.balance, bank.as_of, bank.since)
                until = f" until {format_local(ends, await self._tz(player))}"
            return Result(ok=True, message=f"{player} is {state}{until}; vacation bank: {format_left(left)}")
        switch = switch.lower()
        if switch == "on":
            if bank.since is not None:
                return _fail(f"{player} is already on vacation ({format_left(left)} left in the bank)")
            if left <= 0:
                return _fail(f"{player}'s vacation bank is empty: it grows by a day every week")
            ended = await self._vacation_off(player, by_hand=True)  # one that ran out, not yet swept
            await self.store.set_vacation(player, VacationRow(left, now, now))
            self._forget_player_settings(player)
            ends = vacation_runs_out(left, now, now)
            await self.store.delete_timers("vacation", player_id=player)
            await self.store.add_timer("vacation", ends, player_id=player)
            _, notices = await self._switch_clocks(player, pause=True, at=now)
            result = Result(
                ok=True,
                message=f"{player} is on vacation: {_their_clocks(notices, 'stands still')}. Vacation bank: "
                f"{format_left(left)}, so it ends by itself at {format_local(ends, await self._tz(player))} at the "
                "latest",
            )
            result.notices = [*ended, *notices]
            result.items = [n.text for n in result.notices]
            return result
        if switch == "off":
            if stored.since is None:
                return _fail(f"{player} is not on vacation")
            notices = await self._vacation_off(player, by_hand=True)
            result = Result(ok=True, message=notices[0].text if notices else f"{player} is back")
            result.items = [n.text for n in notices[1:]]
            result.notices = notices[1:]
            return result
        return _fail(f"vacation takes on or off, not {shorten(switch)!r}")

    async def _vacation_off(self, player: str, *, by_hand: bool) -> list[Notice]:
        """End a vacation, by hand or because the bank ran out. It ends when the bank emptied if that came first
        (a sweep or a command can come days later): the clocks run again from that moment."""
        bank = await self.store.vacation(player)
        if bank is None or bank.since is None:
            return []
        now = self._clock()
        ends = vacation_runs_out(bank.balance, bank.as_of, bank.since)
        at = min(now, ends)
        left = vacation_bank(bank.balance, bank.as_of, at, on_since=bank.since)
        await self.store.set_vacation(player, VacationRow(left, at, None))
        self._forget_player_settings(player)
        await self.store.delete_timers("vacation", player_id=player)
        _, notices = await self._switch_clocks(player, pause=False, at=at)
        clocks = _their_clocks(notices, "runs again")
        if at == ends:
            when = format_local(at, await self._tz(player))
            since = f"{clocks} from then" if notices else clocks
            text = f"{player}'s vacation is over: the vacation bank was empty at {when}; {since}"
        else:
            text = f"{player}'s vacation is over (back from vacation): {clocks}; {format_left(left)} left in the bank"
        return [Notice("vacation", text, None, [] if by_hand else [player]), *notices]

    async def _switch_clocks(self, player: str, *, pause: bool, at: float) -> tuple[int, list[Notice]]:
        """Pause or resume, as of ``at``, the clock of every game where ``player`` is to move, and tell each
        game's other players once."""
        tz = await self._tz(player)
        changed = 0
        notices = []
        for game_id, log_length, clock_json, _to_move, timer_id in await self.store.clock_games_of(player):
            clock = Clock.from_json(clock_json)
            if not clock.timed or clock.rules.novacation:
                continue
            if clock.player == player:
                moved = clock.pause(at, tz) if pause else clock.resume(at)
                if moved:
                    write = await self._schedule(clock, stored=True, active=True)
                    if not await self._write_clock(game_id, log_length, write._replace(claim=timer_id)):
                        continue
                    changed += 1
            players = await self.players_of(game_id)  # type: ignore[attr-defined]
            others = [p for p in players if p != player]
            state = "is on vacation: their clock stands still" if pause else "is back from vacation"
            notices.append(Notice("vacation", f"{player} {state} (game {game_id})", game_id, others))
        return changed, notices

    # ---- settings ------------------------------------------------------------------------------------------

    @one_transaction
    async def notify_settings(
        self,
        player: str,
        *,
        quiet: str | None = None,
        tz: str | None = None,
        confirm: str | None = None,
    ) -> Result:
        """Set a player's quiet hours (``22-08``, or ``off``), time zone (an IANA name) and whether every move
        is previewed first (``on``/``off``); with nothing given, show them."""
        try:
            if tz is not None:
                zone(tz)
            if quiet is not None and quiet.lower() != "off":
                QuietHours.parse(quiet, tz or await self._tz(player))
            if confirm is not None and confirm.lower() not in ("on", "off"):
                return _fail(f"confirm takes on or off, not {shorten(confirm)!r}")
        except ValueError as exc:
            return _fail(str(exc))
        if tz is not None and tz != await self._tz(player):
            await self._rebase_clocks(player, await self._tz(player))
            await self.store.set_setting(player, "tz", tz)
            self._forget_player_settings(player)
        if quiet is not None:
            if quiet.lower() == "off":
                await self.store.set_setting(player, "quiet", "")
            else:
                await self.store.set_setting(player, "quiet", str(QuietHours.parse(quiet, "UTC")).split()[0])
        if confirm is not None:
            await self.store.set_setting(player, "confirm", confirm.lower())
        self._forget_player_settings(player)
        settings = await self.store.settings_of(player, ("quiet", "tz", "confirm", "notify_dm"))
        zone_name = settings.get("tz") or "UTC"
        quiet_text = settings.get("quiet") or "none"
        parts = [
            f"time zone {zone_name}",
            f"quiet hours {quiet_text}",
            f"preview before each move {settings.get('confirm') or 'off'}",
            f"DMs {settings.get('notify_dm') or 'off'}",
        ]
        return Result(ok=True, message=f"{player}: " + ", ".join(parts))

    async def _rebase_clocks(self, player: str, old_tz: str) -> None:
        """Before a player's time zone changes, count their running turns' time so far in the old zone."""
        now = self._clock()
        for game_id, log_length, clock_json, _to_move, timer_id in await self.store.clock_games_of(player):
            clock = Clock.from_json(clock_json)
            if clock.timed and clock.player == player and not clock.paused:
                clock.rebase(now, old_tz)
                write = await self._schedule(clock, stored=True, active=True)
                await self._write_clock(game_id, log_length, write._replace(claim=timer_id))

    async def wants_preview(self, player: str) -> bool:
        """Whether ``player`` asked for every move to be previewed first (``/notify confirm:on``)."""
        return (await self._player_settings(player)).preview

    async def dm_setting(self, player: str) -> str | None:
        """Whether ``player``'s turns are told by DM: ``on``, ``off`` (or ``None``: never set), or ``closed``
        (they asked, but their DMs turned out closed)."""
        return (await self._player_settings(player)).notify_dm

    async def set_dm_setting(self, player: str, value: str) -> None:
        """Set how ``player``'s turns are told (see :meth:`dm_setting`)."""
        await self.store.set_setting(player, "notify_dm", value)
        self._forget_player_settings(player)


def _their_clocks(notices: list[Notice], what: str) -> str:
    """What a vacation does to a player's clock, counted over the games it concerns (one notice each: every timed
    game of theirs that vacations stop, whether or not it is their turn there): ``their clock stands still in 2
    games``."""
    if not notices:
        return "none of their games has a clock that vacations stop"
    return f"their clock {what} in {count(len(notices), 'game')}"


def _as_of(bank: VacationRow, now: float) -> VacationRow:
    """The bank as it stands at ``now``: a vacation whose bank ran out before is over, from that moment (the
    sweep ends it so, but may not have run yet)."""
    if bank.since is None:
        return bank
    ends = vacation_runs_out(bank.balance, bank.as_of, bank.since)
    if ends > now:
        return bank
    return VacationRow(vacation_bank(bank.balance, bank.as_of, ends, on_since=bank.since), ends, None)
