"""Ratings, on a fake clock, on SQLite and on PostgreSQL: a known series of results gives openskill's own numbers
(wins, a loss on time, a draw by agreement; unrated and declined games change nothing), a four-player Drogo game
ranks its players by score with ties shared, a rebuild reproduces the live ratings exactly (also from nothing, and
after two games sharing a player ended at once), leaderboards page ten at a time, and the console shows it all as
players read it."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

import render
from bot import board_files
from bot.actions import Actions, Result
from bot.console import Console, Outcome, render_json, render_text
from bot.ratings import MU, SIGMA, display, placing, plackett_luce, read_variant
from data.store import RatingRow, Store
from rules import registry
from rules.base import GameError
from rules.base import Outcome as GameOutcome
from tests.databases import Databases
from tests.test_correspondence import DAY, HOUR, FakeClock

RATING_TABLES = ("ratings", "rating_variants", "rating_changes")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def console(tmp_path: Path, databases: Databases, clock: FakeClock):
    store = await Store.open(await databases.target("pbm.sqlite3"))
    actions = Actions(store, seed_source=lambda: 7, clock=clock, think=None)
    yield Console(actions, tmp_path / "boards", images=False)
    await store.close()


async def ok(console: Console, line: str) -> Result:
    outcome = await console.run(line)
    assert outcome.ok, f"{line!r} was refused: {outcome.result.message}"
    return outcome.result


async def refused(console: Console, line: str) -> str:
    outcome = await console.run(line)
    assert not outcome.ok, f"{line!r} was not refused: {outcome.result.message}"
    return outcome.result.message


async def tables(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the rating tables, as stored."""
    out = {}
    for table in RATING_TABLES:
        columns = sorted(await store.column_names(table))
        out[table] = [row async for batch in store.read_rows(table, columns) for row in batch]
    return out


async def win_druid(console: Console, game_id: int, loser: str, winner: str, *options: str) -> Result:
    """A Druid game in which ``loser`` resigns after one move each (the first round over, so it is no decline)."""
    await ok(console, f"druid challenge -size=5 {' '.join(options)} {loser} {winner}")
    await ok(console, f"druid move {game_id} {loser} c3")
    await ok(console, f"druid move {game_id} {winner} d4")
    return await ok(console, f"druid resign {game_id} {loser}")


async def play_the_series(console: Console, clock: FakeClock) -> list[str]:
    """alice beats bob; carol runs out of time against bob; alice and carol agree a draw; bob beats alice in an
    unrated game; alice declines a game. The end-of-game lines about ratings, in order."""
    said = []
    said.append((await win_druid(console, 1, "bob", "alice")).message.splitlines()[-1])
    clock.advance(HOUR)
    await ok(console, "druid challenge -size=5 -days=1 carol bob")
    clock.advance(DAY + 1)
    said.append((await ok(console, "tick")).items[0].splitlines()[-1])
    await ok(console, "druid challenge -size=5 alice carol")
    await ok(console, "druid move 3 alice c3")
    clock.advance(4 * HOUR)
    await ok(console, "druid move 3 carol d4")
    await ok(console, "druid propose 3 alice draw")
    said.append((await ok(console, "druid accept 3 carol")).message.splitlines()[-1])
    said.append((await win_druid(console, 4, "alice", "bob", "-unrated")).message.splitlines()[-1])
    await ok(console, "druid challenge -size=5 alice bob")
    said.append((await ok(console, "druid resign 5 alice")).message)
    return said


def openskill_series() -> dict[str, Any]:
    """The same series rated by openskill directly: the numbers pbm must give."""
    model = PlackettLuce()
    r = {p: model.rating() for p in ("alice", "bob", "carol")}

    def rate(players: list[str], ranks: list[int]) -> None:
        rated = model.rate([[r[p]] for p in players], ranks=ranks)
        for p, team in zip(players, rated, strict=True):
            r[p] = team[0]

    rate(["bob", "alice"], [2, 1])
    rate(["carol", "bob"], [2, 1])
    rate(["alice", "carol"], [1, 1])
    return r


