"""Whole tournaments played to the end by computer players (level 1) through the same moves a person makes: a
64-player Swiss of 6 rounds, a 10-player round robin, a knock-out of 13 with byes, and tables of three and four;
the standings each shows are checked against a computation from the games table alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tournaments import as_shown, filled, games_by_round, independent_standings, open_actions, play_out


async def _check_standings(actions, number: int, format_: str, players: list[str]) -> list[dict]:
    """The standings the action shows agree, player by player, with the independent computation."""
    shown = await actions.tournament_standings(number)
    assert shown.ok, shown.message
    expected = independent_standings(format_, players, await games_by_round(actions, number))
    rows = shown.data["rows"]
    assert len(rows) == len(players)
    for row in rows:
        rank, points, breaks = expected[row["player"]]
        assert (row["rank"], row["points"], row["tiebreaks"]) == (
            rank,
            as_shown(points),
            [as_shown(value) for value in breaks],
        ), row["player"]
    assert [row["rank"] for row in rows] == sorted(row["rank"] for row in rows)
    return rows


async def _swiss(tmp_path: Path, count: int, rounds: int) -> None:
    """A Swiss of ``count`` players and ``rounds`` rounds, played to the end and checked."""
    actions = await open_actions(tmp_path / "swiss.sqlite3")
    players = [f"p{k:02d}" for k in range(1, count + 1)]
    started = await filled(actions, "druid", "swiss", players, rounds=rounds, options=["-size=4", "-days=3"])
    assert started.message.splitlines()[:3] == [
        f"Tournament 1 has started: {count} players",
        f"Druid (-size=4), Swiss of {rounds} rounds; 3 days per move",
        f"Round 1 of {rounds} of tournament 1: {count // 2} games",
    ]
    told = await play_out(actions, 1)
    assert told[-1].news[0].standings and "tournament 1 is over" in told[-1].news[0].summary
    links = await actions.store.tournament_games(1)
    assert len(links) == rounds * count // 2 and {link.round for link in links} == set(range(1, rounds + 1))
    first = await actions.store.load_game(links[0].game_id)
    assert first.options == {"size": 4, "hex": False, "walk": False, "nostack": False, "nogaps": False, "y": False}
    assert first.clock is not None and first.clock["rules"]["days"] == 3
    rows = await _check_standings(actions, 1, "swiss", players)
    assert sum(row["games"] for row in rows) == rounds * count
    assert (await actions.store.load_tournament(1)).status == "finished"
    met = set()  # no pair met twice
    for game_rows in (await games_by_round(actions, 1)).values():
        for seats, _ in game_rows:
            assert frozenset(seats) not in met
            met.add(frozenset(seats))
    await actions.store.close()


@pytest.mark.slow
async def test_a_64_player_swiss_of_6_rounds_played_to_the_end(tmp_path: Path) -> None:
    await _swiss(tmp_path, 64, 6)


async def test_a_16_player_swiss_of_4_rounds_played_to_the_end(tmp_path: Path) -> None:
    """The default run's Swiss: the 64-player one takes half a minute on a busy machine (``-m slow``)."""
    await _swiss(tmp_path, 16, 4)


async def test_a_10_player_round_robin_played_to_the_end(tmp_path: Path) -> None:
    actions = await open_actions(tmp_path / "rr.sqlite3")
    players = [f"r{k}" for k in range(10)]
    started = await filled(actions, "druid", "round-robin", players, options=["-size=4"])
    assert "Round 1 of 9 of tournament 1: 5 games" in started.message.splitlines()
    await play_out(actions, 1)
    rows = await _check_standings(actions, 1, "round-robin", players)
    assert all(row["games"] == 9 for row in rows)
    rounds = await games_by_round(actions, 1)
    pairs = [frozenset(seats) for games in rounds.values() for seats, _ in games]
    assert len(pairs) == 45 == len(set(pairs))
    await actions.store.close()


