"""Every way of writing a backgammon play (rules-notes BG-2 and gnubg/FIBS style) and the refusals."""

from __future__ import annotations

import pytest

from rules.backgammon import BackgammonState
from rules.base import AmbiguousMoveError, IllegalMoveError, MoveSyntaxError

START_X = {1: 2, 12: 5, 17: 3, 19: 5}
START_O = {24: 2, 13: 5, 8: 3, 6: 5}


def position(x: dict, o: dict, dice: tuple[int, int], mover: str = "O") -> BackgammonState:
    return BackgammonState.from_points(["alice", "bob"], x, o, dice, mover)


def same_play(state: BackgammonState, *texts: str) -> str:
    """All texts must read as one and the same play; returns its canonical text."""
    plays = {state.parse_move(text) for text in texts}
    assert len(plays) == 1, plays
    return str(plays.pop())


def test_double_threes_in_every_notation() -> None:
    state = position(START_X, START_O, (3, 3))
    canonical = same_play(
        state,
        "13-10,13-10,10-7,10-7",
        "2x13-10,2x10-7",
        "2*13-10,2*10-7",
        "13-10(2),10-7(2)",
        "2x13-7",
        "13-7,13-7",
        "13:3,13:3,10:3,10:3",
        "13/10(2) 10/7(2)",
        "13/7(2)",
        "13/10/7 13/10/7",
        "13/10 13/10, 10/7 10/7",
    )
    assert canonical == "13-10,13-10,10-7,10-7"


def test_plain_and_gnubg_forms_agree() -> None:
    state = position(START_X, START_O, (6, 1))
    assert same_play(state, "13-7,8-7", "13/7 8/7", "8-7,13-7", "13:6,8:1", "13/7, 8/7", " 13-7 , 8-7 ") == "13-7,8-7"


def test_a_compound_move_equals_its_single_steps() -> None:
    state = position(START_X, START_O, (6, 5))
    assert same_play(state, "24-18,18-13", "24-13", "24/13", "24/18/13", "24:6,18:5") == "24-18,18-13"


def test_hit_marks_are_optional() -> None:
    state = position({1: 1, 12: 14}, {13: 15}, (6, 2), mover="X")
    state.points[1] = [0] * 26
    state.points[1][7] = 1
    state.points[1][3] = 1
    state.points[1][13] = 13
    state._plays = None
    assert same_play(state, "1-7*,12-14", "1/7* 12/14", "1-7,12-14") == "1-7*,12-14"


def test_bar_entry_with_only_the_destination_and_bar_words() -> None:
    state = position(START_X, {"bar": 1, 13: 5, 8: 3, 6: 5, 24: 1}, (4, 2))
    assert same_play(state, "B-21,13-11", "b-21,13-11", "21,13-11", "bar/21 13/11", "BAR/21 13/11", "B:4,13:2") == (
        "B-21,13-11"
    )


def test_bear_off_with_only_the_source_and_off_words() -> None:
    state = position({12: 15}, {6: 2, 4: 3, 1: 10}, (6, 4), mover="O")
    assert same_play(state, "6-H,4-H", "6,4", "6-h,4-h", "6/off 4/off", "6:6,4:4", "6/OFF, 4/home") == "6-H,4-H"


def test_bar_entries_for_two_checkers_in_every_notation() -> None:
    state = position(START_X, {"bar": 2, 13: 5, 8: 3, 6: 3, 24: 2}, (3, 3))
    assert same_play(
        state, "22,22,13-10,13-10", "2x22,2x13-10", "b/22(2) 13/10(2)", "B:3,B:3,13:3,13:3", "bar/22 bar/22 13/10 13/10"
    ) == ("B-22,B-22,13-10,13-10")
    with pytest.raises(IllegalMoveError, match="13-10: you must bring your 2 checkers in from the bar first"):
        state.parse_move("13-10,22,22,13-10")
    with pytest.raises(IllegalMoveError, match="bar/22/19: 22-19: you must bring your checker in from the bar first"):
        state.parse_move("bar/22/19")  # the other one is still on the bar
    with pytest.raises(IllegalMoveError, match="22,22: you must use all four dice: B-22,B-22 then "):
        state.parse_move("22,22")


def test_bear_offs_with_doubles_in_every_notation() -> None:
    state = position({12: 15}, {5: 2, 4: 3, 1: 10}, (6, 6))
    assert same_play(state, "5,5,4,4", "2x5,2x4", "5/off(2) 4/off(2)", "2x5-H,4-H,4-H", "5:6,5:6,4:6,4:6") == (
        "5-H,5-H,4-H,4-H"
    )
    with pytest.raises(IllegalMoveError, match="you must use all four dice: 5-H,5-H,4-H then 4-H is possible"):
        state.parse_move("5-H,5-H,4-H")


def test_x_writes_absolute_points_too() -> None:
    state = position(START_X, START_O, (6, 4), mover="X")
    assert same_play(state, "1-7,1-5", "1/7 1/5", "1:6,1:4") == "1-7,1-5"


def test_a_compound_move_through_a_hit_or_not_is_ambiguous() -> None:
    state = position({1: 1, 12: 14}, {13: 15}, (6, 3), mover="X")
    state.points[1] = [0] * 26
    state.points[1][4] = 1  # O blot on 4: 1-4 hits, 1-7 does not
    state.points[1][13] = 14
    state._plays = None
    with pytest.raises(AmbiguousMoveError) as caught:
        state.parse_move("1-10")
    assert "1-4*,4-10" in str(caught.value) and "1-7,7-10" in str(caught.value)
    assert str(state.parse_move("1-4*,4-10")) == "1-4*,4-10"
    assert str(state.parse_move("1-7,7-10")) == "1-7,7-10"


