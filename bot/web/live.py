"""Live game pages: a new position reaches every open page of a game within a second of its commit, wherever the
move was made (Discord, the console, another browser, another process).

One :class:`Hub` per process watches the games its pages show. It learns of changes from the store:

- on SQLite, by polling: every :data:`POLL_SECONDS` one query reads the version (log length, deadline, status) of
  every watched game at once (:meth:`data.store.web.WebStore.game_versions`), not one query per viewer;
- on PostgreSQL, by LISTEN: the commit that changes a game sends a NOTIFY with its id, heard here at once; a slow
  poll (:data:`FALLBACK_SECONDS`) covers a listening connection that was lost;
- from this process's own pages: a POST about a game (a move, a resignation ...) has it checked at once
  (:meth:`Hub.heard`), on either database. Changes heard never put the poll off.

For each game whose version changed, the new public view is built once per board view its pages show (``publish``:
the top-down board, and the 3D one if a page asked for it; the view the pages themselves are made from, see
:class:`bot.web.present.Views`) and the same bytes are handed to every page watching it
in that view; a page that is slow to read gets the newest view, never a queue of old ones. Each page reads from
its own :class:`Watch`, in the request that holds its event stream (:func:`event_stream`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from aiohttp import web

from data.store import Store

log = logging.getLogger("pbm.web")

#: seconds between two polls of the watched games on SQLite
POLL_SECONDS = 0.25
#: seconds between two polls on PostgreSQL, where NOTIFY tells of changes at once (a lost listener is covered)
FALLBACK_SECONDS = 5.0
#: seconds between two comments that keep an idle event stream open through proxies
KEEPALIVE_SECONDS = 15.0
#: what a browser waits before it reconnects a lost event stream (milliseconds)
RETRY_MS = 2000


def event(name: str, version: str, data: Any) -> bytes:
    """One Server-Sent Event: its name, id (the game's version) and JSON data on one line."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return f"event: {name}\nid: {version}\ndata: {text}\n\n".encode()


class Watch:
    """One page's view of a game (its board drawn in ``view``): the newest event for it, and a flag that says
    there is one it has not read."""

    def __init__(self, game_id: int, view: str = "top") -> None:
        self.game_id = game_id
        self.view = view
        self.latest: bytes | None = None
        self._ready = asyncio.Event()

    @property
    def unread(self) -> bool:
        """Whether an event came that the page has not read yet."""
        return self._ready.is_set()

    def deliver(self, payload: bytes) -> None:
        self.latest = payload
        self._ready.set()

    async def next(self, timeout: float) -> bytes | None:
        """The newest event not read yet, or ``None`` after ``timeout`` seconds without one."""
        try:
            await asyncio.wait_for(self._ready.wait(), timeout)
        except TimeoutError:
            return None
        self._ready.clear()
        return self.latest


class Hub:
    """The games this process's pages watch, and how they learn of changes (see the module docstring).
    ``publish(game_id, view)`` builds a game's event with its board in that view (``None``: it cannot be shown any
    more)."""

    def __init__(
        self,
        store: Store,
        publish: Callable[[int, str], Awaitable[bytes | None]],
        *,
        interval: float | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        """``interval`` is the poll's period (default by database), kept by ``monotonic``; the background task
        runs only once :meth:`start` is called (tests call :meth:`check` by hand instead)."""
        self.store = store
        self.publish = publish
        self.interval = interval or (FALLBACK_SECONDS if store.announces_changes else POLL_SECONDS)
        self.monotonic = monotonic
        self._next_poll = monotonic() + self.interval
        self._watches: dict[int, set[Watch]] = {}
        self._versions: dict[int, Any] = {}
        self._heard: set[int] = set()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stop_listening: Callable[[], Awaitable[None]] | None = None

    @property
    def watched(self) -> int:
        """How many pages are watching, over all games."""
        return sum(len(w) for w in self._watches.values())

    @contextlib.asynccontextmanager
    async def watch(self, game_id: int, view: str = "top") -> AsyncIterator[Watch]:
        """Watch a game, its board in ``view``, for as long as the block runs."""
        watch = Watch(game_id, view)
        if game_id not in self._watches:
            self._watches[game_id] = set()
            found = await self.store.game_versions([game_id])
            self._versions.setdefault(game_id, found.get(game_id))
        self._watches[game_id].add(watch)
        self._wake.set()
        try:
            yield watch
        finally:
            left = self._watches.get(game_id)
            if left is not None:
                left.discard(watch)
                if not left:
                    del self._watches[game_id]
                    self._versions.pop(game_id, None)

    def heard(self, game_id: int) -> None:
        """A change of ``game_id`` was announced (PostgreSQL's NOTIFY): check it now, if it is watched."""
        if game_id in self._watches:
            self._heard.add(game_id)
            self._wake.set()

    async def check(self, game_ids: list[int] | None = None) -> int:
        """Read the version of the watched games (or of ``game_ids`` among them) in one query, and push each
        changed game's new view to its pages; how many games changed."""
        wanted = list(self._watches) if game_ids is None else [g for g in game_ids if g in self._watches]
        if not wanted:
            return 0
        versions = await self.store.game_versions(wanted)
        changed = 0
        for game_id in wanted:
            version = versions.get(game_id)
            if game_id not in self._watches or version == self._versions.get(game_id):
                continue
            self._versions[game_id] = version
            changed += 1
            await self._deliver(game_id)
        return changed

    async def _deliver(self, game_id: int) -> None:
        """Build a changed game's event once per view its pages show, and hand it to each of them."""
        for view in sorted({watch.view for watch in self._watches.get(game_id, ())}):
            try:
                payload = await self.publish(game_id, view)
            except Exception:
                log.exception("game %s: its new position could not be prepared for its pages", game_id)
                continue
            if payload is not None:
                for watch in list(self._watches.get(game_id, ())):
                    if watch.view == view:
                        watch.deliver(payload)

    async def start(self) -> None:
        """Start watching for changes in the background (and listening, on PostgreSQL)."""
        if self.store.announces_changes:
            try:
                self._stop_listening = await self.store.listen_for_changes(self.heard)
            except Exception as exc:  # the poll still covers every change, only more slowly
                log.warning("cannot listen for game changes (%s); pages update every %ss", exc, self.interval)
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._stop_listening is not None:
            with contextlib.suppress(Exception):
                await self._stop_listening()
            self._stop_listening = None

    async def step(self) -> int:
        """Wait for a change to be heard (or a page to come) or for the poll, whichever is first, and check the
        games heard of, or every watched game when the poll is due: changes heard (a NOTIFY, a move made here)
        never put the poll off. How many games changed."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), max(0.0, self._next_poll - self.monotonic()))
        self._wake.clear()
        heard, self._heard = list(self._heard), set()
        due = self.monotonic() >= self._next_poll
        if due:
            self._next_poll = self.monotonic() + self.interval
        return await self.check(None if due or not heard else heard)

    async def _run(self) -> None:
        while True:
            if not self._watches:
                self._wake.clear()
                await self._wake.wait()
            try:
                await self.step()
            except Exception:
                log.exception("checking the watched games failed; trying again")


async def event_stream(
    request: web.Request, hub: Hub, game_id: int, first: bytes, view: str = "top"
) -> web.StreamResponse:
    """A page's event stream of one game: ``first`` (the server's time and the view as it stands, so a page that
    reconnects catches up and counts the clocks from the right moment), then every new view (its board in
    ``view``), with a comment now and then to keep it open."""
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream; charset=utf-8",
            "Cache-Control": "no-store",
            "X-Accel-Buffering": "no",
        }
    )
    async with hub.watch(game_id, view) as watch:
        await response.prepare(request)
        await response.write(f"retry: {RETRY_MS}\n\n".encode() + first)
        while True:
            payload = await watch.next(KEEPALIVE_SECONDS)
            try:
                await response.write(payload if payload is not None else b": still here\n\n")
            except (ConnectionResetError, RuntimeError):
                break
    return response
