"""Whole Backgammon games through the console front on a real SQLite file, one for each command of the help file:
move (pbmserv and gnubg notation, with and without the password word), greedy, manual, roll, double, take, drop
and resign. Each test keeps the transcript a player would have seen and checks what it says; the history shows
what the players typed, in one canonical form, and what the server played for them, marked (Auto)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.actions import Actions, Result
from bot.console import Console, render_text
from data.store import Store
from rules.backgammon import dice_text


class Transcript:
    """Runs console lines and keeps what was printed, as a player would read it."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.lines: list[str] = []

    async def __call__(self, line: str, ok: bool = True) -> Result:
        outcome = await self.console.run(line)
        self.lines.append(f"> {line}\n{render_text(outcome)}")
        assert outcome.ok == ok, f"{line!r}: {outcome.result.message}"
        return outcome.result

    def text(self) -> str:
        return "\n".join(self.lines)


@pytest.fixture
async def session(tmp_path: Path) -> AsyncIterator[Callable[[int], Awaitable[Transcript]]]:
    """A console on a fresh SQLite file whose games all get the seed asked for."""
    stores: list[Store] = []

    async def start(seed: int) -> Transcript:
        folder = tmp_path / str(len(stores))
        folder.mkdir()
        store = await Store.open(folder / "bg.sqlite3")
        stores.append(store)
        return Transcript(Console(Actions(store, seed_source=lambda: seed), folder / "boards", images=False))

    yield start
    for store in stores:
        await store.close()


async def first_play(play: Transcript, game_id: int) -> str:
    """The first legal checker play the moves listing offers."""
    listing = await play(f"backgammon moves {game_id}")
    plays = [item for item in listing.items if item not in ("greedy", "manual")]
    return plays[0] if plays else listing.items[0]


async def play_out(play: Transcript, game_id: int, result: Result, *, double_once: bool = False) -> Result:
    """Answer whatever the game asks (a play, roll or double, a take) until it ends; returns the final result."""
    doubled = False
    for _ in range(500):
        if result.status != "active":
            return result
        who, phase = result.to_move, result.state.phase
        if phase == "decide":
            word = "double" if double_once and not doubled else "roll"
            doubled = True
            result = await play(f"backgammon {word} {game_id} {who}")
        elif phase == "answer":
            result = await play(f"backgammon move {game_id} {who} roll")
        else:
            result = await play(f"backgammon move {game_id} {who} {await first_play(play, game_id)}")
    raise AssertionError("the game did not end in 500 actions")


async def history_texts(play: Transcript, game_id: int) -> list[str]:
    """The history lines without their numbers: ``player: text``."""
    history = await play(f"backgammon history {game_id}")
    return [line.split(". ", 1)[1] for line in history.items]


# ----------------------------------------------------------------------------------------------------------------
# Whole games


async def test_an_opening_roll_a_pass_and_forced_plays_in_a_whole_game(session) -> None:
    """Seed 7: the higher opening die plays O; alice later rolls 6-6 against a closed board and cannot move."""
    play = await session(7)
    started = await play("backgammon challenge alice bob")
    game_id = started.game_id
    opening = started.state.opening[-1]
    o_player = "alice" if opening[0] > opening[1] else "bob"
    assert f"Opening roll: alice {opening[0]}, bob {opening[1]}" in play.text()
    assert f"O: {o_player} (moves 24 -> 1)" in play.text()
    assert started.to_move == o_player and sorted(started.state.dice) == sorted(opening)

    final = await play_out(play, game_id, started)
    assert "alice cannot move with 6-6" in play.text()
    assert final.status == "finished" and len(final.winners) == 1
    points = final.state.outcome().points
    assert final.state.outcome().reason.startswith(f"{final.winners[0]} bore off all 15 checkers")

    texts = await history_texts(play, game_id)
    assert "alice (6-6): no move (Auto)" in texts  # the history shows the dice each play was made with
    assert texts[0].startswith(f"{o_player} ({dice_text(started.state.dice)}): ")
    auto_plays = [text for text in texts if text.endswith(" (Auto)") and "no move" not in text]
    assert auto_plays, "no roll with a single possible result was played for a player"
    history = await play(f"backgammon history {game_id}")
    assert f"{final.winners[0]} won" in play.text()
    listing = await play("backgammon games alice all")
    won = f"{final.winners[0]} won" + (f" {points} points" if points > 1 else "")
    assert listing.items[0].endswith(won), listing.items[0]
    assert history.items


