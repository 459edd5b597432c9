"""Issue 26's console items: help that lists every game's options, cross-game listings, the ``--json`` guard, ASCII
coordinates, no hidden typo alias, ``--now`` out of range, bytes that are not UTF-8, and refusals that stay one line
(control characters escaped, never echoed raw)."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from bot.actions import Actions
from bot.console import Console, render_json, render_text
from data.store import Store
from rules import registry
from rules.base import IllegalMoveError, MoveSyntaxError
from tests.fakediscord.pbm import pbm_running, start_game

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]

ROOT = Path(__file__).resolve().parent.parent
EVERY_GAME_OPTIONS = ("-days=n", "-total=n", "-weekends", "-untimed", "-novacation", "-noundo", "-unrated")
NOON = 1_796_212_800.0  # Tue 2026-12-01 12:00 UTC


class Clock:
    """The console's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = NOON

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def console(tmp_path: Path, clock: Clock) -> AsyncIterator[Console]:
    store = await Store.open(tmp_path / "pbm.sqlite3")
    yield Console(Actions(store, seed_source=lambda: 2026, clock=clock), tmp_path / "boards", images=False)
    await store.close()


async def text(console: Console, line: str) -> str:
    """What ``pbm do LINE`` prints."""
    return render_text(await console.run(line))


async def refused(console: Console, line: str) -> str:
    """The one line a refused command prints."""
    outcome = await console.run(line)
    assert not outcome.ok, f"{line!r} was not refused"
    printed = render_text(outcome)
    assert "\n" not in printed and "\n" not in outcome.result.message, printed
    return printed


def dump(path: Path) -> list[str]:
    with sqlite3.connect(path) as raw:
        return list(raw.iterdump())


def pbm(tmp_path: Path, *args: str | bytes, stdin: bytes | None = None, **env: str) -> subprocess.CompletedProcess:
    """``python -m bot ARGS`` as a user runs it (arguments may be bytes that are not UTF-8); output as bytes."""
    environment = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    environment.update({"PYTHONPATH": str(ROOT), "PBM_DATA_DIR": str(tmp_path / "data"), **env})
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        cwd=tmp_path,
        env=environment,
        timeout=60,
        check=False,
    )


def lines(data: bytes) -> list[str]:
    """Output as the terminal shows it, split where it would break a line (a carriage return too)."""
    return data.decode("utf-8", "replace").splitlines()


# ---- item 8: help lists the options every game takes, in the console and in Discord's /help ----------------------


async def test_help_alone_lists_the_options_every_game_takes(console: Console) -> None:
    printed = await text(console, "help")
    assert "Options every game takes, at the challenge (druid challenge -days=3 -weekends alice bob):" in printed
    for option in EVERY_GAME_OPTIONS:
        assert f"\n  {option}" in printed, option
    assert "  -unrated: the game does not count for the ratings" in printed.splitlines()
    assert printed.startswith("Commands (pbmserv style")


async def test_help_names_a_game_or_suggests_one(console: Console) -> None:
    assert await text(console, "help druid") == await text(console, "druid help")
    assert await refused(console, "help drudi") == (
        "error: unknown game 'drudi' (games: backgammon, dragons, drogo, druid); did you mean 'druid'?"
    )
    assert await refused(console, "help druid rules") == "error: usage: help [<game>]"


