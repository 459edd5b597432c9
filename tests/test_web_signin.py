"""Signing in to the web UI: one-time links (used once, within 15 minutes), sessions (30 days, ended everywhere by
pbm web-logout), trusted local play (only without a token, a public address or a non-loopback bind, and never
through a reverse proxy or under another host name), and Discord's OAuth2 through the fake Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from aiohttp.test_utils import unused_port

from bot.config import WebConfig
from bot.signin import LINK_SECONDS, SESSION_SECONDS, sign_in_link, token_key
from tests.fakediscord.server import FakeDiscord
from tests.webtools import Browser, Site, serving


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    async with serving(tmp_path / "pbm.sqlite3") as site:
        assert (await site.actions.challenge("druid", ["alice", "bob"], ["-size=5"], start=True)).game_id == 1
        yield site


async def link_path(site: Site, player: str) -> str:
    return (await sign_in_link(site.store, player, site.base, site.clock())).removeprefix(site.base)


async def test_a_link_signs_in_once(site: Site) -> None:
    path = await link_path(site, "alice")
    async with site.browser() as first, site.browser() as second:
        opened = await first.get(path)
        assert opened.status == 200 and opened.heading == "Sign in with this link"
        assert (await first.get(path)).status == 200  # opening it (a chat's preview) does not use it up
        used = await first.post(path)
        again = await second.post(path)
        lobby = await first.get("/")
    assert used.status == 303 and used.location == "/"
    assert '<a href="/u/alice">alice</a>' in lobby.text and "Sign out" in lobby.text
    assert again.status == 410 and again.heading.startswith(
        "This sign-in link has already been used (a link works once)"
    )


async def test_an_expired_or_unknown_link_is_refused(site: Site) -> None:
    path = await link_path(site, "alice")
    site.clock.now += LINK_SECONDS
    async with site.browser() as browser:
        expired = await browser.post(path)
        unknown = await browser.post("/signin/link/not-a-token")
        lobby = await browser.get("/")
    assert expired.status == 410
    assert expired.heading == (
        "This sign-in link has expired (links last 15 minutes): ask for a new one (pbm web-link <name> on the bot's"
        " machine, or /web in Discord)."
    )
    assert unknown.status == 404 and unknown.heading.startswith("This sign-in link is not valid")
    assert "Sign out" not in lobby.text


async def test_a_link_post_needs_the_form_token(site: Site) -> None:
    path = await link_path(site, "alice")
    async with site.browser() as browser:
        refused = await browser.post(path, csrf=False)
        used = await browser.post(path)
    assert refused.status == 403 and used.status == 303  # the refused attempt did not use the link up


async def test_a_session_lasts_thirty_days_and_signs_out(site: Site) -> None:
    async with site.browser() as alice:
        await alice.sign_in("alice")
        site.clock.now += SESSION_SECONDS - 60
        assert "Sign out" in (await alice.get("/")).text
        out = await alice.post("/signout")
        assert out.status == 303 and "Sign out" not in (await alice.get("/")).text
        await alice.sign_in("alice")
        site.clock.now += SESSION_SECONDS
        assert "Sign out" not in (await alice.get("/")).text


async def test_web_logout_ends_every_session_of_a_player(site: Site) -> None:
    async with site.browser() as phone, site.browser() as desktop, site.browser() as bob:
        for browser, player in ((phone, "alice"), (desktop, "alice"), (bob, "bob")):
            await browser.sign_in(player)
        assert await site.store.end_web_sessions("alice") == 2
        assert "Sign out" not in (await phone.get("/")).text
        assert "Sign out" not in (await desktop.get("/")).text
        assert "Sign out" in (await bob.get("/")).text


async def test_only_the_tokens_hash_is_stored(site: Site) -> None:
    async with site.browser() as alice:
        await alice.sign_in("alice")
        cookie = next(c for c in alice.session.cookie_jar if c.key == "pbm_session")
    rows = await site.store._db.execute("SELECT id, player_id FROM web_sessions")
    stored = [tuple(r) for r in await rows.fetchall()]
    assert stored == [(token_key(cookie.value), "alice")] and cookie.value not in str(stored)
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and cookie["path"] == "/" and not cookie["secure"]


async def test_cookies_are_secure_behind_https(tmp_path: Path) -> None:
    config = WebConfig(public_url="https://pbm.example.org")
    async with serving(tmp_path / "pbm.sqlite3", config=config) as site, site.browser() as browser:
        answer = await browser.session.get("/")
        cookie = answer.cookies["pbm_csrf"]
    assert cookie["secure"] and cookie["httponly"] and cookie["samesite"] == "Lax"


# ---- trusted local play --------------------------------------------------------------------------------------


async def play_as(browser: Browser, name: str) -> int:
    await browser.get("/")
    status = (await browser.post("/signin/local", {"name": name, "back": "/g/1"})).status
    await browser.get("/")  # the session's own form token
    return status


async def test_local_play_picks_a_name_and_plays(tmp_path: Path) -> None:
    async with serving(tmp_path / "pbm.sqlite3", local=True) as site, site.browser() as browser:
        assert (await site.actions.challenge("druid", ["alice", "bob"], ["-size=5"], start=True)).ok
        lobby = await browser.get("/")
        assert '<label for="play-as">Play as</label>' in lobby.text
        assert await play_as(browser, "alice") == 303
        moved = await browser.post("/g/1/move", {"move": "c3", "guard": "1"})
        refused = await browser.post("/signin/local", {"name": "ai:1"})
        assert moved.status == 303 and (await site.game_row(1)).move_number == 1
    assert refused.status == 400 and refused.heading == "ai:1 is a computer player: only people sign in."


@pytest.mark.parametrize(
    ("local", "config", "headers", "why"),
    [
        (False, WebConfig(), {}, "a token is set"),
        (True, WebConfig(public_url="http://pbm.example.org"), {}, "a public address is set"),
        (True, WebConfig(host="0.0.0.0"), {}, "listening beyond this machine"),
        (True, WebConfig(), {"X-Forwarded-For": "203.0.113.9"}, "a reverse proxy in front"),
        (True, WebConfig(), {"Forwarded": "for=203.0.113.9"}, "a reverse proxy in front"),
        (True, WebConfig(), {"X-Real-IP": "203.0.113.9"}, "a reverse proxy in front"),
        (True, WebConfig(), {"Host": "evil.example:8080"}, "another host name (DNS rebinding)"),
    ],
)
async def test_local_play_is_off_everywhere_else(
    tmp_path: Path, local: bool, config: WebConfig, headers: dict[str, str], why: str
) -> None:
    async with serving(tmp_path / "pbm.sqlite3", local=local, config=config) as site:
        assert (await site.actions.challenge("druid", ["alice", "bob"], ["-size=5"], start=True)).ok
        async with site.browser(headers) as browser:
            lobby = await browser.get("/")
            assert "Play as" not in lobby.text, why
            refused = await browser.post("/signin/local", {"name": "alice"})
            moved = await browser.post("/g/1/move", {"move": "c3", "guard": "1"})
        assert moved.status == 401 and (await site.game_row(1)).move_number == 0
    assert refused.status == 403, why
    assert refused.heading == "Choosing a name is for the local user of a pbm without Discord; sign in instead."


async def test_a_local_session_does_not_outlive_local_play(tmp_path: Path) -> None:
    async with serving(tmp_path / "pbm.sqlite3", local=True) as site:
        assert (await site.actions.challenge("druid", ["alice", "bob"], ["-size=5"], start=True)).ok
        async with site.browser() as browser:
            assert await play_as(browser, "alice") == 303
            cookie = next(c for c in browser.session.cookie_jar if c.key == "pbm_session").value
        async with site.browser({"X-Forwarded-For": "203.0.113.9"}) as proxied:
            proxied.session.cookie_jar.update_cookies({"pbm_session": cookie})
            page = await proxied.get("/")
            moved = await proxied.post("/g/1/move", {"move": "c3", "guard": "1"})
        assert moved.status == 401 and (await site.game_row(1)).move_number == 0
    assert "Sign out" not in page.text


# ---- Discord's OAuth2 ----------------------------------------------------------------------------------------


@pytest.fixture
async def discord() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@pytest.fixture
async def oauth_site(tmp_path: Path, discord: FakeDiscord) -> AsyncIterator[tuple[Site, FakeDiscord, int]]:
    port = unused_port()
    public = f"http://127.0.0.1:{port}"
    client_id, secret = discord.oauth.register(f"{public}/signin/discord/callback")
    config = WebConfig(
        public_url=public, oauth_client_id=client_id, oauth_client_secret=secret, discord_api=discord.base_url
    )
    guild = await discord.add_guild()
    alice = await discord.add_member(guild, "alice")
    async with serving(tmp_path / "pbm.sqlite3", config=config, port=port) as site:
        assert (await site.actions.challenge("druid", ["alice", "bob"], ["-size=5"], start=True)).ok
        yield site, discord, alice


async def through_discord(browser: Browser) -> tuple[str, str]:
    """Follow "Sign in with Discord" to the fake's page and back: where Discord sent the browser, and the answer."""
    started = await browser.get("/signin/discord")
    assert started.status == 302 and started.location is not None
    async with browser.session.get(started.location, allow_redirects=False) as answer:
        back = answer.headers["Location"]
    done = await browser.get(back.removeprefix(str(browser.site.base)))
    return back, f"{done.status} {done.location or done.heading}"


