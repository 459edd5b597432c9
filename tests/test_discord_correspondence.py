"""Correspondence play through the fake Discord: clocks (a timeout, a warning), takeback proposals with buttons,
previews with Confirm / Cancel, vacations, quiet hours and conditional moves. The bot's clock is a
:class:`FakeClock` moved by hand and the sweep is called directly: nothing waits for clock time."""

from __future__ import annotations

import copy
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.fakediscord.pbm import FakeClock, pbm_running, start_game

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]

DAY = 86400.0
#: a Wednesday noon, UTC: quiet hours and clocks read the same on every run
NOON = datetime(2026, 1, 7, 12, 0, tzinfo=UTC).timestamp()


async def test_a_player_who_runs_out_of_time_loses_and_the_thread_is_told(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    clock = FakeClock(NOON)
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3", clock=clock) as bot:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5 -days=1")
        posts = len(w.fake.channel_log(table.thread.id))
        clock.now += DAY / 2 - 60
        await bot.sweep()
        early = len(w.fake.channel_log(table.thread.id))
        clock.now += DAY
        await bot.sweep()
        turn = table.last_post()
        await bot.sweep()  # a second sweep finds nothing left to do
        row = await bot.actions.store.load_game(1)
    assert early == posts  # nothing due before half time
    assert "ran out of time" in turn.text()
    assert turn.pinged == [w.bob] and turn.attachments  # the final board, pinging the other player
    assert row.status == "finished" and "ran out of time" in str(row.outcome)
    assert len(w.fake.channel_log(table.thread.id)) == posts + 1  # the timeout only: the warning came too late


async def test_half_the_time_gone_warns_the_player_to_move_once(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    clock = FakeClock(NOON)
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3", clock=clock) as bot:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5 -days=4")
        clock.now += 2 * DAY + 60
        await bot.sweep()
        warning = table.last_post()
        await bot.sweep()
        again = table.last_post()
    assert warning.text().startswith(f"<@{w.alice}>, half your time is gone in game 1: 1d 23h")
    assert warning.pinged == [w.alice] and again.id == warning.id


