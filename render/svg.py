"""The SVG backend: a :class:`render.scene.Scene` as plain SVG text, for the web page, which makes every tagged
group (``<g data-kind="point" data-id="13">``) tappable.

The SVG stands alone: no external reference of any kind (no font, image or stylesheet fetched, no link). Its
viewBox is the picture's size, so its coordinates are the PNG's pixels. Text names the font the PNG is drawn in,
Pillow's bundled Aileron, then DejaVu Sans and the reader's sans-serif where Aileron is not installed; so that a
text takes the room it takes in the PNG whatever font shows it, each is given its PNG width (``textLength``, the
glyphs fitted to it) and its baseline where the PNG's anchor puts it (measured with the PNG's font, not left to
the reader's ``dominant-baseline``). Symbols are written once in ``<defs>`` and placed with ``<use>``. Every text
and attribute value is escaped.

For screen readers, every place a player can point at is an image with a name read from the scene's tags alone (the
PNG does not change): a Druid or Drogo cell ``D4, height 3, alice's`` (or ``D4, empty``), a druid ``alice's druid
on J1``, a Backgammon point ``point 13, 5 X checkers``, the bar and the trays with their checkers, a Dragons open
position ``position 3`` and a tile of the legend ``tile h``. The owner's name comes from the header's seats.
"""

from __future__ import annotations

import math
import re
from xml.sax.saxutils import escape, quoteattr

from render.common import font
from render.scene import Arc, Box, Colour, Ellipse, Group, Item, Line, Polygon, Rect, Scene, Text

FONT_FAMILY = "Aileron, 'DejaVu Sans', sans-serif"
ALIGNS = {"l": "start", "m": "middle", "r": "end"}
#: characters XML 1.0 does not allow, dropped from texts
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


#: what a place's name says: the facts of the scene it needs (seat -> player, checkers by point ...)
Facts = dict[tuple[str, str], dict[str, str]]


def svg(scene: Scene) -> str:
    """The scene as an SVG document."""
    w, h = scene.width, scene.height
    facts = _facts(scene)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        f"font-family={quoteattr(FONT_FAMILY)}>",
        f'<rect x="0" y="0" width="{w}" height="{h}" fill="{_colour(scene.background)}"/>',
    ]
    if scene.symbols:
        parts.append("<defs>")
        for name, symbol in scene.symbols.items():
            parts.append(f"<g id={quoteattr(symbol_id(name))}>")
            parts.extend(_items(symbol.items, scene.supersample, {}))
            parts.append("</g>")
        parts.append("</defs>")
    parts.extend(_items(scene.items, scene.supersample, facts))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def symbol_id(name: str) -> str:
    """The element id of a symbol: ``sym-`` and its name, with anything but letters, digits, ``-`` and ``_``
    replaced."""
    return "sym-" + re.sub(r"[^A-Za-z0-9_-]", "_", name)


def _facts(scene: Scene) -> Facts:
    """The tagged groups' data by (kind, id): the names of places are read from it."""
    return {(group.kind, group.id): dict(group.data) for group in scene.tagged()}


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _checkers(facts: Facts, kind: str, ident: str) -> str:
    """``5 X checkers`` on a point (the bar, a tray), or ``empty``."""
    found = facts.get((kind, ident))
    if not found or not found.get("count", "").isdigit():
        return "empty"
    return _plural(int(found["count"]), f"{found.get('colour', ident)} checker")


def place_label(kind: str, ident: str, data: dict[str, str], facts: Facts) -> str | None:
    """A screen reader's name of a place a player can point at (``None``: not such a place)."""

    def player(seat: str) -> str:
        return facts.get(("seat", seat), {}).get("player") or f"seat {seat}"

    if kind == "cell":
        height, owner = data.get("height", "0"), data.get("owner", "")
        if height in ("", "0") or owner == "":
            return f"{ident.upper()}, empty"
        return f"{ident.upper()}, height {height}, {player(owner)}'s"
    if kind == "druid":
        return f"{player(ident)}'s druid on {data.get('cell', '').upper()}"
    if kind == "point":
        return f"point {ident}, {_checkers(facts, 'checkers', ident)}"
    if kind == "bar" and ident:
        return f"the bar, {_checkers(facts, 'bar', ident)}"
    if kind == "tray":
        off = facts.get(("off", ident), {}).get("count", "0")
        return f"{ident}'s tray, {_plural(int(off) if off.isdigit() else 0, 'checker')} borne off"
    if kind == "spot":
        return f"position {ident}"
    if kind == "gap":
        return f"the gap at {ident}"
    if kind == "letter":
        return f"tile {ident}"
    return None


def _items(items: tuple[Item, ...], scale: int, facts: Facts) -> list[str]:
    out: list[str] = []
    for item in items:
        out.extend(_item(item, scale, facts))
    return out


