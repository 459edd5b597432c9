"""Drogo rules as a player meets them: placements, refusals and their reasons, captures, superko, passes, the
end and its scores, three and four players, and every option."""

from __future__ import annotations

import json

import pytest

from rules import registry
from rules.base import IllegalMoveError, MoveSyntaxError, OptionError, StateFormatError
from rules.drogo import GAME, DrogoState, Pass, Place, move_cap, random_move
from rules.rng import Rng, output_at

TWO = ["ann", "bob"]
THREE = ["ann", "bob", "cy"]
FOUR = ["ann", "bob", "cy", "di"]


def options(*words: str, players: int = 2) -> dict:
    return GAME.parse_options(list(words), players)


def new(*words: str, players: list[str] = TWO) -> DrogoState:
    return GAME.new(options(*words, players=len(players)), players, seed=1)


def setup(rows: list[str], *words: str, turn: int = 0, players: list[str] = TWO) -> DrogoState:
    return DrogoState.from_rows(options(*words, players=len(players)), players, rows, turn=turn)


def play(state: DrogoState, *moves: str) -> list:
    events = []
    for text in moves:
        events.extend(state.push(state.parse_move(text)))
    return events


def refused(state: DrogoState, text: str) -> str:
    with pytest.raises(IllegalMoveError) as info:
        state.parse_move(text)
    return info.value.reason


#: The help file's example position (bottom-left corner of a 6x6 board): an O block of six stacks whose only
#: freedom is a4, hemmed in by X on c1..c3 and b4.
HELP_POSITION = [
    ". . . . . .",
    ". . . . . .",
    ". x . . . .",
    "o o x . . .",
    "o o x . . .",
    "o o x . . .",
]


# ---- the help file's examples --------------------------------------------------------------------------------


def test_help_example_capture_at_a():
    """An X piece at 'a' (a4) takes the whole O group, which had no other freedom."""
    state = setup(HELP_POSITION)
    events = play(state, "a4")
    captures = [e for e in events if e.kind == "capture"]
    assert len(captures) == 1
    assert captures[0].data["cells"] == ["a1", "b1", "a2", "b2", "a3", "b3"]
    assert "captures 6 stacks of bob (o)" in captures[0].text
    assert state.scores() == (5, 0)
    assert all(state.owner(col, row) is None for col in range(2) for row in range(3))


def test_captured_by_counts_the_pieces_a_placement_would_take():
    """Asked before the move, the rules say how many pieces it takes, and the answer leaves the board alone."""
    state = setup(HELP_POSITION)
    assert state.captured_by(state.parse_move("a4")) == 6
    assert state.captured_by(state.parse_move("a4,a5")) == 6
    assert state.captured_by(state.parse_move("f6")) == 0
    assert state.scores() == (4, 6)
    for illegal in (((0, 0),), ((4, 4), (0, 0)), ((9, 0),)):  # on O's a1 away from X, pieces apart, off the board
        with pytest.raises(IllegalMoveError):
            state.captured_by(Place(illegal))


def test_help_example_escape_by_building_at_b():
    """O to move instead builds over X's c1 (with b1 beside it, at level 2), which joins its group and reaches the
    empty d1: X's a4 then captures nothing."""
    state = setup(HELP_POSITION, turn=1)
    assert play(state, "b1,c1") == []
    assert state.owner(2, 0) == 1 and state.height(2, 0) == 2
    events = play(state, "a4")
    assert [e for e in events if e.kind == "capture"] == []
    assert state.scores() == (4, 9)


TALL_HELP_POSITION = [
    ". . . . . .",
    ". . . . . .",
    ". xxx . . . .",
    "ooo ooo xxx . . .",
    "ooo ooo xxx . . .",
    "ooo ooo xxx . . .",
]


def test_help_examples_with_the_pictured_heights():
    """The help's drawings, with stacks three high as drawn: X's a4 takes all 18 O pieces; O to move instead
    places two pieces at level 4, on b1 and on X's c1: O now owns c1, reaches d1 and survives a4."""
    capture = setup(TALL_HELP_POSITION)
    events = play(capture, "a4")
    assert events[0].data == {"victim": 1, "cells": ["a1", "b1", "a2", "b2", "a3", "b3"], "pieces": 18}
    assert capture.scores() == (13, 0)
    escape = setup(TALL_HELP_POSITION, turn=1)
    play(escape, "b1,c1")
    assert escape.height(2, 0) == 4 and escape.owner(2, 0) == 1
    assert play(escape, "a4") == []
    assert escape.scores() == (10, 23)


