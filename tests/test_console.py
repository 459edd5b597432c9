"""The console front end to end on real SQLite files: whole games, the stale-move guard, history and replays,
pbmserv's resign rules, bad input that changes nothing."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.actions import Actions
from bot.console import Console, render_text
from data.store import Store


@pytest.fixture
async def console(tmp_path: Path):
    store = await Store.open(tmp_path / "pbm.sqlite3")
    yield Console(Actions(store, seed_source=lambda: 12345), tmp_path / "boards")
    await store.close()


async def run_ok(console: Console, line: str):
    outcome = await console.run(line)
    assert outcome.ok, f"{line!r} failed: {outcome.result.message}"
    return outcome


async def test_a_whole_druid_game_from_challenge_to_win(console: Console, tmp_path: Path) -> None:
    started = await run_ok(console, "druid challenge -size=3 alice bob")
    game_id = started.result.game_id
    assert started.result.to_move == "alice"
    assert started.board_path == tmp_path / "boards" / f"druid-{game_id}.png"
    for mover, cell in (("alice", "a1"), ("bob", "c1"), ("alice", "a2"), ("bob", "c2")):
        outcome = await run_ok(console, f"druid move {game_id} {mover} {cell}")
        assert outcome.board_path is not None and outcome.board_path.read_bytes().startswith(b"\x89PNG")
        assert outcome.result.status == "active"
    final = await run_ok(console, f"druid move {game_id} alice a3")
    assert final.result.status == "finished"
    assert final.result.winners == ["alice"]
    assert "alice won" in final.result.message

    late = await console.run(f"druid move {game_id} bob b2")
    assert not late.ok and "over" in late.result.message

    history = await run_ok(console, f"druid history {game_id}")
    assert [line.split(": ", 1)[1] for line in history.result.items] == ["a1", "c1", "a2", "c2", "a3"]

    earlier = await run_ok(console, f"druid show {game_id}#2")
    assert earlier.result.move_number == 2
    assert earlier.board_path == tmp_path / "boards" / f"druid-{game_id}-move2.png"
    assert earlier.result.state is not None and earlier.result.state.ply == 2
    assert earlier.result.board_text() != final.result.board_text()


async def test_the_stale_move_guard(console: Console) -> None:
    game_id = (await run_ok(console, "druid challenge alice bob")).result.game_id
    stale = await console.run(f"druid move {game_id} alice c3#2")
    assert not stale.ok and "#2" in stale.result.message and "#1" in stale.result.message
    await run_ok(console, f"druid move {game_id} alice c3#1")
    again = await console.run(f"druid move {game_id} bob d4#1")
    assert not again.ok
    assert (await run_ok(console, f"druid history {game_id}")).result.items[-1].endswith("alice: c3")


async def test_two_concurrent_moves_on_one_game_apply_once(console: Console) -> None:
    game_id = (await run_ok(console, "druid challenge alice bob")).result.game_id
    first, second = await asyncio.gather(
        console.actions.move(game_id, "alice", "c3"), console.actions.move(game_id, "alice", "d4")
    )
    assert [first.ok, second.ok].count(True) == 1
    history = await run_ok(console, f"druid history {game_id}")
    assert len(history.result.items) == 1


async def test_the_password_word_is_accepted_and_ignored(console: Console) -> None:
    game_id = (await run_ok(console, "druid challenge alice bob")).result.game_id
    moved = await run_ok(console, f"druid move {game_id} alice hunter2 c3")
    assert moved.result.move_number == 1
    aliased = await run_ok(console, f"druid board {game_id} bob hunter2 d4")
    assert aliased.result.move_number == 2


async def test_a_bad_move_after_a_password_or_a_move_word_is_named_as_typed(console: Console) -> None:
    """When neither reading of the words is a move, the error names what the player meant: the move after a
    password word, or the whole text when its first word is itself move notation."""
    game_id = (await run_ok(console, "druid challenge alice bob")).result.game_id
    after_password = await console.run(f"druid move {game_id} alice hunter2 zz9")
    assert not after_password.ok and after_password.result.message.startswith("zz9: not a Druid move")
    whole = await console.run(f"druid move {game_id} alice c3 zz9")
    assert not whole.ok and whole.result.message.startswith("c3 zz9: not a Druid move")
    assert (await run_ok(console, f"druid show {game_id}")).result.move_number == 0


async def test_bad_input_gets_a_specific_message_and_changes_nothing(console: Console) -> None:
    game_id = (await run_ok(console, "druid challenge alice bob")).result.game_id
    cases = {
        f"druid move {game_id} bob c3": "not your turn",
        f"druid move {game_id} carol c3": "carol is not playing",
        f"druid move {game_id} alice z99": "z99",
        "druid challenge -size=99 alice bob": "-size",
        "druid challenge -frobnicate alice bob": "unknown option -frobnicate",
        "druid challenge alice alice": "twice",
        "chess challenge alice bob": "unknown game",
        "druid move 999 alice c3": "there is no game 999",
        "druid frobnicate 1 alice": "unknown druid command",
    }
    for line, expected in cases.items():
        outcome = await console.run(line)
        assert not outcome.ok, line
        assert expected in outcome.result.message, (line, outcome.result.message)
    history = await run_ok(console, f"druid history {game_id}")
    assert history.result.items == []
    assert history.result.move_number == 0


async def test_resign_in_the_first_round_declines_the_game(console: Console) -> None:
    game_id = (await run_ok(console, "druid challenge alice bob")).result.game_id
    declined = await run_ok(console, f"druid resign {game_id} bob")
    assert declined.result.status == "cancelled"
    assert "declined" in declined.result.message
    listing = await run_ok(console, "druid games alice all")
    assert "cancelled" in listing.result.items[0]


async def test_resign_out_of_turn_waits_for_the_players_turn(console: Console) -> None:
    game_id = (await run_ok(console, "druid challenge alice bob")).result.game_id
    await run_ok(console, f"druid move {game_id} alice c3")
    await run_ok(console, f"druid move {game_id} bob d4")
    queued = await run_ok(console, f"druid resign {game_id} bob")
    assert queued.result.status == "active"
    assert "when their turn comes" in queued.result.message
    done = await run_ok(console, f"druid move {game_id} alice c4")
    assert done.result.status == "finished"
    assert done.result.winners == ["alice"]
    history = await run_ok(console, f"druid history {game_id}")
    assert history.result.items[-1].endswith("bob: resign (Auto)")


async def test_games_lists_the_games_waiting_on_a_player(console: Console) -> None:
    first = (await run_ok(console, "druid challenge alice bob")).result.game_id
    second = (await run_ok(console, "druid challenge bob alice")).result.game_id
    waiting = await run_ok(console, "druid games alice next")
    assert [line.split(":")[0] for line in waiting.result.items] == [f"druid {first}"]
    everything = await run_ok(console, "druid games alice")
    assert len(everything.result.items) == 2
    # running games come with the least time left first: the older game's clock started first
    assert f"druid {first}:" in everything.result.items[0]
    assert f"druid {second}:" in everything.result.items[1]


async def test_moves_lists_legal_moves_with_a_prefix(console: Console) -> None:
    game_id = (await run_ok(console, "druid challenge -size=5 alice bob")).result.game_id
    listing = await run_ok(console, f"druid moves {game_id} b")
    assert listing.result.items and all(item.lower().startswith("b") for item in listing.result.items)
    assert "b3" in listing.result.items


async def test_a_damaged_game_does_not_take_down_the_others(console: Console, tmp_path: Path) -> None:
    good = (await run_ok(console, "druid challenge alice bob")).result.game_id
    bad = (await run_ok(console, "druid challenge alice carol")).result.game_id
    with sqlite3.connect(tmp_path / "pbm.sqlite3") as raw:
        raw.execute('UPDATE games SET snapshot = \'{"game": "druid", "version": 1}\' WHERE id = ?', (bad,))
    broken = await console.run(f"druid move {bad} alice c3")
    assert not broken.ok and f"game {bad} cannot be read" in broken.result.message
    await run_ok(console, f"druid move {good} alice c3")


async def test_help_lists_every_game_and_command(console: Console) -> None:
    text = render_text(await console.run("help"))
    for name in ("backgammon", "dragons", "druid", "drogo"):
        assert f"\n{name}: " in text
    for usage in ("<game> challenge [-options]", "<game> move <id> <user>", "<game> moves <id> [prefix]", "--as USER"):
        assert usage in text
    druid = await run_ok(console, "druid help")
    assert "-size=n" in "\n".join(druid.result.items)


def _pbm(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], capture_output=True, text=True, cwd=tmp_path, check=False
    )


def test_pbm_do_takes_dashed_words_unquoted(tmp_path: Path) -> None:
    """``-size=4`` and the pass ``--`` are words of the command, not options of ``pbm do``, quoted or not."""
    db = str(tmp_path / "cli.sqlite3")
    started = _pbm(tmp_path, "do", "--db", db, "--json", "druid", "challenge", "-size=4", "alice", "bob")
    assert json.loads(started.stdout)["message"].startswith("Druid game 1 started: alice, bob (-size=4)")
    passed = _pbm(tmp_path, "do", "--db", db, "--as", "alice", "druid", "move", "1", "--")
    assert passed.returncode == 0 and "alice passed" in passed.stdout.replace("(V) ", "")
    shown = _pbm(tmp_path, "do", "--db", db, "--", "druid", "show", "1")
    assert shown.returncode == 0 and "bob to move (move 2)" in shown.stdout


def test_pbm_do_json_and_exit_codes(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.sqlite3")
    started = _pbm(tmp_path, "do", "--json", "--db", db, "druid challenge -size=4 alice bob")
    assert started.returncode == 0, started.stderr
    data = json.loads(started.stdout)
    assert (data["ok"], data["game_id"], data["to_move"], data["status"]) == (True, 1, "alice", "active")
    assert Path(data["board_png"]).exists()
    refused = _pbm(tmp_path, "do", "--json", "--db", db, "druid move 1 bob a1")
    assert refused.returncode == 1
    assert json.loads(refused.stdout)["ok"] is False
    moves = json.loads(_pbm(tmp_path, "do", "--json", "--db", db, "druid moves 1 a").stdout)
    assert "a1" in moves["items"]
    moved = _pbm(tmp_path, "do", "--db", db, "druid", "move", "1", "alice", "a1")
    assert moved.returncode == 0 and "alice played a1" in moved.stdout


def test_pbm_do_moves_and_shows_import_nothing_of_discord_postgres_or_matplotlib(tmp_path: Path) -> None:
    """A challenge, a move and a board shown load neither front's nor the chart's heavy libraries: matplotlib
    alone costs about a third of a second, and only a profile's chart needs it."""
    db = str(tmp_path / "x.sqlite3")

    def loaded_after(command: str) -> str:
        code = (
            "import sys; from bot.cli import main; "
            f"main(['do', '--db', {db!r}, {command!r}]); "
            "print(*(name in sys.modules for name in ('discord', 'asyncpg', 'matplotlib')))"
        )
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        assert "alice" in done.stdout, done.stdout
        return done.stdout.strip().splitlines()[-1]

    for command in ("druid challenge alice bob", "druid move 1 alice c3", "druid show 1"):
        assert loaded_after(command) == "False False False", command


def test_pbm_sync_without_a_token_points_to_the_console(tmp_path: Path) -> None:
    """(``pbm run`` without a token serves the web UI instead: tests/test_web_cli.py.)"""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PBM_DATA_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "bot", "sync"], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr and "pbm console" in done.stderr