def _item(item: Item, scale: int, facts: Facts) -> list[str]:
    if isinstance(item, Group):
        if not item.items and not item.kind:
            return []
        attributes = ""
        if item.kind:
            attributes += f" data-kind={quoteattr(item.kind)}"
        if item.id:
            attributes += f" data-id={quoteattr(item.id)}"
        for name, value in item.data:
            attributes += f" data-{re.sub(r'[^a-z0-9-]', '-', name.lower())}={quoteattr(value)}"
        label = place_label(item.kind, item.id, dict(item.data), facts) if facts else None
        if label is not None:
            attributes += f' role="img" aria-label={quoteattr(label)}'
        return [f"<g{attributes}>", *_items(item.items, scale, facts), "</g>"]
    if isinstance(item, Rect):
        return [_rect(item, scale)]
    if isinstance(item, Ellipse):
        return [_ellipse(item, scale)]
    if isinstance(item, Polygon):
        points = " ".join(f"{_n(x)},{_n(y)}" for x, y in item.points)
        return [f'<polygon points="{points}"{_paint(item.fill, item.outline, item.width)}/>']
    if isinstance(item, Line):
        points = " ".join(f"{_n(x)},{_n(y)}" for x, y in item.points)
        join = "round" if item.round else "miter"
        return [
            f'<polyline points="{points}" fill="none" stroke="{_colour(item.colour)}" '
            f'stroke-width="{_n(item.width)}" stroke-linejoin="{join}"/>'
        ]
    if isinstance(item, Arc):
        return [_arc(item)]
    if isinstance(item, Text):
        return [_text(item, scale)]
    return [f'<use href="#{symbol_id(item.symbol)}" x="{_n(item.xy[0])}" y="{_n(item.xy[1])}"/>']


def _outer(box: Box, scale: int) -> Box:
    """A Pillow box (right and bottom pixels included, at ``scale``) as continuous coordinates."""
    return (box[0], box[1], box[2] + 1 / scale, box[3] + 1 / scale)


def _rect(rect: Rect, scale: int) -> str:
    left, top, right, bottom = _outer(rect.box, scale)
    inset = rect.width / 2 if rect.outline is not None else 0
    radius = f' rx="{_n(max(0.0, rect.radius - inset))}"' if rect.radius else ""
    return (
        f'<rect x="{_n(left + inset)}" y="{_n(top + inset)}" width="{_n(right - left - 2 * inset)}" '
        f'height="{_n(bottom - top - 2 * inset)}"{radius}{_paint(rect.fill, rect.outline, rect.width)}/>'
    )


def _ellipse(ellipse: Ellipse, scale: int) -> str:
    left, top, right, bottom = _outer(ellipse.box, scale)
    inset = ellipse.width / 2 if ellipse.outline is not None else 0
    rx, ry = (right - left) / 2 - inset, (bottom - top) / 2 - inset
    centre = f'cx="{_n((left + right) / 2)}" cy="{_n((top + bottom) / 2)}"'
    return f'<ellipse {centre} rx="{_n(rx)}" ry="{_n(ry)}"{_paint(ellipse.fill, ellipse.outline, ellipse.width)}/>'


def _arc(arc: Arc) -> str:
    """An open path along the arc; a sweep of 360 degrees or more as two half circles."""
    x, y = arc.centre
    r = arc.radius
    sweep = (arc.end - arc.start) % 360 or (360 if arc.end != arc.start else 0)

    def at(angle: float) -> str:
        return f"{_n(x + r * math.cos(math.radians(angle)))} {_n(y + r * math.sin(math.radians(angle)))}"

    if sweep >= 360:
        path = (
            f"M {at(arc.start)} A {_n(r)} {_n(r)} 0 1 1 {at(arc.start + 180)} A {_n(r)} {_n(r)} 0 1 1 {at(arc.start)}"
        )
    else:
        path = f"M {at(arc.start)} A {_n(r)} {_n(r)} 0 {int(sweep > 180)} 1 {at(arc.start + sweep)}"
    return f'<path d="{path}" fill="none" stroke="{_colour(arc.colour)}" stroke-width="{_n(arc.width)}"/>'


def _text(text: Text, scale: int) -> str:
    """A text as the PNG draws it: at ``scale`` times its size in the font the PNG uses, then scaled down, its
    width fitted to that and its baseline placed by Pillow's vertical anchor (ascender, middle, baseline,
    descender)."""
    anchor = text.anchor or "la"
    face = font(round(text.size * scale))
    ascent, descent = face.getmetrics()
    shift = {"a": ascent, "t": ascent, "m": (ascent - descent) / 2, "s": 0, "d": -descent}[anchor[1]] / scale
    words = _NOT_XML.sub("", text.text)
    width = face.getlength(words) / scale
    attributes = (
        f'x="{_n(text.xy[0])}" y="{_n(text.xy[1] + shift)}" font-size="{_n(text.size)}" fill="{_colour(text.fill)}" '
        f'text-anchor="{ALIGNS[anchor[0]]}" textLength="{_n(width)}" lengthAdjust="spacingAndGlyphs"'
    )
    return f"<text {attributes}>{escape(words)}</text>"


def _paint(fill: Colour | None, outline: Colour | None, width: float) -> str:
    paint = f' fill="{_colour(fill)}"' if fill is not None else ' fill="none"'
    if outline is not None:
        paint += f' stroke="{_colour(outline)}" stroke-width="{_n(width)}"'
    return paint


def _colour(colour: Colour) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _n(value: float) -> str:
    """A coordinate written short: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
