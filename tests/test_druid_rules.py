"""Druid rules as a player meets them: options, placements, refusals with their reasons, wins, Walk, swap, pass.

Positions come from the pbmserv help file's drawings (the three legal lintels, the sample game won by V) and from
rules-notes.md section 3.
"""

from __future__ import annotations

import json

import pytest

from rules.base import IllegalMoveError, MoveSyntaxError, OptionError, StateFormatError
from rules.druid import GAME, DruidState, Lintel, Pass, Sarsen, Step, Swap


def new(*options: str, players: int = 2) -> DruidState:
    names = ["ann", "bob", "cy"][:players]
    state = GAME.new(GAME.parse_options(options, players), names, seed=7)
    assert isinstance(state, DruidState)
    return state


def play(state: DruidState, *moves: str) -> list:
    events = []
    for text in moves:
        events = state.push(state.parse_move(text))
    return events


def refusal(state: DruidState, text: str) -> str:
    with pytest.raises(IllegalMoveError) as info:
        state.parse_move(text)
    return info.value.reason


def solo(state: DruidState, cells: list[str]) -> list:
    """The player to move places ``cells`` one by one while every other player passes."""
    events = []
    for cell in cells:
        events = play(state, cell)
        while not state.is_over and state.to_move != 0:
            play(state, "pass")
    return events


# ---- options ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("words", "players", "kind", "size", "cells"),
    [
        ((), 2, "square", 10, 100),
        (("-size=8",), 2, "square", 8, 64),
        (("-hex",), 2, "hex", 5, 61),
        (("-hex",), 3, "hex", 5, 61),
        (("-y",), 2, "y", 8, 36),
        (("-hex", "-size=13"), 3, "hex", 13, 469),
        (("-size=26",), 2, "square", 26, 676),
    ],
)
def test_board_sizes(words: tuple[str, ...], players: int, kind: str, size: int, cells: int) -> None:
    state = new(*words, players=players)
    assert (state.board.kind, state.board.size, state.board.ncells) == (kind, size, cells)


@pytest.mark.parametrize(
    ("words", "players", "needle"),
    [
        (("-hex", "-size=14"), 2, "-size=14"),
        (("-size=2",), 2, "-size=2"),
        ((), 3, "-hex"),
        (("-y",), 3, "-hex"),
        (("-hex", "-walk"), 2, "-walk"),
        (("-y", "-hex"), 2, "-y"),
        (("-y", "-walk"), 2, "-walk"),
    ],
)
def test_option_refusals_name_the_option(words: tuple[str, ...], players: int, needle: str) -> None:
    with pytest.raises(OptionError, match=needle):
        GAME.parse_options(words, players)


def test_help_and_notation_fit() -> None:
    assert len(GAME.help) <= 1800 and len(GAME.notation) <= 600
    assert GAME.format_options(GAME.parse_options(["-hex", "-walk"], 3)) == "-size=5 -hex -walk"


# ---- sarsens ---------------------------------------------------------------------------------------------


def test_sarsens_on_ground_and_own_colour_only() -> None:
    state = new()
    play(state, "c3", "d3", "c3")
    assert state.height[state.board.index["c3"]] == 2
    assert "wrong colour beneath" in refusal(state, "c3")
    play(state, "d3")
    assert "wrong colour beneath" in refusal(state, "d3")


def test_off_the_board_and_syntax() -> None:
    state = new("-size=8")
    assert "off the board" in refusal(state, "i3")
    assert "off the board" in refusal(state, "a9")
    with pytest.raises(MoveSyntaxError):
        state.parse_move("hello")


def test_not_your_turn() -> None:
    state = new()
    with pytest.raises(IllegalMoveError, match="not your turn"):
        state.parse_move("c3", player=1)


def test_nostack_forbids_sarsen_on_sarsen_but_not_on_lintel() -> None:
    state = new("-nostack")
    play(state, "c3", "pass")
    assert "-nostack" in refusal(state, "c3")
    play(state, "e3", "pass", "c3-e3", "pass")
    play(state, "d3")
    assert state.height[state.board.index["d3"]] == 3
    idx = state.board.index
    assert (state.owner_glyph(idx["d3"]), state.owner_glyph(idx["c3"])) == ("V", "v"), "sarsen tops are marked"
    assert "Capitals are sarsen tops" in state.text_board()
    assert "Capitals" not in new().text_board()


# ---- lintels: the help file's three legal placements ----------------------------------------------------