async def test_sign_in_with_discord_end_to_end(oauth_site: tuple[Site, FakeDiscord, int]) -> None:
    site, discord, alice = oauth_site
    discord.oauth.browser_signs_in_as(alice)
    async with site.browser() as browser:
        signin = await browser.get("/signin")
        assert '<a class="button" href="/signin/discord">Sign in with Discord</a>' in signin.text
        started = await browser.get("/signin/discord")
        query = parse_qs(urlsplit(started.location or "").query)
        assert query["scope"] == ["identify"] and query["response_type"] == ["code"]
        assert query["redirect_uri"] == [f"{site.base}/signin/discord/callback"]
        _back, said = await through_discord(browser)
        page = await browser.get("/g/1")
        moved = await browser.post("/g/1/move", {"move": "c3", "guard": "1"})
    assert said == "303 /"
    assert 'data-viewer="alice"' in page.text and moved.status == 303
    assert await site.store.discord_id_of("alice") == alice  # the console's alice is now this Discord account
    assert discord.oauth.calls == ["authorize", "token", "me"]


async def test_a_refused_or_forged_discord_sign_in_signs_nobody_in(oauth_site: tuple[Site, FakeDiscord, int]) -> None:
    site, discord, alice = oauth_site
    async with site.browser() as browser:
        discord.oauth.browser_refuses()
        _back, refused = await through_discord(browser)
        discord.oauth.browser_signs_in_as(alice)
        back, signed_in = await through_discord(browser)
        await browser.get("/")
        assert signed_in == "303 /" and (await browser.post("/signout")).status == 303
        code = parse_qs(urlsplit(back).query)["code"][0]
        again = await browser.get("/signin/discord")  # a new sign-in, with its own state, and the old code
        state = parse_qs(urlsplit(again.location or "").query)["state"][0]
        replayed = await browser.get(f"/signin/discord/callback?code={code}&state={state}")
        forged = await browser.get("/signin/discord/callback?code=x&state=not-mine")
        lobby = await browser.get("/")
    assert refused == "403 Discord did not sign you in (access_denied); nothing was changed."
    assert replayed.status == 502 and replayed.heading.startswith("Discord refused this sign-in")
    assert (
        forged.status == 403 and forged.heading == "This sign-in did not start here, or took too long; sign in again."
    )
    assert "Sign out" not in lobby.text


async def test_sign_in_with_discord_is_off_without_its_settings(site: Site) -> None:
    async with site.browser() as browser:
        signin = await browser.get("/signin")
        off = await browser.get("/signin/discord")
    assert "Sign in with Discord" not in signin.text
    assert off.status == 404 and off.heading == "Sign-in with Discord is not set up on this server."
