"""The web on an SQLite file another program keeps locked past the busy timeout: a move is answered that the
database is busy, in one sentence (never "something went wrong"), nothing is half done, and the same move works
once the lock is let go."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from data.store import core
from tests.webtools import serving


async def test_a_move_on_a_locked_file_is_said_busy_and_nothing_is_half_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(core, "BUSY_SECONDS", 0.3)  # how long a write waits for the lock (10 s in the bot)
    db = tmp_path / "pbm.sqlite3"
    async with serving(db) as site:
        assert (await site.actions.challenge("druid", ["alice", "bob"], ["-size=5"], start=True)).game_id == 1
        async with site.browser() as alice:
            await alice.sign_in("alice")
            other = sqlite3.connect(db, isolation_level=None)
            other.execute("BEGIN IMMEDIATE")  # another program's long write holds the file's write lock
            try:
                refused = await alice.post_json("/g/1/move", {"move": "c3#1"})
            finally:
                other.execute("ROLLBACK")
                other.close()
            assert [e.text for e in await site.store.log(1)] == []
            played = await alice.post_json("/g/1/move", {"move": "c3#1"})
        assert [e.text for e in await site.store.log(1)] == ["c3"]
    assert refused.status == 503
    assert refused.json()["message"] == (
        "The database is busy (another program is writing to it); try again in a minute "
        "(reload the page to see whether it was done)."
    )
    assert played.status == 200 and played.json()["ok"] is True
