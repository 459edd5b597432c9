"""The web UI and the Discord front together, through the fake Discord: the turn message's "Open board" link,
``/web``'s one-time link, and a move made on the web posted in the game's thread (at once when the bot runs in
the same process, by the bot's sweep when it does not)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.discord.web_bridge import WebAnnouncer
from tests.fakediscord.pbm import FakeClock, pbm_running, start_game
from tests.webtools import serving

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]
PUBLIC = "https://pbm.example.org"


def link_buttons(components: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Every link button in a message's components: (label, url)."""
    found = []
    for component in components:
        if component.get("type") == 2 and component.get("style") == 5:
            found.append((component["label"], component["url"]))
        found += link_buttons(component.get("components", []))
    return found


async def test_the_turn_message_opens_the_games_page(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3", web_public_url=PUBLIC):
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        opening = table.last_post()
    assert link_buttons(opening.components) == [("Open board", f"{PUBLIC}/g/1")]


async def test_without_a_public_address_there_is_no_link(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3"):
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        opening = table.last_post()
        refused = await w.fake.reply(await w.fake.slash(w.alice, w.channel, "web", {}))
    assert link_buttons(opening.components) == []
    assert refused.ephemeral and refused.text() == (
        "The web UI has no public address here (the admin has not set PBM_WEB_PUBLIC_URL), so a link would reach"
        " nobody."
    )


async def test_web_hands_out_a_one_time_link_privately(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    db = tmp_path / "pbm.sqlite3"
    async with pbm_running(w.fake, db, web_public_url=PUBLIC):
        answer = await w.fake.reply(await w.fake.slash(w.alice, w.channel, "web", {}))
    said = answer.text()
    assert answer.ephemeral and said.startswith(f"Sign-in link for alice (works once, for 15 minutes): {PUBLIC}/")
    path = said.split(PUBLIC, 1)[1]
    async with serving(db, clock=FakeClock()) as site, site.browser() as browser:
        await browser.get(path)
        used = await browser.post(path)
        lobby = await browser.get("/")
    assert used.status == 303 and '<a href="/u/alice">alice</a>' in lobby.text


async def test_a_web_move_is_posted_in_the_thread_at_once(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    db = tmp_path / "pbm.sqlite3"
    async with pbm_running(w.fake, db) as bot:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        before = table.last_post().id
        async with serving(db, announcer=WebAnnouncer(bot), clock=FakeClock()) as site, site.browser() as alice:
            await alice.sign_in("alice")
            played = await alice.post("/g/1/move", {"move": "c3", "guard": "1"})
            posted = await w.fake.next_message(table.thread.id, after=before, timeout=10)
            assert await site.store.unposted_boards() == []
    assert played.status == 303
    assert posted.pinged == [w.bob] and "alice played c3" in posted.text()


async def test_a_web_move_without_the_bot_is_posted_by_its_sweep(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    db = tmp_path / "pbm.sqlite3"
    async with pbm_running(w.fake, db) as bot:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        before = table.last_post().id
        async with serving(db, clock=FakeClock()) as site, site.browser() as alice:
            await alice.sign_in("alice")
            played = await alice.post("/g/1/move", {"move": "c3", "guard": "1"})
            marked = await site.store.unposted_boards()
            resigned = await alice.post("/g/1/resign", {"guard": "3"})
        assert played.status == 303 and [game for game, _ in marked] == [1]
        assert len(w.fake.channel_log(table.thread.id)) == 1  # nothing posted by the web itself
        assert await bot.front.repost_pending(grace=0) == 1
        posted = await w.fake.next_message(table.thread.id, after=before, timeout=10)
    assert resigned.status == 409  # a stale guard: nothing marked for it
    assert posted.pinged == [w.bob] and "Druid 1: bob to move (move 2)" in posted.text()
