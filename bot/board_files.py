"""Board pictures on disk for the console: written atomically, and not drawn again when the file already shows
the position.

``pbm do "druid show 1"`` is mostly process start; drawing the board (and importing Pillow to do it) is most of
the rest. Each PNG carries, in a ``tEXt`` chunk right after its header, a key of the position it shows and of the
renderer that drew it; when the file on disk has the key of the position asked for, it is left as it is. The key
covers the state's whole JSON and the renderer's source files, so a new position or a new pbm draws afresh.
"""

from __future__ import annotations

import json
import os
import struct
import zlib
from pathlib import Path

from rules.base import GameState

_KEYWORD = b"pbm-state"
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_HEADER_END = len(_SIGNATURE) + 8 + 13 + 4  # the signature and the IHDR chunk


def board_key(state: GameState) -> str:
    """What a picture of ``state`` depends on: the position and the renderer's code."""
    import render

    parts = [json.dumps(state.to_json(), sort_keys=True, separators=(",", ":"))]
    folder = Path(render.__file__).parent
    for source in ("__init__.py", "common.py", f"{state.game.name}.py"):
        try:
            info = (folder / source).stat()
        except OSError:
            continue
        parts.append(f"{source}:{info.st_size}:{info.st_mtime_ns}")
    data = "\n".join(parts).encode()
    # two independent 32-bit checksums and the length: a cache key, not a secret (and no OpenSSL to load)
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}{len(data):x}"


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
    """Write ``png`` (tagged with ``key``) to ``path`` whole or not at all: a command killed mid-write leaves the
    previous picture, never a torn one."""
    if not png.startswith(_SIGNATURE):
        raise ValueError("not a PNG")
    tagged = png[:_HEADER_END] + _chunk(key) + png[_HEADER_END:]
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with temporary.open("wb") as out:
            out.write(tagged)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _chunk(key: str) -> bytes:
    data = _KEYWORD + b"\x00" + key.encode("ascii")
    body = b"tEXt" + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
