"""Fast palette encoding for board pictures (PNG here, GIF frames in render.replay).

A board has a few hundred flat colours plus the shades text and smoothed curves leave between them. Pillow's
median-cut quantiser was most of every render's time; this picks the palette directly instead: the colours that
must stay exact (the player colours) first, then the most common colour of every 16x16x16 cube of the RGB space
that occurs, most frequent first, up to 256. Pillow's fast nearest-colour mapping then assigns each pixel.

That mapping looks colours up in a cache of 4x4x4 cubes, so a colour may land on a palette entry a few units away
when another entry is close. The exact colours are therefore kept apart from every other entry by ``SEPARATION``
(more than twice a cache cube's diagonal): their pixels map to themselves, which tests check pixel by pixel.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable, Sequence

from PIL import Image
from zlib_ng import zlib_ng

Colour = tuple[int, int, int]

#: no other palette entry nearer than this (RGB distance) to a colour that must stay exact
SEPARATION = 12
#: one palette entry per cube of 2**CELL_BITS units a side
CELL_BITS = 4
#: count colours exactly up to this many distinct ones (boards have about a thousand); beyond, summarise
MAX_DISTINCT = 1 << 14


def palette_for(
    images: Iterable[Image.Image], exact: Sequence[Colour] = (), limit: int = 256, also: Sequence[Colour] = ()
) -> list[Colour]:
    """Up to ``limit`` colours for ``images`` (RGB): the ``exact`` ones first (those present), then ``also``
    (colours that may be missing from the images given, such as a replay's sampled frames), then the images'
    own colours, most frequent first."""
    counts: dict[Colour, int] = {}
    approximate = False
    for image in images:
        colours = image.getcolors(MAX_DISTINCT)
        if colours is None:  # not a board (a photo?): Pillow's octree summarises it, weighted by pixel count
            approximate = True
            octree = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
            colours = octree.convert("RGB").getcolors(256)
        for count, colour in colours:
            counts[colour] = counts.get(colour, 0) + count
    kept = list(dict.fromkeys(colour for colour in exact if approximate or colour in counts))
    chosen = list(kept)
    cells = {(r >> CELL_BITS, g >> CELL_BITS, b >> CELL_BITS) for r, g, b in kept}
    #: the cells a colour nearer than SEPARATION to a kept one can lie in (within one cell on every channel): only
    #: colours there need their distances measured
    near = {
        (r + dr, g + dg, b + db) for r, g, b in cells for dr in (-1, 0, 1) for dg in (-1, 0, 1) for db in (-1, 0, 1)
    }
    limit = SEPARATION * SEPARATION
    for colour in (*also, *sorted(counts, key=counts.__getitem__, reverse=True)):
        if len(chosen) >= limit:
            break
        r, g, b = colour
        cell = (r >> CELL_BITS, g >> CELL_BITS, b >> CELL_BITS)
        if cell in cells:
            continue
        cells.add(cell)
        if cell in near and any((r - kr) ** 2 + (g - kg) ** 2 + (b - kb) ** 2 < limit for kr, kg, kb in kept):
            continue
        chosen.append(colour)
    return chosen


def palette_image(colours: Sequence[Colour]) -> Image.Image:
    """A 1x1 "P" image carrying ``colours``: what :meth:`Image.quantize` takes as a palette."""
    carrier = Image.new("P", (1, 1))
    carrier.putpalette([channel for colour in colours for channel in colour])
    return carrier


def to_palette(image: Image.Image, palette: Image.Image) -> Image.Image:
    """``image`` mapped onto ``palette`` (nearest colour, no dithering: boards are flat colours)."""
    return _rgb(image).quantize(palette=palette, dither=Image.Dither.NONE)


def _rgb(image: Image.Image) -> Image.Image:
    """``image`` in RGB: itself when it already is (Pillow's ``convert`` to the same mode copies the picture)."""
    return image if image.mode == "RGB" else image.convert("RGB")


def quantised(image: Image.Image, exact: Sequence[Colour] = ()) -> Image.Image:
    """``image`` as a palette image, ``exact`` colours kept exactly."""
    rgb = _rgb(image)
    return to_palette(rgb, palette_image(palette_for([rgb], exact)))


def png_bytes(image: Image.Image, exact: Sequence[Colour] = ()) -> bytes:
    """PNG bytes of ``image`` through :func:`quantised`, deflated by zlib-ng at level 6: as small as zlib's level 6
    (what Pillow's writer uses) at under half its time."""
    return encode_png(quantised(image, exact))


def encode_png(image: Image.Image) -> bytes:
    """Write a "P" image as an 8-bit palette PNG: IHDR, PLTE, one IDAT, IEND; every row unfiltered (filters do
    not help palette images)."""
    width, height = image.size
    palette = bytes(image.getpalette("RGB") or [])  # as many entries as the palette it was mapped onto
    rows = _indices(_filtered(image))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (PNG_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", palette), _chunk(b"IDAT", zlib_ng.compress(rows, 6)))
    ) + _chunk(b"IEND", b"")


def _filtered(image: Image.Image) -> Image.Image:
    """``image``'s indices with a zero byte before each row (PNG's "no filter" marker), as a one-wider image:
    the rows PNG deflates, made in C rather than a Python step per row."""
    width, height = image.size
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(image, (1, 0))  # a palette image pasted on one copies its indices as they are
    return rows


def _indices(image: Image.Image) -> bytes:
    """``image.tobytes()`` (a "P" image's palette indices, row after row) through the same raw encoder, without
    the import of PIL.ImageFile that ``tobytes`` makes to read one buffer size: that import brings logging and
    threading along, a twentieth of a console move (``pbm do``), for a constant."""
    image.load()
    encoder = Image._getencoder(image.mode, "raw", image.mode)
    parts = []
    try:
        encoder.setimage(image.im, (0, 0, *image.size))
        while True:
            _, status, data = encoder.encode(max(_BLOCK, image.width * 4))
            parts.append(data)
            if status:
                break
    finally:
        encoder.cleanup()
    if status < 0:
        raise RuntimeError(f"encoder error {status} reading the picture's pixels")
    return b"".join(parts)


#: bytes the raw encoder hands back at a time (PIL.ImageFile.MAXBLOCK, what ``tobytes`` uses)
_BLOCK = 65536
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
