"""Kept game pages (:class:`bot.web.present.Views`): a game's view is built once per version and shared by every
viewer, the pages, the JSON and the event streams alike; the next move makes it stale at once; what belongs to one
viewer (their form token, their name, a player's controls and queued lines) is never shown to another."""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.web.live import Hub
from bot.web.present import FRESH_SECONDS, STALE_SECONDS, Views
from tests.test_web_live import elsewhere, next_event
from tests.webtools import Page, Site, serving

_FORM_TOKENS = re.compile(r'<input type="hidden" name="csrf" value="([^"]*)">')
_DATA_LEFT = re.compile(r'data-player="bob" data-left="(\d+)"')


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    """Game 1: Druid on a 5x5 board, alice has played c3, bob to move."""
    async with serving(tmp_path / "pbm.sqlite3") as site:
        started = await site.actions.challenge("druid", ["alice", "bob"], ["-size=5"], start=True)
        assert started.game_id == 1 and (await site.actions.move(1, "alice", "c3")).ok
        yield site


def views(site: Site) -> Views:
    assert site.context.views is not None
    return site.context.views


def tokens(page: Page) -> set[str]:
    """Every form token a page carries: its meta tag's and its forms'."""
    return {page.csrf} | {html.unescape(t) for t in _FORM_TOKENS.findall(page.text)}


async def test_visitors_share_one_build_and_each_gets_only_their_own_token(site: Site) -> None:
    async with site.browser() as first, site.browser() as second:
        one = await first.get("/g/1")
        two = await second.get("/g/1")
        again = await first.get("/g/1")
        cookies = [next(c.value for c in b.session.cookie_jar if c.key == "pbm_csrf") for b in (first, second)]
    assert views(site).builds == 1
    assert tokens(one) == tokens(again) == {cookies[0]} and tokens(two) == {cookies[1]}
    assert cookies[0] != cookies[1]
    assert one.text.replace(cookies[0], "") == two.text.replace(cookies[1], "")
    assert one.heading == "Druid 1: bob to move (move 2)" and "Sign in</a>" in one.text


async def test_signed_in_viewers_see_their_own_name_and_players_their_own_controls(site: Site) -> None:
    async with (
        site.browser() as visitor,
        site.browser() as carol,
        site.browser() as dave,
        site.browser() as alice,
        site.browser() as bob,
    ):
        for browser, name in ((carol, "carol"), (dave, "dave"), (alice, "alice"), (bob, "bob")):
            await browser.sign_in(name)
        assert (await alice.post("/g/1/queue", {"line": "b2 a1"})).status == 303
        pages = {}
        # the players' pages between the others', so anything of theirs kept would show on the next one
        for name, browser in (("bob", bob), ("visitor", visitor), ("alice", alice), ("carol", carol), ("dave", dave)):
            pages[name] = await browser.get("/g/1")
        sessions = {name: b.csrf for name, b in (("carol", carol), ("dave", dave), ("alice", alice), ("bob", bob))}
    for name in ("carol", "dave"):
        text = pages[name].text
        assert f'<a href="/u/{name}">{name}</a>' in text and 'data-viewer="' + name + '"' in text
        assert tokens(pages[name]) == {sessions[name]}
        others = {"carol", "dave"} - {name}
        assert not any(f'<a href="/u/{other}">{other}</a>\n' in text for other in others)
        assert 'id="move-form"' not in text and "Your move" not in text and "Your queued lines" not in text
    visitor_text = pages["visitor"].text
    assert 'data-viewer=""' in visitor_text and "Sign in</a>" in visitor_text
    assert not any(token in visitor_text for token in sessions.values())
    assert 'id="move-form"' not in visitor_text and "b2 a1" not in visitor_text
    bob_text, alice_text = pages["bob"].text, pages["alice"].text
    assert 'id="move-form"' in bob_text and '<h2 id="act-title">Your move</h2>' in bob_text
    assert tokens(pages["bob"]) == {sessions["bob"]} and "b2 a1" not in bob_text
    assert "Waiting for bob" in alice_text and "<code>b2 a1</code>" in alice_text
    assert tokens(pages["alice"]) == {sessions["alice"]}
    # one view for all of them; the two kinds of non-player page (signed in or not) made once each
    assert views(site).builds == 1


async def test_the_next_move_makes_the_kept_page_stale_at_once(site: Site) -> None:
    async with site.browser() as browser:
        before = await browser.get("/g/1")
        async with elsewhere(site.path) as console:  # another process's move: no hub, no poll involved
            assert (await console.move(1, "bob", "b2")).ok
        after = await browser.get("/g/1")
        json_after = (await browser.get("/g/1.json")).json()
    assert before.heading == "Druid 1: bob to move (move 2)"
    assert after.heading == "Druid 1: alice to move (move 3)" and '<a href="/g/1?at=2">2. bob: b2</a>' in after.text
    assert json_after["move_number"] == 2 and views(site).builds == 2


