"""Whole games played by tapping the board in a real browser, on a 360 px phone: Druid (sarsens and lintels; Walk's
druid steps apart), Drogo, Dragons and Backgammon (checker by checker, with the dice words as buttons), each player in
their own signed-in browser; and a Druid game played with the keyboard alone.

Each turn the test picks a move the way a player would: it follows the taps the page lights (the server's answer,
:mod:`bot.web.taps`), choosing among them at random (seeded), taps each on the board, checks that the move field
shows the move the taps make, previews it and presses Play; the database must then hold the move."""

from __future__ import annotations

import random
from typing import Any

from bot.web.taps import Tapper
from rules.rng import Rng
from tests.browser.live import LiveSite, expect
from tests.browser.test_browser_accessibility import violations

#: the most turns a game may take before the test gives up on it ending
MAX_TURNS = 400


def start(site: LiveSite, game: str, options: list[str]) -> int:
    return site.run(site.actions.challenge(game, ["alice", "bob"], options, start=True)).game_id


def pick(state: Any, rng: random.Random) -> tuple[list[str], str | None]:
    """A random walk over the taps the page lights, to a whole move (``None``: no move is made by taps now)."""
    tapper = Tapper(state)
    taps: list[str] = []
    answer = tapper.answer(taps)
    if not answer.lit:
        return [], None
    while answer.lit and not (answer.move and rng.random() < 0.4):
        taps.append(rng.choice(answer.lit))
        answer = tapper.answer(taps)
    return taps, answer.move


def tap(page: Any, where: str) -> None:
    """Tap a place on the board as a finger would: at the middle of its element (whatever is drawn over it)."""
    kind, _, ident = where.partition(":")
    element = page.locator(f'#board [data-kind="{kind}"][data-id="{ident}"]').first
    element.scroll_into_view_if_needed()
    box = element.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def play_game(site: LiveSite, pages: dict[str, Any], game_id: int, seed: int) -> int:
    """Play ``game_id`` to its end by taps (and the game's word buttons); the number of turns played."""
    rng = random.Random(seed)
    for turn in range(MAX_TURNS):
        shown = site.run(site.actions.show(game_id))
        if shown.status != "active":
            return turn
        page = pages[shown.to_move]
        site.clock.now += 10  # a person's pace: the POST rate limits (30 a minute) are not what is tested here
        before = site.run(site.site.store.load_game(game_id)).log_length
        show_game(page, site.url(f"/g/{game_id}"))
        taps, move = pick(shown.state, rng)
        if move is None:
            words = page.locator("#words button")
            choice = rng.choice([w for w in words.all_inner_texts() if w not in ("greedy", "manual", "double")])
            page.get_by_role("button", name=choice, exact=True).click()
        else:
            expect(page.locator("#tap-status")).to_contain_text("Tap a highlighted place")
            for where in taps:
                tap(page, where)
            expect(page.locator("#move-text")).to_have_value(move)
            if page.locator("#preview").is_hidden():
                page.get_by_role("button", name="Preview").click()
            expect(page.get_by_role("heading", name="Preview: not played yet")).to_be_visible()
            page.get_by_role("button", name=f"Play {move}").click()
        _wait_for_log(site, page, game_id, before)
    raise AssertionError(f"game {game_id} did not end in {MAX_TURNS} turns")


def show_game(page: Any, url: str) -> None:
    """Open the game's page (the page may be reloading itself meanwhile: the live update of the last moves)."""
    for _ in range(3):
        try:
            page.goto(url)
            return
        except Exception as exc:  # Playwright's Error, when the page's own reload interrupts the navigation
            if "interrupted by another navigation" not in str(exc):
                raise
            page.wait_for_load_state()
    page.goto(url)


def _wait_for_log(site: LiveSite, page: Any, game_id: int, before: int) -> None:
    """Wait until the database holds the move just made (the page answered it)."""
    for _ in range(100):
        if site.run(site.site.store.load_game(game_id)).log_length > before:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the move in game {game_id} was not played: {page.locator('#status-error').inner_text()}")


def players(site: LiveSite, new_page: Any) -> dict[str, Any]:
    pages = {}
    for name in ("alice", "bob"):
        pages[name] = new_page("phone")
        site.sign_in(pages[name], name)
    return pages


def finished(site: LiveSite, game_id: int) -> Any:
    shown = site.run(site.actions.show(game_id))
    assert shown.status != "active", shown.message
    return shown


def test_a_whole_druid_game_by_taps(site: LiveSite, new_page: Any) -> None:
    game_id = start(site, "druid", ["-size=5"])
    turns = play_game(site, players(site, new_page), game_id, 1)
    history = site.run(site.actions.history(game_id)).items
    assert turns > 4 and finished(site, game_id).winners
    assert any("-" in line.split(": ")[-1] for line in history), history  # a lintel was tapped


