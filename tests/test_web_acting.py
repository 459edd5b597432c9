"""Acting on the web as a signed-in player: a move previewed then played with its #n guard, the game's words,
resigning, proposals, queued lines, challenges, settings; and every refusal (not signed in, CSRF missing, another
site's form, the wrong player, a stale #n, an oversized body, an unknown game, too many requests), each one
sentence that changes nothing."""

from __future__ import annotations

import html
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.webtools import Site, serving


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    async with serving(tmp_path / "pbm.sqlite3") as site:
        assert (await site.actions.challenge("druid", ["alice", "bob"], ["-size=5"], start=True)).game_id == 1
        yield site


async def snapshot(site: Site) -> dict[str, Any]:
    """What a refusal must leave as it was: the game, its log, the queued lines, the proposals."""
    row = await site.game_row(1)
    log = [(e.number, e.player_id, e.text) for e in await site.store.log(1)]
    queued = [q.moves for q in await site.store.queued_lines(1)]
    return {"row": (row.move_number, row.log_length, row.status, row.to_move), "log": log, "queued": queued}


async def test_a_move_is_previewed_then_played_with_its_guard(site: Site) -> None:
    async with site.browser() as alice:
        await alice.sign_in("alice")
        page = await alice.get("/g/1")
        assert '<h2 id="act-title">Your move</h2>' in page.text and 'name="guard" id="guard" value="1"' in page.text
        assert '<option value="c3">' in page.text and "<button>pass</button>" in page.text
        preview = await alice.post("/g/1/preview", {"move": "c3", "guard": "1"})
        assert preview.status == 200 and "Preview: not played yet" in preview.text
        assert "preview of move 1 in game 1: alice plays c3 (not played)" in preview.text
        assert '<input type="hidden" name="move" value="c3#1">' in preview.text
        assert (await site.game_row(1)).move_number == 0  # a preview plays nothing
        played = await alice.post("/g/1/move", {"move": "c3#1"})
    assert played.status == 303 and played.location == "/g/1"
    assert [(e.player_id, e.text) for e in await site.store.log(1)] == [("alice", "c3")]


async def test_the_script_previews_and_plays_with_json(site: Site) -> None:
    async with site.browser() as alice:
        await alice.sign_in("alice")
        preview = await alice.post_json("/g/1/preview", {"move": "c3", "guard": "1"})
        shown = preview.json()
        assert shown["ok"] is True and shown["preview"]["move"] == "c3#1"
        board = shown["preview"]["board"]
        assert board["kind"] == "svg" and 'data-kind="cell" data-id="c3"' in board["svg"]
        assert 'aria-label="preview of move 1 in game 1: the board"' in board["svg"]
        played = await alice.post_json("/g/1/move", {"move": shown["preview"]["move"]})
        again = await alice.post_json("/g/1/move", {"move": shown["preview"]["move"]})
    assert played.status == 200 and played.json()["ok"] is True
    assert again.status == 409 and again.json() == {
        "ok": False,
        "message": "move received as move #1, but game 1 is at move #2: the board has changed since you looked",
    }


async def test_a_stale_guard_is_refused_and_changes_nothing(site: Site) -> None:
    assert (await site.actions.move(1, "alice", "c3")).ok
    before = await snapshot(site)
    async with site.browser() as bob:
        await bob.sign_in("bob")
        refused = await bob.post("/g/1/move", {"move": "b2", "guard": "1"})
    assert refused.status == 409
    assert "move received as move #1, but game 1 is at move #2: the board has changed since you looked." in refused.text
    assert await snapshot(site) == before


async def test_a_move_without_its_guard_is_refused(site: Site) -> None:
    before = await snapshot(site)
    async with site.browser() as alice:
        await alice.sign_in("alice")
        refused = await alice.post("/g/1/move", {"move": "c3"})
    assert refused.status == 400
    assert "The move must say which move number it was made on (#n); reload the page and try again." in refused.text
    assert await snapshot(site) == before


