"""Timers that take effect as of their due time, held pings merged per player and game, one transaction per
command, and proposals voided by the move that voids them (issue 26, items 6, 7, 28 and 30).

Everything runs on a fake clock (nothing sleeps), on SQLite and on PostgreSQL; failures halfway through a command
are real failures of the database (a trigger that refuses a write, as a failing disk would), not mocks."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from bot.actions import Actions, Result
from bot.console import Console
from bot.maintenance import check
from data.store import Store
from data.store.core import COPIED_TABLES
from tests.databases import Databases

DAY = 86400.0
HOUR = 3600.0
#: bob's vacation ending by itself in the tests below, after an hour of his turn and 14 days of vacation
ENDED = (
    "vacation: bob's vacation is over: the vacation bank was empty at Tue 2026-12-15 10:08 UTC; their clock runs"
    " again in 1 game from then"
)


class FakeClock:
    """The one time source, moved by hand."""

    def __init__(self, when: str = "2026-12-01T09:00:00+00:00") -> None:
        self.now = datetime.fromisoformat(when).timestamp()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

    def set(self, when: str) -> None:
        self.now = datetime.fromisoformat(when).timestamp()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


class Table:
    """A console on a database of the test's backend, with the database itself at hand for looking behind it."""

    def __init__(self, console: Console, databases: Databases, target: str | Path) -> None:
        self.console = console
        self.actions = console.actions
        self.store = console.actions.store
        self.databases = databases
        self.target = target

    async def ok(self, line: str) -> Result:
        outcome = await self.console.run(line)
        assert outcome.ok, f"{line!r} was refused: {outcome.result.message}"
        return outcome.result

    async def refused(self, line: str) -> str:
        outcome = await self.console.run(line)
        assert not outcome.ok, f"{line!r} was not refused: {outcome.result.message}"
        return outcome.result.message

    async def tick(self) -> list[str]:
        return (await self.ok("tick")).items

    async def rows(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in await self.databases.execute(self.target, sql, *params)]

    async def everything(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table, to compare the database before and after a command."""
        return {table: await self.rows(f"SELECT * FROM {table} ORDER BY {key}") for table, key in COPIED_TABLES.items()}

    async def fail_on(self, when: str, table: str) -> None:
        """From now on the database refuses ``when`` (``INSERT``, ``UPDATE OF clock``, ``DELETE``) on ``table``,
        as a failing disk would: a real error of the database, in the middle of whatever command meets it."""
        if self.databases.postgresql:
            await self.databases.execute(
                self.target,
                "CREATE FUNCTION pbm_fails() RETURNS trigger LANGUAGE plpgsql AS"
                " $$ BEGIN RAISE EXCEPTION 'disk I/O error'; END $$",
            )
            await self.databases.execute(
                self.target,
                f"CREATE TRIGGER pbm_fails BEFORE {when} ON {table} FOR EACH ROW EXECUTE FUNCTION pbm_fails()",
            )
        else:
            await self.databases.execute(
                self.target,
                f"CREATE TRIGGER pbm_fails BEFORE {when} ON {table} BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END",
            )

    async def heal(self, table: str) -> None:
        if self.databases.postgresql:
            await self.databases.execute(self.target, f"DROP TRIGGER pbm_fails ON {table}")
            await self.databases.execute(self.target, "DROP FUNCTION pbm_fails()")
        else:
            await self.databases.execute(self.target, "DROP TRIGGER pbm_fails")


@pytest.fixture
async def table(tmp_path: Path, databases: Databases, clock: FakeClock):
    target = await databases.target("pbm.sqlite3")
    store = await Store.open(target)
    actions = Actions(store, seed_source=lambda: 7, clock=clock, think=None)
    yield Table(Console(actions, tmp_path / "boards", images=False), databases, target)
    await store.close()


def pbm(db: Path, *words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "do", "--no-images", "--db", str(db), *words], capture_output=True, text=True
    )


async def vacation_end(table: Table, player: str) -> float:
    """When ``player``'s vacation ends by itself: the due time of its timer."""
    [(due,)] = await table.rows("SELECT due_at FROM timers WHERE kind = 'vacation' AND player_id = ?", player)
    return float(due)


# ---- item 6: every timer takes effect as of its due time -------------------------------------------------------


async def test_a_vacation_that_ran_out_in_an_outage_restarts_the_clock_when_the_bank_emptied(
    table: Table, clock: FakeClock
) -> None:
    await table.ok("druid challenge -size=5 -days=7 alice bob")
    await table.ok("druid move 1 alice c3")
    clock.advance(HOUR)  # bob used an hour of his 7 days
    await table.ok("vacation bob on")
    emptied = await vacation_end(table, "bob")
    clock.now = emptied + 6 * DAY  # the bot was down (or nobody ticked) for six days after the bank ran out
    assert await table.tick() == [
        ENDED,
        "vacation: bob is back from vacation (game 1)",
        # in the same sweep, what that made due: bob has a day left, not 7 days less an hour
        "warning: bob, your time is running out in game 1: 23h left (until Tue 2026-12-22 09:08 UTC).",
    ]
    shown = await table.ok("druid show 1")
    assert shown.clock["bob"] == pytest.approx(7 * DAY - HOUR - 6 * DAY, abs=0.1)
    assert shown.clock_notes["bob"] == "23h left"
    bank = await table.store.vacation("bob")
    assert bank is not None and bank.since is None and bank.balance == 0 and bank.as_of == emptied


async def test_the_timeout_a_late_vacation_end_makes_is_applied_in_the_same_sweep_at_its_deadline(
    table: Table, clock: FakeClock
) -> None:
    await table.ok("druid challenge -size=5 -days=2 alice bob")
    await table.ok("druid move 1 alice c3")
    clock.advance(HOUR)
    await table.ok("vacation bob on")
    emptied = await vacation_end(table, "bob")
    clock.now = emptied + 6 * DAY
    done = await table.tick()
    assert [line.splitlines()[0] for line in done] == [
        ENDED,
        "vacation: bob is back from vacation (game 1)",
        "timeout: bob ran out of time",
    ]
    shown = await table.ok("druid show 1")
    assert shown.status == "finished" and shown.winners == ["alice"]
    timeout = (await table.store.log(1))[-1]
    assert timeout.text == "timeout" and timeout.created_at == pytest.approx(emptied + 2 * DAY - HOUR)


async def test_before_any_sweep_a_move_in_time_stands_and_a_move_after_the_deadline_is_refused(
    table: Table, clock: FakeClock
) -> None:
    await table.ok("druid challenge -size=5 -days=2 alice bob")
    await table.ok("druid challenge -size=5 -days=1 carol bob")
    await table.ok("druid move 1 alice c3")
    await table.ok("druid move 2 carol c3")
    clock.advance(HOUR)
    await table.ok("vacation bob on")
    emptied = await vacation_end(table, "bob")
    clock.now = emptied + DAY  # nothing swept since the bank ran out; bob's clocks ran from then
    await table.ok("druid move 1 bob d4")  # game 1: 2 days less the hour he used, and a day gone: in time
    refusal = await table.refused("druid move 2 bob d4")  # game 2: a day less an hour ran out an hour ago
    assert refusal == "bob's time in game 2 has run out: the move was not played (the game ends on time)"
    done = await table.tick()
    assert [line.splitlines()[0] for line in done] == [
        ENDED.replace("1 game", "2 games"),
        "vacation: bob is back from vacation (game 1)",
        "vacation: bob is back from vacation (game 2)",
        "timeout: bob ran out of time",
    ]
    assert (await table.ok("druid show 1")).to_move == "alice"  # the move made in time stands
    assert (await table.ok("druid show 2")).winners == ["carol"]
    assert (await table.store.log(2))[-1].created_at == pytest.approx(emptied + DAY - HOUR)


async def test_a_timeout_in_an_outage_starts_the_next_players_turn_at_the_deadline(
    table: Table, clock: FakeClock
) -> None:
    await table.ok("drogo challenge -size=4 -days=1 ann ben cat")
    await table.ok("drogo move 1 ann a1")
    deadline = clock.now + DAY
    clock.advance(DAY + 12 * HOUR)  # ben ran out half a day before anything swept
    done = await table.tick()
    assert [line.splitlines()[0] for line in done] == [
        "timeout: ben ran out of time",
        "warning: cat, half your time is gone in game 1: 12h left (until Thu 2026-12-03 09:00 UTC).",
    ]
    shown = await table.ok("drogo show 1")
    assert shown.to_move == "cat" and shown.clock["cat"] == pytest.approx(12 * HOUR)
    assert (await table.store.log(1))[-1].created_at == pytest.approx(deadline)


async def test_ending_a_vacation_by_hand_after_the_bank_ran_out_ends_it_when_it_ran_out(
    table: Table, clock: FakeClock
) -> None:
    await table.ok("druid challenge -size=5 -days=7 alice bob")
    await table.ok("druid move 1 alice c3")
    await table.ok("vacation bob on")
    emptied = await vacation_end(table, "bob")
    clock.now = emptied + 2 * DAY
    assert (await table.ok("vacation bob")).message == "bob is not on vacation; vacation bank: 6h 51m"
    back = await table.ok("vacation bob off")
    assert back.message == (
        "bob's vacation is over: the vacation bank was empty at Tue 2026-12-15 09:00 UTC; their clock runs again in"
        " 1 game from then"
    )
    assert (await table.ok("druid show 1")).clock["bob"] == pytest.approx(5 * DAY, abs=0.1)
    assert await table.tick() == []


async def test_going_on_vacation_again_after_the_bank_ran_out_unswept(table: Table, clock: FakeClock) -> None:
    await table.ok("druid challenge -size=5 -days=7 alice bob")
    await table.ok("druid move 1 alice c3")
    await table.ok("vacation bob on")
    emptied = await vacation_end(table, "bob")
    clock.now = emptied
    assert await table.refused("vacation bob on") == "bob's vacation bank is empty: it grows by a day every week"
    clock.now = emptied + 3 * DAY  # a vacation again, before anything swept the one that ran out
    again = await table.ok("vacation bob on")
    assert again.message.startswith("bob is on vacation: their clock stands still in 1 game. Vacation bank: 10h 17m,")
    assert again.items[0].startswith("bob's vacation is over: the vacation bank was empty at Tue 2026-12-15 09:00")
    shown = await table.ok("druid show 1")  # the three days between the two vacations counted on bob's clock
    assert shown.clock["bob"] == pytest.approx(4 * DAY, abs=0.1) and shown.clock_notes["bob"] == "paused (vacation)"


async def test_a_proposal_whose_time_is_up_cannot_be_accepted_and_blocks_nothing_before_the_sweep(
    table: Table, clock: FakeClock
) -> None:
    await table.ok("druid challenge -size=5 -untimed alice bob")
    await table.ok("druid move 1 alice c3")
    await table.ok("druid propose 1 alice draw")  # a week to answer
    clock.advance(7 * DAY + 60)
    before = await table.everything()
    refusal = await table.refused("druid accept 1 bob")
    assert refusal == "proposal 1 was not answered in time: it counts as rejected"
    assert await table.everything() == before  # the refusal wrote nothing
    made = await table.ok("druid propose 1 bob draw")
    assert "(proposal 2)" in made.message
    expired = [line for line in await table.tick() if line.startswith("proposal:")]
    assert expired == ["proposal: alice's draw proposal in game 1 was not answered in time: it counts as rejected"]
    assert (await table.ok("druid accept 1 alice")).status == "finished"  # proposal 2 still holds


async def test_a_proposal_that_expired_before_a_move_is_told_as_expired_not_voided(
    table: Table, clock: FakeClock
) -> None:
    await table.ok("druid challenge -size=5 -untimed alice bob")
    await table.ok("druid move 1 alice c3")
    await table.ok("druid propose 1 alice draw")
    clock.advance(7 * DAY + 60)
    await table.ok("druid move 1 bob d4")  # after the proposal's time was up: it had expired, the move found it so
    expired = [line for line in await table.tick() if line.startswith("proposal:")]
    assert expired == ["proposal: alice's draw proposal in game 1 was not answered in time: it counts as rejected"]
    assert await table.rows("SELECT status FROM proposals") == [("expired",)]


# ---- item 7: held pings are merged per player and game, and checked when released ------------------------------


async def test_two_moves_in_someones_quiet_hours_give_them_one_ping(table: Table, clock: FakeClock) -> None:
    await table.ok("notify bob quiet 22-08 Europe/Paris")
    clock.set("2026-12-01T22:30:00+00:00")  # 23:30 in Paris
    await table.ok("druid challenge -size=5 alice bob")
    await table.ok("druid move 1 alice c3")  # bob's ping waits for 08:00 in Paris
    clock.set("2026-12-01T22:40:00+00:00")
    await table.ok("druid move 1 bob d4")  # bob is awake after all
    clock.set("2026-12-01T22:50:00+00:00")
    moved = await table.ok("druid move 1 alice c4")
    assert moved.notify == [] and "bob" in moved.held
    held = await table.rows("SELECT player_id, ref FROM timers WHERE kind = 'deliver'")
    assert held == [("bob", 3)]  # one held ping, about move 3
    clock.set("2026-12-02T07:00:00+00:00")  # 08:00 in Paris
    assert await table.tick() == ["reminder: bob, game 1 is waiting for your move."]
    assert await table.tick() == []


async def test_a_held_turn_is_not_told_once_the_player_moved_or_was_told_of_a_newer_one(
    table: Table, clock: FakeClock
) -> None:
    await table.ok("notify bob quiet 22-08")
    clock.set("2026-12-01T23:00:00+00:00")
    await table.ok("druid challenge -size=5 alice bob")
    await table.ok("druid move 1 alice c3")  # held until 08:00
    clock.set("2026-12-02T07:30:00+00:00")
    await table.ok("druid move 1 bob d4")  # in his quiet hours, bob moves anyway
    clock.set("2026-12-02T08:30:00+00:00")
    moved = await table.ok("druid move 1 alice c4")
    assert moved.notify == ["bob"]  # told at once: his quiet hours are over
    clock.set("2026-12-02T09:00:00+00:00")  # the sweep comes late: the held ping about move 1 is stale
    assert await table.tick() == []


async def test_news_and_a_turn_held_in_one_game_are_told_together(table: Table, clock: FakeClock) -> None:
    await table.ok("notify dan quiet 22-08")
    clock.set("2026-12-01T20:00:00+00:00")
    await table.ok("drogo challenge -size=4 -days=1 ann ben cat dan")
    await table.ok("drogo move 1 ann a1")
    clock.set("2026-12-02T23:00:00+00:00")  # ben ran out at 20:00; dan sleeps
    assert [line.splitlines()[0] for line in await table.tick()] == ["timeout: ben ran out of time"]
    clock.set("2026-12-02T23:30:00+00:00")
    await table.ok("drogo move 1 cat b2")  # dan's turn, still in his quiet hours
    assert await table.rows("SELECT player_id FROM timers WHERE kind = 'deliver'") == [("dan",)]
    clock.set("2026-12-03T08:00:00+00:00")
    assert await table.tick() == ["reminder: dan, game 1: ben ran out of time; your move."]


# ---- item 28: one transaction per command ------------------------------------------------------------------------


async def test_a_vacation_ended_by_hand_that_fails_halfway_leaves_everything_as_it_was(
    table: Table, clock: FakeClock
) -> None:
    await table.ok("druid challenge -size=5 -days=2 alice bob")
    await table.ok("druid move 1 alice c3")
    await table.ok("vacation bob on")
    clock.advance(DAY)
    before = await table.everything()
    await table.fail_on("UPDATE OF clock", "games")  # the vacation's row and timer are written before the clocks
    with pytest.raises(table.store.database_errors):
        await table.console.run("vacation bob off")
    assert await table.everything() == before
    assert (await table.ok("vacation bob")).message.startswith("bob is on vacation until")
    await table.heal("games")
    await table.ok("vacation bob off")
    assert (await table.ok("druid show 1")).clock_notes["bob"] == "2d left"
    assert (await check(table.actions)).ok


async def _takeback_proposed(table: Table) -> None:
    await table.ok("druid challenge -size=5 alice bob")
    await table.ok("druid move 1 alice c3")
    await table.ok('druid queue 1 alice "d4 e5"')
    await table.ok("druid propose 1 alice undo")


async def _three_players(table: Table) -> None:
    await table.ok("drogo challenge -size=4 ann ben cat")


async def _challenged(table: Table) -> None:
    await table.actions.challenge("druid", ["alice", "bob"], ["-size=5"])


async def _playing(table: Table) -> None:
    await table.ok("druid challenge -size=5 alice bob")
    await table.ok("druid move 1 alice c3")


@pytest.mark.parametrize(
    ("setup", "command", "when", "on"),
    [
        (_playing, "vacation bob on", "UPDATE OF clock", "games"),  # after the bank and its timer
        (_challenged, "druid join 1 bob", "INSERT", "games"),  # after the challenge is marked accepted
        (_playing, "notify bob quiet 22-08 tz Europe/Paris", "INSERT", "settings"),  # after bob's clock is rebased
        (_takeback_proposed, "druid accept 1 bob", "DELETE", "queued_lines"),  # after the move is taken back
        (_three_players, "drogo resign 1 ann", "INSERT", "games"),  # ann declines: cancelled, then restarted
    ],
)
async def test_a_command_that_fails_halfway_leaves_the_database_as_it_was(
    table: Table, clock: FakeClock, setup: Any, command: str, when: str, on: str
) -> None:
    await setup(table)
    clock.advance(HOUR)
    before = await table.everything()
    await table.fail_on(when, on)
    with pytest.raises(table.store.database_errors):
        await table.console.run(command)
    assert await table.everything() == before
    await table.heal(on)
    await table.ok(command)
    assert await table.everything() != before


def test_a_failed_vacation_end_in_the_console_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "pbm.sqlite3"
    assert pbm(db, "--now", "2026-12-01T09:00Z", "druid challenge -size=5 -days=2 alice bob").returncode == 0
    assert pbm(db, "--now", "2026-12-01T10:00Z", "druid move 1 alice c3").returncode == 0
    assert pbm(db, "--now", "2026-12-01T11:00Z", "vacation bob on").returncode == 0
    with sqlite3.connect(db) as raw:
        raw.execute(
            "CREATE TRIGGER pbm_fails BEFORE UPDATE OF clock ON games BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END"
        )
        before = {t: raw.execute(f"SELECT * FROM {t} ORDER BY {k}").fetchall() for t, k in COPIED_TABLES.items()}
    failed = pbm(db, "--now", "2026-12-02T11:00Z", "vacation bob off")
    assert failed.returncode == 2 and failed.stdout == ""
    assert failed.stderr.strip().splitlines() == [
        f"pbm: {db}: the database could not be written (input/output error: is the disk full or failing?)"
    ]
    with sqlite3.connect(db) as raw:
        after = {t: raw.execute(f"SELECT * FROM {t} ORDER BY {k}").fetchall() for t, k in COPIED_TABLES.items()}
    assert after == before
    shown = pbm(db, "--now", "2026-12-02T11:00Z", "druid show 1")
    assert "clock: alice 2d per move, bob paused (vacation)" in shown.stdout


async def test_check_finds_a_clock_paused_for_no_vacation(table: Table, clock: FakeClock) -> None:
    await table.ok("druid challenge -size=5 -days=2 alice bob")
    await table.ok("druid move 1 alice c3")
    await table.ok("vacation bob on")
    assert (await check(table.actions)).ok
    # what a vacation ended halfway left behind before each command was one transaction
    await table.databases.execute(table.target, "UPDATE vacations SET since = NULL")
    await table.databases.execute(table.target, "DELETE FROM timers WHERE kind = 'vacation'")
    report = await check(table.actions)
    assert not report.ok
    assert report.lines() == [
        "game 1: its clock stands still for a vacation bob is not on, and nothing would start it again"
        " ('vacation bob on', then 'vacation bob off', does)",
        "1 game checked: 1 game has a clock paused for no vacation",
    ]
    await table.ok("vacation bob on")
    await table.ok("vacation bob off")
    assert (await check(table.actions)).ok
    assert (await table.ok("druid show 1")).clock_notes["bob"] == "2d left"


def test_pbm_check_reports_the_stuck_clock_and_exits_1(tmp_path: Path) -> None:
    db = tmp_path / "pbm.sqlite3"
    pbm(db, "--now", "2026-12-01T09:00Z", "druid challenge -size=5 -days=2 alice bob")
    pbm(db, "--now", "2026-12-01T10:00Z", "druid move 1 alice c3")
    pbm(db, "--now", "2026-12-01T11:00Z", "vacation bob on")
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE vacations SET since = NULL")
    checked = subprocess.run([sys.executable, "-m", "bot", "check", "--db", str(db)], capture_output=True, text=True)
    assert checked.returncode == 1
    assert checked.stdout.splitlines()[-1] == "1 game checked: 1 game has a clock paused for no vacation"


async def test_a_players_move_is_committed_before_a_computer_thinks(databases: Databases, clock: FakeClock) -> None:
    target = await databases.target("think.sqlite3")
    store = await Store.open(target)
    seen: list[int] = []

    async def think(state: Any, player: str, seconds: float | None) -> tuple[str, str]:
        seen.append(int((await databases.execute(target, "SELECT log_length FROM games WHERE id = 1"))[0][0]))
        return "d4", "thought"

    actions = Actions(store, seed_source=lambda: 7, clock=clock, think=think)
    await actions.challenge("druid", ["alice", "ai:1"], ["-size=5"], start=True)
    replied = await actions.move(1, "alice", "c3")
    assert replied.ok and replied.move_number == 2
    assert seen == [1]  # another connection saw alice's move while the computer thought
    await store.close()


# ---- item 30: a move voids the open proposal ------------------------------------------------------------------


async def test_the_move_that_voids_a_proposal_voids_it_and_a_refusal_writes_nothing(
    table: Table, clock: FakeClock
) -> None:
    await table.ok("druid challenge -size=5 -days=3 alice bob")
    await table.ok("druid move 1 alice c3")
    await table.ok("druid propose 1 alice undo")
    await table.ok("druid move 1 bob d4")  # the position the proposal was about is gone
    assert await table.rows("SELECT id, status FROM proposals") == [(1, "void")]
    assert await table.rows("SELECT kind FROM timers WHERE kind = 'proposal'") == []
    before = await table.everything()
    assert await table.refused("druid reject 1 bob") == "proposal 1 no longer holds: game 1 has moved on"
    assert await table.refused("druid accept 1 alice") == "proposal 1 no longer holds: game 1 has moved on"
    assert await table.everything() == before
    made = await table.ok("druid propose 1 alice undo")  # nothing stale blocks a new one
    assert "(proposal 2)" in made.message
    taken = await table.ok("druid accept 1 bob")
    assert "move 2 (bob: d4) was taken back" in taken.message
    assert await table.rows("SELECT id, status FROM proposals ORDER BY id") == [(1, "void"), (2, "accepted")]
    assert await table.rows("SELECT kind FROM timers WHERE kind = 'proposal'") == []
    assert await table.refused("druid accept 1 bob") == "game 1 has no open proposal"


def test_rejecting_a_voided_proposal_in_the_console(tmp_path: Path) -> None:
    db = tmp_path / "pbm.sqlite3"
    for line in ("druid challenge -size=5 alice bob", "druid move 1 alice c3", "druid propose 1 alice undo"):
        assert pbm(db, line).returncode == 0
    assert pbm(db, "druid move 1 bob d4").returncode == 0
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT status FROM proposals").fetchall() == [("void",)]  # voided by the move
        before = {t: raw.execute(f"SELECT * FROM {t} ORDER BY {k}").fetchall() for t, k in COPIED_TABLES.items()}
    rejected = pbm(db, "druid reject 1 bob")
    assert rejected.returncode == 1
    assert rejected.stdout.strip() == "error: proposal 1 no longer holds: game 1 has moved on"
    with sqlite3.connect(db) as raw:
        after = {t: raw.execute(f"SELECT * FROM {t} ORDER BY {k}").fetchall() for t, k in COPIED_TABLES.items()}
    assert after == before
