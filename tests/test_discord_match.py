"""Backgammon matches in Discord and every other front (issue 30): a match is one conversation in one thread. The
next game starts in the thread of the last with the score said and its first player pinged, even after a crash
between the commit that ended a game and its post; resigning asks first, saying that it resigns the match and what
the score is; every turn, /board, the picture, the text board, --json and the web page say where the match stands.
Also: a proposal's buttons are closed once a move voids it."""

from __future__ import annotations

import copy
import html
from pathlib import Path
from typing import TYPE_CHECKING

from bot.discord.front import REPOST_GRACE, new_nonce
from render.backgammon import scene
from render.scene import Text
from tests.fakediscord.pbm import FakeClock, pbm_running, start_game
from tests.webtools import serving

if TYPE_CHECKING:
    from bot.actions import Actions
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]


async def to_a_double(actions: Actions, game_id: int) -> str:
    """Both players in manual mode, the first move played, the other player doubling (through the actions, as the
    console would: nothing is posted for them); returns who must answer the double."""
    shown = await actions.show(game_id)
    first = shown.to_move
    assert first is not None
    other = next(p for p in shown.players if p != first)
    for player in shown.players:
        assert (await actions.move(game_id, player, "manual")).ok
    legal = (await actions.moves(game_id, "")).items
    assert (await actions.move(game_id, first, legal[0])).ok
    doubled = await actions.move(game_id, other, "double")
    assert doubled.ok, doubled.message
    return first


def user_of(w: World, player: str) -> int:
    return {"alice": w.alice, "bob": w.bob}[player]