def test_lintel_over_a_gap() -> None:
    state = new()
    play(state, "c3", "pass", "e3", "pass", "c3-e3")
    idx = state.board.index
    assert [state.height[idx[c]] for c in ("c3", "d3", "e3")] == [2, 2, 2]
    assert [len(state.stacks[idx[c]]) for c in ("c3", "d3", "e3")] == [2, 1, 2]


def test_lintel_on_enemy_end_and_two_own() -> None:
    state = new()
    play(state, "d3", "c3", "e3", "pass", "c3-e3")
    assert state.top[state.board.index["c3"]] == 0


def test_lintel_over_own_lintel_and_enemy_sarsen() -> None:
    state = new()
    play(state, "a3", "d3", "c3", "d3", "a3-c3", "pass", "b3-d3")
    idx = state.board.index
    assert [state.height[idx[c]] for c in ("a3", "b3", "c3", "d3")] == [2, 3, 3, 3]
    assert state.top[idx["d3"]] == 0


# ---- lintels: refusals ----------------------------------------------------------------------------------


def test_lintel_refusals() -> None:
    state = new()
    play(state, "c3", "pass")
    assert "unsupported end" in refusal(state, "c3-e3")
    play(state, "e3", "pass", "e3", "pass")
    assert "uneven ends" in refusal(state, "c3-e3")
    assert "two cells apart" in refusal(state, "c3-c4")
    assert "two cells apart" in refusal(state, "c3-f3")
    assert "two cells apart" in refusal(state, "c3-e5")
    play(state, "c3", "pass", "d3", "pass", "d3", "pass", "d3")
    assert "higher than the ends" in refusal(state, "c3-e3")


def test_three_own_units_refused() -> None:
    state = new()
    play(state, "c3", "pass", "d3", "pass", "e3", "pass")
    assert "three own units" in refusal(state, "c3-e3")


def test_wrong_colour_beneath_refused() -> None:
    state = new()
    play(state, "e3", "c3")
    reason = refusal(state, "c3-e3")
    assert "wrong colour beneath" in reason and "rests on 1" in reason
    play(state, "pass", "d3")
    assert "rests on 1" in refusal(state, "c3-e3"), "enemy end, enemy middle, own end"


def test_nogaps_needs_three_stones() -> None:
    state = new("-nogaps")
    play(state, "c3", "pass", "e3", "pass")
    assert "-nogaps" in refusal(state, "c3-e3")
    play(state, "a1", "d3", "c3-e3")
    assert state.height[state.board.index["d3"]] == 2


def test_hex_lintels_lie_on_the_three_axes() -> None:
    state = new("-hex")
    play(state, "c2", "pass", "c4", "pass", "e4", "pass", "e2", "pass")
    for text in ("c2-c4", "c2-e4", "c2-e2"):
        assert state.parse_move(text) == Lintel(*text.split("-"))
    assert "two cells apart" in refusal(state, "c4-e2")


# ---- connections and wins -------------------------------------------------------------------------------

SAMPLE_MOVES = [
    "b8",
    "b5",
    "b7",
    "a5",
    "b6",
    "c5",
    "b4",
    "d5",
    "b4-b6",
    "e5",
    "d4",
    "f5",
    "d4",
    "g5",
    "b4-d4",
    "h5",
    "d3",
    "f4",
    "d2",
    "b1",
    "c1",
    "f1",
    "e1",
    "pass",
    "c1-e1",
]
SAMPLE_SUMMARY = """\
8  . v . . . . . .  8       8  . 1 . . . . . .  8
7  . v . . . . . .  7       7  . 1 . . . . . .  7
6  . v . . . . . .  6       6  . 2 . . . . . .  6
5  h v h h h h h h  5       5  1 2 1 1 1 1 1 1  5
4  . v v v . h . .  4       4  . 3 3 3 . 1 . .  4
3  . . . v . . . .  3       3  . . . 1 . . . .  3
2  . . . v . . . .  2       2  . . . 1 . . . .  2
1  . h v v v h . .  1       1  . 1 2 2 2 1 . .  1"""


def test_sample_game_won_by_v() -> None:
    """rules-notes DU-7: V's path B8..B4-C4-D4..D1 wins while H's row 5 is cut at B5 by a higher V stone."""
    state = new("-size=8")
    events = play(state, *SAMPLE_MOVES[:-1])
    assert not state.is_over
    events = play(state, SAMPLE_MOVES[-1])
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "V joined top and bottom"
    assert events[-1].kind == "win"
    rows = state.text_board().splitlines()[1:9]
    assert "\n".join(rows) == SAMPLE_SUMMARY
    assert state.recompute_winners() == {0}