async def test_a_takeback_accepted_by_button_brings_the_position_back(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        await table.move_and_wait(w.alice, "c3")
        asked = await fake.reply(await fake.slash(w.alice, table.thread.id, "propose", {"what": "undo"}))
        proposal = table.last_post()
        buttons = proposal.custom_ids()
        stranger = await fake.reply(await fake.click(w.carol, proposal, "pbm:p:1:1:a"))
        proposer = await fake.reply(await fake.click(w.alice, proposal, "pbm:p:1:1:a"))
        as_shown = copy.deepcopy(proposal)  # a second click from a client that still shows the buttons
        accepted = await fake.reply(await fake.click(w.bob, proposal, "pbm:p:1:1:a"))
        turn = await fake.wait_for(lambda: "taken back" in table.last_post().text() and table.last_post())
        twice = await fake.reply(await fake.click(w.bob, as_shown, "pbm:p:1:1:a"))
        shown = await bot.actions.show(1)
        history = await bot.actions.history(1)
    assert asked.ephemeral and asked.text().startswith("Proposal 1 posted in")
    assert "alice proposes to take back move 1 (alice: c3) in game 1" in proposal.text()
    assert proposal.pinged == [w.bob] and buttons == ["pbm:p:1:1:a", "pbm:p:1:1:r"]
    assert stranger.ephemeral and stranger.text() == "carol is not playing in game 1"
    assert proposer.ephemeral and "already made proposal 1" in proposer.text()
    assert accepted.ephemeral and accepted.deleted
    assert "move 1 (alice: c3) was taken back" in turn.text() and turn.pinged == [w.alice]
    assert proposal.components == [] and "was taken back" in proposal.text()
    assert twice.ephemeral and twice.text() == "proposal 1 is no longer open"
    assert shown.move_number == 0 and shown.to_move == "alice"
    assert "taken back" in "\n".join(history.items)


async def test_a_rejected_takeback_changes_nothing_and_closes_the_buttons(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        await table.move_and_wait(w.alice, "c3")
        await fake.reply(await fake.slash(w.alice, table.thread.id, "propose", {"what": "undo"}))
        proposal = table.last_post()
        as_shown = copy.deepcopy(proposal)
        rejected = await fake.reply(await fake.click(w.bob, proposal, "pbm:p:1:1:r"))
        await fake.wait_for(lambda: proposal.components == [], what="buttons removed")
        shown = await bot.actions.show(1)
        again = await fake.reply(await fake.click(w.bob, as_shown, "pbm:p:1:1:a"))
    assert rejected.ephemeral and rejected.text() == "bob rejected alice's takeback proposal in game 1"
    assert "bob rejected alice's takeback proposal" in proposal.text()
    assert shown.move_number == 1 and shown.to_move == "bob"
    assert again.ephemeral and again.text() == "proposal 1 is no longer open"


async def test_a_previewed_move_is_played_on_confirm(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        posts = len(fake.channel_log(table.thread.id))
        preview = await fake.reply(await fake.slash(w.alice, table.thread.id, "move", {"move": "c3", "preview": True}))
        unplayed = (await bot.actions.show(1)).move_number
        confirmed = await fake.reply(await fake.click(w.alice, preview, "pbm:v:1:ok:c3#1"))
        turn = await fake.next_message(table.thread.id, after=fake.channel_log(table.thread.id)[posts - 1].id)
    assert preview.ephemeral and "preview of move 1 in game 1: alice plays c3 (not played)" in preview.text()
    assert preview.custom_ids() == ["pbm:v:1:ok:c3#1", "pbm:v:1:no:c3#1"]
    assert [a.filename for a in preview.attachments] == ["druid-1.png"] and unplayed == 0
    assert confirmed.ephemeral and confirmed.deleted
    assert "alice played c3" in turn.text() and turn.pinged == [w.bob]


async def test_a_stale_confirm_is_refused_privately_and_cancel_plays_nothing(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        setting = await fake.reply(await fake.slash(w.alice, w.channel, "notify", {"confirm": "on"}))
        preview = await fake.reply(await fake.slash(w.alice, table.thread.id, "move", {"move": "c3"}))
        cancelled = await fake.reply(await fake.click(w.alice, preview, "pbm:v:1:no:c3#1"))
        await fake.reply(await fake.click(w.alice, preview, "pbm:v:1:ok:c3#1"))  # played after all
        await fake.wait_for(lambda: "alice played c3" in table.last_post().text(), what="c3 posted")
        posts = len(fake.channel_log(table.thread.id))
        stale = await fake.reply(await fake.click(w.alice, preview, "pbm:v:1:ok:c3#1"))
        history = await bot.actions.history(1)
    assert setting.ephemeral and "preview before each move on" in setting.text()
    assert preview.ephemeral and preview.custom_ids() == ["pbm:v:1:ok:c3#1", "pbm:v:1:no:c3#1"]
    assert cancelled.ephemeral and cancelled.text() == "c3 was not played."
    assert stale.ephemeral and "the board has changed since you looked" in stale.text()
    assert len(fake.channel_log(table.thread.id)) == posts
    assert [line.split(": ", 1)[1] for line in history.items] == ["c3"]


async def test_a_vacation_stops_the_clock_and_tells_the_opponent(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    clock = FakeClock(NOON)
    async with pbm_running(fake, tmp_path / "pbm.sqlite3", clock=clock) as bot:
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5 -days=1")
        bank = await fake.reply(await fake.slash(w.alice, w.channel, "vacation"))
        away = await fake.reply(await fake.slash(w.alice, w.channel, "vacation", {"switch": "on"}))
        told = table.last_post()
        clock.now += 3 * DAY
        await bot.sweep()
        row = await bot.actions.store.load_game(1)
        back = await fake.reply(await fake.slash(w.alice, w.channel, "vacation", {"switch": "off"}))
        returned = table.last_post()
    assert bank.ephemeral and bank.text().startswith("alice is not on vacation; vacation bank: 14d")
    assert away.ephemeral and away.text().startswith("alice is on vacation: their clock stands still in 1 game")
    assert told.text() == f"alice is on vacation: their clock stands still (game 1)\n<@{w.bob}>"
    assert told.pinged == [w.bob]
    assert row.status == "active"  # three days on vacation with one day per move: no timeout
    assert back.ephemeral and "alice's vacation is over (back from vacation)" in back.text()
    assert returned.text().startswith("alice is back from vacation (game 1)")


async def test_quiet_hours_hold_the_ping_until_they_end(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    clock = FakeClock(NOON)
    async with pbm_running(fake, tmp_path / "pbm.sqlite3", clock=clock) as bot:
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        settings = await fake.reply(await fake.slash(w.bob, w.channel, "notify", {"quiet": "11-13", "tz": "UTC"}))
        shown = await fake.reply(await fake.slash(w.bob, w.channel, "notify"))
        bad = await fake.reply(await fake.slash(w.bob, w.channel, "notify", {"tz": "Mars/Olympus"}))
        zones = await fake.autocomplete(w.bob, w.channel, "notify", {"tz": "europe/pa"}, "tz")
        turn = await table.move_and_wait(w.alice, "c3")
        clock.now += 30 * 60
        await bot.sweep()
        early = table.last_post()
        clock.now += 31 * 60
        await bot.sweep()
        ping = table.last_post()
    assert settings.ephemeral and "quiet hours 11:00-13:00" in settings.text() and "time zone UTC" in settings.text()
    assert shown.ephemeral and shown.text() == settings.text()
    assert bad.ephemeral and "Mars/Olympus" in bad.text()
    assert [c["value"] for c in zones] == ["Europe/Paris"]
    assert turn.pinged == [] and f"<@{w.bob}>" not in turn.text() and "(bob will be told later)" in turn.text()
    assert "13:00" not in turn.text() and "UTC" not in turn.text()  # his hours and zone are his own
    assert early.id == turn.id
    assert ping.text() == f"<@{w.bob}>, game 1 is waiting for your move." and ping.pinged == [w.bob]


async def test_a_queued_reply_is_played_and_a_dropped_line_is_told_privately(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        stored = await fake.reply(await fake.slash(w.bob, table.thread.id, "queue", {"line": "c3 d4"}))
        await fake.reply(await fake.slash(w.bob, table.thread.id, "queue", {"line": "a1 b2"}))
        listed = await fake.reply(await fake.slash(w.bob, table.thread.id, "queue"))
        turn = await table.move_and_wait(w.alice, "c3")
        dms = await fake.wait_for(lambda: fake.dms(w.bob), what="DM to bob")
        history = await bot.actions.history(1)
        mine = await fake.reply(await fake.slash(w.alice, table.thread.id, "queue", {"line": "a1"}))
        cleared = await fake.reply(await fake.slash(w.bob, table.thread.id, "queue", {"clear": True}))
    assert stored.ephemeral and stored.text() == "queued for bob in game 1: if c3, reply d4"
    assert listed.ephemeral and listed.text() == "bob has 2 queued lines in game 1\nc3 d4\na1 b2"
    assert "alice played c3" in turn.text() and "d4 (Queued)" in turn.text()
    assert turn.pinged == [w.alice]
    assert "your queued line 'a1 b2' in game 1 was dropped" in dms[-1].text()
    assert all("a1 b2" not in m.text() for m in fake.channel_log(table.thread.id))
    assert [line.split(": ", 1)[1] for line in history.items][:2] == ["c3", "d4 (Queued)"]
    assert mine.ephemeral and "it is your turn" in mine.text()
    assert cleared.ephemeral and cleared.text() == "bob's queued lines in game 1 are cleared"


async def test_an_unanswered_proposal_expires_and_loses_its_buttons(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    clock = FakeClock(NOON)
    async with pbm_running(fake, tmp_path / "pbm.sqlite3", clock=clock) as bot:
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5 -untimed")
        await table.move_and_wait(w.alice, "c3")
        await fake.reply(await fake.slash(w.alice, table.thread.id, "propose", {"what": "undo"}))
        proposal = table.last_post()
        clock.now += 7 * DAY + 60
        await bot.sweep()
        told = [
            m for m in fake.channel_log(table.thread.id) if "not answered in time" in m.text() and m.id != proposal.id
        ]
        shown = await bot.actions.show(1)
    assert proposal.components == [] and "was not answered in time: it counts as rejected" in proposal.text()
    assert len(told) == 1 and told[0].pinged == [w.alice]
    assert shown.move_number == 1


async def test_a_warning_goes_by_dm_to_a_player_who_opted_in(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    clock = FakeClock(NOON)
    async with pbm_running(fake, tmp_path / "pbm.sqlite3", clock=clock) as bot:
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5 -days=4")
        await fake.reply(await fake.slash(w.alice, w.channel, "notify", {"dm": "on"}))
        posts = len(fake.channel_log(table.thread.id))
        clock.now += 2 * DAY + 60
        await bot.sweep()
        dms = fake.dms(w.alice)
    assert dms and dms[-1].text().startswith("alice, half your time is gone in game 1")
    assert len(fake.channel_log(table.thread.id)) == posts


def test_the_clock_offset_setting_shifts_the_bots_clock(tmp_path: Path) -> None:
    from bot.config import Config
    from bot.discord import create_bot

    config = Config.from_env({"PBM_DB": str(tmp_path / "pbm.sqlite3"), "PBM_CLOCK_OFFSET": "86400"})
    bot = create_bot(config)
    assert config.clock_offset == 86400.0
    assert abs(bot.clock() - time.time() - 86400.0) < 5
    assert Config.from_env({"PBM_DB": "x"}).clock_offset == 0.0
    with pytest.raises(SystemExit, match="PBM_CLOCK_OFFSET"):
        Config.from_env({"PBM_DB": "x", "PBM_CLOCK_OFFSET": "soon"})
