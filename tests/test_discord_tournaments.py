"""Tournaments through the fake Discord: /tournament create, joins by several members, the start, a thread per game
with its players pinged, a round played to its end and the next round's threads, the standings picture, a
cancellation by a server admin; one thread per round when a round is big; the signup's close starting it from the
sweep; the organiser's limit; and a bot restarted between rounds, which creates the next round exactly once."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tests.fakediscord.pbm import FakeClock, pbm_running
from tests.fakediscord.records import Message, Thread

if TYPE_CHECKING:
    from bot.discord import PbmBot
    from tests.fakediscord.fixtures import World
    from tests.fakediscord.server import FakeDiscord

pytest_plugins = ["tests.fakediscord.fixtures"]


async def command(fake: FakeDiscord, user: int, channel: int, sub: str, values: dict[str, object]) -> Message:
    """``/tournament <sub>`` and its reply."""
    return await fake.reply(await fake.slash(user, channel, f"tournament {sub}", values), timeout=20)


def threads_of(fake: FakeDiscord, channel: int) -> list[Thread]:
    return [t for t in fake.threads.values() if t.parent_id == channel]


async def members(w: World, *names: str) -> dict[str, int]:
    """The world's members and ``names`` added: player name to user id."""
    ids = {"alice": w.alice, "bob": w.bob, "carol": w.carol}
    for name in names:
        ids[name] = await w.fake.add_member(w.guild, name)
    return ids


async def resign_to_move(bot: PbmBot, fake: FakeDiscord, ids: dict[str, int], game_id: int) -> None:
    """The player to move in a game resigns with /resign in its thread; waits for the final turn posted there."""
    shown = await bot.actions.show(game_id)
    assert shown.to_move is not None
    row = await bot.actions.store.load_game(game_id)
    assert row.thread_id is not None
    before = len(fake.channel_log(row.thread_id))
    await fake.reply(await fake.slash(ids[shown.to_move], row.thread_id, "resign", {"game": game_id}), timeout=20)
    await fake.wait_for(lambda: len(fake.channel_log(row.thread_id)) > before, 20, f"game {game_id}'s last turn")


