"""Backgammon rules as a player sees them: turns, dice, hits, bear-off, forced plays, modes, cube and scoring."""

from __future__ import annotations

import pytest

from rules.backgammon import GAME, BackgammonState, Double, Drop, NoMove, Play, Roll, Take, Toggle
from rules.base import IllegalMoveError, OptionError, Resign, StateFormatError

START_X = {1: 2, 12: 5, 17: 3, 19: 5}
START_O = {24: 2, 13: 5, 8: 3, 6: 5}


def position(x: dict, o: dict, dice: tuple[int, int], mover: str = "O") -> BackgammonState:
    """alice plays O, bob plays X."""
    return BackgammonState.from_points(["alice", "bob"], x, o, dice, mover)


def run_forced(state: BackgammonState) -> list[str]:
    """What the server loop does after a move: push forced moves until a player must decide."""
    played = []
    while (forced := state.forced_move()) is not None:
        played.append(state.move_text(forced))
        state.push(forced)
    return played


def play(state: BackgammonState, text: str, seat: int | None = None) -> list[str]:
    events = state.push(state.parse_move(text, seat))
    return [event.text for event in events]


# ----------------------------------------------------------------------------------------------------------------
# Setup and turns


def test_the_start_position_and_who_is_who() -> None:
    state = GAME.new(GAME.parse_options([], 2), ["alice", "bob"], 7)
    board = state.text_board()
    assert "|13  14  15  16  17  18 |   |19  20  21  22  23  24 |" in board
    assert "| O               X     |   | X                   O |" in board
    assert "| X               O     |   | O                   X |" in board
    assert "|12  11  10   9   8   7 |   | 6   5   4   3   2   1 |" in board
    o_seat = state.colour.index(1)
    assert f"O: {state.players[o_seat]} (moves 24 -> 1), pips 167, 0 off" in board
    assert "Opening roll:" in board
    assert state.to_move == o_seat and state.phase == "move"


def test_force_makes_the_first_player_o() -> None:
    for seed in range(20):
        state = GAME.new(GAME.parse_options(["-force"], 2), ["alice", "bob"], seed)
        assert state.colour == [1, 0] and state.to_move == 0


def test_backgammon_needs_two_players() -> None:
    with pytest.raises(OptionError, match="exactly 2 players"):
        GAME.parse_options([], 3)


def test_after_a_play_the_opponent_rolls_at_once() -> None:
    state = position(START_X, START_O, (3, 1))
    events = play(state, "8-5,6-5")
    assert events[0] == "alice played 8-5,6-5"
    assert events[-1].startswith("bob rolled ")
    assert state.to_move == 1 and state.phase == "move" and len(state.dice) == 2


def test_a_hit_sends_the_blot_to_the_bar_and_it_must_enter_first() -> None:
    state = position({1: 1, 12: 14}, {13: 15}, (6, 6), mover="X")
    state.points[1] = [0] * 26
    state.points[1][7] = 1
    state.points[1][13] = 14
    events = play(state, "1-7*,12-18,12-18,12-18")
    assert "bob hit alice's checker on 7" in events
    assert "Last: bob rolled 6-6 and played 1-7*,12-18,12-18,12-18" in state.text_board()
    assert state.points[1][25] == 1
    state.dice = (4, 2)
    state._plays = None
    with pytest.raises(IllegalMoveError, match="bring your checker in from the bar first"):
        state.parse_move("13-9,13-11")
    assert str(state.parse_move("B-21,13-11")) == "B-21,13-11"


def test_a_point_with_two_checkers_blocks() -> None:
    state = position(START_X, START_O, (5, 2))
    with pytest.raises(IllegalMoveError, match="point 19 is blocked"):
        state.parse_move("24-19,13-11")


def test_both_dice_must_be_used_when_possible() -> None:
    state = position(START_X, START_O, (6, 5))
    with pytest.raises(IllegalMoveError) as caught:
        state.parse_move("24-18")
    assert str(caught.value) == "24-18: you must use both dice: 24-18 then 18-13 is possible"


def test_the_larger_die_rule_refuses_the_smaller_one() -> None:
    # X on 1 can move 6 (to 7) or 5 (to 6) but after either, nothing else can move: only the 6 counts.
    o = {2: 2, 3: 2, 4: 2, 5: 2, 12: 2, 13: 2, 8: 3}
    state = position({1: 1}, o, (6, 5), mover="X")
    state.points[0][0] = 14
    state._plays = None
    assert {str(p) for p in state.plays().values()} == {"1-7"}
    assert state.forced_move() == state.plays()[next(iter(state.plays()))]
    with pytest.raises(IllegalMoveError, match=r"must be the larger one \(6\): 1-7 is possible"):
        state.parse_move("1-6")


