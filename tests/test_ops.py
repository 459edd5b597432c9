"""What an operator sees of a running bot, through the fake Discord: ``/healthz`` and ``/metrics`` (in the bot's
process, and from ``pbm run`` on ``PBM_METRICS_PORT``), the log one line per event (text or JSON), the settings
refused in one line, and SIGTERM: no new commands, the ones in flight finished, an exit within ten seconds."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import os
import signal
import socket
import sqlite3
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp
import pytest

from bot.config import WebConfig
from bot.discord.client import setup_logging
from bot.discord.failures import STOPPING
from bot.discord.front import REPOST_GRACE
from bot.discord.web_bridge import WebAnnouncer
from bot.ops import serve_ops
from bot.web.security import SESSION_COOKIE
from bot.web.serve import web_server
from tests.fakediscord.pbm import FakeClock, pbm_running, start_game

if TYPE_CHECKING:
    from bot.discord import PbmBot
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]
ROOT = Path(__file__).resolve().parents[1]
THREAD_POSTS = "POST /channels/{channel_id}/messages"
DAY = 86400.0


@contextlib.asynccontextmanager
async def probed(bot: PbmBot) -> AsyncIterator[Any]:
    """``GET`` of the bot's ``/healthz`` and ``/metrics`` served on a port of their own, as ``PBM_METRICS_PORT``."""
    runner = await serve_ops(bot.ops, "127.0.0.1", 0)
    port = runner.addresses[0][1]
    async with aiohttp.ClientSession() as session:

        async def get(path: str) -> tuple[int, str, str]:
            async with session.get(f"http://127.0.0.1:{port}{path}") as response:
                return response.status, response.headers["Content-Type"], await response.text()

        try:
            yield get
        finally:
            await runner.cleanup()


def metric(text: str, line_start: str) -> float:
    """The value of the ``/metrics`` line that starts with ``line_start`` (0 when there is none)."""
    for line in text.splitlines():
        if line.startswith(line_start + " "):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


