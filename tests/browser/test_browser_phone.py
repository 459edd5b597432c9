"""The pages on a 360 px phone: nothing makes the page itself scroll sideways (a wide table scrolls in its own
box), and the sign-in page reads right when a one-time link is the only way in."""

from __future__ import annotations

from typing import Any

from tests.browser.live import LiveSite, expect, sample_games


def sideways(page: Any) -> int:
    """How many pixels the page is wider than the phone's screen (0: it fits)."""
    return int(page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth"))


def test_no_page_is_wider_than_a_phone(site: LiveSite, phone: Any, new_page: Any) -> None:
    ids = sample_games(site)
    paths = [
        "/",
        *(f"/g/{ids[name]}" for name in ("druid", "backgammon", "dragons", "drogo", "finished")),
        f"/g/{ids['druid']}?view=3d",
        f"/g/{ids['druid']}/replay",
        "/ratings/druid",
        "/u/alice",
        "/help",
        "/help/druid",
        "/help/backgammon",
        "/signin",
    ]
    wide = {}
    for path in paths:
        phone.goto(site.url(path))
        wide[path] = sideways(phone)
    player = new_page("phone", "dark")
    site.sign_in(player, "bob")
    for path in ("/", f"/g/{ids['druid']}", "/settings"):
        player.goto(site.url(path))
        wide[f"{path} (bob)"] = sideways(player)
    assert {path: px for path, px in wide.items() if px} == {}


def test_the_leaderboard_shows_every_result_on_a_phone(site: LiveSite, phone: Any) -> None:
    sample_games(site)
    phone.goto(site.url("/ratings/druid"))
    table = phone.get_by_role("region", name="Druid ratings").get_by_role("table")
    headers = table.get_by_role("columnheader")
    expect(headers).to_have_text(["Rank", "Player", "Rating", "Won", "Lost", "Drawn"])  # games played = their sum
    for header in ("Won", "Lost", "Drawn"):
        expect(table.get_by_role("columnheader", name=header)).to_be_in_viewport()
    expect(table.get_by_role("row").nth(1).get_by_role("cell")).to_have_text(["1", "alice", "1103?", "1", "0", "0"])


def test_the_sign_in_page_offers_the_link_alone_without_discord(site: LiveSite, phone: Any) -> None:
    phone.goto(site.url("/signin"))
    expect(phone.get_by_role("main").get_by_role("paragraph").first).to_have_text(
        "Use a one-time link: type /web in Discord, or ask whoever runs pbm for pbm web-link yourname. A link works"
        " once, within 15 minutes, and keeps you signed in here for 30 days."
    )