def test_a_roll_without_any_play_is_skipped_with_a_message() -> None:
    state = position({"bar": 1, 12: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, (6, 5), mover="X")
    assert state.forced_move() == NoMove()
    events = state.push(state.forced_move())
    assert events[0].kind == "skip" and events[0].text == "bob cannot move with 6-5"
    assert state.to_move == 0


def test_a_single_possible_result_is_played_automatically() -> None:
    state = position({"bar": 2, 24: 13}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 12: 2, 13: 3}, (6, 6), mover="X")
    forced = state.forced_move()
    assert isinstance(forced, Play) and str(forced) == "B-6,B-6"


def test_bearing_off_needs_every_checker_home() -> None:
    state = position({12: 15}, {7: 1, 6: 4, 3: 10}, (6, 3), mover="O")
    with pytest.raises(IllegalMoveError, match="all 15 of your checkers are in your home board"):
        state.parse_move("6-H,3-H")
    assert str(state.parse_move("7-1,6-3")) == "7-1,6-3"


def test_a_larger_die_bears_off_the_farthest_checker_only() -> None:
    state = position({12: 15}, {4: 2, 2: 13}, (6, 5), mover="O")
    assert str(state.parse_move("4-H,4-H")) == "4-H,4-H"
    with pytest.raises(IllegalMoveError, match="only when no checker of yours is farther from home"):
        state.parse_move("2-H,4-H")


# ----------------------------------------------------------------------------------------------------------------
# Scoring


def finish(x: dict, o: dict) -> BackgammonState:
    state = position(x, o, (2, 1), mover="O")
    state.push(state.parse_move("2-H,1-H"))
    return state


def test_single_game_gammon_and_backgammon_scores() -> None:
    single = finish({24: 14}, {2: 1, 1: 1})
    assert single.outcome().points == 1
    assert single.outcome().reason == "alice bore off all 15 checkers: single game (1 point)"
    gammon = finish({24: 15}, {2: 1, 1: 1})
    assert gammon.outcome().points == 2 and "gammon (2 points)" in gammon.outcome().reason
    backgammon = finish({5: 1, 24: 13}, {2: 1, 1: 1})
    assert backgammon.outcome().points == 3
    assert "backgammon (3 points)" in backgammon.outcome().reason


def test_a_backgammon_counts_even_when_the_loser_bore_some_off_as_pbmserv_did() -> None:
    state = finish({"bar": 1, 24: 4}, {2: 1, 1: 1})
    assert state.outcome().points == 3


def test_the_cube_multiplies_the_result() -> None:
    state = position({24: 15}, {2: 1, 1: 1}, (2, 1), mover="O")
    state.cube, state.cube_owner = 4, 0
    state.push(state.parse_move("2-H,1-H"))
    assert state.outcome().points == 8
    assert state.outcome().reason == "alice bore off all 15 checkers: gammon, cube 4 (8 points)"


# ----------------------------------------------------------------------------------------------------------------
# Manual mode, doubling, greedy


def manual_game() -> BackgammonState:
    state = position(START_X, START_O, (3, 1))
    play(state, "manual", 1)
    return state


def test_manual_mode_waits_for_roll_or_double() -> None:
    state = manual_game()
    play(state, "8-5,6-5")
    assert state.to_move == 1 and state.phase == "decide" and state.dice == ()
    assert state.forced_move() is None
    assert set(state.legal_moves) == {Roll(), Double(), Toggle(1, "greedy"), Toggle(1, "manual")}
    with pytest.raises(IllegalMoveError, match="send roll"):
        state.parse_move("1-4")
    events = play(state, "roll")
    assert events[0].startswith("bob rolled ")
    assert state.phase == "move"


def test_turning_manual_off_while_waiting_rolls_at_once() -> None:
    state = manual_game()
    play(state, "8-5,6-5")
    events = play(state, "manual", 1)
    assert events[0] == "bob turned manual mode off"
    assert events[1].startswith("bob rolled ")


