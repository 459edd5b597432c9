"""The web UI's pages, as a visitor reads them: the lobby, a game (as it stands and after move n), its JSON, its
boards, the replay, leaderboards, profiles and rules pages; what is escaped, and what is never shown (the dice
seed)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.actions import Actions
from bot.web.helpdocs import _markdown, rules_html
from tests.webtools import Site, serving


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    async with serving(tmp_path / "pbm.sqlite3") as site:
        actions = site.actions
        assert (await actions.challenge("druid", ["alice", "bob"], ["-size=5"], start=True)).game_id == 1
        assert (await actions.move(1, "alice", "c3")).ok
        site.clock.now += 3600  # each game starts an hour after the one before
        assert (await actions.challenge("backgammon", ["alice", "bob"], [], start=True)).game_id == 2
        site.clock.now += 3600
        assert (await actions.challenge("dragons", ["carol", "alice"], [], start=True)).game_id == 3
        site.clock.now += 3600
        assert (await actions.challenge("drogo", ["bob", "carol"], ["-untimed"], start=True)).game_id == 4
        yield site


async def won_by_alice(site: Site) -> None:
    """Game 1 played on and resigned by bob: a rated win for alice (a resignation in the first round declines)."""
    assert (await site.actions.move(1, "bob", "b2")).ok
    assert (await site.actions.move(1, "alice", "a1")).ok
    assert (await site.actions.resign(1, "bob")).status == "finished"


async def test_the_lobby_lists_running_games_least_time_left_first(site: Site) -> None:
    async with site.browser() as browser:
        page = await browser.get("/")
    assert page.status == 200 and page.heading == "Running games"
    text = page.text
    # started an hour apart: the oldest clock first; the untimed Drogo game (no deadline) last
    places = [
        text.index(f"{title} {n}</span>") for n, title in enumerate(("Druid", "Backgammon", "Dragons", "Drogo"), 1)
    ]
    assert places == sorted(places)
    assert '<span class="standing">bob to move, move 1</span>' in text and "6d 21h left" in text
    assert "No game has finished yet." in text and "No open challenges." in text
    assert "Sign in</a> to challenge someone" in text  # a visitor sees no form


async def test_the_game_page_shows_the_board_the_turn_the_clocks_and_the_moves(site: Site) -> None:
    async with site.browser() as browser:
        page = await browser.get("/g/1")
    assert page.status == 200
    assert page.heading == "Druid 1: bob to move (move 2)"
    assert '<svg role="group" aria-label="Druid 1: bob to move (move 2): the board"' in page.text
    # bob's clock, as of three hours after his turn began, counted down by the page from there
    assert 'data-player="bob" data-left="594000" data-running="1">6d 21h left' in page.text
    assert '<a href="/g/1?at=1">1. alice: c3</a>' in page.text
    assert "Options: -size=5; 7 days per move." in page.text
    assert "rated: alice 1000?, bob 1000?" in page.text


async def test_a_scene_game_is_drawn_inline_as_svg_with_tagged_points(site: Site) -> None:
    async with site.browser() as browser:
        page = await browser.get("/g/2")
        alone = await browser.get("/g/2/board.svg")
    assert '<svg role="group" aria-label="Backgammon 2: alice to move (move 1): the board"' in page.text
    assert '<g data-kind="point" data-id="13" role="img" aria-label="point 13, 5 O checkers">' in page.text
    assert alone.status == 200 and alone.text.startswith("<svg ") and 'data-kind="point"' in alone.text


async def test_a_druid_board_is_svg_with_tapable_cells_and_a_png_too(site: Site) -> None:
    async with site.browser() as browser:
        alone = await browser.get("/g/1/board.svg")
        png = await browser.session.get("/g/1/board.png")
        body = await png.read()
    assert alone.status == 200 and 'data-kind="cell" data-id="c3"' in alone.text
    assert png.status == 200 and png.content_type == "image/png" and body.startswith(b"\x89PNG")


async def test_the_position_after_move_n_and_the_start(site: Site) -> None:
    async with site.browser() as browser:
        start = await browser.get("/g/1?at=0")
        after = await browser.get("/g/1?at=1")
        missing = await browser.get("/g/1?at=7")
        unreadable = await browser.get("/g/1?at=x1")
    assert start.status == 200 and "The position after move 0." in start.text
    assert '<a href="/g/1?at=0" aria-current="true">Start</a>' in start.text
    assert 'href="/g/1?at=1" aria-current="true">1. alice: c3</a>' in after.text
    assert 'aria-label="Druid 1' in after.text and 'id="move-form"' not in after.text
    assert missing.status == 404 and missing.heading == "game 1 has moves 0 to 1; there is no move 7."
    assert unreadable.status == 400 and unreadable.heading == "'x1' is not a move number: write it with the digits 0-9."


async def test_an_unknown_game_is_one_sentence_everywhere(site: Site) -> None:
    async with site.browser() as browser:
        for path in ("/g/99", "/g/99.json", "/g/99/board.png", "/g/99/replay", "/g/99/events"):
            page = await browser.get(path)
            assert page.status == 404, path
            said = page.json()["message"] if path.endswith(".json") else page.heading
            assert said in ("there is no game 99.", "There is no such page."), (path, said)
            assert "Traceback" not in page.text
        huge = await browser.get("/g/99999999999999999999")
    assert huge.status == 404 and huge.heading == "There is no such page."


async def test_the_json_view_has_what_the_scripts_need_and_never_the_seed(site: Site) -> None:
    seeded = Actions(site.store, seed_source=lambda: 8_765_432_109_876_543, clock=site.clock)
    assert (await seeded.challenge("backgammon", ["dave", "erin"], [], start=True)).game_id == 5
    row = await site.game_row(5)
    async with site.browser() as browser:
        page = await browser.get("/g/5.json")
        shown = await browser.get("/g/5")
        streamed = await browser.session.get("/g/5/events")
        first = b"".join([await streamed.content.readuntil(b"\n\n") for _ in range(3)])  # retry, time, position
        streamed.close()
        page2 = await browser.get("/g/2.json")
    view = page2.json()
    assert view["ok"] is True and view["guard"] == 1 and view["to_move"] == "alice" and view["status"] == "active"
    assert view["clock"] == {"alice": 597600, "bob": 604800} and view["running"] == "alice"
    assert view["board"]["kind"] == "svg" and view["legal_moves"] == [] and view["plays"] is False
    assert b"event: position" in first
    for text in (page.text, shown.text, first.decode()):
        assert "seed" not in text.lower() and str(row.seed) not in text


async def test_the_replay_names_every_position(site: Site) -> None:
    for move in ("b2", "a1"):
        mover = (await site.actions.show(1)).to_move
        assert mover is not None and (await site.actions.move(1, mover, move)).ok
    async with site.browser() as browser:
        page = await browser.get("/g/1/replay")
        first = await browser.get("/g/1/replay?at=0")
        frames = (await browser.get("/g/1/replay.json")).json()
    assert page.status == 200 and 'id="caption" aria-live="polite">3. alice: a1</p>' in page.text
    assert 'href="/g/1/replay?at=2" aria-label="Previous position"' in page.text
    assert "the start" in first.text and 'href="/g/1/replay?at=1" aria-label="Next position"' in first.text
    assert frames == {
        "ok": True,
        "game_id": 1,
        "frames": [
            {"at": 0, "caption": "the start"},
            {"at": 1, "caption": "1. alice: c3"},
            {"at": 2, "caption": "2. bob: b2"},
            {"at": 3, "caption": "3. alice: a1"},
        ],
    }


async def test_leaderboards_page_and_filter_by_variant(site: Site) -> None:
    await won_by_alice(site)
    async with site.browser() as browser:
        board = await browser.get("/ratings/druid")
        variant = await browser.get("/ratings/druid?variant=-size=5")
        other = await browser.get("/ratings/druid?variant=-hex")
        no_page = await browser.get("/ratings/druid?page=3")
        unknown = await browser.get("/ratings/chess")
        bad_page = await browser.get("/ratings/druid?page=0")
    assert board.status == 200 and "Druid ratings: 2 players, page 1 of 1." in board.text
    assert '<td><a href="/u/alice">alice</a></td>' in board.text
    assert variant.status == 200 and "Druid (-size=5) ratings: 2 players" in variant.text
    assert "nobody has played a rated Druid (-hex) game yet." in other.text
    assert no_page.status == 404 and no_page.heading == "the Druid leaderboard has 1 page: there is no page 3."
    assert unknown.status == 404 and "unknown game 'chess'" in unknown.heading.lower()
    assert bad_page.status == 400


async def test_a_profile_with_its_chart_and_head_to_head(site: Site) -> None:
    await won_by_alice(site)
    async with site.browser() as browser:
        page = await browser.get("/u/alice?vs=bob")
        chart = await browser.session.get("/u/alice/chart.png")
        picture = await chart.read()
        nobody = await browser.get("/u/zed")
        bad = await browser.get("/u/al%3Cice")
    assert page.status == 200 and page.heading == "alice"
    assert "alice against bob: 1 game, alice 1 win, bob 0 wins, 0 draws" in page.text
    assert "Druid: 1 game, alice 1 win, bob 0 wins, 0 draws" in page.text
    assert chart.status == 200 and picture.startswith(b"\x89PNG")
    assert nobody.status == 404 and nobody.heading == "there is no player zed."
    assert bad.status == 404 and "&lt;" in bad.text and "<ice" not in bad.text


async def test_rules_pages_are_rendered_and_link_to_each_other(site: Site) -> None:
    async with site.browser() as browser:
        index = await browser.get("/help")
        druid = await browser.get("/help/druid")
        upper = await browser.get("/help/Druid")
    assert index.status == 200 and '<a href="/help/drogo"><strong>Drogo</strong></a>' in index.text
    assert druid.status == 200 and "<h1>Druid</h1>" in druid.text and '<table tabindex="0">' in druid.text
    assert upper.status == 301 and upper.location == "/help/druid"


def test_markdown_escapes_html_and_drops_unsafe_links() -> None:
    html = _markdown().render(
        "<script>alert(1)</script>\n\n[x](javascript:alert(1)) [druid](druid.md) [readme](../README.md)"
        " [out](https://example.org) <img src=x onerror=alert(1)>"
    )
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "javascript:" not in html.replace("[x](javascript:alert(1))", "")
    assert '<a href="/help/druid">druid</a>' in html
    assert "readme" in html and "README.md" not in html
    assert '<a href="https://example.org" rel="noopener noreferrer">out</a>' in html
    assert "<img" not in html
    assert rules_html("dragons").startswith("<h1>Dragons</h1>")


async def test_every_page_carries_the_security_headers(site: Site) -> None:
    async with site.browser() as browser:
        for path in ("/", "/g/1", "/g/99", "/help/druid", "/g/1.json"):
            answer = await browser.session.get(path)
            headers = answer.headers
            assert "script-src 'self'" in headers["Content-Security-Policy"], path
            assert "'unsafe-inline'" not in headers["Content-Security-Policy"]
            assert headers["X-Content-Type-Options"] == "nosniff" and headers["X-Frame-Options"] == "DENY"
            answer.release()
        page = await browser.get("/g/1")
    assert "<script>" not in page.text and " style=" not in page.text and "onclick" not in page.text


async def test_static_scripts_are_served_by_pbm_with_a_version(site: Site) -> None:
    async with site.browser() as browser:
        page = await browser.get("/g/1")
        src = page.text.split('<script type="module" src="', 1)[1].split('"', 1)[0]
        script = await browser.session.get(src)
        body = await script.text()
    assert src.startswith("/static/game.js?v=")
    assert script.status == 200 and "javascript" in script.content_type and "EventSource" in body
    assert "http://" not in body and "https://" not in body  # nothing fetched from outside


async def test_json_of_a_position_is_public_and_the_same_as_the_page(site: Site) -> None:
    async with site.browser() as browser:
        view = (await browser.get("/g/1.json?at=1")).json()
    assert view["at"] == 1 and view["guard"] is None and view["move_number"] == 1
    assert json.dumps(view).count("alice: c3") == 1