async def test_a_series_of_results_gives_openskills_own_numbers(console: Console, clock: FakeClock) -> None:
    said = await play_the_series(console, clock)
    expected = openskill_series()
    store = console.actions.store
    rows = await store.ratings_of("druid", ["alice", "bob", "carol"])
    for player, rating in expected.items():
        assert (rows[player].mu, rows[player].sigma) == (rating.mu, rating.sigma), player
    assert [(rows[p].wins, rows[p].losses, rows[p].draws, rows[p].streak) for p in ("alice", "bob", "carol")] == [
        (1, 0, 1, 0),
        (1, 1, 0, 1),
        (0, 1, 1, 0),
    ]
    assert said[0] == "ratings: alice 1103? (+103), bob 945? (-55)"
    assert said[1] == "ratings: bob 1049? (+104), carol 937? (-63)"  # a loss on time counts
    assert said[2].startswith("ratings: alice ") and ", carol " in said[2]  # an agreed draw counts
    assert said[3] == "an unrated game: the ratings do not change"
    assert "game 5 is cancelled" in said[4] and "rating" not in said[4]  # declined: nothing about ratings
    assert len(await store.rating_changes("alice")) == 2


async def test_unrated_and_declined_games_change_nothing(console: Console) -> None:
    await win_druid(console, 1, "bob", "alice")
    before = await tables(console.actions.store)
    unrated = await ok(console, "druid challenge -size=5 -unrated alice bob")
    assert "7 days per move, unrated" in unrated.message
    assert unrated.board_text().splitlines()[0] == "unrated: alice 1103?, bob 945?"
    assert unrated.seat_ratings() == {0: "unrated", 1: "unrated"}
    await ok(console, "druid move 2 alice c3")
    await ok(console, "druid move 2 bob d4")
    ended = await ok(console, "druid resign 2 alice")
    assert ended.rated is False and ended.rating_changes == []
    await ok(console, "druid challenge -size=5 bob alice")
    await ok(console, "druid resign 3 bob")  # declined in the first round: cancelled
    assert await tables(console.actions.store) == before
    rated = await ok(console, "druid show 1")
    assert rated.board_text().splitlines()[0] == "rated: bob 945?, alice 1103?"
    assert rated.seat_ratings() == {0: "945?", 1: "1103?"}
    picture = board_files.picture(rated)
    assert picture is not None and picture.png() == render.board_png(rated.state, None, {0: "945?", 1: "1103?"})
    assert picture.png() != render.board_png(rated.state)
    from bot.discord.layout import turn_text

    assert turn_text(rated).splitlines()[1] == "-# rated: bob 945?, alice 1103?"  # Discord's turn message


async def test_four_player_drogo_ranks_by_score_with_ties_shared(databases: Databases) -> None:
    store = await Store.open(await databases.target())
    actions = Actions(store, seed_source=lambda: 7, think=None)
    players = ["alice", "bob", "carol", "dave"]
    game_id = (await actions.challenge("drogo", players, ["-size=3"], start=True)).game_id
    played = 0
    while (shown := await actions.show(game_id)).status == "active":
        legal = (await actions.moves(game_id, limit=None)).legal_moves
        assert (await actions.move(game_id, shown.to_move, legal[played % len(legal)])).ok
        played += 1
    outcome = shown.state.outcome()
    assert outcome.scores == (4, 3, 0, 4) and outcome.winners == ()  # alice and dave tie on 4
    changes = {c.player_id: c for c in await store.game_rating_changes(game_id)}
    assert {p: (c.place, c.result) for p, c in changes.items()} == {
        "alice": (1, "draw"),
        "dave": (1, "draw"),
        "bob": (3, "loss"),
        "carol": (4, "loss"),
    }
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in players], ranks=[1, 3, 4, 1])
    rows = await store.ratings_of("drogo", players)
    assert [(rows[p].mu, rows[p].sigma) for p in players] == [(t[0].mu, t[0].sigma) for t in expected]
    await store.close()


