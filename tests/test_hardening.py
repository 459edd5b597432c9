"""Every wrong input, damaged file and odd state is answered in one clear line and changes nothing.

One test per defect found when version 1 was tried as a new user would; the command line is driven as a user
drives it (a subprocess of ``python -m bot``) where the exit code and the absence of a traceback matter, and
through :class:`bot.console.Console` elsewhere.
"""

from __future__ import annotations

import json
import os
import resource
import shlex
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.actions import PAGE_SIZE, Actions
from bot.console import Console, render_text
from data.schema import MIGRATIONS
from data.store import DamagedRowError, Store

ROOT = Path(__file__).resolve().parent.parent


def pbm(tmp_path: Path, *args: str, env: dict[str, str] | None = None, **kwargs) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` as a user runs it, with a time limit: a hang is a failure, not a stuck suite."""
    environment = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    environment.update({"PBM_DATA_DIR": str(tmp_path / "data"), **(env or {})})
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=environment,
        timeout=60,
        check=False,
        **kwargs,
    )


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    """The single line a failed command printed on stderr; no traceback, nothing else."""
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.fixture
async def console(tmp_path: Path):
    store = await Store.open(tmp_path / "pbm.sqlite3")
    yield Console(Actions(store, seed_source=lambda: 4242), tmp_path / "boards", images=False)
    await store.close()


async def refused(console: Console, line: str) -> str:
    outcome = await console.run(line)
    assert not outcome.ok, f"{line!r} was accepted"
    assert "\n" not in outcome.result.message, outcome.result.message
    return outcome.result.message


def dump(path: Path) -> list[str]:
    with sqlite3.connect(path) as raw:
        return list(raw.iterdump())


# ---- 1, 2: the database file and the environment ------------------------------------------------------------


@pytest.mark.parametrize("content", [b"", b"\x00" * 100, os.urandom(5000), b"SQLite format 3\x00" + b"\xff" * 3000])
def test_a_damaged_or_foreign_database_is_one_line_and_exit_2(tmp_path: Path, content: bytes) -> None:
    db = tmp_path / "bad.sqlite3"
    db.write_bytes(content)
    if not content:  # an empty file is a new, empty database to SQLite: damage it differently
        db.write_bytes(b"this is a text file, not a database\n" * 50)
    done = pbm(tmp_path, "do", "--db", str(db), "druid show 1")
    assert done.returncode == 2
    line = one_line_error(done)
    assert str(db) in line and ("not a pbm database" in line or "damaged" in line)


def test_a_damaged_database_under_json_still_prints_its_object(tmp_path: Path) -> None:
    db = tmp_path / "bad.sqlite3"
    db.write_bytes(os.urandom(4096))
    done = pbm(tmp_path, "do", "--json", "--db", str(db), "druid show 1")
    assert done.returncode == 2
    data = json.loads(done.stdout)
    assert data["ok"] is False and str(db) in data["message"]


def test_the_console_and_check_also_stop_at_once_on_a_damaged_file(tmp_path: Path) -> None:
    db = tmp_path / "bad.sqlite3"
    db.write_bytes(os.urandom(4096))
    for args in (("console", "--db", str(db)), ("check", "--db", str(db))):
        done = pbm(tmp_path, *args, input="help\n")
        assert done.returncode == 2 and "not a pbm database" in one_line_error(done)


def test_pbm_run_refuses_a_damaged_database_before_connecting(tmp_path: Path) -> None:
    db = tmp_path / "bad.sqlite3"
    db.write_bytes(os.urandom(4096))
    done = pbm(tmp_path, "run", "--db", str(db), env={"DISCORD_TOKEN": "x", "DISCORD_API_BASE": "http://127.0.0.1:9"})
    assert done.returncode == 2 and "not a pbm database" in one_line_error(done)


async def test_a_database_from_a_newer_pbm(tmp_path: Path) -> None:
    db = tmp_path / "new.sqlite3"
    await (await Store.open(db)).close()
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE schema_version SET version = 42")
    done = pbm(tmp_path, "do", "--db", str(db), "druid games")
    assert done.returncode == 2 and "newer pbm" in one_line_error(done)


async def test_a_missing_table(tmp_path: Path) -> None:
    db = tmp_path / "cut.sqlite3"
    await (await Store.open(db)).close()
    with sqlite3.connect(db) as raw:
        raw.execute("DROP TABLE challenges")
    done = pbm(tmp_path, "do", "--db", str(db), "druid games")
    assert done.returncode == 2 and "table challenges is missing" in one_line_error(done)


def test_a_path_that_cannot_be_opened(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    done = pbm(tmp_path, "do", "--db", str(blocker / "pbm.sqlite3"), "druid games")
    assert done.returncode == 2 and str(blocker) in one_line_error(done)


def test_a_full_disk_is_one_line_and_loses_nothing(tmp_path: Path) -> None:
    """The disk fills up during a move (a file-size limit of 8 KiB stands in for a full disk: the move's log
    pages cannot be written): one line, exit 2, and the database still holds every move committed before."""
    db = tmp_path / "full.sqlite3"
    assert pbm(tmp_path, "do", "--db", str(db), "--no-images", "druid challenge -size=8 alice bob").returncode == 0
    assert pbm(tmp_path, "do", "--db", str(db), "--no-images", "druid move 1 alice a1").returncode == 0
    before = dump(db)

    def small_disk() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))

    failed = pbm(tmp_path, "do", "--db", str(db), "--no-images", "druid move 1 bob h8", preexec_fn=small_disk)
    assert failed.returncode == 2
    line = one_line_error(failed)
    assert str(db) in line and ("disk" in line or "written" in line), line
    assert dump(db) == before
    shown = pbm(tmp_path, "do", "--db", str(db), "druid history 1")
    assert shown.returncode == 0 and "alice: a1" in shown.stdout


def test_pbm_run_that_cannot_reach_discord_says_so_in_one_line(tmp_path: Path) -> None:
    done = pbm(
        tmp_path,
        "run",
        "--db",
        str(tmp_path / "pbm.sqlite3"),
        env={"DISCORD_TOKEN": "x", "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"},
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("pbm:")]
    assert len(errors) == 1 and errors[0].startswith("pbm: cannot reach Discord: "), done.stderr
    verbose = pbm(
        tmp_path,
        "run",
        "--verbose",
        "--db",
        str(tmp_path / "pbm.sqlite3"),
        env={"DISCORD_TOKEN": "x", "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"},
    )
    assert verbose.returncode == 2 and "Traceback" in verbose.stderr


def test_pbm_sync_without_a_token_creates_no_database(tmp_path: Path) -> None:
    """(``pbm run`` without a token serves the web UI on the local database: tests/test_web_cli.py.)"""
    done = pbm(tmp_path, "sync")
    assert done.returncode == 2 and "DISCORD_TOKEN" in done.stderr
    assert not (tmp_path / "data").exists()


# ---- 5, 6: numbers and long input ------------------------------------------------------------------------------


@pytest.mark.parametrize("word", ["9223372036854775808", "9" * 4000, "²", "١", "-1", "0", "1.5", "0x10", "１"])
async def test_game_numbers_are_ascii_digits_in_range(console: Console, word: str) -> None:
    await console.run("druid challenge alice bob")
    message = await refused(console, f"druid show {word}")
    assert "game number" in message and len(message) < 160


async def test_foreign_digits_in_an_option_are_refused(console: Console) -> None:
    message = await refused(console, "druid challenge -size=٨ alice bob")
    assert "digits 0-9" in message
    assert (await console.run("druid games alice all")).result.message.startswith("no ")


async def test_move_numbers_are_ascii_digits_too(console: Console) -> None:
    await console.run("druid challenge alice bob")
    for guard in ("#١", "#²", "#99999999999"):
        assert "move number" in await refused(console, f"druid move 1 alice c3{guard}")
    assert (await console.run("druid show 1")).result.move_number == 0


def test_json_is_printed_for_refused_numbers(tmp_path: Path) -> None:
    db = str(tmp_path / "n.sqlite3")
    done = pbm(tmp_path, "do", "--json", "--db", db, "druid show ²")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert json.loads(done.stdout)["ok"] is False


async def test_over_long_input_is_refused_up_front_and_not_echoed(console: Console) -> None:
    message = await refused(console, "druid move 1 alice " + "x" * 1_000_000)
    assert "too long" in message and len(message) < 100
    await console.run("druid challenge alice bob")
    message = await refused(console, "druid move 1 alice " + "z" * 3000)
    assert len(message) < 200


# ---- 7, 8, 9, 10: the command line -----------------------------------------------------------------------------


async def test_the_game_word_must_match_the_game(console: Console) -> None:
    await console.run("drogo challenge alice bob")
    before = render_text(await console.run("drogo history 1"))
    for line in ("druid move 1 alice a1", "dragons resign 1 bob", "druid moves 1", "druid show 1", "druid history 1"):
        assert "game 1 is a Drogo game" in await refused(console, line)
    assert render_text(await console.run("drogo history 1")) == before


async def test_resign_honours_the_move_number_guard(console: Console) -> None:
    await console.run("druid challenge alice bob")
    await console.run("druid move 1 alice c3")
    await console.run("druid move 1 bob d4")
    assert "#2" in await refused(console, "druid resign 1 alice #2")
    assert "#2" in await refused(console, "druid resign 1 alice pw#2")
    assert (await console.run("druid show 1")).result.status == "active"
    done = await console.run("druid resign 1 alice #3")
    assert done.ok and done.result.status == "finished"


def test_pbm_options_count_only_before_the_command_words(tmp_path: Path) -> None:
    db = tmp_path / "here.sqlite3"
    assert pbm(tmp_path, "do", "--db", str(db), "druid", "challenge", "alice", "bob").returncode == 0
    done = pbm(tmp_path, "do", "--db", str(db), "druid", "move", "1", "alice", "--db", "x")
    assert done.returncode == 1
    assert not (ROOT / "x").exists() and not (tmp_path / "x").exists()
    words = pbm(tmp_path, "do", "--db", str(db), "--", "druid", "show", "1", "--json")
    assert words.returncode == 1 and "'--json' is not a game number" in words.stdout


@pytest.mark.parametrize(
    "name", ["al\x00ice", "al\nice", "x" * 33, "x" * 3000, "all", "next", "ALL", "a b", "ai:9", "bob:1", "é", "page"]
)
async def test_player_names_are_checked(console: Console, name: str) -> None:
    message = await refused(console, f"druid challenge {shlex.quote(name)} bob")
    assert ("player name" in message or "computer player" in message) and len(message) < 160
    assert (await console.run("druid games bob all")).result.message.startswith("no ")


# ---- 13, 14: listings -------------------------------------------------------------------------------------------


async def test_history_notes_a_queued_resignation_and_numbers_it_once(console: Console) -> None:
    await console.run("drogo challenge alice bob carol")
    for player in ("alice", "bob", "carol"):
        moves = (await console.run("drogo moves 1")).result.items
        await console.run(f"drogo move 1 {player} {moves[0]}")
    assert (await console.run("drogo resign 1 carol")).ok  # out of turn: queued
    moves = (await console.run("drogo moves 1")).result.items
    await console.run(f"drogo move 1 alice {moves[0]}")
    moves = (await console.run("drogo moves 1")).result.items
    await console.run(f"drogo move 1 bob {moves[0]}")
    lines = (await console.run("drogo history 1")).result.items
    resigns = [line for line in lines if "resign" in line]
    assert resigns[0].strip().startswith("(carol will resign")
    numbered = [line for line in resigns if line.strip()[0].isdigit()]
    assert len(numbered) == 1 and numbered[0].endswith("carol: resign (Auto)")


async def test_games_of_several_players_keep_one_section_each(console: Console) -> None:
    await console.run("druid challenge bob carol")
    await console.run("druid challenge bob dave")
    text = render_text(await console.run("druid games bob carol all"))
    assert text.startswith("2 Druid games for bob")
    bob, carol = text.split("1 Druid game for carol")
    assert bob.count("druid ") == 2 and carol.count("druid ") == 1


async def test_long_listings_are_paged_and_say_how_many_more(console: Console) -> None:
    for _ in range(PAGE_SIZE + 3):
        await console.actions.challenge("druid", ["alice", "bob"], [], start=True)
    first = (await console.run("druid games alice")).result
    assert len(first.items) == PAGE_SIZE
    assert first.message == f"{PAGE_SIZE + 3} active Druid games for alice, 1-{PAGE_SIZE} shown; 3 more (page 2)"
    second = (await console.run("druid games alice page 2")).result
    # running games come least time left first: the three started last have the latest deadlines
    assert len(second.items) == 3 and second.items[-1].startswith(f"druid {PAGE_SIZE + 3}:")
    assert first.items[0].startswith("druid 1:")
    waiting = (await console.run("druid games alice next")).result
    assert waiting.message.startswith(f"{PAGE_SIZE + 3} next Druid games for alice")
    assert "no page 9" in await refused(console, "druid games alice page 9")


# ---- 18: legal moves in JSON ------------------------------------------------------------------------------------


def test_json_carries_the_legal_moves_on_every_answer_about_a_game(tmp_path: Path) -> None:
    db = str(tmp_path / "j.sqlite3")
    for line in ("druid challenge -size=3 alice bob", "druid show 1", "druid history 1", "druid move 1 alice a1"):
        data = json.loads(pbm(tmp_path, "do", "--json", "--no-images", "--db", db, line).stdout)
        assert data["ok"] and "b2" in data["legal_moves"], line


# ---- 19-22: durability ------------------------------------------------------------------------------------------


async def test_commits_are_fully_synchronous(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "s.sqlite3")
    async with store._db.execute("PRAGMA synchronous") as cursor:
        assert (await cursor.fetchone())[0] == 2  # FULL
    await store.close()


async def test_a_log_that_disagrees_with_its_snapshot_is_noticed(tmp_path: Path) -> None:
    db = tmp_path / "d.sqlite3"
    store = await Store.open(db)
    console = Console(Actions(store, seed_source=lambda: 5), tmp_path / "boards", images=False)
    for line in ("druid challenge alice bob", "druid challenge alice bob", "druid challenge alice bob"):
        await console.run(line)
    for game in (1, 2, 3):
        await console.run(f"druid move {game} alice c3")
        await console.run(f"druid move {game} bob d4")
    await store.close()
    with sqlite3.connect(db) as raw:
        raw.execute("DELETE FROM moves WHERE game_id = 1 AND seq = 2")  # the last action is gone
        raw.execute("UPDATE moves SET text = 'e5' WHERE game_id = 2 AND seq = 2")  # an edited move
        raw.execute("UPDATE games SET log_length = 99 WHERE id = 3")
    store = await Store.open(db)
    with pytest.raises(DamagedRowError, match="pbm check"):
        await store.load_game(1)
    await store.close()
    check = pbm(tmp_path, "check", "--db", str(db))
    assert check.returncode == 1
    assert "game 1:" in check.stdout and "game 2:" in check.stdout and "game 3:" in check.stdout
    assert "3 games differ" in check.stdout


async def test_a_snapshot_with_a_bad_ply_is_noticed(tmp_path: Path) -> None:
    db = tmp_path / "p.sqlite3"
    store = await Store.open(db)
    console = Console(Actions(store, seed_source=lambda: 5), tmp_path / "boards", images=False)
    await console.run("druid challenge alice bob")
    with sqlite3.connect(db) as raw:
        snapshot = json.loads(raw.execute("SELECT snapshot FROM games").fetchone()[0])
        snapshot["ply"] = -5
        raw.execute("UPDATE games SET snapshot = ?", (json.dumps(snapshot),))
    assert "pbm check" in await refused(console, "druid show 1")
    await store.close()
    assert pbm(tmp_path, "check", "--db", str(db)).returncode == 1


def test_check_passes_a_sound_database(tmp_path: Path) -> None:
    db = str(tmp_path / "ok.sqlite3")
    for line in ("drogo challenge -size=4 alice bob", "backgammon challenge alice bob", "dragons challenge a b"):
        assert pbm(tmp_path, "do", "--no-images", "--db", db, line).returncode == 0
    done = pbm(tmp_path, "check", "--db", db)
    assert done.returncode == 0 and "3 games checked: all sound" in done.stdout


def test_backup_copies_a_live_database(tmp_path: Path) -> None:
    db = tmp_path / "live.sqlite3"
    assert pbm(tmp_path, "do", "--no-images", "--db", str(db), "druid challenge alice bob").returncode == 0
    copy = tmp_path / "copies" / "backup.sqlite3"
    refused = pbm(tmp_path, "backup", "--db", str(db), str(copy))  # pbm makes no folder for a path it is given
    assert refused.returncode == 2 and "copies does not exist" in one_line_error(refused)
    assert not copy.parent.exists()
    copy.parent.mkdir()
    done = pbm(tmp_path, "backup", "--db", str(db), str(copy))
    assert done.returncode == 0 and str(copy) in done.stdout
    shown = pbm(tmp_path, "do", "--no-images", "--db", str(copy), "druid show 1")
    assert shown.returncode == 0 and "alice to move" in shown.stdout
    again = pbm(tmp_path, "backup", "--db", str(db), str(copy))
    assert again.returncode == 2 and "already exists" in one_line_error(again)


async def test_a_migration_takes_a_backup_first(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    with sqlite3.connect(db) as raw:  # a database as the first pbm left it
        raw.executescript(MIGRATIONS[0])
        raw.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        raw.execute("INSERT INTO schema_version (version) VALUES (1)")
    await (await Store.open(db)).close()
    copy = tmp_path / "old.before-v2.sqlite3"
    assert copy.exists()
    with sqlite3.connect(copy) as raw:
        assert raw.execute("SELECT version FROM schema_version").fetchone()[0] == 1


def test_boards_are_written_atomically_beside_their_own_database(tmp_path: Path) -> None:
    for name in ("one", "two"):
        db = str(tmp_path / f"{name}.sqlite3")
        assert pbm(tmp_path, "do", "--db", db, f"druid challenge {name}a {name}b").returncode == 0
    one, two = tmp_path / "one-boards" / "druid-1.png", tmp_path / "two-boards" / "druid-1.png"
    assert one.read_bytes().startswith(b"\x89PNG") and two.read_bytes().startswith(b"\x89PNG")
    assert one.read_bytes() != two.read_bytes()  # different players: each database kept its own picture
    assert not [p for p in (tmp_path / "one-boards").iterdir() if p.name.endswith(".tmp")]


def test_show_draws_a_board_only_when_the_picture_on_disk_is_not_already_of_this_position(tmp_path: Path) -> None:
    db, now = str(tmp_path / "c.sqlite3"), "2026-12-01T09:00Z"  # one moment: the clock notes stay as drawn
    assert pbm(tmp_path, "do", "--db", db, "--now", now, "druid challenge alice bob").returncode == 0
    probe = (
        "import sys; from bot.cli import main; "
        f"main(['do', '--db', {db!r}, '--now', {now!r}, 'druid show 1']); print('PIL' in sys.modules)"
    )

    def shown_with_pillow() -> bool:
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
        return done.stdout.strip().endswith("True")

    assert not shown_with_pillow()  # the challenge drew this very position
    assert pbm(tmp_path, "do", "--db", db, "--now", now, "--no-images", "druid move 1 alice c3").returncode == 0
    assert shown_with_pillow()  # the position moved on: drawn again
    assert not shown_with_pillow()
    from PIL import Image

    with Image.open(tmp_path / "c-boards" / "druid-1.png") as picture:
        picture.load()  # the tagged file is a valid PNG
        assert picture.text.get("pbm-state")


# ---- 11, 12: swap and drop as the console shows them -------------------------------------------------------------


async def test_swap_keeps_the_move_number(console: Console) -> None:
    await console.run("druid challenge alice bob")
    assert (await console.run("druid move 1 alice c3#1")).ok
    swapped = await console.run("druid swap 1 bob")
    assert swapped.ok and swapped.result.move_number == 1
    assert (await console.run("druid move 1 alice d3#2")).ok


async def test_a_dropped_double_is_announced_and_logged_as_drop(console: Console) -> None:
    await console.run("backgammon challenge -force alice bob")
    assert (await console.run("backgammon manual 1 bob")).ok
    first = (await console.run("backgammon moves 1")).result.items[0]
    assert (await console.run(f"backgammon move 1 alice {first}")).ok
    assert (await console.run("backgammon double 1 bob")).ok
    offered = (await console.run("backgammon moves 1")).result.items
    assert "take" in offered and "drop" in offered
    dropped = await console.run("backgammon drop 1 alice")
    assert dropped.ok
    assert dropped.result.message.splitlines()[0] == "alice refused the double: bob wins 1 point"
    assert "resigned" not in dropped.result.message
    history = (await console.run("backgammon history 1")).result.items
    assert history[-1].endswith("alice: drop")


# ---- 3, 4: games ended at once still show ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "start", ["backgammon challenge -force alice bob", "dragons challenge alice bob", "druid challenge -hex alice bob",
              "drogo challenge alice bob carol"],
)  # fmt: skip
async def test_a_game_declined_at_once_shows_its_board_and_picture(tmp_path: Path, start: str) -> None:
    store = await Store.open(tmp_path / "e.sqlite3")
    console = Console(Actions(store, seed_source=lambda: 7), tmp_path / "boards")
    game = start.split()[0]
    assert (await console.run(start)).ok
    declined = await console.run(f"{game} resign 1 alice")
    assert declined.ok and "cancelled" in declined.result.message
    for _ in range(2):  # and again: the stored game still loads and draws
        shown = await console.run(f"{game} show 1")
        assert shown.ok and shown.board_path is not None and shown.board_path.read_bytes().startswith(b"\x89PNG")
        assert shown.result.board_text()
    await store.close()


async def test_drogo_positions_seen_are_kept_beside_the_snapshot_and_replay_exactly(tmp_path: Path) -> None:
    """Superko's memory grows by one position a move in its own table, not in the snapshot; what is stored is
    exactly what a replay of the log remembers (pbm check agrees)."""
    from bot.maintenance import check

    db = tmp_path / "k.sqlite3"
    store = await Store.open(db)
    console = Console(Actions(store, seed_source=lambda: 31), tmp_path / "boards", images=False)
    await console.run("drogo challenge -size=4 alice bob")
    for _ in range(30):
        listed = (await console.run("drogo moves 1")).result
        if listed.status != "active":
            break
        assert (await console.run(f"drogo move 1 {listed.to_move} {listed.items[len(listed.items) // 2]}")).ok
    row = await store.load_game(1)
    assert "seen" not in json.dumps(row.snapshot["board"]) and len(row.memory) > 25
    report = await check(console.actions)
    assert report.ok, report.lines()
    await store.close()
    again = await Store.open(db)
    assert (await again.load_game(1)).memory == row.memory
    await again.close()


async def test_damaged_positions_seen_are_refused_or_found_by_check(tmp_path: Path) -> None:
    """Superko's memory is read on every move: what would make moves judged wrongly at once (a cut value, the
    current position missing) refuses the game in one line and changes nothing; a position remembered twice,
    which judges alike, is for ``pbm check`` to find."""
    db = tmp_path / "m.sqlite3"
    store = await Store.open(db)
    console = Console(Actions(store, seed_source=lambda: 31), tmp_path / "boards", images=False)
    for _ in range(3):
        await console.run("drogo challenge -size=4 alice bob")
    for game in (1, 2, 3):
        for _ in range(6):
            listed = (await console.run(f"drogo moves {game}")).result
            assert (await console.run(f"drogo move {game} {listed.to_move} {listed.items[0]}")).ok
    await store.close()
    with sqlite3.connect(db) as raw:
        data = {g: raw.execute("SELECT data FROM game_memory WHERE game_id = ?", (g,)).fetchone()[0] for g in (1, 2, 3)}
        update = "UPDATE game_memory SET data = ? WHERE game_id = ?"
        raw.execute(update, (data[1][:-3], 1))  # a value cut short
        raw.execute(update, (data[2][:-8], 2))  # the current position lost
        raw.execute(update, (data[3] + data[3][:8], 3))  # the first position remembered twice
    before = dump(db)
    store = await Store.open(db)
    console = Console(Actions(store, seed_source=lambda: 31), tmp_path / "boards", images=False)
    assert "memory of game 1 is damaged" in await refused(console, "drogo show 1")
    assert "current position is missing" in await refused(console, "drogo move 2 alice a1")
    assert (await console.run("drogo show 3")).ok
    await store.close()
    assert dump(db) == before
    check = pbm(tmp_path, "check", "--db", str(db))
    assert check.returncode == 1 and "3 games differ" in check.stdout
    assert "game 3: its stored memory differs from its replayed move log" in check.stdout


def test_output_cut_short_by_the_reader_is_no_traceback(tmp_path: Path) -> None:
    for args in ("do --help", f"do --db {tmp_path / 'h.sqlite3'} help", "--help"):
        done = subprocess.run(
            ["sh", "-c", f"{sys.executable} -m bot {args} | true"], capture_output=True, text=True, cwd=ROOT
        )
        assert "Traceback" not in done.stderr and "Error" not in done.stderr, (args, done.stderr)