async def test_metrics_count_commands_moves_boards_429s_and_computer_moves(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    fake = w.fake
    clock = FakeClock()
    async with pbm_running(fake, tmp_path / "pbm.sqlite3", clock=clock) as bot, probed(bot) as get:
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        fake.rate_limit(THREAD_POSTS, channel_id=table.thread.id)  # the move's board meets a 429 first
        await table.move_and_wait(w.alice, "c3")
        await fake.reply(await fake.slash(w.carol, w.channel, "help"))
        computer = {"game": "druid", "opponent": fake.application_id, "level": 1, "options": "-size=5"}
        await fake.reply(await fake.slash(w.carol, w.channel, "challenge", computer))
        thread = await fake.wait_for(lambda: next((t for t in fake.threads.values() if t.id != table.thread.id), None))
        await fake.reply(await fake.slash(w.carol, thread.id, "move", {"move": "c3"}), timeout=30)
        await fake.wait_for(lambda: len(fake.channel_log(thread.id)) == 2, 30, "the computer's reply")
        # four days on, no sweep yet: bob's half-time warning (due after three and a half days) is overdue
        clock.now += 4 * DAY
        due = await bot.actions.store.oldest_timer_due()
        status, kind, text = await get("/metrics")
    assert status == 200 and kind == "text/plain; charset=utf-8"
    assert metric(text, 'pbm_commands_total{command="challenge",outcome="done"}') == 2
    assert metric(text, 'pbm_commands_total{command="button challenge",outcome="done"}') == 1
    assert metric(text, 'pbm_commands_total{command="move",outcome="done"}') == 2
    assert metric(text, 'pbm_commands_total{command="help",outcome="done"}') == 1
    assert metric(text, 'pbm_command_seconds_count{command="move"}') == 2
    assert metric(text, 'pbm_command_seconds_bucket{command="help",le="900.0"}') == 1
    assert metric(text, "pbm_moves_total") == 2
    # the two opening boards, alice's move, carol's move with the computer's reply
    assert metric(text, 'pbm_boards_posted_total{how="turn"}') == 4
    assert metric(text, "pbm_discord_rate_limited_total") == 1
    assert metric(text, "pbm_computer_move_seconds_count") == 1 and metric(text, "pbm_computer_moves_waiting") == 0
    assert due is not None and metric(text, "pbm_sweep_lag_seconds") == pytest.approx(clock.now - due)
    assert metric(text, "pbm_sweep_lag_seconds") > 0.4 * DAY
    assert metric(text, "pbm_boards_unposted") == 0 and metric(text, "pbm_database_up") == 1


async def test_a_command_over_the_rate_is_counted_as_slowed(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    async with (
        pbm_running(w.fake, tmp_path / "pbm.sqlite3", command_burst=1, command_seconds=60.0) as bot,
        probed(bot) as get,
    ):
        first = await w.fake.reply(await w.fake.slash(w.carol, w.channel, "help"))
        second = await w.fake.reply(await w.fake.slash(w.carol, w.channel, "help"))
        _, _, text = await get("/metrics")
    assert first.text().startswith("Games:") and second.content.startswith("slow down")
    assert metric(text, 'pbm_commands_total{command="help",outcome="done"}') == 1
    assert metric(text, 'pbm_commands_total{command="help",outcome="slowed"}') == 1


async def test_the_web_ui_beside_the_bot_serves_healthz_and_metrics_on_its_own_port(
    discord_world: World, tmp_path: Path
) -> None:
    """``pbm run`` mounts the bot's ``/healthz`` and ``/metrics`` on the web UI (:func:`bot.web.serve.web_server`
    with the bot's ``ops``): the same answers as on ``PBM_METRICS_PORT``, without a session read (a probe that
    carries a session cookie gets no cookie back) and with the web's protective headers."""
    w = discord_world
    db = tmp_path / "pbm.sqlite3"
    async with (
        pbm_running(w.fake, db) as bot,
        web_server(WebConfig(port=0), db, announcer=WebAnnouncer(bot), clock=bot.clock, ops=bot.ops) as web,
        aiohttp.ClientSession(cookies={SESSION_COOKIE: "not-a-session"}) as session,
    ):
        await w.fake.reply(await w.fake.slash(w.carol, w.channel, "help"))
        async with session.get(f"{web.address}/healthz") as response:
            health = response.status, await response.json(), response.headers
        async with session.get(f"{web.address}/metrics") as response:
            metrics = response.status, response.headers["Content-Type"], await response.text()
        async with session.get(f"{web.address}/") as response:
            lobby = response.status
    status, body, headers = health
    assert (status, body) == (200, {"ready": True, "database": "ok", "gateway": "connected"})
    assert "Set-Cookie" not in headers and headers["X-Content-Type-Options"] == "nosniff"
    assert metrics[:2] == (200, "text/plain; charset=utf-8")
    assert metric(metrics[2], 'pbm_commands_total{command="help",outcome="done"}') == 1
    assert lobby == 200


async def test_healthz_is_ready_when_connected_and_stop_finishes_what_is_in_flight(
    discord_world: World, tmp_path: Path
) -> None:
    """``PbmBot.stop`` (what SIGTERM calls): not ready from its first moment, new commands and buttons answered
    that the bot is stopping, the move in flight (its board post held by Discord) finished and posted."""
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot, probed(bot) as get:
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        ready = await get("/healthz")
        gate = fake.hold(THREAD_POSTS, channel_id=table.thread.id)
        held = fake.faults[-1]
        moving = await fake.slash(w.alice, table.thread.id, "move", {"move": "c3"})
        await fake.wait_for(lambda: held.hits, 10, "the board's post")
        stopping = asyncio.create_task(bot.stop())
        await fake.wait_for(lambda: bot.stopping, 5, "the stop")
        late = await fake.reply(await fake.slash(w.bob, w.channel, "help"))
        menu = table.last_post()
        pressed = await fake.reply(await fake.select(w.alice, menu, "pbm:s:1:1", ["a1"]))
        not_ready = await get("/healthz")
        gate.set()
        await asyncio.wait_for(stopping, 10)
        answered = await fake.reply(moving)
        _, _, text = await get("/metrics")
    assert ready[0] == 200 and json.loads(ready[2]) == {"ready": True, "database": "ok", "gateway": "connected"}
    assert not_ready[0] == 503 and json.loads(not_ready[2])["gateway"] == "stopping"
    assert late.content == STOPPING and late.ephemeral and pressed.content == STOPPING and pressed.ephemeral
    assert answered.deleted and "alice played c3" in table.last_post().text()
    assert metric(text, 'pbm_commands_total{command="help",outcome="stopping"}') == 1
    assert metric(text, 'pbm_commands_total{command="move",outcome="done"}') == 1
    with sqlite3.connect(tmp_path / "pbm.sqlite3") as raw:
        assert raw.execute("SELECT text FROM moves").fetchall() == [("c3",)]


async def test_a_command_still_running_when_the_stop_runs_out_is_cut_short_and_its_board_posted_after_a_restart(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    fake = w.fake
    db = tmp_path / "pbm.sqlite3"
    clock = FakeClock()
    async with pbm_running(fake, db, clock=clock) as bot:
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        fake.hold(THREAD_POSTS, channel_id=table.thread.id)  # Discord never answers the board's post
        held = fake.faults[-1]
        await fake.slash(w.alice, table.thread.id, "move", {"move": "c3"})
        await fake.wait_for(lambda: held.hits, 10, "the board's post")
        await bot.stop(grace=0.5)
    with sqlite3.connect(db) as raw:
        committed = raw.execute("SELECT text FROM moves").fetchall()
        marked = raw.execute("SELECT COUNT(*) FROM meta WHERE key = 'unposted:1'").fetchone()
    clock.now += REPOST_GRACE + 1
    async with pbm_running(fake, db, clock=clock):  # its first sweep, at start, posts the board
        await fake.wait_for(lambda: len(fake.channel_log(table.thread.id)) == 2, 10, "the board after the restart")
        posts = fake.channel_log(table.thread.id)
    assert committed == [("c3",)] and marked == (1,)  # the move stands, its board still to be posted
    assert len(posts) == 2 and posts[1].text().startswith("### Druid 1: bob to move (move 2)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_pbm_run_serves_metrics_and_exits_within_ten_seconds_of_sigterm_with_its_move_done(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    fake = w.fake
    db = tmp_path / "pbm.sqlite3"
    port, web_port = free_port(), free_port()
    env = {**os.environ, **fake.env(), "PBM_DB": str(db), "PBM_METRICS_PORT": str(port), "PBM_LOG_FORMAT": "json"}
    env.update({"PBM_COMMAND_BURST": "0", "PBM_WEB_PORT": str(web_port)})
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", cwd=ROOT, env=env, stderr=asyncio.subprocess.PIPE
    )
    try:
        await fake.wait_connected(timeout=30)
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{port}/healthz") as response:
                health = response.status, await response.json()
            async with session.get(f"http://127.0.0.1:{web_port}/healthz") as response:
                web_health = response.status, await response.json()
            gate = fake.hold(THREAD_POSTS, channel_id=table.thread.id)
            held = fake.faults[-1]
            moving = await fake.slash(w.alice, table.thread.id, "move", {"move": "c3"})
            await fake.wait_for(lambda: held.hits, 10, "the board's post")
            process.send_signal(signal.SIGTERM)
            signalled = time.monotonic()
            while True:  # until the process has taken the signal in
                async with session.get(f"http://127.0.0.1:{port}/healthz") as response:
                    if (await response.json())["gateway"] == "stopping":
                        break
            late = await fake.reply(await fake.slash(w.bob, w.channel, "help"), timeout=10)
            gate.set()
            _, stderr = await asyncio.wait_for(process.communicate(), timeout=15)
        took = time.monotonic() - signalled
        answered = await fake.reply(moving)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    lines = stderr.decode().splitlines()
    assert all(line.startswith("{") for line in lines), stderr.decode()  # every line a JSON object
    events = [json.loads(line) for line in lines]
    assert health == web_health == (200, {"ready": True, "database": "ok", "gateway": "connected"})
    assert late.content == STOPPING and answered.deleted and "alice played c3" in table.last_post().text()
    assert process.returncode == 0 and took < 10
    said = [e["message"] for e in events if e["logger"] == "pbm.discord"]
    assert said[-2].startswith("stopping: no new commands; waiting for ") and said[-1] == "stopped"
    assert all(set(e) >= {"time", "level", "logger", "message"} for e in events)
    assert not [e for e in events if "exception" in e or e["level"] in ("WARNING", "ERROR")]
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT text FROM moves").fetchall() == [("c3",)]
        assert raw.execute("SELECT COUNT(*) FROM meta WHERE key LIKE 'unposted:%'").fetchone() == (0,)


@pytest.fixture
def root_logging() -> Any:
    """The root logger, given back as it was (``setup_logging`` adds a handler and sets the level)."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        yield root
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)


def failing() -> BaseException:
    try:
        raise ValueError("a bad board\nwith two lines")
    except ValueError as exc:
        return exc


def test_json_logs_are_one_object_per_line_with_the_traceback_in_it(root_logging: logging.Logger) -> None:
    stream = io.StringIO()
    setup_logging(stream=stream, log_format="json")
    logging.getLogger("pbm.discord").error("posting failed:\nthe thread is gone", exc_info=failing())
    logging.getLogger("pbm.discord").info("started")
    lines = stream.getvalue().splitlines()
    first, second = (json.loads(line) for line in lines)
    assert len(lines) == 2
    assert first["level"] == "ERROR" and first["logger"] == "pbm.discord"
    assert first["message"] == "posting failed:\nthe thread is gone"
    assert first["exception"].startswith("Traceback") and first["exception"].endswith("with two lines")
    assert first["time"].endswith("Z") and second["message"] == "started"


def test_text_logs_keep_a_traceback_on_its_event_line(root_logging: logging.Logger) -> None:
    stream = io.StringIO()
    setup_logging(stream=stream)
    logging.getLogger("pbm.discord").error("posting failed", exc_info=failing())
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1
    assert "] [ERROR   ] pbm.discord: posting failed\\nTraceback (most recent call last):\\n" in lines[0]
    assert lines[0].endswith("ValueError: a bad board\\nwith two lines")


@pytest.mark.parametrize(
    ("variable", "value", "line"),
    [
        ("PBM_LOG_FORMAT", "xml", "pbm: PBM_LOG_FORMAT must be text or json, not 'xml'"),
        ("PBM_METRICS_PORT", "http", "pbm: PBM_METRICS_PORT must be a port number from 1 to 65535, not 'http'"),
        ("PBM_DB_TIMEOUT", "0", "pbm: PBM_DB_TIMEOUT must be positive, not '0'"),
    ],
)
async def test_a_bad_operator_setting_is_one_line_and_exit_2(
    tmp_path: Path, variable: str, value: str, line: str
) -> None:
    env = {**os.environ, "PBM_DB": str(tmp_path / "pbm.sqlite3"), "DISCORD_TOKEN": "x", variable: value}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", cwd=ROOT, env=env, stderr=asyncio.subprocess.PIPE
    )
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
    assert process.returncode == 2 and stderr.decode() == line + "\n"


async def test_a_metrics_port_in_use_is_one_line_and_exit_2(discord_world: World, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {**os.environ, **discord_world.fake.env(), "PBM_DB": str(tmp_path / "pbm.sqlite3")}
        env["PBM_METRICS_PORT"] = str(port)
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", cwd=ROOT, env=env, stderr=asyncio.subprocess.PIPE
        )
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
    last = stderr.decode().splitlines()[-1]
    assert process.returncode == 2
    assert last == (
        f"pbm: cannot serve /healthz and /metrics on 127.0.0.1:{port} (Address already in use);"
        " choose another PBM_METRICS_PORT"
    )