def test_places_follow_the_outcome() -> None:
    # Drogo, four players by score; one resigned (out of the game, last whatever their stacks)
    assert placing(GameOutcome((1,), "", (3, 9, 7, 1)), 4, ()) == ((3, 1, 2, 4), ("loss", "win", "loss", "loss"))
    assert placing(GameOutcome((), "", (5, 5, 2, 9)), 4, (3,)) == ((1, 1, 3, 4), ("draw", "draw", "loss", "loss"))
    # Druid's three-player hex: the winner first, the others tied; two players: won and lost, or drawn
    assert placing(GameOutcome((2,), ""), 3, ()) == ((2, 2, 1), ("loss", "loss", "win"))
    assert placing(GameOutcome((0,), "", (1, 5)), 2, ()) == ((1, 2), ("win", "loss"))  # two: the win, not scores
    assert placing(GameOutcome((), "drawn by agreement", cause="agreement"), 2, ()) == ((1, 1), ("draw", "draw"))
    # a loss on time: out of the game
    assert placing(GameOutcome((1,), "", cause="timeout"), 3, (0,)) == ((3, 1, 2), ("loss", "win", "loss"))


def test_the_computation_is_openskills_rate_bit_for_bit() -> None:
    """:func:`bot.ratings.plackett_luce` skips ``rate``'s deep copy and checks, not a digit of its arithmetic:
    games of two to four players, ties anywhere, ratings from new to settled."""
    model, rng = PlackettLuce(), random.Random(14)
    for _ in range(5000):
        players = rng.randint(2, 4)
        ratings = [(rng.uniform(-10.0, 60.0), rng.uniform(0.3, 8.4)) for _ in range(players)]
        places = [rng.randint(1, players) for _ in range(players)]
        rated = model.rate([[model.rating(mu, sigma)] for mu, sigma in ratings], ranks=list(places))
        assert plackett_luce(ratings, places) == [(team[0].mu, team[0].sigma) for team in rated], (ratings, places)


def test_the_number_shown() -> None:
    model = PlackettLuce()
    assert (model.mu, model.sigma) == (MU, SIGMA)
    assert display(MU, SIGMA) == 1000  # everyone starts at 1000, provisional
    assert display(25.0, 2.8) == 1498  # a settled player of average strength
    assert display(30.0, 1.0) == 1810


def test_variants_read_as_typed() -> None:
    druid = registry.get("druid")
    assert read_variant(druid, ["hex"]) == read_variant(druid, ["-hex"]) == "-hex"  # the hex board's size is 5
    assert read_variant(druid, ["standard"]) == "standard"
    assert read_variant(registry.get("drogo"), ["-size=6"]) == "standard"  # the default options
    with pytest.raises(GameError, match="unknown option"):
        read_variant(druid, ["-single"])


async def test_a_rebuild_reproduces_the_live_ratings_exactly(console: Console, clock: FakeClock) -> None:
    await play_the_series(console, clock)
    actions = console.actions
    # three players: one move each, then alice and bob resign: carol first, the two of them tied last
    await actions.challenge("drogo", ["alice", "bob", "carol"], ["-size=3"], start=True)
    for player in ("alice", "bob", "carol"):
        await ok(console, f"drogo move 6 {player} {(await actions.moves(6)).items[0]}")
    await ok(console, "drogo resign 6 alice")
    drogo = await ok(console, "drogo resign 6 bob")
    assert drogo.winners == ["carol"]
    assert [(c.player_id, c.place) for c in await actions.store.game_rating_changes(6)] == [
        ("carol", 1),
        ("alice", 2),
        ("bob", 2),
    ]
    for game_id, loser, winner in ((7, "carol", "alice"), (8, "bob", "carol")):
        clock.advance(HOUR)
        await win_druid(console, game_id, loser, winner)
    live = await tables(actions.store)
    assert len(live["rating_changes"]) == 13
    rebuilt = await actions.rebuild_ratings()
    assert rebuilt.message == (
        "rebuilt the ratings from 6 rated games (7 finished): 3 players rated; the stored ratings were already exact"
    )
    assert await tables(actions.store) == live
    # from nothing (as for games that ended before ratings existed): the games in the order they ended
    async with actions.store.transaction() as db:
        for table in RATING_TABLES:
            await db.execute(f"DELETE FROM {table}")
    assert (await actions.rebuild_ratings()).data["written"] == sum(len(rows) for rows in live.values())
    assert await tables(actions.store) == live