def test_a_taken_double_doubles_the_cube_and_the_doubler_moves() -> None:
    state = manual_game()
    play(state, "8-5,6-5")
    events = play(state, "double")
    assert events == ["bob doubles to 2: alice, take or drop"]
    assert state.to_move == 0
    with pytest.raises(IllegalMoveError, match="bob has doubled to 2"):
        state.parse_move("13-10")
    assert set(state.legal_moves) == {Take(), Drop(), Toggle(0, "greedy"), Toggle(0, "manual")}
    assert [state.move_text(move) for move in state.legal_moves][:2] == ["take", "drop"]
    assert state.parse_move("roll") == state.parse_move("take") == Take()  # pbmserv took by rolling
    assert state.move_text(Take()) == "take"
    events = play(state, "take")
    assert events[0] == "alice took the double: the cube is at 2, owned by alice"
    assert events[1].startswith("bob rolled ")
    assert state.cube == 2 and state.cube_owner == 0 and state.to_move == 1
    assert "Cube: 2 (owned by alice)" in state.text_board()


def test_a_refused_double_loses_the_value_before_the_double() -> None:
    state = manual_game()
    state.cube, state.cube_owner = 2, 1
    play(state, "8-5,6-5")
    play(state, "double")
    drop = state.parse_move("drop")
    assert drop == Drop() and not isinstance(drop, Resign) and drop in state.legal_moves
    assert state.move_text(drop) == "drop"
    events = state.push(drop)
    assert [(event.kind, event.text, event.player) for event in events] == [
        ("drop", "alice refused the double: bob wins 2 points", 0)
    ]
    outcome = state.outcome()
    assert outcome.winners == (1,) and outcome.points == 2
    assert outcome.reason == "alice refused the double: bob wins 2 points"
    assert "resigned" not in state.text_board()


def test_a_drop_logged_as_a_resignation_still_replays_to_the_same_result() -> None:
    """Logs written before drop was a move of its own hold ``resign`` where the player dropped."""
    dropped, old_log = manual_game(), manual_game()
    for state in (dropped, old_log):
        play(state, "8-5,6-5")
        play(state, "double")
    dropped.push(dropped.parse_move("drop"))
    old_log.resign(0)
    assert old_log.outcome() == dropped.outcome()


def test_drop_without_a_double_is_refused() -> None:
    state = manual_game()
    play(state, "8-5,6-5")
    with pytest.raises(IllegalMoveError, match="no double has been offered"):
        state.parse_move("drop")


def test_a_plain_resignation_scores_the_cube() -> None:
    state = position(START_X, START_O, (3, 1))
    state.cube = 4
    state.push(Resign(0))
    assert state.outcome().points == 4 and state.outcome().reason == "alice resigned: bob wins 4 points"


def test_no_double_without_the_cube() -> None:
    state = manual_game()
    state.cube, state.cube_owner = 2, 0
    play(state, "8-5,6-5")
    assert state.phase == "move"  # bob does not own the cube: his dice are rolled at once


def test_modes_toggle_out_of_turn_and_are_logged() -> None:
    state = position(START_X, START_O, (3, 1))
    move = state.parse_move("Greedy", 1)
    assert move == Toggle(1, "greedy") and str(move) == "greedy"
    assert play(state, "greedy", 1) == ["bob turned greedy mode on"]
    assert state.greedy == [False, True] and state.to_move == 0
    assert "greedy mode" in state.text_board()


def test_greedy_bears_off_automatically_when_every_die_takes_a_checker_off() -> None:
    state = position({12: 15}, {6: 3, 5: 3, 2: 9}, (6, 5), mover="O")
    assert state.forced_move() is None
    play(state, "greedy", 0)
    forced = state.forced_move()
    assert str(forced) == "6-H,5-H"
    state.dice = (6, 1)
    state._plays = None
    assert state.forced_move() is None  # no checker on 1: the 1 cannot bear off


def test_the_game_over_refuses_moves() -> None:
    state = finish({24: 14}, {2: 1, 1: 1})
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.parse_move("greedy", 0)
    assert state.to_move is None and "Game over: alice bore off" in state.text_board()


# ----------------------------------------------------------------------------------------------------------------
# A scripted game with every command, and serialisation


def test_a_whole_scripted_game_uses_every_command() -> None:
    """move, greedy, manual, roll, double, take, automatic plays: the log is what the history shows."""
    state = GAME.new(GAME.parse_options(["-force"], 2), ["alice", "bob"], 11)
    log: list[str] = []
    script = {1: "manual", 3: "greedy"}
    turn = 0
    while not state.is_over and turn < 400:
        turn += 1
        seat = state.to_move
        if turn in script:
            text = script[turn]
        elif state.phase == "decide":
            text = "double" if state.cube == 1 else "roll"
        elif state.phase == "answer":
            text = "roll"
        else:
            text = str(next(iter(state.plays().values())))
        log.append(f"{state.players[seat]}: {text}")
        state.push(state.parse_move(text, seat))
        log.extend(f"(Auto) {state.move_text(m)}" for m in _auto(state))
    joined = "\n".join(log)
    assert state.is_over
    for word in ("manual", "greedy", "double", "roll"):
        assert f": {word}" in joined
    assert state.cube == 2 and state.outcome().points % 2 == 0


