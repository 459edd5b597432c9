"""Server settings (issue 29): stored on SQLite and PostgreSQL, cached per process and seen at once by another
process on the same database, changed under their version so two moderators' changes both count, and each setting
through the fake Discord: the games channel (challenges elsewhere pointed to it, threads opened there, private
threads), default options, games offered, computer opponents, the role that may start games, ``/settings show``;
and ``/settings`` refused to a member without Manage Server, even in a crafted interaction."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from bot.actions import Actions
from bot.actions.settings import ServerSettings
from data.store import StaleWriteError, Store
from tests.databases import Databases
from tests.fakediscord.pbm import challenge, pbm_running

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World
    from tests.fakediscord.records import Message
    from tests.fakediscord.server import FakeDiscord

pytest_plugins = ["tests.fakediscord.fixtures"]

GUILD = 4242
DEFAULT_LINES = [
    "games live in: any channel, in public threads",
    "games offered: Backgammon, Dragons, Drogo, Druid",
    "default options: none",
    "computer opponents: on, up to level 3",
    "limits per member: 10 open challenges waiting for an answer, 100 running games, 3 running games against me,"
    " 2 tournaments organised",
    "who may start games: everyone",
]


def actions_on(store: Store) -> Actions:
    return Actions(store, seed_source=lambda: 7, clock=lambda: 1_000_000.0, think=None)


# ---- the store and the cache, on both databases ----------------------------------------------------------------


async def test_a_server_that_changed_nothing_has_the_defaults(databases: Databases) -> None:
    async with await Store.open(await databases.target()) as store:
        actions = actions_on(store)
        shown = await actions.show_settings(GUILD)
        console = await actions.server_settings(None)
        row = await store.server_settings(GUILD)
    assert shown.message == "Settings of this server:" and shown.items == DEFAULT_LINES
    assert console == ServerSettings()
    assert (row.version, row.data) == (0, {})


async def test_a_change_is_seen_at_once_by_another_process_and_the_cache_serves_until_then(
    databases: Databases,
) -> None:
    target = await databases.target()
    async with await Store.open(target) as first_store, await Store.open(target) as second_store:
        first, second = actions_on(first_store), actions_on(second_store)
        before = await first.server_settings(GUILD)
        cached = await first.server_settings(GUILD)
        changed = await second.set_channel(GUILD, "mod", 555, private=True)
        after = await first.server_settings(GUILD)
        again = await first.server_settings(GUILD)
        stored = await databases.execute(target, "SELECT version, updated_by FROM guild_settings")
    assert cached is before  # unchanged version: the cached object, not a new read
    assert changed.ok and changed.message == "Games live in channel 555 now, in private threads."
    assert (before.channel_id, after.channel_id, after.private_threads, after.version) == (None, 555, True, 1)
    assert again is after
    assert [tuple(r) for r in stored] == [(1, "mod")]


async def test_two_moderators_changing_settings_at_once_both_get_their_change(databases: Databases) -> None:
    target = await databases.target()
    async with await Store.open(target) as first_store, await Store.open(target) as second_store:
        first, second = actions_on(first_store), actions_on(second_store)
        await first.server_settings(GUILD)
        await second.server_settings(GUILD)
        limits, computer = await asyncio.gather(
            first.set_limits(GUILD, "mod1", {"open_challenges": 4}), second.set_computer(GUILD, "mod2", False, 2)
        )
        settings = await first.server_settings(GUILD)
        with pytest.raises(StaleWriteError):
            await first_store.save_server_settings(GUILD, {}, expected_version=1, by="late")
        audit, total = await first_store.audit_log(GUILD)
    assert limits.ok and limits.message == "Limits per member now: 4 open challenges waiting for an answer."
    assert computer.ok and computer.message == "Computer opponents are off in this server now (games under way go on)."
    assert (settings.limit("open_challenges"), settings.computer, settings.computer_level, settings.version) == (
        4,
        False,
        2,
        2,
    )
    assert total == 2 and {row.action for row in audit} == {"settings"}
    assert {row.moderator for row in audit} == {"mod1", "mod2"}


async def test_settings_stored_by_a_newer_pbm_keep_what_this_one_does_not_know(databases: Databases) -> None:
    target = await databases.target()
    async with await Store.open(target) as store:
        await store.save_server_settings(
            GUILD,
            {"queue": {"share": 3}, "computer_level": 9, "limits": {"running_games": -4}},
            expected_version=0,
            by="x",
        )
        actions = actions_on(store)
        read = await actions.server_settings(GUILD)
        await actions.set_role(GUILD, "mod", 77)
        kept = await store.server_settings(GUILD)
    assert (read.computer_level, read.limit("running_games")) == (3, 100)  # values that do not read: the defaults
    assert kept.data["queue"] == {"share": 3} and kept.data["role"] == 77


async def test_default_options_are_checked_as_a_challenges_are(tmp_path: Path) -> None:
    async with await Store.open(tmp_path / "pbm.sqlite3") as store:
        actions = actions_on(store)
        too_big = await actions.set_defaults(GUILD, "mod", "druid", "-size=99")
        seats = await actions.set_defaults(GUILD, "mod", "druid", "-rating_min=1200")
        loose = await actions.set_defaults(GUILD, "mod", "druid", "size=8")
        clock = await actions.set_defaults(GUILD, "mod", "druid", "-days=99")
        unknown = await actions.set_defaults(GUILD, "mod", "chess", "-days=3")
        unchanged = await actions.server_settings(GUILD)
        made = await actions.set_defaults(GUILD, "mod", "druid", "-days=3 -hex")
        cleared = await actions.set_defaults(GUILD, "mod", "druid", "")
        limit = await actions.set_limits(GUILD, "mod", {"open_challenges": 0})
        nothing = await actions.set_limits(GUILD, "mod", {"open_challenges": None})
        level = await actions.set_computer(GUILD, "mod", None, 5)
    assert [r.ok for r in (too_big, seats, loose, clock, unknown)] == [False] * 5
    assert too_big.message == "option -size=99 is out of range (3..26)"
    assert seats.message == "a rating range is chosen with each open challenge; it cannot be a default"
    assert loose.message == "options start with '-': 'size=8' is not an option"
    assert clock.message == "option -days=99 is out of range (1..30)"
    assert unknown.message.startswith("unknown game 'chess'")
    assert unchanged.version == 0 and unchanged.defaults == {}
    assert made.message == "Druid challenges start with -days=3 -hex now, unless the challenger gives those options."
    assert cleared.message == "Druid challenges have no default options now."
    assert limit.message == "open_challenges is 1 to 100, not 0"
    assert nothing.message.startswith("give a new value for at least one limit")
    assert level.message == "the computer's levels are 1 (easy) to 3 (hard), not 5"


# ---- through the fake Discord ------------------------------------------------------------------------------


async def settings_reply(fake: FakeDiscord, user: int, channel: int, sub: str, values: dict[str, object]) -> Message:
    answer = await fake.reply(await fake.slash(user, channel, f"settings {sub}", values))
    assert answer.ephemeral, answer.content
    return answer


async def test_the_games_channel_points_challenges_there_and_opens_private_threads_in_it(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    fake = w.fake
    mod = await fake.add_member(w.guild, "mod", permissions=("manage_guild",))
    lobby = await fake.add_channel(w.guild, "lobby")
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        set_it = await settings_reply(fake, mod, lobby, "channel", {"channel": w.channel, "private_threads": True})
        elsewhere = await fake.reply(
            await fake.slash(w.alice, lobby, "challenge", {"game": "druid", "opponent": w.bob})
        )
        posted = await challenge(fake, w.channel, w.alice, "druid", w.bob, options="-size=5")
        await fake.reply(await fake.click(w.bob, posted, "pbm:c:1:accept"))
        thread = await fake.wait_for(lambda: next(iter(fake.threads.values()), None), what="game thread")
        await fake.wait_for(lambda: fake.channel_log(thread.id), what="opening board")
        in_thread = await fake.reply(
            await fake.slash(w.bob, thread.id, "challenge", {"game": "druid", "opponent": w.alice})
        )
        shown = await settings_reply(fake, mod, lobby, "show", {})
        anywhere = await settings_reply(fake, mod, lobby, "channel", {"anywhere": True})
        both = await settings_reply(fake, mod, lobby, "channel", {"anywhere": True, "channel": w.channel})
        challenges = await bot.actions.store.open_challenges()
    assert set_it.content == f"Games live in <#{w.channel}> now, in private threads."
    assert elsewhere.ephemeral and elsewhere.content == f"games live in <#{w.channel}> in this server: challenge there"
    assert fake.channel_log(lobby) == []  # nothing posted where the challenge was refused
    assert thread.parent_id == w.channel and thread.private and sorted(thread.members) == sorted([w.alice, w.bob])
    assert in_thread.content.startswith("Challenge 2 posted")  # a game's thread is in the games channel
    assert f"- games live in: <#{w.channel}>, in private threads" in shown.content
    assert anywhere.content == "Games may be challenged to in any channel now, and are played in private threads."
    assert both.content == "give a channel or `anywhere`, not both"
    assert [c.id for c in challenges] == [2]


async def test_default_options_apply_unless_the_challenger_gives_them(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    mod = await fake.add_member(w.guild, "mod", permissions=("manage_guild",))
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        made = await settings_reply(fake, mod, w.channel, "defaults", {"game": "druid", "options": "-days=3 -size=6"})
        bad = await settings_reply(fake, mod, w.channel, "defaults", {"game": "druid", "options": "-days=0"})
        plain = await challenge(fake, w.channel, w.alice, "druid", w.bob)
        own = await challenge(fake, w.channel, w.alice, "druid", w.carol, options="-days=5")
        clash = await fake.reply(
            await fake.slash(
                w.bob, w.channel, "challenge", {"game": "druid", "opponent": w.carol, "options": "-untimed"}
            )
        )
        rows = [await bot.actions.store.load_challenge(n) for n in (1, 2)]
    assert made.content == "Druid challenges start with -days=3 -size=6 now, unless the challenger gives those options."
    assert bad.content == "option -days=0 is out of range (1..30)"
    assert "Druid (-size=6); 3 days per move: challenge 1" in plain.content
    assert "Druid (-size=6); 5 days per move: challenge 2" in own.content
    assert [r.options for r in rows] == [["-days=3", "-size=6"], ["-size=6", "-days=5"]]
    assert clash.content == (
        "options -days and -untimed cannot be used together (this server adds -days=3 -size=6 to Druid challenges)"
    )


async def test_a_game_not_offered_and_the_computers_settings_refuse_a_challenge(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    fake = w.fake
    mod = await fake.add_member(w.guild, "mod", permissions=("manage_guild",))
    me = fake.application_id
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        off = await settings_reply(fake, mod, w.channel, "games", {"game": "drogo", "offered": "off"})
        drogo = await fake.reply(
            await fake.slash(w.alice, w.channel, "challenge", {"game": "drogo", "opponent": w.bob})
        )
        lower = await settings_reply(fake, mod, w.channel, "computer", {"level": 1})
        hard = await fake.reply(
            await fake.slash(w.alice, w.channel, "challenge", {"game": "druid", "opponent": me, "level": 3})
        )
        easy = await fake.reply(
            await fake.slash(w.alice, w.channel, "challenge", {"game": "druid", "opponent": me, "options": "-size=5"})
        )
        computer_off = await settings_reply(fake, mod, w.channel, "computer", {"on": "off"})
        refused = await fake.reply(await fake.slash(w.bob, w.channel, "challenge", {"game": "druid", "opponent": me}))
        again = await settings_reply(fake, mod, w.channel, "games", {"game": "drogo", "offered": "on"})
        games = await bot.actions.store.games_of("alice")
    assert off.content == "Drogo is no longer offered in this server (games under way go on)."
    assert drogo.content == "Drogo is not offered in this server (games here: Backgammon, Dragons, Druid)"
    assert lower.content == "Computer opponents are on in this server now, up to level 1."
    assert hard.content == "the computer plays up to level 1 in this server; choose a level from 1 to 1"
    assert "Druid game 1 started: alice, ai:1" in easy.content  # no level named: the highest the server allows
    assert computer_off.content == "Computer opponents are off in this server now (games under way go on)."
    assert refused.content == "computer opponents are turned off in this server; challenge a member"
    assert again.content == "Drogo is offered in this server now."
    assert [(g.id, g.players) for g in games] == [(1, ["alice", "ai:1"])]


async def test_only_members_with_the_role_start_games(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    mod = await fake.add_member(w.guild, "mod", permissions=("manage_guild",))
    players = await fake.add_role(w.guild, "Players")
    async with pbm_running(fake, tmp_path / "pbm.sqlite3"):
        made = await settings_reply(fake, mod, w.channel, "role", {"role": players})
        refused = await fake.reply(
            await fake.slash(w.alice, w.channel, "challenge", {"game": "druid", "opponent": w.bob})
        )
        fake.give_role(w.guild, w.alice, players)
        allowed = await challenge(fake, w.channel, w.alice, "druid", w.bob)
        accepted = await fake.reply(await fake.click(w.bob, allowed, "pbm:c:1:accept"))  # answering needs no role
        everyone = await settings_reply(fake, mod, w.channel, "role", {"everyone": True})
        bob = await challenge(fake, w.channel, w.bob, "druid", w.carol)
    assert made.content == f"Only members with the <@&{players}> role may start games in this server now."
    assert refused.content == f"only members with the <@&{players}> role may start games in this server"
    assert accepted.content.startswith("Druid game 1 started")
    assert everyone.content == "Everyone may start games in this server now."
    assert "challenge 2" in bob.content


async def test_settings_show_and_the_synced_command_is_for_managers_only(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    mod = await fake.add_member(w.guild, "mod", permissions=("manage_guild",))
    admin = await fake.add_member(w.guild, "admin", permissions=("administrator",))
    async with pbm_running(fake, tmp_path / "pbm.sqlite3"):
        shown = await settings_reply(fake, mod, w.channel, "show", {})
        by_admin = await settings_reply(fake, admin, w.channel, "show", {})
        synced = {c["name"]: c for c in fake.global_commands}
    assert shown.content == "\n".join(["Settings of this server:", *(f"- {line}" for line in DEFAULT_LINES)])
    assert by_admin.content == shown.content
    assert int(synced["settings"]["default_member_permissions"]) == 32  # Manage Server
    assert int(synced["admin"]["default_member_permissions"]) == 32
    assert synced["settings"]["dm_permission"] is synced["admin"]["dm_permission"] is False  # in servers only
    assert synced["challenge"]["default_member_permissions"] is None


async def test_a_member_without_manage_server_cannot_change_settings_even_by_crafting_it(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        with pytest.raises(PermissionError):  # Discord does not offer /settings to her
            await fake.slash(w.alice, w.channel, "settings show")
        crafted = await fake.slash(w.alice, w.channel, "settings channel", {"channel": w.channel}, crafted=True)
        answer = await fake.reply(crafted)
        shown = await fake.reply(await fake.slash(w.alice, w.channel, "settings show", crafted=True))
        stored = await bot.actions.store.server_settings(w.guild)
        _, total = await bot.actions.store.audit_log(w.guild)
    assert answer.ephemeral and answer.content == "only members with the Manage Server permission can use this command"
    assert shown.ephemeral and shown.content == answer.content
    assert (stored.version, stored.data, total) == (0, {}, 0)