async def test_two_games_sharing_a_player_ending_at_once_are_both_counted(
    databases: Databases, clock: FakeClock
) -> None:
    path = await databases.target("race.sqlite3")
    stores = [await Store.open(path), await Store.open(path)]
    first, second = (Actions(store, seed_source=lambda: 7, clock=clock, think=None) for store in stores)
    for loser in ("bob", "carol"):
        game_id = (await first.challenge("druid", [loser, "alice"], ["-size=5"], start=True)).game_id
        await first.move(game_id, loser, "c3")
        await first.move(game_id, "alice", "d4")
    ended = await asyncio.gather(first.resign(1, "bob"), second.resign(2, "carol"))
    assert [r.status for r in ended] == ["finished", "finished"]
    alice = await stores[0].rating_changes("alice")
    assert sorted(c.seq for c in alice) == [1, 2] and alice[0].mu_after == alice[1].mu_before
    assert (await stores[1].ratings_of("druid", ["alice"]))["alice"].games == 2
    live = await tables(stores[0])
    assert (await first.rebuild_ratings()).message.endswith("the stored ratings were already exact")
    assert await tables(stores[0]) == live
    for store in stores:
        await store.close()


async def test_leaderboards_page_ten_at_a_time(console: Console) -> None:
    store = console.actions.store
    players = [f"p{k:02d}" for k in range(23)]
    for player in players:
        await store.ensure_player(player)
    # p00 is the best; p21 and p22 share a rating (ties by name)
    ratings = [
        RatingRow(p, "druid", 40.0 - min(k, 21), 2.0, 34.0 - min(k, 21), 5, 3, 1, 1) for k, p in enumerate(players)
    ]
    await store.replace_ratings(ratings, [], [])
    first = await ok(console, "druid ratings")
    assert first.message == "Druid ratings: 23 players, page 1 of 3"
    assert first.items[0] == " 1. p00   2020    5 games  3 W  1 L  1 D"
    assert [row["player"] for row in first.data["rows"]] == players[:10]
    last = await ok(console, "druid ratings page 3")
    assert [(row["rank"], row["player"], row["rating"]) for row in last.data["rows"]] == [
        (21, "p20", 1420),
        (22, "p21", 1390),
        (23, "p22", 1390),
    ]
    assert last.data | {"rows": []} == {
        "game": "druid",
        "variant": None,
        "page": 3,
        "pages": 3,
        "per_page": 10,
        "total": 23,
        "rows": [],
    }
    assert await refused(console, "druid ratings page 4") == "the Druid leaderboard has 3 pages: there is no page 4"
    server = await console.actions.leaderboard("druid", members=["p22", "p05", "nobody", "p13"])
    assert [(row["rank"], row["player"]) for row in server.data["rows"]] == [(1, "p05"), (2, "p13"), (3, "p22")]
    assert (await ok(console, "drogo ratings")).message == "nobody has played a rated Drogo game yet"


