"""Druid board pictures: every board shape renders at its default and maximum size as a small opaque PNG, gaps
under lintels stay open, the last stone and the druids are marked."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bench.druid import random_move
from render.common import HIGHLIGHT, PLAYER_COLOURS
from render.druid import GROUND, RIM_PUSH, _header, _rim, _side_colours, render_png, render_scene
from rules.druid import GAME, DruidState, Pass
from rules.rng import Rng


def game(words: tuple[str, ...], players: int = 2, stones: int = 0, seed: int = 1) -> DruidState:
    """A game with about ``stones`` random placements made (no passes, so it stays open unless someone wins)."""
    state = GAME.new(GAME.parse_options(words, players), [f"p{i}" for i in range(players)], seed)
    assert isinstance(state, DruidState)
    rng = Rng(seed)
    while not state.is_over and state.ply < stones:
        move = random_move(state, rng)
        if not isinstance(move, Pass):
            state.push(move)
    return state


def play(state: DruidState, *moves: str) -> DruidState:
    for text in moves:
        state.push(state.parse_move(text))
    return state


@pytest.mark.parametrize(
    ("words", "players", "stones"),
    [
        ((), 2, 0),
        ((), 2, 140),
        (("-size=26",), 2, 250),
        (("-hex",), 2, 60),
        (("-hex",), 3, 60),
        (("-hex", "-size=13"), 3, 200),
        (("-y",), 2, 30),
        (("-y", "-size=26"), 2, 250),
        (("-walk",), 2, 90),
        (("-hex", "-walk"), 3, 90),
        (("-nostack",), 2, 80),
    ],
)
def test_renders_small_opaque_png(words: tuple[str, ...], players: int, stones: int) -> None:
    png = render_png(game(words, players, stones))
    assert png.startswith(b"\x89PNG") and len(png) <= 400 * 1024
    image = Image.open(io.BytesIO(png))
    assert "transparency" not in image.info and image.mode in ("P", "RGB")
    assert 300 <= image.width <= 1400 and 300 <= image.height <= 1400


def colour_at(state: DruidState, cell: str, z: float) -> tuple[int, int, int]:
    """The pixel where the middle of ``cell``'s front face at height ``z`` is projected."""
    image, view = render_scene(state)
    x, y = view.lay.centres[state.board.index[cell]]
    return image.getpixel(tuple(round(v) for v in view.point(x, y - 0.5, z)))


def test_gap_under_a_lintel_stays_open() -> None:
    with_gap = play(game(("-size=6",)), "c3", "pass", "e3", "pass", "c3-e3")
    assert colour_at(with_gap, "d3", 0.5) == GROUND or sum(colour_at(with_gap, "d3", 0.5)) < 300
    filled = play(game(("-size=6",)), "c3", "d3", "e3", "pass", "c3-e3")
    red = PLAYER_COLOURS[1][0]
    pixel = colour_at(filled, "d3", 0.5)
    assert pixel[0] > pixel[1] + 40 and pixel[0] > 100 and pixel != red, "the H sarsen under the beam is shaded red"
    assert colour_at(filled, "d3", 1.5) != pixel, "the V lintel above it is a different colour"


def highlight_pixels(state: DruidState) -> int:
    image, _ = render_scene(state)
    return sum(n for n, colour in image.getcolors(1 << 20) if colour == HIGHLIGHT)


def test_last_stone_and_druids_are_highlighted() -> None:
    fresh = game(())
    assert highlight_pixels(fresh) == 0
    assert highlight_pixels(play(fresh, "e5")) > 0
    walk = play(game(("-walk", "-size=5")), "c1", "a3")
    before = highlight_pixels(walk)
    assert before > highlight_pixels(play(game(("-walk", "-size=5")), "c2", "b3"))


@pytest.mark.parametrize(
    ("words", "players", "moves"),
    [
        ((), 2, ()),
        (("-size=26",), 2, ()),
        (("-hex",), 2, ()),
        (("-hex",), 3, ()),
        (("-hex", "-size=13"), 3, ()),
        (("-y",), 2, ()),
        (("-walk", "-size=6"), 2, ("c1", "f3")),
        (("-hex", "-walk"), 3, ("c1", "g1", "i3")),
    ],
)
def test_goal_strips_are_not_hidden_by_coordinates(words: tuple[str, ...], players: int, moves: tuple) -> None:
    """On a board with no stone in front of the rim every goal strip segment shows its side's colour in the 3D view:
    the coordinates standing around the rim (and their halos) keep clear of it, also where a druid's target
    stars run along it. A segment shared by two sides at a corner may show either colour."""
    state = play(game(words, players), *moves)
    image, view = render_scene(state)
    colours: dict[tuple[float, float], set[tuple[int, int, int]]] = {}
    for (ax, ay), (bx, by), (ex, ey), colour, _ in _rim(state):
        for k in (0.2, 0.8):  # off the middle, where a target star sits
            x, y = ax + (bx - ax) * k + ex * RIM_PUSH, ay + (by - ay) * k + ey * RIM_PUSH
            colours.setdefault((round(x, 3), round(y, 3)), set()).add(colour)

    def seen(spot: tuple[float, float], allowed: set) -> bool:
        """Strips are a few pixels wide: one pixel of the strip's colour next to the spot is enough."""
        x, y = (round(v) for v in view.point(*spot, 0))
        return any(image.getpixel((x + i, y + j)) in allowed for i in (-1, 0, 1) for j in (-1, 0, 1))

    hidden = [spot for spot, allowed in colours.items() if not seen(spot, allowed)]
    assert hidden == []


def test_header_names_each_walk_goal_before_and_after_the_druid_appears() -> None:
    state = play(game(("-walk", "-size=5")), "c2")
    lines = [text for text, _ in _header(state)]
    assert lines[0].startswith("V  p0: bottom row and top row (druid not on the board yet)")
    assert lines[1].startswith("H  p1: left column and right column (druid not on the board yet)  <- to move")
    play(state, "a3")
    lines = [text for text, _ in _header(state)]
    assert lines[1].startswith("H  p1: druid to the right column")


def test_walk_targets_are_starred() -> None:
    state = play(game(("-hex", "-walk"), 3), "c1", "b6", "a3")
    assert state.targets == ["NE", "SE", "E"]
    starred = {side for side, (_, target) in _side_colours(state).items() if target}
    assert starred == {"NE", "SE", "E"}
