"""Live pages: a new position reaches an open game page (Server-Sent Events) when a move is made anywhere, here
through the console's actions on another connection, as another process would: on SQLite by the shared poll of
the watched games' versions, on PostgreSQL by the NOTIFY its commit sends. One query per poll for all the games
watched, one view built per change, however many pages watch."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp

from bot.actions import Actions
from bot.web.live import Hub
from data.store import Store
from tests.databases import Databases
from tests.webtools import SEED, Site, serving

#: the longest a test waits for an event that must come (a bound, not a pause: it returns as soon as it comes)
PATIENCE = 10.0


async def next_event(stream: aiohttp.ClientResponse) -> dict[str, Any]:
    """The next ``position`` event of an event stream, as the page's script reads it."""
    while True:
        block = (await asyncio.wait_for(stream.content.readuntil(b"\n\n"), PATIENCE)).decode()
        fields = dict(line.split(": ", 1) for line in block.strip().splitlines() if ": " in line)
        if fields.get("event") == "position":
            return {"id": fields["id"], **json.loads(fields["data"])}


@asynccontextmanager
async def elsewhere(target: Path | str, clock: Any = None) -> AsyncIterator[Actions]:
    """The actions of another process: their own connection to the same database, the console's way (on the
    site's clock, when given)."""
    store = await Store.open(target)
    try:
        yield Actions(store, seed_source=lambda: SEED, **({"clock": clock} if clock else {}))
    finally:
        await store.close()


async def druid(site: Site) -> int:
    started = await site.actions.challenge("druid", ["alice", "bob"], ["-size=5"], start=True)
    assert started.game_id is not None
    return started.game_id


async def test_a_console_move_reaches_an_open_page_at_the_next_poll(tmp_path: Path) -> None:
    async with serving(tmp_path / "pbm.sqlite3") as site, site.browser() as browser:
        game_id = await druid(site)
        stream = await browser.session.get(f"/g/{game_id}/events")
        assert stream.headers["Content-Type"] == "text/event-stream; charset=utf-8"
        first = await next_event(stream)
        assert first["headline"] == "Druid 1: alice to move (move 1)" and first["guard"] == 1
        hub = site.context.hub
        assert hub is not None and hub.watched == 1
        assert await hub.check() == 0  # nothing changed: nothing is sent
        async with elsewhere(site.path) as console:
            assert (await console.move(game_id, "alice", "c3")).ok
        assert await hub.check() == 1
        moved = await next_event(stream)
        stream.close()
    assert moved["headline"] == "Druid 1: bob to move (move 2)" and moved["guard"] == 2
    assert moved["history"] == [{"n": 1, "text": "alice: c3"}] and moved["id"] != first["id"]
    assert moved["board"]["kind"] == "svg" and 'data-kind="cell" data-id="c3"' in moved["board"]["svg"]


async def test_a_paused_clock_reaches_the_page(tmp_path: Path) -> None:
    async with serving(tmp_path / "pbm.sqlite3") as site, site.browser() as browser:
        game_id = await druid(site)
        stream = await browser.session.get(f"/g/{game_id}/events")
        assert (await next_event(stream))["running"] == "alice"
        async with elsewhere(site.path, site.clock) as console:
            assert (await console.vacation("alice", "on")).ok
        assert site.context.hub is not None and await site.context.hub.check() == 1
        paused = await next_event(stream)
        stream.close()
    assert paused["running"] is None and paused["clock_notes"]["alice"] == "paused (vacation)"


async def test_a_move_made_elsewhere_reaches_the_page_by_itself(databases: Databases) -> None:
    """The server's own watching, with nothing driven by hand: on PostgreSQL the poll is set to an hour, so only
    the commit's NOTIFY can bring the move in time."""
    target = await databases.target()
    interval = 3600.0 if databases.postgresql else None
    async with serving(target, live=True, poll_interval=interval) as site, site.browser() as browser:
        game_id = await druid(site)
        stream = await browser.session.get(f"/g/{game_id}/events")
        await next_event(stream)
        async with elsewhere(target) as console:
            assert (await console.move(game_id, "alice", "c3")).ok
        moved = await next_event(stream)
        stream.close()
    assert moved["move_number"] == 1 and moved["to_move"] == "bob"


class CountingStore:
    """A store that counts the version queries the hub makes."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.queries = 0
        self.announces_changes = store.announces_changes

    async def game_versions(self, game_ids: list[int]) -> dict[int, Any]:
        self.queries += 1
        return await self.store.game_versions(game_ids)


async def test_a_thousand_pages_of_one_game_cost_one_query_and_one_view(tmp_path: Path) -> None:
    async with serving(tmp_path / "pbm.sqlite3") as site:
        game_id = await druid(site)
        other = await druid(site)
        counting = CountingStore(site.store)
        built: list[int] = []

        async def publish(watched: int, view: str) -> bytes:
            assert view == "top"
            built.append(watched)
            return f"view of {watched}".encode()

        hub = Hub(counting, publish)  # type: ignore[arg-type]
        async with contextlib_many(hub, [game_id] * 1000 + [other] * 10) as watches:
            counting.queries = 0
            assert (await site.actions.move(game_id, "alice", "c3")).ok
            assert await hub.check() == 1
            got = await asyncio.gather(*(watch.next(PATIENCE) for watch in watches[:1000]))
            assert await hub.check() == 0
            assert not any(watch.unread for watch in watches)
        assert hub.watched == 0
    assert counting.queries == 2 and built == [game_id]
    assert set(got) == {f"view of {game_id}".encode()}


@asynccontextmanager
async def contextlib_many(hub: Hub, game_ids: list[int]) -> AsyncIterator[list[Any]]:
    """Many pages watching at once."""
    from contextlib import AsyncExitStack

    async with AsyncExitStack() as stack:
        yield [await stack.enter_async_context(hub.watch(game_id)) for game_id in game_ids]


async def test_a_slow_page_gets_the_newest_position_not_a_queue(tmp_path: Path) -> None:
    async with serving(tmp_path / "pbm.sqlite3") as site:
        game_id = await druid(site)
        hub = site.context.hub
        assert hub is not None
        async with hub.watch(game_id) as watch:
            for mover, move in (("alice", "c3"), ("bob", "b2")):
                assert (await site.actions.move(game_id, mover, move)).ok
                assert await hub.check() == 1
            newest = await watch.next(PATIENCE)
            assert not watch.unread
    assert newest is not None and b'"move_number":2' in newest


async def next_block(stream: aiohttp.ClientResponse) -> dict[str, str]:
    """The next event of any kind: its fields."""
    while True:
        block = (await asyncio.wait_for(stream.content.readuntil(b"\n\n"), PATIENCE)).decode()
        fields = dict(line.split(": ", 1) for line in block.strip().splitlines() if ": " in line)
        if "event" in fields:
            return fields


async def test_a_page_that_connects_later_counts_the_clocks_from_when_they_were_read(tmp_path: Path) -> None:
    async with serving(tmp_path / "pbm.sqlite3") as site, site.browser() as browser:
        game_id = await druid(site)
        early = await browser.session.get(f"/g/{game_id}/events")
        await next_event(early)
        early.close()
        site.clock.now += 600
        late = await browser.session.get(f"/g/{game_id}/events")
        told = await next_block(late)
        view = await next_event(late)
        late.close()
    assert told["event"] == "time" and json.loads(told["data"]) == {"now": site.clock.now}
    # the view built for the first page, kept: its clocks were read ten minutes before this page's time
    assert view["as_of"] == site.clock.now - 600 and view["clock"]["alice"] == 604800
