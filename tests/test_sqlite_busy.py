"""An SQLite file another program keeps locked (a long write) past the busy timeout, through the fake Discord: each
command that must write is answered that the database is busy, in one line (a move: that it was not played),
nothing is half done, and the next command once the lock is let go works as ever."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from data.store import core
from tests.fakediscord.pbm import pbm_running, start_game

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]
NOT_PLAYED = "the database is busy: your move c3 was not played; try again in a minute"
BUSY = "the database is busy (another program is writing to it); try again in a minute"


async def test_a_file_locked_by_another_program_is_said_busy_and_nothing_is_half_done(
    discord_world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = discord_world
    fake = w.fake
    monkeypatch.setattr(core, "BUSY_SECONDS", 0.3)  # how long a write waits for the lock (10 s in the bot)
    db = tmp_path / "pbm.sqlite3"
    async with pbm_running(fake, db) as bot:
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        other = sqlite3.connect(db, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another program's long write holds the file's write lock
        try:
            moving = await fake.reply(await fake.slash(w.alice, table.thread.id, "move", {"move": "c3"}), timeout=20)
            challenge = {"game": "druid", "opponent": w.bob}
            challenging = await fake.reply(await fake.slash(w.carol, w.channel, "challenge", challenge), timeout=20)
        finally:
            other.execute("ROLLBACK")
            other.close()
        logged_while_locked = [e.text for e in await bot.actions.store.log(1)]
        challenges_while_locked = await bot.actions.store.open_challenges()
        posted = await table.move_and_wait(w.alice, "c3")
    assert moving.ephemeral and moving.content == NOT_PLAYED
    assert challenging.ephemeral and challenging.content == BUSY
    assert logged_while_locked == [] and challenges_while_locked == []
    assert "alice played c3" in posted.text()
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT text FROM moves").fetchall() == [("c3",)]
