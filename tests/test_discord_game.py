"""The pbm bot end to end through the fake Discord: challenges, the game thread, moves, buttons, and a full game."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tests.fakediscord.pbm import pbm_running, start_game

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]


async def test_a_challenge_pings_the_challenged_and_only_they_can_accept(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3"):
        interaction = await fake.slash(w.alice, w.channel, "challenge", {"game": "druid", "opponent": w.bob})
        reply = await fake.reply(interaction)
        posted = await fake.wait_for(lambda: fake.channel_log(w.channel), what="challenge")
        challenge = posted[-1]
        buttons = challenge.custom_ids()
        stranger = await fake.reply(await fake.click(w.carol, challenge, "pbm:c:1:accept"))
        accepted = await fake.reply(await fake.click(w.bob, challenge, "pbm:c:1:accept"))
        thread = await fake.wait_for(lambda: next(iter(fake.threads.values()), None), what="thread")
        opening = await fake.wait_for(lambda: fake.channel_log(thread.id), what="opening board")
        edited = await fake.wait_for(lambda: challenge.components == [] and challenge, what="challenge closed")
    assert reply.ephemeral and reply.text() == "Challenge 1 posted."
    assert challenge.pinged == [w.bob] and "alice (1000?) challenges bob (1000?) to Druid" in challenge.text()
    assert buttons == ["pbm:c:1:accept", "pbm:c:1:decline", "pbm:c:1:withdraw"]
    assert stranger.ephemeral and stranger.text() == "challenge 1 is not addressed to you"
    assert accepted.ephemeral and f"<#{thread.id}>" in accepted.text()
    assert thread.parent_id == w.channel and sorted(thread.members) == sorted([w.alice, w.bob])
    assert "Game 1 started." in edited.text()
    assert opening[0].pinged == [w.alice] and "Druid game 1 started: alice, bob" in opening[0].text()


async def test_a_declined_challenge_closes_without_a_game(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3"):
        await fake.reply(await fake.slash(w.alice, w.channel, "challenge", {"game": "druid", "opponent": w.bob}))
        challenge = fake.channel_log(w.channel)[-1]
        answer = await fake.reply(await fake.click(w.bob, challenge, "pbm:c:1:decline"))
        await fake.wait_for(lambda: challenge.components == [], what="buttons removed")
    assert answer.text() == "bob declined challenge 1"
    assert "bob declined challenge 1" in challenge.text()
    assert challenge.components == [] and fake.threads == {}


async def test_an_illegal_move_is_refused_privately_and_changes_nothing(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        posts = len(w.fake.channel_log(table.thread.id))
        wrong_turn = await table.move(w.bob, "a1")
        off_board = await table.move(w.alice, "z9")
        shown = await bot.actions.show(1)
    assert wrong_turn.ephemeral and "not your turn" in wrong_turn.text().lower()
    assert off_board.ephemeral and "z9" in off_board.text()
    assert len(w.fake.channel_log(table.thread.id)) == posts
    assert shown.move_number == 0


async def test_a_move_posts_one_board_message_pinging_only_the_next_player(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3"):
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        choices = await w.fake.autocomplete(w.alice, table.thread.id, "move", {"move": "c"}, "move")
        reply = await table.move(w.alice, "c3")
        turn = table.last_post()
    assert [c["value"] for c in choices][:3] == ["c1", "c2", "c3"] and len(choices) <= 25
    assert reply.ephemeral and reply.deleted  # the turn in the thread is the answer: no private "done"
    assert "alice played c3" in turn.text() and turn.pinged == [w.bob]
    assert [a.filename for a in turn.attachments] == ["druid-1.png"]
    assert turn.attachments[0].data.startswith(b"\x89PNG")


async def test_a_strangers_button_press_is_refused_and_a_double_click_applies_once(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        opening = table.last_post()
        button = next(c for c in opening.custom_ids() if c.endswith(":pass"))
        stranger = await w.fake.reply(await w.fake.click(w.carol, opening, button))
        first = await w.fake.reply(await w.fake.click(w.alice, opening, button))
        second = await w.fake.reply(await w.fake.click(w.alice, opening, button))
        history = await bot.actions.history(1)
    assert stranger.ephemeral and stranger.text() == "carol is not playing in game 1"
    assert first.deleted
    assert second.ephemeral and "the board has changed since you looked" in second.text()
    assert [line.split(": ", 1)[1] for line in history.items] == ["pass"]


async def test_a_full_backgammon_game_through_discord(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(w.fake, w.channel, "backgammon", [w.alice, w.bob])
        plies = 0
        while (player := table.to_move()) is not None and plies < 200:
            choices = await w.fake.autocomplete(player, table.thread.id, "move", {"move": ""}, "move")
            await table.move_and_wait(player, choices[0]["value"])
            plies += 1
        final = table.last_post()
        history = await w.fake.reply(await w.fake.slash(w.carol, table.thread.id, "history"))
        row = await bot.actions.store.load_game(1)
    assert row.status == "finished" and plies > 10
    assert "won" in final.text() and final.pinged == []
    assert history.text().startswith("Backgammon game 1: alice, bob") or history.attachments


async def test_a_three_player_game_starts_when_everyone_has_accepted(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3"):
        values = {"game": "druid", "opponent": w.bob, "opponent2": w.carol, "options": "-hex"}
        await fake.reply(await fake.slash(w.alice, w.channel, "challenge", values))
        challenge = fake.channel_log(w.channel)[-1]
        first = await fake.reply(await fake.click(w.bob, challenge, "pbm:c:1:accept"))
        threads_after_first = len(fake.threads)
        await fake.reply(await fake.click(w.carol, challenge, "pbm:c:1:accept"))
        thread = await fake.wait_for(lambda: next(iter(fake.threads.values()), None), what="thread")
    assert sorted(challenge.pinged) == sorted([w.bob, w.carol])
    assert first.text() == "bob accepted challenge 1; waiting for carol" and threads_after_first == 0
    assert sorted(thread.members) == sorted([w.alice, w.bob, w.carol])


async def test_help_games_and_history_answer_privately(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3"):
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        await table.move_and_wait(w.alice, "c3")
        rules = await fake.reply(await fake.slash(w.carol, w.channel, "help", {"game": "druid"}))
        games = await fake.reply(await fake.slash(w.bob, w.channel, "games", {"waiting": True}))
        history = await fake.reply(await fake.slash(w.carol, w.channel, "history", {"game": 1}))
        nowhere = await fake.reply(await fake.slash(w.alice, w.channel, "move", {"move": "d4"}))
        suggestions = await fake.autocomplete(w.bob, w.channel, "move", {"move": "", "game": ""}, "game")
    assert rules.ephemeral and "Druid" in rules.text() and "Options" in rules.text()
    assert games.ephemeral and "druid 1: move 1, alice, bob: bob's turn" in games.text()
    assert history.ephemeral and "1. alice: c3" in history.text()
    assert nowhere.text().startswith("which game?")
    assert [c["value"] for c in suggestions] == [1]


async def test_backgammon_manual_mode_brings_roll_and_double_buttons(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3"):
        table = await start_game(w.fake, w.channel, "backgammon", [w.alice, w.bob])
        mover = table.to_move()
        assert mover is not None
        waiting = w.bob if mover == w.alice else w.alice
        manual = await w.fake.reply(await w.fake.slash(waiting, table.thread.id, "manual"))
        choices = await w.fake.autocomplete(mover, table.thread.id, "move", {"move": ""}, "move")
        turn = await table.move_and_wait(mover, choices[0]["value"])
        buttons = [c.rsplit(":", 1)[1] for c in turn.custom_ids()]
        rolled = await w.fake.reply(
            await w.fake.click(waiting, turn, next(c for c in turn.custom_ids() if c.endswith(":roll")))
        )
        after = table.last_post()
    assert manual.deleted
    assert turn.pinged == [waiting] and buttons == ["greedy", "manual", "roll", "double"]
    assert rolled.deleted and "roll" in after.text().lower()
