"""Druid board pictures: every board shape renders at its default and maximum size as a small opaque PNG, gaps
under lintels stay open, the last stone and the druids are marked; read on a phone, the status leads the header
and is never cut off, coordinates are never covered, tall boards stay low, and a won game shows its path."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image

from bench.druid import random_move
from render.common import BACKGROUND, HIGHLIGHT, PLAYER_COLOURS, ink_on
from render.druid import (
    CAP,
    GROUND,
    RIM_PUSH,
    SUMMARY_PAD,
    _face_light,
    _rim,
    _side_colours,
    _summary_size,
    header,
    hidden_tops,
    label_boxes,
    layout,
    render_png,
    render_scene,
    seat_lines,
    status,
    winning_paths,
)
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
    assert status(state) == (1, "p1 (H) to move")
    lines = seat_lines(state)
    assert lines[0] == "p0: bottom row and top row (druid not on the board yet)"
    assert lines[1] == "p1: left column and right column (druid not on the board yet)"
    play(state, "a3")
    assert seat_lines(state)[1] == "p1: druid to the right column"


def finished(words: tuple[str, ...], players: int, seed: int) -> DruidState:
    """A game played to its end by the benchmark's random player (passes included)."""
    state = GAME.new(GAME.parse_options(words, players), [f"p{i}" for i in range(players)], seed)
    assert isinstance(state, DruidState)
    rng = Rng(seed)
    while not state.is_over:
        state.push(random_move(state, rng))
    return state


def text_bands(image: Image.Image, top: int, bottom: int) -> list[tuple[int, int]]:
    """Runs of picture rows between ``top`` and ``bottom`` holding anything but the background (header lines)."""
    rows = image.crop((0, top, image.width, bottom)).convert("RGB")
    busy = [any(rows.getpixel((x, y)) != BACKGROUND for x in range(rows.width)) for y in range(rows.height)]
    bands, start = [], None
    for y, on in enumerate([*busy, False]):
        if on and start is None:
            start = y
        elif not on and start is not None:
            bands.append((top + start, top + y))
            start = None
    return bands


@pytest.mark.parametrize(
    ("state", "expected"),
    [
        (lambda: play(game(("-hex", "-walk"), 3), "c1", "g1", "i3"), "p0 (X) to move"),
        (lambda: game((), 2, 60), "p0 (V) to move"),
        (lambda: finished((), 2, 1), "p0 (V) wins: V joined top and bottom"),
        (lambda: finished((), 2, 2), "Draw: all players passed in succession"),
    ],
)
def test_status_is_the_largest_line_and_nothing_is_cut(state, expected: str) -> None:
    """The header's first band (the status) is the tallest thing in it, well above the seat lines; every header
    line fits the picture (the 3-player hex walk once lost its end), with a free margin on the right."""
    state = state()
    assert status(state)[1] == expected
    image, _ = render_scene(state)
    head = header(state, image.width)
    bands = text_bands(image, 0, head.height)
    heights = [bottom - top for top, bottom in bands]
    assert len(bands) == 1 + len(state.players) and heights[0] >= 1.5 * max(heights[1:]), bands
    right = image.crop((image.width - 6, 0, image.width, head.height)).convert("RGB")
    assert right.getcolors() == [(right.width * right.height, BACKGROUND)]


def stone_colours(state: DruidState) -> set[tuple[int, int, int]]:
    """Every colour a stone's face can take in the 3D view: each seat's fill, as a top and as each lit side."""
    lay = layout(state.board)
    out = set()
    for seat in range(len(state.players)):
        fill = PLAYER_COLOURS[seat][0]
        out.add(fill)
        for normal in lay.normals:
            factor = _face_light(normal)
            out.add((int(fill[0] * factor), int(fill[1] * factor), int(fill[2] * factor)))
    return out


