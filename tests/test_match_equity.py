"""The match equity table (Kazaross-XG2, :mod:`ai.met`) against its source and an independent table, and the
computer's cube decisions in matches (:func:`ai.cube.match_view`) on the rule book's cases: the post-Crawford
trailer doubles at once and the leader never, double match point has no cube, a cube that cannot matter is not
turned, and a long match plays like money."""

from __future__ import annotations

import itertools

import pytest

from ai import decide
from ai.cube import MatchScore, match_view, view
from ai.met import LENGTH, POST_CRAWFORD, PRE_CRAWFORD, winning_chance
from rules.backgammon import BackgammonState
from rules.backgammon.match import Match


def test_the_table_is_whole_and_each_score_s_two_chances_add_up_to_one() -> None:
    assert len(PRE_CRAWFORD) == LENGTH and all(len(row) == LENGTH for row in PRE_CRAWFORD)
    assert len(POST_CRAWFORD) == LENGTH
    for i, j in itertools.product(range(LENGTH), repeat=2):
        assert PRE_CRAWFORD[i][j] + PRE_CRAWFORD[j][i] == pytest.approx(1.0, abs=1e-5), (i + 1, j + 1)


def test_more_points_to_go_is_never_better() -> None:
    for i, j in itertools.product(range(LENGTH), range(LENGTH - 1)):
        assert PRE_CRAWFORD[i][j] <= PRE_CRAWFORD[i][j + 1] + 1e-9  # the opponent further away: better for me
        assert PRE_CRAWFORD[j + 1][i] <= PRE_CRAWFORD[j][i] + 1e-9  # me further away: worse
    assert all(a >= b for a, b in itertools.pairwise(POST_CRAWFORD))


def test_the_transcription_matches_the_source_file() -> None:
    assert PRE_CRAWFORD[0][1] == 0.67736 and PRE_CRAWFORD[1][0] == 0.32264
    assert PRE_CRAWFORD[2][4] == 0.64795 and PRE_CRAWFORD[4][2] == 0.35205
    assert PRE_CRAWFORD[0][24] == 0.99905 and PRE_CRAWFORD[24][24] == 0.5
    assert POST_CRAWFORD[:4] == (0.5, 0.48803, 0.32264, 0.31002)  # the free drop: 2-away post-Crawford 48.8%
    assert POST_CRAWFORD[24] == 0.00123


def test_the_table_agrees_with_gnubg_s_own_rollout_table() -> None:
    """gnubg-nn carries GNU Backgammon's older rollout table ("gnur"): every score of a 15-point match within
    0.6% of Kazaross-XG2, which also shows the table is read the right way round (mine, theirs)."""
    gnubg_nn = pytest.importorskip("gnubg_nn")
    gnubg_nn.set.equities("gnur")
    for mine, theirs in itertools.product(range(1, 16), repeat=2):
        theirs_table = (1 + gnubg_nn.equities.value(mine, theirs)) / 2
        assert winning_chance(mine, theirs) == pytest.approx(theirs_table, abs=0.006), (mine, theirs)


def test_the_three_phases_of_the_crawford_rule_read_the_right_table() -> None:
    assert winning_chance(0, 3) == 1.0 and winning_chance(3, 0) == 0.0
    assert winning_chance(1, 1) == 0.5
    assert winning_chance(1, 2) == 0.67736  # the Crawford game
    assert winning_chance(2, 1, crawford_done=True) == 0.48803  # post-Crawford
    assert winning_chance(1, 2, crawford_done=True) == pytest.approx(1 - 0.48803)
    assert winning_chance(30, 30) == 0.5  # beyond the table: its last row and column


# ---- cube decisions in matches --------------------------------------------------------------------------------

EVEN = (0.5, 0.13, 0.005, 0.13, 0.005)  # about the opening position's chances


def test_the_post_crawford_trailer_doubles_at_once_and_the_leader_takes() -> None:
    trailer = match_view(EVEN, MatchScore(2, 1, crawford_done=True), 1)
    assert trailer.should_double and trailer.should_take


def test_the_post_crawford_leader_never_doubles() -> None:
    strong = (0.85, 0.3, 0.01, 0.02, 0.0)
    assert not match_view(strong, MatchScore(1, 4, crawford_done=True), 1).should_double


def test_at_double_match_point_the_cube_is_worth_nothing_and_every_double_is_taken() -> None:
    cube = match_view((0.9, 0.4, 0.1, 0.0, 0.0), MatchScore(1, 1, crawford_done=True), 1)
    assert cube.no_double == pytest.approx(cube.double_take) and not cube.should_double and cube.should_take


def test_a_cube_that_cannot_matter_is_not_turned() -> None:
    """Two away with the cube at 2 on my side: winning wins the match already, doubling only risks more."""
    assert not match_view((0.7, 0.2, 0.0, 0.1, 0.0), MatchScore(2, 5), 2, owner="me").should_double


@pytest.mark.parametrize("win", [0.55, 0.65, 0.7, 0.75, 0.8, 0.85])
def test_far_from_the_end_a_match_is_played_like_money(win: float) -> None:
    probs = (win, 0.1 * win, 0.0, 0.1 * (1 - win), 0.0)
    money, match = view(probs), match_view(probs, MatchScore(25, 25), 1)
    assert (money.should_double, money.should_take) == (match.should_double, match.should_take)


def test_the_computer_doubles_post_crawford_and_never_in_the_crawford_game() -> None:
    state = BackgammonState.from_points(
        ["bob", "alice"], {1: 2, 12: 5, 17: 3, 19: 5}, {24: 2, 13: 5, 8: 3, 6: 5}, (3, 1)
    )
    state.match = Match(5, (4, 3), 6, post_crawford=True)
    state.manual = [True, True]
    state.phase, state.dice, state.turn = "decide", (), state.seat_of_colour(0)
    assert decide(state, 2, seed=1).text == "double"  # alice, two away against one: double at once
    state.match = Match(5, (4, 3), 5, crawford=True)
    assert not state.may_double(state.turn)
