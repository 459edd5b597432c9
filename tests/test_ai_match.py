"""``python -m ai.match``: the score table, seats rotating, progress on standard error, bad arguments refused."""

from __future__ import annotations

import pytest

from ai import match
from rules import registry


def test_a_match_prints_each_players_score_with_its_interval(capsys: pytest.CaptureFixture[str]) -> None:
    assert match.main(["dragons", "ai:1", "random", "--games", "4", "--progress"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0] == "dragons ai:1 random: 4 games, seed 1"
    assert lines[1].lstrip().startswith("ai:1    score ")
    assert lines[2].lstrip().startswith("random  score ")
    assert "95% " in lines[1] and lines[-1].lstrip().startswith("average ")
    assert err.splitlines()[-1].startswith("  4/4 games, ")


def test_scores_follow_the_players_as_seats_rotate() -> None:
    """ai:1 sits first in game 0 and second in game 1; it wins both, and both scores are credited to it."""
    setup = match.Setup("dragons", (), ("ai:1", "random"), 1, None)
    assert [match.play_one(setup, index).shares for index in (0, 1)] == [(1.0, 0.0), (1.0, 0.0)]


def test_duplicate_plays_each_rotation_of_seats_on_one_seed(capsys: pytest.CaptureFixture[str]) -> None:
    """With --duplicate the two seatings of a pair share their seed, so Backgammon's dice repeat with the players
    swapped: the game opens with the same roll, which the other player now makes."""
    setup = match.Setup("backgammon", (), ("random", "ai:2"), 1, None, duplicate=True)
    assert [match.game_seed(setup, index) for index in range(4)] == [1_000_003, 1_000_003, 1_000_004, 1_000_004]
    game = registry.get("backgammon")
    openings = [game.new({}, ["a", "b"], match.game_seed(setup, index)).dice for index in range(4)]
    assert openings[0] == openings[1] and openings[2] == openings[3]
    assert match.main(["backgammon", "random", "random", "--games", "2", "--duplicate"]) == 0
    assert capsys.readouterr().out.startswith("backgammon random random --duplicate: 2 games, seed 1")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["druid", "ai:3"], "name at least two players"),
        (["druid", "ai:4", "ai:1"], "unknown player"),
        (["druid", "ai:3", "ai:1", "--games"], "--games needs a value"),
    ],
)
def test_bad_arguments_get_one_line(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert match.main(args) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
