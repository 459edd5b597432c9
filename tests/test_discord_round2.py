"""Issue 26's Discord items, through the fake Discord as players see them: a finished game tells nobody it is their
move, a held ping keeps the player's hours and zone to themselves, ``/board`` says what the turn message says
(clocks too), the ``game`` option is suggested on every command that takes one, a move made in its own thread
gets no private "Done", counts are singular or plural, and ``pbm run``'s log is free of colour codes and voice
warnings where nobody reads it on a terminal. The bot's clock is a :class:`FakeClock` moved by hand."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
import pytest

from ai.analysis import PlayerSummary
from bot.board_files import Picture
from bot.discord.client import setup_logging
from bot.discord.front import render_board
from data.store import LogEntry, Store
from tests.fakediscord.pbm import FakeClock, pbm_running, start_game

if TYPE_CHECKING:
    from bot.discord import PbmBot
    from tests.databases import Databases
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]
ROOT = Path(__file__).resolve().parents[1]
DAY = 86400.0
#: a Wednesday noon, UTC: quiet hours and clocks read the same on every run
NOON = datetime(2026, 1, 7, 12, 0, tzinfo=UTC).timestamp()
ESCAPE = "\x1b["


def pings_of(message: Any) -> str:
    """The mentions line(s) of a turn: its text after the last line that mentions nobody."""
    lines = message.text().splitlines()
    return "\n".join(line for line in lines if line.startswith("<@"))


# ---- 21: a finished game pings nobody to move ---------------------------------------------------------------


async def test_a_loss_on_time_mentions_the_winner_without_telling_them_to_move(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    clock = FakeClock(NOON)
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3", clock=clock) as bot:
        await w.fake.reply(await w.fake.slash(w.bob, w.channel, "notify", {"dm": "on"}))
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5 -days=1")
        clock.now += 2 * DAY
        await bot.sweep()
        final = table.last_post()
    assert final.text().startswith("### Druid 1: bob won (alice ran out of time)")
    assert final.pinged == [w.bob] and pings_of(final) == f"<@{w.bob}>"
    assert "your move" not in final.text().lower()
    told = w.fake.dms(w.bob)[-1].text()
    assert told.startswith("Game 1:\n") and "your move" not in told.lower()


async def test_a_player_out_of_time_among_three_leaves_one_to_move_and_one_only_mentioned(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    clock = FakeClock(NOON)
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3", clock=clock) as bot:
        table = await start_game(w.fake, w.channel, "drogo", [w.alice, w.bob, w.carol], options="-days=1")
        clock.now += DAY + 60  # alice ran out a minute ago; bob has his day from then
        await bot.sweep()
        turn = table.last_post()
    assert turn.text().startswith("### Drogo 1: bob to move (move 2)") and "alice ran out of time" in turn.text()
    assert pings_of(turn) == f"<@{w.bob}>, your move.\n<@{w.carol}>"
    assert sorted(turn.pinged) == sorted([w.bob, w.carol])


# ---- 22: a held ping tells nobody when, nor where ----------------------------------------------------------


async def test_a_ping_held_through_quiet_hours_is_announced_without_their_hours_or_zone(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    clock = FakeClock(NOON)  # 13:00 in Paris
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3", clock=clock) as bot:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        settings = {"quiet": "12-15", "tz": "Europe/Paris"}
        await w.fake.reply(await w.fake.slash(w.bob, w.channel, "notify", settings))
        turn = await table.move_and_wait(w.alice, "c3")
        clock.now += 2 * 3600  # 15:00 in Paris: his quiet hours are over
        await bot.sweep()
        ping = table.last_post()
    assert turn.pinged == [] and turn.text().splitlines()[-1] == "(bob will be told later)"
    assert not any(word in turn.text() for word in ("Paris", "Europe", "15:00", "quiet"))
    assert ping.text() == f"<@{w.bob}>, game 1 is waiting for your move." and ping.pinged == [w.bob]


# ---- 23: /board says what the turn says --------------------------------------------------------------------


async def test_board_says_the_turns_headline_and_clocks_in_its_text(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    clock = FakeClock(NOON)
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3", clock=clock):
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5 -days=3")
        turn = await table.move_and_wait(w.alice, "c3")
        board = await w.fake.reply(await w.fake.slash(w.carol, table.thread.id, "board"))
    headline, clocks, ratings = board.content.splitlines()
    assert headline == "### Druid 1: bob to move (move 2)"
    assert clocks.startswith("-# clock: alice ") and " · bob " in clocks
    assert ratings == "-# rated: alice 1000?, bob 1000?"
    assert turn.displayed_text().startswith(f"{board.content}\nalice played c3")  # the same lines as the turn's
    assert [a.filename for a in board.attachments] == ["druid-1.png"] and not board.ephemeral


async def test_board_without_a_picture_keeps_the_clocks_once_above_the_text_board(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    clock = FakeClock(NOON)

    def no_picture(board: Picture) -> bytes | None:
        return None

    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3", clock=clock, render=no_picture):
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5 -days=3")
        turn = await table.move_and_wait(w.alice, "c3")
        board = await w.fake.reply(await w.fake.slash(w.carol, table.thread.id, "board"))
    lines = board.content.splitlines()
    assert lines[0] == "### Druid 1: bob to move (move 2)" and lines[1].startswith("-# clock: alice ")
    assert lines[3] == "```" and board.content.endswith("```") and board.attachments == []
    assert sum("clock" in line for line in lines) == 1 and sum("rated" in line for line in lines) == 1
    assert not turn.layout and turn.content.startswith("\n".join(lines[:3]) + "\nalice played c3")
    assert sum("clock" in line for line in turn.content.splitlines()) == 1


async def test_the_show_board_menu_says_the_clocks_too(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    clock = FakeClock(NOON)
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3", clock=clock):
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5 -days=3")
        opening = table.last_post()
        shown = await w.fake.reply(await w.fake.message_command(w.carol, opening, "Show board"))
    assert shown.ephemeral and shown.content == opening.displayed_text().split("\nDruid game 1 started")[0]
    assert "-# clock: alice " in shown.content


# ---- 24: the game option is suggested wherever it is taken --------------------------------------------------


async def _finished_backgammon(bot: PbmBot) -> int:
    """A Backgammon game of alice's that bob won (alice resigned after the first round)."""
    started = await bot.actions.challenge("backgammon", ["alice", "bob"], [], start=True)
    assert started.game_id is not None
    for _ in range(2):
        shown = await bot.actions.show(started.game_id)
        assert shown.to_move is not None
        moved = await bot.actions.move(started.game_id, shown.to_move, shown.legal_move_texts()[0])
        assert moved.ok, moved.message
    assert (await bot.actions.resign(started.game_id, "alice")).ok
    return started.game_id