async def test_discord_help_alone_lists_the_options_every_game_takes(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3"):
        reply = await w.fake.reply(await w.fake.slash(w.alice, w.channel, "help"))
    assert reply.ephemeral and "Games: backgammon, dragons, drogo, druid" in reply.text()
    for option in EVERY_GAME_OPTIONS:
        assert f"  {option}" in reply.text(), option


# ---- item 11: games and history without a game word ----------------------------------------------------------------


async def test_games_without_a_game_word_lists_every_game_least_time_left_first(console: Console, clock: Clock) -> None:
    for line in (
        "backgammon challenge -untimed alice bob",
        "drogo challenge -days=5 carol alice",
        "druid challenge -days=2 alice dave",
        "dragons challenge -days=9 bob carol",
    ):
        assert (await console.run(line)).ok
    clock.now += 3600
    printed = await text(console, "games alice")
    assert printed.splitlines() == [
        "3 active games for alice",
        "",
        "druid 3: move 0, alice, dave: alice's turn, 1d 23h left",
        "drogo 2: move 0, carol, alice: carol's turn, 4d 23h left",
        "backgammon 1: move 0, alice, bob: bob's turn",
    ]
    everyone = await text(console, "games all")
    assert everyone.startswith("4 games\n") and "dragons 4: move 0, bob, carol" in everyone
    assert (await text(console, "games carol bob next")).count(" next game") == 2


async def test_games_without_a_game_word_pages_like_a_game_s_listing(console: Console) -> None:
    for number in range(51):
        game = "druid" if number % 2 else "drogo"
        assert (await console.run(f"{game} challenge alice p{number}")).ok
    first = await text(console, "games alice")
    second = await text(console, "games alice page 2")
    assert first.startswith("51 active games for alice, 1-50 shown; 1 more (page 2)")
    assert second.splitlines()[0] == "51 active games for alice, 51-51 shown"
    assert await refused(console, "games alice page 3") == "error: alice has 51 active games: there is no page 3"


async def test_history_of_a_game_number_alone_works_for_any_game(console: Console) -> None:
    assert (await console.run("druid challenge -size=5 alice bob")).ok
    assert (await console.run("drogo challenge -size=4 carol dave")).ok
    assert (await console.run("drogo move 2 carol b2")).ok
    assert (await console.run("druid resign 1 alice")).ok
    assert await text(console, "history 2") == await text(console, "drogo history 2")
    assert "   1. carol: b2" in (await text(console, "history 2")).splitlines()
    assert "druid 1: " in await text(console, "history")  # alone: the finished games of every game
    assert await refused(console, "history 9") == "error: there is no game 9"
    assert await refused(console, "history 2 3") == "error: usage: history [<id>]"
    assert await refused(console, "druid history 1 2") == "error: usage: druid history [<id>]"


# ---- item 12: --json's guard ---------------------------------------------------------------------------------------


def test_json_gives_the_number_the_move_guard_takes(tmp_path: Path) -> None:
    db = str(tmp_path / "json.sqlite3")

    def do(*words: str) -> dict:
        done = pbm(tmp_path, "do", "--db", db, "--no-images", "--json", *words)
        return json.loads(done.stdout)

    started = do("druid challenge -size=5 alice bob")
    assert (started["move_number"], started["guard"]) == (0, 1)
    assert "(move 1)" in started["message"]
    assert do("druid preview 1 alice c3")["guard"] == 1
    played = do(f"druid move 1 alice c3#{started['guard']}")
    assert played["ok"] and (played["move_number"], played["guard"]) == (1, 2)
    assert do("druid show 1#0")["guard"] == 1  # the position shown: its "(move 1)"
    assert do("druid games alice")["guard"] is None
    assert do("druid move 1 bob c4#1")["ok"] is False
    resigned = do("druid resign 1 bob")  # in the first round: the game is cancelled
    assert resigned["status"] == "cancelled" and resigned["guard"] is None


# ---- item 13: coordinates are ASCII, in every front ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "move", "ascii"),
    [
        ("druid", "d٤", "d4"),
        ("druid", "b٢-b٤", "b2-b4"),
        ("drogo", "c٣", "c3"),
        ("drogo", "c3,d٣", "c3,d3"),
        ("dragons", "a١", "a1"),
        ("dragons", "a@٠,٠", "a@0,0"),
    ],
)
def test_a_coordinate_with_other_scripts_digits_is_no_move(game: str, move: str, ascii: str) -> None:
    definition = registry.get(game)
    state = definition.new(definition.parse_options([], 2), ["alice", "bob"], 7)
    with contextlib.suppress(IllegalMoveError):
        state.parse_move(ascii)  # read as a move (legal or not where it stands)
    with pytest.raises(MoveSyntaxError):
        state.parse_move(move)


async def test_the_console_refuses_d4_in_arabic_indic_digits_and_changes_nothing(
    console: Console, tmp_path: Path
) -> None:
    assert (await console.run("druid challenge -size=5 alice bob")).ok
    before = dump(tmp_path / "pbm.sqlite3")
    assert (await refused(console, "druid move 1 alice d٤")).startswith("error: d٤: not a Druid move")
    assert dump(tmp_path / "pbm.sqlite3") == before


