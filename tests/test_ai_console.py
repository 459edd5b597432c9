"""Computer players in the console: ``ai:1`` .. ``ai:3`` take seats, reply within the same command, through the
same guarded commit as a person, reproducibly; an AI-only game plays itself to its end."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.actions import Actions
from bot.console import Console
from bot.maintenance import check
from data.store import Store


async def console_at(path: Path, seed: int = 11) -> tuple[Console, Store]:
    store = await Store.open(path)
    return Console(Actions(store, seed_source=lambda: seed, ai_seconds=5), path.parent / "boards", images=False), store


async def test_the_computer_replies_in_the_same_command(tmp_path: Path) -> None:
    console, store = await console_at(tmp_path / "a.sqlite3")
    started = await console.run("druid challenge -size=6 alice ai:1")
    assert started.ok and started.result.to_move == "alice"
    moved = await console.run("druid move 1 alice c3")
    assert moved.ok
    lines = moved.result.message.splitlines()
    # the reply is a move, or the swap the second player may make instead (c3 is a strong first move on 6x6)
    assert lines[0] == "alice played c3"
    assert any(line.startswith(("ai:1 played ", "ai:1 has swapped sides")) for line in lines)
    assert moved.result.to_move == "alice" and moved.result.notify == ["alice"]
    history = (await console.run("druid history 1")).result.items
    assert [line.split(": ")[0].split(". ")[1] for line in history] == ["alice", "ai:1"]
    await store.close()


async def test_the_computer_moves_first_when_it_has_the_first_seat(tmp_path: Path) -> None:
    console, store = await console_at(tmp_path / "b.sqlite3")
    started = await console.run("drogo challenge -size=4 ai:2 bob")
    assert started.ok and started.result.to_move == "bob" and started.result.move_number == 1
    assert "ai:2 played " in started.result.message
    await store.close()


async def test_an_ai_only_game_plays_to_its_end_and_checks_sound(tmp_path: Path) -> None:
    console, store = await console_at(tmp_path / "c.sqlite3")
    done = await console.run("druid challenge -size=4 ai:1 ai:2")
    assert done.ok and done.result.status == "finished"
    assert done.result.winners and done.result.winners[0] in ("ai:1", "ai:2")
    report = await check(console.actions)
    assert report.ok, report.lines()
    await store.close()


async def test_the_same_seed_gives_the_same_game(tmp_path: Path) -> None:
    histories = []
    for name in ("d1", "d2"):
        console, store = await console_at(tmp_path / f"{name}.sqlite3", seed=5)
        await console.run("druid challenge -size=5 ai:2 ai:1")
        histories.append((await console.run("druid history 1")).result.items)
        await store.close()
    assert histories[0] == histories[1] and len(histories[0]) > 4


@pytest.mark.parametrize("name", ["ai:0", "ai:4", "ai:x", "ai:"])
async def test_only_the_three_levels_exist(tmp_path: Path, name: str) -> None:
    console, store = await console_at(tmp_path / "e.sqlite3")
    refused = await console.run(f"druid challenge alice {name}")
    assert not refused.ok and "computer player" in refused.result.message
    await store.close()


async def test_a_finished_backgammon_game_is_analysed_in_the_console(tmp_path: Path) -> None:
    from ai.backgammon import has_gnubg

    console, store = await console_at(tmp_path / "an.sqlite3")
    try:
        played = await console.run("backgammon challenge -force ai:1 ai:3")
        assert played.ok and played.result.status == "finished"
        analysed = (await console.run("backgammon analyze 1")).result
        await console.run("backgammon challenge carol dave")
        running = (await console.run("backgammon analyze 2")).result
        other = (await console.run("druid challenge carol dave")).result
        wrong = (await console.run(f"druid analyze {other.game_id}")).result
    finally:
        await store.close()
    if has_gnubg():
        assert analysed.ok and analysed.message.startswith("Backgammon game 1, analysed by GNU Backgammon")
        summaries = analysed.message.splitlines()[1:]
        assert [line.split(": ")[0] for line in summaries] == ["ai:1", "ai:3"]
        assert all(line.split(". ", 1)[1].startswith(("ai:1 ", "ai:3 ")) for line in analysed.items)
        plays = [line for line in analysed.items if " play " in line]
        assert len(plays) >= 10
    else:
        assert not analysed.ok and "pip install" in analysed.message
    assert not running.ok and running.message == "game 2 is still being played: it can be analysed once it is over"
    assert not wrong.ok and wrong.message == "analysis is for Backgammon games; game 3 is Druid"