def test_h_joins_left_and_right() -> None:
    state = new("-size=4")
    play(state, "pass")
    solo_h = ["a2", "b2", "c2"]
    for cell in solo_h:
        play(state, cell, "pass")
    assert not state.is_over
    play(state, "d2")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,) and outcome.reason == "H joined left and right"


def test_two_player_hex_needs_three_alternating_sides() -> None:
    state = new("-hex")
    solo(state, [f"e{r}" for r in range(1, 10)])
    assert not state.is_over, "column E touches NW, NE, SE, SW but no alternating three"
    solo(state, ["f4", "g3", "h2"])
    assert not state.is_over
    solo(state, ["i1"])
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "X joined NW, E and SW sides"


#: the help's "two possible winning paths for O", read cell by cell off its two diagrams
HELP_O_PATHS = (
    ["c7", "d7", "d6", "e6", "e5", "g4", "i3", "d4", "f4", "h3", "d3", "c2", "c1"],
    ["g7", "g6", "f6", "b4", "d5", "f5", "a3", "c4", "e5", "e4", "f3", "f2", "g1"],
)


@pytest.mark.parametrize("path", HELP_O_PATHS)
def test_two_player_hex_help_paths_win_for_o(path: list[str]) -> None:
    state = new("-hex")
    for cell in path[:-1]:
        play(state, "pass", cell)
    assert not state.is_over
    play(state, "pass", path[-1])
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,) and outcome.reason.startswith("O joined")


def test_two_player_hex_adjacent_sides_do_not_win() -> None:
    state = new("-hex")
    solo(state, [f"a{r}" for r in range(1, 6)])
    assert not state.is_over


def test_three_player_hex_opposite_sides() -> None:
    state = new("-hex", players=3)
    solo(state, [f"e{r}" for r in range(1, 10)])
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "X joined NE and SW sides"


def test_three_player_hex_y_joins_west_and_east() -> None:
    state = new("-hex", players=3)
    play(state, "pass", "pass")
    for cell in ["a5", "b5", "c5", "d5", "e5", "f4", "g3", "h2", "i1"]:
        play(state, cell)
        if not state.is_over:
            play(state, "pass", "pass")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (2,) and outcome.reason == "Y joined W and E sides"


def test_y_board_needs_all_three_sides() -> None:
    state = new("-y")
    solo(state, [f"b{r}" for r in range(1, 8)])
    assert not state.is_over, "column B touches SE and NE, not W"
    solo(state, ["a1"])
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "X joined all three sides"


def test_upper_stone_cuts_a_connection() -> None:
    state = new("-size=5")
    play(state, "b2", "a3", "b4", "b3", "e1", "c3", "b2-b4", "e3", "e2")
    assert state.top[state.board.index["b3"]] == 0
    play(state, "d3")
    assert not state.is_over, "H's row 3 is cut at B3 by V's lintel"
    assert state.recompute_winners() == set()


# ---- pass, draw, swap, resign ---------------------------------------------------------------------------


def test_all_pass_is_a_draw() -> None:
    state = new()
    play(state, "c3", "pass")
    assert not state.is_over
    events = play(state, "--")
    outcome = state.outcome()
    assert outcome is not None and outcome.draw and events[-1].kind == "draw"


def test_three_player_draw_needs_three_passes() -> None:
    state = new("-hex", players=3)
    play(state, "pass", "pass", "c3", "pass", "pass")
    assert not state.is_over
    play(state, "pass")
    assert state.outcome() is not None and state.outcome().draw


def test_swap_exchanges_seats_and_keeps_the_board() -> None:
    state = new()
    play(state, "e5")
    events = play(state, "swap")
    assert events[0].kind == "swap"
    assert state.players == ["bob", "ann"]
    assert state.top[state.board.index["e5"]] == 0
    assert state.to_move == 1 and state.players[state.to_move] == "ann"
    assert "second move" in refusal(state, "swap")


def test_swap_leaves_the_move_counter_alone() -> None:
    """After c3, swap the next move is still move 2 (pbmserv, rules-notes R-5), in play, in JSON and on replay."""
    state = new()
    play(state, "c3")
    assert state.ply == 1
    play(state, "swap")
    assert state.ply == 1, "the swap is not a move of its own"
    assert "too late" in refusal(state, "swap")
    restored = GAME.load(json.loads(json.dumps(state.to_json())))
    assert restored.ply == 1 and restored == state
    play(state, "d4")
    assert state.ply == 2
    replayed = new()
    play(replayed, "c3", "swap", "d4")
    assert replayed == state and replayed.players == ["bob", "ann"]


