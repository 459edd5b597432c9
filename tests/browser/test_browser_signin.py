"""Signing in, in a real browser, then acting: a one-time link (as ``pbm web-link`` prints it), Discord's OAuth2
through the fake Discord, and trusted local play's "Play as" field; each ends with a move played on the page and
found in the database."""

from __future__ import annotations

from typing import Any

from tests.browser.live import LiveSite, expect


def druid(site: LiveSite) -> int:
    """A Druid game on a 5x5 board, alice to move."""
    return site.run(site.actions.challenge("druid", ["alice", "bob"], ["-size=5"], start=True)).game_id


def play_by_typing(site: LiveSite, page: Any, game_id: int, move: str) -> None:
    """Type ``move``, preview it, press Play, and wait until the page shows the other player to move."""
    page.goto(site.url(f"/g/{game_id}"))
    page.get_by_label("Move", exact=True).fill(move)
    page.get_by_role("button", name="Preview").click()
    expect(page.get_by_role("heading", name="Preview: not played yet")).to_be_visible()
    page.get_by_role("button", name=f"Play {move}").click()
    expect(page.locator("#headline")).to_contain_text("bob to move")


def test_a_one_time_link_signs_in_once_and_the_player_moves(site: LiveSite, phone: Any, new_page: Any) -> None:
    game_id = druid(site)
    link = site.link("alice")
    phone.goto(link)
    expect(phone.get_by_role("heading", level=1)).to_have_text("Sign in with this link")
    phone.get_by_role("button", name="Sign in").click()
    phone.wait_for_url(site.url("/"))
    expect(phone.get_by_role("button", name="Sign out")).to_be_visible()
    play_by_typing(site, phone, game_id, "c3")
    row = site.run(site.site.store.load_game(game_id))
    assert (row.log_length, row.to_move) == (1, "bob")

    other = new_page("desktop")
    other.goto(link)
    other.get_by_role("button", name="Sign in").click()
    expect(other.get_by_role("heading", level=1)).to_have_text(
        "This sign-in link has already been used (a link works once): ask for a new one (pbm web-link <name> on"
        " the bot's machine, or /web in Discord)."
    )
    expect(other.get_by_role("link", name="Sign in")).to_be_visible()


def test_sign_in_with_discord_then_move(make_site: Any, desktop: Any) -> None:
    site = make_site(oauth=True)
    game_id = druid(site)
    guild = site.run(site.discord.add_guild())
    alice = site.run(site.discord.add_member(guild, "alice"))
    site.discord.oauth.browser_signs_in_as(alice)
    desktop.goto(site.url("/signin"))
    desktop.get_by_role("link", name="Sign in with Discord").click()
    desktop.wait_for_url(site.url("/"))
    expect(desktop.get_by_role("link", name="alice", exact=True).first).to_be_visible()
    assert site.discord.oauth.calls == ["authorize", "token", "me"]
    play_by_typing(site, desktop, game_id, "c3")
    assert site.run(site.site.store.load_game(game_id)).log_length == 1
    assert site.run(site.site.store.discord_id_of("alice")) == alice


def test_a_refused_discord_sign_in_signs_nobody_in(make_site: Any, desktop: Any) -> None:
    site = make_site(oauth=True)
    site.discord.oauth.browser_refuses()
    desktop.goto(site.url("/signin"))
    desktop.get_by_role("link", name="Sign in with Discord").click()
    expect(desktop.get_by_role("heading", level=1)).to_have_text(
        "Discord did not sign you in (access_denied); nothing was changed."
    )
    expect(desktop.get_by_role("button", name="Sign out")).to_have_count(0)


def test_trusted_local_play_types_a_name_and_moves(make_site: Any, phone: Any) -> None:
    site = make_site(local=True)
    game_id = druid(site)
    phone.goto(site.url(f"/g/{game_id}"))
    site.play_as(phone, "alice")
    play_by_typing(site, phone, game_id, "c3")
    assert site.run(site.site.store.load_game(game_id)).to_move == "bob"