def test_a_druid_steps_in_walk_by_tapping_the_druid_then_its_cell(site: LiveSite, new_page: Any) -> None:
    """(A whole Walk game played at random goes back and forth for hundreds of turns: the steps are tapped here,
    the whole games above.)"""
    game_id = start(site, "druid", ["-size=5", "-walk"])
    rng = Rng(5)
    for _ in range(60):
        shown = site.run(site.actions.show(game_id))
        druid = f"druid:{shown.state.to_move}"
        if druid in Tapper(shown.state).answer([]).lit:
            break
        move = shown.state.move_text(shown.state.random_move(rng))
        site.run(site.actions.move(game_id, shown.to_move, move))
    else:
        raise AssertionError("no druid could step in 60 moves")
    cells = Tapper(shown.state).answer([druid]).lit
    step = Tapper(shown.state).answer([druid, cells[0]]).move
    page = new_page("phone")
    site.sign_in(page, shown.to_move)
    page.goto(site.url(f"/g/{game_id}"))
    expect(page.locator("#tap-status")).to_contain_text("Tap a highlighted place")
    tap(page, druid)
    expect(page.locator("#tap-status")).to_have_text(
        f"So far your druid: pick one of the {len(cells)} highlighted places next."
    )
    expect(page.locator("#tap-choices button")).to_have_count(len(cells))
    tap(page, cells[0])
    expect(page.locator("#move-text")).to_have_value(step)
    page.get_by_role("button", name=f"Play {step}").click()
    _wait_for_log(site, page, game_id, shown.move_number)
    assert site.run(site.actions.history(game_id)).items[-1].endswith(f": {step}")


def test_a_whole_drogo_game_by_taps(site: LiveSite, new_page: Any) -> None:
    game_id = start(site, "drogo", ["-size=3"])
    play_game(site, players(site, new_page), game_id, 2)
    finished(site, game_id)


def test_a_whole_dragons_game_by_taps(site: LiveSite, new_page: Any) -> None:
    game_id = start(site, "dragons", ["-num_tiles=12"])
    play_game(site, players(site, new_page), game_id, 3)
    finished(site, game_id)


def test_a_whole_backgammon_game_by_taps(site: LiveSite, new_page: Any) -> None:
    game_id = start(site, "backgammon", [])
    turns = play_game(site, players(site, new_page), game_id, 4)
    assert turns > 20 and finished(site, game_id).winners


def test_druid_by_the_keyboard_alone(site: LiveSite, new_page: Any) -> None:
    """Tab onto the board, arrows move the cursor over the cells (each read as "C3, empty" or "C3, height 1,
    alice's"), Enter picks; Preview and Play are reached with Tab and Enter too."""
    game_id = start(site, "druid", ["-size=5"])
    pages = players(site, new_page)
    alice = pages["alice"]
    alice.goto(site.url(f"/g/{game_id}"))
    expect(alice.locator("#tap-status")).to_contain_text("Tap a highlighted place")
    alice.locator("#board svg").focus()
    alice.keyboard.press("ArrowRight")  # the cursor comes onto the first legal cell: a1
    focused = alice.locator("#board :focus")
    expect(focused).to_have_attribute("aria-label", "A1, empty")
    expect(focused).to_have_attribute("role", "button")
    for key in ("ArrowRight", "ArrowRight", "ArrowUp", "ArrowUp"):  # a1 -> c1 -> c3
        alice.keyboard.press(key)
    expect(alice.locator("#board :focus")).to_have_attribute("aria-label", "C3, empty")
    alice.keyboard.press("Enter")
    expect(alice.locator("#move-text")).to_have_value("c3")
    expect(alice.get_by_role("heading", name="Preview: not played yet")).to_be_visible()
    expect(alice.get_by_role("button", name="Play c3")).to_be_focused()
    alice.keyboard.press("Enter")
    _wait_for_log(site, alice, game_id, 0)

    bob = pages["bob"]
    bob.goto(site.url(f"/g/{game_id}"))
    expect(bob.locator('#board [data-id="c3"]')).to_have_attribute("aria-label", "C3, height 1, alice's")
    bob.locator("#board svg").focus()
    bob.keyboard.press("ArrowDown")
    for key in ("ArrowUp", "ArrowUp", "ArrowRight", "ArrowRight"):  # a1 -> a3 -> c3, alice's: no sarsen of bob's
        bob.keyboard.press(key)
    bob.keyboard.press("Enter")
    expect(bob.locator("#tap-status")).to_have_text("C3 is not a legal choice now: pick a highlighted place.")
    expect(bob.locator("#move-text")).to_have_value("")
    bob.keyboard.press("ArrowUp")
    bob.keyboard.press("ArrowLeft")  # b4
    bob.keyboard.press(" ")
    expect(bob.get_by_role("button", name="Play b4")).to_be_focused()
    bob.keyboard.press("Tab")
    expect(bob.get_by_role("button", name="Cancel")).to_be_focused()
    bob.keyboard.press("Enter")
    expect(bob.locator("#preview")).to_be_hidden()
    assert site.run(site.site.store.load_game(game_id)).log_length == 1  # nothing is sent before Play


def test_a_board_being_tapped_has_no_serious_accessibility_violation(site: LiveSite, new_page: Any) -> None:
    """axe-core on the mover's page of each game halfway through a move (places lit, one chosen, the choices as
    buttons), on a phone in dark and a desktop in light."""
    games = {
        "druid": start(site, "druid", ["-size=5"]),
        "drogo": start(site, "drogo", ["-size=4"]),
        "dragons": start(site, "dragons", ["-num_tiles=12"]),
        "backgammon": start(site, "backgammon", []),
    }
    found: list[str] = []
    for size, scheme in (("phone", "dark"), ("desktop", "light")):
        pages = {}
        for name in ("alice", "bob"):
            pages[name] = new_page(size, scheme)
            site.sign_in(pages[name], name)
        for game_id in games.values():
            shown = site.run(site.actions.show(game_id))
            page = pages[shown.to_move]
            page.goto(site.url(f"/g/{game_id}"))
            expect(page.locator("#tap-status")).to_contain_text("Tap a highlighted place")
            first = Tapper(shown.state).answer([]).lit[0]
            tap(page, first)
            expect(page.locator("#tap-status")).not_to_contain_text("Tap a highlighted place")
            found += violations(page)
    assert found == []
