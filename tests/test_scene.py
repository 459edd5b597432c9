"""One drawing, two outputs: a board is drawn once as a scene (render.scene), and the PNG backend (render.png)
and the SVG backend (render.svg) turn that one scene into their pictures.

The agreement test renders every game drawn as a scene, at several positions, both ways: the SVG holds exactly
the scene's tagged elements (kind, id, data, in order) and texts, stands alone (no external reference), and the
PNG sent is the PNG backend's drawing of that scene. The backends are checked shape by shape below it."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from collections.abc import Callable

import pytest
from PIL import Image, ImageChops

import render
from render import png, svg
from render.common import BACKGROUND, font
from render.header import Status, last_move
from render.scene import (
    Arc,
    Ellipse,
    Group,
    Line,
    Polygon,
    Rect,
    Scene,
    Symbol,
    Text,
    Use,
    readable,
)
from rules import registry
from rules.base import GameState, Outcome
from rules.rng import Rng

SVG = "{http://www.w3.org/2000/svg}"
LONG = ["Alexandria_the_Great_of_Macedon_", "Bart<holomew> & 'Longname' \"the\""]


def played(
    name: str, moves: int, seed: int = 5, words: tuple[str, ...] = (), names: list[str] | None = None
) -> GameState:
    """A two-player game after ``moves`` random moves (forced ones as the server makes them)."""
    game = registry.get(name)
    names = names or ["alice", "bob"]
    state = game.new(game.parse_options(list(words), len(names)), names, seed)
    rng = Rng(seed)
    while not state.is_over and moves > 0:
        forced = state.forced_move()
        state.push(forced if forced is not None else state.random_move(rng))
        moves -= 1
    return state


#: a position of every game drawn as a scene, with or without a clock and ratings
POSITIONS: dict[str, Callable[[], tuple[GameState, dict[int, str] | None, dict[int, str] | None]]] = {
    "backgammon start": lambda: (played("backgammon", 0), None, None),
    "backgammon middle, clock, ratings": lambda: (
        played("backgammon", 30),
        {0: "23h 10m left", 1: "7d per move"},
        {0: "1532", 1: "1000?"},
    ),
    "backgammon over, odd names": lambda: (played("backgammon", 2000, names=LONG), None, None),
    "dragons start": lambda: (played("dragons", 0), None, None),
    "dragons middle, clock": lambda: (played("dragons", 10, 9), {0: "2h left", 1: "paused (vacation)"}, None),
    "dragons tantrix over, odd names": lambda: (
        played("dragons", 2000, 3, ("-tantrix",), LONG),
        None,
        {0: "unrated", 1: "1000?"},
    ),
    "drogo start": lambda: (played("drogo", 0), None, None),
    "drogo middle, four players, clock, ratings": lambda: (
        played("drogo", 300, 5, (), ["alice", "bob", "carol", "dave"]),
        {0: "23h 10m left", 1: "7d per move", 2: "paused (vacation)", 3: "6d 23h left"},
        {0: "1532", 1: "1000?", 2: "unrated", 3: "2187"},
    ),
    "drogo 12x12 late, -single": lambda: (played("drogo", 3000, 5, ("-size=12", "-single")), None, None),
    "drogo 4x4 over, odd names": lambda: (played("drogo", 2000, 5, ("-size=4",), LONG), None, None),
    "druid start": lambda: (played("druid", 0), None, None),
    "druid middle, clock, ratings": lambda: (played("druid", 40), {0: "23h 10m left", 1: "7d per move"}, {0: "1532"}),
    "druid over, odd names": lambda: (played("druid", 2000, 2, ("-size=5",), LONG), None, None),
    "druid hex, three players": lambda: (played_by("druid", 60, ("-hex",), 3), None, None),
    "druid walk": lambda: (played("druid", 30, 5, ("-walk",)), None, None),
    "druid y": lambda: (played("druid", 30, 5, ("-y",)), None, None),
}

#: the 3D views, drawn as scenes too: the same agreement holds
VIEWS_3D: dict[str, Callable[[], GameState]] = {
    "druid square": lambda: played("druid", 60),
    "druid hex, three players": lambda: played_by("druid", 60, ("-hex",), 3),
    "druid walk, odd names": lambda: played("druid", 40, 5, ("-walk",), LONG),
}


def played_by(name: str, moves: int, words: tuple[str, ...], players: int) -> GameState:
    """A game of ``players`` players (alice, bob, carol, ...) after ``moves`` random moves."""
    game = registry.get(name)
    names = ["alice", "bob", "carol", "dave"][:players]
    state = game.new(game.parse_options(list(words), players), names, 5)
    rng = Rng(5)
    while not state.is_over and moves > 0:
        forced = state.forced_move()
        state.push(forced if forced is not None else state.random_move(rng))
        moves -= 1
    return state


def test_every_game_drawn_as_a_scene_has_positions_here() -> None:
    assert {key.split()[0] for key in POSITIONS} == set(render.SCENE_GAMES)


def svg_root(text: str) -> ET.Element:
    return ET.fromstring(text)


def svg_tagged(root: ET.Element) -> list[tuple[str, str, tuple[tuple[str, str], ...]]]:
    """Every group with data-kind, outside <defs>, in document order: (kind, id, the other data-* pairs)."""
    found = []
    for element in _outside_defs(root):
        if element.tag == f"{SVG}g" and "data-kind" in element.attrib:
            data = tuple(
                (name.removeprefix("data-"), value)
                for name, value in element.attrib.items()
                if name.startswith("data-") and name not in ("data-kind", "data-id")
            )
            found.append((element.attrib["data-kind"], element.attrib.get("data-id", ""), data))
    return found


def _outside_defs(root: ET.Element) -> list[ET.Element]:
    out: list[ET.Element] = []

    def visit(element: ET.Element) -> None:
        for child in element:
            if child.tag == f"{SVG}defs":
                continue
            out.append(child)
            visit(child)

    visit(root)
    return out


@pytest.mark.parametrize("key", list(POSITIONS))
def test_the_png_and_the_svg_come_from_the_same_scene(key: str) -> None:
    state, clock, ratings = POSITIONS[key]()
    assert_agree(state, clock, ratings, "top")


@pytest.mark.parametrize("key", [key for key in POSITIONS if render.has_3d(key.split()[0])])
def test_the_3d_views_png_and_svg_come_from_the_same_scene(key: str) -> None:
    state, clock, ratings = POSITIONS[key]()
    assert_agree(state, clock, ratings, "3d")


@pytest.mark.parametrize("key", list(VIEWS_3D))
def test_more_3d_views_png_and_svg_come_from_the_same_scene(key: str) -> None:
    assert_agree(VIEWS_3D[key](), {0: "6d 23h left"}, {1: "unrated"}, "3d")


def assert_agree(state: GameState, clock: dict[int, str] | None, ratings: dict[int, str] | None, view: str) -> None:
    """The PNG sent is the PNG backend's drawing of the scene, the SVG the SVG backend's, with the same tagged
    elements (kind, id, data, in order) and texts, standing alone."""
    drawn = render.board_scene(state, clock, ratings, view)
    assert render.board_png(state, clock, ratings, view) == png.png(drawn)
    text = render.board_svg(state, clock, ratings, view)
    assert text == svg.svg(drawn)
    root = svg_root(text)
    assert root.attrib["viewBox"] == f"0 0 {drawn.width} {drawn.height}"
    assert (root.attrib["width"], root.attrib["height"]) == (str(drawn.width), str(drawn.height))
    image = Image.open(io.BytesIO(png.png(drawn)))
    assert image.size == (drawn.width, drawn.height)
    # the same tagged elements, in the same order
    expected = [(group.kind, group.id, group.data) for group in drawn.tagged()]
    assert svg_tagged(root) == expected
    assert {kind for kind, _id, _data in expected} >= {"header", "status", "seat", "chip"}
    # the same texts: the board's in drawing order, the symbols' once each in <defs>
    board_texts = [item.text for item, _groups in drawn.walk() if isinstance(item, Text)]
    assert [element.text or "" for element in _outside_defs(root) if element.tag == f"{SVG}text"] == board_texts
    defs = root.find(f"{SVG}defs")
    symbol_texts = [t.text for symbol in drawn.symbols.values() for t in symbol.items if isinstance(t, Text)]
    assert [element.text or "" for element in (defs.iter(f"{SVG}text") if defs is not None else ())] == symbol_texts
    # every symbol used is defined, every one defined is used
    used = {element.attrib["href"] for element in root.iter(f"{SVG}use")}
    defined = {f"#{element.attrib['id']}" for element in (defs if defs is not None else ())}
    assert used == defined == {f"#{svg.symbol_id(name)}" for name in drawn.symbols}
    assert_stands_alone(text)


def test_every_druid_cell_is_a_tappable_element_of_the_svg() -> None:
    """The web page makes each cell tappable: the top-down SVG has one group per cell, with its name as typed,
    its height and its owner, around a shape."""
    state = played("druid", 40)
    root = svg_root(render.board_svg(state))
    cells = [g for g in root.iter(f"{SVG}g") if g.attrib.get("data-kind") == "cell"]
    assert [g.attrib["data-id"] for g in cells] == list(state.board.names)
    for cell, group in enumerate(cells):
        assert group.attrib["data-height"] == str(state.height[cell])
        assert group.attrib["data-owner"] == ("" if state.top[cell] < 0 else str(state.top[cell]))
        [shape] = list(group)
        assert shape.tag in (f"{SVG}rect", f"{SVG}polygon")


def assert_stands_alone(text: str) -> None:
    """No external reference of any kind: no URL but the SVG namespace, no link but to the document's own
    symbols, no image, style sheet, script or foreign content."""
    root = svg_root(text)
    for element in root.iter():
        assert element.tag.removeprefix(SVG) not in ("image", "style", "script", "foreignObject", "a", "link")
        for name, value in element.attrib.items():
            assert "url(" not in value and "://" not in value, (name, value)
            if name.endswith("href"):
                assert value.startswith("#"), value
    assert text.count("://") == 1 and 'xmlns="http://www.w3.org/2000/svg"' in text


def test_odd_names_are_escaped_in_the_svg_and_kept_whole() -> None:
    state, clock, ratings = POSITIONS["backgammon over, odd names"]()
    root = svg_root(render.board_svg(state, clock, ratings))
    players = [g.attrib["data-player"] for g in root.iter(f"{SVG}g") if g.attrib.get("data-kind") == "seat"]
    assert sorted(players) == sorted(LONG)
    texts = " ".join(element.text or "" for element in root.iter(f"{SVG}text"))
    assert "Bart<holomew> & 'Longname'" in texts


# ---- the backends, shape by shape ------------------------------------------------------------------------------

RED, BLUE, WHITE = (200, 40, 40), (40, 60, 200), (250, 250, 250)


def one(*items: object, width: int = 60, height: int = 40, supersample: int = 1, symbols: dict | None = None) -> Scene:
    return Scene(width, height, BACKGROUND, tuple(items), symbols or {}, supersample)  # type: ignore[arg-type]


def colours(image: Image.Image) -> dict[tuple[int, int, int], int]:
    return {colour: count for count, colour in image.getcolors(1 << 16)}


def test_a_rectangle_covers_its_box_with_both_ends_and_its_outline_inside() -> None:
    image = png.raster(one(Rect((10, 5, 19, 14), RED, BLUE, 2)))
    assert colours(image)[RED] + colours(image)[BLUE] == 100  # 10 x 10 pixels, right and bottom included
    assert image.getpixel((10, 5)) == BLUE and image.getpixel((19, 14)) == BLUE and image.getpixel((12, 7)) == RED
    assert image.getpixel((20, 15)) == BACKGROUND
    [element] = list(svg_root(svg.svg(one(Rect((10, 5, 19, 14), RED, BLUE, 2)))).iter(f"{SVG}rect"))[1:]
    assert element.attrib == {
        "x": "11",
        "y": "6",
        "width": "8",
        "height": "8",
        "fill": "#c82828",
        "stroke": "#283cc8",
        "stroke-width": "2",
    }


def test_an_ellipse_a_polygon_a_line_and_an_arc_are_drawn_where_they_say() -> None:
    image = png.raster(
        one(
            Ellipse((0, 0, 19, 19), RED),
            Polygon(((30, 0), (40, 10), (30, 10)), BLUE),
            Line(((0, 30), (59, 30)), WHITE, 3),
            Arc((50, 25), 6, 0, 90, RED, 2),
            width=60,
        )
    )
    assert image.getpixel((10, 10)) == RED and image.getpixel((0, 0)) == BACKGROUND
    assert image.getpixel((32, 8)) == BLUE and image.getpixel((38, 2)) == BACKGROUND
    assert [image.getpixel((20, y)) for y in range(28, 33)].count(WHITE) == 3
    assert image.getpixel((50 + 4, 25 + 4)) == RED  # 45 degrees: below right of the centre
    assert image.getpixel((50 - 4, 25 - 4)) == BACKGROUND
    root = svg_root(svg.svg(one(Ellipse((0, 0, 19, 19), RED, BLUE, 2), Arc((50, 25), 6, 0, 90, RED, 2))))
    [ellipse] = root.iter(f"{SVG}ellipse")
    assert (ellipse.attrib["cx"], ellipse.attrib["rx"], ellipse.attrib["stroke-width"]) == ("10", "9", "2")
    [arc] = root.iter(f"{SVG}path")
    assert arc.attrib["d"] == "M 56 25 A 6 6 0 0 1 50 31"


def test_text_is_placed_by_its_anchor_in_both_backends() -> None:
    image = png.raster(one(Text((30, 20), "W", 20, WHITE, "mm")))
    box = ImageChops.difference(image, Image.new("RGB", image.size, BACKGROUND)).getbbox()
    assert box is not None and abs((box[0] + box[2]) / 2 - 30) <= 1 and abs((box[1] + box[3]) / 2 - 20) <= 2
    [text] = svg_root(svg.svg(one(Text((30, 20), "W", 20, WHITE, "rm")))).iter(f"{SVG}text")
    assert text.attrib["text-anchor"] == "end" and text.attrib["font-size"] == "20" and text.text == "W"
    ascent, descent = font(20).getmetrics()  # the baseline, where Pillow's middle anchor puts it
    assert float(text.attrib["y"]) == 20 + (ascent - descent) / 2
    assert float(text.attrib["textLength"]) == round(font(20).getlength("W"), 2)  # the PNG's width, whatever font


def test_a_symbol_pastes_as_its_drawing_would_draw_even_text() -> None:
    shapes = (Ellipse((-6, -6, 6, 6), RED, BLUE, 2), Text((0, 0), "Ag", 12, WHITE, "mm"))
    for supersample in (1, 2):
        used = one(Use("s", (30, 20)), Use("s", (10, 25)), symbols={"s": Symbol(8, shapes)}, supersample=supersample)
        direct = one(
            Ellipse((24, 14, 36, 26), RED, BLUE, 2),
            Text((30, 20), "Ag", 12, WHITE, "mm"),
            Ellipse((4, 19, 16, 31), RED, BLUE, 2),
            Text((10, 25), "Ag", 12, WHITE, "mm"),
            supersample=supersample,
        )
        assert png.raster(used).tobytes() == png.raster(direct).tobytes(), supersample


def test_static_groups_are_drawn_once_and_never_shown_stale() -> None:
    def board(colour: tuple[int, int, int]) -> Scene:
        return one(Group((Rect((0, 0, 29, 39), colour),), "board", static=True), Ellipse((35, 5, 45, 15), BLUE))

    plain = one(Rect((0, 0, 29, 39), RED), Ellipse((35, 5, 45, 15), BLUE))
    assert png.raster(board(RED)).tobytes() == png.raster(plain).tobytes()
    assert png.raster(board(RED)).tobytes() == png.raster(plain).tobytes()  # from the kept base
    assert png.raster(board(BLUE)).getpixel((5, 5)) == BLUE  # other static content: another base


def test_a_supersampled_scene_is_drawn_large_and_scaled_down() -> None:
    image = png.raster(one(Rect((10, 10, 19.5, 19.5), RED), supersample=2))
    assert image.size == (60, 40) and image.getpixel((15, 15)) == RED and image.getpixel((9, 9)) == BACKGROUND


def test_svg_text_drops_characters_xml_cannot_hold_and_escapes_the_rest() -> None:
    root = svg_root(svg.svg(one(Group((Text((1, 1), 'a\x01<b>&"', 12, WHITE),), "seat", "0", (("player", "\"'<&>"),)))))
    [group] = [g for g in root.iter(f"{SVG}g") if g.attrib.get("data-kind") == "seat"]
    assert group.attrib["data-player"] == "\"'<&>"
    assert [t.text for t in root.iter(f"{SVG}text")] == ['a<b>&"']


def test_readable_sizes_for_the_phone() -> None:
    """11 pixels once a picture is shown 400 wide: the font size for a picture of each width."""
    assert [readable(width) for width in (400, 560, 590, 638, 800)] == [11, 16, 17, 18, 22]
    assert readable(590, 18) == 18 and readable(590, 12) == 17


# ---- the header's one grammar ----------------------------------------------------------------------------------


def test_the_status_grammar() -> None:
    names = ["alice", "bob", "carol"]
    assert Status.to_move(1, "bob").text == "bob to move"
    assert Status.to_move(0, "alice", "play 3-1").text == "alice to play 3-1"
    assert Status.to_move(0, "alice", "move", "a gap move is owed").text == "alice to move: a gap move is owed"
    won = Status.ended(Outcome((2,), "alice resigned"), names, "alice resigned")
    assert (won.text, won.seat) == ("carol wins: alice resigned", 2)
    assert (
        Status.ended(Outcome((0, 2), "shared"), names, "12 points each").text == "alice and carol win: 12 points each"
    )
    assert Status.ended(Outcome((), "drawn by agreement"), names, "").text == "Draw: by agreement"
    assert Status.ended(Outcome((), "draw: nobody won"), names, "").text == "Draw: nobody won"
    cancelled = Status.ended(Outcome((), "bob declined to play", cancelled=True), names, "")
    assert (cancelled.text, cancelled.seat) == ("Game cancelled: bob declined to play", None)
    assert last_move("bob", "played 24-13") == "last: bob played 24-13"


@pytest.mark.parametrize("key", list(POSITIONS))
def test_the_turn_marker_stands_only_before_the_player_to_move_while_the_game_runs(key: str) -> None:
    state, clock, ratings = POSITIONS[key]()
    for group in render.board_scene(state, clock, ratings).tagged("seat"):
        marked = any(isinstance(item, Polygon) for item in group.items)
        assert marked == (not state.is_over and int(group.id) == state.to_move), group.id