def test_queued_resignation_follows_its_player_through_a_swap() -> None:
    state = new()
    play(state, "e5")
    state.resign(0)
    play(state, "swap")
    assert state.queued_resign == {1} and state.players[1] == "ann"
    assert state.forced_move() is not None
    state.push(state.forced_move())
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and state.players[0] == "bob"


def test_swap_only_second_move_and_two_players() -> None:
    state = new()
    assert "second move" in refusal(state, "swap")
    three = new("-hex", players=3)
    play(three, "c3")
    assert "two-player" in refusal(three, "swap")


def test_resigned_seat_is_skipped_in_three_player_hex() -> None:
    state = new("-hex", players=3)
    play(state, "c3", "d3")
    state.resign(2)
    assert state.to_move == 0 and 2 in state.resigned and not state.is_over
    play(state, "pass")
    assert state.to_move == 1
    play(state, "pass")
    assert state.outcome() is not None and state.outcome().draw


# ---- Druid's Walk ---------------------------------------------------------------------------------------


def test_walk_druid_appears_steps_and_wins() -> None:
    state = new("-walk", "-size=3")
    assert "no druid yet" in refusal(state, "n")
    events = play(state, "b1")
    assert events[-1].kind == "druid" and "top row" in events[-1].text
    play(state, "c2", "b2", "pass", "b3", "pass")
    assert not state.is_over, "a connection alone does not win Druid's Walk"
    assert "druid stands on B1" in refusal(state, "b1")
    play(state, "n", "pass")
    events = play(state, "n")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "V's druid reached the top row"
    assert events[-1].kind == "win"


def test_walk_step_refusals() -> None:
    state = new("-walk", "-size=5")
    play(state, "b1", "a2")
    assert "druid stands on A2" in refusal(state, "a1-a3")
    assert "off the board" in refusal(state, "s")
    assert "bare ground" in refusal(state, "n")
    assert "not a direction" in refusal(state, "ne")
    assert "one action per turn" in refusal(state, "c3,a4")
    play(state, "a1", "b2")
    assert "topped by H" in refusal(state, "n")
    assert state.parse_move("w") == Step("w")


def test_walk_druid_appears_under_a_lintel_on_the_edge() -> None:
    state = new("-walk", "-size=5")
    play(state, "c3", "c5", "c4", "pass")
    assert state.druids == [None, None]
    events = play(state, "c3-c5")
    assert state.druids[0] == state.board.index["c5"] and events[-1].kind == "druid"
    other = new("-walk", "-size=5")
    play(other, "c4", "pass", "e4", "pass", "e4-c4")
    assert other.druids[0] is None, "row 4 is not one of V's edges"


def test_walk_three_player_hex_directions() -> None:
    state = new("-hex", "-walk", players=3)
    play(state, "e1", "pass", "pass")
    assert state.targets[0] == "NE"
    play(state, "e2", "pass", "pass")
    assert "not a direction" in refusal(state, "e")
    assert state.parse_move("n") == Step("n")
    play(state, "n")
    assert state.druids[0] == state.board.index["e2"]


def test_walk_not_in_plain_games() -> None:
    state = new()
    assert "-walk" in refusal(state, "n")


# ---- moves, text and serialisation ----------------------------------------------------------------------


def test_every_legal_move_reads_back_from_its_text() -> None:
    state = new("-size=6")
    play(state, "c3", "d3", "e3", "b2", "c3-e3", "b4")
    moves = list(state.legal_moves)
    assert Pass() in moves and Sarsen("a1") in moves and Swap() not in moves
    for move in moves:
        assert state.parse_move(str(move)) == move
        assert move in state.legal_moves
    assert Lintel("e3", "c3") in state.legal_moves or Lintel("c3", "e3") not in state.legal_moves


def test_json_round_trip_and_damage() -> None:
    state = new("-walk", "-size=5")
    play(state, "b1", "c3", "b2", "pass", "n")
    data = json.loads(json.dumps(state.to_json()))
    again = GAME.load(data)
    assert again == state and again.text_board() == state.text_board()
    broken = json.loads(json.dumps(data))
    broken["board"]["stones"].append([0, "s", 1, ["c3"]])
    with pytest.raises(StateFormatError):
        GAME.load(broken)
    broken = json.loads(json.dumps(data))
    broken["board"]["stones"][0][3] = ["z9"]
    with pytest.raises(StateFormatError):
        GAME.load(broken)


def test_text_board_hex_shows_columns_and_legend() -> None:
    state = new("-hex")
    play(state, "e5")
    text = state.text_board()
    assert "A B C D E F G H I" in text and "x = ann" in text and "x" in text.splitlines()[10]
    assert text.splitlines()[10].split()[:3] == [".", ".", "x"], "E5 is the centre cell"