def test_a_move_from_an_empty_point_or_bar_names_the_missing_checker_not_the_dice() -> None:
    state = position(START_X, START_O, (3, 1))
    for text, reason in {
        "3-1": "3-1: you have no checker on point 3",
        "B-20": "B-20: you have no checker on the bar",
        "bar/22": "bar/22: you have no checker on the bar",
        "3/1": "3/1: you have no checker on point 3",
    }.items():
        with pytest.raises(IllegalMoveError) as caught:
            state.parse_move(text)
        assert str(caught.value) == reason


def test_refusals_say_why() -> None:
    state = position(START_X, START_O, (6, 5))
    cases = {
        "24-18": "you must use both dice: 24-18 then 18-13 is possible",
        "13-8,13-9": "13-9: that is a move of 4, and no die or sum of the dice you have left (6) makes 4",
        "13-7,13-7": "13-7: that is a move of 6, and no die or sum of the dice you have left (5) makes 6",
        "13-1": "that is a move of 12, and no die or sum of the dice you have left (6-5) makes 12",
        "5-H,6-H": "5-H: you have no checker on point 5",
        "3-1": "3-1: you have no checker on point 3",
        "3:2": "3:2: you have no checker on point 3",
        "2x3-1": "3-1: you have no checker on point 3",
        "13-8,3-1": "3-1: you have no checker on point 3",
        "6-H,8-3": "6-H: you can bear off only when all 15 of your checkers are in your home board",
        "13-19,8-3": "13-19: that is the wrong direction for your checkers",
        "24-18,13-B": "13-B: a checker goes to the bar only when the opponent hits it",
        "H-20": "no checker can move from home",
        "22": "a lone point means entering from the bar or bearing off",
        "13:4,8:3": "13:4: there is no 4 left to play (dice 6-5)",
        "roll": "your dice are already rolled (6-5): play them",
        "double": "you can double only before rolling, in manual mode: send manual to turn it on",
        "no move": "you can play 6-5",
    }
    for text, reason in cases.items():
        with pytest.raises(IllegalMoveError) as caught:
            state.parse_move(text)
        assert reason in str(caught.value), (text, str(caught.value))
        assert str(caught.value).startswith(text)


def test_not_notation_at_all() -> None:
    state = position(START_X, START_O, (6, 5))
    before = state.to_json()
    for text, reason in {
        "hello": "hello: this is not backgammon move notation",
        "25-20": "25-20: '25' is not a point: use 1 to 24, B for the bar or H for home",
        "0-3": "'0' is not a point",
        "13-": "13-: a point is missing: write from-to, like 13-7",
        "13--10": "a point is missing",
        "bar-": "bar-: a point is missing",
        "(2)": "a point is missing",
        "2x3x13-7": "a repeat count is 2, 3 or 4 before the move, like 2x13-10",
        "5x13-10": "5x13-10: a repeat count is 2, 3 or 4",
        "13-10(5)": "13-10(5): a repeat count in brackets is 2, 3 or 4 after a move, like 13-10(2)",
        "2x13-10(2)": "give the repeat count once",
        "13:9": "13:9: after ':' comes the die to use, 1 to 6",
        "13-7,13:0": "13-7,13:0: 13:0: after ':' comes the die to use",
        "24/18 13-7;": "not backgammon move notation",
        "": "no move given",
        "1-2,3-4,5-6,7-8,9-10": "at most four steps",
    }.items():
        with pytest.raises(MoveSyntaxError) as caught:
            state.parse_move(text)
        assert reason in str(caught.value), (text, str(caught.value))
        assert "expected a list like 13-7,8-7 or 13/7 8/7, with B for the bar and H for home (off)" in str(caught.value)
    assert state.to_json() == before


def test_a_double_refused_after_rolling_says_what_stands_in_the_way() -> None:
    state = position(START_X, START_O, (6, 5))
    state.manual = [True, True]
    with pytest.raises(IllegalMoveError, match="you can double only before rolling, and your dice are already rolled"):
        state.parse_move("double")
    state.cube, state.cube_owner = 2, 1
    with pytest.raises(
        IllegalMoveError, match="bob owns the cube: you can double only when it is in the middle or yours"
    ):
        state.parse_move("double")
    state.cube, state.cube_owner = 64, 0
    with pytest.raises(IllegalMoveError, match="the cube is already at 64, its highest value"):
        state.parse_move("double")


def test_moves_out_of_turn_are_refused_but_modes_are_not() -> None:
    state = position(START_X, START_O, (6, 5))
    with pytest.raises(IllegalMoveError, match="it is not your turn"):
        state.parse_move("1-7,1-6", 1)
    assert str(state.parse_move("manual", 1)) == "manual"
    with pytest.raises(MoveSyntaxError):  # not notation at all: said before the turn check
        state.parse_move("pw manual", 1)


def test_a_bear_off_one_die_can_play_is_not_read_as_a_detour() -> None:
    """``6`` with 6-5 means 6-H with the 6, not 6-1,1-H over both dice: the 5 is then still to play."""
    state = position({12: 15}, {6: 1, 1: 3}, (6, 5), mover="O")
    with pytest.raises(IllegalMoveError) as caught:
        state.parse_move("6")
    assert str(caught.value) == "6: you must use both dice: 6-H then 1-H is possible"
    assert str(state.parse_move("6-1-H")) == "6-1,1-H"
    assert str(state.parse_move("6,1")) == "6-H,1-H"


def test_doubles_written_partly_are_refused_with_a_full_example() -> None:
    state = position(START_X, START_O, (3, 3))
    with pytest.raises(IllegalMoveError) as caught:
        state.parse_move("2x13-10")
    assert str(caught.value) == "2x13-10: you must use all four dice: 13-10,13-10 then 24-21,24-21 is possible"