async def test_the_console_shows_ratings_as_players_read_them(console: Console, clock: FakeClock) -> None:
    started = await console.actions.challenge("druid", ["alice", "bob"], ["-size=5"])
    assert started.message == "alice (1000?) challenges bob (1000?) to Druid (-size=5); 7 days per move: challenge 1"
    await ok(console, "druid challenge -size=5 bob alice")
    clock.advance(2 * HOUR)
    await ok(console, "druid move 1 bob c3")
    clock.advance(6 * HOUR)
    await ok(console, "druid move 1 alice d4")
    await ok(console, "druid resign 1 bob")
    await win_druid(console, 2, "carol", "alice", "-hex")
    board = render_text(await console.run("druid ratings"))
    assert board.splitlines() == [
        "Druid ratings: 3 players, page 1 of 1",
        "",
        "1. alice  1192?    2 games  2 W  0 L  0 D",
        "2. carol   953?     1 game  0 W  1 L  0 D",  # lost to a stronger alice than bob did
        "3. bob     945?     1 game  0 W  1 L  0 D",
    ]
    variant = await ok(console, "druid ratings -hex")
    assert variant.message == "Druid (-hex) ratings: 2 players, page 1 of 1"
    one = render_text(await console.run("druid ratings alice"))
    assert one.splitlines() == [
        "alice: 1192? (rank 1 of 3); 2 games: 2 wins, 0 losses, 0 draws; streak 2 wins; 3h per move",
        "",
        "  -hex: 1 game, 1 W 0 L 0 D",
        "  -size=5: 1 game, 1 W 0 L 0 D",
    ]
    profile = render_text(await console.run("profile alice"))
    assert profile.splitlines() == [
        "alice's profile",
        "",
        "Druid: 1192? (rank 1 of 3); 2 games: 2 wins, 0 losses, 0 draws; streak 2 wins; 3h per move",
        "  -hex: 1 game, 1 W 0 L 0 D",
        "  -size=5: 1 game, 1 W 0 L 0 D",
    ]
    versus = render_text(await console.run("profile alice bob"))
    assert versus.splitlines() == [
        "alice against bob: 1 game, alice 1 win, bob 0 wins, 0 draws",
        "",
        "Druid: 1 game, alice 1 win, bob 0 wins, 0 draws",
    ]
    data = __import__("json").loads(render_json(Outcome(await ok(console, "profile alice"))))
    druid = data["data"]["games"][0]
    assert (druid["game"], druid["rating"], druid["provisional"], druid["rank"], druid["players"]) == (
        "druid",
        1192,
        True,
        1,
        3,
    )
    assert druid["seconds_per_move"] == 3 * HOUR  # 6h for d4, nothing for the quick moves of game 2
    assert await refused(console, "profile zed") == "there is no player zed"
    assert await refused(console, "profile alice alice") == "a head-to-head needs two different players"
    assert "usage: druid ratings" in await refused(console, "druid ratings alice bob")
    assert "unknown option -single" in await refused(console, "druid ratings -single")
    assert await refused(console, "druid ratings page 0") == "0 is not a page number: it must be between 1 and 1000000"
    assert (await console.actions.leaderboard("druid", page=0)).message == "pages are numbered from 1"
    assert (await ok(console, "profile carol bob")).message == "carol and bob have not finished a game together yet"


async def test_fronts_get_the_series_and_the_number(console: Console, clock: FakeClock) -> None:
    actions = console.actions
    assert await actions.display_rating("alice", "druid") == 1000
    await win_druid(console, 1, "bob", "alice")
    clock.advance(DAY)
    await win_druid(console, 2, "bob", "alice")
    series = await actions.rating_series("alice")
    assert list(series) == ["Druid"] and [rating for _, rating in series["Druid"]] == [1103, 1186]
    assert series["Druid"][1][0] - series["Druid"][0][0] == DAY  # as render.chart.rating_chart takes them
    assert await actions.display_rating("alice", "druid") == 1186


async def test_pbm_ratings_rebuild(tmp_path: Path, clock: FakeClock, capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main

    path = tmp_path / "pbm.sqlite3"
    store = await Store.open(path)
    console = Console(Actions(store, seed_source=lambda: 7, clock=clock, think=None), tmp_path, images=False)
    await win_druid(console, 1, "bob", "alice")
    await store.close()
    with sqlite3.connect(path) as raw:
        before = raw.execute("SELECT player_id, mu, sigma FROM ratings ORDER BY player_id").fetchall()
        raw.execute("UPDATE ratings SET mu = 0")
    assert await asyncio.to_thread(main, ["ratings", "rebuild", "--db", str(path)]) == 0
    assert capsys.readouterr().out == (
        "rebuilt the ratings from 1 rated game (1 finished): 2 players rated; 4 rows written\n"  # 2 out, 2 in
    )
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT player_id, mu, sigma FROM ratings ORDER BY player_id").fetchall() == before
    assert await asyncio.to_thread(main, ["ratings", "rebuild", "--db", str(tmp_path / "none.sqlite3")]) == 2
    assert "there is no database there" in capsys.readouterr().err


async def test_the_console_profile_draws_the_rating_chart_beside_the_boards(tmp_path: Path, clock: FakeClock) -> None:
    from PIL import Image

    store = await Store.open(tmp_path / "pbm.sqlite3")
    console = Console(Actions(store, seed_source=lambda: 7, clock=clock, think=None), tmp_path / "boards")
    await win_druid(console, 1, "bob", "alice")
    shown = await ok(console, "profile alice")
    chart = tmp_path / "boards" / "profile-alice.png"
    assert shown.message.splitlines()[-1] == f"rating chart: {chart}" and shown.data["chart"] == str(chart)
    assert Image.open(chart).size == (800, 450)
    assert "chart" not in (await ok(console, "profile alice bob")).data  # a head-to-head has no chart
    await store.close()
