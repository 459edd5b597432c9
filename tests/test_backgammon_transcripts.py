"""Whole Backgammon games through the console front on a real SQLite file, one for each command of the help file:
move (pbmserv and gnubg notation, with and without the password word), greedy, manual, roll, double, take, drop.
The history shows what the players typed and what the server played for them, marked (Auto)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.actions import Actions
from bot.console import Console, Outcome
from data.store import Store


@pytest.fixture
async def console(tmp_path: Path):
    store = await Store.open(tmp_path / "pbm.sqlite3")
    yield Console(Actions(store, seed_source=lambda: 4242), tmp_path / "boards", images=False)
    await store.close()


async def run_ok(console: Console, line: str) -> Outcome:
    outcome = await console.run(line)
    assert outcome.ok, f"{line!r} failed: {outcome.result.message}"
    return outcome


async def first_play(console: Console, game_id: int) -> str:
    listed = await run_ok(console, f"backgammon moves {game_id}")
    return listed.result.items[0]


async def play_out(console: Console, game_id: int, outcome: Outcome, *, double_once: bool) -> list[str]:
    """Answer whatever the game asks until it ends; returns the console lines typed."""
    typed = []
    doubled = False
    while outcome.result.status == "active":
        state = outcome.result.state
        who = outcome.result.to_move
        if state.phase == "decide":
            line = f"backgammon {'double' if double_once and not doubled else 'roll'} {game_id} {who}"
            doubled = True
        elif state.phase == "answer":
            line = f"backgammon move {game_id} {who} roll"
        else:
            line = f"backgammon move {game_id} {who} {await first_play(console, game_id)}"
        typed.append(line)
        outcome = await run_ok(console, line)
        assert len(typed) < 500
    return typed


async def test_a_whole_game_with_every_command(console: Console) -> None:
    started = await run_ok(console, "backgammon challenge -force alice bob")
    game_id = started.result.game_id
    assert started.result.to_move == "alice"
    assert "alice" in started.result.board_text() and "O: alice" in started.result.board_text()

    greedy = await run_ok(console, f"backgammon greedy {game_id} bob")  # out of turn, command form
    assert "bob turned greedy mode on" in greedy.result.message
    manual = await run_ok(console, f"backgammon move {game_id} bob pw manual")  # move form with a password word
    assert "bob turned manual mode on" in manual.result.message
    state = manual.result.state
    dice = state.dice
    play = await first_play(console, game_id)
    gnubg = " ".join(step.replace("-", "/").replace("H", "off") for step in play.split(","))
    moved = await run_ok(console, f"backgammon move {game_id} alice secret {gnubg}")
    assert f"alice played {play}" in moved.result.message
    assert moved.result.to_move == "bob" and moved.result.state.phase == "decide"
    assert dice == state.dice

    typed = await play_out(console, game_id, moved, double_once=True)
    assert any(" double " in line for line in typed) and any(line.endswith(" roll") for line in typed)

    history = await run_ok(console, f"backgammon history {game_id}")
    lines = history.result.items
    texts = [line.split(": ", 1)[1] for line in lines]
    assert texts[:3] == ["greedy", "manual", play]
    assert "double" in texts and "roll" in texts
    final = await run_ok(console, f"backgammon show {game_id}")
    outcome = final.result.state.outcome()
    assert outcome is not None and outcome.points % 2 == 0  # the cube was taken at 2
    assert final.result.winners
    replayed = await run_ok(console, f"backgammon show {game_id}#{final.result.move_number}")
    assert replayed.result.state.to_json() == final.result.state.to_json()


async def test_a_dropped_double_ends_the_game_at_the_old_cube_value(console: Console) -> None:
    started = await run_ok(console, "backgammon challenge -force alice bob")
    game_id = started.result.game_id
    await run_ok(console, f"backgammon manual {game_id} bob")
    outcome = await run_ok(console, f"backgammon move {game_id} alice {await first_play(console, game_id)}")
    while outcome.result.state.phase != "decide":
        who = outcome.result.to_move
        outcome = await run_ok(console, f"backgammon move {game_id} {who} {await first_play(console, game_id)}")
    offered = await run_ok(console, f"backgammon double {game_id} bob")
    assert "bob doubles to 2" in offered.result.message and offered.result.to_move == "alice"
    refused = await console.run(f"backgammon move {game_id} alice 13-7")
    assert not refused.ok and "send roll to take it or drop to refuse" in refused.result.message
    dropped = await run_ok(console, f"backgammon drop {game_id} alice")
    assert dropped.result.status == "finished" and dropped.result.winners == ["bob"]
    assert dropped.result.state.outcome().points == 1
    assert "alice refused the double: bob wins 1 point" in dropped.result.state.outcome().reason


async def test_refusals_leave_the_game_unchanged(console: Console) -> None:
    started = await run_ok(console, "backgammon challenge -force alice bob")
    game_id = started.result.game_id
    before = started.result.state.to_json()
    big = max(started.result.state.dice)
    for line, reason in (
        (f"backgammon move {game_id} alice 13-{13 - big}", "you must use both dice"),
        (f"backgammon move {game_id} bob 1-7", "it is not your turn"),
        (f"backgammon roll {game_id} alice", "your dice are already rolled"),
        (f"backgammon double {game_id} alice", "you can double only before rolling"),
        (f"backgammon move {game_id} alice 25-20", "not a point"),
    ):
        refused = await console.run(line)
        assert not refused.ok and reason in refused.result.message, (line, refused.result.message)
    shown = await run_ok(console, f"backgammon show {game_id}")
    assert shown.result.state.to_json() == before
