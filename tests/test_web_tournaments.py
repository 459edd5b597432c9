"""The tournaments on the web, as anyone reads them: the list at ``/t`` (linked from the lobby), a tournament's
page at ``/t/<id>`` during its signup and once started (standings with their tie-breaks, who withdrew, the round's
boards linked to their games), and an address of no tournament answered in one sentence."""

from __future__ import annotations

from pathlib import Path

from tests.webtools import serving


async def test_the_list_and_a_tournament_page_from_signup_to_standings(tmp_path: Path) -> None:
    async with serving(tmp_path / "pbm.sqlite3") as site:
        actions = site.actions
        async with site.browser() as browser:
            empty = await browser.get("/t")
            lobby = await browser.get("/")
            made = await actions.create_tournament("druid", "alice", "swiss", rounds=2, options=["-size=5"])
            assert made.ok, made.message
            for player in ("alice", "bob", "carol", "dave", "erin"):
                assert (await actions.join_tournament(1, player)).ok
            signup = await browser.get("/t/1")
            listed = await browser.get("/t")
            assert (await actions.start_tournament(1, "alice")).ok
            assert (await actions.resign(1, (await actions.show(1)).to_move or "")).ok
            assert (await actions.leave_tournament(1, "erin")).ok
            running = await browser.get("/t/1")
            missing = await browser.get("/t/7")
            wrong = await browser.get("/t/x1")
    assert empty.status == 200 and "No tournament is signing up or running." in empty.text
    assert '<a href="/t">Tournaments</a>' in lobby.text
    assert signup.status == 200 and signup.heading == "Tournament 1"
    assert "Druid (-size=5), Swiss of 2 rounds; 7 days per move, organised by alice (signing up)" in signup.text
    assert "5 players: alice, bob, carol, dave, erin" in signup.text
    assert '<a href="/t/1">Tournament 1</a>: Druid (-size=5), Swiss of 2 rounds' in listed.text
    assert "(signing up, 5 players), organised by alice" in listed.text
    assert running.status == 200
    header = '<th scope="col">Rank</th><th scope="col">Player</th><th scope="col">Points</th>'
    assert header + '<th scope="col">Buchholz</th><th scope="col">Sonneborn-Berger</th>' in running.text
    assert '<tr class="out"><td>' in running.text and '<a href="/u/erin">erin</a> (out)' in running.text
    assert '<a href="/g/2">board 2: game 2, ' in running.text and "This round" in running.text
    assert missing.status == 404 and "there is no tournament 7." in missing.text
    assert wrong.status == 404 and "is not a tournament number" in wrong.text
