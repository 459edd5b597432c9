"""The web UI's pages in a real browser: a move made at the console reaches open pages by itself within a second
(Server-Sent Events), the replay steps by its slider and by the arrow keys and plays by itself, the new-challenge
form shows a mistake beside its field, Druid's 3D view is a toggle that stays live, and the settings form shows what
is set."""

from __future__ import annotations

import time
from typing import Any

from tests.browser.live import LiveSite, expect

#: the most a move made anywhere may take to show on an open page (the issue: "within one second")
LIVE_SECONDS = 1.0


def druid(site: LiveSite, *moves: str) -> int:
    """A Druid game on a 5x5 board between alice and bob, with ``moves`` played in turn."""
    game_id = site.run(site.actions.challenge("druid", ["alice", "bob"], ["-size=5"], start=True)).game_id
    for number, move in enumerate(moves):
        assert site.run(site.actions.move(game_id, ("alice", "bob")[number % 2], move)).ok
    return game_id


def open_live(page: Any, site: LiveSite, path: str) -> None:
    """Open ``path`` and wait until its event stream is connected (its response has arrived)."""
    with page.expect_response(lambda response: "/events" in response.url):
        page.goto(site.url(path))


def test_a_console_move_reaches_open_pages_within_a_second(site: LiveSite, phone: Any, new_page: Any) -> None:
    game_id = druid(site)
    site.clock.now += 3 * 3600  # alice has thought for three hours (the console acts at the same time)
    site.sign_in(phone, "bob")
    viewer = new_page("desktop", "dark")
    open_live(phone, site, f"/g/{game_id}")
    open_live(viewer, site, f"/g/{game_id}")
    expect(viewer.locator("#players .clock[data-player=alice]")).to_have_text("6d 20h left")
    expect(phone.get_by_role("heading", name="Waiting for alice")).to_be_visible()

    site.console(f"druid move {game_id} c3", as_user="alice")
    returned = time.monotonic()
    for page in (viewer, phone):
        expect(page.locator("#headline")).to_have_text("Druid 1: bob to move (move 2)", timeout=LIVE_SECONDS * 1000)
    took = time.monotonic() - returned
    assert took < LIVE_SECONDS, f"the console's move took {took:.2f} s to show on both pages"
    expect(viewer.get_by_role("link", name="1. alice: c3")).to_be_visible()
    expect(viewer.locator("#players li.to-move a")).to_have_text("bob")
    expect(phone.get_by_role("heading", name="Your move")).to_be_visible()  # bob's page offers him his move
    expect(phone.get_by_label("Move", exact=True)).to_be_editable()


def test_a_replay_steps_by_slider_and_arrow_keys(site: LiveSite, desktop: Any) -> None:
    game_id = druid(site, "c3", "b2", "d4")
    desktop.goto(site.url(f"/g/{game_id}/replay"))
    caption = desktop.locator("#caption")
    slider = desktop.get_by_role("slider", name="Position")
    expect(caption).to_have_text("3. alice: d4")
    expect(desktop.locator("#play")).to_be_visible()  # the script has read the frames
    last_board = desktop.locator("#board svg").get_attribute("aria-label")

    slider.fill("1")
    expect(caption).to_have_text("1. alice: c3")
    expect(desktop).to_have_url(site.url(f"/g/{game_id}/replay?at=1"))
    desktop.keyboard.press("ArrowRight")
    expect(caption).to_have_text("2. bob: b2")
    expect(slider).to_have_value("2")
    desktop.keyboard.press("ArrowLeft")
    desktop.keyboard.press("ArrowLeft")
    expect(caption).to_have_text("the start")
    expect(desktop.locator("#board svg")).not_to_have_attribute("aria-label", last_board)
    desktop.keyboard.press("ArrowLeft")  # already at the start: stays there
    expect(slider).to_have_value("0")
    desktop.get_by_role("link", name="Next position").click()
    expect(caption).to_have_text("1. alice: c3")

    play = desktop.get_by_role("button", name="Play")
    desktop.keyboard.press(" ")  # the space bar plays: a position every 0.9 s, then it stops at the end
    expect(desktop.locator("#play")).to_have_attribute("aria-pressed", "true")
    expect(desktop.locator("#play")).to_have_text("Pause")
    expect(caption).to_have_text("3. alice: d4", timeout=5000)
    expect(play).to_have_attribute("aria-pressed", "false")
    expect(slider).to_have_value("3")


