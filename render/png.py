"""The PNG backend: a :class:`render.scene.Scene` drawn with Pillow, then encoded by render.palette.

Shapes are drawn with ImageDraw as the renderers drew them before scenes (no anti-aliasing of their own; a scene
with ``supersample`` 2 is drawn at twice the size and scaled down, which smooths its curves). Text goes through
render.common.draw_text's cache of rasterised glyphs. What repeats is drawn once and copied:

- the leading ``static`` groups of a scene, on the background: kept per picture size and content (the groups
  themselves are the key, so a change in them can never show a stale picture);
- symbols: each rasterised once per content and scale onto a clear square, then pasted through a one-bit mask of
  its pixels (Pillow's shapes are opaque or clear, so this is the same picture as blending it, at a fraction of
  the time), and a single-colour symbol (an outline) as its colour through that mask.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Mapping

from PIL import Image, ImageDraw

from render.common import draw_text, to_png
from render.scene import Arc, Colour, Ellipse, Group, Item, Line, Polygon, Rect, Scene, Symbol, Text, Use

#: how many static bases and symbol sprites are kept (a few games' worth of sizes)
BASES = 8
SPRITES = 256

#: a rasterised symbol: its pixels (or None for one colour), that colour, its mask, and its half size
Sprite = tuple[Image.Image | None, Colour | None, Image.Image, int]

_bases: OrderedDict[tuple[object, ...], Image.Image] = OrderedDict()
_sprites: OrderedDict[tuple[object, ...], Sprite] = OrderedDict()


def png(scene: Scene) -> bytes:
    """The scene as PNG bytes (a palette PNG; ``scene.exact`` colours kept to the unit)."""
    return to_png(raster(scene), scene.exact)


def raster(scene: Scene) -> Image.Image:
    """The scene as an RGB image of its size."""
    scale = scene.supersample
    statics = _leading_statics(scene.items)
    image = _base(scene, statics).copy() if statics else _blank(scene)
    draw = ImageDraw.Draw(image)
    painter = _Painter(image, draw, scale, scene.symbols)
    for item in scene.items[len(statics) :]:
        painter.item(item)
    return image.reduce(scale) if scale > 1 else image


def _leading_statics(items: tuple[Item, ...]) -> tuple[Group, ...]:
    count = 0
    for item in items:
        if not (isinstance(item, Group) and item.static):
            break
        count += 1
    return items[:count]  # type: ignore[return-value]


def _base(scene: Scene, statics: tuple[Group, ...]) -> Image.Image:
    """The background with the static groups drawn on it, at drawing size: made once per size and content."""
    key = (scene.width, scene.height, scene.supersample, scene.background, statics, _symbols_used(scene, statics))
    found = _bases.get(key)
    if found is not None:
        _bases.move_to_end(key)
        return found
    image = _blank(scene)
    painter = _Painter(image, ImageDraw.Draw(image), scene.supersample, scene.symbols)
    for group in statics:
        painter.item(group)
    _bases[key] = image
    if len(_bases) > BASES:
        _bases.popitem(last=False)
    return image


def _blank(scene: Scene) -> Image.Image:
    """The background alone, at drawing size."""
    scale = scene.supersample
    return Image.new("RGB", (scene.width * scale, scene.height * scale), scene.background)


def _symbols_used(scene: Scene, statics: tuple[Group, ...]) -> tuple[tuple[str, Symbol], ...]:
    """The symbols the static groups use, with their content: part of the base's key."""
    if not statics:
        return ()
    names = sorted({item.symbol for group in statics for item in _uses(group)})
    return tuple((name, scene.symbols[name]) for name in names)


def _uses(group: Group) -> list[Use]:
    found: list[Use] = []
    for item in group.items:
        if isinstance(item, Use):
            found.append(item)
        elif isinstance(item, Group):
            found.extend(_uses(item))
    return found


