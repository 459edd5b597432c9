"""A board picture as data: one drawing that two small backends turn into a PNG (render.png) and an SVG
(render.svg), so the pixels a player sees and the elements a web page makes tappable come from the same place.

A :class:`Scene` is a size, a background colour and an ordered tree of items drawn first to last (later items
cover earlier ones):

- shapes: :class:`Rect` (optionally rounded), :class:`Ellipse`, :class:`Polygon`, :class:`Line` (a polyline with
  a width), :class:`Arc` (a stroke along part of a circle) and :class:`Text` (the one font, a size, a colour and a
  Pillow anchor such as ``"lm"``, left end and vertical middle);
- :class:`Group`: items that belong together, tagged with what they are (``kind``) and which one (``id``): a
  Backgammon point (``kind="point", id="13"``), a Dragons open position (``kind="spot", id="3"``), a Druid or
  Drogo cell (``kind="cell", id="d4"``), a seat in the header (``kind="seat", id="0"``). The SVG writes a group as
  ``<g data-kind="point" data-id="13">``, and ``data`` adds more ``data-*`` attributes (``("cell", "1,-1")``);
- :class:`Use`: a :class:`Symbol` of the scene placed at a point: a drawing repeated many times (a Dragons tile, an
  outline), rasterised once by the PNG backend and written once in the SVG's ``<defs>``.

Coordinates are in pixels of the final picture (floats allowed), y downwards; the SVG's viewBox is the picture's
size. Boxes (``Rect``, ``Ellipse``) follow Pillow: ``(left, top, right, bottom)`` with the right and bottom pixel
included. Outlines lie inside a shape's box, as Pillow draws them. Angles are degrees clockwise from 3 o'clock.

``supersample`` draws the PNG at that many times the size and scales it down (box filter): Pillow draws shapes
without anti-aliasing, so a board with curves (Dragons) asks for 2, one of straight edges and discs (Backgammon)
for 1, as each drew before scenes existed. Groups marked ``static`` at the start of the scene (the panel, the felt,
the numbered points) are rasterised once and copied for every picture with the same static groups.

``exact`` lists the colours the PNG must keep to the unit (see render.palette): the player colours always, plus
those a game names (Backgammon's checkers, the low-clock pill).

Text sizes are font sizes in picture pixels (the em, as CSS's ``font-size``). A picture is shown about
:data:`PHONE_WIDTH` pixels wide on a phone, so a text a player must read is drawn at :func:`readable` size or
more: :data:`PHONE_TEXT` pixels once scaled to the phone. Texts that need not be read (a second way of writing a
coordinate already shown in large type) are marked ``minor``; tests/test_text_size.py checks every other text.

Pictures are at most :data:`MAX_WIDTH` wide and never wider than tall (square or portrait): a board that would be
wider is drawn smaller (Dragons shrinks its tiles), a small one sits in a square picture.

Porting a game (Druid and Drogo are drawn directly with Pillow until then):

1. ``render.<game>.scene(state, clock=None, ratings=None) -> Scene``; ``render_png`` returns
   ``render.png.png(scene(...))``; add the game to ``render.SCENE_GAMES``. A replay that must keep the board in
   place across frames gives the module a ``replay_images(states)`` (render.replay uses it).
2. Open the picture with the shared header: build a :class:`render.header.Header` (the status through
   ``Status.to_move``/``Status.ended``, a ``Seat`` per player with their letter and facts, the last move through
   ``render.header.last_move``) and place its group with ``render.header.draw``; the board goes below it.
3. Tag every element a player can point at: cells ``kind="cell"`` with the coordinate as typed (``id="d4"``; Druid
   and Drogo may add ``data`` such as ``("height", "3")``, ``("owner", "0")``), pieces and marks as their own
   kinds. The tags in use: Backgammon ``board``, ``point`` (1-24), ``checkers`` (per point, ``colour`` and
   ``count``), ``bar`` and ``tray``/``off`` (``X``/``O``), ``cube``, ``dice``, ``last-play``, ``hit``,
   ``hit-arrows``; Dragons ``tile`` (``id="q,r"``, ``letter``, ``winning``), ``spot`` (the number typed, ``cell``),
   ``gap``, ``legend`` and ``letter`` (a-h), ``last-move``, ``badges``, ``loops``, ``note``; the header
   ``header``, ``status``, ``aside``, ``seat`` (the seat number, ``player``), ``chip`` (the letter), ``clock``
   (the seat number), ``lines``.
4. Size every text with :func:`readable` for the picture's width (``minor`` only for a second spelling of
   something readable elsewhere), and add the game's smallest and largest pictures to tests/test_text_size.py and
   positions to tests/test_scene.py's agreement test.

``render.board_scene``, ``board_png`` and ``board_svg`` dispatch to the game's module. This module is pure data
and arithmetic: no Pillow, no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

Colour = tuple[int, int, int]
Point = tuple[float, float]
Box = tuple[float, float, float, float]

#: how wide a picture is shown in a phone's chat, and how tall a text a player must read is there, at least
PHONE_WIDTH = 400
PHONE_TEXT = 11
#: the widest picture we draw (about: a few pixels more are no harm); pictures are portrait or square
MAX_WIDTH = 800


def readable(width: float, size: float = 0) -> int:
    """The font size, at least ``size``, at which a text in a picture ``width`` wide is :data:`PHONE_TEXT` pixels
    or more when the picture is shown :data:`PHONE_WIDTH` wide."""
    return max(math.ceil(size), math.ceil(PHONE_TEXT * width / PHONE_WIDTH - 1e-9))


@dataclass(frozen=True, slots=True)
class Rect:
    """A rectangle, rounded at its corners by ``radius``; ``outline`` of ``width`` inside the box."""

    box: Box
    fill: Colour | None = None
    outline: Colour | None = None
    width: float = 1
    radius: float = 0


@dataclass(frozen=True, slots=True)
class Ellipse:
    """An ellipse (a circle in a square box); ``outline`` of ``width`` inside the box."""

    box: Box
    fill: Colour | None = None
    outline: Colour | None = None
    width: float = 1


@dataclass(frozen=True, slots=True)
class Polygon:
    """A filled polygon; ``outline`` of ``width`` along its edges."""

    points: tuple[Point, ...]
    fill: Colour | None = None
    outline: Colour | None = None
    width: float = 1


@dataclass(frozen=True, slots=True)
class Line:
    """A polyline ``width`` wide; ``round`` joins its segments with round corners (a traced loop)."""

    points: tuple[Point, ...]
    colour: Colour
    width: float = 1
    round: bool = False


@dataclass(frozen=True, slots=True)
class Arc:
    """A stroke ``width`` wide centred on the circle of ``radius`` round ``centre``, from angle ``start`` to
    ``end`` (degrees clockwise from 3 o'clock)."""

    centre: Point
    radius: float
    start: float
    end: float
    colour: Colour
    width: float = 1


@dataclass(frozen=True, slots=True)
class Text:
    """One line of text at ``xy``, placed by ``anchor`` as Pillow does (``"la"`` left and ascender, ``"mm"``
    middle and middle, ``"rm"`` right and middle, ``"ls"`` left and baseline...). ``minor``: need not be read
    (exempt from the phone text-size rule)."""

    xy: Point
    text: str
    size: float
    fill: Colour
    anchor: str = "la"
    minor: bool = False


@dataclass(frozen=True, slots=True)
class Use:
    """The scene's symbol ``symbol`` with its origin at ``xy``."""

    symbol: str
    xy: Point


@dataclass(frozen=True, slots=True)
class Group:
    """Items drawn in order; tagged with ``kind`` and ``id`` when they are one element of the board or header
    (written as ``data-kind``/``data-id`` in the SVG), with more ``data`` attributes as (name, value) pairs.
    ``static``: the same in every picture of the game (see the module docstring)."""

    items: tuple[Item, ...]
    kind: str = ""
    id: str = ""
    data: tuple[tuple[str, str], ...] = ()
    static: bool = False


@dataclass(frozen=True, slots=True)
class Symbol:
    """A drawing used many times, around its origin (0, 0), within ``reach`` pixels of it in x and y."""

    reach: float
    items: tuple[Item, ...]


Item = Rect | Ellipse | Polygon | Line | Arc | Text | Use | Group


@dataclass(frozen=True)
class Scene:
    """A picture ``width`` x ``height`` on ``background``: its items, the symbols they use, how many times larger
    the PNG is drawn before it is scaled down, and the colours the PNG keeps exact (see the module docstring)."""

    width: int
    height: int
    background: Colour
    items: tuple[Item, ...]
    symbols: Mapping[str, Symbol] = field(default_factory=dict)
    supersample: int = 1
    exact: tuple[Colour, ...] = ()

    def walk(self) -> Iterator[tuple[Item, tuple[Group, ...]]]:
        """Every item of the scene in drawing order (symbols' insides not included), with the groups it sits in,
        outermost first."""
        yield from _walk(self.items, ())

    def texts(self) -> list[Text]:
        """Every text drawn, in order, those inside symbols once per use."""
        found: list[Text] = []
        for item, _groups in self.walk():
            if isinstance(item, Text):
                found.append(item)
            elif isinstance(item, Use):
                found.extend(t for t, _ in _walk(self.symbols[item.symbol].items, ()) if isinstance(t, Text))
        return found

    def tagged(self, kind: str | None = None) -> list[Group]:
        """The groups tagged with a kind (``kind`` only, if given), in drawing order."""
        return [
            item
            for item, _groups in self.walk()
            if isinstance(item, Group) and item.kind and (kind is None or item.kind == kind)
        ]


def _walk(items: tuple[Item, ...], groups: tuple[Group, ...]) -> Iterator[tuple[Item, tuple[Group, ...]]]:
    for item in items:
        yield item, groups
        if isinstance(item, Group):
            yield from _walk(item.items, (*groups, item))


def group_texts(group: Group) -> list[str]:
    """The texts inside ``group``, in drawing order."""
    return [item.text for item, _ in _walk(group.items, ()) if isinstance(item, Text)]
