"""Tournaments as a player meets them in the console: made, joined, started (by the organiser or when the signup
closes), a round's end pairing the next in the commit of its last game, withdrawals, timeouts, removals and
cancellations, knock-out draws and cancelled games played again, unrated tournaments, refusals in one line that
change nothing, and ``pbm check`` passing on all of it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.cli import main

NOW = "2026-12-01T09:00Z"
USAGE = "usage: druid tournament create|join|leave|start|show|standings|cancel|remove ..."


def pbm(db: Path, command: str, capsys: pytest.CaptureFixture[str], now: str = NOW) -> tuple[int, list[str]]:
    """``pbm do --now NOW COMMAND``: its exit code and the lines it printed (blank lines left out)."""
    code = main(["do", "--no-images", "--db", str(db), "--now", now, command])
    return code, [line for line in capsys.readouterr().out.splitlines() if line]


def ok(db: Path, command: str, capsys: pytest.CaptureFixture[str], now: str = NOW) -> list[str]:
    code, printed = pbm(db, command, capsys, now)
    assert code == 0, printed
    return printed


def refused(db: Path, command: str, capsys: pytest.CaptureFixture[str], now: str = NOW) -> str:
    """A command that must be refused: its one line (the database is checked unchanged by the caller)."""
    code, printed = pbm(db, command, capsys, now)
    assert code == 1 and len(printed) == 1, printed
    return printed[0]


def rows(db: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(db) as raw:
        return raw.execute(sql).fetchall()


def snapshot(db: Path) -> list[list[tuple]]:
    """What a refusal must leave as it was."""
    return [
        rows(db, f"SELECT * FROM {table} ORDER BY 1")
        for table in ("tournaments", "tournament_games", "games", "timers", "moves")
    ]


def made(db: Path, capsys: pytest.CaptureFixture[str], create: str, players: list[str]) -> None:
    ok(db, create, capsys)
    for player in players:
        ok(db, f"druid tournament join 1 {player}", capsys)


def finish(db: Path, game: int, loser: str, capsys: pytest.CaptureFixture[str], now: str = NOW) -> list[str]:
    """``loser`` resigns game ``game`` (a tournament game is never declined, even in its first round)."""
    return ok(db, f"druid resign {game} {loser}", capsys, now)


def test_a_tournament_is_made_joined_and_started(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.sqlite3"
    assert ok(db, "druid tournament create alice swiss 2 -size=5 -days=3 -max_players=4", capsys) == [
        "alice organises tournament 1: Druid (-size=5), Swiss of 2 rounds; 3 days per move; up to 4 players;"
        " alice starts it"
    ]
    assert ok(db, "druid tournament join 1 bob", capsys) == ["bob joined tournament 1 (1 player)"]
    for player in ("carol", "dave", "erin"):
        ok(db, f"druid tournament join 1 {player}", capsys)
    before = snapshot(db)
    assert refused(db, "druid tournament join 1 frank", capsys) == "error: tournament 1 is full (4 players)"
    assert refused(db, "druid tournament join 1 bob", capsys) == "error: you are in tournament 1 already"
    assert refused(db, "druid tournament start 1 bob", capsys) == (
        "error: only alice, who organised tournament 1, or a moderator can do that"
    )
    assert snapshot(db) == before
    assert ok(db, "druid tournament show 1", capsys) == [
        "Tournament 1: Druid (-size=5), Swiss of 2 rounds; 3 days per move, organised by alice (signing up)",
        "4 players: bob, carol, dave, erin",
    ]
    assert ok(db, "druid tournament leave 1 erin", capsys) == ["erin left tournament 1 (3 players left)"]
    ok(db, "druid tournament join 1 erin", capsys)
    assert ok(db, "druid tournament start 1 alice", capsys) == [
        "Tournament 1 has started: 4 players",
        "Druid (-size=5), Swiss of 2 rounds; 3 days per move",
        "Round 1 of 2 of tournament 1: 2 games",
        "  board 1: game 1, bob v dave",
        "  board 2: game 2, erin v carol",
    ]
    assert rows(db, "SELECT id, players, options FROM games") == [
        (1, '["bob","dave"]', '{"size":5,"hex":false,"walk":false,"nostack":false,"nogaps":false,"y":false}'),
        (2, '["erin","carol"]', '{"size":5,"hex":false,"walk":false,"nostack":false,"nogaps":false,"y":false}'),
    ]
    assert rows(db, "SELECT json_extract(clock, '$.rules.days') FROM games") == [(3,), (3,)]
    assert ok(db, "druid games bob", capsys)[1] == "druid 1: move 0, bob, dave: bob's turn, 3d left"
    assert refused(db, "druid tournament join 1 frank", capsys) == (
        "error: tournament 1 has started: its signup is over"
    )
    assert ok(db, "tournaments", capsys) == [
        "1 tournament signing up or running",
        "tournament 1: Druid (-size=5), Swiss of 2 rounds; 3 days per move (round 1 being played), organised by alice",
    ]


@pytest.mark.parametrize(
    ("command", "answer"),
    [
        ("druid tournament create alice league 3", "'league' is not a format: choose swiss, round-robin or knock-out"),
        ("druid tournament create alice swiss", "a Swiss needs its number of rounds"),
        (
            "druid tournament create alice round-robin 3",
            "a round robin has as many rounds as its players need: leave the number of rounds out",
        ),
        (
            "drogo tournament create alice knock-out -table=3",
            "a knock-out is for games of two: choose swiss or round-robin for tables of three or four",
        ),
        ("druid tournament create alice swiss 3 -table=4", "Druid is played by 2 to 3 players, not 4"),
        ("druid tournament create alice swiss 3 -table=2-4",
         "tables of 2 and 4 do not go together: write one size, or two in a row"),
        ("druid tournament create alice swiss 3 -size=99", "option -size=99 is out of range (3..26)"),
        ("druid tournament create alice swiss 3 -days=0", "option -days=0 is out of range (1..30)"),
        ("druid tournament create alice swiss 3 -signup_until=2026-11-30", "the signup must close in the future"),
        ("druid tournament create alice swiss 3 -signup_until=soon",
         "'soon' is not a time: write a time in UTC like 2026-12-01T09:00Z, or a wait like 3d"),
        ("druid tournament create alice swiss 3 -max_players=1", "a tournament takes 2 to 1000 players, not 1"),
        ("druid tournament create ai:1 swiss 3", "computer players do not organise tournaments"),
        ("druid tournament create alice swiss 3 -rating_min=1500",
         "a rating range is for open challenges: a tournament is open to every player"),
        ("druid tournament join 1 ai:2", "computer players do not play in tournaments"),
        ("druid tournament join 7 bob", "there is no tournament 7"),
        ("drogo tournament join 1 bob", "tournament 1 is of druid, not drogo: use 'druid tournament join ...'"),
        ("druid tournament leave 1 zed", "you are not in tournament 1"),
        ("druid tournament start 1 alice", "a tournament needs at least 2 players, not 1"),
        ("druid tournament frobnicate 1", USAGE),
        ("druid tournament", USAGE),
        ("druid tournament join", "usage: druid tournament join <id> <user>"),
        ("druid tournament join x bob", "'x' is not a tournament number: write it with the digits 0-9"),
        ("druid tournament remove 1 alice", "usage: druid tournament remove <id> <user> <player> [reason ...]"),
        ("druid tournament cancel 1 bob", "only alice, who organised tournament 1, or a moderator can do that"),
    ],
)  # fmt: skip
def test_refusals_are_one_line_and_change_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, answer: str
) -> None:
    db = tmp_path / "t.sqlite3"
    ok(db, "druid tournament create alice swiss 2 -size=5", capsys)
    ok(db, "druid tournament join 1 bob", capsys)
    before = snapshot(db)
    assert refused(db, command, capsys) == f"error: {answer}"
    assert snapshot(db) == before


def test_the_signup_closes_at_its_time_and_the_tournament_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.sqlite3"
    ok(db, "druid tournament create alice swiss 5 -size=5 -signup_until=1d", capsys)
    assert rows(db, "SELECT kind, ref, due_at FROM timers") == [("tournament", 1, 1796202000.0)]  # 12-02 09:00
    for player in ("bob", "carol", "dave"):
        ok(db, f"druid tournament join 1 {player}", capsys)
    assert ok(db, "tick", capsys, "2026-12-02T08:59Z") == ["nothing due at Wed 2026-12-02 08:59 UTC"]
    assert ok(db, "tick", capsys, "2026-12-02T09:00Z") == [
        "1 thing done at Wed 2026-12-02 09:00 UTC",
        "tournament: Tournament 1 has started: 3 players (5 rounds were planned; 3 players allow 3)",
        "Druid (-size=5), Swiss of 3 rounds; 7 days per move",
        "Round 1 of 3 of tournament 1: 1 game",
        "  board 1: game 1, bob v carol",
        "  bye: dave",
    ]
    assert rows(db, "SELECT kind FROM timers") == [("clock",)]
    assert rows(db, "SELECT status FROM tournaments") == [("running",)]
    assert ok(db, "tick", capsys, "2026-12-02T09:01Z") == ["nothing due at Wed 2026-12-02 09:01 UTC"]


def test_a_signup_that_closes_with_too_few_players_cancels_the_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.sqlite3"
    ok(db, "druid tournament create alice round-robin -signup_until=2026-12-01T12:00Z", capsys)
    ok(db, "druid tournament join 1 bob", capsys)
    assert ok(db, "tick", capsys, "2026-12-01T12:00Z")[1] == (
        "tournament: The signup of tournament 1 closed with 1 player: it is cancelled (a tournament needs at least"
        " 2 players, not 1)"
    )
    assert rows(db, "SELECT status FROM tournaments") == [("cancelled",)]
    assert rows(db, "SELECT COUNT(*) FROM timers") == [(0,)]


def test_the_last_game_of_a_round_pairs_the_next_in_its_own_commit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.sqlite3"
    made(db, capsys, "druid tournament create alice swiss 2 -size=5", ["bob", "carol", "dave", "erin"])
    ok(db, "druid tournament start 1 alice", capsys)
    first = finish(db, 1, "bob", capsys)  # the first round: a tournament game is lost, not declined
    assert first[:2] == ["bob resigned", "dave wins: bob resigned"]
    assert not any("tournament" in line for line in first)
    assert rows(db, "SELECT COUNT(*) FROM games") == [(2,)]
    last = finish(db, 2, "erin", capsys)
    assert last[:4] == [
        "erin resigned",
        "carol wins: erin resigned",
        "Druid: carol won",
        "round 1 of tournament 1 is over; round 2 of tournament 1 has started",
    ]
    assert last[5:8] == [
        "Round 2 of 2 of tournament 1: 2 games",
        "  board 1: game 3, carol v dave",
        "  board 2: game 4, erin v bob",
    ]
    assert rows(db, "SELECT game_id, round, board, attempt, recorded FROM tournament_games") == [
        (1, 1, 1, 1, 1),
        (2, 1, 2, 1, 1),
        (3, 2, 1, 1, 0),
        (4, 2, 2, 1, 0),
    ]
    assert ok(db, "druid tournament show 1", capsys)[1:] == [
        "1. carol: 1 point (Buchholz 0, Sonneborn-Berger 0), 1 game",
        "1. dave: 1 point (Buchholz 0, Sonneborn-Berger 0), 1 game",
        "3. bob: 0 points (Buchholz 1, Sonneborn-Berger 0), 1 game",
        "3. erin: 0 points (Buchholz 1, Sonneborn-Berger 0), 1 game",
        "round 2:",
        "  board 1: game 3, carol v dave: being played",
        "  board 2: game 4, erin v bob: being played",
    ]
    finish(db, 3, "carol", capsys)
    end = finish(db, 4, "erin", capsys)
    assert "round 2 of tournament 1 is over; tournament 1 is over: dave won it" in end
    assert rows(db, "SELECT status FROM tournaments") == [("finished",)]
    assert main(["check", "--db", str(db)]) == 0


def test_withdrawing_loses_the_running_game_and_keeps_finished_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.sqlite3"
    made(db, capsys, "druid tournament create alice round-robin -size=5", ["bob", "carol", "dave", "erin"])
    ok(db, "druid tournament start 1 alice", capsys)
    finish(db, 1, "bob", capsys)  # erin beats bob
    finish(db, 2, "carol", capsys)  # round 2: game 3 erin v dave, game 4 bob v carol
    assert ok(db, "druid tournament leave 1 bob", capsys) == [
        "bob withdrew from tournament 1: their games without a result are lost",
        "bob left game 4: they withdrew",
        "bob resigned",
        "carol wins: bob resigned",
        "Druid: carol won",
    ]
    assert rows(db, "SELECT status, json_extract(outcome, '$.reason') FROM games WHERE id = 4") == [
        ("finished", "bob resigned")
    ]
    assert ok(db, "history 4", capsys)[-1] == "   1. bob: forfeit"
    standings = ok(db, "druid tournament show 1", capsys)
    assert "4. bob (withdrawn): 0 points (Sonneborn-Berger 0, head-to-head 0), 1 game" in standings  # it stands
    assert "2. erin: 1 point (Sonneborn-Berger 0, head-to-head 0), 1 game" in standings
    assert "  board 2: game 4, bob v carol: carol won by forfeit" in standings
    third = finish(db, 3, "erin", capsys)
    assert third[third.index("Round 3 of 3 of tournament 1: 1 game") :][:3] == [
        "Round 3 of 3 of tournament 1: 1 game",
        "  board 1: game 5, carol v erin",
        "  board 2: dave v bob: decided by forfeit",
    ]
    assert rows(db, "SELECT COUNT(*) FROM games") == [(5,)]  # no game for a board decided by forfeit
    assert main(["check", "--db", str(db)]) == 0


def test_a_player_out_of_time_is_out_of_the_tournament(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.sqlite3"
    made(db, capsys, "druid tournament create alice swiss 3 -size=5 -days=1", ["bob", "carol", "dave", "erin"])
    ok(db, "druid tournament start 1 alice", capsys)
    ok(db, "druid move 1 bob c3", capsys)
    finish(db, 2, "erin", capsys, "2026-12-01T10:00Z")
    ticked = ok(db, "tick", capsys, "2026-12-02T09:30Z")
    assert "timeout: dave ran out of time" in ticked
    assert "dave is out of tournament 1; round 1 of tournament 1 is over; round 2 of tournament 1 has started" in ticked
    assert rows(db, "SELECT players FROM games WHERE id > 2") == [('["carol","bob"]',)]
    assert ok(db, "druid tournament show 1", capsys)[-1] == "  bye: erin"  # dave is not paired again


def test_the_organiser_removes_a_player_and_cancels(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.sqlite3"
    made(db, capsys, "druid tournament create alice swiss 2 -size=5", ["bob", "carol", "dave", "erin"])
    ok(db, "druid tournament start 1 alice", capsys)
    assert ok(db, "druid tournament remove 1 alice dave left the server", capsys) == [
        "dave was removed from tournament 1: their games without a result are lost",
        "dave left game 1: left the server",
        "dave resigned",
        "bob wins: dave resigned",
        "Druid: bob won",
    ]
    assert rows(db, "SELECT status, json_extract(outcome, '$.winners') FROM games WHERE id = 1") == [
        ("finished", "[0]")
    ]
    assert ok(db, "druid tournament cancel 1 alice not enough time", capsys) == [
        "Tournament 1 was cancelled by alice: not enough time",
        "1 running game ended without a result",
    ]
    assert rows(db, "SELECT status, json_extract(outcome, '$.reason') FROM games WHERE id = 2") == [
        ("cancelled", "cancelled: tournament 1 was cancelled")
    ]
    assert rows(db, "SELECT COUNT(*) FROM rating_changes WHERE game_id = 2") == [(0,)]
    assert refused(db, "druid tournament cancel 1 alice", capsys) == "error: tournament 1 has been cancelled"
    assert main(["check", "--db", str(db)]) == 0


def test_a_drawn_knock_out_game_is_played_again_with_the_seats_swapped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.sqlite3"
    made(db, capsys, "druid tournament create alice knock-out -size=5", ["bob", "carol"])
    ok(db, "druid tournament start 1 alice", capsys)
    ok(db, "druid move 1 bob c3", capsys)
    ok(db, "druid move 1 carol d4", capsys)
    ok(db, "druid propose 1 bob draw", capsys)
    drawn = ok(db, "druid accept 1 carol", capsys)
    assert "game 1 was drawn: board 1 of round 1 is played again, the seats swapped" in drawn
    assert "Board 1 of round 1 is played again as game 2: carol v bob" in drawn
    assert rows(db, "SELECT players FROM games WHERE id = 2") == [('["carol","bob"]',)]
    assert rows(db, "SELECT round, board, attempt FROM tournament_games WHERE game_id = 2") == [(1, 1, 2)]
    end = finish(db, 2, "carol", capsys)
    assert "round 1 of tournament 1 is over; tournament 1 is over: bob won it" in end


def test_a_cancelled_game_is_played_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.sqlite3"
    made(db, capsys, "druid tournament create alice swiss 1 -size=5", ["bob", "carol"])
    ok(db, "druid tournament start 1 alice", capsys)
    cancelled = ok(db, "admin cancel 1 a rules dispute", capsys)
    assert "game 1 was cancelled: board 1 of round 1 is played again" in cancelled
    assert rows(db, "SELECT players FROM games WHERE id = 2") == [('["bob","carol"]',)]


@pytest.mark.parametrize(("options", "rated"), [("", 2), ("-unrated", 0)])
def test_tournament_games_are_rated_unless_it_is_unrated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: str, rated: int
) -> None:
    db = tmp_path / "t.sqlite3"
    made(db, capsys, f"druid tournament create alice swiss 1 -size=5 {options}", ["bob", "carol"])
    ok(db, "druid tournament start 1 alice", capsys)
    finish(db, 1, "bob", capsys)
    assert rows(db, "SELECT COUNT(*) FROM rating_changes") == [(rated,)]


def test_a_match_option_reaches_every_game_as_a_challenge_takes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``-match=n`` is Backgammon's own option: a tournament passes it to the game, which takes it (once matches
    exist) or refuses it with the same words as a challenge."""
    db = tmp_path / "t.sqlite3"
    code, challenge = pbm(db, "backgammon challenge -match=5 alice bob", capsys)
    code_t, tournament = pbm(db, "backgammon tournament create alice knock-out -match=5", capsys)
    if code != 0:
        assert code_t == 1 and tournament == challenge
        return
    assert code_t == 0
    for player in ("bob", "carol"):
        ok(db, f"backgammon tournament join 1 {player}", capsys)
    ok(db, "backgammon tournament start 1 alice", capsys)
    options = rows(db, "SELECT options FROM games ORDER BY id")
    assert options[0] == options[-1]


def test_the_console_writes_the_standings_picture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.sqlite3"
    made(db, capsys, "druid tournament create alice swiss 1 -size=5", ["bob", "carol"])
    ok(db, "druid tournament start 1 alice", capsys)
    assert main(["do", "--db", str(db), "--now", NOW, "druid tournament show 1"]) == 0
    printed = capsys.readouterr().out.splitlines()
    picture = tmp_path / "t-boards" / "tournament-1.png"
    assert f"standings: {picture}" in printed and picture.read_bytes().startswith(b"\x89PNG")