class _Painter:
    """Draws items onto one image at ``scale`` times their coordinates, ``offset`` (drawing pixels) added."""

    def __init__(
        self,
        image: Image.Image,
        draw: ImageDraw.ImageDraw,
        scale: int,
        symbols: Mapping[str, Symbol],
        offset: float = 0.0,
    ) -> None:
        self.image, self.draw, self.scale, self.symbols, self.offset = image, draw, scale, symbols, offset
        self.sprites: dict[str, Sprite] = {}

    def xy(self, point: tuple[float, float]) -> tuple[float, float]:
        s, o = self.scale, self.offset
        return (point[0] * s + o, point[1] * s + o)

    def box(self, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        s, o = self.scale, self.offset
        return (box[0] * s + o, box[1] * s + o, box[2] * s + o, box[3] * s + o)

    def width(self, width: float) -> int:
        return max(1, round(width * self.scale))

    def item(self, item: object) -> None:
        _KINDS[type(item)](self, item)

    def group(self, group: Group) -> None:
        for item in group.items:
            _KINDS[type(item)](self, item)

    def rect(self, rect: Rect) -> None:
        box = self.box(rect.box)
        width = self.width(rect.width) if rect.outline is not None else 0
        if rect.radius:
            self.draw.rounded_rectangle(
                box, radius=rect.radius * self.scale, fill=rect.fill, outline=rect.outline, width=width
            )
        else:
            self.draw.rectangle(box, fill=rect.fill, outline=rect.outline, width=width)

    def ellipse(self, ellipse: Ellipse) -> None:
        width = self.width(ellipse.width) if ellipse.outline is not None else 0
        self.draw.ellipse(self.box(ellipse.box), fill=ellipse.fill, outline=ellipse.outline, width=width)

    def polygon(self, polygon: Polygon) -> None:
        width = self.width(polygon.width) if polygon.outline is not None else 0
        points = [self.xy(p) for p in polygon.points]
        self.draw.polygon(points, fill=polygon.fill, outline=polygon.outline, width=width)

    def line(self, line: Line) -> None:
        points = [self.xy(p) for p in line.points]
        self.draw.line(points, fill=line.colour, width=self.width(line.width), joint="curve" if line.round else None)

    def arc(self, arc: Arc) -> None:
        x, y = arc.centre
        outer = arc.radius + arc.width / 2
        box = self.box((x - outer, y - outer, x + outer, y + outer))
        self.draw.arc(box, arc.start, arc.end, fill=arc.colour, width=self.width(arc.width))

    def text(self, text: Text) -> None:
        x, y = self.xy(text.xy)
        draw_text(self.draw, (round(x), round(y)), text.text, round(text.size * self.scale), text.fill, text.anchor)

    def use(self, use: Use) -> None:
        sprite = self.sprites.get(use.symbol)
        if sprite is None:
            sprite = self.sprites[use.symbol] = _sprite(self.symbols[use.symbol], self.scale)
        pixels, colour, mask, half = sprite
        x, y = self.xy(use.xy)
        corner = (round(x) - half, round(y) - half)
        self.image.paste(colour if pixels is None else pixels, corner, mask)  # type: ignore[arg-type]


_KINDS: dict[type, Callable[[_Painter, object], None]] = {
    Group: _Painter.group,  # type: ignore[dict-item]
    Rect: _Painter.rect,  # type: ignore[dict-item]
    Ellipse: _Painter.ellipse,  # type: ignore[dict-item]
    Polygon: _Painter.polygon,  # type: ignore[dict-item]
    Line: _Painter.line,  # type: ignore[dict-item]
    Arc: _Painter.arc,  # type: ignore[dict-item]
    Text: _Painter.text,  # type: ignore[dict-item]
    Use: _Painter.use,  # type: ignore[dict-item]
}


def symbol_image(symbol: Symbol, scale: int) -> Image.Image:
    """``symbol`` drawn at ``scale`` on a clear RGBA square, its origin at the middle pixel."""
    half = math.ceil(symbol.reach * scale)
    canvas = Image.new("RGBA", (2 * half + 1, 2 * half + 1), (0, 0, 0, 0))
    painter = _Painter(canvas, ImageDraw.Draw(canvas), scale, {}, offset=half)
    for item in symbol.items:
        painter.item(item)
    return canvas


def _sprite(symbol: Symbol, scale: int) -> Sprite:
    """``symbol`` rasterised at ``scale`` on a clear square centred on its origin, kept by content and scale."""
    key = (symbol, scale)
    found = _sprites.get(key)
    if found is not None:
        _sprites.move_to_end(key)
        return found
    canvas = symbol_image(symbol, scale)
    half = canvas.width // 2
    alpha = canvas.getchannel("A")
    if set(alpha.histogram()[1:255]) != {0}:  # anti-aliased text: blended through its alpha
        sprite: Sprite = (canvas.convert("RGB"), None, alpha, half)
    elif len(colours := {rgba[:3] for _count, rgba in canvas.getcolors(1 << 16) or () if rgba[3] == 255}) == 1:
        mask = alpha.convert("1", dither=Image.Dither.NONE)
        sprite = (None, next(iter(colours)), mask, half)
    else:
        sprite = (canvas.convert("RGB"), None, alpha.convert("1", dither=Image.Dither.NONE), half)
    _sprites[key] = sprite
    if len(_sprites) > SPRITES:
        _sprites.popitem(last=False)
    return sprite
