"""What players read, line for line, through ``pbm do`` with ``--now`` (issue 26, items 9, 10, 16 and 17): counts in
the singular and the plural, a vacation that names the games it stops, a game lost on time told once, a player out of
time in a three-player game shown so, a fresh clock showing its whole allowance, listings not "for everyone",
Backgammon's points said once, the pace per move read from rated games only, and variants named by their options
minus the defaults (also in databases written before, once upgraded)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.actions import Actions
from bot.cli import main
from bot.console import Console, render_text
from bot.correspondence.clock import Clock
from bot.correspondence.options import TimeRules
from data.schema import _RENAME_VARIANTS, MIGRATIONS
from data.store import Store
from render.drogo import header as drogo_header
from render.druid.words import facts as druid_facts
from rules import registry
from tests.databases import Databases
from tests.test_ratings import tables

T0 = "2026-12-01T09:00Z"
#: the schema version before migration 7 renamed the variants (later migrations run again harmlessly)
BEFORE_RENAME = MIGRATIONS.index(_RENAME_VARIANTS)


def pbm(target: Path | str, now: str, command: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """``pbm do --now NOW COMMAND`` on ``target``: the exit code and what it printed."""
    code = main(["do", "--no-images", "--db", str(target), "--now", now, command])
    return code, capsys.readouterr().out


def lines(target: Path | str, now: str, command: str, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The lines a command that must succeed printed."""
    code, out = pbm(target, now, command, capsys)
    assert code == 0, out
    return out.splitlines()