async def test_the_next_game_of_a_match_goes_on_in_the_same_thread_and_pings_its_first_player(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(w.fake, w.channel, "backgammon", [w.alice, w.bob], options="-match=2")
        dropper = await to_a_double(bot.actions, 1)
        await w.fake.reply(await w.fake.slash(w.carol, table.thread.id, "watch", {"game": 1}))
        before = table.last_post().id
        answer = await w.fake.reply(await w.fake.slash(user_of(w, dropper), table.thread.id, "drop"))
        turn = await w.fake.next_message(table.thread.id, after=before, timeout=10)
        second = await bot.actions.show(2)
        posts = len(w.fake.channel_log(table.thread.id))
        board = await w.fake.reply(await w.fake.slash(w.carol, table.thread.id, "board"))
        marks = await bot.actions.store.unposted_boards()
        row = await bot.actions.store.load_game(2)
    winner = next(p for p in ("alice", "bob") if p != dropper)
    score = f"alice {int(winner == 'alice')}, bob {int(winner == 'bob')}"
    assert len(w.fake.threads) == 1 and row.thread_id == table.thread.id  # no new thread: the match's own
    assert answer.deleted  # the drop was typed in the thread: the turn there is the answer
    lines = turn.text().splitlines()
    assert lines[0] == f"### Backgammon 2: {second.to_move} to move (move 1)"
    assert f"{dropper} refused the double: {winner} wins 1 point" in lines
    assert f"Match to 2: {score}; game 2 is the Crawford game: no doubling" in lines
    assert "Backgammon game 2 started: alice, bob (-match=2); 7 days per move" in lines
    assert f"Match 1 to 2, game 2: {score} (the Crawford game: no doubling)" in "\n".join(lines)
    assert turn.pinged == [user_of(w, str(second.to_move)), w.carol] and not turn.silent
    assert f"-# watching: <@{w.carol}>" in lines  # carol watched game 1: she follows the match into game 2
    assert [a.filename for a in turn.attachments] == ["backgammon-2.png"]
    assert posts == 2  # the opening board of game 1, then this one: no double
    assert marks == []
    assert board.text().startswith("### Backgammon 2: ")  # /board in the thread: the game being played


async def test_a_crash_after_the_commit_that_ended_a_match_game_loses_no_board_and_posts_none_twice(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    clock = FakeClock()
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3", clock=clock) as bot:
        table = await start_game(w.fake, w.channel, "backgammon", [w.alice, w.bob], options="-match=3")
        dropper = await to_a_double(bot.actions, 1)
        # what /drop does up to the moment the process dies: the commit, which marks the board to post
        dropped = await bot.actions.move(1, dropper, "drop", will_post=new_nonce())
        marked = await bot.actions.store.unposted_boards()
        clock.now += REPOST_GRACE + 1
        await bot.sweep()
        await bot.sweep()
        posts = w.fake.channel_log(table.thread.id)
        marks = await bot.actions.store.unposted_boards()
    assert dropped.ok and dropped.game_id == 2 and dropped.finished_game == 1
    assert [game for game, _mark in marked] == [2]  # the board to post is the new game's
    assert len(w.fake.threads) == 1 and len(posts) == 2 and marks == []
    assert posts[1].text().startswith("### Backgammon 2: ") and posts[1].pinged == [user_of(w, str(dropped.to_move))]
    assert "Match 1 to 3, game 2: " in posts[1].text()


async def test_resign_in_a_match_says_it_resigns_the_match_and_asks_first(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(w.fake, w.channel, "backgammon", [w.alice, w.bob], options="-match=5")
        dropper = await to_a_double(bot.actions, 1)
        assert (await bot.actions.move(1, dropper, "drop")).game_id == 2
        leader = next(p for p in ("alice", "bob") if p != dropper)
        unchanged = await bot.actions.show(2)
        resigner = str(unchanged.to_move)
        other = next(p for p in ("alice", "bob") if p != resigner)
        user = user_of(w, resigner)
        asked = await w.fake.reply(await w.fake.slash(user, table.thread.id, "resign"))
        posts = len(w.fake.channel_log(table.thread.id))
        cancelled = await w.fake.reply(await w.fake.click(user, asked, "pbm:v:2:no:resign#1"))
        still = await bot.actions.show(2)
        again = await w.fake.reply(await w.fake.slash(user, table.thread.id, "resign"))
        before = table.last_post().id
        confirmed = await w.fake.reply(await w.fake.click(user, again, "pbm:v:2:ok:resign#1"))
        final = await w.fake.next_message(table.thread.id, after=before, timeout=10)
        match = await bot.actions.store.load_match(1)
        games = await bot.actions.store.match_game_ids(1)
    assert asked.ephemeral and asked.text() == (
        f"Resign the match? {leader} leads 1-0 in a match to 5; resigning gives {other} the match."
    )
    # out of turn, the question says when it takes effect
    assert unchanged.resign_question(other) == (
        f"Resign the match? {leader} leads 1-0 in a match to 5; resigning gives {resigner} the match when your turn "
        "comes."
    )
    assert asked.custom_ids() == ["pbm:v:2:ok:resign#1", "pbm:v:2:no:resign#1"]
    assert unchanged.status == "active" and posts == 1  # asking changed nothing, posted nothing
    assert cancelled.text() == "You did not resign; game 2 goes on." and still.status == "active"
    assert still.move_number == unchanged.move_number
    assert confirmed.deleted  # confirmed from the thread: the final board there is the answer
    lines = final.text().splitlines()
    assert lines[0] == f"### Backgammon 2: {other} won ({resigner} resigned the match)"
    said = [line for line in lines[1:] if "match" in line]  # the match lost once, and no "won" below the headline
    assert not any(" won" in line for line in lines[1:])
    stood = "alice 1, bob 0" if leader == "alice" else "alice 0, bob 1"
    assert said == [f"{resigner} resigned the match", f"{other} wins the match to 5; the score stood at {stood}"]
    assert (match.status, match.winner, games) == ("finished", other, [1, 2]) and len(w.fake.threads) == 1


async def test_every_front_says_where_the_match_stands(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(w.fake, w.channel, "backgammon", [w.alice, w.bob], options="-match=3")
        dropper = await to_a_double(bot.actions, 1)
        assert (await bot.actions.move(1, dropper, "drop")).game_id == 2
        board = await w.fake.reply(await w.fake.slash(w.carol, table.thread.id, "board"))
        shown = await bot.actions.show(2)
    winner = next(p for p in ("alice", "bob") if p != dropper)
    score = {"alice": int(winner == "alice"), "bob": int(winner == "bob")}
    words = f"Match 1 to 3, game 2: alice {score['alice']}, bob {score['bob']}"
    assert board.text().splitlines()[:3] == [
        f"### Backgammon 2: {shown.to_move} to move (move 1)",
        "-# clock: " + " · ".join(f"{p} {note}" for p, note in shown.clock_notes.items()),
        f"-# {words}",
    ]
    assert [a.filename for a in board.attachments] == ["backgammon-2.png"]
    assert shown.state is not None and shown.state.text_board().splitlines()[-1] == words
    drawn = [item.text for item, _groups in scene(shown.state).walk() if isinstance(item, Text)]  # type: ignore[arg-type]
    rows = [text for text in drawn if text.startswith(("alice  ", "bob  "))]
    assert "match to 3, game 2" in drawn and sorted(rows) == [
        f"alice  score {score['alice']}  pips 167",
        f"bob  score {score['bob']}  pips 167",
    ]
    assert shown.to_json()["match"] == {
        "id": 1,
        "length": 3,
        "game": 2,
        "crawford": False,
        "score": score,
        "over": False,
        "winner": None,
        "cancelled": False,
    }


async def test_the_web_page_shows_the_match_goes_to_its_next_game_and_says_what_resigning_does(tmp_path: Path) -> None:
    async with serving(tmp_path / "pbm.sqlite3") as site:
        assert (await site.actions.challenge("backgammon", ["alice", "bob"], ["-match=3"], start=True)).game_id == 1
        dropper = await to_a_double(site.actions, 1)
        winner = next(p for p in ("alice", "bob") if p != dropper)
        guard = (await site.game_row(1)).move_number + 1
        async with site.browser() as browser:
            await browser.sign_in(dropper)
            dropped = await browser.post("/g/1/move", {"move": f"drop#{guard}"})
            page = await browser.get("/g/2")
            view = (await browser.get("/g/2.json")).json()
            first = await browser.get("/g/1")
    words = f"Match 1 to 3, game 2: alice {int(winner == 'alice')}, bob {int(winner == 'bob')}"
    assert dropped.status == 303 and dropped.location == "/g/2"  # the match goes on there
    assert f'<p class="note" id="match-words">{words}</p>' in page.text
    assert view["match_words"] == words and view["match"]["game"] == 2 and view["match"]["length"] == 3
    when = "." if view["to_move"] == dropper else " when your turn comes."
    assert view["resign_question"] == (
        f"Resign the match? {winner} leads 1-0 in a match to 3; resigning gives {winner} the match{when}"
    )
    assert f"<p>{html.escape(view['resign_question'])}</p>" in page.text and "Resign the match</button>" in page.text
    ended = f"Match to 3: alice {int(winner == 'alice')}, bob {int(winner == 'bob')}"
    assert f'id="match-words">{ended}' in first.text  # the game that ended says what it did to the match
    assert 'The match goes on in <a href="/g/2">game 2</a>.' in first.text
    assert view["next_game"] is None and '<p id="next-game" hidden>' in page.text


async def test_a_move_that_voids_a_proposal_closes_its_buttons(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        await table.move_and_wait(w.alice, "c3")
        await fake.reply(await fake.slash(w.alice, table.thread.id, "propose", {"what": "undo"}))
        proposal = table.last_post()
        as_shown = copy.deepcopy(proposal)  # a client that still shows the buttons
        await table.move_and_wait(w.bob, "d4")  # the game moves on: the takeback no longer holds
        closed = await fake.wait_for(lambda: proposal.components == [] and proposal, what="buttons removed")
        pressed = await fake.reply(await fake.click(w.bob, as_shown, "pbm:p:1:1:a"))
        await table.move_and_wait(w.alice, "b2")  # closed once: a later move does not touch it again
        history = await bot.actions.history(1)
        row = await bot.actions.store.load_proposal(1)
    assert closed.text().endswith("\nNo longer open: the game moved on before everyone answered.")
    assert closed.text().count("No longer open") == 1
    assert pressed.ephemeral and pressed.text() == "proposal 1 is no longer open"
    assert [line.split(": ", 1)[1] for line in history.items] == ["c3", "d4", "b2"]  # the press changed nothing
    assert (row.status, row.message_id) == ("void", None)


async def test_a_press_on_a_proposal_voided_where_nothing_was_posted_closes_it(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        await table.move_and_wait(w.alice, "c3")
        await fake.reply(await fake.slash(w.alice, table.thread.id, "propose", {"what": "undo"}))
        proposal = table.last_post()
        assert (await bot.actions.move(1, "bob", "d4")).ok  # played in the console: nothing posted in Discord
        still = proposal.custom_ids()
        pressed = await fake.reply(await fake.click(w.bob, proposal, "pbm:p:1:1:a"))
        await fake.wait_for(lambda: proposal.components == [], what="buttons removed")
        shown = await bot.actions.show(1)
    assert still == ["pbm:p:1:1:a", "pbm:p:1:1:r"]
    assert pressed.ephemeral and pressed.text() == "proposal 1 is no longer open"
    assert proposal.text().endswith("\nNo longer open: the game moved on before everyone answered.")
    assert shown.move_number == 2 and shown.to_move == "alice"  # the press took nothing back
