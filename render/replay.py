"""An animated GIF replay of a game: one frame per move, each drawn by that game's board renderer with the move
named in a caption strip below the board, the last frame held longer.

Frames share one palette (picked once from a sample of the frames by render.palette, player colours exact), so
each frame is only mapped onto it, and Pillow's GIF writer stores each frame as the rectangle that changed. A GIF
over ``max_bytes`` (Discord's upload limit) drops frames evenly, first and last kept, and only if two frames are
still too large does it scale the pictures down; the result says which moves were left out and why.
"""

from __future__ import annotations

import importlib
import io
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw

from render.common import BACKGROUND, FOREGROUND, MUTED, PLAYER_COLOURS, font
from render.palette import palette_for, palette_image, to_palette
from rules.base import GameState

CAPTION_H = 34
CAPTION_FILL = (24, 26, 31)
CAPTION_SIZE = 18
#: frames sampled to pick the shared palette: enough to meet every colour a game draws
PALETTE_SAMPLES = 8
#: the palette index left free for "this pixel did not change since the frame before"
UNCHANGED = 255
#: never scale a replay below this: smaller boards are unreadable on a phone
SMALLEST_SCALE = 0.35


@dataclass(frozen=True)
class ReplayGif:
    """The GIF and what it holds: ``frames`` pictures shown for ``durations`` milliseconds each, the indices
    (into the frames given) ``shown`` and ``skipped`` to fit the size limit, the ``scale`` the pictures were
    shrunk to (1.0: full size) and ``note``, one sentence for the user on what was left out and why ("" when
    nothing was)."""

    data: bytes
    frames: int
    durations: tuple[int, ...]
    shown: tuple[int, ...]
    skipped: tuple[int, ...] = ()
    scale: float = 1.0
    note: str = ""


def board_images(states: Sequence[GameState]) -> list[Image.Image]:
    """The boards of ``states`` (one game) as RGB images: the game renderer's ``replay_images`` where it has one
    (a layout shared by all frames), else its ``render_image`` per state, else its PNG decoded."""
    module = importlib.import_module(f"render.{states[0].game.name}")
    if hasattr(module, "replay_images"):
        return [image.convert("RGB") for image in module.replay_images(states)]
    if hasattr(module, "render_image"):
        return [module.render_image(state).convert("RGB") for state in states]
    return [Image.open(io.BytesIO(module.render_png(state))).convert("RGB") for state in states]