async def apbm(target: Path | str, now: str, command: str, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """:func:`lines` from an async test (``pbm do`` runs its own event loop)."""
    return await asyncio.to_thread(lines, target, now, command, capsys)


def first_move(target: Path | str, now: str, game: str, game_id: int, capsys: pytest.CaptureFixture[str]) -> str:
    """The first legal move of a game, as ``--json`` lists them."""
    main(["do", "--json", "--no-images", "--db", str(target), "--now", now, f"{game} moves {game_id}"])
    return str(json.loads(capsys.readouterr().out)["items"][0])


# ---- item 9: the pace per move ---------------------------------------------------------------------------------


async def test_the_pace_per_move_comes_from_the_rated_games(
    databases: Databases, capsys: pytest.CaptureFixture[str]
) -> None:
    """alice takes 3 hours a move in a rated game, 2 days in an unrated one and 5 days in a rated game still
    running: her pace is that of the games her results count, 3 hours."""
    db = await databases.target()
    for command, now in [
        ("druid challenge -size=5 alice bob", T0),
        ("druid move 1 alice c3", "2026-12-01T12:00Z"),
        ("druid move 1 bob d4", "2026-12-01T12:00Z"),
        ("druid move 1 alice b2", "2026-12-01T15:00Z"),
        ("druid resign 1 bob", "2026-12-01T15:00Z"),
        ("druid challenge -size=5 -unrated alice bob", "2026-12-01T15:00Z"),
        ("druid move 2 alice c3", "2026-12-03T15:00Z"),
        ("druid move 2 bob d4", "2026-12-03T15:00Z"),
        ("druid move 2 alice b2", "2026-12-05T15:00Z"),
        ("druid resign 2 bob", "2026-12-05T15:00Z"),
        ("druid challenge -size=5 alice bob", "2026-12-05T15:00Z"),
        ("druid move 3 alice c3", "2026-12-10T15:00Z"),
    ]:
        await apbm(db, now, command, capsys)
    assert await apbm(db, "2026-12-10T15:00Z", "druid ratings alice", capsys) == [
        "alice: 1103? (rank 1 of 2); 1 game: 1 win, 0 losses, 0 draws; streak 1 win; 3h per move",
        "",
        "  -size=5: 1 game, 1 W 0 L 0 D",
    ]
    profile = await apbm(db, "2026-12-10T15:00Z", "profile alice", capsys)
    assert profile[2] == "Druid: 1103? (rank 1 of 2); 1 game: 1 win, 0 losses, 0 draws; streak 1 win; 3h per move"


# ---- item 17: variants -------------------------------------------------------------------------------------------


async def play_variants(db: Path | str, capsys: pytest.CaptureFixture[str]) -> None:
    """bob loses to alice once in each of five games, after one move each: Druid with no option, with
    ``-size=10 -nostack`` and with ``-hex -size=5``; Dragons with no option and with ``-tantrix -num_tiles=40``."""
    games = [
        ("druid", ""),
        ("druid", "-size=10 -nostack"),
        ("druid", "-hex -size=5"),
        ("dragons", ""),
        ("dragons", "-tantrix -num_tiles=40"),
    ]
    for game_id, (game, options) in enumerate(games, start=1):
        await apbm(db, T0, f"{game} challenge {options} bob alice", capsys)
        for player in ("bob", "alice"):
            move = await asyncio.to_thread(first_move, db, T0, game, game_id, capsys)
            await apbm(db, T0, f"{game} move {game_id} {player} {move}", capsys)
        await apbm(db, T0, f"{game} resign {game_id} bob", capsys)


async def test_a_game_with_the_default_options_is_the_standard_variant(
    databases: Databases, capsys: pytest.CaptureFixture[str]
) -> None:
    db = await databases.target()
    await play_variants(db, capsys)
    standard = await apbm(db, T0, "druid ratings standard", capsys)
    assert standard[0] == "Druid (standard) ratings: 2 players, page 1 of 1"
    assert [line.split()[1] for line in standard[2:]] == ["alice", "bob"]
    assert (await apbm(db, T0, "druid ratings -size=10", capsys))[0] == standard[0]  # the default, named
    assert (await apbm(db, T0, "druid ratings -hex -size=5", capsys))[
        0
    ] == "Druid (-hex) ratings: 2 players, page 1 of 1"
    assert (await apbm(db, T0, "druid ratings alice", capsys))[2:] == [
        "  -hex: 1 game, 1 W 0 L 0 D",
        "  -nostack: 1 game, 1 W 0 L 0 D",
        "  standard: 1 game, 1 W 0 L 0 D",
    ]
    assert (await apbm(db, T0, "dragons ratings standard", capsys))[0] == (
        "Dragons (standard) ratings: 2 players, page 1 of 1"
    )
    assert (await apbm(db, T0, "dragons ratings alice", capsys))[2:] == [
        "  -tantrix: 1 game, 1 W 0 L 0 D",
        "  standard: 1 game, 1 W 0 L 0 D",
    ]


#: the names pbm gave these variants before a variant was named without its defaults
OLD_NAMES = [
    ("druid", "standard", "-size=10"),
    ("druid", "-nostack", "-size=10 -nostack"),
    ("druid", "-hex", "-size=5 -hex"),
    ("dragons", "standard", "-num_tiles=50"),
    ("dragons", "-tantrix", "-num_tiles=40 -tantrix"),
]


async def rated_tables(db: Path | str) -> dict[str, list[tuple[Any, ...]]]:
    async with await Store.open(db) as store:
        return {table: sorted(rows) for table, rows in (await tables(store)).items()}


async def test_an_upgrade_renames_the_stored_variants_as_a_rebuild_names_them(
    databases: Databases, capsys: pytest.CaptureFixture[str]
) -> None:
    db = await databases.target()
    await play_variants(db, capsys)
    live = await rated_tables(db)
    # the database as the pbm before this one left it: the defaults in the variants' names, schema version 6
    for game, new, old in OLD_NAMES:
        for table in ("rating_variants", "rating_changes"):
            await databases.execute(
                db, f"UPDATE {table} SET variant = ? WHERE game_type = ? AND variant = ?", old, game, new
            )
    await databases.execute(db, "UPDATE schema_version SET version = ?", BEFORE_RENAME)
    assert (await apbm(db, T0, "druid ratings standard", capsys))[0] == (
        "Druid (standard) ratings: 2 players, page 1 of 1"
    )
    assert await rated_tables(db) == live
    rebuilt = await asyncio.to_thread(main, ["ratings", "rebuild", "--db", str(db)])
    assert rebuilt == 0
    assert capsys.readouterr().out == (
        "rebuilt the ratings from 5 rated games (5 finished): 2 players rated; the stored ratings were already exact\n"
    )
    # results kept under both names (the old one written by an older pbm beside the new one) are added together
    score = (
        await databases.execute(db, "SELECT score FROM ratings WHERE player_id = 'alice' AND game_type = 'druid'")
    )[0][0]
    await databases.execute(
        db,
        "INSERT INTO rating_variants (player_id, game_type, variant, score, games, wins, losses, draws, points_won,"
        " points_lost) VALUES ('alice', 'druid', '-size=10', ?, 2, 1, 0, 1, 0, 0)",
        score,
    )
    await databases.execute(db, "UPDATE schema_version SET version = ?", BEFORE_RENAME)
    assert (await apbm(db, T0, "druid ratings alice", capsys))[2:] == [
        "  standard: 3 games, 2 W 0 L 1 D",
        "  -hex: 1 game, 1 W 0 L 0 D",
        "  -nostack: 1 game, 1 W 0 L 0 D",
    ]


# ---- item 10: wording ------------------------------------------------------------------------------------------


def test_counts_are_written_in_the_singular_and_the_plural(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "pbm.sqlite3"
    assert lines(db, T0, "druid challenge -size=5 -days=1 -total=1 alice bob", capsys)[0] == (
        "Druid game 1 started: alice, bob (-size=5); 1 day per move, 1 day in all"
    )
    assert lines(db, T0, "druid propose 1 bob draw", capsys) == [
        "bob proposes to agree to a draw in game 1 (proposal 1); alice: accept or reject within 1 day (no answer"
        " counts as a rejection)"
    ]
    assert lines(db, T0, "druid moves 1 c3", capsys) == ["1 legal move for alice", "", "c3"]
    lines(db, T0, 'druid queue 1 bob "c3 d4"', capsys)
    assert lines(db, T0, "druid queue 1 bob", capsys)[0] == "bob has 1 queued line in game 1"
    assert lines(db, T0, "drogo challenge alice open", capsys)[0].endswith("challenge 1, 1 seat open to anyone")
    assert lines(db, T0, "challenges", capsys)[0] == "1 open challenge"
    assert lines(db, T0, "druid games alice", capsys)[0] == "1 active Druid game for alice"
    assert lines(db, "2026-12-02T09:00Z", "tick", capsys)[0] == "2 things done at Wed 2026-12-02 09:00 UTC"
    assert main(["check", "--db", str(db)]) == 0
    assert capsys.readouterr().out == "1 game checked: all sound\n"


def test_a_listing_without_a_player_names_nobody(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "pbm.sqlite3"
    assert lines(db, T0, "druid games", capsys) == ["no active Druid games"]
    lines(db, T0, "druid challenge -size=5 alice bob", capsys)
    assert lines(db, T0, "druid games", capsys) == [
        "1 active Druid game",
        "",
        "druid 1: move 0, alice, bob: alice's turn, 7d left",
    ]
    assert pbm(db, T0, "druid games page 2", capsys) == (1, "error: there is 1 active Druid game: there is no page 2\n")
    assert pbm(db, T0, "druid games bob page 2", capsys) == (
        1,
        "error: bob has 1 active Druid game: there is no page 2\n",
    )


def test_a_vacation_names_the_games_whose_clock_it_stops(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """bob goes on vacation while alice is to move: his clock will stand still in game 1 when his turn comes."""
    db = tmp_path / "pbm.sqlite3"
    lines(db, T0, "druid challenge -size=5 alice bob", capsys)
    lines(db, T0, "druid challenge -size=5 -novacation alice bob", capsys)
    lines(db, T0, "druid challenge -size=5 -untimed alice bob", capsys)
    assert lines(db, T0, "vacation bob on", capsys) == [
        "bob is on vacation: their clock stands still in 1 game. Vacation bank: 14d, so it ends by itself at"
        " Tue 2026-12-15 09:00 UTC at the latest",
        "",
        "bob is on vacation: their clock stands still (game 1)",
    ]
    assert lines(db, "2026-12-02T09:00Z", "vacation bob off", capsys) == [
        "bob's vacation is over (back from vacation): their clock runs again in 1 game; 13d left in the bank",
        "",
        "bob is back from vacation (game 1)",
    ]
    assert lines(db, T0, "vacation carol on", capsys)[0].startswith(
        "carol is on vacation: none of their games has a clock that vacations stop. Vacation bank: 14d"
    )


def test_a_game_lost_on_time_says_so_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "pbm.sqlite3"
    lines(db, T0, "druid challenge -size=5 -days=1 alice bob", capsys)
    lines(db, T0, "druid move 1 alice c3", capsys)
    lines(db, "2026-12-02T09:00Z", "tick", capsys)
    shown = lines(db, "2026-12-02T09:00Z", "druid show 1", capsys)
    assert shown[:3] == ["Druid: alice won (bob ran out of time)", "", "rated: alice 1103?, bob 945?"]
    assert not any(line.startswith("Druid: alice won") for line in shown[1:])


async def test_a_player_out_of_time_in_a_three_player_game_is_out_of_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "pbm.sqlite3"
    await apbm(db, T0, "drogo challenge -size=4 -days=1 alice bob carol", capsys)
    await apbm(db, T0, "drogo move 1 alice a1", capsys)
    await apbm(db, T0, "druid challenge -hex -days=1 alice bob carol", capsys)
    await apbm(db, T0, f"druid move 2 alice {await asyncio.to_thread(first_move, db, T0, 'druid', 2, capsys)}", capsys)
    assert await apbm(db, "2026-12-02T09:00Z", "tick", capsys) == [
        "2 things done at Wed 2026-12-02 09:00 UTC",
        "",
        "timeout: bob ran out of time",
        "Drogo: carol to move (move 3)",
        "timeout: bob ran out of time",
        "Druid: carol to move (move 3)",
    ]
    assert "x alice 1  o bob 0 (out of time)  y carol 0" in await apbm(db, "2026-12-02T09:00Z", "drogo show 1", capsys)
    carol = await asyncio.to_thread(first_move, db, "2026-12-02T09:00Z", "drogo", 1, capsys)
    await apbm(db, "2026-12-02T09:00Z", f"drogo move 1 carol {carol}", capsys)
    over = await apbm(db, "2026-12-02T09:00Z", "drogo resign 1 alice", capsys)
    assert over[-1] == "x alice 1 (resigned)  o bob 0 (out of time)  y carol 1"
    async with await Store.open(db) as store:
        drogo = registry.get("drogo").load((await store.load_game(1)).snapshot)
        druid = registry.get("druid").load((await store.load_game(2)).snapshot)
    # the pictures' seat lines
    seats = drogo_header(drogo).seats
    assert seats[0].facts[-1] == "resigned" and seats[1].facts[-1] == "out of time"
    assert druid_facts(druid, 1)[-1] == "out of time"
    assert main(["check", "--db", str(db)]) == 0
    assert capsys.readouterr().out == "2 games checked: all sound\n"


async def test_a_two_player_game_lost_on_time_before_timeouts_were_kept_reads_them_from_its_outcome(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A snapshot saved before ``timed_out`` existed: its outcome says who ran out of time, so it reads back equal
    to its replayed log (``pbm check`` finds it sound) and its board says "out of time"."""
    db = tmp_path / "pbm.sqlite3"
    await apbm(db, T0, "drogo challenge -size=4 -days=1 alice bob", capsys)
    await apbm(db, T0, "drogo move 1 alice a1", capsys)
    await apbm(db, "2026-12-02T09:00Z", "tick", capsys)
    async with await Store.open(db) as store:
        snapshot = (await store.load_game(1)).snapshot
    assert snapshot["timed_out"] == [1]
    older = {key: value for key, value in snapshot.items() if key != "timed_out"}
    state = registry.get("drogo").load(older)
    assert state.timed_out == {1} and state.to_json() == snapshot
    assert "x alice 1  o bob 0 (out of time)" in state.text_board()
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE games SET snapshot = ? WHERE id = 1", (json.dumps(older),))
    assert await asyncio.to_thread(main, ["check", "--db", str(db)]) == 0
    assert capsys.readouterr().out == "1 game checked: all sound\n"


def test_a_fresh_clock_shows_its_whole_allowance(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Read a few milliseconds after the move that started it (as a front does), a 7-day clock shows 7d."""
    db = tmp_path / "pbm.sqlite3"
    lines(db, T0, "druid challenge -size=5 alice bob", capsys)
    lines(db, T0, "druid move 1 alice c3", capsys)
    later = "2026-12-01T09:00:00.004Z"
    assert lines(db, later, "druid show 1", capsys)[-1] == "clock: alice 7d per move, bob 7d left"
    assert lines(db, later, "druid games bob", capsys)[-1] == "druid 1: move 1, alice, bob: bob's turn, 7d left"
    clock = Clock(TimeRules(days=7))
    clock.next_turn("bob", 0.0, "UTC", paused=False)
    assert clock.notes(["alice", "bob"], 0.004, "UTC") == {"alice": "7d per move", "bob": "7d left"}
    assert clock.notes(["alice", "bob"], 1.0, "UTC")["bob"] == "6d 23h left"  # a whole second gone is gone


async def test_backgammon_s_points_are_said_once(tmp_path: Path) -> None:
    """The game of docs/backgammon.md: bob resigns a doubled game, and the result names its 2 points once."""
    async with await Store.open(tmp_path / "pbm.sqlite3") as store:
        console = Console(Actions(store, seed_source=lambda: 1), tmp_path / "boards", images=False)
        for command in [
            "backgammon challenge -force alice bob",
            "backgammon move 1 alice 13-7,13-11",
            "backgammon move 1 bob 1/7* 1/2",
            "backgammon move 1 alice 22,11-7*",
            "backgammon move 1 bob 4,3x12-16",
            "backgammon manual 1 alice",
            "backgammon move 1 alice 13:5,22:1",
            "backgammon move 1 bob 12-17,12-16",
            "backgammon double 1 alice",
            "backgammon take 1 bob",
            "backgammon move 1 alice 8/3 6/3",
            "backgammon resign 1 bob",
        ]:
            assert (await console.run(command)).ok, command
        shown = render_text(await console.run("backgammon show 1")).splitlines()
    assert shown[0] == "Backgammon: alice won (bob resigned: alice wins 2 points)"


def test_an_analysis_counts_decisions_in_the_singular_and_the_plural() -> None:
    """``backgammon analyze``'s line per player (written in ``ai``, which cannot import ``bot.text``)."""
    from ai.analysis import PlayerSummary

    assert PlayerSummary(0, "alice", 1, 0.0).line().startswith("alice: 1 decision, 0.000 equity lost")
    assert PlayerSummary(1, "bob", 2, 0.0).line().startswith("bob: 2 decisions, 0.000 equity lost")


def test_a_game_between_computers_says_its_end_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The reply chain of an all-computer game closes with the short status when a line above gives the reason:
    once "ai:2 wins: ...", then "Druid: ai:2 won", never the status again in full."""
    printed = lines(tmp_path / "pbm.sqlite3", T0, "druid challenge -size=3 ai:1 ai:2", capsys)
    endings = [line for line in printed if " won" in line or " wins" in line]
    assert len(endings) == 2, endings
    assert endings[0].startswith(("ai:1 wins: ", "ai:2 wins: ")) and endings[1] in (
        "Druid: ai:1 won",
        "Druid: ai:2 won",
    )