async def test_a_knock_out_of_13_gives_the_top_seeds_byes_and_ends_with_a_champion(tmp_path: Path) -> None:
    actions = await open_actions(tmp_path / "ko.sqlite3")
    players = [f"k{k:02d}" for k in range(1, 14)]
    # everyone starts at the same rating: seeded by name, k01 first
    started = await filled(actions, "druid", "knock-out", players, options=["-size=4"])
    lines = started.message.splitlines()
    assert lines[2] == "Round 1 of 4 of tournament 1: 5 games"
    assert "  byes: k01, k02, k03" in lines
    await play_out(actions, 1)
    shown = await actions.tournament_standings(1)
    rows = shown.data["rows"]
    assert rows[0]["rank"] == 1 and rows[0]["tiebreaks"] == ["winner"]
    assert [row["tiebreaks"] for row in rows].count(["final"]) == 1
    assert shown.message.endswith(f"tournament 1 is over: {rows[0]['player']} won it")
    rounds = await games_by_round(actions, 1)
    assert [len(rounds[n]) for n in sorted(rounds)] == [5, 4, 2, 1]
    byes = {"k01", "k02", "k03"}
    assert not byes & {p for seats, _ in rounds[1] for p in seats}
    assert byes <= {p for seats, _ in rounds[2] for p in seats}
    await actions.store.close()


@pytest.mark.parametrize(
    ("game", "options", "table", "count", "rounds", "tables"),
    [
        ("drogo", ["-size=3"], "3", 7, 2, [3, 3]),  # one bye a round
        ("drogo", ["-size=3"], "3-4", 10, 1, [4, 3, 3]),
        ("drogo", ["-size=3"], "4", 8, 1, [4, 4]),
    ],
)
async def test_tables_of_three_and_four_score_by_place(
    tmp_path: Path, game: str, options: list[str], table: str, count: int, rounds: int, tables: list[int]
) -> None:
    actions = await open_actions(tmp_path / "tables.sqlite3")
    players = [f"d{k}" for k in range(count)]
    await filled(actions, game, "swiss", players, rounds=rounds, options=options, table=table)
    links = await actions.store.tournament_games(1)
    sizes = sorted([len((await actions.store.load_game(link.game_id)).players) for link in links], reverse=True)
    assert sizes == tables
    await play_out(actions, 1)
    shown = await actions.tournament_standings(1)
    assert shown.message.endswith("won it") or "share first place" in shown.message
    # points by place: a table of k players is k(k-1)/2 duels of one point, each weighted 1/(k-1), so k/2 points;
    # a bye is a win
    from fractions import Fraction

    from bot.competition import Tournament

    t = Tournament.from_json((await actions.store.load_tournament(1)).state)
    total = sum((s.points for s in t.standings()), Fraction(0))
    byes = count - sum(tables)
    assert total == rounds * (sum(Fraction(size, 2) for size in tables) + byes)
    assert sum(row["games"] for row in shown.data["rows"]) == rounds * sum(tables)
    for number in range(1, rounds + 1):  # every finished table's places are a ranking of its players
        for board in t.rounds[number - 1].tables:
            assert board.places is not None and 1 in board.places
    await actions.store.close()


async def test_a_backgammon_knock_out_plays_each_board_as_a_match(tmp_path: Path) -> None:
    """With ``-match=3`` a knock-out board is a match: its games follow one another on the board, and the board's
    result, recorded once, is the match's (not its first game's)."""
    actions = await open_actions(tmp_path / "match.sqlite3")
    started = await filled(actions, "backgammon", "knock-out", ["p1", "p2"], options=["-match=3"])
    assert started.ok, started.message
    told = await play_out(actions, 1)
    links = await actions.store.tournament_games(1)
    games = [await actions.store.load_game(link.game_id) for link in links]
    match = await actions.store.load_match(games[0].snapshot["board"]["match"]["id"])
    assert [link.attempt for link in links] == list(range(1, len(links) + 1)) and len(links) == match.games
    assert all(link.recorded for link in links) and len(links) >= 2  # this seeded match lasts several games
    assert match.status == "finished" and match.winner is not None
    shown = await actions.tournament_standings(1)
    assert shown.data["rows"][0]["player"] == match.winner and shown.data["tournament"]["status"] == "finished"
    assert [len(result.news) for result in told] == [1]  # the tournament heard once: when the match ended
    await actions.store.close()