def _auto(state: BackgammonState) -> list:
    moves = []
    while (forced := state.forced_move()) is not None:
        moves.append(forced)
        state.push(forced)
    return moves


def test_json_round_trip_and_damaged_states() -> None:
    state = manual_game()
    play(state, "8-5,6-5")
    data = state.to_json()
    assert GAME.load(data) == state
    assert GAME.load(data).text_board() == state.text_board()
    broken = {**data, "board": {**data["board"], "points": [[0] * 26, data["board"]["points"][1]]}}
    with pytest.raises(StateFormatError, match="adding up to 15"):
        GAME.load(broken)
    clash = [list(side) for side in data["board"]["points"]]
    clash[0][25 - 6] += 1
    clash[0][25 - 1] -= 1
    with pytest.raises(StateFormatError, match="both colours on point 6"):
        GAME.load({**data, "board": {**data["board"], "points": clash}})
    with pytest.raises(StateFormatError):
        GAME.load({**data, "board": {**data["board"], "cube": 3}})
    backwards = {"kind": "play", "colour": 0, "dice": [1, 2], "steps": [[3, 5, False]]}
    with pytest.raises(StateFormatError, match="bad step in the last play"):
        GAME.load({**data, "board": {**data["board"], "last": backwards}})


def test_the_owner_of_the_cube_may_redouble_and_the_other_player_may_not() -> None:
    state = position(START_X, START_O, (3, 1))
    state.manual = [True, True]
    play(state, "8-5,6-5")
    play(state, "double")  # bob doubles from the middle
    play(state, "roll")  # alice takes: she owns the cube at 2, bob's dice are rolled
    assert state.cube == 2 and state.cube_owner == 0 and state.phase == "move" and state.to_move == 1
    play(state, str(next(iter(state.plays().values()))))
    assert state.phase == "decide" and state.to_move == 0  # alice owns the cube: she may double before rolling
    events = play(state, "double")
    assert events == ["alice doubles to 4: bob, take or drop"]
    play(state, "take")
    assert state.cube == 4 and state.cube_owner == 1
    assert "Cube: 4 (owned by bob)" in state.text_board()


def test_the_cube_stops_at_64() -> None:
    state = manual_game()
    state.cube, state.cube_owner = 64, 1
    play(state, "8-5,6-5")
    assert state.phase == "move" and state.to_move == 1  # no double possible: bob's dice are rolled at once


def test_resigning_instead_of_rolling_in_manual_mode_scores_the_cube() -> None:
    state = manual_game()
    state.cube, state.cube_owner = 2, 1
    play(state, "8-5,6-5")
    assert state.phase == "decide" and state.to_move == 1
    state.resign(1)
    outcome = state.outcome()
    assert outcome.winners == (0,) and outcome.points == 2
    assert outcome.reason == "bob resigned: alice wins 2 points"


def test_the_doubler_resigning_while_the_double_is_open_waits_for_the_answer() -> None:
    """As with every pbmserv game, resigning out of turn takes effect when the turn comes: after the take, at the
    new cube value."""
    state = manual_game()
    play(state, "8-5,6-5")
    play(state, "double")
    events = state.resign(1)
    assert [event.text for event in events] == ["bob will resign when their turn comes"]
    assert state.outcome() is None and state.to_move == 0
    play(state, "take")
    assert run_forced(state) == ["resign"]
    assert state.outcome().points == 2 and state.outcome().reason == "bob resigned: alice wins 2 points"


def test_greedy_waits_when_a_die_cannot_bear_a_checker_off() -> None:
    state = position({12: 15}, {6: 3, 5: 3, 2: 9}, (6, 6), mover="O")
    play(state, "greedy", 0)
    forced = state.forced_move()
    assert str(forced) == "6-H,6-H,6-H,5-H"  # double 6: the farthest checkers go off one by one
    state = position({12: 15}, {6: 3, 5: 3, 2: 9}, (4, 3), mover="O")
    play(state, "greedy", 0)
    assert state.forced_move() is None  # neither 4 nor 3 can bear off: the player chooses
    state = position({12: 15}, {7: 1, 2: 14}, (6, 5), mover="O")
    play(state, "greedy", 0)
    assert state.forced_move() is None  # not every checker home
