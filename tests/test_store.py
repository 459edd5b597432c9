"""The store on real SQLite files and on a real PostgreSQL server (every test runs on both): migrations, the
stale-move guard, concurrency, damaged rows, and what differs between the two."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from data.schema import MIGRATIONS
from data.store import DamagedRowError, DatabaseUnusableError, LogEntry, NotFoundError, StaleWriteError, Store
from tests.conftest import Databases


@pytest.fixture
async def store(databases: Databases):
    db = await Store.open(await databases.target())
    yield db
    await db.close()


async def _new_game(store: Store, players=("alice", "bob")) -> int:
    return await store.create_game("druid", {"size": 8}, list(players), 42, {"ply": 0}, players[0])


async def test_migrations_run_once_and_record_the_version(databases: Databases) -> None:
    path = await databases.target("db.sqlite3")
    first = await Store.open(path)
    assert await first.schema_version() == len(MIGRATIONS)
    game_id = await _new_game(first)
    await first.close()
    again = await Store.open(path)
    assert await again.schema_version() == len(MIGRATIONS)
    assert (await again.load_game(game_id)).players == ["alice", "bob"]
    await again.close()
    if not databases.postgresql:
        with sqlite3.connect(path) as raw:
            assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_a_newer_schema_is_refused(databases: Databases) -> None:
    path = await databases.target("db.sqlite3")
    await (await Store.open(path)).close()
    await databases.execute(path, "UPDATE schema_version SET version = 99")
    with pytest.raises(DatabaseUnusableError, match="comes from a newer pbm"):
        await Store.open(path)


async def test_commit_appends_the_log_and_replaces_the_snapshot(store: Store) -> None:
    game_id = await _new_game(store)
    await store.commit_actions(
        game_id,
        0,
        [LogEntry(1, "alice", "c3", [{"kind": "place", "text": "alice placed c3"}])],
        snapshot={"ply": 1},
        move_number=1,
        status="active",
        to_move="bob",
        outcome=None,
    )
    row = await store.load_game(game_id)
    assert (row.move_number, row.log_length, row.to_move, row.snapshot) == (1, 1, "bob", {"ply": 1})
    log = await store.log(game_id)
    assert [(e.seq, e.number, e.player_id, e.text, e.auto) for e in log] == [(1, 1, "alice", "c3", False)]
    assert log[0].events[0]["text"] == "alice placed c3"


async def test_a_stale_commit_changes_nothing(store: Store) -> None:
    game_id = await _new_game(store)
    entry = LogEntry(1, "alice", "c3", [])
    await store.commit_actions(
        game_id, 0, [entry], snapshot={"ply": 1}, move_number=1, status="active", to_move="bob", outcome=None
    )
    with pytest.raises(StaleWriteError):
        await store.commit_actions(
            game_id,
            0,
            [LogEntry(1, "alice", "d4", [])],
            snapshot={"ply": 99},
            move_number=1,
            status="active",
            to_move="bob",
            outcome=None,
        )
    row = await store.load_game(game_id)
    assert row.snapshot == {"ply": 1}
    assert [e.text for e in await store.log(game_id)] == ["c3"]


async def test_two_concurrent_moves_never_both_apply(store: Store) -> None:
    game_id = await _new_game(store)

    async def attempt(text: str) -> bool:
        try:
            await store.commit_actions(
                game_id,
                0,
                [LogEntry(1, "alice", text, [])],
                snapshot={"move": text},
                move_number=1,
                status="active",
                to_move="bob",
                outcome=None,
            )
        except StaleWriteError:
            return False
        return True

    outcomes = await asyncio.gather(*(attempt(f"m{i}") for i in range(10)))
    assert outcomes.count(True) == 1
    log = await store.log(game_id)
    assert len(log) == 1
    assert (await store.load_game(game_id)).snapshot == {"move": log[0].text}


async def test_two_processes_never_both_apply(databases: Databases) -> None:
    path = await databases.target("shared.sqlite3")
    first, second = await Store.open(path), await Store.open(path)
    game_id = await _new_game(first)
    results = []
    for db, text in ((first, "a1"), (second, "b2")):
        try:
            await db.commit_actions(
                game_id,
                0,
                [LogEntry(1, "alice", text, [])],
                snapshot={"m": text},
                move_number=1,
                status="active",
                to_move="bob",
                outcome=None,
            )
            results.append(text)
        except StaleWriteError:
            pass
    assert results == ["a1"]
    assert [e.text for e in await second.log(game_id)] == ["a1"]
    await first.close()
    await second.close()


async def test_a_damaged_row_affects_only_its_game(store: Store, databases: Databases) -> None:
    good = await _new_game(store)
    bad = await _new_game(store, ("carol", "alice"))
    await databases.execute(await databases.target(), "UPDATE games SET snapshot = '{not json' WHERE id = ?", bad)
    with pytest.raises(DamagedRowError, match=f"game {bad} is damaged"):
        await store.load_game(bad)
    assert (await store.load_game(good)).players == ["alice", "bob"]
    assert [r.id for r in await store.games_of("alice")] == [good]


async def test_missing_game_and_challenge(store: Store) -> None:
    with pytest.raises(NotFoundError, match="there is no game 7"):
        await store.load_game(7)
    with pytest.raises(NotFoundError, match="there is no challenge 3"):
        await store.load_challenge(3)


async def test_challenge_updates_apply_once(store: Store) -> None:
    cid = await store.create_challenge("drogo", ["-single"], ["alice", "bob", "carol"], expires_at=100.0)
    challenge = await store.load_challenge(cid)
    assert (challenge.accepted, challenge.status, challenge.options) == (["alice"], "open", ["-single"])
    await store.update_challenge(cid, status="declined")
    with pytest.raises(StaleWriteError):
        await store.update_challenge(cid, status="accepted")
    assert (await store.load_challenge(cid)).status == "declined"
    assert await store.expired_challenges(200.0) == []


async def test_settings_and_meta(store: Store) -> None:
    assert await store.get_setting("alice", "dm", "off") == "off"
    await store.set_setting("alice", "dm", "on")
    await store.set_setting("alice", "dm", "off")
    assert await store.get_setting("alice", "dm") == "off"
    await store.set_meta("commands_hash", "abc")
    assert await store.get_meta("commands_hash") == "abc"
    await store.ensure_player("alice", 1234)
    assert await store.player_by_discord_id(1234) == "alice"
    assert await store.discord_id_of("alice") == 1234