@pytest.mark.parametrize(
    ("words", "players", "stones"),
    [((), 2, 170), (("-hex",), 3, 150), (("-y",), 2, 60), (("-walk",), 2, 90), (("-hex", "-walk"), 3, 120)],
)
def test_coordinates_are_never_covered(words: tuple[str, ...], players: int, stones: int) -> None:
    """Late in a game, no stone colour and no highlight (druids, the last move) shows inside any 3D coordinate's
    box: stones in column A once stood over the row numbers and back stacks hid the far letters."""
    state = game(words, players, stones)
    image, view = render_scene(state)
    forbidden = stone_colours(state) | {HIGHLIGHT}
    boxes = label_boxes(view)
    assert len(boxes) >= state.board.ncols
    for text, _, box in boxes:
        colours = {colour for _, colour in image.crop(box).getcolors(1 << 16)}
        assert not colours & forbidden, (text, colours & forbidden)


def top_point(view, state: DruidState, cell: str, lift: float = 0.0) -> tuple[int, int]:
    x, y = view.lay.centres[state.board.index[cell]]
    return tuple(round(v) for v in view.point(x, y, min(state.height[state.board.index[cell]], CAP) + lift))


def test_last_stone_is_pointed_at_even_behind_a_tall_stack() -> None:
    """A stone placed right behind a tall stack is hidden in 3D; the pointer above it is drawn on top."""
    state = play(game(("-size=6",)), *["c3", "pass"] * 5, "c4")
    image, view = render_scene(state)
    x, y = top_point(view, state, "c4")
    window = image.crop((x - 12, y - round(view.s * 0.7), x + 12, y)).convert("RGB")
    assert sum(n for n, colour in window.getcolors(1 << 16) if colour == HIGHLIGHT) >= 40


def test_tall_stacks_are_capped_and_labelled() -> None:
    """A stack of ten is drawn CAP levels high, its top in its owner's colour carrying "10"; the height map also
    writes 10 in digits (the text board's "A" means nothing on a picture)."""
    state = play(game(("-size=6",)), *["c3", "pass"] * 10)
    image, view = render_scene(state)
    x, y = top_point(view, state, "c3")
    red = PLAYER_COLOURS[0][0]
    above = image.getpixel((x, round(y - view.s * 0.6)))
    assert above not in stone_colours(state), "nothing drawn above the capped level"
    face = image.crop((x - 14, y - 8, x + 14, y + 8)).convert("RGB")
    assert red in {c for _, c in face.getcolors(1 << 16)} and ink_on(red) in {c for _, c in face.getcolors(1 << 16)}
    # the height map, right of the owner map below the 3D view: c3 is its third column and third row from the bottom
    cell = 24.0
    sum_w, _ = _summary_size(state.board, cell)
    left = (image.width - 2 * sum_w - 24) // 2 + sum_w + 24
    top = header(state, image.width).height + view.height + 22
    cx, cy = left + (2 + SUMMARY_PAD) * cell, top + (5 - 2 + SUMMARY_PAD) * cell
    crop = image.crop((round(cx - 10), round(cy - 10), round(cx + 10), round(cy + 10))).convert("L")
    dark = [(x, y) for x in range(crop.width) for y in range(crop.height) if crop.getpixel((x, y)) < 120]
    xs, ys = [x for x, _ in dark], [y for _, y in dark]
    assert dark and max(xs) - min(xs) > 1.15 * (max(ys) - min(ys)), "two digits, not one letter"


@pytest.mark.parametrize(
    ("words", "players", "seed"),
    [((), 2, 1), (("-size=6",), 2, 3), (("-y", "-size=6"), 2, 3), (("-hex",), 2, 4), (("-hex", "-size=4"), 3, 4)],
)
def test_a_won_connection_shows_its_path(words: tuple[str, ...], players: int, seed: int) -> None:
    """The traced path is the winner's own cells, each next to the one before, from one goal side to the
    other (and to the third side for hex and Y), and it is drawn over the 3D view at every cell."""
    state = finished(words, players, seed)
    (winner,) = state.outcome().winners
    paths = winning_paths(state)
    board = state.board
    assert paths
    sides = next(sides for sides in state.goals[winner] if len(sides) == len(paths) + 1)
    covered = set()
    for path in paths:
        assert all(state.top[cell] == winner for cell in path)
        assert all(b in board.neighbours[a] for a, b in itertools.pairwise(path))
        covered.update(path)
    assert all(any(board.sides[side] >> cell & 1 for cell in covered) for side in sides)
    image, view = render_scene(state)
    for cell in covered:
        x, y = top_point(view, state, board.names[cell])
        near = {image.getpixel((x + i, y + j)) for i in (-1, 0, 1) for j in (-1, 0, 1)}
        assert HIGHLIGHT in near, board.names[cell]


