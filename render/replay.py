"""An animated GIF replay of a game: one frame per move, each drawn by that game's board renderer with a caption
strip below the board: the move that led to it, then where it stands in the game (``move 40 of 200``, and when
frames are skipped, how many: ``every 4th move shown``).

A replay lasts at most about a minute (:data:`REPLAY_MS`, the last frame's hold included): frames are shown
``frame_ms`` each, less for a long game (down to :data:`FASTEST_FRAME_MS`), and a game longer still keeps
evenly spread frames, the first and the last always, the last held longer.

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
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from PIL import GifImagePlugin, Image, ImageChops, ImageDraw

from render.common import BACKGROUND, FOREGROUND, HIGHLIGHT, MUTED, PLAYER_COLOURS, font
from render.header import width_of
from render.palette import Colour, palette_for, palette_image, to_palette
from render.scene import readable
from rules.base import GameState

CAPTION_FILL = (24, 26, 31)
#: the caption strip's two lines, in their text size: line pitch and the strip's padding above and below
CAPTION_PITCH = 1.35
CAPTION_PAD = 0.35
#: the longest a replay lasts, its last frame's hold included, and the quickest a frame may pass
REPLAY_MS = 60_000
FASTEST_FRAME_MS = 250
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
    (into the frames given) ``shown`` and ``skipped`` (to last about a minute, then to fit the size limit), the
    ``scale`` the pictures were shrunk to (1.0: full size) and ``note``, one sentence for the user on what was left
    out and why ("" when nothing was)."""

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


def frame_ms_for(count: int, frame_ms: int, last_frame_ms: int) -> int:
    """How long each frame but the last shows in a replay of ``count`` frames: ``frame_ms``, or less so that the
    whole lasts REPLAY_MS (in the GIF's hundredths of a second), never under FASTEST_FRAME_MS."""
    if count <= 1:
        return frame_ms
    fitting = (REPLAY_MS - last_frame_ms) // (count - 1) // 10 * 10
    return max(min(frame_ms, FASTEST_FRAME_MS), min(frame_ms, fitting))


