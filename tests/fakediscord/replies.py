"""The fake's HTTP answers as Discord's edge sends them: JSON whose ``Content-Type`` is exactly
``application/json`` (discord.py ignores the body otherwise), a Discord error, and a 429 with the headers of a
route's bucket, of ``Retry-After`` only, or of the global limit.
"""

from __future__ import annotations

import json
import math
import time
from typing import Any

from aiohttp import web

from tests.fakediscord.limits import ApiError
from tests.fakediscord.records import Fault


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON reply whose Content-Type is exactly ``application/json`` (discord.py ignores the body otherwise)."""
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    return web.Response(body=json.dumps(data).encode(), status=status, headers=all_headers)


def error_response(err: ApiError) -> web.Response:
    """Discord's JSON error for ``err``, with its status."""
    return json_response(err.body(), status=err.status)


def too_many(fault: Fault) -> web.Response:
    """A 429 as Discord's edge sends it (``Via`` included: discord.py reads a 429 without it as a Cloudflare
    ban); ``Retry-After`` is whole seconds, the body's ``retry_after`` exact."""
    headers = {"Via": "1.1 google", "Retry-After": str(max(1, math.ceil(fault.retry_after)))}
    is_global = fault.scope == "global"
    if is_global:
        headers.update({"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"})
    elif fault.bucket_headers:
        headers.update(
            {
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + fault.retry_after:.3f}",
                "X-RateLimit-Reset-After": f"{fault.retry_after:.3f}",
                "X-RateLimit-Bucket": f"fake-{abs(hash(fault.route)):x}",
                "X-RateLimit-Scope": fault.scope,
            }
        )
    body = {"message": fault.message, "retry_after": fault.retry_after, "global": is_global}
    return json_response(body, status=429, headers=headers)
