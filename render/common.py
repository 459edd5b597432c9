"""What every board picture shares: fonts, a palette readable on Discord's dark and light themes, PNG output.

Boards are drawn on their own opaque panel (never a transparent background), so the same image reads well on
both themes; player colours are chosen to differ in lightness as well as hue, for colour-blind players.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from render.palette import png_bytes

#: panel around the board, and its text
BACKGROUND = (38, 41, 48)
FOREGROUND = (232, 232, 236)
MUTED = (150, 155, 165)
HIGHLIGHT = (255, 196, 0)
#: a player's clock note with under a day left is drawn as dark text on a pill of this orange: readable at a glance
#: on the panel, and at least Delta E 28 from the panel, the texts, the highlight and every player colour under
#: deuteranopia, protanopia and tritanopia too (tests/test_render_clock.py; the orange of before fell to 22 from
#: the highlight under tritanopia); the pill's shape is a cue besides its colour
CLOCK_LOW = (252, 142, 76)
#: per seat: fill and outline; light/dark pairs first so two-player games differ in lightness too. The fourth seat
#: is violet: not green (red and green fall together for the common red-green colour blindnesses), nor teal (blue
#: and teal fall together under tritanopia); every pair here stays 30 or more apart (CIE Lab) when deuteranopia,
#: protanopia and tritanopia are simulated (tests/test_colour_vision.py).
PLAYER_COLOURS: tuple[tuple[tuple[int, int, int], tuple[int, int, int]], ...] = (
    ((236, 236, 228), (70, 70, 70)),  # ivory
    ((196, 52, 52), (90, 16, 16)),  # red
    ((64, 120, 214), (20, 44, 96)),  # blue
    ((140, 0, 252), (52, 0, 100)),  # violet
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


#: a seat's clock note as the caller formatted it ("6d 23h left", "7d per move", "paused (vacation)")
Clock = Mapping[int, str]

#: what follows a seat's name, as the caller formatted it: the player's rating ("1532", "1000?") or "unrated"
Ratings = Mapping[int, str]


def rating_label(ratings: Ratings | None, seat: int) -> str:
    """What follows ``seat``'s name in a header: `` (1532)``, or "" (no rating given for the seat)."""
    text = " ".join(str((ratings or {}).get(seat) or "").split())
    return f" ({text})" if text else ""


#: a leading value in days (or weeks): "6d 23h left", "2 days left", "1w left"
_DAYS = re.compile(r"^\s*(\d+)\s*(d|days?|w|wks?|weeks?)\b", re.IGNORECASE)


def clock_note(clock: Clock | None, seat: int) -> str:
    """``seat``'s note in ``clock`` with spaces collapsed, or "" (no clock, no note for the seat)."""
    return " ".join(str((clock or {}).get(seat) or "").split())


def clock_is_low(note: str) -> bool:
    """Whether ``note`` says the player is short on time: it ends in "left" and its leading value is not in days
    ("23h 10m left", "12m left", "less than a minute left"; not "6d 23h left", "0d" excepted, nor "7d per move")."""
    text = note.strip().lower()
    if not text.endswith("left"):
        return False
    days = _DAYS.match(text)
    return days is None or (int(days.group(1)) == 0 and days.group(2).startswith("d"))


def note_pad(size: int) -> int:
    """How far a low-time note's pill reaches beyond its text on either side."""
    return max(3, round(size * 0.4))


def note_icon(size: int) -> tuple[int, int]:
    """A note's clock face: its diameter and the gap after it, at text ``size``."""
    return round(size * 0.75), round(size * 0.32)


def _lines(note: str | Sequence[str]) -> list[str]:
    return [note] if isinstance(note, str) else list(note)


def note_width(note: str | Sequence[str], size: int, low: bool | None = None) -> int:
    """Drawn width of a clock note at ``size`` (a string, or the lines of a wrapped note): its clock face, its
    widest line, and its pill when it is ``low`` (by default: when :func:`clock_is_low` says so)."""
    lines = _lines(note)
    low = clock_is_low(" ".join(lines)) if low is None else low
    width = max(round(font(size).getlength(line)) for line in lines) + sum(note_icon(size))
    return width + 2 * note_pad(size) if low else width


