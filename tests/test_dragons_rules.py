"""Dragons rules as a player meets them: placements, refusals, auto moves, gap moves, loops, endings, options.

Positions are reached by legal play only; the move lists were found by seeded random self-play and are replayed
here through ``parse_move`` exactly as a player would type them.
"""

from __future__ import annotations

import json

import pytest

from rules import registry
from rules.base import IllegalMoveError, MoveSyntaxError, OptionError
from rules.dragons import DragonsState, Place
from rules.dragons.graph import RegionGraph
from rules.dragons.state import tantrix_score

GAME = registry.get("dragons")


def new(*words: str) -> DragonsState:
    state = GAME.new(GAME.parse_options(list(words), 2), ["al", "bo"], 7)
    assert isinstance(state, DragonsState)
    return state


def play(moves: list[str], *words: str) -> tuple[DragonsState, list]:
    state = new(*words)
    events: list = []
    for text in moves:
        events = state.push(state.parse_move(text))
    return state, events


def texts(events: list) -> list[str]:
    return [event.text for event in events]


# ---- options ---------------------------------------------------------------------------------------------------


def test_defaults_fifty_tiles_forty_with_tantrix() -> None:
    assert GAME.parse_options([], 2)["num_tiles"] == 50
    assert GAME.parse_options(["-tantrix"], 2)["num_tiles"] == 40
    assert GAME.parse_options(["-tantrix", "-num_tiles=12"], 2)["num_tiles"] == 12
    assert new("-num_tiles=9").remaining == 9


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["-start_joint", "-start_tip"], "-start_joint and -start_tip cannot be used together"),
        (["-cross", "-tails"], "-cross and -tails cannot be used together"),
        (["-must_complete", "-may_complete"], "-must_complete and -may_complete cannot be used together"),
        (["-tie_none", "-tie_largest_wins"], "both set what happens when the tiles run out"),
        (["-tie_largest_wins", "-tie_largest_loses"], "both set what happens when the tiles run out"),
        (["-all_out_most_eyes", "-tie_none"], "-all_out_most_eyes already decides the end"),
        (["-tantrix", "-tie_largest_loses"], "-tantrix already decides the end"),
        (["-end_first", "-end_single"], "both set how the game is won"),
        (["-end_most", "-tantrix"], "both set how the game is won"),
        (["-long_loop", "-loop_closed"], "both set how the game is won"),
        (["-long_loop", "-tails"], "-long_loop needs the crossed tiles"),
        (["-loop_closed", "-tails"], "-loop_closed needs the crossed tiles"),
        (["-tantrix", "-num_eyes=2"], "-num_eyes cannot be used with -tantrix"),
        (["-num_tiles=2"], "out of range"),
    ],
)
def test_conflicting_options_are_refused_at_the_challenge(words: list[str], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        GAME.parse_options(words, 2)


def test_two_players_only() -> None:
    with pytest.raises(OptionError, match="exactly 2"):
        GAME.parse_options([], 3)


def test_help_and_notation_fit_their_limits() -> None:
    assert len(GAME.help) <= 1800
    assert len(GAME.notation) <= 600
    assert "d3" in GAME.notation


# ---- start and placements --------------------------------------------------------------------------------------


def test_o_places_any_tile_in_the_centre_first() -> None:
    state = new()
    assert state.to_move == 0
    assert state.positions() == [(0, 0)]
    assert len(state.legal_moves) == 8
    with pytest.raises(IllegalMoveError, match="the first tile goes in the centre"):
        state.parse_move("a@1,0")
    state.push(state.parse_move("d1"))
    assert state.tiles == {(0, 0): 3}
    assert state.to_move == 1
    assert state.remaining == 49


@pytest.mark.parametrize(("word", "letter"), [("-start_joint", 0), ("-start_tip", 6)])
def test_start_options_put_a_tile_in_the_centre(word: str, letter: int) -> None:
    state = new(word)
    assert state.tiles == {(0, 0): letter}
    assert state.remaining == 49
    assert state.to_move == 0
    assert len(state.positions()) == 6


def test_numbers_follow_screen_order_and_the_move_log_keeps_the_absolute_form() -> None:
    state, _ = play(["g1"])
    assert state.positions() == [(0, -1), (-1, 0), (1, -1), (-1, 1), (1, 0), (0, 1)]
    move = state.parse_move("d6")
    assert move == Place("d", 0, 1)
    assert str(move) == "d@0,1"
    assert state.parse_move(str(move)) == move


def test_every_legal_move_round_trips_through_its_text() -> None:
    state, _ = play(["g@0,0", "d@0,1", "c@1,-1"])
    moves = list(state.legal_moves)
    assert moves
    for move in moves:
        assert state.parse_move(str(move)) == move
        assert move in state.legal_moves


@pytest.mark.parametrize(
    ("text", "error", "reason"),
    [
        ("z3", MoveSyntaxError, "unknown tile letter 'z'"),
        ("3d", MoveSyntaxError, "write a tile letter and a position number"),
        ("d99", IllegalMoveError, "there is no position 99: the open positions are 1 to 6"),
        ("d@3,3", IllegalMoveError, "3,3 is not adjacent to any tile"),
        ("d@0,0", IllegalMoveError, "0,0 already holds a tile"),
        ("a6", IllegalMoveError, "edges do not match: a's N edge is O but it meets X there"),
    ],
)
def test_refusals_say_why(text: str, error: type, reason: str) -> None:
    state, _ = play(["g1"])
    with pytest.raises(error, match=reason):
        state.parse_move(text)


def test_aliases_i_to_l_name_the_tails() -> None:
    state, _ = play(["g1"])
    assert state.parse_move("j6") == Place("h", 0, 1)
    assert state.parse_move("l1") == Place("h", 0, -1)
    with pytest.raises(IllegalMoveError, match="g's S edge is X"):
        state.parse_move("k1")
    with pytest.raises(IllegalMoveError, match="g's S edge is X"):
        state.parse_move("i1")


def test_moving_out_of_turn_is_refused() -> None:
    state, _ = play(["g1"])
    with pytest.raises(IllegalMoveError, match="not your turn"):
        state.parse_move("d6", player=0)


# ---- auto moves and gap moves ----------------------------------------------------------------------------------


def test_help_file_example_move_a_triggers_auto_move_b() -> None:
    """The help's diagram: tail g with shoulder d below; shoulder c to the NE of the tail fills the SE gap."""
    state, events = play(["g@0,0", "d@0,1"])
    assert state.remaining == 48
    events = state.push(state.parse_move("c@1,-1"))
    assert texts(events) == ["O (al) placed c@1,-1", "Auto move 1: a@1,0"]
    assert [event.kind for event in events] == ["place", "auto"]
    assert state.tiles[(1, 0)] == 0
    assert state.last == {"seat": 0, "cell": (1, -1), "placement": 2, "autos": [((1, 0), 0)]}
    assert state.remaining == 46
    assert state.to_move == 1


def test_rules_figure_two_a_chain_of_two_auto_moves() -> None:
    """The second auto move fills a gap that only the first auto move closed."""
    state, events = play(["e@0,0", "c@1,-1", "d@2,-2", "a@2,-3"])
    assert texts(events) == ["X (bo) placed a@2,-3", "Auto move 1: f@1,-2", "Auto move 2: a@0,-1"]
    assert state.last is not None
    assert state.last["autos"] == [((1, -2), 5), ((0, -1), 0)]
    assert state.remaining == 50 - 6


def test_an_alternating_three_sided_gap_is_owed_not_filled() -> None:
    """The help's gap diagram: shoulders e, b and c around a gap whose sides alternate: only tail g fits."""
    state, events = play(["e@0,0", "b@0,1", "c@1,-1"])
    assert texts(events) == ["O (al) placed c@1,-1", "X (bo) owes a gap move at 1,0"]
    assert (1, 0) not in state.tiles
    assert state.positions() == [(1, 0)]
    with pytest.raises(IllegalMoveError, match="a gap move is owed at 1: fill a gap before playing elsewhere"):
        state.parse_move("a@-1,0")
    with pytest.raises(IllegalMoveError, match="no position 2: a gap move is owed, and only the gaps are numbered"):
        state.parse_move("g2")
    with pytest.raises(IllegalMoveError, match=r"edges do not match.*tiles that fit: g"):
        state.parse_move("a1")
    forced = state.forced_move()
    assert forced == Place("g", 1, 0)
    state.push(forced)
    assert state.gaps == set()
    assert state.to_move == 0


def test_may_complete_lets_a_gap_wait() -> None:
    state, _ = play(["g@0,0", "e@0,-1", "g@-1,-1"], "-may_complete")
    assert state.gaps
    (gap,) = state.gaps
    assert gap in state.positions()
    assert len(state.positions()) > 1
    assert state.forced_move() is None
    elsewhere = next(move for move in state.legal_moves if move.cell != gap)
    state.push(elsewhere)
    assert gap in state.gaps


def test_may_complete_never_lets_a_gap_get_a_fourth_side() -> None:
    state, _ = play(["c@0,0", "a@1,0", "h@1,1", "h@-1,0"], "-may_complete")
    assert state.gaps == {(0, 1)}
    with pytest.raises(IllegalMoveError, match="with its auto moves, would close a fourth side of the gap at 0,1"):
        state.parse_move("d@-2,1")
    assert Place("d", -2, 1) not in state.legal_moves


# ---- loops and winning -----------------------------------------------------------------------------------------


def test_a_loop_of_three_tiles_does_not_win() -> None:
    state, _ = play(["a@0,0", "c@1,0", "d@0,1"])
    assert [(colour, len(loop), won) for colour, loop, won in state.loops] == [(1, 3, False)]
    assert not state.is_over


def test_a_loop_of_four_tiles_does_not_win() -> None:
    state, events = play(["b@0,0", "c@0,1", "e@-1,2"])
    assert texts(events) == ["O (al) placed e@-1,2", "Auto move 1: f@-1,1"]
    assert sorted(len(loop) for _, loop, _ in state.loops) == [4]
    assert not state.is_over


def test_a_loop_of_six_tiles_wins_even_for_the_player_who_did_not_move() -> None:
    state, events = play(["g@0,0", "h@0,1", "h@-1,0", "a@1,-1"])
    assert events[-1].kind == "win"
    assert events[-1].text == "O (al) wins with a loop through 6 tiles"
    assert state.outcome().winners == (0,)
    ((colour, loop, _),) = [entry for entry in state.loops if entry[2]]
    assert colour == 0
    assert len(set(loop)) == 6
    assert state.to_move is None
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.parse_move("a1")


def test_the_win_test_waits_for_the_auto_moves() -> None:
    """The winning loop of the last test runs through the two tiles the auto moves laid."""
    state, _ = play(["g@0,0", "h@0,1", "h@-1,0", "a@1,-1"])
    (loop,) = [loop for _, loop, won in state.loops if won]
    assert {(0, -1), (1, 0)} <= set(loop)


def test_both_players_loop_in_one_move_equal_lengths_draw() -> None:
    state, events = play(["e@0,0", "h@1,-1", "c@2,-1", "g@1,0", "h@3,-1", "a@1,-2", "g@2,-2"])
    assert events[-1].kind == "draw"
    assert events[-1].text == "draw: both have loops through 6 tiles each"
    assert sorted(colour for colour, _, won in state.loops if won) == [0, 1]
    assert state.outcome().draw


def test_both_players_loop_in_one_move_the_longer_loop_wins() -> None:
    state, events = play(["d@0,0", "a@-1,0", "g@0,1", "h@-1,1", "d@-1,-1", "c@0,2", "h@1,0"])
    assert events[-1].text == "X (bo) wins with a loop through 7 tiles"
    lengths = {colour: len(loop) for colour, loop, won in state.loops if won}
    assert lengths[1] == 7 and lengths[0] < 7
    assert state.outcome().winners == (1,)


def test_long_loop_wins_with_six_since_no_band_runs_straight_through_a_tile() -> None:
    _, events = play(["g@0,0", "h@0,1", "h@-1,0", "a@1,-1"], "-long_loop")
    assert events[-1].text == "O (al) wins with a loop through 6 tiles"


def test_num_eyes_two_needs_a_second_hole() -> None:
    state, _ = play(["h@0,0", "e@-1,1", "g@-1,2", "g@-2,1", "h@-2,2"], "-num_eyes=2")
    assert any(len(loop) >= 6 for _, loop, _ in state.loops)
    assert not state.is_over
    assert all(d.holes < 2 for d in RegionGraph(state.tiles, True).all_dragons())


def test_loop_closed_wins_only_with_a_closed_dragon() -> None:
    moves = ["g@0,0", "d@0,-1", "e@1,0", "c@2,0", "f@0,-2", "g@1,1", "h@0,1", "c@1,2", "a@1,3", "g@-1,2", "h@-1,-1"]
    state, _ = play(moves, "-loop_closed")
    assert not state.is_over
    events = state.push(state.parse_move("d@-2,0"))
    assert events[-1].text == "X (bo) wins with a loop through 15 tiles"
    winners = [d for d in RegionGraph(state.tiles, True).all_dragons() if d.colour == 1 and d.closed]
    assert winners


# ---- endings by option -----------------------------------------------------------------------------------------

ENDING = ["f@0,0", "h@0,-1", "c@1,0", "h@-1,1"]


@pytest.mark.parametrize(
    ("word", "reason"),
    [
        ("-end_first", "X (bo) wins with a closed dragon with 2 holes"),
        ("-end_single", "X (bo) closed a dragon and the opponent did not"),
        ("-end_most", "X (bo) closed a dragon with 2 holes, more than any enemy"),
    ],
)
def test_end_options_stop_at_a_closed_dragon(word: str, reason: str) -> None:
    state, events = play(ENDING, "-tails", word)
    assert events[-1].text == reason
    assert state.outcome().winners == (1,)


def test_without_an_end_option_a_closed_dragon_plays_on() -> None:
    state, _ = play(ENDING, "-tails")
    assert not state.is_over


def test_tiles_running_out_is_a_draw() -> None:
    state, events = play(["g@0,0", "h@1,-1", "h@0,1", "c@2,0"], "-num_tiles=5", "-tails")
    assert state.remaining == 0
    assert events[-1].kind == "draw"
    assert events[-1].text == "the tiles ran out; draw: nobody won"
    assert new("-num_tiles=5").remaining == 5


def test_no_tiles_left_is_said_so() -> None:
    state, _ = play(["g@0,0", "h@1,-1", "h@0,1", "c@2,0"], "-num_tiles=5", "-tails")
    with pytest.raises(IllegalMoveError, match="no tiles left"):
        state.parse_move("a1")


def test_an_auto_chain_stops_when_the_pool_empties() -> None:
    state, events = play(["e@0,0", "c@1,-1", "d@2,-2", "a@2,-3"], "-num_tiles=5")
    assert texts(events)[:2] == ["X (bo) placed a@2,-3", "Auto move 1: f@1,-2"]
    assert state.remaining == 0
    assert (0, -1) not in state.tiles
    assert state.outcome().draw


TIEBREAK = ["g@0,0", "h@1,-1", "h@0,1", "c@2,0", "a@2,1", "e@-1,2"]


@pytest.mark.parametrize(
    ("word", "winner", "reason"),
    [
        ("-tie_largest_wins", 1, "X (bo) wins with the largest closed dragon, of 6 segments"),
        ("-tie_largest_loses", 0, "O (al) wins: X (bo) has the largest closed dragon, of 6 segments"),
        ("-all_out_most_eyes", 1, "X (bo) wins with a closed dragon with 2 holes"),
        ("-tie_none", None, "draw: nobody won"),
    ],
)
def test_tiebreaks_when_the_pool_runs_out(word: str, winner: int | None, reason: str) -> None:
    state, events = play(TIEBREAK, "-tails", "-num_tiles=12", word)
    assert state.remaining == 0
    assert events[-1].text == "the tiles ran out; " + reason
    assert state.outcome().winners == (() if winner is None else (winner,))


def test_all_out_most_eyes_ignores_loops_during_play() -> None:
    state, _ = play(["g@0,0", "h@0,1", "h@-1,0", "a@1,-1"], "-all_out_most_eyes")
    assert not state.is_over


def test_tantrix_scores_holes_doubled_when_closed_after_the_pool_is_played_out() -> None:
    state, _ = play(["g@0,0", "h@0,1", "h@-1,0", "a@1,-1"], "-tantrix")
    assert not state.is_over
    state, events = play(["g@0,0", "a@-1,1", "c@0,-1", "e@1,0", "d@2,0"], "-tantrix", "-num_tiles=10")
    assert events[-1].text == "the tiles ran out; X (bo) wins with the best dragon, worth 2 points"
    outcome = state.outcome()
    assert outcome.winners == (1,)
    assert outcome.scores == (1.0, 2.0)
    dragons = RegionGraph(state.tiles, True).all_dragons()
    assert max(tantrix_score(d) for d in dragons if d.colour == 1) == 2
    assert max(tantrix_score(d) for d in dragons if d.colour == 0) == 1


# ---- text board and JSON ---------------------------------------------------------------------------------------


def test_text_board_shows_tiles_numbers_last_move_gaps_and_pool() -> None:
    state, _ = play(["e@0,0", "b@0,1", "c@1,-1"])
    board = state.text_board()
    assert board.splitlines()[:5] == ["  0  1   <- q (r grows down a column)", "    *c", "  e", "    !1", "  b"]
    assert "Tiles left: 47" in board
    assert "Last move: O (al) c@1,-1" in board
    assert "Gaps owed (only a tail fits): 1,0" in board
    assert "To move: X (bo)" in board
    assert "  g OXOXOX  tail, O on N SE SW" in board


def test_text_board_lists_auto_moves_in_order() -> None:
    state, _ = play(["e@0,0", "c@1,-1", "d@2,-2", "a@2,-3"])
    board = state.text_board()
    assert "Auto moves, in order: f@1,-2, a@0,-1" in board
    assert "+f" in board and "*a" in board


def test_json_round_trip_keeps_everything() -> None:
    state, _ = play(["e@0,0", "b@0,1", "c@1,-1"], "-num_tiles=30")
    raw = json.loads(json.dumps(state.to_json()))
    again = GAME.load(raw)
    assert again == state
    assert again.gaps == {(1, 0)}
    assert again.forced_move() == Place("g", 1, 0)
    assert again.text_board() == state.text_board()


@pytest.mark.parametrize(
    "damage",
    [
        lambda raw: raw["board"]["tiles"].append([5, 5, "a", "move"]),
        lambda raw: raw["board"]["tiles"].__setitem__(1, [0, 1, "e", "move"]),
        lambda raw: raw["board"].__setitem__("remaining", 3),
        lambda raw: raw["board"].__setitem__("turn", 4),
        lambda raw: raw["board"]["tiles"][0].__setitem__(2, "q"),
        lambda raw: raw["board"]["loops"].append([0, [[0, 0], [5, 5], [0, 1]], False]),
    ],
)
def test_damaged_json_is_refused(damage: object) -> None:
    from rules.base import StateFormatError

    state, _ = play(["e@0,0", "b@0,1", "c@1,-1"])
    raw = json.loads(json.dumps(state.to_json()))
    damage(raw)  # type: ignore[operator]
    with pytest.raises(StateFormatError):
        GAME.load(raw)


# ---- move texts ----------------------------------------------------------------------------------------------


def test_moves_are_listed_by_the_position_numbers_the_board_shows() -> None:
    state, _ = play(["a1", "c2"])
    board = state.text_board()
    texts_now = [state.move_text(move) for move in state.legal_moves]
    assert texts_now and all("@" not in text for text in texts_now)
    for move, text in zip(state.legal_moves, texts_now, strict=True):
        number = state.positions().index(move.cell) + 1
        assert text == f"{move.letter}{number}"
        assert state.parse_move(text) == move
        assert state.parse_move(str(move)) == move, "the axial form is still read"
    numbers = {int(text[1:]) for text in texts_now}
    assert numbers == set(range(1, len(state.positions()) + 1))
    for number in numbers:
        assert f" {number}" in board


def test_the_opening_tile_is_listed_as_position_one() -> None:
    state = new()
    assert [state.move_text(move) for move in state.legal_moves] == [f"{letter}1" for letter in "abcdefgh"]
