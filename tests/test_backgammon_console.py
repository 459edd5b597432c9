"""Whole Backgammon games through the console, one for each command of the help file: move, greedy, manual,
roll, double (taken and dropped). Each test keeps the transcript a player would have seen and checks it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.actions import Actions
from bot.console import Console, render_text
from data.store import Store


class Transcript:
    """Runs console lines and keeps what was printed, as a player would read it."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.lines: list[str] = []

    async def __call__(self, line: str, ok: bool = True):
        outcome = await self.console.run(line)
        self.lines.append(f"> {line}\n{render_text(outcome)}")
        assert outcome.ok == ok, f"{line!r}: {outcome.result.message}"
        return outcome.result

    def text(self) -> str:
        return "\n".join(self.lines)


@pytest.fixture
async def play(tmp_path: Path):
    store = await Store.open(tmp_path / "bg.sqlite3")
    console = Console(Actions(store, seed_source=lambda: 20261123), tmp_path / "boards", images=False)
    yield Transcript(console)
    await store.close()


async def play_out(play: Transcript, game_id: int, limit: int = 400):
    """Play the first listed legal move until the game ends; returns the final result."""
    for _ in range(limit):
        listing = await play(f"backgammon moves {game_id}")
        if listing.status != "active":
            break
        plays = [m for m in listing.items if m not in ("greedy", "manual")]
        if not plays:
            plays = listing.items
        result = await play(f"backgammon move {game_id} {listing.to_move} {plays[0]}")
        if result.status != "active":
            return result
    return await play(f"backgammon show {game_id}")


async def test_a_whole_game_with_move(play: Transcript) -> None:
    started = await play("backgammon challenge alice bob")
    assert "Opening roll" in play.text()
    final = await play_out(play, started.game_id)
    assert final.status == "finished" and len(final.winners) == 1
    history = await play(f"backgammon history {started.game_id}")
    assert history.items and all(":" in line for line in history.items)
    assert "won" in history.message


async def test_greedy_bears_off_for_the_player(play: Transcript) -> None:
    started = await play("backgammon challenge -force alice bob")
    game_id = started.game_id
    toggled = await play(f"backgammon greedy {game_id} bob")
    assert "greedy mode on" in toggled.message
    await play(f"backgammon move {game_id} alice pw greedy")
    final = await play_out(play, game_id)
    assert final.status == "finished"
    history = await play(f"backgammon history {game_id}")
    auto_bear_offs = [line for line in history.items if "(Auto)" in line and "-H" in line]
    assert auto_bear_offs, "greedy mode never bore off automatically"


async def test_manual_double_taken_by_rolling(play: Transcript) -> None:
    started = await play("backgammon challenge -force alice bob")
    game_id = started.game_id
    await play(f"backgammon manual {game_id} bob")
    first = await play(f"backgammon moves {game_id}")
    await play(f"backgammon move {game_id} alice {first.items[0]}")
    waiting = await play(f"backgammon show {game_id}")
    assert waiting.to_move == "bob"
    doubled = await play(f"backgammon double {game_id} bob")
    assert doubled.to_move == "alice" and doubled.notify == ["alice"]
    taken = await play(f"backgammon roll {game_id} alice")
    assert "2" in taken.message and taken.to_move == "bob"
    refused = await play(f"backgammon double {game_id} bob", ok=False)
    assert "before rolling" in refused.message
    await play(f"backgammon manual {game_id} bob")
    final = await play_out(play, game_id)
    assert final.status == "finished"
    listing = await play("backgammon games alice all")
    assert listing.items[0].endswith("points"), listing.items[0]


async def test_manual_double_dropped(play: Transcript) -> None:
    started = await play("backgammon challenge -force alice bob")
    game_id = started.game_id
    await play(f"backgammon manual {game_id} bob")
    first = await play(f"backgammon moves {game_id}")
    await play(f"backgammon move {game_id} alice {first.items[0]}")
    await play(f"backgammon double {game_id} bob")
    dropped = await play(f"backgammon drop {game_id} alice")
    assert dropped.status == "finished"
    assert dropped.winners == ["bob"]
    history = await play(f"backgammon history {game_id}")
    assert history.items[-1].endswith("alice: resign")


async def test_roll_out_of_manual_mode_is_refused(play: Transcript) -> None:
    started = await play("backgammon challenge -force alice bob")
    refused = await play(f"backgammon roll {started.game_id} alice", ok=False)
    assert "roll" in refused.message
