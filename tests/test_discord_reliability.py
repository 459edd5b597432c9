"""The pbm bot when things go wrong: a slow render against the 3-second deadline, a restart in mid-game, closed
DMs, missing permissions, a 429, archived and deleted threads, and command sync only when commands change."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import discord.asset
import discord.gateway
import discord.http
import yarl

from bot.board_files import Picture
from bot.config import Config
from bot.discord.client import apply_endpoints
from bot.discord.front import REPOST_GRACE, new_nonce, render_board
from tests.fakediscord.pbm import FakeClock, pbm_running, start_game

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]
THREAD_POSTS = "POST /channels/{channel_id}/messages"
CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
THREAD_HISTORY = "GET /channels/{channel_id}/messages"


def slow_render(board: Picture) -> bytes | None:
    """A board that takes longer to draw than Discord waits for an answer."""
    time.sleep(3.3)
    return render_board(board)


async def test_a_slow_render_still_acknowledges_within_three_seconds(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3"):
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3", render=slow_render):
        interaction = await w.fake.slash(w.alice, table.thread.id, "move", {"move": "c3"})
        await w.fake.acked(interaction)
        turn = await w.fake.next_message(table.thread.id, timeout=10)
        reply = await w.fake.reply(interaction, timeout=10)
    assert interaction.ack_latency is not None and interaction.ack_latency < 1.0
    assert interaction.response_type == 5
    assert "alice played c3" in turn.text() and turn.pinged == [w.bob]
    assert reply.deleted  # played in the thread: the turn there is the answer


async def test_after_a_restart_the_game_continues_and_old_buttons_work(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    db = tmp_path / "pbm.sqlite3"
    async with pbm_running(w.fake, db):
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        await table.move_and_wait(w.alice, "c3")
    turn = table.last_post()
    async with pbm_running(w.fake, db) as second:
        swap = next(c for c in turn.custom_ids() if c.endswith(":swap"))
        reply = await w.fake.reply(await w.fake.click(w.bob, turn, swap))
        after = table.last_post()
        history = await second.actions.history(1)
    assert reply.deleted and after.id != turn.id
    assert [line.split(": ", 1)[1] for line in history.items] == ["c3", "swap"]
    assert second.synced is False and len(w.fake.syncs) == 1


async def test_closed_dms_fall_back_to_the_thread_and_are_remembered(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    w.fake.close_dms(w.bob)
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3") as bot:
        for user in (w.alice, w.bob):
            await w.fake.reply(await w.fake.slash(user, w.channel, "notify", {"dm": "on"}))
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        first = await table.move(w.alice, "c3")
        turn = table.last_post()
        second = await table.move(w.bob, "d4")
        third = await table.move(w.alice, "b2")
        setting = await bot.actions.store.get_setting("bob", "notify_dm")
    assert "bob does not accept DMs" in first.text() and turn.pinged == [w.bob]
    assert setting == "closed" and third.deleted  # nothing more to say about DMs
    assert [m.text().splitlines()[0] for m in w.fake.dms(w.alice)] == ["Your move in game 1:"] * 2
    assert second.deleted
    dm_attempts = [r for r in w.fake.requests if r.route == THREAD_POSTS and r.status == 403]
    assert len(dm_attempts) == 1


async def test_a_missing_permission_is_explained_and_the_board_posted_once_granted(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    w.fake.deny(w.channel, "create_public_threads")
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3") as bot:
        await w.fake.reply(await w.fake.slash(w.alice, w.channel, "challenge", {"game": "druid", "opponent": w.bob}))
        accepted = await w.fake.reply(await w.fake.click(w.bob, w.fake.channel_log(w.channel)[-1], "pbm:c:1:accept"))
        game = await bot.actions.show(1)
        w.fake.allow(w.channel)
        await bot.sweep()
        thread = next(iter(w.fake.threads.values()))
        board = w.fake.channel_log(thread.id)
    assert "Create Public Threads" in accepted.text() and accepted.ephemeral
    assert game.ok and game.move_number == 0
    assert len(board) == 1 and board[0].pinged == [w.alice]


async def test_a_refused_board_post_is_explained_and_posted_by_the_next_sweep(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        w.fake.fail(THREAD_POSTS, 403, 50013, times=2, channel_id=table.thread.id)
        reply = await table.move(w.alice, "c3")
        posts_after_failure = len(w.fake.channel_log(table.thread.id))
        await bot.sweep()
        repost = table.last_post()
        moved = await bot.actions.show(1)
    assert "permission" in reply.text() and reply.text().startswith("Done")
    assert moved.move_number == 1 and posts_after_failure == 1
    assert "Druid 1: bob to move (move 2)" in repost.text() and repost.pinged == [w.bob]


async def test_an_injected_429_delays_but_does_not_lose_or_double_the_board(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3"):
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        w.fake.rate_limit(THREAD_POSTS, retry_after=0.1, channel_id=table.thread.id)
        turn = await table.move_and_wait(w.alice, "c3")
    statuses = [
        r.status for r in w.fake.requests if r.route == THREAD_POSTS and r.params["channel_id"] == str(table.thread.id)
    ]
    assert statuses[-2:] == [429, 200]
    assert "alice played c3" in turn.text()
    assert sum("alice played c3" in m.text() for m in w.fake.channel_log(table.thread.id)) == 1


async def test_an_archived_thread_is_reopened_and_a_deleted_one_recreated(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        await w.fake.archive_thread(table.thread.id)
        await table.move_and_wait(w.alice, "c3")
        reopened = not w.fake.channels[table.thread.id]["thread_metadata"]["archived"]
        await w.fake.delete_channel(table.thread.id)
        reply = await w.fake.reply(await w.fake.slash(w.bob, w.channel, "move", {"move": "d4", "game": 1}))
        row = await bot.actions.store.load_game(1)
    assert reopened
    assert row.thread_id != table.thread.id and row.thread_id in w.fake.threads
    new_thread = w.fake.threads[row.thread_id]
    assert sorted(new_thread.members) == sorted([w.alice, w.bob])
    assert "bob played d4" in w.fake.channel_log(row.thread_id)[0].text()
    assert f"<#{row.thread_id}>" in reply.text()


async def test_spectators_watch_by_mention_and_boards_are_shown_silently(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3"):
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        watching = await w.fake.reply(await w.fake.slash(w.carol, w.channel, "watch", {"game": 1}))
        turn = await table.move_and_wait(w.alice, "c3")
        await w.fake.reply(await w.fake.slash(w.carol, w.channel, "unwatch", {"game": 1}))
        quiet = await table.move_and_wait(w.bob, "d4")
        board = await w.fake.reply(await w.fake.slash(w.carol, w.channel, "board", {"game": 1, "at": 1}))
    assert watching.text() == "You are watching game 1 (mention)."
    assert sorted(turn.pinged) == sorted([w.bob, w.carol])
    assert quiet.pinged == [w.alice]
    assert board.pinged == [] and not board.ephemeral and "game 1 after move 1" in board.text()


async def test_a_challenge_in_a_channel_the_bot_cannot_post_in_is_withdrawn(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    w.fake.deny(w.channel, "send_messages")
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3") as bot:
        values = {"game": "druid", "opponent": w.bob}
        reply = await w.fake.reply(await w.fake.slash(w.alice, w.channel, "challenge", values))
        row = await bot.actions.store.load_challenge(1)
    assert "Send Messages" in reply.text() and reply.ephemeral
    assert row.status == "cancelled" and w.fake.channel_log(w.channel) == []


async def test_without_attach_files_the_turn_goes_out_with_a_text_board(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        w.fake.deny(w.channel, "attach_files")
        reply = await table.move(w.alice, "c3")
        turn = table.last_post()
        await bot.sweep()
        w.fake.deny(w.channel, "send_messages_in_threads")
        refused = await table.move(w.bob, "d4")
        posts = len(w.fake.channel_log(table.thread.id))
        w.fake.allow(w.channel)
        await bot.sweep()
        repost = table.last_post()
    assert reply.text().startswith("Done") and "**Attach Files**" in reply.text()
    assert "alice played c3" in turn.content and "```" in turn.content and turn.attachments == []
    assert not turn.layout and repost.layout  # the text board goes plainly; the picture in a layout once allowed
    assert turn.pinged == [w.bob] and turn.id != repost.id
    assert "**Send Messages in Threads**" in refused.text() and posts == 2
    assert "Druid 1: alice to move (move 3)" in repost.text() and [a.filename for a in repost.attachments] == [
        "druid-1.png"
    ]


async def test_a_board_refused_before_a_restart_is_posted_after_it(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    db = tmp_path / "pbm.sqlite3"
    async with pbm_running(w.fake, db):
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        w.fake.fail(THREAD_POSTS, 403, 50001, times=None, channel_id=table.thread.id)
        reply = await table.move(w.alice, "c3")
        posts = len(w.fake.channel_log(table.thread.id))
    w.fake.clear_faults()
    async with pbm_running(w.fake, db) as second:
        repost = await w.fake.next_message(table.thread.id, after=table.last_post().id, timeout=10)
        shown = await second.actions.show(1)
    assert reply.text().startswith("Done") and "posted again" in reply.text() and posts == 1
    assert shown.move_number == 1
    assert "Druid 1: bob to move (move 2)" in repost.text() and repost.pinged == [w.bob]


async def test_a_board_whose_process_died_after_the_commit_is_posted_by_a_later_sweep_once(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    clock = FakeClock()
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3", clock=clock) as bot:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        # what the process does for /move up to the moment it dies: the commit, which marks the board
        played = await bot.actions.move(1, "alice", "c3", will_post=new_nonce())
        await bot.sweep()  # moments later the process that made the move may still be posting it: left alone
        too_soon = len(w.fake.channel_log(table.thread.id))
        clock.now += REPOST_GRACE + 1
        await bot.sweep()
        await bot.sweep()
        posts = w.fake.channel_log(table.thread.id)
        marks = await bot.actions.store.unposted_boards()
    assert played.ok and too_soon == 1 and len(posts) == 2 and marks == []
    assert "Druid 1: bob to move (move 2)" in posts[1].text() and posts[1].pinged == [w.bob]
    assert [a.filename for a in posts[1].attachments] == ["druid-1.png"]


async def test_a_board_posted_just_before_a_crash_is_not_posted_again(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    clock = FakeClock()
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3", clock=clock) as bot:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        nonce = new_nonce()
        played = await bot.actions.move(1, "alice", "c3", will_post=nonce)
        await bot.front.post_turn(played, nonce=nonce)
        await bot.actions.store.mark_unposted(1, nonce)  # the process died before it could clear the mark
        clock.now += REPOST_GRACE + 1
        w.fake.fail(THREAD_HISTORY, 403, 50001)  # the thread cannot be read: the nonce alone keeps the post single
        await bot.sweep()
        posts = w.fake.channel_log(table.thread.id)
        marks = await bot.actions.store.unposted_boards()
    sent = [r for r in w.fake.requests if r.route == THREAD_POSTS and r.params["channel_id"] == str(table.thread.id)]
    assert len(sent) == 3 and len(posts) == 2 and marks == []  # opening board, the move, the repost Discord refused
    assert "alice played c3" in posts[1].text()


async def test_a_second_tap_handled_after_the_opponents_reply_is_refused_not_played_again(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        first = await w.fake.acked(await w.fake.slash(w.alice, table.thread.id, "move", {"move": "c3"}))
        # alice taps again; the bot is slow with that one (its acknowledgement is held) while bob answers c3
        gate = w.fake.hold(CALLBACK)
        second = await w.fake.slash(w.alice, table.thread.id, "move", {"move": "c3"})
        await w.fake.reply(first)
        answer = await table.move_and_wait(w.bob, "d4")
        gate.set()
        refused = await w.fake.reply(second)
        history = await bot.actions.history(1)
    assert "bob played d4" in answer.text()
    assert "changed while your move was being made" in refused.content and refused.ephemeral
    assert [line.split(": ", 1)[1] for line in history.items] == ["c3", "d4"]  # c3 again would have stacked


async def test_a_challenge_posted_before_a_restart_can_be_accepted_after_it(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    db = tmp_path / "pbm.sqlite3"
    async with pbm_running(w.fake, db):
        await w.fake.reply(await w.fake.slash(w.alice, w.channel, "challenge", {"game": "druid", "opponent": w.bob}))
    challenge = w.fake.channel_log(w.channel)[-1]
    async with pbm_running(w.fake, db):
        accepted = await w.fake.reply(await w.fake.click(w.bob, challenge, "pbm:c:1:accept"))
        thread = await w.fake.wait_for(lambda: next(iter(w.fake.threads.values()), None), what="thread")
        opening = await w.fake.wait_for(lambda: w.fake.channel_log(thread.id), what="opening board")
    assert f"<#{thread.id}>" in accepted.text()
    assert opening[0].pinged == [w.alice] and "Druid game 1 started" in opening[0].text()


def test_the_loopback_endpoints_are_applied_only_when_set(tmp_path: Path) -> None:
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY, discord.asset.Asset.BASE)
    try:
        apply_endpoints(Config(token="t", db_path=tmp_path / "x.sqlite3"))
        untouched = (
            discord.http.Route.BASE,
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
            discord.asset.Asset.BASE,
        )
        env = {
            "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/gateway",
            "DISCORD_CDN_BASE": "http://127.0.0.1:9/cdn",
        }
        apply_endpoints(Config.from_env({**env, "PBM_DB": str(tmp_path / "x.sqlite3")}))
        applied = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY, discord.asset.Asset.BASE)
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY, discord.asset.Asset.BASE = saved
    assert untouched == saved
    assert applied == (env["DISCORD_API_BASE"], yarl.URL(env["DISCORD_GATEWAY_URL"]), env["DISCORD_CDN_BASE"])
