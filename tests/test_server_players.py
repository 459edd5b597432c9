"""The players seen in each Discord server (a server's leaderboard shows them) and the variants a game was played
in (``/leaderboard``'s suggestions), on SQLite and PostgreSQL: recorded once however often they are seen, read
per server, filled from the games already played when a database is upgraded."""

from __future__ import annotations

from data.rows import VariantRow
from data.schema import MIGRATIONS
from data.store import Store
from tests.databases import Databases

GUILD, OTHER = 111, 222


async def test_players_seen_in_a_server_are_kept_once_per_server(databases: Databases) -> None:
    async with await Store.open(await databases.target()) as store:
        for player in ("alice", "bob", "carol"):
            await store.ensure_player(player)
        await store.add_guild_players(GUILD, ["bob", "alice"])
        await store.add_guild_players(GUILD, ["alice", "alice"])
        await store.add_guild_players(OTHER, ["carol"])
        await store.add_guild_players(OTHER, [])
        assert await store.guild_players(GUILD) == ["alice", "bob"]
        assert await store.guild_players(OTHER) == ["carol"]
        assert await store.guild_players(333) == []


async def test_an_upgrade_fills_each_server_with_the_players_of_its_games(databases: Databases) -> None:
    target = await databases.target()
    async with await Store.open(target) as store:
        first = await store.create_game("druid", {"size": 5}, ["alice", "bob"], 1, {"ply": 0}, "alice")
        second = await store.create_game("druid", {"size": 5}, ["bob", "ai:2"], 2, {"ply": 0}, "bob")
        await store.create_game("druid", {"size": 5}, ["carol", "dave"], 3, {"ply": 0}, "carol")  # console only
        await store.set_thread(first, GUILD, 1, 2)
        await store.set_thread(second, OTHER, 3, 4)
    # back to the schema before the table existed
    await databases.execute(target, "DROP TABLE guild_players")
    before = next(k for k, script in enumerate(MIGRATIONS) if "CREATE TABLE guild_players" in script)
    await databases.execute(target, "UPDATE schema_version SET version = ?", before)
    async with await Store.open(target) as store:
        assert await store.schema_version() == len(MIGRATIONS)
        assert await store.guild_players(GUILD) == ["alice", "bob"]
        assert await store.guild_players(OTHER) == ["ai:2", "bob"]


async def test_the_variants_played_of_a_game_alphabetically(databases: Databases) -> None:
    async with await Store.open(await databases.target()) as store:
        assert await store.variants_played("druid") == []
        rows = []
        for k, (player, variant) in enumerate(
            [("alice", "-size=5"), ("bob", "-size=5"), ("alice", "-size=5 -hex"), ("bob", "standard")]
        ):
            await store.ensure_player(player)
            rows.append(VariantRow(player, "druid", variant, float(k), 1, 1, 0, 0, 0, 0))
        rows.append(VariantRow("alice", "drogo", "-size=4", 0.0, 1, 1, 0, 0, 0, 0))
        await store.replace_ratings([], rows, [])
        assert await store.variants_played("druid") == ["-size=5", "-size=5 -hex", "standard"]
        assert await store.variants_played("druid", limit=2) == ["-size=5", "-size=5 -hex"]
        assert await store.variants_played("drogo") == ["-size=4"]
