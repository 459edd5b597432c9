"""Drogo through the console, as a player types it, on a real SQLite file: a challenge with options, refused moves
that say why and change nothing, a capture, the history and a replayed position, and a whole game without superko
that stops at the placement cap with a result that says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.actions import Actions
from bot.console import Console, render_text
from data.store import Store


class Transcript:
    """Runs console lines and keeps what was printed."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.lines: list[str] = []

    async def __call__(self, line: str, ok: bool = True):
        outcome = await self.console.run(line)
        self.lines.append(f"> {line}\n{render_text(outcome)}")
        assert outcome.ok == ok, f"{line!r}: {outcome.result.message}"
        return outcome.result

    async def text(self, line: str, ok: bool = True) -> str:
        """What the console printed for ``line``, the command itself left out."""
        await self(line, ok)
        return self.lines[-1].split("\n", 1)[1]


@pytest.fixture
async def play(tmp_path: Path):
    store = await Store.open(tmp_path / "drogo.sqlite3")
    console = Console(Actions(store, seed_source=lambda: 20261123), tmp_path / "boards", images=False)
    yield Transcript(console)
    await store.close()


async def assert_refused(play: Transcript, game: int, refusals: dict[str, str]) -> None:
    """Each move is refused with its reason, and the board is unchanged after all of them."""
    before = await play.text(f"drogo show {game}")
    for words, reason in refusals.items():
        result = await play(f"drogo move {game} {words}", ok=False)
        assert reason in result.message
    assert await play.text(f"drogo show {game}") == before


async def test_refusals_say_why_and_change_nothing(play: Transcript) -> None:
    game = (await play("drogo challenge ann bob")).game_id
    await assert_refused(
        play,
        game,
        {
            "ann c3,d3": "only one piece may be placed on the opening move",
            "ann g1": "g1 is off the board (a1 to f6)",
            "ann pass": "Drogo has no voluntary pass: you have a legal placement",
            "ann c3;d3": "'c3;d3' is not a cell",
            "bob c3": "not your turn",
        },
    )

    await play(f"drogo move {game} ann c3")
    await play(f"drogo move {game} bob f6")
    await play(f"drogo move {game} ann c3,c3")
    await play(f"drogo move {game} bob a5,a6")
    await assert_refused(
        play,
        game,
        {
            "ann f6": "you may build on an enemy stack only when the piece joins one of your groups",
            "ann c3,d3": "pieces side by side must be at the same level, but c3 would be at level 4 and d3 at level 1",
            "ann a1,c1": "the two pieces must touch",
            "ann c3,c3,c3": "a turn places one or two pieces",
        },
    )
    await play(f"drogo move {game} ann c3,c3")
    await play(f"drogo move {game} bob a1")
    await play(f"drogo move {game} ann c3")
    await play(f"drogo move {game} bob b1")
    stack_full = await play(f"drogo move {game} ann c3", ok=False)
    assert "the stack on c3 is full (6 high)" in stack_full.message
    assert "x ann 6  o bob 5" in await play.text(f"drogo show {game}")


async def test_options_and_a_capture_as_players_see_them(play: Transcript) -> None:
    started = await play("drogo challenge ann bob -size=3 -single")
    game = started.game_id
    board = await play.text(f"drogo show {game}")
    assert "       a   b   c" in board and "  3    .   .   .  3" in board
    await play(f"drogo move {game} ann a2")
    await play(f"drogo move {game} bob a1")
    single = await play(f"drogo move {game} ann b1,c1", ok=False)
    assert "this game is played with -single: one piece per turn" in single.message
    taken = await play.text(f"drogo move {game} ann b1")
    assert "ann (x) captures 1 stack of bob (o), 1 piece: a1" in taken
    assert "  1    *  X1   .  1" in taken
    suicide = await play(f"drogo move {game} bob a1", ok=False)
    assert "your group would have no freedom (suicide)" in suicide.message
    history = await play.text(f"drogo history {game}")
    assert "1. ann: a2" in history and "2. bob: a1" in history and "3. ann: b1" in history
    replay = await play.text(f"drogo show {game}#2")
    assert "  1   O1   .   .  1" in replay and "  2   x1   .   .  2" in replay


async def test_a_game_without_superko_stops_at_the_cap_and_says_so(play: Transcript) -> None:
    game = (await play("drogo challenge ann bob -size=3 -no_superko")).game_id
    result = None
    for _ in range(200):
        listing = await play(f"drogo moves {game}")
        if listing.status != "active":
            break
        # the last listed move, so that stacks grow and captures happen instead of filling a1 first every time
        result = await play(f"drogo move {game} {listing.to_move} {listing.items[-1]}")
        if result.status != "active":
            break
    assert result is not None and result.status == "finished"
    text = play.lines[-1]
    assert "the game has reached its limit of 108 placements for a 3x3 board;" in text
    assert "wins on height: ann (x) " in text or "; draw, ann and bob tie on " in text
    shown = await play(f"drogo show {game}")
    assert shown.status == "finished"
