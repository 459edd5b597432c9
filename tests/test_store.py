"""The store on real SQLite files and on a real PostgreSQL server (every test runs on both): migrations, the
stale-move guard, concurrency, damaged rows, and what differs between the two."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from data.schema import MIGRATIONS
from data.store import (
    DamagedRowError,
    DatabaseUnusableError,
    LogEntry,
    NotFoundError,
    StaleWriteError,
    Store,
    StoreError,
)
from data.store.core import is_postgresql_url
from tests.databases import Databases


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


async def test_a_board_marked_unposted_by_its_commit_stays_marked_until_its_own_post_clears_it(store: Store) -> None:
    first, second = await _new_game(store), await _new_game(store, ("carol", "dave"))
    entry = LogEntry(1, "alice", "c3", [])
    await store.commit_actions(
        first,
        0,
        [entry],
        snapshot={"ply": 1},
        move_number=1,
        status="active",
        to_move="bob",
        outcome=None,
        unposted="nonce-1",
    )
    with pytest.raises(StaleWriteError):  # a refused commit marks nothing
        await store.commit_actions(
            second,
            5,
            [entry],
            snapshot={"ply": 1},
            move_number=1,
            status="active",
            to_move="dave",
            outcome=None,
            unposted="nonce-x",
        )
    await store.mark_unposted(second, "nonce-2 failed")
    await store.set_meta("unposted", "[]")  # another key of the same prefix's neighbourhood is not a mark
    marked = await store.unposted_boards()
    await store.clear_unposted(first, ("an-older-post",))  # a post of an earlier board leaves the newer mark
    kept = await store.unposted_boards()
    await store.clear_unposted(first, ("nonce-1",))
    await store.clear_unposted(second)
    assert marked == kept == [(first, "nonce-1"), (second, "nonce-2 failed")]
    assert await store.unposted_boards() == []


async def test_a_read_never_sees_another_coroutines_transaction_half_done(store: Store) -> None:
    """On SQLite the coroutines share one connection, so a read waits for the open transaction to end; on
    PostgreSQL it runs on another connection of the pool at once and sees what was committed before."""
    game_id = await _new_game(store)
    seen: list[tuple[int, int]] = []
    on_sqlite = not is_postgresql_url(store.path)

    async def read() -> None:
        row = await store.load_game(game_id)  # it checks the row against the log: a half-done move is "damaged"
        seen.append((row.log_length, len(await store.log(game_id))))

    async with store.transaction() as db:
        await db.execute("UPDATE games SET log_length = 1, move_number = 1 WHERE id = ?", (game_id,))
        reader = asyncio.create_task(read())
        await asyncio.sleep(0)  # the read is issued now, between the move's two statements
        if not on_sqlite:
            await reader  # it does not wait for the transaction
        await db.execute(
            "INSERT INTO moves (game_id, seq, number, player_id, text, events, auto, created_at)"
            " VALUES (?, 1, 1, 'alice', 'c3', '[]', 0, 0)",
            (game_id,),
        )
    await reader
    assert seen == ([(1, 1)] if on_sqlite else [(0, 0)])


async def test_two_stores_racing_on_one_database_apply_one_move(databases: Databases) -> None:
    path = await databases.target("race.sqlite3")
    stores = [await Store.open(path) for _ in range(3)]
    game_id = await _new_game(stores[0])

    async def attempt(db: Store, text: str) -> bool:
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
        except StaleWriteError:
            return False
        return True

    outcomes = await asyncio.gather(*(attempt(db, f"m{i}") for i, db in enumerate(stores)))
    assert outcomes.count(True) == 1
    log = await stores[1].log(game_id)
    assert len(log) == 1 and (await stores[2].load_game(game_id)).snapshot == {"m": log[0].text}
    for db in stores:
        await db.close()


async def test_ids_memory_listings_and_logs_read_the_same_on_both(store: Store) -> None:
    first, second = await _new_game(store), await _new_game(store, ("carol", "dave"))
    assert (first, second) == (1, 2)
    # memory across a chunk boundary (256 values a chunk), appended in two writes
    values = [2**64 - 1, 0, *range(300)]
    game_id = await store.create_game("drogo", {}, ["alice", "bob"], 1, {"ply": 0}, "alice", memory=values[:200])
    await store.commit_actions(
        game_id,
        0,
        [LogEntry(1, "alice", "roll", [{"kind": "roll", "dice": [3, 4]}]), LogEntry(1, "alice", "a1", [])],
        snapshot={"ply": 1, "players": ["bob", "alice"]},
        move_number=1,
        status="finished",
        to_move=None,
        outcome={"winner": "alice"},
        memory_from=200,
        memory_append=values[200:],
    )
    assert await store.load_memory(game_id) == values
    assert (await store.load_game(game_id)).memory == tuple(values)
    lines = await store.log_lines(game_id)
    assert [(line.text, line.made) for line in lines] == [("roll", 0), ("a1", 0)]
    assert '"roll"' in lines[0].events_json and lines[1].events_json == "[]"
    finished, total = await store.list_games(player_id="alice", which="inactive")
    assert total == 1 and finished[0].seats == ["bob", "alice"] and finished[0].outcome == {"winner": "alice"}
    active, total = await store.list_games(player_id="alice", which="next")
    assert total == 1 and [g.id for g in active] == [first]
    assert [g.id for g in await store.game_choices("carol", "2")] == [second]
    timer = await store.add_timer("deliver", 50.0, player_id="alice", data={"text": "hi"})
    later = await store.add_timer("vacation", 60.0, player_id="alice")
    assert later == timer + 1
    assert [t.id for t in await store.due_timers(55.0)] == [timer]
    assert await store.claim_timer(timer) and not await store.claim_timer(timer)
    store.now = lambda: 65.0  # the store's clock (the actions' one), before the proposal's time is up
    proposal = await store.create_proposal(first, "draw", "alice", 0, expires_at=70.0)
    assert (await store.load_proposal(proposal)).accepted == ["alice"]
    with pytest.raises(StaleWriteError):
        await store.create_proposal(first, "undo", "bob", 0, expires_at=None)
    line = await store.add_queued_line(first, "bob", ["c3", "d4"])
    assert [q.id for q in await store.queued_lines(first, "bob")] == [line]
    await store.replace_queued_lines(first, "bob", [["e5"], ["f6"]])
    assert [q.moves for q in await store.queued_lines(first)] == [["e5"], ["f6"]]
    assert await store.integrity_problems() == []


async def test_the_two_schemas_have_the_same_tables_and_columns(tmp_path: Path, postgres_server: str) -> None:
    sqlite_side = Databases("sqlite", tmp_path, None)
    postgres_side = Databases("postgresql", tmp_path, postgres_server)
    try:
        schemas = []
        for side in (sqlite_side, postgres_side):
            target = await side.target("schema.sqlite3")
            await (await Store.open(target)).close()
            if side.postgresql:
                rows = await side.execute(
                    target,
                    "SELECT table_name, column_name FROM information_schema.columns"
                    " WHERE table_schema = current_schema()",
                )
                indexes = await side.execute(
                    target, "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
                )
            else:
                tables = await side.execute(
                    target, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                )
                rows = [(t, c[1]) for (t,) in tables for c in await side.execute(target, f"PRAGMA table_info({t})")]
                indexes = await side.execute(target, "SELECT name FROM sqlite_master WHERE type = 'index' AND sql")
            columns: dict[str, list[str]] = {}
            for table, column in rows:
                columns.setdefault(str(table), []).append(str(column))
            schemas.append(({t: sorted(c) for t, c in columns.items()}, {str(r[0]) for r in indexes}))
        (sqlite_columns, sqlite_indexes), (pg_columns, pg_indexes) = schemas
        assert pg_columns == sqlite_columns
        # PostgreSQL also names the index of every primary key and unique column; SQLite's are implicit
        assert sqlite_indexes <= pg_indexes
    finally:
        await postgres_side.drop_all()


async def test_postgresql_refuses_backups_in_one_line(tmp_path: Path, postgres_server: str) -> None:
    databases = Databases("postgresql", tmp_path, postgres_server)
    try:
        async with await Store.open(await databases.target()) as db:
            with pytest.raises(StoreError) as refused:
                await db.backup(tmp_path / "copy.sqlite3")
            assert str(refused.value) == "pbm backs up SQLite files only; back up a PostgreSQL database with pg_dump"
            assert await db.integrity_problems() == []
    finally:
        await databases.drop_all()
    assert not (tmp_path / "copy.sqlite3").exists()


async def test_targets_sqlite_urls_and_an_unreachable_server(tmp_path: Path) -> None:
    absolute = await Store.open(f"sqlite:///{tmp_path}/abs.sqlite3")
    assert absolute.path == f"{tmp_path}/abs.sqlite3" and (tmp_path / "abs.sqlite3").exists()
    await absolute.close()
    memory = await Store.open("sqlite://")
    assert memory.path == ":memory:"
    await memory.close()
    with pytest.raises(DatabaseUnusableError) as refused:
        await Store.open("postgresql://pbm:s3cret@127.0.0.1:1/pbm")
    message = str(refused.value)
    assert "\n" not in message and "s3cret" not in message
    assert message.startswith("postgresql://pbm:***@127.0.0.1:1/pbm: the PostgreSQL server cannot be reached")


def test_placeholders_become_numbered_outside_quotes() -> None:
    from data.postgres import to_numbered

    assert to_numbered("SELECT '?', \"a?\" FROM t WHERE a = ? AND b IN (?, ?)") == (
        "SELECT '?', \"a?\" FROM t WHERE a = $1 AND b IN ($2, $3)"
    )
    assert to_numbered("BEGIN") == "BEGIN"


async def test_the_bot_is_pointed_at_postgresql_by_configuration_alone(tmp_path: Path, postgres_server: str) -> None:
    from bot.cli import _preflight, main
    from bot.config import Config

    databases = Databases("postgresql", tmp_path, postgres_server)
    try:
        url = str(await databases.target())
        config = Config.from_env({"PBM_DB": url, "DISCORD_TOKEN": "x"})
        assert config.db_path == url
        await _preflight(config.db_path)  # what pbm run does before it connects to Discord: migrates
        async with await Store.open(url) as db:
            assert await db.schema_version() == len(MIGRATIONS)
    finally:
        await databases.drop_all()
    assert main(["backup", "--db", "postgresql://pbm:s3cret@localhost/pbm", str(tmp_path / "b.sqlite3")]) == 2
