"""Sharding through the fake Discord: two bots in this one test process stand for two ``pbm run --shards`` processes
(shard 0 and shard 1 of 2) on one database. Each receives only its own guilds' events, posts what its players do,
DMs whoever must be told whichever process made the move, and of the two exactly one pushes the slash commands; the
sweep running in both at once sends each warning, timeout and reminder once. Also: one bot without shard ids runs
every shard the fake recommends, and ``pbm run``'s shard options refuse bad values in one line."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.cli import main
from bot.config import Config
from bot.discord import PbmBot
from data.store import Store
from tests.fakediscord.pbm import FakeClock, bot_config, pbm_running, start_game
from tests.fakediscord.runner import endpoints_pointed_at, running
from tests.fakediscord.server import FakeDiscord

DAY = 86400.0
#: a Wednesday noon, UTC, as in the correspondence tests: nobody's quiet hours
NOON = datetime(2026, 1, 7, 12, 0, tzinfo=UTC).timestamp()


@dataclass
class Shards:
    """A fake recommending 2 shards, a guild (with a #games channel) on each, and alice, bob and carol in both."""

    fake: FakeDiscord
    guilds: list[int]
    channels: list[int]
    alice: int
    bob: int
    carol: int
    #: per bot: the interactions it received and the REST routes it called (method, path, channel id, guild id)
    seen: dict[int, list[int]] = field(default_factory=dict)
    calls: dict[int, list[tuple[str, str, Any, Any]]] = field(default_factory=dict)


@pytest.fixture
async def shards() -> AsyncIterator[Shards]:
    fake = FakeDiscord(shards=2)
    await fake.start()
    try:
        with endpoints_pointed_at(fake):
            guilds = [await fake.add_guild(f"Guild {n}", shard=(n, 2)) for n in (0, 1)]
            channels = [await fake.add_channel(g, "games") for g in guilds]
            users = [await fake.add_member(guilds[0], name) for name in ("alice", "bob", "carol")]
            for user in users:
                fake.join(guilds[1], user)
            yield Shards(fake, guilds, channels, *users)
    finally:
        await fake.stop()


def watch(world: Shards, bot: PbmBot, shard: int) -> None:
    """Record the interactions ``bot`` receives and the REST calls it makes under ``shard``."""
    seen = world.seen.setdefault(shard, [])
    calls = world.calls.setdefault(shard, [])

    async def on_interaction(interaction: discord.Interaction) -> None:
        seen.append(interaction.id)

    bot.add_listener(on_interaction, "on_interaction")
    request = bot.http.request

    async def counting(route: discord.http.Route, **kwargs: Any) -> Any:
        calls.append((route.method, route.path, route.channel_id, route.guild_id))
        return await request(route, **kwargs)

    bot.http.request = counting  # type: ignore[method-assign]


@contextlib.asynccontextmanager
async def two_processes(
    world: Shards, db: Path, *, clock: FakeClock | None = None, **overrides: object
) -> AsyncIterator[tuple[PbmBot, PbmBot]]:
    """The bots of shard 0 and shard 1 (of 2) on ``db``, started one after the other, both connected."""
    async with (
        pbm_running(world.fake, db, clock=clock, shard_ids=(0,), shard_count=2, **overrides) as zero,
        pbm_running(world.fake, db, clock=clock, shard_ids=(1,), shard_count=2, **overrides) as one,
    ):
        await world.fake.wait_connected(shard=0)
        await world.fake.wait_connected(shard=1)
        watch(world, zero, 0)
        watch(world, one, 1)
        yield zero, one


def touched(calls: list[tuple[str, str, Any, Any]], channel_ids: set[int]) -> list[tuple[str, str, Any, Any]]:
    return [c for c in calls if c[2] is not None and int(c[2]) in channel_ids]


async def test_guild_events_reach_only_the_bot_of_the_shard_that_owns_the_guild(shards: Shards, tmp_path: Path) -> None:
    w = shards
    async with two_processes(w, tmp_path / "pbm.sqlite3") as (zero, one):
        added = [await w.fake.add_channel(g, "more") for g in w.guilds]
        await w.fake.wait_for(lambda: zero.get_channel(added[0]) and one.get_channel(added[1]), what="new channels")
        replies = [await w.fake.reply(await w.fake.slash(w.alice, c, "help")) for c in w.channels]
        sessions = {s.shard for s in w.fake.sessions}
    assert sessions == {(0, 2), (1, 2)}
    assert [g.id for g in zero.guilds] == [w.guilds[0]] and [g.id for g in one.guilds] == [w.guilds[1]]
    assert zero.get_channel(added[1]) is None and one.get_channel(added[0]) is None
    assert all("Games: backgammon, dragons, drogo, druid" in r.text() for r in replies)
    assert len(w.seen[0]) == 1 and len(w.seen[1]) == 1


async def test_a_game_in_a_guild_of_shard_1_is_played_and_posted_by_the_shard_1_bot(
    shards: Shards, tmp_path: Path
) -> None:
    w = shards
    fake = w.fake
    async with two_processes(w, tmp_path / "pbm.sqlite3") as (zero, one):
        table = await start_game(fake, w.channels[1], "druid", [w.alice, w.bob], options="-size=5")
        first = await table.move_and_wait(w.alice, "c3")
        second = await table.move_and_wait(w.bob, "d4")
        history = await zero.actions.history(1)  # the shared database: shard 0's process reads the game too
    thread = {table.thread.id, w.channels[1]}
    assert "alice played c3" in first.text() and first.pinged == [w.bob]
    assert "bob played d4" in second.text() and second.pinged == [w.alice]
    assert [line.split(": ", 1)[1] for line in history.items] == ["c3", "d4"]
    assert w.seen[0] == [] and len(w.seen[1]) == 4  # challenge, accept, two moves
    posts = [c for c in touched(w.calls[1], thread) if c[0] == "POST"]
    assert any(c[1] == "/channels/{channel_id}/messages" and c[2] == table.thread.id for c in posts)
    assert touched(w.calls[0], thread) == [] and not any(c[3] for c in w.calls[0])
    assert zero.get_guild(w.guilds[1]) is None and zero.get_channel(table.thread.id) is None
    assert one.get_channel(table.thread.id) is not None


async def test_a_turn_dm_goes_out_whichever_process_made_the_move(shards: Shards, tmp_path: Path) -> None:
    w = shards
    fake = w.fake
    async with two_processes(w, tmp_path / "pbm.sqlite3"):
        dm = fake.open_dm(w.bob)
        on = await fake.reply(await fake.slash(w.bob, dm, "notify", {"dm": "on"}))  # a DM: shard 0's
        seen_zero = len(w.seen[0])
        tables = [await start_game(fake, c, "druid", [w.alice, w.bob], options="-size=5") for c in w.channels]
        for table in tables:
            await table.move_and_wait(w.alice, "c3")
        await fake.wait_for(lambda: len(fake.dms(w.bob)) == 2, what="two turn DMs")
        dms = [m.text().splitlines()[0] for m in fake.dms(w.bob)]
    assert on.text() == "DMs about your turns are on." and seen_zero == 1 and w.seen[1][:1] != []
    assert sorted(dms) == ["Your move in game 1:", "Your move in game 2:"]
    for shard in (0, 1):
        sent = [c for c in w.calls[shard] if c[0] == "POST" and c[2] == dm]
        assert len(sent) == 1, (shard, w.calls[shard])  # each process DMed bob about the game it played


async def test_only_the_process_of_shard_0_pushes_the_slash_commands(shards: Shards, tmp_path: Path) -> None:
    w = shards
    db = tmp_path / "pbm.sqlite3"
    await (await Store.open(db)).close()  # as `pbm run` does before connecting: the schema is in place
    bots = [PbmBot(bot_config(w.fake, db, shard_ids=(n,), shard_count=2)) for n in (1, 0)]
    async with contextlib.AsyncExitStack() as stack:
        await asyncio.gather(*(stack.enter_async_context(running(b, w.fake)) for b in bots))
        await w.fake.wait_connected(shard=0)
        await w.fake.wait_connected(shard=1)
        reply = await w.fake.reply(await w.fake.slash(w.alice, w.channels[1], "help"))
    assert [b.synced for b in bots] == [False, True]
    assert len(w.fake.syncs) == 1 and "Games:" in reply.text()


async def test_two_processes_of_shard_0_started_together_push_the_commands_once(shards: Shards, tmp_path: Path) -> None:
    w = shards
    db = tmp_path / "pbm.sqlite3"
    await (await Store.open(db)).close()
    w.fake.delay("PUT /applications/{application_id}/commands", 0.3)  # a slow push: the second start comes meanwhile
    bots = [PbmBot(bot_config(w.fake, db, shard_ids=(0,), shard_count=2)) for _ in range(2)]
    async with contextlib.AsyncExitStack() as stack:
        await asyncio.gather(*(stack.enter_async_context(running(b, w.fake)) for b in bots))
        await w.fake.wait_for(lambda: all(b.synced is not None for b in bots), what="both set up")
    async with pbm_running(w.fake, db, shard_ids=(0,), shard_count=2) as later:
        pass
    assert sorted(b.synced for b in bots) == [False, True] and later.synced is False
    assert len(w.fake.syncs) == 1


async def test_the_sweep_in_both_processes_at_once_tells_each_warning_timeout_and_reminder_once(
    shards: Shards, tmp_path: Path
) -> None:
    w = shards
    fake = w.fake
    clock = FakeClock(NOON)
    async with two_processes(w, tmp_path / "pbm.sqlite3", clock=clock, reminder_interval=DAY) as (zero, one):
        timed = await start_game(fake, w.channels[1], "druid", [w.alice, w.bob], options="-size=5 -days=4")
        idle = await start_game(fake, w.channels[0], "druid", [w.alice, w.bob], options="-size=5 -untimed")
        before = {t.thread.id: len(fake.channel_log(t.thread.id)) for t in (timed, idle)}

        async def sweep_everywhere(rounds: int = 3) -> None:
            for _ in range(rounds):
                await asyncio.gather(zero.sweep(), one.sweep(), zero.sweep(), one.sweep())

        clock.now += 2 * DAY + 60  # half of alice's 4 days gone; the idle game is 2 days old: one reminder due
        await sweep_everywhere()
        clock.now += 2 * DAY  # alice's time is up; another reminder
        await sweep_everywhere()
        timed_posts = fake.channel_log(timed.thread.id)[before[timed.thread.id] :]
        idle_posts = fake.channel_log(idle.thread.id)[before[idle.thread.id] :]
        row = await one.actions.store.load_game(1)
    warnings = [m for m in timed_posts if "half your time is gone" in m.text()]
    timeouts = [m for m in timed_posts if "ran out of time" in m.text()]
    reminders = [m for m in idle_posts if "waiting for your move" in m.text()]
    assert len(warnings) == 1 and len(timeouts) == 1 and len(timed_posts) == 2, [m.text() for m in timed_posts]
    assert len(reminders) == 2 and len(idle_posts) == 2, [m.text() for m in idle_posts]
    assert row.status == "finished"


async def test_one_bot_without_shard_ids_runs_every_shard_discord_recommends(shards: Shards, tmp_path: Path) -> None:
    w = shards
    bot = PbmBot(bot_config(w.fake, tmp_path / "pbm.sqlite3"))

    async def at_once(shard_id: int, *, initial: bool = False) -> None:
        """Discord wants 5 s between two IDENTIFYs (discord.py waits them); the fake does not."""

    bot.before_identify_hook = at_once  # type: ignore[method-assign]
    async with running(bot, w.fake):
        replies = [await w.fake.reply(await w.fake.slash(w.alice, c, "help")) for c in w.channels]
        sessions = sorted(s.shard for s in w.fake.sessions if s.shard is not None)
    assert bot.shard_count == 2 and sessions == [(0, 2), (1, 2)]
    assert sorted(g.id for g in bot.guilds) == sorted(w.guilds)
    assert all("Games:" in r.text() for r in replies) and bot.synced is True


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (["--shards", "0,1"], {}, "needs PBM_SHARD_COUNT"),
        (["--shards", "0,4", "--shard-count", "4"], {}, "shard 4 does not exist"),
        (["--shards", "one", "--shard-count", "4"], {}, "--shards must list shard numbers"),
        (["--shard-count", "0"], {}, "--shard-count must be a whole number"),
        ([], {"PBM_SHARD_COUNT": "many"}, "PBM_SHARD_COUNT must be a whole number"),
        ([], {"PBM_SHARDS": "1,1", "PBM_SHARD_COUNT": "2"}, "PBM_SHARDS names a shard twice"),
    ],
)
def test_bad_shard_settings_are_one_line_and_exit_2(
    args: list[str], env: dict[str, str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    for name in ("PBM_SHARDS", "PBM_SHARD_COUNT"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("PBM_DB", str(tmp_path / "pbm.sqlite3"))
    code = main(["run", *args])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("pbm: ") and message in err and err.count("\n") == 1, err


def test_shard_settings_from_the_environment_and_the_command_line() -> None:
    config = Config.from_env({"PBM_DB": "x", "PBM_SHARDS": "0-1,3", "PBM_SHARD_COUNT": "4"})
    assert (config.shard_ids, config.shard_count, config.runs_shard_zero) == ((0, 1, 3), 4, True)
    flags = Config.from_env({"PBM_DB": "x", "PBM_SHARDS": "0"}, shard_ids=(2,), shard_count=3)
    assert (flags.shard_ids, flags.shard_count, flags.runs_shard_zero) == ((2,), 3, False)
    assert Config.from_env({"PBM_DB": "x"}).shard_ids is None and Config.from_env({"PBM_DB": "x"}).runs_shard_zero
