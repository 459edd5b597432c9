"""Fault knobs: planned REST failures (an error status with a Discord code, a 429 of a route or the global
limit, a delay, a hold until the test releases it), permissions withheld from the bot, users who refuse DMs, and
gateway outages (dropped connections, sessions Discord forgot).

A planned fault names a route as in Discord's docs ("POST /channels/{channel_id}/messages", or "*" for every route
the bot token authorises), optionally narrowed to placeholder values, and counts down ``times`` (None: always).
:meth:`FaultKnobs._planned_fault` applies the first fault a request matches before the route serves it.
"""

from __future__ import annotations

import asyncio

from aiohttp import web

from tests.fakediscord import payloads as p
from tests.fakediscord.limits import ApiError
from tests.fakediscord.records import Fault, route_key
from tests.fakediscord.replies import error_response, too_many
from tests.fakediscord.state import FakeState


class FaultKnobs(FakeState):
    """Planning faults (the test's side) and applying them (the server's side)."""

    def fail(self, route: str, status: int = 403, code: int = 50013, *, times: int | None = 1, **params: int) -> None:
        """Make ``route`` (e.g. "POST /channels/{channel_id}/messages") answer ``status`` with Discord error
        ``code`` (50013 missing permissions, 50007 cannot DM the user, ...), ``times`` times (None: always)."""
        message = {50013: "Missing Permissions", 50007: "Cannot send messages to this user"}.get(code, "Error")
        self._plan(route, status, code, message, 0.0, 0.0, times, params)

    def rate_limit(
        self,
        route: str,
        retry_after: float = 0.05,
        *,
        times: int | None = 1,
        bucket_headers: bool = True,
        **params: int,
    ) -> None:
        """Make ``route`` answer 429 with ``retry_after``, as Discord does for a route's (user) limit: the bucket
        headers (X-RateLimit-Limit, -Remaining, -Reset, -Reset-After, -Bucket, -Scope) and ``Retry-After``, or
        with ``bucket_headers=False`` only ``Retry-After``, as some of Discord's limits answer."""
        self._plan(route, 429, 0, "You are being rate limited.", retry_after, 0.0, times, params)
        self.faults[-1].bucket_headers = bucket_headers

    def global_rate_limit(self, retry_after: float = 0.05, *, route: str = "*", times: int = 1, **params: int) -> None:
        """Make the next ``times`` requests (to ``route`` with ``params``, or to any route the bot token
        authorises) answer the global 429: ``X-RateLimit-Global: true``, scope global, and ``{"global": true,
        "retry_after": ...}``; a client must then hold every request, on every route, until ``retry_after`` has
        passed."""
        self._plan(route, 429, 0, "You are being rate limited.", retry_after, 0.0, times, params)
        self.faults[-1].scope = "global"

    def delay(self, route: str, seconds: float, *, times: int | None = None, **params: int) -> None:
        """Hold requests to ``route`` for ``seconds`` before serving them normally."""
        self._plan(route, None, None, "", 0.0, seconds, times, params)

    def hold(self, route: str, *, times: int | None = 1, **params: int) -> asyncio.Event:
        """Hold requests to ``route`` until the returned event is set, then serve them normally: a bot kept
        waiting at a chosen step (its acknowledgement, say) while the test does something else."""
        self._plan(route, None, None, "", 0.0, 0.0, times, params)
        gate = asyncio.Event()
        self.faults[-1].gate = gate
        return gate

    def clear_faults(self) -> None:
        """Forget every planned fault."""
        self.faults.clear()

    def _plan(
        self,
        route: str,
        status: int | None,
        code: int | None,
        message: str,
        retry_after: float,
        delay: float,
        times: int | None,
        params: dict[str, int],
    ) -> None:
        method, _, template = route.partition(" ")
        fault = Fault(route_key(method, template), status, code, message, retry_after, delay, times, {})
        fault.params = {k: str(v) for k, v in params.items()}
        self.faults.append(fault)

    def deny(self, channel_id: int, *permissions: str) -> None:
        """Withhold permissions from the bot in a channel (and its threads): any of ``payloads.PERMISSION_BITS``.
        Requests that need them get 403 / 50013 and interactions there report reduced ``app_permissions``."""
        unknown = set(permissions) - set(p.PERMISSION_BITS)
        if unknown:
            raise ValueError(f"unknown permissions {sorted(unknown)}")
        self.denied.setdefault(channel_id, set()).update(permissions)

    def allow(self, channel_id: int, *permissions: str) -> None:
        """Give back permissions taken by :meth:`deny` (all of them when none are named)."""
        held = self.denied.get(channel_id, set())
        held.difference_update(permissions or set(held))

    def close_dms(self, user_id: int) -> None:
        """The user does not accept DMs: sending them one answers 403 / 50007."""
        self.closed_dms.add(user_id)

    def expire_sessions(self) -> None:
        """Forget every gateway session, as Discord does after a long enough outage: a client that reconnects and
        sends RESUME is answered INVALID_SESSION (``d: false``) and must IDENTIFY again."""
        self._session_shards.clear()

    async def drop_gateway(self, code: int = 4000) -> None:
        """Close every gateway connection with a resumable code; discord.py reconnects and sends RESUME."""
        for session in list(self.sessions):
            await session.ws.close(code=code)

    async def _planned_fault(self, key: str, params: dict[str, str], needs_token: bool) -> web.Response | None:
        """The answer of the first planned fault a request to ``key`` with ``params`` matches, once its hold and
        delay are over; ``None`` when the route serves the request normally (no fault, or a delay or hold only).
        Interaction routes are outside the global limit (their token authorises them, not the bot's)."""
        for fault in self.faults:
            if fault.matches(key, params) and (needs_token or fault.route != "*"):
                fault.hits += 1
                if fault.gate is not None:
                    await fault.gate.wait()
                if fault.delay:
                    await asyncio.sleep(fault.delay)
                if fault.status == 429:
                    return too_many(fault)
                if fault.status is not None:
                    return error_response(ApiError(fault.status, fault.code or 0, fault.message))
                break
        return None