def most_frames(frame_ms: int, last_frame_ms: int) -> int:
    """The most frames a replay lasting REPLAY_MS shows, at FASTEST_FRAME_MS (or ``frame_ms``, if quicker)."""
    return 1 + max(1, (REPLAY_MS - last_frame_ms) // min(frame_ms, FASTEST_FRAME_MS))


def replay_gif(
    frames: Sequence[tuple[GameState, str]],
    *,
    frame_ms: int = 900,
    last_frame_ms: int = 4000,
    max_bytes: int = 10 * 1024 * 1024,
) -> ReplayGif:
    """The replay of ``frames`` (each a state and the caption naming the move that led to it) as a looping GIF
    of at most ``max_bytes``, lasting at most about REPLAY_MS. Frames are kept in palette form only (a byte a
    pixel): a long game of big boards would otherwise hold gigabytes of RGB pictures."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    total = len(frames)
    timed = _evenly(total, most_frames(frame_ms, last_frame_ms))  # the frames a minute holds: only they are drawn
    states = [frames[i][0] for i in timed]
    moves = [frames[i][1] for i in timed]
    plies = [state.ply for state in states]
    module = importlib.import_module(f"render.{states[0].game.name}")
    count = len(timed)
    sampled = sorted({*range(0, count, max(1, math.ceil(count / PALETTE_SAMPLES))), count - 1})
    samples = {i: board.copy() for i, board in zip(sampled, board_images([states[i] for i in sampled]), strict=True)}
    strip = _Strip(readable(max(picture.width for picture in samples.values())))
    players = [colour for pair in PLAYER_COLOURS for colour in pair]
    key = [*players, *COMMON_COLOURS, *getattr(module, "KEY_COLOURS", ())]
    framed = (_framed(picture, strip.image(picture.width, moves[i], "move 1 of 1")) for i, picture in samples.items())
    colours = palette_for(framed, players, limit=COLOURS, also=key)
    palette = palette_image(colours)
    if hasattr(module, "replay_images"):  # its layout depends on every state: the samples were laid out alone
        boards = board_images(states)
    else:  # a board drawn alone is the same in the sample and in the replay: draw each once
        boards = (
            samples.pop(index) if index in samples else next(board_images([states[index]])) for index in range(count)
        )
    mapped = [to_palette(board, palette) for board in boards]
    size = (max(board.width for board in mapped), max(board.height for board in mapped))
    mapped = [_fitted(board, size, palette) for board in mapped]

    def gif(keep: list[int], scale: float = 1.0) -> bytes:
        counters = _counters([plies[i] for i in keep])
        small = (max(1, round(size[0] * scale)), max(1, round((size[1] + strip.height) * scale)))

        def picture(i: int, counter: str) -> Image.Image:
            frame = _captioned(mapped[i], strip.image(size[0], moves[i], counter), palette)
            if scale < 1.0:
                frame = to_palette(frame.convert("RGB").resize(small, Image.Resampling.BILINEAR), palette)
            return frame

        pictures = (picture(i, counter) for i, counter in zip(keep, counters, strict=True))
        pace = frame_ms_for(len(keep), frame_ms, last_frame_ms)
        return _gif(pictures, len(keep), colours, pace, last_frame_ms)

    keep = list(range(count))
    scale = 1.0
    data = gif(keep)
    while len(data) > max_bytes and len(keep) > 2:
        keep = _evenly(count, max(2, min(len(keep) - 1, math.floor(len(keep) * max_bytes / len(data) * 0.95))))
        data = gif(keep)
    while len(data) > max_bytes and scale > SMALLEST_SCALE:
        scale = max(SMALLEST_SCALE, scale * min(0.9, math.sqrt(max_bytes / len(data))))
        data = gif(keep, scale)
    if len(data) > max_bytes:
        raise ValueError(f"a replay of {total} moves does not fit in {max_bytes} bytes even at its smallest")
    shown = tuple(timed[i] for i in keep)
    skipped = tuple(i for i in range(total) if i not in set(shown))
    pace = frame_ms_for(len(keep), frame_ms, last_frame_ms)
    durations = tuple([pace] * (len(keep) - 1) + [last_frame_ms])
    note = _note(total, len(shown), count < total, len(keep) < count or scale < 1.0, scale, max_bytes)
    return ReplayGif(data, len(keep), durations, shown, skipped, scale, note)


# ---- the caption strip ------------------------------------------------------------------------------------------


def _counters(plies: Sequence[int]) -> list[str]:
    """Each frame's place in the game, from the move numbers of the frames shown: ``move 40 of 200``, the start
    ``start of 200 moves``; when moves lie between frames shown, how many are left out, on every frame (``move 40
    of 200 (every 4th move shown)``)."""
    total = max(plies)
    gaps = [b - a for a, b in itertools.pairwise(plies)]
    note = ""
    if gaps and min(gaps) >= 1 and max(gaps) > 1:
        span = plies[-1] - plies[0]
        step = span / len(gaps)
        if min(gaps) == max(gaps):
            note = f" (every {_ordinal(gaps[0])} move shown)"
        elif step >= 1.5:
            note = f" (about every {_ordinal(round(step))} move shown)"
        else:
            note = f" ({len(plies)} of {span + 1} positions shown)"
    plural = "s" if total != 1 else ""
    return [(f"move {ply} of {total}" if ply else f"start of {total} move{plural}") + note for ply in plies]


def _ordinal(number: int) -> str:
    """``2nd``, ``3rd``, ``4th``, ``11th``, ``21st``."""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def caption_height(width: int) -> int:
    """The height of the caption strip under boards ``width`` pixels wide."""
    return _Strip(readable(width)).height


@dataclass(frozen=True)
class _Strip:
    """The caption strip under a board, its texts ``size`` pixels: the move in the text colour, then the
    frame's place in the game, muted; each line cut short with "..." where it would run past the edge."""

    size: int

    @property
    def height(self) -> int:
        return round(self.size * (2 * CAPTION_PITCH + 2 * CAPTION_PAD))

    def image(self, width: int, move: str, counter: str) -> Image.Image:
        canvas = Image.new("RGB", (width, self.height), CAPTION_FILL)
        draw = ImageDraw.Draw(canvas)
        left, room = round(self.size * 0.75), width - round(self.size * 1.5)
        for k, (text, ink) in enumerate(((move, FOREGROUND), (counter, MUTED))):
            middle = self.size * (CAPTION_PAD + CAPTION_PITCH * (k + 0.5))
            draw.text((left, middle), _cut(text, self.size, room), font=font(self.size), fill=ink, anchor="lm")
        return canvas


def _cut(text: str, size: int, room: float) -> str:
    while len(text) > 4 and width_of(text, size) > room:
        text = text[: -4 if text.endswith("...") else -1].rstrip() + "..."
    return text


def _framed(picture: Image.Image, strip: Image.Image) -> Image.Image:
    """``picture`` with the caption ``strip`` below it (RGB: for picking the palette)."""
    canvas = Image.new("RGB", (picture.width, picture.height + strip.height), CAPTION_FILL)
    canvas.paste(picture, (0, 0))
    canvas.paste(strip, (0, picture.height))
    return canvas


def _captioned(board: Image.Image, strip: Image.Image, palette: Image.Image) -> Image.Image:
    """A board in palette form with the caption ``strip`` mapped onto the palette below it."""
    frame = board.crop((0, 0, board.width, board.height + strip.height))
    frame.paste(to_palette(strip, palette), (0, board.height))
    return frame


def _fitted(board: Image.Image, size: tuple[int, int], palette: Image.Image) -> Image.Image:
    """A board (palette form) grown to ``size``, as every GIF frame must be: centred on the panel colour."""
    if board.size == size:
        return board
    grown = Image.new("P", size, _index(BACKGROUND, palette))
    grown.putpalette(palette.getpalette() or [])
    grown.paste(board, ((size[0] - board.width) // 2, 0))
    return grown


def _index(colour: tuple[int, int, int], palette: Image.Image) -> int:
    """The palette index ``colour`` maps to."""
    return int(to_palette(Image.new("RGB", (1, 1), colour), palette).getpixel((0, 0)))


def _evenly(total: int, count: int) -> list[int]:
    """``count`` indices of ``range(total)`` spread evenly, the first and the last always among them."""
    if count >= total:
        return list(range(total))
    return sorted({round(k * (total - 1) / (count - 1)) for k in range(count)})


def _gif(frames: Iterable[Image.Image], count: int, colours: list[Colour], frame_ms: int, last_frame_ms: int) -> bytes:
    """The GIF of ``count`` ``frames`` (palette form, on ``colours``), written frame by frame as they come. After
    the first, a frame is stored as the box that changed, its unchanged pixels in one extra transparent index over
    the frame before (disposal 1), which LZW packs into almost nothing; no copy of the whole replay is held while
    writing."""
    unchanged = len(colours)
    chunks: list[bytes] = []
    previous: Image.Image | None = None
    for index, frame in enumerate(frames):
        if previous is None:
            first = frame.copy()
            first.putpalette([channel for colour in (*colours, (0, 0, 0)) for channel in colour])
            header, _ = GifImagePlugin.getheader(
                first, None, {"loop": 0, "duration": frame_ms, "transparency": unchanged}
            )
            chunks += header
        params: dict[str, int] = {"duration": last_frame_ms if index == count - 1 else frame_ms, "disposal": 1}
        offset = (0, 0)
        stored = frame
        if previous is not None:  # indices compared as they are (a difference of palette images is one of theirs)
            difference = ImageChops.difference(previous, frame)
            box = difference.getbbox() or (0, 0, 1, 1)
            same = difference.crop(box).point([255, *[0] * 255], "1")
            stored = frame.crop(box)
            stored.paste(unchanged, mask=same)
            offset, params["transparency"] = box[:2], unchanged
        chunks += GifImagePlugin.getdata(stored, offset, **params)
        previous = frame
    chunks.append(b";")
    return b"".join(chunks)


def _note(total: int, shown: int, for_time: bool, for_size: bool, scale: float, max_bytes: int) -> str:
    """One sentence on what the replay left out and why: ``The replay shows 187 of 400 moves, evenly spaced, to
    last about a minute and to stay under the 10 MiB upload limit.``; "" when it left nothing out."""
    limit = f"{max_bytes / 1024 / 1024:.0f} MiB" if max_bytes >= 1024 * 1024 else f"{max_bytes // 1024} KiB"
    parts = []
    if shown < total:
        parts.append(f"shows {shown} of {total} moves, evenly spaced")
    if scale < 1.0:
        parts.append(f"is drawn at {round(scale * 100)}% size")
    reasons = [
        why
        for why, met in (("to last about a minute", for_time), (f"to stay under the {limit} upload limit", for_size))
        if met
    ]
    if not parts:
        return ""
    return f"The replay {' and '.join(parts)}, {' and '.join(reasons)}."