def note_lines(note: str, size: int, room: float) -> list[str]:
    """``note`` as one line, or wrapped between words (never cut) where it is wider than ``room`` pixels."""
    if note_width(note, size) <= room:
        return [note]
    return wrap_text(note, size, room - sum(note_icon(size)) - 2 * note_pad(size))


def draw_note(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    note: str | Sequence[str],
    size: int,
    fill: tuple[int, int, int],
    anchor: str = "lm",
    pitch: float = 0,
) -> None:
    """A clock note (a string, or the lines of a wrapped note ``pitch`` apart), with its left (``anchor`` "lm")
    or right ("rm") end and the middle of its first line at ``xy``, led by a small clock face so that it reads as
    time at a glance: in ``fill``, or when low on time (:func:`clock_is_low`) in dark ink on a CLOCK_LOW pill,
    which catches the eye on a phone where a colour alone may not."""
    lines = _lines(note)
    low = clock_is_low(" ".join(lines))
    pitch = pitch or round(size * 1.25)
    x, y = xy
    left = x if anchor[0] == "l" else x - note_width(lines, size)
    if low:
        half = round(size * 0.62)
        box = (left, y - half, left + note_width(lines, size), y + half + pitch * (len(lines) - 1))
        draw.rounded_rectangle(box, radius=half * 0.6, fill=CLOCK_LOW)
        fill = ink_on(CLOCK_LOW)
        left += note_pad(size)
    diameter, gap = note_icon(size)
    r = diameter / 2
    cx, cy = left + r, y
    stroke = max(1, round(size / 10))
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=fill, width=stroke)
    draw.line([(cx, cy - r * 0.62), (cx, cy), (cx + r * 0.5, cy)], fill=fill, width=stroke)
    for k, line in enumerate(lines):
        draw.text((left + diameter + gap, y + k * pitch), line, font=font(size), fill=fill, anchor="lm")


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font at ``size`` pixels (no system font needed)."""
    return ImageFont.load_default(size=size)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int],
    anchor: str | None = None,
) -> None:
    """``draw.text(xy, text, font=font(size), fill=fill, anchor=anchor)``, the same pixels, with the line's glyphs
    rendered once per text, size, anchor and sub-pixel start: headers, titles and seat lines repeat from picture to
    picture (and from frame to frame of a replay). Multi-line text, and pictures ImageDraw renders text into
    differently (palette, bilevel), go to ``draw.text``."""
    if "\n" in text or draw.palette is not None or draw.fontmode != "L":
        draw.text(xy, text, font=font(size), fill=fill, anchor=anchor)
        return
    x, y = xy
    mask, (dx, dy) = _glyphs(text, size, anchor or "la", math.modf(x)[0], math.modf(y)[0])
    draw.draw.draw_bitmap((int(x) + dx, int(y) + dy), mask, draw.draw.draw_ink(fill))


@lru_cache(maxsize=2048)
def _glyphs(text: str, size: int, anchor: str, start_x: float, start_y: float) -> tuple[object, tuple[int, int]]:
    """What ImageDraw.text renders for one line of ``text``: its 8-bit mask and the mask's offset."""
    face = font(size)
    assert isinstance(face, ImageFont.FreeTypeFont)
    return face.getmask2(text, "L", None, None, None, 0, anchor, 0, (start_x, start_y), stroke_filled=True)


def to_png(image: Image.Image, exact: Sequence[tuple[int, int, int]] = ()) -> bytes:
    """Encode as a palette PNG (boards have few colours, so files stay small). The player colours, fills and
    outlines, and any ``exact`` colours a renderer names keep their exact RGB (see render.palette)."""
    return png_bytes(image, [*(colour for pair in PLAYER_COLOURS for colour in pair), *exact])