def replay_gif(
    frames: Sequence[tuple[GameState, str]],
    *,
    frame_ms: int = 900,
    last_frame_ms: int = 4000,
    max_bytes: int = 10 * 1024 * 1024,
) -> ReplayGif:
    """The replay of ``frames`` (each a state and the caption naming the move that led to it) as a looping GIF
    of at most ``max_bytes``."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    pictures = board_images([state for state, _caption in frames])
    width = max(p.width for p in pictures)
    height = max(p.height for p in pictures) + CAPTION_H
    total = len(frames)
    canvases = [
        _framed(picture, f"{index + 1}/{total}", caption, (width, height))
        for index, (picture, (_state, caption)) in enumerate(zip(pictures, frames, strict=True))
    ]
    sample = [*canvases[:: max(1, math.ceil(total / PALETTE_SAMPLES))], canvases[-1]]
    exact = [colour for pair in PLAYER_COLOURS for colour in pair]
    palette = palette_image(palette_for(sample, exact, limit=UNCHANGED))
    mapped = [to_palette(canvas, palette) for canvas in canvases]
    keep = list(range(total))
    scale = 1.0
    data = _gif([mapped[i] for i in keep], frame_ms, last_frame_ms)
    while len(data) > max_bytes and len(keep) > 2:
        keep = _evenly(total, max(2, min(len(keep) - 1, math.floor(len(keep) * max_bytes / len(data) * 0.95))))
        data = _gif([mapped[i] for i in keep], frame_ms, last_frame_ms)
    while len(data) > max_bytes and scale > SMALLEST_SCALE:
        scale = max(SMALLEST_SCALE, scale * min(0.9, math.sqrt(max_bytes / len(data))))
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        small = [to_palette(canvases[i].resize(size, Image.Resampling.BILINEAR), palette) for i in keep]
        data = _gif(small, frame_ms, last_frame_ms)
    if len(data) > max_bytes:
        raise ValueError(f"a replay of {total} moves does not fit in {max_bytes} bytes even at its smallest")
    skipped = tuple(i for i in range(total) if i not in set(keep))
    durations = tuple([frame_ms] * (len(keep) - 1) + [last_frame_ms])
    note = _note(total, skipped, scale, max_bytes)
    return ReplayGif(data, len(keep), durations, tuple(keep), skipped, scale, note)


def _framed(picture: Image.Image, counter: str, caption: str, size: tuple[int, int]) -> Image.Image:
    """``picture`` on a canvas of ``size`` with the caption strip at the bottom: "12/80" then the move."""
    canvas = Image.new("RGB", size, BACKGROUND)
    canvas.paste(picture, ((size[0] - picture.width) // 2, 0))
    draw = ImageDraw.Draw(canvas)
    top = size[1] - CAPTION_H
    draw.rectangle((0, top, size[0], size[1]), fill=CAPTION_FILL)
    middle = top + CAPTION_H // 2
    draw.text((12, middle), counter, font=font(CAPTION_SIZE), fill=MUTED, anchor="lm")
    left = 12 + draw.textlength(counter, font=font(CAPTION_SIZE)) + 12
    text, text_size = caption, CAPTION_SIZE
    while text_size > 12 and draw.textlength(text, font=font(text_size)) > size[0] - left - 12:
        text_size -= 1
    while len(text) > 4 and draw.textlength(text, font=font(text_size)) > size[0] - left - 12:
        text = text[: -4 if text.endswith("...") else -1].rstrip() + "..."
    draw.text((left, middle), text, font=font(text_size), fill=FOREGROUND, anchor="lm")
    return canvas


def _evenly(total: int, count: int) -> list[int]:
    """``count`` indices of ``range(total)`` spread evenly, the first and the last always among them."""
    if count >= total:
        return list(range(total))
    return sorted({round(k * (total - 1) / (count - 1)) for k in range(count)})


def _gif(frames: list[Image.Image], frame_ms: int, last_frame_ms: int) -> bytes:
    """The GIF of ``frames`` (on the shared palette): after the first, each frame's pixels that did not change
    are written as the transparent ``UNCHANGED`` index over the frame before (disposal 1), which LZW packs into
    almost nothing; Pillow also crops each frame to the box that changed."""
    shown = [frames[0]]
    for before, after in itertools.pairwise(frames):
        same = ImageChops.difference(_indices(before), _indices(after)).point([255, *[0] * 255], "1")
        delta = after.copy()
        delta.paste(UNCHANGED, mask=same)
        shown.append(delta)
    buffer = io.BytesIO()
    shown[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=shown[1:],
        duration=[frame_ms] * (len(frames) - 1) + [last_frame_ms],
        loop=0,
        disposal=1,
        transparency=UNCHANGED,
        optimize=False,
    )
    return buffer.getvalue()


def _indices(image: Image.Image) -> Image.Image:
    """A palette image's indices as a greyscale image, for pixel arithmetic on them."""
    return Image.frombytes("L", image.size, image.tobytes())


def _note(total: int, skipped: tuple[int, ...], scale: float, max_bytes: int) -> str:
    limit = f"{max_bytes / 1024 / 1024:.0f} MiB" if max_bytes >= 1024 * 1024 else f"{max_bytes // 1024} KiB"
    parts = []
    if skipped:
        parts.append(f"shows {total - len(skipped)} of {total} moves, evenly spaced")
    if scale < 1.0:
        parts.append(f"is drawn at {round(scale * 100)}% size")
    if not parts:
        return ""
    return f"The replay {' and '.join(parts)} to stay under the {limit} upload limit."
