"""Per-member limits per server (issue 29) through the fake Discord: open challenges sent, running games (on
challenging and on accepting), games against the bot, the tournaments limit kept for later; identical pending
challenges merged into the first; the command rate per member (a burst passes, a flood is answered "slow down",
every interaction answered, the fake clock moved instead of waiting); and the console, which has no server, has no
limits. Counts on both databases."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from bot.actions import Actions
from bot.actions.limits import CommandRate, slow_down
from bot.actions.settings import ServerSettings
from data.store import Store
from tests.databases import Databases
from tests.fakediscord.pbm import FakeClock, challenge, pbm_running

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World
    from tests.fakediscord.records import Message
    from tests.fakediscord.server import FakeDiscord

pytest_plugins = ["tests.fakediscord.fixtures"]

GUILD, OTHER = 11, 12


async def set_limits(fake: FakeDiscord, mod: int, channel: int, **values: int) -> Message:
    return await fake.reply(await fake.slash(mod, channel, "settings limits", values))


async def test_open_challenges_are_limited_and_withdrawing_one_frees_a_place(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    fake = w.fake
    mod = await fake.add_member(w.guild, "mod", permissions=("manage_guild",))
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        changed = await set_limits(fake, mod, w.channel, open_challenges=2)
        first = await challenge(fake, w.channel, w.alice, "druid", w.bob)
        await challenge(fake, w.channel, w.alice, "drogo", w.bob)
        before = len(fake.channel_log(w.channel))
        third = await fake.reply(
            await fake.slash(w.alice, w.channel, "challenge", {"game": "dragons", "opponent": w.bob})
        )
        posted_after_refusal = len(fake.channel_log(w.channel))
        others = await challenge(fake, w.channel, w.bob, "druid", w.alice)  # the limit is each member's
        await fake.reply(await fake.click(w.alice, first, "pbm:c:1:withdraw"))
        freed = await challenge(fake, w.channel, w.alice, "dragons", w.bob)
        open_now = await bot.actions.store.open_challenges_sent(w.guild, "alice", bot.clock())
    assert changed.content == "Limits per member now: 2 open challenges waiting for an answer."
    assert third.ephemeral and third.content == (
        "you have 2 open challenges waiting for an answer in this server, the most it allows: withdraw one, or wait"
        " until one is answered or expires, to make another"
    )
    assert posted_after_refusal == before
    assert "challenge 3" in others.content and "challenge 4" in freed.content
    assert open_now == 2


async def test_running_games_are_limited_when_challenging_and_when_accepting(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    fake = w.fake
    mod = await fake.add_member(w.guild, "mod", permissions=("manage_guild",))
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        await set_limits(fake, mod, w.channel, running_games=1)
        posted = await challenge(fake, w.channel, w.alice, "druid", w.bob, options="-size=5")
        await fake.reply(await fake.click(w.bob, posted, "pbm:c:1:accept"))
        await fake.wait_for(lambda: fake.threads, what="game thread")
        refused = await fake.reply(
            await fake.slash(w.alice, w.channel, "challenge", {"game": "druid", "opponent": w.carol})
        )
        by_carol = await challenge(fake, w.channel, w.carol, "druid", w.bob)
        not_accepted = await fake.reply(await fake.click(w.bob, by_carol, "pbm:c:2:accept"))
        challenge_row = await bot.actions.store.load_challenge(2)
    line = "you have 1 running game in this server, the most it allows: finish or resign one to start another"
    assert refused.content == line and not_accepted.content == line
    assert (challenge_row.status, challenge_row.accepted) == ("open", ["carol"])
    assert "Game" not in by_carol.content.splitlines()[-1]


async def test_games_against_the_bot_are_limited(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    mod = await fake.add_member(w.guild, "mod", permissions=("manage_guild",))
    me = fake.application_id
    values = {"game": "druid", "opponent": me, "options": "-size=5"}
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        await set_limits(fake, mod, w.channel, computer_games=1)
        started = await fake.reply(await fake.slash(w.alice, w.channel, "challenge", values))
        refused = await fake.reply(await fake.slash(w.alice, w.channel, "challenge", values))
        person = await challenge(fake, w.channel, w.alice, "druid", w.bob)
        shown = await fake.reply(await fake.slash(mod, w.channel, "settings show"))
        games = await bot.actions.store.games_of("alice")
    assert "Druid game 1 started: alice, ai:2" in started.content
    assert refused.content == (
        "you have 1 running game against me in this server, the most it allows: finish or resign one of them to"
        " start another"
    )
    assert "challenge 2" in person.content  # only games against the bot count
    assert len(games) == 1
    assert (
        "- limits per member: 10 open challenges waiting for an answer, 100 running games, 1 running game against"
        " me, 2 tournaments organised" in shown.content
    )


async def test_the_same_challenge_sent_twice_is_answered_by_the_first(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    values = {"game": "druid", "opponent": w.bob, "options": "-size=5"}
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        await challenge(fake, w.channel, w.alice, "druid", w.bob, options="-size=5")
        again = await fake.reply(await fake.slash(w.alice, w.channel, "challenge", values))
        other_size = await challenge(fake, w.channel, w.alice, "druid", w.bob, options="-size=6")
        offered = await fake.reply(await fake.slash(w.carol, w.channel, "challenge", {"game": "drogo"}))
        offered_again = await fake.reply(await fake.slash(w.carol, w.channel, "challenge", {"game": "drogo"}))
        rows = await bot.actions.store.open_challenges()
    assert again.ephemeral and again.content == (
        "you already challenged bob to Druid (-size=5): challenge 1 is waiting"
    )
    assert "challenge 2" in other_size.content
    assert offered.content.startswith("Challenge 3 posted")
    assert offered_again.content == "you already offered a game of Drogo: challenge 3 is waiting for players"
    assert [r.id for r in rows] == [1, 2, 3]
    assert len(fake.channel_log(w.channel)) == 3


async def test_a_flood_of_challenges_makes_one_and_is_told_to_slow_down(discord_world: World, tmp_path: Path) -> None:
    """The issue's flood: 50 /challenge at bob at once. One challenge is posted (one public message pinging bob);
    the next nine are answered with the first, and the forty beyond the burst are told to slow down; every one is
    answered, privately. Once the fake clock has moved on, commands pass again."""
    w = discord_world
    fake = w.fake
    clock = FakeClock(1_800_000_000.0)
    values = {"game": "druid", "opponent": w.bob}
    async with pbm_running(fake, tmp_path / "pbm.sqlite3", clock=clock, command_burst=10, command_seconds=2.0):
        sent = [await fake.slash(w.alice, w.channel, "challenge", values) for _ in range(50)]
        answers = await asyncio.gather(*(fake.reply(i, timeout=30) for i in sent))
        others = await fake.reply(await fake.slash(w.carol, w.channel, "challenges"))
        still = await fake.reply(await fake.slash(w.alice, w.channel, "challenges"))
        clock.now += 2.0
        later = await fake.reply(await fake.slash(w.alice, w.channel, "challenges"))
        suggested = await fake.autocomplete(w.alice, w.channel, "move", {"move": ""}, focused="move")
    texts = [a.content for a in answers]
    assert all(a.ephemeral for a in answers)
    assert texts.count("Challenge 1 posted.") == 1
    assert texts.count("you already challenged bob to Druid: challenge 1 is waiting") == 9
    assert texts.count("slow down: you sent many commands in a short time; try again in 2 seconds") == 40
    public = fake.channel_log(w.channel)
    assert len(public) == 1 and public[0].pinged == [w.bob]
    assert others.content == "no open challenges"  # another member is not slowed down by alice
    assert still.content.startswith("slow down")
    assert later.content == "no open challenges"
    assert suggested == []  # autocomplete is no command: it is answered, and not counted


def test_the_command_rate_is_a_burst_then_one_command_every_interval() -> None:
    clock = FakeClock(0.0)
    rate = CommandRate(clock, burst=3, seconds=2.0)
    burst = [rate.wait("alice") for _ in range(3)]
    over = rate.wait("alice")
    clock.now = 1.0
    half = rate.wait("alice")
    clock.now = 2.0
    whole = rate.wait("alice")
    clock.now = 100.0
    rested = [rate.wait("alice") for _ in range(4)]
    assert burst == [0.0, 0.0, 0.0] and over == 2.0 and half == 1.0 and whole == 0.0
    assert rested == [0.0, 0.0, 0.0, 2.0]  # a long rest fills the bucket, never beyond the burst
    assert rate.wait("bob") == 0.0
    assert [slow_down(0.2), slow_down(1.0), slow_down(2.5)] == [
        "slow down: you sent many commands in a short time; try again in 1 second",
        "slow down: you sent many commands in a short time; try again in 1 second",
        "slow down: you sent many commands in a short time; try again in 3 seconds",
    ]


async def test_the_counts_are_per_server_and_member_on_both_databases(databases: Databases) -> None:
    async with await Store.open(await databases.target()) as store:
        actions = Actions(store, seed_source=lambda: 7, clock=lambda: 1_000_000.0, think=None)
        settings = ServerSettings(limits={"open_challenges": 2, "running_games": 2, "computer_games": 1})
        made = [
            await actions.challenge_in_server(settings, GUILD, 1, "druid", ["alice", other], [])
            for other in ("bob", "carol")
        ]
        third = await actions.challenge_in_server(settings, GUILD, 1, "druid", ["alice", "dave"], [])
        elsewhere = await actions.challenge_in_server(settings, OTHER, 1, "druid", ["alice", "dave"], [])
        await actions.accept(1, "bob")
        computer = await actions.challenge_in_server(settings, GUILD, 1, "druid", ["alice", "ai:1"], ["-size=5"])
        await actions.accept(computer.challenge_id or 0, "ai:1")
        full = await actions.may_join(settings, GUILD, "alice")
        counts = (
            await store.running_games_in(GUILD, "alice"),
            await store.running_games_in(GUILD, "alice", with_computer=True),
            await store.running_games_in(OTHER, "alice"),
            await store.open_challenges_sent(GUILD, "alice", 1_000_000.0),
            await store.open_challenges_sent(GUILD, "ali", 1_000_000.0),
        )
        withdrawn = [row.id for row in await store.member_challenges("carol", GUILD, named=True)]
        sent_by_carol = await store.member_challenges("carol", GUILD)
    assert all(r.ok for r in made) and elsewhere.ok and computer.ok
    assert third.message.startswith("you have 2 open challenges waiting for an answer in this server")
    assert counts == (2, 1, 0, 1, 0)
    assert full == "you have 2 running games in this server, the most it allows: finish or resign one to start another"
    assert withdrawn == [2] and sent_by_carol == []


def test_the_console_has_no_server_and_no_limits(tmp_path: Path) -> None:
    """Twelve open challenges from one console player: the console is the operator's own tool."""
    from bot.cli import main

    db = tmp_path / "pbm.sqlite3"
    codes = [main(["do", "--db", str(db), "druid challenge alice open"]) for _ in range(12)]
    assert codes == [0] * 12
