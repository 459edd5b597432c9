"""The Dragons history reads true on its own: every tile in the fixed form ``d@q,r`` (a position number names a
cell of one turn's board only), and the auto moves of a chain on lines of their own, marked (Auto) as the server's
gap fills are. Games logged by earlier versions, whose log kept position numbers, read the same and still replay;
moves are accepted in every form they were before; earlier positions and replays still work."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.actions import Actions
from bot.console import Console
from bot.maintenance import check
from data.store import Store
from rules.dragons import DragonsState
from rules.dragons.tiles import LETTERS
from tests.databases import Databases

#: the game of docs/dragons.md: alice's c3 sets off an auto move, bob's g7 leaves two gaps, alice fills one and
#: the server fills the other for bob, which closes alice's loop
TYPED = [("alice", "b1"), ("bob", "d@0,-1"), ("alice", "c3"), ("bob", "g7"), ("alice", "h2")]
HISTORY = [
    "   1. alice: b@0,0",
    "   2. bob: d@0,-1",
    "   3. alice: c@1,-2",
    "      alice: f@1,-1 (Auto)",
    "   4. bob: g@2,-1",
    "   5. alice: h@1,0",
    "   6. bob: h@2,-2 (Auto)",
]
_FIXED = re.compile(r"^(?:\s*\d+\.)?\s+\w+: ([a-h])@(-?\d+),(-?\d+)( \(Auto\))?$")


@pytest.fixture
async def store(databases: Databases):
    opened = await Store.open(await databases.target("pbm.sqlite3"))
    yield opened
    await opened.close()


@pytest.fixture
def console(store: Store, tmp_path: Path) -> Console:
    return Console(Actions(store, seed_source=lambda: 7, think=None), tmp_path / "boards", images=False)


async def ok(console: Console, line: str):
    outcome = await console.run(line)
    assert outcome.ok, f"{line!r} was refused: {outcome.result.message}"
    return outcome.result


async def play(console: Console, typed: list[tuple[str, str]] = TYPED) -> None:
    await ok(console, "dragons challenge alice bob")
    for player, move in typed:
        await ok(console, f"dragons move 1 {player} {move}")


async def test_the_history_writes_every_tile_where_it_lies_and_each_auto_move_on_its_own_line(
    console: Console, store: Store
) -> None:
    await play(console)
    history = await ok(console, "dragons history 1")
    assert history.items == HISTORY
    assert [entry.text for entry in await store.log(1)] == ["b@0,0", "d@0,-1", "c@1,-2", "g@2,-1", "h@1,0", "h@2,-2"]


async def test_a_history_line_stays_true_as_the_board_renumbers(console: Console) -> None:
    await ok(console, "dragons challenge alice bob")
    for player, move in TYPED[:3]:
        await ok(console, f"dragons move 1 {player} {move}")
    early = (await ok(console, "dragons history 1")).items
    assert early == HISTORY[:4]
    board = (await ok(console, "dragons show 1")).state
    assert isinstance(board, DragonsState)
    # the position numbers of the next turn name other cells: "c3" now is not where alice's c3 went
    assert board.positions()[3 - 1] != (1, -2)
    for player, move in TYPED[3:]:
        await ok(console, f"dragons move 1 {player} {move}")
    assert (await ok(console, "dragons history 1")).items[:4] == early


@pytest.mark.parametrize(
    "typed",
    [
        ["b1", "d@0,-1", "c3", "g7", "h2"],
        ["B1", "D1", "C3", "I7", "J2"],
        ["b 1", "d1#2", "c3#3", "k7", "l2"],
        ["b@0,0", "d@0,-1", "c@1,-2", "g@2,-1", "h@1,0"],
        ["b @ 0 , 0", "d@0, -1", "c @1,-2#3", "i@2,-1", "j@1,0#5"],
    ],
    ids=["as the docs", "capitals and aliases", "spaces, aliases and guards", "fixed form", "fixed, spaced"],
)
async def test_moves_are_accepted_in_every_form_they_were_before(console: Console, typed: list[str]) -> None:
    await play(console, [(player, move) for (player, _), move in zip(TYPED, typed, strict=True)])
    assert (await ok(console, "dragons history 1")).items == HISTORY


@pytest.mark.parametrize(
    ("logged", "texts"),
    [
        ("fixed", ["b@0,0", "d@0,-1", "c@1,-2", "g@2,-1", "h@1,0", "h@2,-2"]),
        ("numbers", ["b1", "d1", "c3", "g7", "h2", "h1"]),  # as pbm logged before: each turn's position numbers
    ],
)
async def test_a_game_logged_either_way_reads_in_the_fixed_form_shows_earlier_positions_and_replays(
    console: Console, store: Store, monkeypatch: pytest.MonkeyPatch, logged: str, texts: list[str]
) -> None:
    with monkeypatch.context() as earlier:
        if logged == "numbers":
            earlier.setattr(DragonsState, "log_text", DragonsState.move_text)
        await play(console)
    assert [entry.text for entry in await store.log(1)] == texts
    assert (await ok(console, "dragons history 1")).items == HISTORY
    after_three = await ok(console, "dragons show 1#3")
    assert after_three.move_number == 3
    assert after_three.state is not None and dict(after_three.state.tiles) == {
        (0, 0): LETTERS.index("b"),
        (0, -1): LETTERS.index("d"),
        (1, -2): LETTERS.index("c"),
        (1, -1): LETTERS.index("f"),
    }
    replay = await ok(console, "dragons replay 1")
    assert [caption for _, caption in replay.frames][1:] == [
        "1. alice: b@0,0",
        "2. bob: d@0,-1",
        "3. alice: c@1,-2",
        "4. bob: g@2,-1",
        "5. alice: h@1,0",
        "6. bob: h@2,-2 (Auto)",
    ]
    report = await check(console.actions)
    assert report.lines() == ["1 game checked: all sound"]


async def test_a_taken_back_move_is_marked_with_its_auto_moves(console: Console) -> None:
    await ok(console, "dragons challenge alice bob")
    for player, move in TYPED[:3]:
        await ok(console, f"dragons move 1 {player} {move}")
    await ok(console, "dragons propose 1 alice undo")
    accepted = await ok(console, "dragons accept 1 bob")
    assert "move 3 (alice: c@1,-2) was taken back" in accepted.message
    await ok(console, "dragons move 1 alice a1")
    assert (await ok(console, "dragons history 1")).items == [
        "   1. alice: b@0,0",
        "   2. bob: d@0,-1",
        "   3. alice: c@1,-2  (taken back)",
        "      alice: f@1,-1 (Auto)  (taken back)",
        "      (alice's takeback accepted: move 3 (alice: c@1,-2) was taken back)",
        "   3. alice: a@0,-2",
    ]


@pytest.mark.parametrize("words", ["", "-start_tip -tails", "-may_complete -num_tiles=30"])
async def test_the_history_of_whole_games_names_every_tile_of_the_board_once(console: Console, words: str) -> None:
    """Seeded random games typed as a player reads the board (position numbers): the history's tiles, read in
    order, are the board's tiles in the order they were laid; numberless (Auto) lines are the chains' auto moves
    and numbered (Auto) lines the gaps the server filled."""
    for seed in range(3):
        started = await ok(console, f"dragons challenge {words} alice bob".replace("  ", " "))
        game_id = started.game_id
        rng = random.Random(seed)
        result = started
        while result.status == "active":
            result = await ok(
                console, f"dragons move {game_id} {result.to_move} {rng.choice(result.legal_move_texts())}"
            )
        state = result.state
        assert isinstance(state, DragonsState)
        lines = (await ok(console, f"dragons history {game_id}")).items
        read = [_FIXED.match(line) for line in lines]
        assert all(read), lines
        laid = [(cell, LETTERS[placement], source) for cell, placement, source in state.history if source != "start"]
        assert [((int(m[2]), int(m[3])), m[1]) for m in read if m] == [(cell, letter) for cell, letter, _ in laid]
        chained = [not line.lstrip()[0].isdigit() for line in lines]
        assert chained == [source == "auto" for _, _, source in laid]
        for line in lines:
            assert line.endswith(" (Auto)") or not line.startswith("      ")
