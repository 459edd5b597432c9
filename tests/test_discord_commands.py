"""Every slash command and button of the pbm bot as players use them through the fake Discord, mistakes included:
/resign, move suggestions, /moves, /games, /board, /watch and /unwatch, /notify, Backgammon's cube buttons,
Druid's Walk, four-player challenges, and bots refused as opponents."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import discord.http

from bot.config import Config
from bot.discord import create_bot
from tests.fakediscord.pbm import challenge, pbm_running, start_game

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]


async def test_resign_in_the_thread_ends_the_game_and_pings_nobody(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        await table.move_and_wait(w.alice, "c3")
        await table.move_and_wait(w.bob, "d4")
        stranger = await w.fake.reply(await w.fake.slash(w.carol, table.thread.id, "resign"))
        posts = len(w.fake.channel_log(table.thread.id))
        nowhere = await w.fake.reply(await w.fake.slash(w.alice, w.channel, "resign"))
        resigned = await w.fake.reply(await w.fake.slash(w.alice, table.thread.id, "resign"))
        final = table.last_post()
        again = await w.fake.reply(await w.fake.slash(w.bob, w.channel, "resign", {"game": 1}))
        row = await bot.actions.store.load_game(1)
    assert stranger.ephemeral and stranger.text() == "carol is not playing in game 1"
    assert nowhere.ephemeral and nowhere.text().startswith("which game?")
    assert len(w.fake.channel_log(table.thread.id)) == posts + 1
    assert resigned.ephemeral and resigned.deleted  # asked in the thread: the final board there is the answer
    assert final.layout and final.text().startswith("### Druid 1: bob won") and "alice resigned" in final.text()
    assert final.pinged == [] and final.silent and final.custom_ids() == ["pbm:r:1", "pbm:3d:1"]  # Druid: 3D too
    assert again.text() == "game 1 is over"
    assert row.status == "finished"


async def test_move_suggestions_are_the_callers_legal_moves_at_most_25(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=8")
        everything = await fake.autocomplete(w.alice, table.thread.id, "move", {"move": ""}, "move")
        prefixed = await fake.autocomplete(w.alice, table.thread.id, "move", {"move": "C"}, "move")
        by_game = await fake.autocomplete(w.alice, w.channel, "move", {"move": "h", "game": 1}, "move")
        no_game = await fake.autocomplete(w.alice, w.channel, "move", {"move": ""}, "move")
        carols_games = await fake.autocomplete(w.carol, w.channel, "move", {"move": "", "game": ""}, "game")
        listed = await fake.reply(await fake.slash(w.bob, table.thread.id, "moves", {"prefix": "a"}))
        full = await fake.reply(await fake.slash(w.bob, table.thread.id, "moves"))
        legal = await bot.actions.moves(1, "", limit=None)
    assert len(legal.items) > 25 and len(everything) == 25
    assert [c["value"] for c in everything] == legal.items[:25]
    assert [c["value"] for c in prefixed] == [f"c{n}" for n in range(1, 9)]
    assert [c["value"] for c in by_game] == [f"h{n}" for n in range(1, 9)]
    assert no_game == [] and carols_games == []
    assert listed.ephemeral and listed.text().splitlines()[1:] == [f"a{n}" for n in range(1, 9)]
    assert "legal moves for alice" in listed.text()
    assert full.text().splitlines()[1:] == legal.items  # /moves lists them all, like the console


async def test_games_lists_a_members_running_and_finished_games(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3"):
        first = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        await start_game(fake, w.channel, "druid", [w.bob, w.alice], options="-size=5")
        await first.move_and_wait(w.alice, "c3")
        await first.move_and_wait(w.bob, "d4")
        await fake.reply(await fake.slash(w.alice, first.thread.id, "resign"))
        running = await fake.reply(await fake.slash(w.carol, w.channel, "games", {"player": w.alice}))
        finished = await fake.reply(
            await fake.slash(w.carol, w.channel, "games", {"player": w.alice, "finished": True})
        )
        both = await fake.reply(await fake.slash(w.alice, w.channel, "games", {"waiting": True, "finished": True}))
    assert running.ephemeral and "druid 2:" in running.text() and "druid 1:" not in running.text()
    assert "druid 1:" in finished.text() and "druid 2:" not in finished.text()
    assert both.text().startswith("choose `waiting` or `finished`")


async def test_board_mistakes_are_answered_privately(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3"):
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        asks = {
            "no game": await fake.slash(w.carol, w.channel, "board"),
            "unknown": await fake.slash(w.carol, w.channel, "board", {"game": 99}),
            "too far": await fake.slash(w.carol, w.channel, "board", {"game": 1, "at": 5}),
        }
        answers = {what: await fake.followup(i) for what, i in asks.items()}
        in_thread = await fake.reply(await fake.slash(w.carol, table.thread.id, "board"))
    for interaction in asks.values():
        assert interaction.original_id is not None and fake.messages[interaction.original_id].deleted
    assert all(a.ephemeral for a in answers.values())
    assert answers["no game"].text().startswith("which game?")
    assert answers["unknown"].text() == "there is no game 99"
    assert "there is no move 5" in answers["too far"].text()
    assert not in_thread.ephemeral and [a.filename for a in in_thread.attachments] == ["druid-1.png"]
    assert [m.text() for m in fake.channel_log(w.channel) if "no game" in m.text() or "no move" in m.text()] == []


async def test_spectators_follow_by_dm_and_unwatch_stops_it(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3"):
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        unknown = await fake.reply(await fake.slash(w.carol, w.channel, "watch", {"game": 99}))
        never = await fake.reply(await fake.slash(w.carol, w.channel, "unwatch", {"game": 1}))
        watching = await fake.reply(await fake.slash(w.carol, w.channel, "watch", {"game": 1, "by": "dm"}))
        turn = await table.move_and_wait(w.alice, "c3")
        dms = await fake.wait_for(lambda: fake.dms(w.carol), what="spectator DM")
        stopped = await fake.reply(await fake.slash(w.carol, w.channel, "unwatch", {"game": 1}))
        await table.move_and_wait(w.bob, "d4")
    assert unknown.ephemeral and unknown.text() == "there is no game 99"
    assert never.text() == "you are not watching game 1; nothing to stop"
    assert watching.text() == "You are watching game 1 (dm)."
    assert turn.pinged == [w.bob]
    assert len(dms) == 1 and dms[0].text().startswith("Game 1:\nalice played c3")
    assert stopped.text() == "You no longer watch game 1."
    assert len(fake.dms(w.carol)) == 1


async def test_turn_dms_stop_when_switched_off(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3"):
        on = await fake.reply(await fake.slash(w.bob, w.channel, "notify", {"dm": "on"}))
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        await table.move_and_wait(w.alice, "c3")
        await fake.wait_for(lambda: fake.dms(w.bob), what="turn DM")
        off = await fake.reply(await fake.slash(w.bob, w.channel, "notify", {"dm": "off"}))
        await table.move_and_wait(w.bob, "d4")
        turn = await table.move_and_wait(w.alice, "b2")
    assert on.text() == "DMs about your turns are on." and off.text() == "DMs about your turns are off."
    assert [m.text().splitlines()[0] for m in fake.dms(w.bob)] == ["Your move in game 1:"]
    assert turn.pinged == [w.bob]


async def test_backgammon_cube_buttons_double_and_drop(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(fake, w.channel, "backgammon", [w.alice, w.bob])
        mover = table.to_move()
        assert mover is not None
        doubler = w.bob if mover == w.alice else w.alice
        await fake.reply(await fake.slash(doubler, table.thread.id, "manual"))
        choices = await fake.autocomplete(mover, table.thread.id, "move", {"move": ""}, "move")
        turn = await table.move_and_wait(mover, choices[0]["value"])
        double = next(c for c in turn.custom_ids() if c.endswith(":double"))
        stranger = await fake.reply(await fake.click(w.carol, turn, double))
        doubled = await fake.reply(await fake.click(doubler, turn, double))
        offer = table.last_post()
        words = [c.rsplit(":", 1)[1] for c in offer.custom_ids()]
        drop = next(c for c in offer.custom_ids() if c.endswith(":drop"))
        wrong_side = await fake.reply(await fake.click(doubler, offer, drop))
        dropped = await fake.reply(await fake.click(mover, offer, drop))
        final = table.last_post()
        row = await bot.actions.store.load_game(1)
    assert stranger.text() == "carol is not playing in game 1"
    assert doubled.deleted and "doubles to 2" in offer.text()
    assert offer.pinged == [mover] and {"take", "drop"} <= set(words) and not {"double", "roll"} & set(words)
    assert "not your turn" in wrong_side.text()
    assert dropped.deleted and final.id != offer.id
    assert final.pinged == [] and final.custom_ids() == ["pbm:r:1"] and "won" in final.text()
    assert row.status == "finished"


async def test_druids_walk_steps_through_discord(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3"):
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5 -walk")
        await table.move_and_wait(w.alice, "c1")
        await table.move_and_wait(w.bob, "a3")
        blocked = await table.move(w.alice, "n")
        await table.move_and_wait(w.alice, "c2")
        await table.move_and_wait(w.bob, "e5")
        steps = await fake.autocomplete(w.alice, table.thread.id, "move", {"move": "n"}, "move")
        stepped = await table.move_and_wait(w.alice, "n")
    assert blocked.ephemeral and "bare ground" in blocked.text()
    assert [c["value"] for c in steps] == ["n"]
    assert "alice played n" in stepped.text() and "C2" in stepped.text() and stepped.pinged == [w.bob]


async def test_a_four_player_drogo_game_waits_for_every_acceptance(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    dave = await fake.add_member(w.guild, "dave")
    async with pbm_running(fake, tmp_path / "pbm.sqlite3"):
        posted = await challenge(fake, w.channel, w.alice, "drogo", w.bob, w.carol, dave)
        answers = [await fake.reply(await fake.click(u, posted, "pbm:c:1:accept")) for u in (w.bob, dave)]
        threads_before_last = len(fake.threads)
        await fake.reply(await fake.click(w.carol, posted, "pbm:c:1:accept"))
        thread = await fake.wait_for(lambda: next(iter(fake.threads.values()), None), what="thread")
        opening = await fake.wait_for(lambda: fake.channel_log(thread.id), what="opening board")
    assert sorted(posted.pinged) == sorted([w.bob, w.carol, dave])
    assert answers[0].text() == "bob accepted challenge 1; waiting for carol, dave"
    assert answers[1].text() == "dave accepted challenge 1; waiting for carol"
    assert threads_before_last == 0
    assert sorted(thread.members) == sorted([w.alice, w.bob, w.carol, dave])
    assert opening[0].pinged == [w.alice] and "Drogo game 1 started: alice, bob, carol, dave" in opening[0].text()


async def test_bots_and_bad_options_are_refused_before_anything_is_posted(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    robot = await fake.add_member(w.guild, "robot", bot=True)
    tries = [
        {"game": "druid", "opponent": robot},
        {"game": "druid", "opponent": w.alice},
        {"game": "druid", "opponent": w.bob, "opponent2": w.bob},
        {"game": "druid", "opponent": w.bob, "options": "-bogus"},
        {"game": "druid", "opponent": w.bob, "options": "-size=99"},
        {"game": "druid", "opponent": w.bob, "options": "'-size=5"},
        {"game": "backgammon", "opponent": w.bob, "opponent2": w.carol},
    ]
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        answers = [(await fake.reply(await fake.slash(w.alice, w.channel, "challenge", t))).text() for t in tries]
        challenges = await bot.actions.store.open_challenges()
    assert answers == [
        "other bots cannot play; challenge a person, or me for a computer opponent",
        "a player cannot be challenged twice, nor challenge themself",
        "a player cannot be challenged twice, nor challenge themself",
        "unknown option -bogus (this game knows: -size=n, -hex, -walk, -nostack, -nogaps, -y)",
        "option -size=99 is out of range (3..26)",
        "cannot read the options: No closing quotation",
        "Backgammon is played by exactly 2 players, not 3",
    ]
    assert fake.channel_log(w.channel) == [] and fake.threads == {} and challenges == []


def test_create_bot_changes_nothing_until_login(tmp_path: Path) -> None:
    before = discord.http.Route.BASE
    first = create_bot(Config(token="a", db_path=tmp_path / "a.sqlite3", api_base="http://127.0.0.1:1/api/v10"))
    second = create_bot(Config(token="b", db_path=tmp_path / "b.sqlite3", guild_id=5))
    assert before == discord.http.Route.BASE
    assert first is not second and first.config.guild_id is None and second.config.guild_id == 5
    assert first.intents.value == discord.Intents.default().value
    assert not (tmp_path / "a.sqlite3").exists() and not (tmp_path / "b.sqlite3").exists()


async def test_a_spectator_with_closed_dms_is_mentioned_instead(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    fake.close_dms(w.carol)
    async with pbm_running(fake, tmp_path / "pbm.sqlite3"):
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        await fake.reply(await fake.slash(w.carol, w.channel, "watch", {"game": 1, "by": "dm"}))
        first = await table.move_and_wait(w.alice, "c3")
        await fake.wait_for(
            lambda: any(r.route == "POST /channels/{channel_id}/messages" and r.status == 403 for r in fake.requests),
            what="refused DM",
        )
        second = await table.move_and_wait(w.bob, "d4")
    assert first.pinged == [w.bob] and fake.dms(w.carol) == []
    assert sorted(second.pinged) == sorted([w.alice, w.carol])


async def test_only_the_challenger_can_withdraw_a_challenge(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        posted = await challenge(fake, w.channel, w.alice, "druid", w.bob)
        by_bob = await fake.reply(await fake.click(w.bob, posted, "pbm:c:1:withdraw"))
        by_carol = await fake.reply(await fake.click(w.carol, posted, "pbm:c:1:withdraw"))
        by_alice = await fake.reply(await fake.click(w.alice, posted, "pbm:c:1:withdraw"))
        await fake.wait_for(lambda: posted.components == [], what="buttons removed")
        row = await bot.actions.store.load_challenge(1)
    assert by_bob.ephemeral and by_bob.text() == "only alice can cancel challenge 1"
    assert by_carol.text() == "only alice can cancel challenge 1"
    assert by_alice.ephemeral and row.status == "cancelled" and fake.threads == {}


async def test_replay_posts_an_animated_gif_and_the_game_over_button_does_too(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3"):
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        await table.move_and_wait(w.alice, "c3")
        await table.move_and_wait(w.bob, "d4")
        replay = await fake.reply(await fake.slash(w.carol, table.thread.id, "replay"))
        wrong = await fake.followup(await fake.slash(w.carol, table.thread.id, "replay", {"start": 1, "end": 9}))
        await fake.reply(await fake.slash(w.alice, table.thread.id, "resign"))
        final = table.last_post()
        pressed = await fake.reply(await fake.click(w.carol, final, "pbm:r:1"))
    assert not replay.ephemeral and replay.text().startswith("Druid game 1, moves 0 to 2")
    assert [a.filename for a in replay.attachments] == ["druid-1-replay.gif"]
    assert replay.attachments[0].data.startswith(b"GIF89a")
    assert wrong.ephemeral and "choose a range inside it" in wrong.text()
    assert final.custom_ids() == ["pbm:r:1", "pbm:3d:1"]
    assert pressed.attachments and pressed.attachments[0].data.startswith(b"GIF89a")