async def test_a_swiss_made_joined_started_played_and_cancelled_in_discord(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    fake = w.fake
    ids = await members(w, "dave")
    erin = await fake.add_member(w.guild, "erin", permissions=("manage_guild",))
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        values = {"game": "druid", "format": "swiss", "options": "-size=5", "rounds": 2}
        made = await command(fake, w.alice, w.channel, "create", values)
        announced = fake.channel_log(w.channel)[-1]
        joins = [await command(fake, uid, w.channel, "join", {"tournament": 1}) for uid in ids.values()]
        twice = await command(fake, w.bob, w.channel, "join", {"tournament": 1})
        early = await command(fake, w.bob, w.channel, "start", {"tournament": 1})
        started = await command(fake, w.alice, w.channel, "start", {"tournament": 1})
        first = await fake.wait_for(lambda: len(threads_of(fake, w.channel)) == 2 and threads_of(fake, w.channel))
        await fake.wait_for(lambda: all(fake.channel_log(t.id) for t in first), what="round 1's boards")
        openings = [fake.channel_log(t.id)[0] for t in first]
        for game_id in (1, 2):
            await resign_to_move(bot, fake, ids, game_id)
        second = await fake.wait_for(lambda: len(threads_of(fake, w.channel)) == 4 and threads_of(fake, w.channel)[2:])
        await fake.wait_for(lambda: all(fake.channel_log(t.id) for t in second), what="round 2's boards")
        picture = await fake.wait_for(
            lambda: next((m for m in fake.channel_log(w.channel) if m.attachments), None), what="standings picture"
        )
        asked = await command(fake, w.carol, w.channel, "standings", {"tournament": 1})
        refused = await command(fake, w.bob, w.channel, "cancel", {"tournament": 1})
        cancelled = await command(fake, erin, w.channel, "cancel", {"tournament": 1, "reason": "the club closes"})
        await fake.wait_for(lambda: "cancelled" in fake.channel_log(second[-1].id)[-1].text(), 20, "game cancelled")
        channel = [m.text() for m in fake.channel_log(w.channel)]
        row = await bot.actions.store.load_tournament(1)
        games = [await bot.actions.store.load_game(n) for n in (1, 2, 3, 4)]
    assert made.ephemeral and made.text() == f"Tournament 1 posted in <#{w.channel}>."
    assert announced.text() == (
        "alice organises tournament 1: Druid (-size=5), Swiss of 2 rounds; 7 days per move; alice starts it\n"
        "Join with `/tournament join tournament:1`."
    )
    assert [j.text() for j in joins] == [
        "alice joined tournament 1 (1 player)",
        "bob joined tournament 1 (2 players)",
        "carol joined tournament 1 (3 players)",
        "dave joined tournament 1 (4 players)",
    ]
    assert twice.ephemeral and twice.text() == "you are in tournament 1 already"
    assert early.text() == "only alice, who organised tournament 1, or a moderator can do that"
    assert started.ephemeral and started.text() == "Tournament 1 has started: 4 players"
    assert channel[1].startswith("Tournament 1 has started: 4 players\nRound 1 of 2 of tournament 1: 2 games\n")
    for thread, opening, game in zip(first, openings, games[:2], strict=True):
        assert thread.name == f"Druid {game.id}: {' vs '.join(game.players)}"
        assert sorted(thread.members) == sorted(ids[p] for p in game.players)
        assert sorted(opening.pinged) == sorted(ids[p] for p in game.players)  # both players pinged
        assert f"Tournament 1, round 1, board {game.id}" in opening.text()
    assert any(text.startswith("Round 2 of 2 of tournament 1: 2 games") for text in channel)
    assert [a.filename for a in picture.attachments] == ["tournament-1.png"]
    assert picture.attachments[0].data.startswith(b"\x89PNG")
    assert asked.text().startswith("Tournament 1: Druid (-size=5), Swiss of 2 rounds") and not asked.ephemeral
    assert [a.filename for a in asked.attachments] == ["tournament-1.png"]
    assert refused.ephemeral and refused.text() == "only alice, who organised tournament 1, or a moderator can do that"
    assert cancelled.ephemeral and cancelled.text() == "Tournament 1 was cancelled by erin: the club closes"
    assert "Tournament 1 was cancelled by erin: the club closes\n2 running games ended without a result" in channel
    assert row.status == "cancelled"
    assert [g.status for g in games] == ["finished", "finished", "cancelled", "cancelled"]


async def test_a_big_round_shares_one_thread_with_every_player_in_it(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    ids = await members(w, *(f"p{k:02d}" for k in range(4, 19)))  # 18 players: 9 games a round
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        values = {"game": "druid", "format": "swiss", "options": "-size=5", "rounds": 1}
        await command(fake, w.alice, w.channel, "create", values)
        for name, uid in ids.items():
            await bot.actions.store.ensure_player(name, uid)
            assert (await bot.actions.join_tournament(1, name, guild_id=w.guild)).ok
        await command(fake, w.alice, w.channel, "start", {"tournament": 1})
        thread = await fake.wait_for(lambda: threads_of(fake, w.channel), what="the round's thread")
        await fake.wait_for(lambda: len(fake.channel_log(thread[0].id)) == 9, 30, "nine boards")
        rows = [await bot.actions.store.load_game(n) for n in range(1, 10)]
        in_thread = await bot.actions.store.game_by_thread(thread[0].id)
    assert [t.name for t in thread] == ["Tournament 1, round 1"]
    assert sorted(thread[0].members) == sorted(ids.values())
    assert {row.thread_id for row in rows} == {thread[0].id}
    assert in_thread is None  # several games: a command typed there names its game


async def test_the_signup_closing_starts_it_and_posts_round_one(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    clock = FakeClock()
    async with pbm_running(fake, tmp_path / "pbm.sqlite3", clock=clock) as bot:
        values = {"game": "druid", "format": "round-robin", "options": "-size=5", "signup_until": "2h"}
        await command(fake, w.alice, w.channel, "create", values)
        for uid in (w.alice, w.bob, w.carol):
            await command(fake, uid, w.channel, "join", {"tournament": 1})
        await bot.sweep()
        waiting = (await bot.actions.store.load_tournament(1)).status
        clock.now += 2 * 3600 + 1
        await bot.sweep()
        threads = await fake.wait_for(lambda: threads_of(fake, w.channel), what="round 1's thread")
        await fake.wait_for(lambda: fake.channel_log(threads[0].id), what="round 1's board")
        started = [m.text() for m in fake.channel_log(w.channel) if m.text().startswith("Tournament 1 has started")]
    assert waiting == "signup"
    assert started and started[0].splitlines()[:2] == [
        "Tournament 1 has started: 3 players",
        "Round 1 of 3 of tournament 1: 1 game",
    ]
    assert len(threads) == 1


async def test_the_tournaments_a_member_organises_are_limited(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        values = {"game": "druid", "format": "knock-out"}
        made = [await command(fake, w.alice, w.channel, "create", values) for _ in range(3)]
        _rows, total = await bot.actions.store.list_tournaments(guild_id=w.guild)
        others = await command(fake, w.bob, w.channel, "create", values)
    assert [m.text() for m in made[:2]] == [f"Tournament {n} posted in <#{w.channel}>." for n in (1, 2)]
    assert made[2].ephemeral and made[2].text() == (
        "you have 2 tournaments organised in this server, the most it allows: finish one to organise another"
    )
    assert total == 2  # the refused one was not made
    assert others.text() == f"Tournament 3 posted in <#{w.channel}>."


async def test_a_bot_restarted_between_rounds_pairs_the_next_round_once(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    ids = await members(w, "dave")
    db = tmp_path / "pbm.sqlite3"
    async with pbm_running(fake, db) as bot:
        await command(
            fake, w.alice, w.channel, "create", {"game": "druid", "format": "swiss", "options": "-size=5", "rounds": 2}
        )
        for uid in ids.values():
            await command(fake, uid, w.channel, "join", {"tournament": 1})
        await command(fake, w.alice, w.channel, "start", {"tournament": 1})
        await fake.wait_for(lambda: len(threads_of(fake, w.channel)) == 2, what="round 1's threads")
        await resign_to_move(bot, fake, ids, 1)
    async with pbm_running(fake, db) as bot:
        await resign_to_move(bot, fake, ids, 2)
        second = await fake.wait_for(lambda: threads_of(fake, w.channel)[2:], 20, "round 2's threads")
        await bot.sweep()
        await bot.sweep()
        links = await bot.actions.store.tournament_games(1)
        rounds = [m.text() for m in fake.channel_log(w.channel) if m.text().startswith("Round 2 of 2")]
    assert [(link.round, link.board) for link in links] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert len(second) == 2 and len(threads_of(fake, w.channel)) == 4
    assert len(rounds) == 1
