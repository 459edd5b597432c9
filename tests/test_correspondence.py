"""Correspondence play through the actions and the console, on a fake clock (nothing sleeps), on SQLite and on
PostgreSQL (every test that goes through the store alone runs on both): clocks chosen at
the challenge, warnings, timeouts in two- and four-player games, -total, -weekends in two time zones, quiet
hours, vacations, takebacks and draws by agreement, conditional moves, preview and confirm, restarts and two
sweeps at once, and old databases staying untimed."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.actions import Actions, Result
from bot.console import Console
from data.schema import MIGRATIONS
from data.store import Store
from tests.databases import Databases

DAY = 86400.0
HOUR = 3600.0


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


@pytest.fixture
async def console(tmp_path: Path, databases: Databases, clock: FakeClock):
    store = await Store.open(await databases.target("pbm.sqlite3"))
    actions = Actions(store, seed_source=lambda: 7, clock=clock, think=None)
    yield Console(actions, tmp_path / "boards", images=False)
    await store.close()


async def ok(console: Console, line: str) -> Result:
    outcome = await console.run(line)
    assert outcome.ok, f"{line!r} was refused: {outcome.result.message}"
    return outcome.result


async def refused(console: Console, line: str) -> str:
    outcome = await console.run(line)
    assert not outcome.ok, f"{line!r} was not refused: {outcome.result.message}"
    return outcome.result.message


async def tick(console: Console) -> list[str]:
    return (await ok(console, "tick")).items


async def status(console: Console, game: str, game_id: int) -> Result:
    return await ok(console, f"{game} show {game_id}")


# ---- clocks chosen at the challenge ---------------------------------------------------------------------------


async def test_options_of_every_game_are_read_once_and_checked(console: Console) -> None:
    started = await ok(console, "druid challenge -size=8 -days=3 -total=10 -weekends alice bob")
    assert "3 days per move, 10 days in all, weekends free" in started.message
    assert "out of range" in await refused(console, "druid challenge -days=31 alice bob")
    assert "cannot be used together" in await refused(console, "druid challenge -days=3 -untimed alice bob")
    assert "twice" in await refused(console, "drogo challenge -weekends -weekends alice bob")
    helped = await ok(console, "dragons help")
    every = [line for line in helped.items if line.endswith("(every game)")]
    assert [line.split(":")[0].split()[0] for line in every] == [
        "-days=n",
        "-total=n",
        "-weekends",
        "-untimed",
        "-novacation",
        "-noundo",
        "-unrated",
        "-rating_min=n",
        "-rating_max=n",
    ]


async def test_time_left_is_shown_in_the_text_board_the_listing_and_the_json(
    console: Console, clock: FakeClock
) -> None:
    await ok(console, "druid challenge -size=5 -days=2 alice bob")
    await ok(console, "druid challenge -size=5 -days=5 carol alice")
    clock.advance(5 * HOUR)
    shown = await status(console, "druid", 1)
    assert shown.clock == {"alice": 2 * DAY - 5 * HOUR, "bob": 2 * DAY}
    assert shown.board_text().endswith("clock: alice 1d 19h left, bob 2d per move")
    assert shown.to_json()["clock"] == {"alice": 2 * DAY - 5 * HOUR, "bob": 2 * DAY}
    await ok(console, "druid move 2 carol c3")
    listing = await ok(console, "druid games alice")
    # least time left first: game 1 (1d 19h) before game 2 (alice's fresh 5 days)
    assert listing.items == [
        "druid 1: move 0, alice, bob: alice's turn, 1d 19h left",
        "druid 2: move 1, carol, alice: alice's turn, 5d left",
    ]
    untimed = await ok(console, "druid challenge -size=5 -untimed dave erin")
    assert untimed.clock == {} and "clock:" not in (untimed.board_text() or "")


# ---- warnings and time running out ----------------------------------------------------------------------------


async def test_two_players_the_silent_one_is_warned_then_loses_on_time(console: Console, clock: FakeClock) -> None:
    await ok(console, "druid challenge -size=5 -days=4 alice bob")
    await ok(console, "druid move 1 alice c3")
    assert await tick(console) == []
    clock.advance(2 * DAY)  # half of bob's 4 days
    assert await tick(console) == [
        "warning: bob, half your time is gone in game 1: 2d left (until Sat 2026-12-05 09:00 UTC)."
    ]
    assert await tick(console) == []  # each warning once
    clock.advance(DAY)
    assert await tick(console) == [
        "warning: bob, your time is running out in game 1: 1d left (until Sat 2026-12-05 09:00 UTC)."
    ]
    clock.advance(23 * HOUR)
    assert await tick(console) == [
        "warning: bob, your time is running out in game 1: 1h left (until Sat 2026-12-05 09:00 UTC)."
    ]
    clock.advance(HOUR + 1)
    assert "bob's time in game 1 has run out" in await refused(console, "druid move 1 bob d4")
    done = await tick(console)
    assert done[0].splitlines() == [
        "timeout: bob ran out of time",
        "alice wins: bob ran out of time",
        "Druid: alice won",
        "ratings: alice 1103? (+103), bob 945? (-55)",  # a loss on time counts
    ]
    shown = await status(console, "druid", 1)
    assert shown.status == "finished" and shown.winners == ["alice"]
    row = await console.actions.store.load_game(1)
    assert row.outcome["cause"] == "timeout" and row.outcome["reason"] == "bob ran out of time"
    assert await tick(console) == []  # applied once
    history = await ok(console, "druid history 1")
    assert history.items[-1] == "   2. bob: timeout"


async def test_a_move_after_the_deadline_is_refused_and_a_move_in_time_refills(
    console: Console, clock: FakeClock
) -> None:
    await ok(console, "druid challenge -size=5 -days=1 alice bob")
    clock.advance(DAY - 60)
    await ok(console, "druid move 1 alice c3")  # in time: bob's clock starts full
    clock.advance(DAY - 60)
    await ok(console, "druid move 1 bob d4")
    clock.advance(DAY + 1)
    message = await refused(console, "druid move 1 alice c4")
    assert "time in game 1 has run out" in message and "not played" in message
    assert (await status(console, "druid", 1)).move_number == 2  # nothing was played
    assert (await tick(console))[0].startswith("timeout: alice ran out of time\nbob wins")


async def test_four_players_the_one_who_ran_out_is_out_and_the_others_play_on(
    console: Console, clock: FakeClock
) -> None:
    await ok(console, "drogo challenge -size=4 -days=2 ann ben cat dan")
    await ok(console, "drogo move 1 ann a1")
    clock.advance(2 * DAY + 1)
    done = await tick(console)
    timeout = [line for line in done if line.startswith("timeout:")]
    assert timeout and timeout[0].startswith("timeout: ben ran out of time")
    shown = await status(console, "drogo", 1)
    assert shown.status == "active" and shown.to_move == "cat"
    notice = (await console.actions.sweep()) or []
    assert notice == []
    await ok(console, "drogo move 1 cat b2")  # cat plays on, with a full clock
    assert (await status(console, "drogo", 1)).to_move == "dan"


async def test_everyone_is_told_of_a_timeout(databases: Databases, clock: FakeClock) -> None:
    store = await Store.open(await databases.target("t.sqlite3"))
    actions = Actions(store, seed_source=lambda: 7, clock=clock, think=None)
    await actions.challenge("drogo", ["ann", "ben", "cat"], ["-size=4", "-days=1"], start=True)
    clock.advance(DAY + 5)
    notices = [n for n in await actions.sweep() if n.kind == "timeout"]
    assert len(notices) == 1 and set(notices[0].ping) == {"ben", "cat"}
    assert notices[0].result is not None and notices[0].result.to_move == "ben"
    await store.close()


async def test_total_caps_a_players_time_over_the_whole_game(console: Console, clock: FakeClock) -> None:
    await ok(console, "druid challenge -size=5 -days=3 -total=4 alice bob")
    clock.advance(2 * DAY)
    await ok(console, "druid move 1 alice c3")
    await ok(console, "druid move 1 bob d4")
    shown = await status(console, "druid", 1)
    assert shown.clock["alice"] == 2 * DAY  # 4 days in all, 2 used: less than the 3 days per move
    assert shown.clock_notes["alice"] == "2d left"
    clock.advance(2 * DAY + 1)
    assert [line.splitlines()[0] for line in await tick(console)] == ["timeout: alice ran out of time"]


async def test_weekends_stand_still_in_the_players_own_time_zone(console: Console, clock: FakeClock) -> None:
    clock.set("2026-12-04T12:00:00+00:00")  # a Friday, noon in London
    await ok(console, "notify bob tz Pacific/Auckland")  # already Saturday 01:00 there
    await ok(console, "druid challenge -size=5 -days=1 -weekends alice bob")
    await ok(console, "druid challenge -size=5 -days=1 -weekends carol dave")
    await ok(console, "druid move 1 alice c3")  # bob's clock: Auckland's weekend, it stands still
    await ok(console, "druid move 2 carol c3")  # dave's clock (UTC): 12 hours of Friday count
    clock.set("2026-12-06T23:00:00+00:00")  # Sunday 23:00 UTC = Monday 12:00 in Auckland
    bob = (await status(console, "druid", 1)).clock["bob"]
    dave = (await status(console, "druid", 2)).clock["dave"]
    assert bob == pytest.approx(DAY - 12 * HOUR)  # Auckland's Monday from 00:00 to 12:00
    assert dave == pytest.approx(DAY - 12 * HOUR)  # UTC's Friday from 12:00 to 24:00
    clock.set("2026-12-07T11:59:00+00:00")  # Monday 11:59 UTC: dave has a minute left; bob ran out at 12:00 UTC
    done = await tick(console)
    assert any(line.startswith("timeout: bob ran out of time") for line in done)
    assert not any("dave ran out" in line for line in done)


# ---- quiet hours --------------------------------------------------------------------------------------------


async def test_quiet_hours_hold_pings_until_they_end(console: Console, clock: FakeClock) -> None:
    assert "unknown time zone 'Europe/Pari'" in await refused(console, "notify bob quiet 22-08 tz Europe/Pari")
    assert "like 22-08" in await refused(console, "notify bob quiet 25-08")
    settings = await ok(console, "notify bob quiet 22-08 Europe/Paris")  # the zone may follow the hours
    assert "quiet hours 22:00-08:00" in settings.message and "time zone Europe/Paris" in settings.message
    clock.set("2026-12-01T22:30:00+00:00")  # 23:30 in Paris
    await ok(console, "druid challenge -size=5 alice bob")
    moved = await ok(console, "druid move 1 alice c3")
    assert moved.notify == [] and "bob" in moved.held
    assert "(bob will be told later)" in moved.message and "Paris" not in moved.message
    assert await tick(console) == []
    clock.set("2026-12-02T07:00:00+00:00")  # 08:00 in Paris
    assert await tick(console) == ["reminder: bob, game 1 is waiting for your move."]
    assert await tick(console) == []


async def test_a_warning_whose_deadline_falls_in_quiet_hours_comes_before_they_start(
    console: Console, clock: FakeClock
) -> None:
    await ok(console, "notify bob quiet 22-08")
    clock.set("2026-12-01T03:00:00+00:00")
    await ok(console, "druid challenge -size=5 -days=1 alice bob")
    await ok(console, "druid move 1 alice c3")  # bob's deadline: 12-02 03:00, inside his quiet hours
    clock.set("2026-12-01T08:00:00+00:00")  # the turn's ping, held through bob's quiet hours
    assert await tick(console) == ["reminder: bob, game 1 is waiting for your move."]
    clock.set("2026-12-01T15:00:00+00:00")
    assert await tick(console) == [
        "warning: bob, half your time is gone in game 1: 12h left (until Wed 2026-12-02 03:00 UTC)."
    ]
    clock.set("2026-12-01T21:58:00+00:00")
    assert await tick(console) == []
    clock.set("2026-12-01T21:59:00+00:00")  # a minute before the quiet hours: the hour-left warning goes now
    assert await tick(console) == [
        "warning: bob, your time is running out in game 1: 5h 1m left (until Wed 2026-12-02 03:00 UTC)."
    ]
    clock.set("2026-12-02T02:00:00+00:00")  # the hour-left mark itself, in the quiet hours: nothing more
    assert await tick(console) == []


# ---- vacation -----------------------------------------------------------------------------------------------


async def test_vacation_stops_the_clock_drains_the_bank_and_ends_by_itself(console: Console, clock: FakeClock) -> None:
    await ok(console, "druid challenge -size=5 -days=2 alice bob")
    await ok(console, "druid challenge -size=5 -days=2 -novacation bob carol")
    await ok(console, "druid move 1 alice c3")
    assert "vacation bank: 14d" in (await ok(console, "vacation bob")).message
    clock.advance(HOUR)
    on = await ok(console, "vacation bob on")
    emptied = clock.now + 14 * DAY + HOUR / 7  # the 14 days, and what they earned in the hour before
    assert "their clock stands still in 1 game" in on.message
    assert "bob is on vacation: their clock stands still (game 1)" in on.items
    assert "already on vacation" in await refused(console, "vacation bob on")
    clock.advance(10 * DAY)
    shown = await status(console, "druid", 1)
    assert shown.clock_notes["bob"] == "paused (vacation)" and shown.clock["bob"] == 2 * DAY - HOUR
    assert shown.status == "active"
    ticked = await tick(console)
    assert ticked[0].startswith("timeout: bob ran out of time")  # -novacation: bob's clock ran on in game 2
    assert (await status(console, "druid", 2)).status == "finished"
    assert (await status(console, "druid", 1)).status == "active"
    clock.advance(4 * DAY + HOUR)  # the bank (14 days, and what it earned meanwhile) is empty now
    ended = await tick(console)
    assert "vacation: bob's vacation is over: the vacation bank was empty at Tue 2026-12-15 10:08 UTC" in ended[0]
    # the bank grows again from when it was empty (51 minutes before this sweep): a seventh of that
    assert (await ok(console, "vacation bob")).message == "bob is not on vacation; vacation bank: 7m"
    clock.advance(HOUR)  # bob's clock runs again from when the bank was empty, not from the sweep
    left = 2 * DAY - HOUR - (clock.now - emptied)
    assert (await status(console, "druid", 1)).clock["bob"] == pytest.approx(left, abs=0.1)
    clock.set("2026-12-22T10:08:35+00:00")  # the bank grows a day a week
    assert (await ok(console, "vacation bob")).message.endswith("vacation bank: 1d")


async def test_vacation_off_by_hand_and_a_turn_arriving_during_a_vacation(console: Console, clock: FakeClock) -> None:
    await ok(console, "druid challenge -size=5 -days=1 alice bob")
    await ok(console, "vacation bob on")
    await ok(console, "druid move 1 alice c3")  # bob's turn starts paused
    clock.advance(3 * DAY)
    assert (await status(console, "druid", 1)).clock_notes["bob"] == "paused (vacation)"
    assert await tick(console) == []
    back = await ok(console, "vacation bob off")
    assert "their clock runs again in 1 game" in back.message
    clock.advance(DAY - 60)
    assert (await status(console, "druid", 1)).status == "active"
    clock.advance(120)
    assert any(line.startswith("timeout: bob") for line in await tick(console))


# ---- takebacks and draws ------------------------------------------------------------------------------------


async def test_an_undo_accepted_rejected_and_left_unanswered(console: Console, clock: FakeClock) -> None:
    await ok(console, "druid challenge -size=5 -days=3 alice bob")
    await ok(console, "druid move 1 alice c3")
    await ok(console, "druid move 1 bob d4")
    proposed = await ok(console, "druid propose 1 bob undo")
    assert "bob proposes to take back move 2 (bob: d4)" in proposed.message and proposed.notify == ["alice"]
    assert "already has an open proposal" in await refused(console, "druid propose 1 alice draw")
    assert "already made" in await refused(console, "druid accept 1 bob")
    rejected = await ok(console, "druid reject 1 alice")
    assert rejected.message == "alice rejected bob's takeback proposal in game 1"
    assert (await status(console, "druid", 1)).move_number == 2
    await ok(console, "druid propose 1 bob undo")
    accepted = await ok(console, "druid accept 1 alice")
    assert "move 2 (bob: d4) was taken back" in accepted.message
    shown = await status(console, "druid", 1)
    assert shown.move_number == 1 and shown.to_move == "bob"
    assert "no open proposal" in await refused(console, "druid accept 1 alice")
    await ok(console, "druid move 1 bob e5")
    history = await ok(console, "druid history 1")
    assert history.items == [
        "   1. alice: c3",
        "   2. bob: d4  (taken back)",
        "      (bob's takeback accepted: move 2 (bob: d4) was taken back)",
        "   2. bob: e5",
    ]


async def test_an_unanswered_proposal_counts_as_rejected(console: Console, clock: FakeClock) -> None:
    await ok(console, "druid challenge -size=5 -untimed alice bob")
    await ok(console, "druid move 1 alice c3")
    await ok(console, "druid propose 1 alice draw")  # an untimed game: a week to answer
    clock.advance(7 * DAY - 60)
    assert not [line for line in await tick(console) if line.startswith("proposal:")]
    clock.advance(61)
    expired = [line for line in await tick(console) if line.startswith("proposal:")]
    assert expired == ["proposal: alice's draw proposal in game 1 was not answered in time: it counts as rejected"]
    assert (await status(console, "druid", 1)).status == "active"
    assert "no open proposal" in await refused(console, "druid accept 1 bob")


async def test_a_proposal_made_void_by_a_move(console: Console) -> None:
    await ok(console, "drogo challenge -size=4 alice bob")
    await ok(console, "drogo move 1 alice a1")
    await ok(console, "drogo propose 1 alice draw")
    await ok(console, "drogo move 1 bob d4")
    assert "no longer holds" in await refused(console, "drogo accept 1 bob")


async def test_a_draw_by_agreement_and_games_without_draws_or_undo(console: Console) -> None:
    await ok(console, "dragons challenge alice bob")
    await ok(console, "dragons propose 1 bob draw")
    drawn = await ok(console, "dragons accept 1 alice")
    assert drawn.status == "finished" and "the players agreed to a draw" in drawn.message
    row = await console.actions.store.load_game(1)
    assert row.outcome["cause"] == "agreement" and row.outcome["winners"] == []
    await ok(console, "backgammon challenge -force alice bob")
    assert "Backgammon has no draws" in await refused(console, "backgammon propose 2 alice draw")
    await ok(console, "druid challenge -noundo -size=5 alice bob")
    await ok(console, "druid move 3 alice c3")
    assert "-noundo" in await refused(console, "druid propose 3 alice undo")
    await ok(console, "druid challenge -size=5 carol dave")
    assert "no move has been made yet" in await refused(console, "druid propose 4 carol undo")


async def test_a_backgammon_takeback_keeps_the_dice_and_does_not_rewind_them(console: Console) -> None:
    started = await ok(console, "backgammon challenge -force alice bob")
    mover = started.to_move
    assert mover is not None
    before = await status(console, "backgammon", 1)
    dice = before.state.dice  # type: ignore[union-attr]
    first = before.legal_moves if before.legal_moves else before.legal_move_texts()
    played = await ok(console, f"backgammon move 1 {mover} {first[0]}")
    other = next(p for p in ("alice", "bob") if p != mover)
    rolled_after = played.state.dice  # type: ignore[union-attr]
    await ok(console, f"backgammon propose 1 {mover} undo")
    back = await ok(console, f"backgammon accept 1 {other}")
    assert back.to_move == mover and back.state.dice == dice  # type: ignore[union-attr]
    again = await ok(console, f"backgammon move 1 {mover} {first[0]}")
    # the same play again: the same position, but the generator went on, so the opponent's roll is new dice
    assert again.state.points == played.state.points  # type: ignore[union-attr]
    assert again.state.dice != rolled_after  # type: ignore[union-attr]
    assert f"{other} rolled {'-'.join(map(str, rolled_after))}" in played.message


async def test_backgammon_dice_and_cube_actions_cannot_be_taken_back(console: Console) -> None:
    started = await ok(console, "backgammon challenge -force alice bob")
    await ok(console, "backgammon manual 1 alice")  # alice rolls by hand from now on
    played = await ok(console, f"backgammon move 1 alice {started.legal_move_texts()[0]}")
    await ok(console, f"backgammon move 1 bob {played.legal_move_texts()[0]}")
    await ok(console, "backgammon double 1 alice")
    await ok(console, "backgammon take 1 bob")
    assert await refused(console, "backgammon propose 1 bob undo") == "the last action (bob: take) cannot be taken back"


async def test_a_takeback_replays_from_the_log_and_drogo_forgets_the_positions_it_made(
    databases: Databases, clock: FakeClock
) -> None:
    store = await Store.open(await databases.target("u.sqlite3"))
    actions = Actions(store, seed_source=lambda: 7, clock=clock, think=None)
    await actions.challenge("drogo", ["alice", "bob"], ["-size=4"], start=True)
    await actions.move(1, "alice", "a1")
    await actions.move(1, "bob", "d4")
    await actions.propose(1, "bob", "undo")
    assert (await actions.answer(1, "alice", accept=True)).ok
    again = await actions.move(1, "bob", "d4")  # the same move again: its position is not "seen" any more
    assert again.ok, again.message
    row = await store.load_game(1)
    replayed = await actions.replay(row)
    assert replayed.to_json() == row.snapshot and replayed.memory() == list(row.memory)
    from bot.maintenance import check

    report = await check(actions)
    assert report.ok, report.lines()
    await store.close()


# ---- conditional moves --------------------------------------------------------------------------------------


async def test_queued_lines_are_played_dropped_and_cleared(console: Console) -> None:
    await ok(console, "druid challenge -size=5 alice bob")
    assert "make your move" in await refused(console, "druid queue 1 alice c3 d4")
    await ok(console, "druid move 1 alice c3")
    await ok(console, 'druid queue 1 alice "d4 e5 d2 b2"')
    await ok(console, 'druid queue 1 alice "a1 a2"')
    assert "is not a move" in await refused(console, 'druid queue 1 alice "d4 zz9"')
    assert "could not be played by alice" in await refused(console, 'druid queue 1 alice "d4 d4"')
    listed = await ok(console, "druid queue 1 alice")
    assert listed.items == ["d4 e5 d2 b2", "a1 a2"]
    replied = await ok(console, "druid move 1 bob d4")
    assert "alice played e5 (Queued)" in replied.message and replied.to_move == "bob"
    assert replied.private == [("alice", "your queued line 'a1 a2' in game 1 was dropped: the opponent played d4")]
    assert (await ok(console, "druid queue 1 alice")).items == ["d2 b2"]
    replied = await ok(console, "druid move 1 bob c1")  # not d2: the rest of the line is dropped
    assert "(Queued)" not in replied.message and replied.to_move == "alice"
    assert (await ok(console, "druid queue 1 alice")).items == []
    history = await ok(console, "druid history 1")
    assert "   3. alice: e5 (Queued)" in history.items
    await ok(console, "druid move 1 alice b2")
    await ok(console, 'druid queue 1 alice "a5 a4"')
    assert "cleared" in (await ok(console, "druid queue 1 alice clear")).message
    assert (await ok(console, "druid queue 1 alice")).items == []
    await ok(console, "backgammon challenge -force carol dave")
    assert "the dice decide" in await refused(console, "backgammon queue 2 carol 13-7")


async def test_a_queued_move_that_is_illegal_when_due_is_dropped_never_played(console: Console) -> None:
    await ok(console, "drogo challenge -size=3 ann ben cat")
    await ok(console, 'drogo queue 1 cat "b1"')
    await ok(console, "drogo move 1 ann a1")
    replied = await ok(console, "drogo move 1 ben b1")  # b1 is ben's now
    assert replied.to_move == "cat" and "(Queued)" not in replied.message
    assert len(replied.private) == 1 and replied.private[0][0] == "cat"
    assert replied.private[0][1].startswith("your queued line 'b1' in game 1 was dropped: b1 is not legal now")
    assert (await ok(console, "drogo queue 1 cat")).items == []


async def test_three_players_queue_their_next_move(console: Console) -> None:
    await ok(console, "drogo challenge -size=4 ann ben cat")
    await ok(console, 'drogo queue 1 cat "c3"')
    assert "just your next move" in await refused(console, 'drogo queue 1 cat "c3 c4"')
    await ok(console, "drogo move 1 ann a1")
    replied = await ok(console, "drogo move 1 ben b2")
    assert "cat played c3 (Queued)" in replied.message and replied.to_move == "ann"


# ---- preview and confirm -------------------------------------------------------------------------------------


async def test_preview_then_a_stale_confirm_is_refused(console: Console) -> None:
    await ok(console, "druid challenge -size=5 alice bob")
    preview = await ok(console, "druid preview 1 alice c3")
    assert preview.message.splitlines()[0] == "preview of move 1 in game 1: alice plays c3 (not played)"
    assert preview.message.splitlines()[-1] == "to play it: druid move 1 alice c3#1"
    assert preview.state is not None and "v" in preview.state.text_board()
    assert (await status(console, "druid", 1)).move_number == 0  # nothing played
    await ok(console, "notify alice confirm on")
    shown = await ok(console, "druid move 1 alice c3")  # with confirm on, a move is previewed first
    assert shown.message.startswith("preview of move 1") and (await status(console, "druid", 1)).move_number == 0
    await ok(console, "druid move 1 alice c3#1")  # the confirmation
    await ok(console, "druid move 1 bob d4")
    stale = await refused(console, "druid move 1 alice c3#1")
    assert "the board has changed since you looked" in stale


# ---- timers: restarts, two sweeps, old databases ----------------------------------------------------------------


async def test_a_restart_between_the_deadline_and_the_sweep_loses_nothing(
    databases: Databases, clock: FakeClock
) -> None:
    path = await databases.target("r.sqlite3")
    store = await Store.open(path)
    actions = Actions(store, seed_source=lambda: 7, clock=clock, think=None)
    await actions.challenge("druid", ["alice", "bob"], ["-size=5", "-days=1"], start=True)
    await store.close()
    clock.advance(DAY + 30)  # the deadline passes while nothing runs
    store = await Store.open(path)
    actions = Actions(store, seed_source=lambda: 7, clock=clock, think=None)
    notices = await actions.sweep()
    assert [n.kind for n in notices] == ["timeout"] and notices[0].text.startswith("alice ran out of time")
    assert await actions.sweep() == []
    await store.close()


async def test_two_sweeps_at_once_apply_each_timeout_and_warning_once(databases: Databases, clock: FakeClock) -> None:
    path = await databases.target("two.sqlite3")
    first_store, second_store = await Store.open(path), await Store.open(path)
    first = Actions(first_store, seed_source=lambda: 7, clock=clock, think=None)
    second = Actions(second_store, seed_source=lambda: 7, clock=clock, think=None)
    for k in range(6):
        await first.challenge("druid", [f"a{k}", f"b{k}"], ["-size=5", "-days=2"], start=True)
    clock.advance(DAY + 1)  # half time: six warnings
    one, two = await asyncio.gather(first.sweep(), second.sweep())
    assert sorted(n.game_id for n in one + two if n.kind == "warning") == [1, 2, 3, 4, 5, 6]
    clock.advance(DAY)  # the day-left warning and the deadline at once: a timeout each
    one, two = await asyncio.gather(first.sweep(), second.sweep())
    timeouts = sorted(n.game_id for n in one + two if n.kind == "timeout")
    assert timeouts == [1, 2, 3, 4, 5, 6]
    for game_id in range(1, 7):
        log = await first_store.log(game_id)
        assert [entry.text for entry in log] == ["timeout"]
    await first_store.close()
    await second_store.close()


async def test_a_move_and_a_timeout_racing_whichever_commits_first_wins(databases: Databases, clock: FakeClock) -> None:
    path = await databases.target("race.sqlite3")
    store = await Store.open(path)
    actions = Actions(store, seed_source=lambda: 7, clock=clock, think=None)
    await actions.challenge("druid", ["alice", "bob"], ["-size=5", "-days=1"], start=True)
    clock.advance(DAY - 1)
    moved = await actions.move(1, "alice", "c3")  # in time, one second before the deadline
    assert moved.ok
    clock.advance(2)  # alice's old deadline has passed; the timer read before the move is stale
    assert [n.kind for n in await actions.sweep()] == []
    assert (await actions.show(1)).status == "active"
    await store.close()


def test_old_databases_keep_their_games_untimed(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    with sqlite3.connect(db) as raw:  # a database from before clocks (schema 2) with a game in progress
        for script in MIGRATIONS[:2]:
            raw.executescript(script)
        raw.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        raw.execute("INSERT INTO schema_version (version) VALUES (2)")
    new = subprocess.run(
        [sys.executable, "-m", "bot", "do", "--no-images", "--db", str(db), "druid challenge -size=5 alice bob"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "7 days per move" in new.stdout  # new games get the default clock
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE games SET clock = NULL, deadline = NULL")  # as the migration leaves old games
        raw.execute("DROP INDEX games_by_deadline")
        raw.execute("DELETE FROM timers")
        raw.execute("UPDATE schema_version SET version = 2")
        for column in ("clock", "deadline"):
            raw.execute(f"ALTER TABLE games DROP COLUMN {column}")
        for table in (
            "timers",
            "vacations",
            "proposals",
            "queued_lines",
            "rating_changes",
            "rating_variants",
            "ratings",
        ):
            raw.execute(f"DROP TABLE {table}")
        raw.execute("DROP INDEX challenges_by_guild")  # and what open challenges and servers' players added after
        raw.execute("DROP TABLE guild_players")
        for column in ("open_seats", "joined", "rating_min", "rating_max"):
            raw.execute(f"ALTER TABLE challenges DROP COLUMN {column}")
    shown = subprocess.run(
        [sys.executable, "-m", "bot", "do", "--json", "--no-images", "--db", str(db), "druid show 1"],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(shown.stdout)
    assert data["ok"] and data["clock"] is None and "clock:" not in data["board_text"]
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT clock FROM games").fetchone()[0] is None
        assert raw.execute("SELECT kind FROM timers").fetchall() == [("clock",)]  # its reminder


def test_the_console_acts_at_the_time_now_says(tmp_path: Path) -> None:
    db = str(tmp_path / "now.sqlite3")

    def pbm(*words: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "bot", "do", "--no-images", "--db", db, *words], capture_output=True, text=True
        )
        return done.stdout + done.stderr

    assert "2 days per move" in pbm("--now", "2026-12-01T09:00Z", "druid challenge -size=5 -days=2 alice bob")
    assert "half your time is gone" in pbm("--now", "2026-12-02T09:00Z", "tick")
    assert "alice ran out of time" in pbm("--now", "2026-12-03T09:00Z", "tick")
    assert "write a time like" in pbm("--now", "tomorrow", "tick")
    json_now = json.loads(pbm("--json", "--now", "2026-12-03T09:00Z", "druid show 1"))
    assert json_now["status"] == "finished"
    assert UTC is not None


async def test_a_timeout_in_someones_quiet_hours_reaches_them_when_those_end(
    console: Console, clock: FakeClock
) -> None:
    await ok(console, "notify alice quiet 22-08")
    clock.set("2026-12-01T20:00:00+00:00")
    await ok(console, "druid challenge -size=5 -days=1 alice bob")
    await ok(console, "druid move 1 alice c3")
    clock.set("2026-12-02T23:00:00+00:00")  # bob ran out at 20:00; the sweep runs in alice's quiet hours
    notices = await console.actions.sweep()
    assert [n.kind for n in notices] == ["timeout"] and notices[0].ping == []
    assert "(alice will be told later)" in notices[0].text
    clock.set("2026-12-03T08:00:00+00:00")
    assert await tick(console) == ["reminder: alice, game 1: bob ran out of time"]


async def test_untimed_games_remind_once_per_interval_outside_quiet_hours(console: Console, clock: FakeClock) -> None:
    await ok(console, "notify bob quiet 22-08")
    clock.set("2026-12-01T12:00:00+00:00")
    await ok(console, "druid challenge -size=5 -untimed alice bob")
    await ok(console, "druid move 1 alice c3")
    clock.set("2026-12-02T11:59:00+00:00")
    assert await tick(console) == []
    clock.set("2026-12-02T12:00:00+00:00")
    assert await tick(console) == ["reminder: bob, game 1 is waiting for your move."]
    clock.set("2026-12-03T11:00:00+00:00")  # the next one is a day later
    assert await tick(console) == []
    await ok(console, "druid move 1 bob d4")
    clock.set("2026-12-03T23:00:00+00:00")
    moved = await ok(console, "druid move 1 alice c4")  # bob's turn begins in his quiet hours: the ping waits
    assert moved.notify == [] and "bob" in moved.held
    clock.set("2026-12-04T08:00:00+00:00")
    assert await tick(console) == ["reminder: bob, game 1 is waiting for your move."]
    clock.set("2026-12-04T23:00:00+00:00")  # a day after bob's turn began: inside his quiet hours, held
    assert await tick(console) == []
    clock.set("2026-12-05T08:00:00+00:00")
    assert await tick(console) == ["reminder: bob, game 1 is waiting for your move."]


async def test_computer_players_accept_takebacks_and_decline_draws(console: Console) -> None:
    await ok(console, "druid challenge -size=5 -untimed carol ai:2")  # this console's computers do not move
    await ok(console, "druid move 1 carol c3")
    drawn = await ok(console, "druid propose 1 carol draw")
    assert drawn.status == "rejected" and "ai:2 rejected carol's draw proposal" in drawn.message
    undone = await ok(console, "druid propose 1 carol undo")
    assert "move 1 (carol: c3) was taken back" in undone.message and undone.to_move == "carol"
