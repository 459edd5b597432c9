"""The board's second picture on the web (issue 27): Druid's and Drogo's 3D view, asked for with a toggle beside
the board (``?view=3d``, a plain link), kept by the page's JSON, its board addresses and its live events; the
top-down board stays the default, and the games without a 3D view refuse it in one sentence."""

from __future__ import annotations

import html
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import render
from tests.test_web_live import next_event
from tests.webtools import Page, Site, serving

NO_3D = "there is no 3D view of {} boards; Drogo and Druid have one."
#: the toggle's links as a page carries them
_LINK = re.compile(r'<a class="button" href="([^"]*)"( aria-current="true")?>(Top-down view|3D view)</a>')


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    async with serving(tmp_path / "pbm.sqlite3") as site:
        actions = site.actions
        assert (await actions.challenge("druid", ["alice", "bob"], ["-size=5"], start=True)).game_id == 1
        assert (await actions.move(1, "alice", "c3")).ok
        assert (await actions.challenge("backgammon", ["alice", "bob"], [], start=True)).game_id == 2
        assert (await actions.challenge("dragons", ["carol", "alice"], [], start=True)).game_id == 3
        assert (await actions.challenge("drogo", ["bob", "carol"], ["-untimed"], start=True)).game_id == 4
        yield site


async def drawn(site: Site, game_id: int, view: str, at: int | None = None) -> str:
    """The SVG render draws of the game's board in ``view``, without the opening ``<svg `` (the page adds its
    label there)."""
    shown = await site.actions.show(game_id, at)
    assert shown.state is not None
    return render.board_svg(shown.state, None, shown.seat_ratings() or None, view).removeprefix("<svg ")


def toggle(page: Page) -> list[tuple[str, str, bool]]:
    """The toggle's links: (name, address, whether it is the view shown)."""
    return [(name, html.unescape(href), bool(current)) for href, current, name in _LINK.findall(page.text)]


async def test_druid_and_drogo_pages_have_the_toggle_and_show_the_top_board_first(site: Site) -> None:
    async with site.browser() as browser:
        pages = {game_id: await browser.get(f"/g/{game_id}") for game_id in (1, 2, 3, 4)}
    for game_id in (1, 4):
        assert toggle(pages[game_id]) == [
            ("Top-down view", f"/g/{game_id}", True),
            ("3D view", f"/g/{game_id}?view=3d", False),
        ]
        assert '<nav class="views" aria-label="Board view">' in pages[game_id].text
        assert await drawn(site, game_id, "top") in pages[game_id].text
        assert await drawn(site, game_id, "3d") not in pages[game_id].text
    for game_id in (2, 3):
        assert pages[game_id].status == 200 and toggle(pages[game_id]) == []
        assert "3D view" not in pages[game_id].text and 'class="views"' not in pages[game_id].text


async def test_the_3d_view_shows_the_3d_board_and_keeps_the_view_in_every_link(site: Site) -> None:
    async with site.browser() as browser:
        page = await browser.get("/g/1?view=3d")
        drogo = await browser.get("/g/4?view=3d")
        top = await browser.get("/g/1?view=top")
    assert page.status == 200 and page.heading == "Druid 1: bob to move (move 2)"
    assert '<svg role="group" aria-label="Druid 1: bob to move (move 2): the board in 3D"' in page.text
    assert await drawn(site, 1, "3d") in page.text and await drawn(site, 1, "top") not in page.text
    assert 'data-kind="ground"' in page.text and 'data-kind="surround"' not in page.text
    assert toggle(page) == [("Top-down view", "/g/1", False), ("3D view", "/g/1?view=3d", True)]
    assert 'data-view="3d"' in page.text
    assert '<a href="/g/1?at=0&amp;view=3d">Start</a>' in page.text
    assert '<a href="/g/1?at=1&amp;view=3d">1. alice: c3</a>' in page.text
    assert drogo.status == 200 and await drawn(site, 4, "3d") in drogo.text
    assert top.status == 200 and await drawn(site, 1, "top") in top.text and 'data-view="top"' in top.text


async def test_a_past_position_in_3d_and_its_way_back(site: Site) -> None:
    async with site.browser() as browser:
        page = await browser.get("/g/1?at=0&view=3d")
    assert page.status == 200 and "The position after move 0." in page.text
    assert await drawn(site, 1, "3d", 0) in page.text and await drawn(site, 1, "3d") not in page.text
    assert toggle(page) == [("Top-down view", "/g/1?at=0", False), ("3D view", "/g/1?at=0&view=3d", True)]
    assert '<a href="/g/1?view=3d">Back to the game as it stands</a>' in page.text
    assert '<a href="/g/1?at=0&amp;view=3d" aria-current="true">Start</a>' in page.text