# ---- more of the rules, one test each -------------------------------------------------------------


def test_heights_are_unlimited() -> None:
    state = new("-size=4")
    for _ in range(12):
        play(state, "b2", "pass")
    cell = state.board.index["b2"]
    assert state.height[cell] == 12 and state.height_glyph(cell) == "C"
    assert "C" in state.text_board().splitlines()[3]


def test_druid_climbs_and_jumps_whatever_the_height() -> None:
    state = new("-walk", "-size=5")
    play(state, "b1", "pass", "b2", "pass", "b2", "pass", "b2", "pass")
    play(state, "n")
    assert state.druids[0] == state.board.index["b2"] and state.height[state.board.index["b2"]] == 3
    play(state, "pass", "s")
    assert state.druids[0] == state.board.index["b1"], "down from height 3 to height 1"


def test_druid_walks_on_lintel_tops_but_never_under_them() -> None:
    """A druid stands on top stones only: a V lintel over a gap is a path, a V sarsen buried under an H lintel
    (the gap-side of a monument) is not."""
    state = new("-walk", "-size=5")
    play(state, "b1", "pass", "b2", "pass", "a3", "pass", "c3", "pass", "a3-c3", "pass")
    assert len(state.stacks[state.board.index["b3"]]) == 1, "a gap under the lintel's middle"
    play(state, "n", "pass", "n")
    assert state.druids[0] == state.board.index["b3"] and state.height[state.board.index["b3"]] == 2
    other = new("-walk", "-size=5")
    play(other, "c1", "b2", "c2", "d2", "pass", "b2-d2")
    assert [other.stones[k].owner for k in other.stacks[other.board.index["c2"]]] == [0, 1]
    assert "C2 is topped by H" in refusal(other, "n")


def test_three_player_walk_druid_reaches_its_far_side() -> None:
    state = new("-hex", "-walk", players=3)
    solo(state, [f"e{r}" for r in range(1, 10)])
    assert not state.is_over, "X's column E joins its sides, but connections do not win Druid's Walk"
    assert state.druids[0] == state.board.index["e1"] and state.targets[0] == "NE"
    for _ in range(7):
        play(state, "n", "pass", "pass")
    assert not state.is_over
    events = play(state, "n")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "X's druid reached the NE side"
    assert events[-1].kind == "win" and state.recompute_winners() == {0}


@pytest.mark.parametrize("words", [("-hex",), ("-y",)])
def test_swap_in_two_player_hex_and_y(words: tuple[str, ...]) -> None:
    state = new(*words)
    play(state, "c3", "swap")
    assert state.players == ["bob", "ann"] and state.top[state.board.index["c3"]] == 0
    assert state.to_move == 1 and state.colours[1] == "O"


def test_swap_in_walk_hands_over_the_opening_druid() -> None:
    state = new("-walk", "-size=5")
    play(state, "c1", "swap")
    assert state.players == ["bob", "ann"] and state.druids[0] == state.board.index["c1"]
    assert state.players[state.to_move] == "ann" and state.colours[state.to_move] == "H"
    play(state, "a3", "c2", "pass")
    assert state.parse_move("n", player=0) == Step("n"), "bob now walks V's druid"


def test_text_board_stars_the_druids() -> None:
    state = new("-walk", "-size=6")
    play(state, "c1", "a3", "c2", "b3", "n", "e")
    lines = state.text_board().splitlines()
    assert lines[4].startswith("3  h*h*. . . .  3       3  1 1 . . . .  3"), "H's druid on B3, heights untouched"
    assert lines[5].startswith("2  . .*v*. . .  2"), "V's druid stepped up to C2"
    assert lines[6].startswith("1  . . v . . .  1")
    assert "Stars mark a druid, as in *v*." in lines[9]
    hexed = new("-hex", "-walk", players=3)
    play(hexed, "c1", "g1", "i3")
    text = hexed.text_board()
    assert "      *x*  .  *o*" in text and "  *y*" in text and "as in *x*" in text
    assert "*" not in new("-walk").text_board()


def test_size_help_gives_the_range_of_each_board_shape() -> None:
    line = GAME.options[0].describe()
    assert line.startswith("-size=n (square 3..26, default 10; hex 3..13, default 5; Y 3..26, default 8)")
    assert "3..26)" not in line
    GAME.parse_options(["-hex", "-size=13"], 2)
    with pytest.raises(OptionError, match=r"-size=14 is out of range for the hex board \(3..13\)"):
        GAME.parse_options(["-hex", "-size=14"], 2)