def test_two_pieces_may_reach_an_enemy_top_through_each_other():
    """A piece on an enemy top is allowed when the other piece of the turn links it to a friendly group, and
    refused when neither piece touches one."""
    blocked = setup(["o . . .", ". . . .", ". . . .", ". . x x"], "-size=4", turn=1)
    for text in ("c1,c1", "d1", "c1,d1"):
        assert refused(blocked, text) == "you may build on an enemy stack only when the piece joins one of your groups"
    linked = setup([". . . .", ". . . .", ". . . .", "x o o ."], "-size=4")
    play(linked, "b1,c1")
    assert [linked.owner(col, 0) for col in range(3)] == [0, 0, 0]
    assert linked.scores() == (5, 0)
    apart = setup([". . . .", ". . . .", ". . . .", "x . o o"], "-size=4")
    assert refused(apart, "c1,d1") == "you may build on an enemy stack only when the piece joins one of your groups"


# ---- placement rules -----------------------------------------------------------------------------------------


def test_opening_move_places_one_piece():
    state = new()
    assert refused(state, "c3,d3") == "only one piece may be placed on the opening move"
    play(state, "c3")
    play(state, "d3,e3")
    assert state.owner(3, 2) == 1 and state.owner(4, 2) == 1


def test_pieces_land_on_top_and_stack_two_high():
    state = new()
    play(state, "c3", "d4", "c3,c3")
    assert state.height(2, 2) == 3 and state.owner(2, 2) == 0
    assert str(state.parse_move("D4,D4")) == "d4,d4"


def test_two_pieces_must_touch():
    state = new()
    play(state, "a1", "f6")
    assert "must touch" in refused(state, "c3,e3")
    assert "must touch" in refused(state, "c3,d4")


def test_two_pieces_side_by_side_share_a_level():
    state = new()
    play(state, "c3", "f6")
    reason = refused(state, "c3,d3")
    assert "same level" in reason and "c3 would be at level 2" in reason


def test_stack_full():
    state = setup(
        [
            ". . .",
            ". . .",
            "xxx xx .",
        ],
        "-size=3",
    )
    assert refused(state, "a1") == "the stack on a1 is full (3 high)"
    assert refused(state, "b1,b1") == "b1 has room for only one more piece"
    play(state, "b1")
    assert state.height(1, 0) == 3


def test_building_on_an_enemy_needs_a_friendly_group():
    state = new()
    play(state, "c3", "f6")
    assert refused(state, "f6") == "you may build on an enemy stack only when the piece joins one of your groups"
    play(state, "e6", "a1")
    assert state.parse_move("f6") == Place(((5, 5),))
    assert str(state.parse_move("f6,e6")) == "e6,f6"


def test_off_the_board_and_bad_syntax():
    state = new()
    assert refused(state, "g1") == "g1 is off the board (a1 to f6)"
    assert refused(state, "a7") == "a7 is off the board (a1 to f6)"
    for text in ("", "c", "3c", "c3,d3,e3", "c3;d3"):
        with pytest.raises(MoveSyntaxError):
            state.parse_move(text)


def test_not_your_turn_and_no_voluntary_pass():
    state = new()
    with pytest.raises(IllegalMoveError, match="not your turn"):
        state.parse_move("c3", player=1)
    assert refused(state, "pass") == "Drogo has no voluntary pass: you have a legal placement"


# ---- captures and suicide ------------------------------------------------------------------------------------


def test_capture_takes_the_capturers_own_pieces_buried_in_the_stack():
    """b1 holds an X piece under O's top: when O's group dies the whole stack goes, X's piece with it."""
    state = setup(
        [
            ". . . .",
            "x . . .",
            "o x . .",
            "o xo . .",
        ],
        "-size=4",
    )
    events = play(state, "c1")
    assert events[0].data == {"victim": 1, "cells": ["a1", "b1", "a2"], "pieces": 4}
    assert state.height(1, 0) == 0
    assert state.scores() == (3, 0)


def test_suicide_refused():
    state = setup(
        [
            ". . . .",
            ". o . .",
            "o . o .",
            ". o . .",
        ],
        "-size=4",
    )
    assert refused(state, "b2") == "your group would have no freedom (suicide)"
    assert refused(state, "b2,b2") == "your group would have no freedom (suicide)"


def test_suicide_that_captures_is_allowed():
    state = setup(
        [
            ". x o .",
            "x o . o",
            ". x o .",
            ". . . .",
        ],
        "-size=4",
    )
    events = play(state, "c3")
    assert events[0].data["cells"] == ["b3"]
    assert state.owner(2, 2) == 0