async def test_nobody_acts_for_another_player(site: Site) -> None:
    before = await snapshot(site)
    async with site.browser() as carol, site.browser() as bob:
        await carol.sign_in("carol")
        outsider = await carol.post("/g/1/move", {"move": "c3", "guard": "1"})
        peek = await carol.post("/g/1/preview", {"move": "c3", "guard": "1"})
        named = await carol.post("/g/1/move", {"move": "c3", "guard": "1", "player": "alice"})
        await bob.sign_in("bob")
        not_his_turn = await bob.post("/g/1/move", {"move": "c3", "guard": "1"})
    assert outsider.status == 403 and "You (carol) do not play in game 1: only its players act in it." in outsider.text
    assert peek.status == 403 and "Preview" not in peek.text.split("<main", 1)[1].split("</h1>", 1)[0]
    assert named.status == 403
    assert not_his_turn.status == 400 and "not your turn" in not_his_turn.text.lower()
    assert await snapshot(site) == before


async def test_acting_needs_a_session(site: Site) -> None:
    before = await snapshot(site)
    async with site.browser() as visitor:
        page = await visitor.get("/g/1")
        refused = await visitor.post("/g/1/move", {"move": "c3", "guard": "1"})
        settings = await visitor.get("/settings")
    assert 'id="move-form"' not in page.text
    assert 'Playing in this game? <a href="/signin">Sign in</a> to move here.' in page.text
    assert refused.status == 401
    assert (
        '<p class="error" id="status-error" role="alert">Sign in to play: use a sign-in link, or sign in with Discord.'
        in refused.text
    )
    assert settings.status == 401
    assert await snapshot(site) == before


async def test_a_post_without_the_csrf_token_is_refused(site: Site) -> None:
    before = await snapshot(site)
    async with site.browser() as alice:
        await alice.sign_in("alice")
        missing = await alice.post("/g/1/move", {"move": "c3", "guard": "1"}, csrf=False)
        wrong = await alice.post("/g/1/move", {"move": "c3", "guard": "1", "csrf": "x" * 43})
        script = await alice.session.post("/g/1/move", json={"move": "c3#1"}, headers={"Accept": "application/json"})
        said = await script.json()
    sentence = "This form has expired or did not come from pbm; reload the page and try again."
    assert missing.status == 403 and missing.heading == sentence
    assert wrong.status == 403 and wrong.heading == sentence
    assert script.status == 403 and said == {"ok": False, "message": sentence}
    assert await snapshot(site) == before


async def test_a_form_from_another_site_is_refused(site: Site) -> None:
    before = await snapshot(site)
    async with site.browser() as alice:
        await alice.sign_in("alice")
        refused = await alice.post("/g/1/move", {"move": "c3", "guard": "1"}, headers={"Origin": "https://evil.test"})
        ours = await alice.post("/g/1/move", {"move": "c3", "guard": "1"}, headers={"Origin": site.base})
    assert refused.status == 403 and refused.heading == "This form was sent from another site, so it was refused."
    assert ours.status == 303
    assert (await site.game_row(1)).move_number == before["row"][0] + 1


async def test_an_oversized_body_is_refused_before_it_is_read(site: Site) -> None:
    before = await snapshot(site)
    async with site.browser() as alice:
        await alice.sign_in("alice")
        refused = await alice.post("/g/1/move", {"move": "c3", "guard": "1", "pad": "x" * 40_000})
    assert refused.status == 413 and refused.heading == "The request is too large: pbm reads at most 16 KiB."
    assert await snapshot(site) == before


async def test_an_unknown_game_refuses_every_action(site: Site) -> None:
    async with site.browser() as alice:
        await alice.sign_in("alice")
        for action in ("move", "preview", "resign", "propose", "answer", "queue"):
            refused = await alice.post(f"/g/404/{action}", {"move": "c3", "guard": "1"})
            assert refused.status == 404 and refused.heading == "there is no game 404.", action


