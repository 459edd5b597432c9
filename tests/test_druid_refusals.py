"""Every refusal the Druid issue lists, one case each, as a player meets it: the reason names what is wrong, the
position is left exactly as it was, and the move is not among the legal moves either."""

from __future__ import annotations

import json

import pytest

from rules.base import IllegalMoveError, MoveError, MoveSyntaxError
from rules.druid import GAME, DruidState


def new(*options: str, players: int = 2) -> DruidState:
    state = GAME.new(GAME.parse_options(options, players), ["ann", "bob", "cy"][:players], seed=3)
    assert isinstance(state, DruidState)
    return state


def play(state: DruidState, *moves: str) -> DruidState:
    for text in moves:
        state.push(state.parse_move(text))
    return state


#: (option words, players, moves played first, refused move, words the reason must contain)
CASES = [
    pytest.param((), 2, ["c3", "pass"], "c3-e3", ["unsupported end", "E3 is bare ground"], id="unsupported end"),
    pytest.param((), 2, ["c3", "pass"], "e3-c3", ["unsupported end", "E3"], id="unsupported end, reversed"),
    pytest.param(
        (),
        2,
        ["c3", "pass", "e3", "pass", "e3", "pass"],
        "c3-e3",
        ["uneven ends", "C3 is 1 high", "E3 is 2"],
        id="uneven ends",
    ),
    pytest.param((), 2, ["c3", "d3"], "d3", ["wrong colour beneath", "D3", "H's"], id="sarsen on enemy top"),
    pytest.param(
        (), 2, ["e3", "c3"], "c3-e3", ["wrong colour beneath", "rests on 1"], id="lintel on one own unit and a gap"
    ),
    pytest.param(
        (),
        2,
        ["c3", "d3", "pass", "e3"],
        "c3-e3",
        ["wrong colour beneath", "rests on 1"],
        id="lintel on two enemy units",
    ),
    pytest.param(
        (),
        2,
        ["c3", "pass", "d3", "pass", "e3", "pass"],
        "c3-e3",
        ["three own units beneath"],
        id="three own units beneath",
    ),
    pytest.param(
        (),
        2,
        ["c3", "pass", "e3", "pass", "d3", "pass", "d3", "pass"],
        "c3-e3",
        ["D3 (2 high) is higher"],
        id="middle above the ends",
    ),
    pytest.param(("-nogaps",), 2, ["c3", "pass", "e3", "pass"], "c3-e3", ["-nogaps", "D3"], id="nogaps gap"),
    pytest.param(("-nostack",), 2, ["c3", "pass"], "c3", ["-nostack", "C3"], id="nostack sarsen on sarsen"),
    pytest.param((), 2, ["c3", "pass", "e4", "pass"], "c3-e4", ["two cells apart"], id="lintel not in a line"),
    pytest.param(("-size=8",), 2, [], "i3", ["I3 is off the board", "columns A-H, rows 1-8"], id="off the board"),
    pytest.param(("-size=8",), 2, [], "a9", ["off the board"], id="off the top"),
    pytest.param(("-size=8",), 2, [], "a1-a10", ["A10 is off the board"], id="lintel off the board"),
    pytest.param(("-hex",), 2, [], "a6", ["A6 is off the board"], id="off the hex board"),
    pytest.param(("-hex",), 2, [], "e10", ["E10 is off the board"], id="off the hex top"),
    pytest.param(("-y",), 2, [], "b8", ["B8 is off the board"], id="off the Y board"),
    pytest.param(
        ("-walk", "-size=5"), 2, ["b1", "c2"], "b1", ["druid in the way", "B1"], id="druid in the way, sarsen"
    ),
    pytest.param(
        ("-walk", "-size=5"),
        2,
        ["b1", "pass", "c1", "pass", "a1", "pass"],
        "a1-c1",
        ["druid in the way", "B1"],
        id="druid in the way, lintel middle",
    ),
    pytest.param(
        ("-walk", "-size=5"),
        2,
        ["a3", "pass", "b3", "pass"],
        "n",
        ["no druid yet", "bottom row or the top row"],
        id="not your edge: stones off your edges bring no druid",
    ),
    pytest.param(
        ("-walk", "-hex"),
        3,
        ["a3", "pass", "pass"],
        "n",
        ["no druid yet", "NE side or the SW side"],
        id="not your edge: X on the W side of three-player hex",
    ),
    pytest.param(("-walk", "-size=5"), 2, ["b1", "pass"], "n", ["B2 is bare ground"], id="druid onto bare ground"),
    pytest.param(("-walk", "-size=5"), 2, ["b1", "b2"], "n", ["B2 is topped by H"], id="druid onto an enemy stone"),
    pytest.param(("-walk", "-size=5"), 2, ["b1", "pass"], "s", ["off the board"], id="druid off the board"),
    pytest.param(("-walk", "-size=5"), 2, ["b1", "pass"], "ne", ["ne is not a direction"], id="hex letter, square"),
    pytest.param(("-walk", "-size=5"), 2, ["b1", "pass"], "c3,a4", ["one action per turn"], id="c3,a4 form"),
    pytest.param(("-walk", "-size=5"), 2, ["b1", "pass"], "c1,e", ["one action per turn"], id="place and step"),
    pytest.param((), 2, ["e5"], "n", ["-walk"], id="druid step without -walk"),
    pytest.param((), 2, [], "swap", ["swap too early"], id="swap as the first move"),
    pytest.param((), 2, ["e5", "d4"], "swap", ["swap too late"], id="swap too late"),
    pytest.param((), 2, ["e5", "swap"], "swap", ["swap too late"], id="swap twice"),
    pytest.param(("-hex",), 3, ["e5"], "swap", ["two-player"], id="swap in three-player hex"),
]


@pytest.mark.parametrize(("words", "players", "before", "move", "needles"), CASES)
def test_refusal_says_why_and_changes_nothing(
    words: tuple[str, ...], players: int, before: list[str], move: str, needles: list[str]
) -> None:
    state = play(new(*words, players=players), *before)
    saved = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalMoveError) as info:
        state.parse_move(move)
    for needle in needles:
        assert needle in info.value.reason, (needle, info.value.reason)
    assert json.dumps(state.to_json(), sort_keys=True) == saved
    assert all(str(legal) != move.lower() for legal in state.legal_moves)


@pytest.mark.parametrize("text", ["hello", "c", "c3-", "3c", "c3-d", "c3--d3", "swapp", "c3 d3"])
def test_unreadable_moves_show_the_forms(text: str) -> None:
    state = play(new(), "e5")
    saved = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(MoveSyntaxError) as info:
        state.parse_move(text)
    assert "c3" in str(info.value) and "b2-b4" in str(info.value)
    assert json.dumps(state.to_json(), sort_keys=True) == saved


def test_moves_read_in_any_case_with_spaces_and_leading_zeros() -> None:
    state = new("-size=8")
    moves = []
    for text in ("C3", " Pass ", "E03", "--", "C3 - e3"):
        moves.append(state.parse_move(text))
        state.push(moves[-1])
    assert state.height[state.board.index["d3"]] == 2
    assert [state.move_text(move) for move in moves] == ["c3", "pass", "e3", "pass", "c3-e3"]


def test_finished_game_takes_no_moves() -> None:
    state = play(new("-size=3"), "b1", "pass", "b2", "pass", "b3")
    assert state.is_over
    with pytest.raises(MoveError):
        state.parse_move("a1")
