"""The console's direct SQLite connection: the same store code, answered at once, driven without an event loop,
and equal to the aiosqlite store on the same file."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.actions import Actions
from data.connection import drive
from data.store import LogEntry, StaleWriteError, Store


def test_a_whole_game_runs_without_an_event_loop(tmp_path: Path) -> None:
    store = drive(Store.open(tmp_path / "d.sqlite3", direct=True))
    actions = Actions(store, seed_source=lambda: 3)
    started = drive(actions.challenge("druid", ["alice", "bob"], ["-size=3"], start=True))
    for player, cell in (("alice", "a1"), ("bob", "c1"), ("alice", "a2"), ("bob", "c2"), ("alice", "a3")):
        assert drive(actions.move(started.game_id, player, cell)).ok
    assert drive(actions.show(started.game_id)).winners == ["alice"]
    drive(store.close())

    async def read_back() -> list[str]:
        again = await Store.open(tmp_path / "d.sqlite3")
        try:
            return [entry.text for entry in await again.log(started.game_id)]
        finally:
            await again.close()

    assert asyncio.run(read_back()) == ["a1", "c1", "a2", "c2", "a3"]


def test_the_stale_move_guard_holds_on_a_direct_connection(tmp_path: Path) -> None:
    store = drive(Store.open(tmp_path / "g.sqlite3", direct=True))
    game_id = drive(store.create_game("druid", {}, ["alice", "bob"], 1, {"ply": 0}, "alice"))
    entry = LogEntry(1, "alice", "c3", [])
    kwargs = {"snapshot": {}, "move_number": 1, "status": "active", "to_move": "bob", "outcome": None}
    drive(store.commit_actions(game_id, 0, [entry], **kwargs))
    with pytest.raises(StaleWriteError):
        drive(store.commit_actions(game_id, 0, [entry], **kwargs))
    assert [e.text for e in drive(store.log(game_id))] == ["c3"]
    drive(store.close())


def test_drive_refuses_a_coroutine_that_waits_on_an_event_loop() -> None:
    async def waits() -> None:
        await asyncio.sleep(0)

    with pytest.raises(RuntimeError, match="event loop"):
        drive(waits())
