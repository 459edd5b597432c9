"""The console under random and hostile command lines (hypothesis): every answer is one line when it refuses,
nothing a refused command touches changes in the database, and nothing raises.

Lines are built from the console's own vocabulary (games, commands, numbers in every script, names, move
fragments, options, ``#`` guards, quotes, control characters, very long words) so most of them get past the
first word and reach the actions, plus plain random text.
"""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.actions import Actions
from bot.console import Console, render_json, render_text
from data.store import Store

GAMES = ["druid", "drogo", "dragons", "backgammon", "Druid", "chess", ""]
COMMANDS = [
    "challenge", "move", "board", "show", "resign", "moves", "history", "games", "help", "roll", "double", "take",
    "drop", "greedy", "manual", "pass", "swap", "mvoe", "queue", "",
]  # fmt: skip
NUMBERS = ["1", "2", "3", "4", "0", "-1", "99", "9223372036854775808", "²", "١", "٨", "1#1", "1#2", "2#0", "1.5", "1e3"]
NAMES = ["alice", "bob", "carol", "dave", "all", "next", "page", "ai:1", "a\x00b", "x" * 40, "é", "--", "-x"]
FRAGMENTS = [
    "c3", "d4", "a1", "13-7", "bar-20", "B-20", "3-1", "24/18", "a1b", "c@0,-1", "d3", "--", "#1", "#", "pw", "'",
    '"', "\\", "\n", "\t", "\x00", "0x1", "-size=8", "-size=٨", "-hex", "-days=3", "resign", "forfeit",
]  # fmt: skip
WORD = st.one_of(
    st.sampled_from(GAMES + COMMANDS + NUMBERS + NAMES + FRAGMENTS),
    st.text(min_size=1, max_size=12),
    st.text(alphabet="0123456789#-,@/ ", min_size=1, max_size=8),
)
LINES = st.one_of(
    st.lists(WORD, min_size=0, max_size=8).map(" ".join),
    st.tuples(st.sampled_from(GAMES), st.sampled_from(COMMANDS), st.lists(WORD, max_size=6)).map(
        lambda t: " ".join([t[0], t[1], *t[2]])
    ),
    st.text(max_size=200),
    st.integers(4000, 20000).map(lambda n: "druid move 1 alice " + "x" * n),
)


def fingerprint(path: Path) -> str:
    """The content of every table (the board pictures aside): equal fingerprints, unchanged database."""
    digest = hashlib.sha256()
    with sqlite3.connect(path) as raw:
        for line in raw.iterdump():
            digest.update(line.encode())
    return digest.hexdigest()


def test_hostile_command_lines_answer_in_one_line_and_change_nothing(tmp_path: Path) -> None:
    loop = asyncio.new_event_loop()
    db = tmp_path / "fuzz.sqlite3"
    store = loop.run_until_complete(Store.open(db))
    console = Console(Actions(store, seed_source=lambda: 99), tmp_path / "boards", images=False)
    for line in (
        "druid challenge -size=5 alice bob",
        "drogo challenge -size=4 alice bob carol",
        "backgammon challenge alice bob",
        "dragons challenge alice bob",
    ):
        assert loop.run_until_complete(console.run(line)).ok
    seen = {"ok": 0, "refused": 0}

    @settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(LINES)
    def one_line(line: str) -> None:
        before = fingerprint(db)
        outcome = loop.run_until_complete(console.run(line))
        render_text(outcome)
        render_json(outcome)
        if outcome.ok:
            seen["ok"] += 1
            return
        seen["refused"] += 1
        message = outcome.result.message
        assert message and "\n" not in message, (line, message)
        assert len(message) < 400, (line, message)
        assert "Traceback" not in message
        assert fingerprint(db) == before, f"{line!r} was refused but changed the database"

    try:
        one_line()
    finally:
        loop.run_until_complete(store.close())
        loop.close()
    assert seen["refused"] > 100 and seen["ok"] > 0, seen
