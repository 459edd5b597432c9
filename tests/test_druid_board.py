"""Druid board coordinates as rules-notes.md section 3 (DU-1) derives them from the help file's diagrams: the
square board's A1 bottom left, the hex-hex columns and their six sides, the Y board's columns and three sides,
and the direction letters a druid walks by."""

from __future__ import annotations

import pytest

from rules.druid import GAME, DruidState, board_for


def cells(board_kind: str, size: int, side: str) -> set[str]:
    board = board_for(board_kind, size)
    return {board.names[i].upper() for i in range(board.ncells) if board.sides[side] >> i & 1}


def neighbours(board_kind: str, size: int, cell: str) -> dict[str, str]:
    board = board_for(board_kind, size)
    here = board.index[cell.lower()]
    return {d: board.names[j].upper() for d, j in zip(board.dirs, board.step[here], strict=True) if j >= 0}


def test_square_a1_is_bottom_left_and_north_is_up() -> None:
    assert cells("square", 5, "bottom") == {f"{c}1" for c in "ABCDE"}
    assert cells("square", 5, "top") == {f"{c}5" for c in "ABCDE"}
    assert cells("square", 5, "left") == {f"A{r}" for r in range(1, 6)}
    assert cells("square", 5, "right") == {f"E{r}" for r in range(1, 6)}
    assert neighbours("square", 5, "C3") == {"n": "C4", "e": "D3", "s": "C2", "w": "B3"}
    assert neighbours("square", 5, "A1") == {"n": "A2", "e": "B1"}


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("C2", {"n": "C3", "ne": "D3", "se": "D2", "s": "C1", "sw": "B1", "nw": "B2"}),
        ("E5", {"n": "E6", "ne": "F5", "se": "F4", "s": "E4", "sw": "D4", "nw": "D5"}),
        ("E1", {"n": "E2", "ne": "F1", "nw": "D1"}),
        ("E9", {"s": "E8", "se": "F8", "sw": "D8"}),
        ("A1", {"n": "A2", "ne": "B2", "se": "B1"}),
        ("I5", {"s": "I4", "sw": "H5", "nw": "H6"}),
    ],
)
def test_hex_neighbours_follow_the_notes(cell: str, expected: dict[str, str]) -> None:
    """rules-notes DU-1's worked examples on the size-5 hex-hex board, plus its corners."""
    assert neighbours("hex", 5, cell) == expected


def test_hex_columns_and_sides() -> None:
    board = board_for("hex", 5)
    assert board.ncells == 61 and board.col_len == (5, 6, 7, 8, 9, 8, 7, 6, 5)
    assert cells("hex", 5, "W") == {f"A{r}" for r in range(1, 6)}
    assert cells("hex", 5, "E") == {f"I{r}" for r in range(1, 6)}
    assert cells("hex", 5, "NW") == {"A5", "B6", "C7", "D8", "E9"}
    assert cells("hex", 5, "NE") == {"E9", "F8", "G7", "H6", "I5"}
    assert cells("hex", 5, "SE") == {"E1", "F1", "G1", "H1", "I1"}
    assert cells("hex", 5, "SW") == {"A1", "B1", "C1", "D1", "E1"}


def test_y_columns_neighbours_and_sides() -> None:
    board = board_for("y", 8)
    assert board.ncells == 36 and board.col_len == (8, 7, 6, 5, 4, 3, 2, 1)
    assert cells("y", 8, "W") == {f"A{r}" for r in range(1, 9)}
    assert cells("y", 8, "SE") == {f"{c}1" for c in "ABCDEFGH"}
    assert cells("y", 8, "NE") == {"A8", "B7", "C6", "D5", "E4", "F3", "G2", "H1"}
    # (c, row) touches (c, row +- 1), (c+1, row-1), (c+1, row), (c-1, row), (c-1, row+1)
    assert set(neighbours("y", 8, "C3").values()) == {"C4", "C2", "D2", "D3", "B3", "B4"}
    assert set(neighbours("y", 8, "A1").values()) == {"A2", "B1"}
    assert set(neighbours("y", 8, "H1").values()) == {"G1", "G2"}
    assert set(neighbours("y", 8, "A8").values()) == {"A7", "B7"}


def test_every_neighbour_relation_is_mutual() -> None:
    for kind, size in (("square", 6), ("hex", 5), ("hex", 7), ("y", 8), ("y", 5)):
        board = board_for(kind, size)
        for cell in range(board.ncells):
            for other in board.neighbours[cell]:
                assert cell in board.neighbours[other], (kind, board.names[cell], board.names[other])


@pytest.mark.parametrize(
    ("words", "lintel", "middle"),
    [
        (("-hex",), "c2-c4", "C3"),
        (("-hex",), "c2-e4", "D3"),
        (("-hex",), "c2-e2", "D2"),
        (("-hex",), "d4-f5", "E5"),
        (("-hex",), "d4-f3", "E4"),
        (("-y",), "c3-e1", "D2"),
        (("-y",), "c3-e3", "D3"),
        (("-y",), "c3-a5", "B4"),
    ],
)
def test_lintel_middles_on_the_hex_axes(words: tuple[str, ...], lintel: str, middle: str) -> None:
    state = GAME.new(GAME.parse_options(words, 2), ["ann", "bob"], 1)
    assert isinstance(state, DruidState)
    a, b = (state.board.index[end] for end in lintel.split("-"))
    assert state.board.names[state.board.lines[(a, b)]].upper() == middle
    assert state.board.lines[(b, a)] == state.board.lines[(a, b)]


def test_text_board_of_hex_and_y_shows_the_help_geometry() -> None:
    """Each column of the text summaries is staggered as on the help's diagrams (E9 on top, E1 at the bottom)
    and carries the number of its top row just above it."""
    hex_state = GAME.new(GAME.parse_options(["-hex"], 2), ["ann", "bob"], 1)
    for text in ("e9", "pass", "e1", "pass", "a1"):
        hex_state.push(hex_state.parse_move(text))
    lines = hex_state.text_board().splitlines()
    assert lines[0].split() == list("ABCDEFGHI") * 2
    rows = [line[:21].rstrip() for line in lines[1:19]]
    assert rows[0] == "           9" and rows[-1].strip() == "x"
    assert rows[1:5] == ["         8 x 8", "       7 .   . 7", "     6 .   .   . 6", "   5 .   .   .   . 5"]
    assert rows[13].startswith("   x"), "A1 sits four half-rows above E1"
    y_state = GAME.new(GAME.parse_options(["-y"], 2), ["ann", "bob"], 1)
    for text in ("a8", "pass", "a1", "pass", "h1"):
        y_state.push(y_state.parse_move(text))
    rows = [line[:18].rstrip() for line in y_state.text_board().splitlines()[1:17]]
    assert rows[0] == "   8" and rows[1] == "   x 7", "A8 top left, with B7 half a row lower"
    assert rows[-1] == "   x", "A1 bottom left"
    assert rows[7] == "   .   .   .   . 1" and rows[8] == "     .   .   .   x", "H1 at the right corner"
    assert "the number over a column is its top row" in y_state.text_board()