async def test_too_many_posts_are_refused_until_time_passes(site: Site) -> None:
    async with site.browser() as alice:
        await alice.sign_in("alice")
        answers = [(await alice.post("/g/1/queue", {"line": ""})).status for _ in range(30)]
        limited = await alice.post("/g/1/queue", {"line": ""})
        site.clock.now += 60
        again = await alice.post("/g/1/queue", {"line": ""})
    assert set(answers) == {400}  # each read and refused (an empty line), each counted
    assert (
        limited.status == 429 and limited.heading == "Too many requests in a short time; wait a minute and try again."
    )
    assert again.status == 400


async def test_too_many_posts_from_one_address_are_refused(site: Site) -> None:
    async with site.browser() as visitor:
        statuses = [(await visitor.post("/signout")).status for _ in range(120)]
        limited = await visitor.post("/signout")
    assert set(statuses) == {303}
    assert limited.status == 429


async def test_the_games_words_are_buttons_for_the_player_to_move(site: Site) -> None:
    assert (await site.actions.move(1, "alice", "c3")).ok
    async with site.browser() as bob:
        await bob.sign_in("bob")
        page = await bob.get("/g/1")
        assert "<button>swap</button>" in page.text and "<button>pass</button>" in page.text
        swapped = await bob.post("/g/1/move", {"move": "swap", "guard": "2"})
    assert swapped.status == 303
    assert [e.text for e in await site.store.log(1)] == ["c3", "swap"]


async def test_resigning_in_the_first_round_declines_the_game(site: Site) -> None:
    async with site.browser() as alice:
        await alice.sign_in("alice")
        done = await alice.post("/g/1/resign", {"guard": "1"})
        page = await alice.get("/g/1")
    assert done.status == 303
    assert (await site.game_row(1)).status == "cancelled"
    assert page.heading == "Druid 1: cancelled (alice declined to play)"


async def test_a_takeback_is_proposed_and_accepted(site: Site) -> None:
    assert (await site.actions.move(1, "alice", "c3")).ok
    async with site.browser() as alice, site.browser() as bob:
        await alice.sign_in("alice")
        await bob.sign_in("bob")
        proposed = await alice.post("/g/1/propose", {"what": "undo"})
        seen = await bob.get("/g/1")
        accepted = await bob.post("/g/1/answer", {"answer": "accept"})
        bad = await bob.post("/g/1/answer", {"answer": "maybe"})
    assert proposed.status == 303
    assert "alice proposes to take back the last move." in seen.text and '"answer" value="accept"' in seen.text
    assert accepted.status == 303 and (await site.game_row(1)).move_number == 0
    assert bad.status == 400 and "Answer a proposal with accept or reject." in bad.text


async def test_queued_lines_are_seen_by_their_owner_only(site: Site) -> None:
    async with site.browser() as bob, site.browser() as alice, site.browser() as visitor:
        await bob.sign_in("bob")
        queued = await bob.post("/g/1/queue", {"line": "c3 b2"})
        mine = await bob.get("/g/1")
        await alice.sign_in("alice")
        theirs = await alice.get("/g/1")
        their_json = await alice.get("/g/1.json")
        public = await visitor.get("/g/1")
    assert queued.status == 303
    assert "<code>c3 b2</code>" in mine.text
    for page in (theirs, their_json, public):
        assert "c3 b2" not in page.text
    assert their_json.json()["queue"] == []
    assert (await site.actions.move(1, "alice", "c3")).ok  # the queued reply is played for bob
    assert [(e.player_id, e.text) for e in await site.store.log(1)] == [("alice", "c3"), ("bob", "b2")]