def test_a_won_walk_shows_the_winning_step() -> None:
    state = finished(("-walk",), 2, 1)
    assert state.outcome().reason == "V's druid reached the bottom row"
    (step,) = winning_paths(state)
    assert state.druids[0] == step[1] and step[0] in state.board.neighbours[step[1]]
    image, view = render_scene(state)
    a, b = (top_point(view, state, state.board.names[cell]) for cell in step)
    middle = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
    assert HIGHLIGHT in {image.getpixel((middle[0] + i, middle[1] + j)) for i in (-1, 0, 1) for j in (-1, 0, 1)}


def test_no_path_after_a_draw() -> None:
    assert winning_paths(finished((), 2, 2)) == []


def test_walk_targets_are_starred() -> None:
    state = play(game(("-hex", "-walk"), 3), "c1", "b6", "a3")
    assert state.targets == ["NE", "SE", "E"]
    starred = {side for side, (_, target) in _side_colours(state).items() if target}
    assert starred == {"NE", "SE", "E"}


def red_pixels(state: DruidState, cell: str, level: int) -> int:
    """How many pixels of H's stone colour (its top or a lit side) lie within a sixth of a cell's width of the
    point where ``cell``'s top at ``level`` is projected in the 3D view."""
    image, view = render_scene(state)
    x, y = view.lay.centres[state.board.index[cell]]
    cx, cy = (round(v) for v in view.point(x, y, level))
    r = round(view.s / 6)
    window = image.crop((cx - r, cy - r, cx + r, cy + r)).convert("RGB")
    red = {colour for colour in stone_colours(state) if colour[0] > colour[1] + 40}
    return sum(n for n, colour in window.getcolors(1 << 16) if colour in red)


def test_a_stone_behind_a_lintel_is_marked() -> None:
    """H's sarsen on D4, right behind V's lintel C3-E3 one level higher, is covered by the beam; its owner's colour
    now shows where its top lies, over the beam."""
    state = play(game(("-size=6",)), "c3", "d4", "e3", "pass", "c3-e3")
    _, view = render_scene(state)
    assert hidden_tops(view) == [(state.board.index["d4"], 1, 1)]
    assert red_pixels(state, "d4", 1) >= 20


def test_a_stone_under_a_lintel_is_marked() -> None:
    """H's sarsen on D3 under V's lintel, with H's D2 in front of it: the beam covers its top and D2 its front, so
    only a marker tells it from a gap; D2's own top, in front, is not marked."""
    state = play(game(("-size=6",)), "c3", "d3", "e3", "d2", "c3-e3")
    _, view = render_scene(state)
    assert hidden_tops(view) == [(state.board.index["d3"], 1, 1)]
    assert red_pixels(state, "d3", 1) >= 20
    gap = play(game(("-size=6",)), "c3", "d2", "e3", "pass", "c3-e3")
    assert hidden_tops(render_scene(gap)[1]) == [] and red_pixels(gap, "d3", 1) == 0


def test_nothing_is_marked_where_every_stone_shows() -> None:
    """A stone seen beside or under a beam, a sarsen field one level high: no marker."""
    assert hidden_tops(render_scene(play(game(("-size=6",)), "c3", "d3", "e3", "pass", "c3-e3"))[1]) == []
    assert hidden_tops(render_scene(game((), 2, 40))[1]) == []
