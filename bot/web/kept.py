"""A page made once and sent to many viewers, each with their own parts (their form token, their name, the page's
address) put in per request.

The page is rendered once with random stand-ins for those parts (:func:`stand_in`: no text of a game can contain
them) and cut there (:class:`KeptPage`). A request joins the pieces with its own values, escaped as the template
escapes them. To a browser that takes gzip (every browser does) it is sent compressed without compressing anything
per request: each fixed piece is compressed once, ending on a byte boundary with no reference to what came before,
so the pieces can follow one another and the request's own values (a few bytes) as stored blocks; only the
checksum is computed per request.
"""

from __future__ import annotations

import re
import secrets
import zlib
from dataclasses import dataclass

import markupsafe

#: the stand-ins' common start: random per process, so no game's text has it
_MARK = f"pbm{secrets.token_hex(8)}"
#: the parts a request puts in
PARTS = ("csrf", "player", "path")
_STAND_INS = re.compile(f"{_MARK}({'|'.join(PARTS)})")
#: a gzip member's header: deflate, no name, no time, unknown system
_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
#: the last deflate block: final, stored, empty
_LAST_BLOCK = b"\x01\x00\x00\xff\xff"


def stand_in(part: str) -> str:
    """The text a page is rendered with in place of the request's ``part`` (one of :data:`PARTS`)."""
    assert part in PARTS
    return _MARK + part


def accepts_gzip(header: str) -> bool:
    """Whether an ``Accept-Encoding`` header takes gzip (named, or ``*``, with a quality above 0)."""
    qualities = {}
    for item in header.split(","):
        name, _, params = item.partition(";")
        params = params.strip().lower()
        try:
            qualities[name.strip().lower()] = float(params[2:]) if params.startswith("q=") else 1.0
        except ValueError:
            qualities[name.strip().lower()] = 0.0
    return qualities.get("gzip", qualities.get("*", 0.0)) > 0


def _stored(data: bytes) -> bytes:
    """``data`` as deflate stored blocks (not final), each at most 65,535 bytes."""
    out = []
    for start in range(0, len(data), 0xFFFF):
        block = data[start : start + 0xFFFF]
        size = len(block)
        out.append(b"\x00" + size.to_bytes(2, "little") + (size ^ 0xFFFF).to_bytes(2, "little") + block)
    return b"".join(out)


def _deflated(data: bytes) -> bytes:
    """``data`` compressed on its own (raw deflate), ending on a byte boundary and not final."""
    if not data:
        return b""
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)


@dataclass(frozen=True)
class KeptPage:
    """A rendered page cut at its stand-ins: the fixed pieces (as they are, and compressed) and, between them,
    the names of the parts each request puts in."""

    #: the fixed pieces, and after each but the last the part that follows it
    pieces: tuple[bytes, ...]
    parts: tuple[str, ...]
    deflated: tuple[bytes, ...]

    @classmethod
    def cut(cls, text: str) -> KeptPage:
        """The page ``text``, rendered with :func:`stand_in` for the viewer's parts."""
        split = _STAND_INS.split(text)
        pieces = tuple(piece.encode() for piece in split[0::2])
        return cls(pieces, tuple(split[1::2]), tuple(_deflated(piece) for piece in pieces))

    def body(self, values: dict[str, str], gzip: bool = False) -> bytes:
        """The page with the request's ``values`` (by part, escaped here); gzip-compressed when ``gzip``."""
        own = {part: str(markupsafe.escape(values[part])).encode() for part in set(self.parts)}
        if not gzip:
            out = [self.pieces[0]]
            for part, piece in zip(self.parts, self.pieces[1:], strict=True):
                out += (own[part], piece)
            return b"".join(out)
        crc = zlib.crc32(self.pieces[0])
        size = len(self.pieces[0])
        blocks = [_GZIP_HEADER, self.deflated[0]]
        for part, piece, deflated in zip(self.parts, self.pieces[1:], self.deflated[1:], strict=True):
            value = own[part]
            crc = zlib.crc32(piece, zlib.crc32(value, crc))
            size += len(value) + len(piece)
            blocks += (_stored(value), deflated)
        blocks += (_LAST_BLOCK, crc.to_bytes(4, "little"), (size & 0xFFFFFFFF).to_bytes(4, "little"))
        return b"".join(blocks)
