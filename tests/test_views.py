"""How players ask for and receive board pictures (issue 27): the 3D view on request (the console's ``show <id> 3d``,
the Discord "3D view" button and ``/board view:3d``), a picture file redrawn whenever anything it shows changed
(item 10: the clock, the ratings, the view), a picture file named for the game it shows (item 11), and the two
fronts drawing one picture from one answer."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PIL import Image

from bot import board_files
from bot.actions import Actions, Result
from bot.board_files import Picture
from bot.console import Console, render_json, render_text
from data.store import Store
from rules import registry
from tests.fakediscord.pbm import FakeClock, pbm_running, start_game

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]

ROOT = Path(__file__).resolve().parent.parent
NOON = 1_796_212_800.0  # Tue 2026-12-01 12:00 UTC
#: where a tagged PNG's own chunks resume after the tag the console adds (signature, IHDR)
HEADER_END = 8 + 8 + 13 + 4
#: the games with a 3D view, and those without
WITH_3D = ("druid", "drogo")
WITHOUT_3D = ("backgammon", "dragons")


class Clock:
    """The actions' clock, moved by hand (as ``--now`` sets it)."""

    def __init__(self) -> None:
        self.now = NOON

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def console(tmp_path: Path, clock: Clock) -> AsyncIterator[Console]:
    store = await Store.open(tmp_path / "pbm.sqlite3")
    yield Console(Actions(store, seed_source=lambda: 2026, clock=clock), tmp_path / "boards")
    await store.close()


def untagged(path: Path) -> bytes:
    """The PNG the console drew, without the tag it carries on disk (:mod:`bot.board_files`)."""
    data = path.read_bytes()
    length = int.from_bytes(data[HEADER_END : HEADER_END + 4], "big")
    assert data[HEADER_END + 4 : HEADER_END + 8] == b"tEXt"
    return data[:HEADER_END] + data[HEADER_END + 12 + length :]


def size(png: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(png)) as image:
        return image.size