def test_building_over_an_enemy_cuts_off_another_group():
    """X's b1 goes on O's b1 stack (joining X's b2): that takes a1, O's only freedom, away from c1, which dies
    although no empty point was filled."""
    state = setup(
        [
            ". . . .",
            ". . . .",
            ". x x .",
            ". o o x",
        ],
        "-size=4",
    )
    events = play(state, "b1")
    assert events[0].data["cells"] == ["c1"]
    assert state.owner(1, 0) == 0 and state.height(1, 0) == 2


KO_ROWS = [
    ". . . . .",
    ". x o . .",
    "x o . o .",
    ". x o . .",
    ". . . . .",
]


def test_the_positions_seen_live_outside_the_snapshot_and_come_back_with_restore_memory():
    state = setup(KO_ROWS, "-size=5")
    play(state, "c3")
    assert len(state.memory()) == 2 and state.memory()[-1] == state.hash
    assert all(0 <= value < 1 << 64 for value in state.memory())
    data = json.loads(json.dumps(state.to_json()))
    assert data["version"] == 2 and "seen" not in data["board"]
    loaded = registry.load_state(data)
    assert loaded.memory() == [], "a state fresh from JSON knows no earlier position"
    loaded.restore_memory(state.memory())
    assert loaded.memory() == state.memory()
    assert refused(loaded, "b3") == "it would repeat an earlier board position (superko)"
    assert set(loaded.legal_moves) == set(state.legal_moves)
    assert Place(((1, 2),)) not in loaded.legal_moves
    play(state, "e1")
    play(loaded, "e1")
    assert loaded.memory() == state.memory() and loaded == state
    with pytest.raises(StateFormatError, match="missing"):
        registry.load_state(data).restore_memory(state.memory()[:1])


def test_position_hashes_stay_those_saved_by_earlier_versions():
    """Hashes are saved with a game (superko's memory): the keys must never change, whichever way they are
    computed. The figures are those of the keys drawn one by one from the seed, as version 1 drew them."""
    state = setup(KO_ROWS, "-size=5")
    play(state, "c3")
    assert state.memory() == [0xDD53A1DD2006FAAB, 0x8CE6C2F491352A51]
    big = GAME.new(GAME.parse_options(["-size=12"], 2), ["a", "b"], 1)
    rng = Rng(5)
    for _ in range(40):
        big.push(big.forced_move() or random_move(big, rng))
    assert big.hash == 0xBF53C0C80398306E


def test_any_output_of_the_generator_can_be_computed_directly():
    rng = Rng(0xD206_0C0B)
    assert [output_at(0xD206_0C0B, index) for index in range(300)] == [rng.next64() for _ in range(300)]
    far = Rng(7)
    for _ in range(6911):
        far.next64()
    assert output_at(7, 6911) == far.next64()


def test_a_snapshot_of_format_1_loads_with_its_positions_seen():
    state = setup(KO_ROWS, "-size=5")
    play(state, "c3")
    old = json.loads(json.dumps(state.to_json()))
    old["version"] = 1
    old["board"]["seen"] = [f"{value:016x}" for value in state.memory()]
    loaded = registry.load_state(old)
    assert loaded.memory() == state.memory()
    assert refused(loaded, "b3") == "it would repeat an earlier board position (superko)"
    assert loaded.to_json() == state.to_json(), "saved again, it is a format 2 snapshot"


def test_games_without_superko_keep_no_memory():
    state = setup(KO_ROWS, "-size=5", "-no_superko")
    play(state, "c3")
    assert state.memory() == []
    with pytest.raises(StateFormatError):
        state.restore_memory([state.hash])


def test_superko_refuses_the_recapture_and_no_superko_allows_it():
    rows = [
        ". . . . .",
        ". x o . .",
        "x o . o .",
        ". x o . .",
        ". . . . .",
    ]
    state = setup(rows, "-size=5")
    play(state, "c3")
    assert refused(state, "b3") == "it would repeat an earlier board position (superko)"
    loose = setup(rows, "-size=5", "-no_superko")
    play(loose, "c3")
    events = play(loose, "b3")
    assert events[0].data["cells"] == ["c3"]


# ---- passes, the end, scores ---------------------------------------------------------------------------------

TWO_EYES = [
    "xxxx xxxx xxxx xxxx",
    "xxxx . xxxx xxxx",
    "xxxx xxxx . xxxx",
    "xxxx xxxx xxxx xxxx",
]


