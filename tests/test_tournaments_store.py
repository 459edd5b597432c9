"""Tournaments in the store, on SQLite and PostgreSQL: the upgrade that adds them keeps every timer (and the ids
timers never reuse), a write under an old version or a second game for a board is refused, two processes ending
the last games of a round at once pair the next round once, a result a crash left unrecorded is recorded by the
sweep, and the per-member tournaments limit counts; the standings as data for a web page, and their picture
readable on a phone."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.actions.settings import ServerSettings
from data.schema import MIGRATIONS
from data.store import StaleWriteError, Store
from tests.databases import Databases
from tests.tournaments import filled, open_actions


async def test_the_upgrade_keeps_the_timers_and_their_ids_never_come_back(databases: Databases) -> None:
    target = await databases.target()
    async with await Store.open(target) as store:
        for due in (10.0, 20.0, 30.0):
            await store.add_timer("vacation", due, player_id="alice")
        await store.claim_timer(3)  # the highest id is gone: it must not be given again
    # the database as pbm before tournaments left it
    for table in ("tournament_games", "tournaments"):
        await databases.execute(target, f"DROP TABLE {table}")
    before = next(k for k, script in enumerate(MIGRATIONS) if "CREATE TABLE IF NOT EXISTS tournaments" in script)
    await databases.execute(target, "UPDATE schema_version SET version = ?", before)
    async with await Store.open(target) as store:
        assert await store.schema_version() == len(MIGRATIONS)
        assert [(t.id, t.due_at, t.kind) for t in await store.due_timers(100.0)] == [
            (1, 10.0, "vacation"),
            (2, 20.0, "vacation"),
        ]
        made = await store.add_timer("tournament", 40.0, ref=1)
        assert made == 4
        assert await store.create_tournament("druid", "swiss", [], [2], "alice", rounds=3) == 1


async def test_an_old_version_and_a_second_game_for_a_board_are_refused(databases: Databases) -> None:
    async with await Store.open(await databases.target()) as store:
        number = await store.create_tournament("druid", "swiss", ["-size=5"], [2], "alice", rounds=2)
        row = await store.load_tournament(number)
        assert await store.save_tournament(number, row.version, entrants=["bob"]) == row.version + 1
        with pytest.raises(StaleWriteError):
            await store.save_tournament(number, row.version, entrants=["carol"])
        assert (await store.load_tournament(number)).entrants == ["bob"]
        first = await store.create_game("druid", {"size": 5}, ["bob", "carol"], 1, {"ply": 0}, "bob")
        second = await store.create_game("druid", {"size": 5}, ["bob", "carol"], 2, {"ply": 0}, "bob")
        await store.add_tournament_game(first, number, 1, 1, 1)
        with pytest.raises(StaleWriteError):
            await store.add_tournament_game(second, number, 1, 1, 1)
        assert [g.game_id for g in await store.tournament_games(number)] == [first]


async def test_two_processes_ending_a_round_at_once_pair_the_next_round_once(databases: Databases) -> None:
    target = await databases.target()
    one, two = await open_actions(target), await open_actions(target)
    for number in (1, 2, 3):
        await filled(one, "druid", "swiss", ["p1", "p2", "p3", "p4"], rounds=2, options=["-size=5"])
        games = await one.store.running_tournament_games(number)
        movers = [(await one.show(game)).to_move for game in games]
        ended = await asyncio.gather(
            one.resign(games[0], movers[0]),  # the first player resigns in each game, in two processes at once
            two.resign(games[1], movers[1]),
        )
        assert all(result.ok for result in ended), [r.message for r in ended]
        links = await one.store.tournament_games(number)
        assert [(link.round, link.recorded) for link in links] == [(1, True), (1, True), (2, False), (2, False)]
        assert sum(bool(result.news) and bool(result.news[-1].games) for result in ended) == 1
        state = (await one.store.load_tournament(number)).state
        assert state is not None and len(state["rounds"]) == 2
    await one.store.close()
    await two.store.close()


async def test_a_result_a_crash_left_unrecorded_is_recorded_by_the_sweep(tmp_path: Path) -> None:
    actions = await open_actions(tmp_path / "t.sqlite3")
    await filled(actions, "druid", "swiss", ["p1", "p2", "p3"], rounds=2, options=["-size=5"])  # p1 v p2, p3 a bye

    async def crashed(game_id: int, state: object) -> None:  # the process died between the two parts
        return None

    actions._game_over = crashed  # type: ignore[method-assign]
    assert (await actions.resign(1, "p1")).ok
    del actions._game_over
    assert [link.recorded for link in await actions.store.tournament_games(1)] == [False]
    notices = await actions.sweep()
    assert [n.kind for n in notices] == ["tournament"]
    assert notices[0].text.splitlines() == [
        "Round 2 of 2 of tournament 1: 1 game",
        "  board 1: game 2, p2 v p3",
        "  bye: p1",
    ]
    assert [link.recorded for link in await actions.store.tournament_games(1)] == [True, False]
    assert await actions.sweep() == []
    await actions.store.close()


async def test_the_tournaments_a_member_organises_count_against_the_servers_limit(tmp_path: Path) -> None:
    actions = await open_actions(tmp_path / "t.sqlite3")
    settings = ServerSettings(
        limits={"open_challenges": 10, "running_games": 100, "computer_games": 3, "tournaments": 2}
    )
    where = {"guild_id": 5, "channel_id": 6, "settings": settings}
    for _ in range(2):
        assert (await actions.create_tournament("druid", "alice", "swiss", rounds=2, **where)).ok
    third = await actions.create_tournament("druid", "alice", "swiss", rounds=2, **where)
    assert third.message == (
        "you have 2 tournaments organised in this server, the most it allows: finish one to organise another"
    )
    assert (await actions.create_tournament("druid", "bob", "swiss", rounds=2, **where)).ok  # his own count
    assert (await actions.create_tournament("druid", "alice", "swiss", rounds=2, guild_id=9, settings=settings)).ok
    assert (await actions.cancel_tournament(1, "alice", guild_id=5)).ok
    assert (await actions.create_tournament("druid", "alice", "swiss", rounds=2, **where)).ok
    assert (await actions.join_tournament(4, "bob", guild_id=5)).message == "there is no tournament 4 in this server"
    off = ServerSettings(not_offered=frozenset({"druid"}))
    refused = await actions.create_tournament("druid", "carol", "swiss", rounds=2, guild_id=5, settings=off)
    assert refused.message == "Druid is not offered in this server"
    await actions.store.close()


async def test_the_standings_as_data_for_a_web_page(tmp_path: Path) -> None:
    actions = await open_actions(tmp_path / "t.sqlite3")
    await filled(actions, "druid", "swiss", ["p1", "p2", "p3"], rounds=2, options=["-size=5"])
    assert (await actions.resign(1, "p1")).ok
    data = (await actions.tournament_standings(1)).data
    assert data["columns"] == ["rank", "player", "points", "Buchholz", "Sonneborn-Berger", "games"]
    assert data["tournament"]["status"] == "running" and data["tournament"]["players"] == 3
    # p1 lost to p2 and has round 2's bye; p3 had round 1's
    assert [row["cells"] for row in data["rows"]] == [
        ["1", "p1", "1", "2", "1", "1"],
        ["2", "p2", "1", "1", "1", "1"],
        ["2", "p3", "1", "1", "1", "0"],
    ]
    assert [board["line"] for board in data["round"]] == ["board 1: game 2, p2 v p3: being played", "bye: p1"]
    await actions.store.close()


def test_the_standings_picture_is_readable_on_a_phone() -> None:
    from render.scene import PHONE_TEXT, PHONE_WIDTH
    from render.standings import MAX_ROWS, standings_scene

    long_name = "Bartholomew_Longname_the_Third_4"
    rows = [([str(k), long_name if k % 7 == 0 else f"p{k}", "4½", "17", "12.25", "6"], k == 3) for k in range(1, 130)]
    columns = ["rank", "player", "points", "Buchholz", "Sonneborn-Berger", "games"]
    scene = standings_scene("Tournament 12", "Druid (-size=5), Swiss of 6 rounds; round 6 of 6", columns, rows)
    assert scene.width <= scene.height
    for text in scene.texts():
        assert text.size * PHONE_WIDTH / scene.width >= PHONE_TEXT, text
    assert len(scene.tagged("row")) == MAX_ROWS
    names = [t.text for group in scene.tagged("row") for t in group.items if hasattr(t, "text") and "_" in t.text]
    assert names and all(name.endswith("…") for name in names)
    texts = [t.text for t in scene.texts()]
    assert "p3 (out)" in texts and "4.5" in texts and "and 29 more" in texts
    assert "Buch.: Buchholz, SB: Sonneborn-Berger" in texts
