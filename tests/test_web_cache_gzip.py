"""Kept pages sent compressed (:mod:`bot.web.kept`): the pieces compressed once and the request's own parts put
in between them make one valid gzip stream, the same page a browser gets uncompressed; and only to browsers that
take gzip."""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

import aiohttp
import pytest

from bot.web.kept import KeptPage, accepts_gzip, stand_in
from tests.webtools import serving


def page_with_every_part() -> str:
    return (
        f'<meta name="csrf-token" content="{stand_in("csrf")}">'
        f'<a href="/u/{stand_in("player")}">{stand_in("player")}</a>'
        + "<g data-kind='cell'>" * 2000
        + f'<input name="back" value="{stand_in("path")}">·é'
    )


@pytest.mark.parametrize(
    "values",
    [
        {"csrf": "tok-1", "player": "alice", "path": "/g/1"},
        {"csrf": "", "player": "", "path": "/g/1?at=2&view=3d"},  # nothing in some parts; & escaped
        {"csrf": 'a"<b>', "player": "é", "path": "/g/1?x=" + "y" * 70_000},  # more than one stored block
    ],
)
def test_the_gzip_body_is_the_page_with_the_requests_parts(values: dict[str, str]) -> None:
    kept = KeptPage.cut(page_with_every_part())
    plain = kept.body(values)
    expected = (
        page_with_every_part()
        .replace(stand_in("csrf"), values["csrf"].replace('"', "&#34;").replace("<", "&lt;").replace(">", "&gt;"))
        .replace(stand_in("player"), values["player"])
        .replace(stand_in("path"), values["path"].replace("&", "&amp;"))
    )
    assert plain == expected.encode()
    compressed = kept.body(values, gzip=True)
    assert gzip.decompress(compressed) == plain
    # one member, checked by zlib's own reader too (header, blocks, CRC and length)
    reader = zlib.decompressobj(16 + zlib.MAX_WBITS)
    assert reader.decompress(compressed) == plain and reader.eof and reader.unused_data == b""
    assert len(compressed) < len(plain) / 4 or len(values["path"]) > 60_000


def test_a_page_without_stand_ins_is_one_piece() -> None:
    kept = KeptPage.cut("<p>nothing of the viewer</p>")
    assert kept.parts == () and gzip.decompress(kept.body({}, gzip=True)) == b"<p>nothing of the viewer</p>"


@pytest.mark.parametrize(
    ("header", "takes"),
    [
        ("gzip, deflate, br, zstd", True),
        ("br;q=1.0, gzip;q=0.8", True),
        ("*", True),
        ("", False),
        ("deflate, br", False),
        ("gzip;q=0", False),
        ("*;q=0.5, gzip;q=0", False),
        ("gzip;q=nonsense", False),
        ("GZIP", True),
    ],
)
def test_which_browsers_take_gzip(header: str, takes: bool) -> None:
    assert accepts_gzip(header) is takes


async def test_a_browser_gets_the_same_page_compressed_or_not(tmp_path: Path) -> None:
    async with serving(tmp_path / "pbm.sqlite3") as site:
        assert (await site.actions.challenge("druid", ["alice", "bob"], ["-size=5"], start=True)).game_id == 1
        cookie = {"Cookie": "pbm_csrf=visitor-token"}
        async with aiohttp.ClientSession(base_url=site.base, auto_decompress=False) as raw:
            async with raw.get("/g/1?view=top", headers={**cookie, "Accept-Encoding": "gzip"}) as zipped:
                zipped_body = await zipped.read()
            async with raw.get("/g/1?view=top", headers={**cookie, "Accept-Encoding": "identity"}) as plain:
                plain_body = await plain.read()
    assert zipped.headers["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain.headers
    assert zipped.headers["Vary"] == plain.headers["Vary"] == "Accept-Encoding"
    assert gzip.decompress(zipped_body) == plain_body
    text = plain_body.decode()
    assert '<meta name="csrf-token" content="visitor-token">' in text and "Druid 1: alice to move" in text
    assert len(zipped_body) * 4 < len(plain_body)