def test_forced_pass():
    state = setup(TWO_EYES, "-size=4", turn=1)
    assert list(state.legal_moves) == []
    forced = state.forced_move()
    assert forced == Pass() and str(forced) == "pass"
    assert state.parse_move("pass") == Pass()
    events = state.push(forced)
    assert [e.kind for e in events] == ["pass"]
    assert events[0].text == "bob (o) has no legal placement and passes"
    assert state.to_move == 0 and not state.is_over
    assert state.forced_move() is None


def test_game_ends_when_nobody_can_place_and_height_wins():
    state = setup(["xxx xxx xxx", "xxx xxx ooo", "ooo ooo ooo"], "-size=3")
    events = state.push(state.forced_move())
    events += state.push(state.forced_move())
    assert [e.kind for e in events] == ["pass", "pass", "win"]
    outcome = state.outcome()
    assert outcome.winners == (0,) and outcome.scores == (15, 12)
    assert outcome.reason.startswith("no player can place a piece; ann wins on height")
    assert state.to_move is None


def test_equal_highest_score_is_a_draw():
    full = ["xxxx xxxx oooo oooo"] * 4
    state = setup(full, "-size=4")
    state.push(state.forced_move())
    events = state.push(state.forced_move())
    assert events[-1].kind == "draw"
    assert state.outcome().draw and state.outcome().scores == (32, 32)
    assert "ann and bob tie on 32" in state.outcome().reason


def test_move_cap_ends_a_game_without_superko_with_a_clear_message():
    """Without superko two players can always place (every group needs an empty neighbour), so a random 3x3 game
    runs into the cap of 4 x 3^3 = 108 placements, and the result says why it stopped."""
    state = new("-size=3", "-no_superko")
    rng = Rng(3)
    events = []
    while not state.is_over:
        events = state.push(state.forced_move() or random_move(state, rng))
    assert state.placements == move_cap(3) == 108
    outcome = state.outcome()
    scores = state.scores()
    assert outcome.scores == scores
    assert outcome.reason.startswith("the game has reached its limit of 108 placements for a 3x3 board; ")
    assert f"ann (x) {scores[0]}, bob (o) {scores[1]}" in outcome.reason
    assert events[-1].kind in ("win", "draw") and events[-1].text == outcome.reason
    assert "after 4 x size^3 placements (864 on 6x6), superko or not" in GAME.help
    assert move_cap(6) == 864 and move_cap(12) == 6912


# ---- three and four players ----------------------------------------------------------------------------------


def test_three_players_capture_two_enemies_at_once():
    state = setup(
        [
            "y . . .",
            "o y . .",
            ". . . .",
            "x y . .",
        ],
        "-size=4",
        turn=2,
        players=THREE,
    )
    events = play(state, "a2")
    assert [(e.kind, e.data["victim"], e.data["cells"]) for e in events] == [
        ("capture", 0, ["a1"]),
        ("capture", 1, ["a3"]),
    ]
    assert state.to_move == 0


def test_four_players_capture_three_enemies_at_once():
    state = setup(
        [
            ". . z . .",
            ". z o z .",
            "z x . y z",
            ". z z z .",
            ". . . . .",
        ],
        "-size=5",
        turn=3,
        players=FOUR,
    )
    events = play(state, "c3")
    assert [e.data["victim"] for e in events] == [0, 1, 2]
    assert state.scores() == (0, 0, 0, 9)


def test_groups_are_single_coloured_in_multiplayer():
    """O and Y stones side by side do not share freedoms: X's a3 captures only the O stone."""
    state = setup(
        [
            ". . . .",
            ". . . .",
            "o y . .",
            "x . . .",
        ],
        "-size=4",
        players=THREE,
    )
    play(state, "a3")
    assert state.owner(0, 1) is None and state.owner(1, 1) == 2


def test_resigned_player_is_skipped_and_their_stacks_stay():
    state = new(players=THREE)
    play(state, "a1", "b2", "c3")
    state.resign(2)
    assert 2 in state.queued_resign and state.to_move == 0
    play(state, "d4", "e5")
    events = state.push(state.forced_move())
    assert events[0].text == "cy resigned"
    assert state.to_move == 0 and state.owner(2, 2) == 2
    play(state, "f6", "a6")
    assert state.to_move == 0
    assert "cy 1 (resigned)" in state.text_board()


# ---- options -------------------------------------------------------------------------------------------------