async def test_a_whole_game_with_every_command(session) -> None:
    play = await session(4242)
    started = await play("backgammon challenge -force alice bob")
    game_id = started.game_id
    assert started.to_move == "alice" and "O: alice" in started.board_text()
    assert "Opening roll:" in play.text() and "(-force)" in play.text()

    greedy = await play(f"backgammon greedy {game_id} bob")  # out of turn, command form
    assert "bob turned greedy mode on" in greedy.message
    manual = await play(f"backgammon move {game_id} bob pw manual")  # move form with a password word
    assert "bob turned manual mode on" in manual.message
    dice = manual.state.dice
    typed = await first_play(play, game_id)
    gnubg = " ".join(step.replace("-", "/").replace("H", "off") for step in typed.split(","))
    moved = await play(f"backgammon move {game_id} alice secret {gnubg}")
    assert f"alice played {typed}" in moved.message
    assert moved.to_move == "bob" and moved.state.phase == "decide" and moved.state.dice == ()
    assert "bob (X) to roll or double" in moved.board_text()
    assert dice == manual.state.dice

    doubled = await play(f"backgammon double {game_id} bob")
    assert "bob doubles to 2: alice, take or drop" in doubled.message
    assert doubled.to_move == "alice" and doubled.notify == ["alice"]
    taken = await play(f"backgammon roll {game_id} alice")
    assert "alice took the double: the cube is at 2, owned by alice" in taken.message
    assert "bob rolled" in taken.message and taken.to_move == "bob"
    assert "Cube: 2 (owned by alice)" in taken.board_text()
    again = await play(f"backgammon double {game_id} bob", ok=False)
    assert "alice owns the cube: you can double only when it is in the middle or yours" in again.message

    final = await play_out(play, game_id, taken)
    outcome = final.state.outcome()
    assert outcome is not None and final.winners and outcome.points % 2 == 0  # the cube was taken at 2

    texts = [text.split(": ", 1)[1] for text in await history_texts(play, game_id)]
    # gnubg text is stored in canonical form, and pbmserv's take-by-rolling as the take it is
    assert texts[:5] == ["greedy", "manual", typed, "double", "take"]
    replayed = await play(f"backgammon show {game_id}#{final.move_number}")
    assert replayed.state.to_json() == final.state.to_json()


async def test_greedy_bears_off_for_the_player(session) -> None:
    play = await session(20261123)
    started = await play("backgammon challenge -force alice bob")
    game_id = started.game_id
    await play(f"backgammon greedy {game_id} bob")
    toggled = await play(f"backgammon move {game_id} alice pw greedy")
    assert "alice turned greedy mode on" in toggled.message
    assert "greedy mode" in toggled.board_text()
    final = await play_out(play, game_id, toggled)
    assert final.status == "finished"
    texts = await history_texts(play, game_id)
    auto_bear_offs = [text for text in texts if text.endswith("(Auto)") and "-H" in text]
    assert auto_bear_offs, "greedy mode never bore off automatically"


async def test_a_dropped_double_ends_the_game_at_the_old_cube_value(session) -> None:
    play = await session(4242)
    started = await play("backgammon challenge -force alice bob")
    game_id = started.game_id
    await play(f"backgammon manual {game_id} bob")
    result = await play(f"backgammon move {game_id} alice {await first_play(play, game_id)}")
    assert result.state.phase == "decide"
    offered = await play(f"backgammon double {game_id} bob")
    assert "bob doubles to 2" in offered.message and offered.to_move == "alice"
    before = offered.state.to_json()
    for line, reason in (
        (f"backgammon move {game_id} alice 13-7", "bob has doubled to 2: take it (or roll) or drop to refuse"),
        (f"backgammon roll {game_id} bob", "it is not your turn"),
    ):
        refused = await play(line, ok=False)
        assert reason in refused.message, (line, refused.message)
    assert (await play(f"backgammon show {game_id}")).state.to_json() == before
    dropped = await play(f"backgammon drop {game_id} alice")
    assert dropped.status == "finished" and dropped.winners == ["bob"]
    assert dropped.state.outcome().points == 1
    assert "alice refused the double: bob wins 1 point" in dropped.message
    texts = await history_texts(play, game_id)
    assert texts[-2:] == ["bob: double", "alice: drop"]


async def test_resigning_after_a_taken_double_scores_the_cube(session) -> None:
    play = await session(4242)
    started = await play("backgammon challenge -force alice bob")
    game_id = started.game_id
    await play(f"backgammon manual {game_id} bob")
    await play(f"backgammon move {game_id} alice {await first_play(play, game_id)}")
    await play(f"backgammon double {game_id} bob")
    taken = await play(f"backgammon take {game_id} alice")
    assert taken.state.cube == 2 and taken.to_move == "bob"
    resigned = await play(f"backgammon resign {game_id} bob")
    assert resigned.status == "finished" and resigned.winners == ["alice"]
    assert "bob resigned: alice wins 2 points" in resigned.message
    listing = await play("backgammon games bob all")
    assert listing.items[0].endswith("alice won 2 points"), listing.items[0]


async def test_refusals_leave_the_game_unchanged(session) -> None:
    play = await session(4242)
    started = await play("backgammon challenge -force alice bob")
    game_id = started.game_id
    before = started.state.to_json()
    big = max(started.state.dice)
    for line, reason in (
        (f"backgammon move {game_id} alice 13-{13 - big}", "you must use both dice: "),
        (f"backgammon move {game_id} bob 1-7", "it is not your turn"),
        (f"backgammon roll {game_id} alice", "your dice are already rolled"),
        (f"backgammon double {game_id} alice", "you can double only before rolling, in manual mode"),
        (f"backgammon take {game_id} alice", "no double has been offered to you"),
        (f"backgammon move {game_id} alice 25-20", "'25' is not a point"),
        (f"backgammon move {game_id} alice hello", "this is not backgammon move notation"),
    ):
        refused = await play(line, ok=False)
        assert reason in refused.message, (line, refused.message)
    shown = await play(f"backgammon show {game_id}")
    assert shown.state.to_json() == before
    assert (await history_texts(play, game_id)) == []