def pbm(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` as a user runs it."""
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update({"PYTHONPATH": str(ROOT), "PBM_DATA_DIR": str(tmp_path / "data")})
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60
    )


# ---- the 3D view in the console ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", WITH_3D)
async def test_show_3d_writes_the_3d_picture_under_its_own_name_and_answers_in_one_line(
    console: Console, tmp_path: Path, game: str
) -> None:
    players = "alice bob" if game == "druid" else "alice bob carol"
    assert (await console.run(f"{game} challenge {players}")).ok
    first = (await console.run(f"{game} moves 1")).result.items[0]
    assert (await console.run(f"{game} move 1 alice {first}")).ok
    top = tmp_path / "boards" / f"{game}-1.png"
    before = top.read_bytes()
    shown = await console.run(f"{game} show 1 3d")
    picture = tmp_path / "boards" / f"{game}-1-3d.png"
    title = registry.get(game).title
    assert render_text(shown) == f"{title} 1 in 3D, after move 1: {picture}"
    assert shown.ok and shown.board_path == picture
    expected = board_files.picture(await console.actions.show(1), "3d")
    assert expected is not None and untagged(picture) == expected.png()
    flat = board_files.picture(await console.actions.show(1))
    assert flat is not None and size(expected.png()) != size(flat.png())  # the 3D picture, not the board
    assert top.read_bytes() == before  # the top-down board's file is left as it was
    data = json.loads(render_json(shown))
    assert data["board_png"] == str(picture) and data["message"] == render_text(shown) and data["ok"]


async def test_show_after_a_move_in_3d_names_that_move(console: Console, tmp_path: Path) -> None:
    await console.run("druid challenge -size=5 alice bob")
    await console.run("druid move 1 alice c3")
    await console.run("druid move 1 bob d4")
    earlier = await console.run("druid show 1#1 3D")
    start = await console.run("druid show 1#0 3d")
    boards = tmp_path / "boards"
    assert render_text(earlier) == f"Druid 1 in 3D, after move 1: {boards / 'druid-1-move1-3d.png'}"
    assert render_text(start) == f"Druid 1 in 3D, at the start: {boards / 'druid-1-move0-3d.png'}"
    at_one = board_files.picture(await console.actions.show(1, 1), "3d")
    assert at_one is not None and untagged(boards / "druid-1-move1-3d.png") == at_one.png()


@pytest.mark.parametrize("game", WITHOUT_3D)
async def test_a_game_without_a_3d_view_answers_one_line_and_writes_nothing(
    console: Console, tmp_path: Path, game: str
) -> None:
    assert (await console.run(f"{game} challenge alice bob")).ok
    files = sorted(p.name for p in (tmp_path / "boards").iterdir())
    refused = await console.run(f"{game} show 1 3d")
    title = registry.get(game).title
    assert render_text(refused) == f"error: {title} has no 3D view; '{game} show 1' shows its board"
    assert not refused.ok and refused.board_path is None
    assert sorted(p.name for p in (tmp_path / "boards").iterdir()) == files


async def test_3d_is_one_board_at_a_time_and_only_a_picture(console: Console, tmp_path: Path) -> None:
    await console.run("druid challenge -size=5 alice bob")
    await console.run("druid challenge -size=5 alice carol")
    several = await console.run("druid show 1 2 3d")
    assert render_text(several) == "error: one board at a time in a view: druid show <id>[#n] 3d"
    console.images = False
    blind = await console.run("druid show 1 3d")
    assert render_text(blind) == "error: the 3D view is only a picture, and --no-images writes none"
    assert not (tmp_path / "boards" / "druid-1-3d.png").exists()


async def test_show_top_is_the_board_as_before(console: Console, tmp_path: Path) -> None:
    await console.run("druid challenge -size=5 alice bob")
    plain, top = await console.run("druid show 1"), await console.run("druid show 1 top")
    assert render_text(plain) == render_text(top) and top.board_path == tmp_path / "boards" / "druid-1.png"


# ---- item 10: a cached picture is redrawn when anything it shows changed -------------------------------------------


def test_show_with_now_redraws_the_picture_the_clock_moved_on_and_keeps_one_that_did_not(tmp_path: Path) -> None:
    """``pbm do --now 2026-12-07T23:30Z "drogo show 1"`` said "9h 30m left" in its text while its picture, cached
    from the challenge a week before, still said "7d left". The picture must be the one of what the text says."""
    db = str(tmp_path / "g.sqlite3")
    assert pbm(tmp_path, "do", "--db", db, "--now", "2026-12-01T14:00Z", "drogo challenge alice bob").returncode == 0
    picture = tmp_path / "g-boards" / "drogo-1.png"
    at_challenge = picture.read_bytes()
    late = "2026-12-07T23:30Z"
    shown = pbm(tmp_path, "do", "--db", db, "--now", late, "drogo show 1")
    assert shown.returncode == 0 and "clock: alice 14h 30m left, bob 7d per move" in shown.stdout
    assert f"board image: {picture}" in shown.stdout
    assert picture.read_bytes() != at_challenge
    assert untagged(picture) == Picture(state_of(db), ((0, "14h 30m left"), (1, "7d per move")), RATINGS).png()
    drawn = picture.stat().st_mtime_ns
    assert pbm(tmp_path, "do", "--db", db, "--now", late, "drogo show 1").returncode == 0
    assert picture.stat().st_mtime_ns == drawn  # the same picture again: not drawn, not written


#: what the header says after each player's name in a new rated two-player game
RATINGS = ((0, "1000?"), (1, "1000?"))


def state_of(db: str):  # -> GameState
    """Game 1's position, read from the database file."""
    import asyncio

    async def load():  # -> GameState
        store = await Store.open(Path(db))
        try:
            result = await Actions(store).show(1)
        finally:
            await store.close()
        assert result.state is not None
        return result.state

    return asyncio.run(load())


async def test_a_picture_is_redrawn_when_a_rating_it_shows_changed(console: Console, tmp_path: Path) -> None:
    await console.run("druid challenge -size=5 alice bob")
    await console.run("druid challenge -size=5 alice bob")
    shown = await console.run("druid show 2")
    picture = tmp_path / "boards" / "druid-2.png"
    assert shown.result.seat_ratings() == {0: "1000?", 1: "1000?"}
    before = picture.read_bytes()
    await console.run("druid move 1 alice c3")
    await console.run("druid move 1 bob d4")
    assert "bob wins" in (await console.run("druid resign 1 alice")).result.message
    again = await console.run("druid show 2")
    assert again.result.seat_ratings() != {0: "1000?", 1: "1000?"}  # game 1 moved both ratings
    made = board_files.picture(again.result)
    assert made is not None and picture.read_bytes() != before and untagged(picture) == made.png()


def test_the_key_covers_everything_a_picture_shows() -> None:
    game = registry.get("druid")
    state = game.new(game.parse_options(["-size=5"], 2), ["alice", "bob"], 1)
    base = Picture(state, ((0, "7d left"),), ((0, "1000?"),))
    others = [
        Picture(state, ((0, "6d 23h left"),), ((0, "1000?"),)),
        Picture(state, ((0, "7d left"),), ((0, "1012"),)),
        Picture(state, ((0, "7d left"),), ((0, "1000?"),), "3d"),
        Picture(game.new(game.parse_options(["-size=6"], 2), ["alice", "bob"], 1), ((0, "7d left"),), ((0, "1000?"),)),
    ]
    assert base.key() == Picture(state, ((0, "7d left"),), ((0, "1000?"),)).key()
    assert len({base.key(), *(other.key() for other in others)}) == 1 + len(others)


# ---- item 11: a board file is named for the game it shows -----------------------------------------------------------


async def test_a_first_round_decline_writes_the_next_games_board_under_that_games_name(
    console: Console, tmp_path: Path
) -> None:
    await console.run("drogo challenge alice bob carol")
    await console.run("drogo move 1 alice a1")
    old = tmp_path / "boards" / "drogo-1.png"
    before = old.read_bytes()
    declined = await console.run("drogo resign 1 bob")
    new = tmp_path / "boards" / "drogo-2.png"
    assert declined.ok and declined.result.game_id == 2 and "game 1 is cancelled" in declined.result.message
    assert render_text(declined).endswith(f"board image: {new}") and declined.board_path == new
    made = board_files.picture(await console.actions.show(2))
    assert made is not None and untagged(new) == made.png()
    assert old.read_bytes() == before  # game 1's file still shows game 1


# ---- Discord: the 3D view button, /board view:3d, and one picture for both fronts -----------------------------------


def picture_of(result: Result, view: str = "top") -> bytes:
    made = board_files.picture(result, view)
    assert made is not None
    return made.png()


async def test_the_3d_button_answers_privately_with_the_current_positions_3d_picture(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    clock = FakeClock(NOON)
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3", clock=clock) as bot:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        opening = table.last_post()
        await table.move_and_wait(w.alice, "c3")
        posts = len(w.fake.channel_log(table.thread.id))
        pressed = await w.fake.reply(await w.fake.click(w.carol, opening, "pbm:3d:1"))
        shown = await bot.actions.show(1)
    assert "pbm:3d:1" in opening.custom_ids() and opening.custom_ids()[-1] == "pbm:3d:1"
    assert pressed.ephemeral and pressed.text() == "Druid 1 in 3D, after move 1"  # now, not the old message's
    [attached] = pressed.attachments
    assert attached.filename == "druid-1-3d.png" and attached.data == picture_of(shown, "3d")
    assert size(attached.data) != size(picture_of(shown))
    assert len(w.fake.channel_log(table.thread.id)) == posts  # nothing posted in the thread


@pytest.mark.parametrize("game", WITHOUT_3D)
async def test_games_without_a_3d_view_have_no_3d_button(discord_world: World, tmp_path: Path, game: str) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3"):
        table = await start_game(w.fake, w.channel, game, [w.alice, w.bob])
    opening = table.last_post()
    assert opening.custom_ids() and not [c for c in opening.custom_ids() if c.startswith("pbm:3d:")]


async def test_the_3d_button_works_after_a_restart(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    db = tmp_path / "pbm.sqlite3"
    clock = FakeClock(NOON)
    async with pbm_running(w.fake, db, clock=clock):
        table = await start_game(w.fake, w.channel, "drogo", [w.alice, w.bob])
    opening = table.last_post()
    async with pbm_running(w.fake, db, clock=clock) as second:
        pressed = await w.fake.reply(await w.fake.click(w.bob, opening, "pbm:3d:1"))
        shown = await second.actions.show(1)
    assert pressed.ephemeral and pressed.text() == "Drogo 1 in 3D, at the start"
    assert [a.filename for a in pressed.attachments] == ["drogo-1-3d.png"]
    assert pressed.attachments[0].data == picture_of(shown, "3d")


async def test_board_takes_a_view(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    clock = FakeClock(NOON)
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3", clock=clock) as bot:
        druid = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        three = await w.fake.reply(await w.fake.slash(w.carol, druid.thread.id, "board", {"view": "3d"}))
        top = await w.fake.reply(await w.fake.slash(w.carol, druid.thread.id, "board", {"view": "top"}))
        shown = await bot.actions.show(1)
        await start_game(w.fake, w.channel, "backgammon", [w.alice, w.bob])
        asked = await w.fake.slash(w.carol, w.channel, "board", {"game": 2, "view": "3d"})
        placeholder, flat = await w.fake.reply(asked), await w.fake.followup(asked)
    assert not three.ephemeral and three.text() == "Druid 1 in 3D, at the start"
    assert [a.filename for a in three.attachments] == ["druid-1-3d.png"]
    assert three.attachments[0].data == picture_of(shown, "3d")
    assert [a.filename for a in top.attachments] == ["druid-1.png"] and top.attachments[0].data == picture_of(shown)
    assert (
        placeholder.deleted
        and flat.ephemeral
        and flat.text() == "Backgammon has no 3D view; /board without `view` shows its board"
    )
    assert flat.attachments == []


async def test_the_turn_message_and_the_console_draw_the_same_picture(discord_world: World, tmp_path: Path) -> None:
    """Both fronts draw :func:`bot.board_files.picture` of the same answer: the turn message's attachment is, to
    the byte, the PNG the console writes for that position at that time (clock notes and ratings included)."""
    w = discord_world
    db = tmp_path / "pbm.sqlite3"
    clock = FakeClock(NOON)
    async with pbm_running(w.fake, db, clock=clock):
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5 -days=3")
        clock.now += 5 * 3600
        turn = await table.move_and_wait(w.alice, "c3")
    store = await Store.open(db)
    try:
        console = Console(Actions(store, clock=clock), tmp_path / "boards")
        shown = await console.run("druid show 1")
    finally:
        await store.close()
    assert "alice 3d per move" in render_text(shown) and "bob 3d left" in render_text(shown)
    [attached] = turn.attachments
    assert attached.filename == "druid-1.png" and shown.board_path is not None
    assert attached.data == untagged(shown.board_path)