def test_options_parse_and_validate():
    assert options() == {"size": 6, "single": False, "in_place": False, "easy_free": False, "no_superko": False}
    assert options("-size=8", "-single", "-in_place", "-easy_free", "-no_superko")["size"] == 8
    with pytest.raises(OptionError, match="-size=13 is out of range"):
        options("-size=13")
    with pytest.raises(OptionError, match="2 to 4 players"):
        options(players=5)
    assert registry.get("drogo") is GAME
    assert GAME.format_options(options("-size=8", "-single")) == "-size=8 -single"
    assert len(GAME.help) <= 1800 and len(GAME.notation) <= 600


def test_size_option_sets_board_and_height():
    state = new("-size=4")
    assert state.text_board().splitlines()[0] == "       a   b   c   d"
    assert refused(state, "e1") == "e1 is off the board (a1 to d4)"


def test_single_option():
    state = new("-single")
    play(state, "c3", "d4")
    assert refused(state, "c3,c3") == "this game is played with -single: one piece per turn"
    assert all(len(move.cells) == 1 for move in state.legal_moves)


def test_in_place_turns_captured_stacks_to_the_capturer():
    state = setup(HELP_POSITION, "-in_place")
    events = play(state, "a4")
    assert "ann (x) takes over 6 stacks of bob (o)" in events[0].text
    assert state.scores() == (11, 0)
    assert state.stacks[0] == [0]


def test_in_place_capture_does_not_give_freedom():
    """With -in_place the captured stacks stay, so filling the last freedom of both groups is still suicide."""
    rows = ["o o o", "o . o", "o o o"]
    assert play(setup(rows, "-size=3"), "b2")[0].data["pieces"] == 8
    assert refused(setup(rows, "-size=3", "-in_place"), "b2") == "your group would have no freedom (suicide)"


def test_easy_free_counts_lower_neighbours_as_freedom():
    rows = [
        ". . . . . .",
        ". . . . . .",
        ". x . . . .",
        "oo oo x . . .",
        "oo oo x . . .",
        "oo oo x . . .",
    ]
    default = setup(rows)
    assert play(default, "a4")[0].kind == "capture"
    easy = setup(rows, "-easy_free")
    assert play(easy, "a4") == []
    assert easy.scores() == (5, 12)


# ---- notation, legal moves, JSON -----------------------------------------------------------------------------


def test_every_legal_move_reads_back_from_its_text():
    state = setup(HELP_POSITION, turn=1)
    moves = list(state.legal_moves)
    assert len(moves) == len(set(moves)) > 36
    for move in moves:
        assert state.parse_move(str(move)) == move
        assert move in state.legal_moves
    assert Place(((2, 0), (1, 0))) in state.legal_moves
    assert Place(((0, 5), (2, 5))) not in state.legal_moves
    assert Place(((9, 9),)) not in state.legal_moves


def test_text_board_marks_last_move_and_captures():
    state = setup(HELP_POSITION)
    play(state, "a4")
    lines = state.text_board().splitlines()
    assert lines[0] == "       a   b   c   d   e   f"
    assert lines[3] == "  4   X1  x1   .   .   .   .  4"
    assert lines[6] == "  1    *   *  x1   .   .   .  1"
    assert lines[-2] == "x ann 5  o bob 0"
    assert lines[-1] == "o (bob) to move"


def test_json_round_trip_and_damage():
    state = setup(HELP_POSITION, "-in_place", turn=0)
    play(state, "a4", "f6")
    data = json.loads(json.dumps(state.to_json()))
    loaded = registry.load_state(data)
    assert loaded == state and loaded.text_board() == state.text_board()
    assert loaded.parse_move("e6") == state.parse_move("e6")
    for key, value in (("stacks", ["q"] * 36), ("turn", 7), ("size", 5), ("seen", [])):
        broken = json.loads(json.dumps(data))
        broken["board"][key] = value
        with pytest.raises(StateFormatError):
            registry.load_state(broken)


def test_a_move_is_judged_once_from_reading_to_pushing():
    """Reading a move judges it (captures, freedom, superko); pushing it uses that verdict instead of judging
    it again, and listing the legal moves first does not add a second judgement of it either."""
    state = setup(HELP_POSITION)
    judged: list[tuple] = []
    judge = state._judge

    def counting(seat, cells):
        judged.append(cells)
        return judge(seat, cells)

    state._judge = counting  # type: ignore[method-assign]
    moves = list(state.legal_moves)
    assert len(judged) >= len(moves)
    judged.clear()
    move = state.parse_move("a4")
    assert move in state.legal_moves
    events = state.push(move)
    assert judged == [], "every verdict was already known from listing the moves"
    assert events[0].kind == "capture"
    play(state, "d5")
    assert judged.count((state.size * 4 + 3,)) == 1, "a new position judges again, once"
