"""Each player's rating (or ``unrated``) after their name in the board picture's header
(``render.board_png(state, clock, ratings)``), for all four games: only the header changes, every rating stands in
its own seat's text, and long names, ratings and clock notes together still fit (wrapped or shortened as the headers
already do, never cut or drawn over each other)."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

import render
from render import backgammon, dragons, drogo, druid
from render.scene import Text
from rules.base import GameState
from tests.test_render_clock import (
    LONG,
    MID,
    assert_header_clear,
    header_bottom,
    long_clock,
    played,
    shared_seats,
)


def sample_ratings(state: GameState) -> dict[int, str]:
    return {seat: ("1532", "1000?", "2187", "unrated")[seat] for seat in range(len(state.players))}


def drawing(state: GameState, clock: dict[int, str] | None, ratings: dict[int, str] | None) -> Image.Image:
    name = state.game.name
    if name == "druid":
        return druid.render_image(state, clock, ratings)
    if name == "dragons":
        return dragons.render_image(state, clock=clock, ratings=ratings)
    return {"backgammon": backgammon, "drogo": drogo}[name].render_image(state, clock, ratings)


@pytest.mark.parametrize("key", MID)
def test_ratings_change_the_header_and_nothing_else(key: str) -> None:
    state = played(key)
    plain, rated = drawing(state, None, None), drawing(state, None, sample_ratings(state))
    assert rated.size == plain.size
    box = ImageChops.difference(plain, rated).getbbox()
    assert box is not None, "no rating drawn"
    assert box[3] <= header_bottom(state, plain.width), box
    assert render.board_png(state, None, {}) == render.board_png(state)


@pytest.mark.parametrize("key", MID)
def test_each_rating_follows_its_players_name(key: str) -> None:
    state = played(key)
    ratings = sample_ratings(state)
    seats = shared_seats(state, None, ratings)
    labels = [" ".join(t.text for t in seats[seat].items if isinstance(t, Text)) for seat in range(len(seats))]
    for seat, player in enumerate(state.players):
        assert f"{player} ({ratings[seat]})" in labels[seat], (seat, labels[seat])


@pytest.mark.parametrize(
    ("key", "words"),
    [
        ("backgammon-mid", None),
        ("dragons-mid", None),
        ("drogo-4p", None),
        ("drogo-4p", ("-size=3",)),
        ("druid-hex3", None),
        ("druid-walk", None),
    ],
)
def test_the_shared_header_keeps_long_names_ratings_and_notes_whole_and_apart(
    key: str, words: tuple[str, ...] | None
) -> None:
    state = played(key, LONG, words)
    clock, ratings = long_clock(state), sample_ratings(state)
    assert_header_clear(state, clock, ratings)
    for seat, group in shared_seats(state, clock, ratings).items():
        row = " ".join(t.text for t in group.items if isinstance(t, Text))
        assert f"{state.players[seat]} ({ratings[seat]})" in row, row
