"""Each player's rating (or ``unrated``) after their name in the board picture's header
(``render.board_png(state, clock, ratings)``), for all four games: only the header changes, every rating stands in
its own seat's text, and long names, ratings and clock notes together still fit (wrapped or shortened as the headers
already do, never cut or drawn over each other)."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image, ImageChops

import render
from render import backgammon, dragons, drogo, druid
from render.common import font, note_width
from rules.base import GameState
from tests.test_render_clock import LONG, MID, edges_clear, header_bottom, long_clock, played


def sample_ratings(state: GameState) -> dict[int, str]:
    return {seat: ("1532", "1000?", "2187", "unrated")[seat] for seat in range(len(state.players))}


def drawing(state: GameState, clock: dict[int, str] | None, ratings: dict[int, str] | None) -> Image.Image:
    name = state.game.name
    if name == "druid":
        return druid.render_scene(state, clock, ratings)[0]
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
    name = state.game.name
    if name == "druid":
        labels = druid.seat_lines(state, ratings)
    elif name == "backgammon":
        labels = [
            "".join(backgammon._row_parts(state, state.colour[seat], ratings)) for seat in range(len(state.players))
        ]
    else:
        module = drogo if name == "drogo" else dragons
        width = drawing(state, None, ratings).width * (dragons.SCALE if name == "dragons" else 1)
        cells = module.seat_cells(state, width, None, ratings)
        assert cells is not None
        labels = [cell.label for cell in sorted(cells, key=lambda cell: cell.seat)]
    for seat, player in enumerate(state.players):
        assert f"{player} ({ratings[seat]})" in labels[seat], (seat, labels[seat])


@pytest.mark.parametrize(("key", "words"), [("drogo-4p", ()), ("drogo-4p", ("-size=3",)), ("dragons-mid", ())])
def test_long_names_ratings_and_notes_side_by_side_never_overlap(key: str, words: tuple[str, ...]) -> None:
    state = played(key, LONG, words)
    clock, ratings = long_clock(state), sample_ratings(state)
    image = drawing(state, clock, ratings)
    if state.game.name == "drogo":
        scale, name_size, note_size = 1, drogo.SEAT_FONT, drogo.NOTE_FONT
        cells = drogo.seat_cells(state, image.width, clock, ratings)
        assert cells is not None
        top, limit, pool = drogo.header_height(state, cells), image.width - drogo.MARGIN, 0.0
    else:
        scale, name_size, note_size = dragons.SCALE, dragons.ROW_SIZE, dragons.ROW_SIZE
        cells = dragons.seat_cells(state, image.width * scale, clock, ratings)
        assert cells is not None
        top, limit = dragons.header_height(cells), image.width * scale - dragons.MARGIN
        pool = font(dragons.ROW_SIZE).getlength(f"Tiles left: {state.remaining}") + 18 * scale
    ends = []
    for cell in cells:
        assert f"({ratings[cell.seat]})" in cell.label
        ends.append(cell.x + 40 * scale + max(font(name_size).getlength(cell.label), note_width(cell.note, note_size)))
        assert ends[-1] <= limit - (pool if cell.y == cells[0].y else 0), cell
    for (first, end), second in itertools.pairwise(zip(cells, ends, strict=True)):
        assert first.y != second[0].y or end < second[0].x
    edges_clear(image, top // scale)


def test_backgammon_keeps_the_rating_whole_beside_a_long_name() -> None:
    state = played("backgammon-mid", LONG)
    clock, ratings = long_clock(state), sample_ratings(state)
    rows = backgammon.header_rows(state, clock, ratings)
    assert rows is not None
    for row in rows:
        seat = state.seat_of_colour(row.colour)
        assert row.text.endswith(backgammon._row_parts(state, row.colour, ratings)[2]) and "..." in row.text
        assert f"({ratings[seat]})" in row.text
    edges_clear(drawing(state, clock, ratings), backgammon.HEADER)


def test_druid_wraps_a_long_name_with_its_rating_and_note() -> None:
    state = played("druid-hex3", LONG)
    clock, ratings = long_clock(state), sample_ratings(state)
    image = drawing(state, clock, ratings)
    head = druid.header(state, image.width, clock, ratings)
    for seat, lines in enumerate(head.seats):
        assert " ".join(line for line in lines if line) == druid.seat_lines(state, ratings)[seat]
    edges_clear(image, head.height)
