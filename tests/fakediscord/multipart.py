"""Reading a ``multipart/form-data`` body as discord.py sends one (``payload_json`` and ``files[n]``) without
aiohttp's general form parser, whose header parsing (the standard library's email header registry) costs more
than everything else the fake does for a message: the load test uploads tens of thousands of boards."""

from __future__ import annotations

import re
import urllib.parse
from dataclasses import dataclass

#: a parameter of a header (``name="files[0]"``, ``filename*=utf-8''...``, ``boundary=...``)
_PARAM = re.compile(r';\s*([A-Za-z*]+)=("([^"]*)"|[^;\s]*)')


@dataclass
class Part:
    """One part of the form: its field name, the file name and type of an upload, and its bytes."""

    name: str
    filename: str | None
    content_type: str | None
    data: bytes


def params(header: str) -> dict[str, str]:
    """The parameters of a header value, lower-cased names, quotes removed; ``filename*`` (RFC 5987) decoded."""
    found: dict[str, str] = {}
    for match in _PARAM.finditer(header):
        key, value = match.group(1).lower(), match.group(3) if match.group(3) is not None else match.group(2)
        if key.endswith("*"):
            charset, _, encoded = value.partition("''")
            found[key[:-1]] = urllib.parse.unquote(encoded, encoding=charset or "utf-8")
        else:
            found.setdefault(key, value)
    return found


def parts(body: bytes, content_type: str) -> list[Part]:
    """The parts of ``body``, a ``multipart/form-data`` body whose ``Content-Type`` header is ``content_type``."""
    boundary = params(content_type).get("boundary")
    if not boundary:
        raise ValueError("a multipart body without a boundary")
    found = []
    for chunk in body.split(b"--" + boundary.encode())[1:]:
        if chunk.startswith(b"--"):
            break  # the closing delimiter
        head, _, data = chunk.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        headers = {}
        for line in head.decode("utf-8", "replace").split("\r\n"):
            key, _, value = line.partition(":")
            headers[key.strip().lower()] = value.strip()
        disposition = params(headers.get("content-disposition", ""))
        found.append(
            Part(
                disposition.get("name", ""),
                disposition.get("filename"),
                headers.get("content-type"),
                data.removesuffix(b"\r\n"),
            )
        )
    return found