def test_a_challenge_mistake_is_shown_beside_its_field(site: LiveSite, phone: Any) -> None:
    site.sign_in(phone, "alice")
    form = phone.locator("#new-challenge")
    form.get_by_label("Game").select_option("druid")
    expect(phone.locator("fieldset.game-options[data-game=dragons]")).to_be_hidden()
    form.get_by_label("Opponent", exact=True).fill("bob")
    form.get_by_role("textbox", name="-size").fill("99")
    form.get_by_role("button", name="Challenge").click()
    size = phone.get_by_role("textbox", name="-size")
    expect(size).to_have_attribute("aria-invalid", "true")
    expect(size).to_have_accessible_description("cells along each edge Option -size=99 is out of range (3..26).")
    expect(phone.locator("#druid-size-error")).to_have_text("Option -size=99 is out of range (3..26).")
    expect(phone.get_by_label("Opponent", exact=True)).to_have_value("bob")  # what was typed is kept
    assert site.run(site.site.store.open_challenges()) == []

    size.fill("5")
    phone.locator("#new-challenge").get_by_role("button", name="Challenge").click()
    mine = phone.get_by_role("region", name="Your challenges").get_by_role("listitem")
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text("challenge 1: alice, bob -size=5")


def test_the_3d_view_is_a_toggle_that_stays_live(site: LiveSite, desktop: Any) -> None:
    game_id = druid(site, "c3")
    desktop.goto(site.url(f"/g/{game_id}"))
    top = desktop.get_by_role("link", name="Top-down view")
    solid = desktop.get_by_role("link", name="3D view")
    expect(top).to_have_attribute("aria-current", "true")
    board = desktop.locator("#board svg")
    expect(board).to_have_attribute("aria-label", "Druid 1: bob to move (move 2): the board")
    with desktop.expect_response(lambda response: "/events" in response.url):
        solid.click()
    expect(desktop).to_have_url(site.url(f"/g/{game_id}?view=3d"))
    expect(solid).to_have_attribute("aria-current", "true")
    expect(top).not_to_have_attribute("aria-current", "true")
    expect(board).to_have_attribute("aria-label", "Druid 1: bob to move (move 2): the board in 3D")

    assert site.run(site.actions.move(game_id, "bob", "b2")).ok
    expect(desktop.locator("#headline")).to_have_text("Druid 1: alice to move (move 3)")
    expect(board).to_have_attribute("aria-label", "Druid 1: alice to move (move 3): the board in 3D")
    top.click()
    expect(desktop).to_have_url(site.url(f"/g/{game_id}"))
    expect(top).to_have_attribute("aria-current", "true")
    expect(board).to_have_attribute("aria-label", "Druid 1: alice to move (move 3): the board")


def test_the_settings_show_what_is_set_and_save_it(site: LiveSite, phone: Any) -> None:
    site.sign_in(phone, "alice")
    phone.get_by_role("link", name="Settings").click()
    previews = phone.get_by_role("group", name="Preview every move first (Discord; the web always previews)")
    dms = phone.get_by_role("group", name="DMs about your turns (Discord)")
    expect(previews.get_by_role("radio", name="off")).to_be_checked()
    expect(dms.get_by_role("radio", name="off")).to_be_checked()
    previews.get_by_role("radio", name="on").check()
    phone.get_by_label("Time zone").fill("Europe/Paris")
    phone.get_by_role("button", name="Save").click()
    expect(phone.get_by_role("status")).to_have_text("Saved.")
    expect(
        phone.get_by_text("alice: time zone Europe/Paris, quiet hours none, preview before each move on")
    ).to_be_visible()
    phone.reload()
    expect(previews.get_by_role("radio", name="on")).to_be_checked()  # what is set is what the form shows
    expect(dms.get_by_role("radio", name="off")).to_be_checked()
