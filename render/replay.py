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
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from PIL import GifImagePlugin, Image, ImageChops, ImageDraw

from render.common import BACKGROUND, FOREGROUND, HIGHLIGHT, MUTED, PLAYER_COLOURS, font
from render.palette import Colour, palette_for, palette_image, to_palette
from rules.base import GameState

CAPTION_H = 34
CAPTION_FILL = (24, 26, 31)
CAPTION_SIZE = 18
#: frames sampled to pick the shared palette: enough to meet every colour a game draws
PALETTE_SAMPLES = 8
#: colours every replay's palette holds even if the sampled frames lack them (a game module adds its own
#: ``KEY_COLOURS``: marks that only some positions show, such as Backgammon's hit burst)
COMMON_COLOURS = (BACKGROUND, FOREGROUND, MUTED, HIGHLIGHT, CAPTION_FILL)
#: palette entries for the board colours; one more index is left for "unchanged since the frame before"
COLOURS = 255
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


def board_images(states: Sequence[GameState]) -> Iterator[Image.Image]:
    """The boards of ``states`` (one game) as RGB images, one at a time, each valid until the next is asked for
    (copy one to keep it): the game renderer's ``replay_images`` where it has one (a layout shared by all frames,
    so that the board keeps its place), else its ``render_image`` per state, else its PNG decoded."""
    module = importlib.import_module(f"render.{states[0].game.name}")
    if hasattr(module, "replay_images"):
        pictures = module.replay_images(states)
    elif hasattr(module, "render_image"):
        pictures = (module.render_image(state) for state in states)
    else:
        pictures = (Image.open(io.BytesIO(module.render_png(state))) for state in states)
    for picture in pictures:
        yield picture if picture.mode == "RGB" else picture.convert("RGB")