async def test_a_challenge_from_the_form_and_a_seat_taken(site: Site) -> None:
    async with site.browser() as alice, site.browser() as bob:
        await alice.sign_in("alice")
        made = await alice.post("/challenges", {"game": "drogo", "opponent1": "open", "all-days": "3"})
        await bob.sign_in("bob")
        lobby = await bob.get("/")
        assert made.status == 303 and made.location == "/"
        assert "Drogo</span> challenge 1: alice" in lobby.text and "/challenges/1/join" in lobby.text
        joined = await bob.post("/challenges/1/join")
        twice = await bob.post("/challenges/1/join")
    assert joined.status == 303 and joined.location == "/g/2"
    row = await site.game_row(2)
    assert row.type == "drogo" and row.players == ["alice", "bob"]
    assert twice.status == 409 and twice.heading == "challenge 1 was accepted: it is game 2."


async def test_a_computer_opponent_accepts_at_once(site: Site) -> None:
    async with site.browser() as alice:
        await alice.sign_in("alice")
        made = await alice.post("/challenges", {"game": "druid", "opponent1": "ai:1", "druid-size": "5"})
    assert made.status == 303 and made.location == "/g/2"
    assert (await site.game_row(2)).players == ["alice", "ai:1"]


@pytest.mark.parametrize(
    ("fields", "where", "said"),
    [
        ({"druid-size": "99"}, "druid-size", "Option -size=99 is out of range (3..26)."),
        ({"druid-size": "x"}, "druid-size", "Option -size: 'x' is not a whole number written with the digits 0-9."),
        ({"all-days": "0"}, "all-days", "Option -days=0 is out of range (1..30)."),
        ({"druid-hex": "on", "druid-size": "20"}, "druid-size", "Option -size=20 is out of range for the hex board"),
        ({"all-untimed": "on", "all-days": "3"}, "all-days", "Options -days and -untimed cannot be used together."),
        ({"all-rating_min": "1200"}, "form", "A rating range is for open seats"),
        ({"opponent1": ""}, "opponent1", "Name an opponent, a computer player (ai:1 to ai:3), or open for anyone."),
        ({"opponent1": "a b"}, "opponent1", "'a b' cannot be a player name"),
        ({"opponent1": "alice"}, "opponent1", "A player takes one seat"),
        ({"game": "chess"}, "game", "Choose one of the games."),
    ],
)
async def test_challenge_mistakes_are_shown_beside_their_field(
    site: Site, fields: dict[str, str], where: str, said: str
) -> None:
    async with site.browser() as alice:
        await alice.sign_in("alice")
        form = {"game": "druid", "opponent1": "bob", **fields}
        refused = await alice.post("/challenges", form)
    assert refused.status == 400
    text = html.unescape(refused.text)
    if where == "form":
        assert f'<p class="error" role="alert">{said}' in text
    elif where == "game":
        assert f'<span class="field-error">{said}</span>' in text
    else:
        assert f'<span class="field-error" id="{where}-error">{said}' in text
        assert f'id="{where}"' in text and 'aria-invalid="true"' in text
    assert await site.store.open_challenges() == []


async def test_vacation_and_notification_settings(site: Site) -> None:
    async with site.browser() as alice:
        await alice.sign_in("alice")
        page = await alice.get("/settings")
        on = await alice.post("/settings/vacation", {"switch": "on"})
        saved = await alice.post("/settings/notify", {"quiet": "22-08", "tz": "Europe/Paris", "dm": "on"})
        bad = await alice.post("/settings/notify", {"tz": "Mars/Olympus"})
    assert page.status == 200 and "Vacation" in page.text
    assert on.status == 200 and "alice is on vacation: their clock stands still in 1 game." in on.text
    assert saved.status == 200 and '<p class="said" role="status">Saved.</p>' in saved.text
    assert "alice: time zone Europe/Paris, quiet hours 22:00-08:00, preview before each move off, DMs on." in saved.text
    assert bad.status == 400
    assert "unknown time zone &#39;Mars/Olympus&#39;: use an IANA name like Europe/Paris" in bad.text
    assert await site.actions.dm_setting("alice") == "on"
