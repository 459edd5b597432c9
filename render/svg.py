"""The SVG backend: a :class:`render.scene.Scene` as plain SVG text, for the web page, which makes every tagged
group (``<g data-kind="point" data-id="13">``) tappable.

The SVG stands alone: no external reference of any kind (no font, image or stylesheet fetched, no link). Its
viewBox is the picture's size, so its coordinates are the PNG's pixels. Text names the font the PNG is drawn in,
Pillow's bundled Aileron, then DejaVu Sans and the reader's sans-serif where Aileron is not installed; so that a
text takes the room it takes in the PNG whatever font shows it, each is given its PNG width (``textLength``, the
glyphs fitted to it) and its baseline where the PNG's anchor puts it (measured with the PNG's font, not left to
the reader's ``dominant-baseline``). Symbols are written once in ``<defs>`` and placed with ``<use>``. Every text
and attribute value is escaped.
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


def svg(scene: Scene) -> str:
    """The scene as an SVG document."""
    w, h = scene.width, scene.height
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        f"font-family={quoteattr(FONT_FAMILY)}>",
        f'<rect x="0" y="0" width="{w}" height="{h}" fill="{_colour(scene.background)}"/>',
    ]
    if scene.symbols:
        parts.append("<defs>")
        for name, symbol in scene.symbols.items():
            parts.append(f"<g id={quoteattr(symbol_id(name))}>")
            parts.extend(_items(symbol.items, scene.supersample))
            parts.append("</g>")
        parts.append("</defs>")
    parts.extend(_items(scene.items, scene.supersample))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def symbol_id(name: str) -> str:
    """The element id of a symbol: ``sym-`` and its name, with anything but letters, digits, ``-`` and ``_``
    replaced."""
    return "sym-" + re.sub(r"[^A-Za-z0-9_-]", "_", name)


def _items(items: tuple[Item, ...], scale: int) -> list[str]:
    out: list[str] = []
    for item in items:
        out.extend(_item(item, scale))
    return out


def _item(item: Item, scale: int) -> list[str]:
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
        return [f"<g{attributes}>", *_items(item.items, scale), "</g>"]
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