async def test_a_kept_page_past_a_second_is_rebuilt_in_the_background_and_past_ten_at_once(site: Site) -> None:
    """Its clocks move on without a move: a page a second old is still served while a fresh one is built, so
    nobody waits; one more than ten seconds old is rebuilt before it is served."""
    async with site.browser() as browser:
        first = await browser.get("/g/1")
        site.clock.now += FRESH_SECONDS / 2
        same = await browser.get("/g/1")  # fresh: nothing built
        site.clock.now += FRESH_SECONDS
        stale, *others = await asyncio.gather(*(browser.get("/g/1") for _ in range(10)))
        assert views(site).builds == 2  # served as it was; one fresh view built for them all
        await views(site).settled()
        rebuilt = await browser.get("/g/1")
        site.clock.now += STALE_SECONDS + 1
        late = await browser.get("/g/1")  # too old to serve: rebuilt first
    left = [int(_DATA_LEFT.findall(p.text)[0]) for p in (first, same, stale, rebuilt, late)]
    start = left[0]
    assert left[:3] == [start, start, start] and {p.text for p in others} == {stale.text}
    assert left[3] == start - round(1.5 * FRESH_SECONDS)
    assert left[4] == start - round(1.5 * FRESH_SECONDS + STALE_SECONDS + 1)
    assert views(site).builds == 3


async def test_a_crowd_on_a_stale_view_starts_one_rebuild(site: Site) -> None:
    kept = views(site)
    first = await kept.get(1)
    site.clock.now += FRESH_SECONDS * 1.5
    crowd = await asyncio.gather(*(kept.get(1) for _ in range(20)))
    await kept.settled()
    fresh = await kept.get(1)
    assert all(got is first for got in crowd) and fresh is not first
    assert kept.builds == 2


async def test_the_json_and_the_event_stream_use_the_kept_view(site: Site) -> None:
    async with site.browser() as browser:
        await browser.get("/g/1")
        view = (await browser.get("/g/1.json")).json()
        stream = await browser.session.get("/g/1/events")
        event = await next_event(stream)
        stream.close()
    assert views(site).builds == 1 and view["version"] == event["version"] and event["move_number"] == 1


async def test_many_requests_at_once_cost_one_build_and_few_version_reads(site: Site) -> None:
    async with site.browser() as browser:
        pages = await asyncio.gather(*(browser.get("/g/1") for _ in range(40)))
    assert {p.heading for p in pages} == {"Druid 1: bob to move (move 2)"}
    assert views(site).builds == 1
    # each read answers every request waiting when it starts (the first alone, the rest together)
    assert views(site).versions.reads <= 4


async def test_the_kept_views_are_bounded(site: Site) -> None:
    views(site).size = 2
    async with site.browser() as browser:
        for at in (0, 1, None):
            assert (await browser.get("/g/1" + ("" if at is None else f"?at={at}"))).status == 200
        assert len(views(site)) == 2
        await browser.get("/g/1?at=0")  # the oldest was dropped: built again
    assert views(site).builds == 4 and len(views(site)) == 2


async def test_a_move_committed_during_a_build_never_hides_behind_a_kept_view(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The position is read, then bob moves, then the view's version is read: that view (the old board under
    the new version) is shown to the request that built it, never kept for the next."""
    show = site.actions.show
    moved: list[bool] = []

    async def show_then_move(game_id: int, at: int | None = None) -> object:
        shown = await show(game_id, at)
        if not moved:
            moved.append(True)
            async with elsewhere(site.path) as console:
                assert (await console.move(1, "bob", "b2")).ok
        return shown

    monkeypatch.setattr(site.actions, "show", show_then_move)
    async with site.browser() as browser:
        first = await browser.get("/g/1")
        second = await browser.get("/g/1")
    assert first.heading == "Druid 1: bob to move (move 2)"
    assert second.heading == "Druid 1: alice to move (move 3)" and views(site).builds == 2


async def test_a_web_move_reaches_another_browser_without_waiting_for_the_poll(tmp_path: Path) -> None:
    """The poll is set to an hour: only the move's own POST can wake the pages watching the game."""
    async with serving(tmp_path / "pbm.sqlite3", live=True, poll_interval=3600.0) as site:
        assert (await site.actions.challenge("druid", ["alice", "bob"], ["-size=5"], start=True)).game_id == 1
        async with site.browser() as alice, site.browser() as watcher:
            await alice.sign_in("alice")
            stream = await watcher.session.get("/g/1/events")
            assert (await next_event(stream))["move_number"] == 0
            played = await alice.post_json("/g/1/move", {"move": "c3", "guard": "1"})
            moved = await next_event(stream)
            stream.close()
    assert played.json()["ok"] is True
    assert moved["move_number"] == 1 and moved["history"] == [{"n": 1, "text": "alice: c3"}]


class Monotonic:
    """A monotonic clock tests move by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_changes_heard_never_put_the_poll_off(site: Site) -> None:
    """Game 2 changes where nobody hears of it while game 1 is heard of: before the poll is due only game 1 is
    checked; once it is due, the next wake checks every watched game, so game 2's page gets its move."""
    assert (await site.actions.challenge("druid", ["carol", "dave"], ["-size=5"], start=True)).game_id == 2
    clock = Monotonic()
    published: list[int] = []

    async def publish(game_id: int, view: str) -> bytes:
        published.append(game_id)
        return f"game {game_id}".encode()

    hub = Hub(site.store, publish, interval=60.0, monotonic=clock)
    async with hub.watch(1) as first, hub.watch(2) as second:
        assert await hub.step() == 0  # woken by the new pages: nothing changed
        async with elsewhere(site.path) as console:
            assert (await console.move(2, "carol", "c3")).ok
            assert (await console.move(1, "bob", "b2")).ok
        hub.heard(1)
        assert await hub.step() == 1 and first.unread and not second.unread
        clock.now += 61.0
        hub.heard(1)  # heard again, unchanged since: the poll is due all the same
        assert await hub.step() == 1 and second.unread
    assert published == [1, 2] and second.latest == b"game 2"