async def test_every_command_that_takes_a_game_suggests_the_members_games(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        finished = await _finished_backgammon(bot)
        suggested = {}
        for command in ("board", "history", "replay", "analyze", "moves", "watch", "unwatch", "move", "swap"):
            choices = await fake.autocomplete(w.alice, w.channel, command, {"game": ""}, "game")
            suggested[command] = [c["value"] for c in choices]
        names = await fake.autocomplete(w.alice, w.channel, "board", {"game": ""}, "game")
        typed = await fake.autocomplete(w.alice, w.channel, "history", {"game": "2"}, "game")
        in_thread = await fake.autocomplete(w.carol, table.thread.id, "watch", {"game": ""}, "game")
        elsewhere = await fake.autocomplete(w.carol, w.channel, "watch", {"game": ""}, "game")
    for command in ("board", "history", "replay", "unwatch"):  # any game can be looked at
        assert suggested[command] == [finished, 1], command
    for command in ("moves", "watch", "move", "swap"):  # only a running game has moves to make or watch
        assert suggested[command] == [1], command
    assert suggested["analyze"] == [finished]  # only a finished Backgammon game can be analysed
    assert [c["name"] for c in names] == [
        f"backgammon {finished}: alice, bob: finished",
        "druid 1: alice, bob: alice's turn",
    ]
    assert [c["value"] for c in typed] == [finished]
    assert [c["value"] for c in in_thread] == [1] and elsewhere == []  # carol plays no game: the thread's is offered


async def test_game_suggestions_keep_to_a_status_and_a_game_on_both_databases(databases: Databases) -> None:
    store = await Store.open(await databases.target())
    try:
        running = await store.create_game("druid", {}, ["alice", "bob"], 1, {"ply": 0}, "alice")
        over = await store.create_game("backgammon", {}, ["alice", "bob"], 1, {"ply": 0}, "alice")
        await store.commit_actions(
            over,
            0,
            [LogEntry(1, "alice", "resign", [])],
            snapshot={"ply": 1},
            move_number=1,
            status="finished",
            to_move=None,
            outcome={"winner": "bob"},
        )
        assert [g.id for g in await store.game_choices("alice")] == [running]
        assert [g.id for g in await store.game_choices("alice", status=None)] == [over, running]
        assert [g.id for g in await store.game_choices("bob", "2", status=None)] == [over]
        assert [g.id for g in await store.game_choices("alice", status="finished", game_type="backgammon")] == [over]
        assert await store.game_choices("alice", status="finished", game_type="druid") == []
    finally:
        await store.close()


# ---- 25: nothing said twice; singular and plural ------------------------------------------------------------


async def test_a_move_in_its_thread_gets_no_private_done_but_one_from_elsewhere_says_where(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3"):
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        here = await table.move(w.alice, "c3")
        there = await fake.reply(await fake.slash(w.bob, w.channel, "move", {"move": "d4", "game": 1}))
        refused = await table.move(w.alice, "d4")
    private = [m for m in fake.channel_log(table.thread.id, ephemeral=True) if m.ephemeral]
    assert here.deleted and [m.id for m in private] == [refused.id]
    assert there.ephemeral and there.text() == f"Done in <#{table.thread.id}>."
    assert refused.ephemeral and not refused.deleted and "d4" in refused.text()


async def test_a_move_in_its_thread_answered_after_discords_15_minutes_sends_no_dm(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    db = tmp_path / "pbm.sqlite3"
    async with pbm_running(w.fake, db):
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")

    def late_render(board: Picture) -> bytes | None:
        w.fake.advance(16 * 60)
        return render_board(board)

    async with pbm_running(w.fake, db, render=late_render):
        moved = await w.fake.slash(w.alice, table.thread.id, "move", {"move": "c3"})
        turn = await w.fake.next_message(table.thread.id, after=table.last_post().id, timeout=10)
        await w.fake.wait_for(lambda: any(r.status == 401 for r in w.fake.requests), what="the expired token")
    assert "alice played c3" in turn.text() and turn.pinged == [w.bob]
    assert w.fake.dms(w.alice) == [] and [m.id for m in moved.messages] == [moved.original_id]


def test_an_analysis_counts_one_decision_and_two_decisions() -> None:
    one = PlayerSummary(seat=0, player="alice", decisions=1, lost=0.0)
    two = PlayerSummary(seat=1, player="bob", decisions=2, lost=0.5)
    assert one.line().startswith("alice: 1 decision, 0.000 equity lost, error rate 0.0 per thousand; ")
    assert two.line().startswith("bob: 2 decisions, 0.500 equity lost, error rate 250.0 per thousand; ")


# ---- 26: pbm run's log --------------------------------------------------------------------------------------


async def test_pbm_runs_log_in_a_file_has_no_colour_codes_and_no_voice_warnings(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    env = {**os.environ, **w.fake.env(), "PBM_DB": str(tmp_path / "pbm.sqlite3")}
    log_path = tmp_path / "pbm.log"
    with log_path.open("wb") as log_file:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", cwd=ROOT, env=env, stderr=log_file
        )
        try:
            await w.fake.wait_connected(timeout=30)
            await w.fake.reply(await w.fake.slash(w.alice, w.channel, "help"), timeout=10)
            process.send_signal(signal.SIGTERM)
            await asyncio.wait_for(process.wait(), timeout=10)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
    log = log_path.read_text()
    assert process.returncode == 0
    assert "] [INFO    ] pbm.discord: commands synced globally" in log  # the log is written, plainly
    assert ESCAPE not in log
    assert "voice" not in log and "PyNaCl" not in log and "davey" not in log


@pytest.fixture
def root_logging() -> Iterator[logging.Logger]:
    """The root logger, given back as it was (``setup_logging`` adds a handler and sets the level)."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        yield root
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)


def test_the_log_is_coloured_on_a_terminal_only(root_logging: logging.Logger, tmp_path: Path) -> None:
    leader, follower = os.openpty()
    with open(follower, "w") as terminal, (tmp_path / "file.log").open("w") as file:
        setup_logging(stream=terminal)
        setup_logging(stream=file)
        logging.getLogger("pbm.discord").warning("the board could not be posted")
        terminal.flush()
        file.flush()
        coloured = os.read(leader, 4096).decode()
    os.close(leader)
    plain = (tmp_path / "file.log").read_text()
    assert ESCAPE in coloured and "the board could not be posted" in coloured
    assert ESCAPE not in plain and plain.endswith("] [WARNING ] pbm.discord: the board could not be posted\n")


def test_a_file_gets_no_colour_even_where_discord_py_would_colour_it(
    root_logging: logging.Logger, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """discord.py colours every stream inside a container (Docker): a log file there would be full of codes."""
    monkeypatch.setattr(discord.utils, "is_docker", lambda: True)
    with (tmp_path / "file.log").open("w") as file:
        setup_logging(stream=file)
        logging.getLogger("pbm.discord").info("started")
    assert (tmp_path / "file.log").read_text().endswith("] [INFO    ] pbm.discord: started\n")


async def test_the_bot_says_nothing_about_voice(
    discord_world: World, tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)  # as in a fresh process without PyNaCl
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    with caplog.at_level(logging.INFO, logger="discord"):
        async with pbm_running(discord_world.fake, tmp_path / "pbm.sqlite3"):
            pass
    assert caplog.records and not [r.getMessage() for r in caplog.records if "voice" in r.getMessage()]