async def test_the_board_alone_in_3d_as_svg_and_png(site: Site) -> None:
    shown = await site.actions.show(1)
    assert shown.state is not None
    ratings = shown.seat_ratings() or None
    async with site.browser() as browser:
        svg = await browser.get("/g/1/board.svg?view=3d")
        answer = await browser.session.get("/g/1/board.png?view=3d")
        png = await answer.read()
        top = await (await browser.session.get("/g/1/board.png")).read()
        past = await browser.get("/g/1/board.svg?view=3d&at=0")
    assert svg.status == 200 and svg.text.startswith('<svg role="group" aria-label="game 1: the board in 3D" ')
    assert svg.text.endswith(await drawn(site, 1, "3d"))
    assert answer.status == 200 and answer.content_type == "image/png"
    assert png == render.board_png(shown.state, None, ratings, "3d") and png != top
    assert past.status == 200 and past.text.endswith(await drawn(site, 1, "3d", 0))


async def test_a_view_a_game_has_not_is_refused_in_one_sentence(site: Site) -> None:
    async with site.browser() as browser:
        for game_id, title in ((2, "Backgammon"), (3, "Dragons")):
            for path in (f"/g/{game_id}?view=3d", f"/g/{game_id}/board.svg?view=3d", f"/g/{game_id}/events?view=3d"):
                page = await browser.get(path)
                assert (page.status, page.heading) == (404, NO_3D.format(title)), path
            png = await browser.get(f"/g/{game_id}/board.png?view=3d")
            assert (png.status, png.heading) == (404, NO_3D.format(title))
            json_view = await browser.get(f"/g/{game_id}.json?view=3d")
            assert json_view.status == 404
            assert json_view.json() == {"ok": False, "message": NO_3D.format(title)}
        unknown = await browser.get("/g/1?view=iso")
        long = await browser.get("/g/1/board.svg?view=" + "x" * 40)
        stream = await browser.get("/g/1/events?view=side")
        missing = await browser.get("/g/99?view=3d")
    assert unknown.status == 400 and unknown.heading == "'iso' is not a board view: ask for view=top or view=3d."
    assert long.status == 400 and long.heading == f"'{'x' * 20}…' is not a board view: ask for view=top or view=3d."
    assert stream.status == 400 and stream.heading == "'side' is not a board view: ask for view=top or view=3d."
    assert missing.status == 404 and missing.heading == "there is no game 99."
    assert site.context.hub is not None and site.context.hub.watched == 0


async def test_the_json_view_keeps_the_view(site: Site) -> None:
    async with site.browser() as browser:
        flat = (await browser.get("/g/1.json")).json()
        deep = (await browser.get("/g/1.json?view=3d")).json()
    assert flat["view"] == "top" and deep["view"] == "3d"
    assert deep["board"]["kind"] == "svg" and deep["board"]["svg"].endswith(await drawn(site, 1, "3d"))
    assert flat["board"]["svg"].endswith(await drawn(site, 1, "top"))
    assert {k: v for k, v in deep.items() if k not in ("board", "view")} == {
        k: v for k, v in flat.items() if k not in ("board", "view")
    }


async def test_live_updates_keep_each_pages_view(site: Site) -> None:
    """One page on the top board and one in 3D: each new position reaches each in its own view."""
    async with site.browser() as browser:
        deep = await browser.session.get("/g/1/events?view=3d")
        flat = await browser.session.get("/g/1/events")
        first = await next_event(deep)
        assert first["view"] == "3d" and first["board"]["svg"].endswith(await drawn(site, 1, "3d"))
        assert (await next_event(flat))["view"] == "top"
        assert (await site.actions.move(1, "bob", "b2")).ok
        assert site.context.hub is not None and await site.context.hub.check() == 1
        moved_deep = await next_event(deep)
        moved_flat = await next_event(flat)
        deep.close()
        flat.close()
    assert moved_deep["move_number"] == moved_flat["move_number"] == 2
    assert moved_deep["view"] == "3d" and moved_deep["board"]["svg"].endswith(await drawn(site, 1, "3d"))
    assert moved_flat["view"] == "top" and moved_flat["board"]["svg"].endswith(await drawn(site, 1, "top"))