def replay_gif(
    frames: Sequence[tuple[GameState, str]],
    *,
    frame_ms: int = 900,
    last_frame_ms: int = 4000,
    max_bytes: int = 10 * 1024 * 1024,
) -> ReplayGif:
    """The replay of ``frames`` (each a state and the caption naming the move that led to it) as a looping GIF
    of at most ``max_bytes``. Frames are kept in palette form only (a byte a pixel): a long game of big boards
    would otherwise hold gigabytes of RGB pictures."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    total = len(frames)
    states = [state for state, _caption in frames]
    captions = [(f"{index + 1}/{total}", caption) for index, (_state, caption) in enumerate(frames)]
    sampled = sorted({*range(0, total, max(1, math.ceil(total / PALETTE_SAMPLES))), total - 1})
    samples = {i: board.copy() for i, board in zip(sampled, board_images([states[i] for i in sampled]), strict=True)}
    players = [colour for pair in PLAYER_COLOURS for colour in pair]
    module = importlib.import_module(f"render.{states[0].game.name}")
    key = [*players, *COMMON_COLOURS, *getattr(module, "KEY_COLOURS", ())]
    framed = (_framed(picture, *captions[index]) for index, picture in samples.items())
    colours = palette_for(framed, players, limit=COLOURS, also=key)
    palette = palette_image(colours)
    if hasattr(module, "replay_images"):  # its layout depends on every state: the samples were laid out alone
        boards = board_images(states)
    else:  # a board drawn alone is the same in the sample and in the replay: draw each once
        boards = (
            samples.pop(index) if index in samples else next(board_images([states[index]])) for index in range(total)
        )
    mapped = [_mapped(board, *caption, palette) for board, caption in zip(boards, captions, strict=True)]
    size = (max(frame.width for frame in mapped), max(frame.height for frame in mapped))
    mapped = [_fitted(frame, size, palette) for frame in mapped]
    keep = list(range(total))
    scale = 1.0
    data = _gif([mapped[i] for i in keep], colours, frame_ms, last_frame_ms)
    while len(data) > max_bytes and len(keep) > 2:
        keep = _evenly(total, max(2, min(len(keep) - 1, math.floor(len(keep) * max_bytes / len(data) * 0.95))))
        data = _gif([mapped[i] for i in keep], colours, frame_ms, last_frame_ms)
    while len(data) > max_bytes and scale > SMALLEST_SCALE:
        scale = max(SMALLEST_SCALE, scale * min(0.9, math.sqrt(max_bytes / len(data))))
        small_size = (max(1, round(size[0] * scale)), max(1, round(size[1] * scale)))
        small = [
            to_palette(mapped[i].convert("RGB").resize(small_size, Image.Resampling.BILINEAR), palette) for i in keep
        ]
        data = _gif(small, colours, frame_ms, last_frame_ms)
    if len(data) > max_bytes:
        raise ValueError(f"a replay of {total} moves does not fit in {max_bytes} bytes even at its smallest")
    skipped = tuple(i for i in range(total) if i not in set(keep))
    durations = tuple([frame_ms] * (len(keep) - 1) + [last_frame_ms])
    note = _note(total, skipped, scale, max_bytes)
    return ReplayGif(data, len(keep), durations, tuple(keep), skipped, scale, note)


def _framed(picture: Image.Image, counter: str, caption: str) -> Image.Image:
    """``picture`` with the caption strip below it: "12/80" then the move."""
    canvas = Image.new("RGB", (picture.width, picture.height + CAPTION_H), CAPTION_FILL)
    canvas.paste(picture, (0, 0))
    canvas.paste(_caption(picture.width, counter, caption), (0, picture.height))
    return canvas


def _mapped(picture: Image.Image, counter: str, caption: str, palette: Image.Image) -> Image.Image:
    """:func:`_framed` mapped onto ``palette``, made in palette form: the board and the caption strip are mapped
    apart (a pixel maps alone, so the result is the same) and joined there, at a byte a pixel, not three."""
    frame = to_palette(picture, palette).crop((0, 0, picture.width, picture.height + CAPTION_H))
    frame.paste(to_palette(_caption(picture.width, counter, caption), palette), (0, picture.height))
    return frame


def _caption(width: int, counter: str, caption: str) -> Image.Image:
    """The caption strip, ``width`` wide: "12/80" then the move."""
    canvas = Image.new("RGB", (width, CAPTION_H), CAPTION_FILL)
    draw = ImageDraw.Draw(canvas)
    middle = CAPTION_H // 2
    draw.text((12, middle), counter, font=font(CAPTION_SIZE), fill=MUTED, anchor="lm")
    left = 12 + draw.textlength(counter, font=font(CAPTION_SIZE)) + 12
    text, text_size = caption, CAPTION_SIZE
    while text_size > 12 and draw.textlength(text, font=font(text_size)) > width - left - 12:
        text_size -= 1
    while len(text) > 4 and draw.textlength(text, font=font(text_size)) > width - left - 12:
        text = text[: -4 if text.endswith("...") else -1].rstrip() + "..."
    draw.text((left, middle), text, font=font(text_size), fill=FOREGROUND, anchor="lm")
    return canvas


def _fitted(frame: Image.Image, size: tuple[int, int], palette: Image.Image) -> Image.Image:
    """A framed picture (palette form) grown to ``size``, as every GIF frame must be: the board centred on the
    panel colour, the caption strip run across the full width."""
    if frame.size == size:
        return frame
    width, height = frame.size
    grown = Image.new("P", size, _index(BACKGROUND, palette))
    grown.putpalette(palette.getpalette() or [])
    grown.paste(frame.crop((0, 0, width, height - CAPTION_H)), ((size[0] - width) // 2, 0))
    grown.paste(_index(CAPTION_FILL, palette), (0, size[1] - CAPTION_H, size[0], size[1]))
    grown.paste(frame.crop((0, height - CAPTION_H, width, height)), (0, size[1] - CAPTION_H))
    return grown


def _index(colour: tuple[int, int, int], palette: Image.Image) -> int:
    """The palette index ``colour`` maps to."""
    return int(to_palette(Image.new("RGB", (1, 1), colour), palette).getpixel((0, 0)))


def _evenly(total: int, count: int) -> list[int]:
    """``count`` indices of ``range(total)`` spread evenly, the first and the last always among them."""
    if count >= total:
        return list(range(total))
    return sorted({round(k * (total - 1) / (count - 1)) for k in range(count)})


def _gif(frames: list[Image.Image], colours: list[Colour], frame_ms: int, last_frame_ms: int) -> bytes:
    """The GIF of ``frames`` (palette form, on ``colours``), written frame by frame. After the first, a frame is
    stored as the box that changed, its unchanged pixels in one extra transparent index over the frame before
    (disposal 1), which LZW packs into almost nothing; no copy of the whole replay is held while writing."""
    unchanged = len(colours)
    first = frames[0].copy()
    first.putpalette([channel for colour in (*colours, (0, 0, 0)) for channel in colour])
    header, _ = GifImagePlugin.getheader(first, None, {"loop": 0, "duration": frame_ms, "transparency": unchanged})
    chunks = [*header]
    for index, frame in enumerate(frames):
        params: dict[str, int] = {"duration": last_frame_ms if index == len(frames) - 1 else frame_ms, "disposal": 1}
        offset = (0, 0)
        if index:  # indices compared as they are (a difference of palette images is one of their indices)
            difference = ImageChops.difference(frames[index - 1], frame)
            box = difference.getbbox() or (0, 0, 1, 1)
            same = difference.crop(box).point([255, *[0] * 255], "1")
            frame = frame.crop(box)
            frame.paste(unchanged, mask=same)
            offset, params["transparency"] = box[:2], unchanged
        chunks += GifImagePlugin.getdata(frame, offset, **params)
    chunks.append(b";")
    return b"".join(chunks)


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
