"""What every board picture shares: fonts, a palette readable on Discord's dark and light themes, PNG output.

Boards are drawn on their own opaque panel (never a transparent background), so the same image reads well on
both themes; player colours are chosen to differ in lightness as well as hue, for colour-blind players.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from render.palette import png_bytes

#: panel around the board, and its text
BACKGROUND = (38, 41, 48)
FOREGROUND = (232, 232, 236)
MUTED = (150, 155, 165)
HIGHLIGHT = (255, 196, 0)
#: per seat: fill and outline; light/dark pairs first so two-player games differ in lightness too. The fourth seat
#: is teal, not green: red and green fall together for the common red-green colour blindnesses, and every pair
#: here stays far apart (CIE Lab) when deuteranopia and protanopia are simulated (tests/test_colour_vision.py).
PLAYER_COLOURS: tuple[tuple[tuple[int, int, int], tuple[int, int, int]], ...] = (
    ((236, 236, 228), (70, 70, 70)),  # ivory
    ((196, 52, 52), (90, 16, 16)),  # red
    ((64, 120, 214), (20, 44, 96)),  # blue
    ((20, 150, 170), (6, 60, 70)),  # teal
)


def ink_on(fill: tuple[int, int, int]) -> tuple[int, int, int]:
    """Near-black or near-white, whichever reads better on ``fill`` (by its luma)."""
    r, g, b = fill
    return (20, 20, 20) if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (250, 250, 250)


def seat_chip(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], seat: int, letter: str) -> None:
    """A player's colour square carrying the player's letter, so the legend never rests on colour alone."""
    fill, outline = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
    draw.rectangle(box, fill=fill, outline=outline, width=2)
    mask = _letter_mask(letter, max(9, round((box[3] - box[1]) * 0.72)))
    x = round((box[0] + box[2] - mask.width) / 2)
    y = round((box[1] + box[3] - mask.height) / 2)
    draw.bitmap((x, y), mask, fill=ink_on(fill))


@lru_cache(maxsize=64)
def _letter_mask(letter: str, size: int) -> Image.Image:
    """A chip's letter as a mask cropped to its ink, rendered once (every picture draws the same few)."""
    face = font(size)
    left, top, right, bottom = face.getbbox(letter, anchor="mm")
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), letter, font=face, fill=255, anchor="mm")
    return mask


def wrap_text(text: str, size: int, room: float) -> list[str]:
    """``text`` broken between words into lines at most ``room`` pixels wide at ``size`` (a single word wider
    than the room keeps a line of its own), so a header or footer line is never cut off."""
    face = font(size)
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if line and face.getlength(candidate) > room:
            lines.append(line)
            candidate = word
        line = candidate
    lines.append(line)
    return lines


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font at ``size`` pixels (no system font needed)."""
    return ImageFont.load_default(size=size)


def text_size(draw: ImageDraw.ImageDraw, text: str, size: int) -> tuple[int, int]:
    """Width and height of ``text`` drawn at ``size``."""
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font(size))
    return right - left, bottom - top


def centred_text(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: tuple[int, ...]
) -> None:
    """Draw ``text`` centred on ``xy``."""
    draw.text(xy, text, font=font(size), fill=fill, anchor="mm")


def to_png(image: Image.Image, exact: Sequence[tuple[int, int, int]] = ()) -> bytes:
    """Encode as a palette PNG (boards have few colours, so files stay small). The player colours, fills and
    outlines, and any ``exact`` colours a renderer names keep their exact RGB (see render.palette)."""
    return png_bytes(image, [*(colour for pair in PLAYER_COLOURS for colour in pair), *exact])
