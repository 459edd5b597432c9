"""Accessibility in a real browser: axe-core's rules on every kind of page (lobby, game as a viewer and as a
player, replay, ratings, profile, help, settings, sign-in, a refusal), in light and in dark, on a phone and on a
desktop, and with each way of signing in on offer (trusted local play's "Play as", Discord): no serious or critical
violation."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.live import LiveSite, expect, sample_games

#: the impacts that fail a page (axe's "minor" and "moderate" are reported by axe but not counted here)
FAILING = ("serious", "critical")


def violations(page: Any) -> list[str]:
    """axe-core's serious and critical findings on the page as shown, one line each."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [
        f"{page.url}: {v['id']} ({v['impact']}): {v['help']}: " + "; ".join(n["target"][0] for n in v["nodes"][:4])
        for v in found
        if v["impact"] in FAILING
    ]


def pages_of(site: LiveSite, ids: dict[str, int]) -> list[str]:
    druid = ids["druid"]
    return [
        "/",
        *(f"/g/{ids[name]}" for name in ("druid", "backgammon", "dragons", "drogo", "finished")),
        f"/g/{druid}?view=3d",
        f"/g/{druid}?at=1",
        f"/g/{druid}/replay",
        "/ratings/druid",
        "/u/alice",
        "/help",
        "/help/druid",
        "/help/backgammon",
        "/signin",
        "/g/999",
    ]


@pytest.mark.parametrize(("size", "scheme"), [("desktop", "light"), ("desktop", "dark"), ("phone", "dark")])
def test_no_serious_accessibility_violations(site: LiveSite, new_page: Any, size: str, scheme: str) -> None:
    ids = sample_games(site)
    found: list[str] = []
    visitor = new_page(size, scheme)
    for path in pages_of(site, ids):
        visitor.goto(site.url(path))
        found += violations(visitor)
    visitor.goto(site.link("alice"))
    found += violations(visitor)  # the sign-in link's page

    waiting = new_page(size, scheme)
    site.sign_in(waiting, "alice")
    for path in ("/", f"/g/{ids['drogo']}", "/settings", "/u/alice"):
        waiting.goto(site.url(path))
        found += violations(waiting)
    waiting.goto(site.url(f"/g/{ids['druid']}"))
    waiting.get_by_text("Resign, propose, queue").click()
    found += violations(waiting)  # waiting for bob: the queue form open

    mover = new_page(size, scheme)
    site.sign_in(mover, "bob")
    mover.goto(site.url(f"/g/{ids['druid']}"))
    found += violations(mover)  # a player to move: the move form
    mover.get_by_label("Move", exact=True).fill("e5")
    mover.get_by_role("button", name="Preview").click()
    expect(mover.get_by_role("heading", name="Preview: not played yet")).to_be_visible()
    found += violations(mover)  # the preview of a move
    mover.get_by_role("button", name="Cancel").click()
    mover.get_by_label("Move", exact=True).fill("z9")
    mover.get_by_role("button", name="Preview").click()
    expect(mover.locator("#status-error")).to_be_visible()
    found += violations(mover)  # a refused move's line
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_sign_in_choices_have_no_serious_violations(make_site: Any, new_page: Any, scheme: str) -> None:
    local = make_site(local=True)  # trusted local play: the "Play as" field in every page's header
    ids = sample_games(local)
    page = new_page("phone", scheme)
    found: list[str] = []
    for path in ("/", f"/g/{ids['druid']}", "/signin"):
        page.goto(local.url(path))
        expect(page.get_by_label("Play as")).to_be_visible()
        found += violations(page)
    discord = make_site(oauth=True)  # "Sign in with Discord"
    page.goto(discord.url("/signin"))
    expect(page.get_by_role("link", name="Sign in with Discord")).to_be_visible()
    found += violations(page)
    assert found == [], "\n".join(found)