async def test_discord_refuses_d4_in_arabic_indic_digits(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        posts = len(w.fake.channel_log(table.thread.id))
        answer = await table.move(w.alice, "d٤")
        shown = await bot.actions.show(1)
    assert answer.ephemeral and "not a Druid move" in answer.text()
    assert len(w.fake.channel_log(table.thread.id)) == posts and shown.move_number == 0


# ---- item 14: a typo is answered, never played -----------------------------------------------------------------------


async def test_a_mistyped_command_is_answered_with_the_closest_and_does_nothing(
    console: Console, tmp_path: Path
) -> None:
    assert (await console.run("druid challenge -size=5 alice bob")).ok
    before = dump(tmp_path / "pbm.sqlite3")
    assert (
        await refused(console, "druid mvoe 1 alice c3") == "error: unknown druid command 'mvoe'; did you mean 'move'?"
    )
    assert await refused(console, "backgammon rol 1 alice") == (
        "error: unknown backgammon command 'rol'; did you mean 'roll'?"
    )
    assert await refused(console, "gmaes alice") == (
        "error: unknown game 'gmaes' (games: backgammon, dragons, drogo, druid); did you mean 'games'?"
    )
    assert await refused(console, "druid frobnicate 1 alice") == (
        "error: unknown druid command 'frobnicate'; type 'druid help' or 'help'"
    )
    assert dump(tmp_path / "pbm.sqlite3") == before


# ---- item 27: --now out of range ----------------------------------------------------------------------------------


@pytest.mark.parametrize("moment", ["1000-01-01T00:00Z", "1699-12-31T23:59Z", "5000-01-01T00:00Z", "9999-12-31"])
def test_now_out_of_range_is_refused_in_one_line(tmp_path: Path, moment: str) -> None:
    done = pbm(tmp_path, "do", "--db", str(tmp_path / "x.sqlite3"), "--now", moment, "druid show 1")
    assert done.returncode == 2 and done.stdout == b""
    assert lines(done.stderr) == [f"pbm: --now '{moment}': pbm keeps time from 1700-01-01 up to 5000-01-01 (UTC)"]
    assert not (tmp_path / "x.sqlite3").exists()


def test_now_at_either_end_of_the_range_runs_a_timed_game(tmp_path: Path) -> None:
    for moment in ("1700-01-01T00:00Z", "4999-12-31T23:59Z"):
        db = str(tmp_path / f"{moment[:4]}.sqlite3")
        for command in ("druid challenge -days=30 -weekends alice bob", "vacation alice on", "tick", "druid show 1"):
            done = pbm(tmp_path, "do", "--db", db, "--no-images", "--now", moment, command)
            assert done.returncode == 0 and b"Traceback" not in done.stderr, (moment, command, done.stderr)


# ---- item 29: bytes that are not UTF-8 -------------------------------------------------------------------------------


def test_a_command_line_that_is_not_utf8_is_refused_before_the_database(tmp_path: Path) -> None:
    db = tmp_path / "x.sqlite3"
    assert pbm(tmp_path, "do", "--db", str(db), "druid challenge -size=5 alice bob").returncode == 0
    before = dump(db)
    done = pbm(tmp_path, "do", "--db", str(db), b"druid move 1 \xff c1")
    assert done.returncode == 1 and done.stderr == b""
    assert lines(done.stdout) == [
        "error: the command is not UTF-8 text (\\xff at character 14): check the terminal's encoding"
    ]
    identity = pbm(tmp_path, "do", "--db", str(db), "--as", b"\xff", "druid move 1 c1")
    assert identity.returncode == 2 and identity.stdout == b""
    assert lines(identity.stderr) == ["pbm: --as \\xff: not UTF-8 text (check the terminal's encoding)"]
    assert dump(db) == before


def test_the_interactive_console_refuses_bytes_that_are_not_utf8_whatever_the_locale(tmp_path: Path) -> None:
    db = str(tmp_path / "x.sqlite3")
    typed = b"druid games \xff\ndruid challenge -size=5 alice bob\nquit\n"
    done = pbm(tmp_path, "console", "--db", db, "--no-images", stdin=typed, PYTHONIOENCODING="utf-8:strict")
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    printed = lines(done.stdout)
    assert "pbm> error: the command is not UTF-8 text (\\xff at character 13): check the terminal's encoding" in printed
    assert any("Druid game 1 started: alice, bob" in line for line in printed)


# ---- item 31: every refusal one line, control characters escaped ---------------------------------------------------


async def test_a_listing_refused_for_one_user_is_one_line(console: Console) -> None:
    for line in ("druid challenge alice bob", "backgammon challenge carol bob"):
        assert (await console.run(line)).ok
    assert await refused(console, "druid games bob page 2 druid games bob page 2") == (
        "error: usage: druid games [user ...] [all|active|inactive|next] [page N]   (one page number)"
    )
    assert await refused(console, "backgammon games carol 0 page 2") == (
        "error: carol has 1 active Backgammon game: there is no page 2"
    )
    assert await refused(console, "druid games bob all next") == (
        "error: usage: druid games [user ...] [all|active|inactive|next] [page N]"
        "   (one filter: all, active, inactive or next)"
    )
    outcome = await console.run("backgammon games carol 0 page 2")
    assert json.loads(render_json(outcome))["message"] == "carol has 1 active Backgammon game: there is no page 2"


async def test_control_characters_in_a_refusal_are_written_escaped(console: Console) -> None:
    assert (await console.run("druid challenge -size=5 alice bob")).ok
    printed = await refused(console, "druid move 1 alice 'c3\x1b[2J'")
    assert printed.startswith("error: c3\\x1b[2J: not a Druid move")
    outcome = await console.run("druid move 1 alice 'c3\x1b[2J'")
    assert json.loads(render_json(outcome))["message"].startswith("c3\\x1b[2J: not a Druid move")


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["--now", "2026\r-01"], "pbm: --now '2026\\r-01': write a time like 2026-12-01T09:00Z"),
        (["--as", "a\rb"], "pbm: --as: 'a b' cannot be a player name: use 1 to 32 letters, digits, '_', '.' or '-'"),
        (["--bogus\r"], "pbm: unknown option '--bogus\\r' (pbm do --help lists them)"),
    ],
)
def test_control_characters_in_pbm_s_options_are_written_escaped(tmp_path: Path, args: list[str], shown: str) -> None:
    done = pbm(tmp_path, "do", "--db", str(tmp_path / "x.sqlite3"), *args, "druid show 1")
    assert done.returncode == 2 and done.stdout == b""
    assert lines(done.stderr) == [shown]
