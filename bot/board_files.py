"""Board pictures for both fronts: what a picture shows (:class:`Picture`), how its file is named, and the console's
files on disk, written atomically and not drawn again while the file already shows the same thing.

A picture is a function of four things: the position, each seat's clock note ("9h 30m left"), each seat's rating
("1532", "unrated") and the view ("top", or the 3D view of the games that have one). :class:`Picture` holds
exactly those, :meth:`Picture.png` draws from them alone, and :meth:`Picture.key` is computed from the same fields.
The Discord turn message, ``/board``, the 3D button and the console's files all draw through it, so the two
fronts cannot show different pictures of one answer, and a cached file cannot go stale on anything it shows.

``pbm do "druid show 1"`` is mostly process start; drawing the board (and importing Pillow to do it) is most of
the rest. Each PNG the console writes carries, in a ``tEXt`` chunk right after its header, its picture's key (its
four inputs and the renderer's source files): when the file on disk has the key of the picture asked for, it is
left as it is; a new position, a clock note that moved on, a new rating or a new pbm draws afresh.
"""

from __future__ import annotations

import json
import os
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rules.base import GameState

if TYPE_CHECKING:
    from bot.actions import Result

_KEYWORD = b"pbm-state"
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_HEADER_END = len(_SIGNATURE) + 8 + 13 + 4  # the signature and the IHDR chunk


@dataclass(frozen=True, eq=False)
class Picture:
    """One board picture: the position, the clock note and the rating shown beside each seat (by seat number),
    and the view. Everything the picture shows comes from these fields and nothing else."""

    state: GameState
    clock: tuple[tuple[int, str], ...] = ()
    ratings: tuple[tuple[int, str], ...] = ()
    view: str = "top"

    def png(self) -> bytes:
        """The PNG (imports Pillow on first use; the Discord front calls this off its event loop)."""
        import render

        return render.board_png(self.state, dict(self.clock) or None, dict(self.ratings) or None, self.view)

    def key(self) -> str:
        """What this picture depends on, short: its four fields and the renderer's code. Importing only the
        ``render`` package, not a game's renderer, keeps a console show that finds its picture on disk free of
        Pillow."""
        inputs = {"state": self.state.to_json(), "clock": self.clock, "ratings": self.ratings, "view": self.view}
        data = "\n".join([json.dumps(inputs, sort_keys=True, separators=(",", ":")), *_renderer_files()]).encode()
        # two independent 32-bit checksums and the length: a cache key, not a secret (and no OpenSSL to load)
        return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}{len(data):x}"


def picture(result: Result, view: str = "top") -> Picture | None:
    """The picture of the position ``result`` answers about, in ``view``; ``None`` when it is about none."""
    if result.state is None:
        return None
    return Picture(result.state, tuple(result.seat_notes().items()), tuple(result.seat_ratings().items()), view)


def file_name(game: str, game_id: int, *, at: int | None = None, preview: bool = False, view: str = "top") -> str:
    """A picture's file name, the same in both fronts: ``druid-12.png``, ``druid-12-move4.png`` (the board after
    move 4), ``druid-12-preview.png``, and ``-3d`` before the extension for the 3D view (``druid-12-3d.png``)."""
    stem = f"{game}-{game_id}"
    if preview:
        stem += "-preview"
    elif at is not None:
        stem += f"-move{at}"
    return f"{stem}-3d.png" if view == "3d" else f"{stem}.png"


def caption_3d(result: Result) -> str:
    """The line that comes with a 3D picture, in both fronts: ``Druid 12 in 3D, after move 4`` (``at the start``
    before the first move)."""
    assert result.state is not None and result.game_id is not None
    moves = result.move_number if result.move_number is not None else result.state.ply
    when = "at the start" if moves == 0 else f"after move {moves}"
    return f"{result.state.game.title} {result.game_id} in 3D, {when}"


def _renderer_files() -> list[str]:
    """Every file of the ``render`` package (its modules, sub-packages and data) with its size and modification
    time: a new pbm, or any change to how boards are drawn, changes the key."""
    import render

    folder = Path(render.__file__).parent
    found = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            path = Path(root, name)
            try:
                info = path.stat()
            except OSError:
                continue
            found.append(f"{path.relative_to(folder).as_posix()}:{info.st_size}:{info.st_mtime_ns}")
    return found


def shows(path: Path, key: str) -> bool:
    """Whether the PNG at ``path`` was written for ``key``."""
    wanted = _chunk(key)
    try:
        with path.open("rb") as handle:
            head = handle.read(_HEADER_END + len(wanted))
    except OSError:
        return False
    return head.startswith(_SIGNATURE) and head[_HEADER_END:] == wanted


def write(path: Path, png: bytes, key: str) -> None:
    """Write ``png`` (tagged with ``key``) to ``path`` whole or not at all (see :func:`write_whole`)."""
    if not png.startswith(_SIGNATURE):
        raise ValueError("not a PNG")
    write_whole(path, png[:_HEADER_END] + _chunk(key) + png[_HEADER_END:])


def write_whole(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all: a command killed mid-write leaves the previous file, never
    a torn one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with temporary.open("wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _chunk(key: str) -> bytes:
    data = _KEYWORD + b"\x00" + key.encode("ascii")
    body = b"tEXt" + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
