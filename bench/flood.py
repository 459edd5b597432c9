"""``python -m bench flood``: issue 29's flood of computer games, and what it does to everyone else.

A real ``pbm run`` process (with its worker processes) on SQLite, driven through the fake Discord from this
process, as members would drive it. Four members of one server:

* **alice floods**: :data:`FLOOD` ``/challenge`` at the bot sent back to back (level 3, Druid and Dragons in turn,
  each with its own ``-days`` so that none is merged into an identical one still being made; her limit of games
  against the bot raised in the server's settings so that they are accepted, and the command rate off, as the
  load test has it), then plays each of her games, her next move as soon as the computer's reply is posted,
  :data:`FLOOD_MOVES` moves a game (fewer when a game ends first);
* **bob**, another member, plays his own two games against the bot, Druid and Dragons at level 3 like hers: a
  move, then the next once the computer's reply is posted. Measured: ``/move`` sent to the reply posted;
* **carol and dave** play each other (Druid), a move every :data:`HUMAN_PACE` seconds. Measured: ``/move`` sent
  to its board posted.

Three runs, each on a fresh bot and database: **quiet** (bob, carol and dave alone), **flood** (alice's games
with default options) and **heavy flood** (alice's with Druid ``-size=26`` and Dragons ``-num_tiles=200``). The
targets are the issue's: bob's replies p95 within twice their time when quiet (his think time, posting included),
carol's and dave's boards p95 within twice the quiet figure; and nothing lost or unanswered: every interaction
answered, every human move followed by one computer reply (none left waiting), every computer move posted once,
no error in the bot's log.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import statistics
import sys
import tempfile
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.common import Row
from bench.load import answer_of
from bench.load.servers import BotProcess
from bot.actions import Actions, status_line
from bot.actions.play import FOLLOWS
from data.store import Store
from rules import registry
from tests.fakediscord.records import Interaction, Message
from tests.fakediscord.server import FakeDiscord

#: alice's ``/challenge`` at the bot, and her moves in each of those games
FLOOD, FLOOD_MOVES = 30, 4
#: bob's replies measured (over his two games), carol's and dave's moves
BOB_MOVES, HUMAN_MOVES = 20, 60
#: seconds between two of carol's and dave's moves: people's pace, not a load of its own
HUMAN_PACE = 0.5
#: the computer's level in every game of the run
LEVEL = 3
#: the options of alice's games in each flood: (Druid's, Dragons')
PLAIN, HEAVY = ("", ""), ("-size=26", "-num_tiles=200")
#: the longest any one wait of the run may take before it counts as unanswered
PATIENCE = 300.0
#: what a turn says when the computer's move follows in a post of its own (busy, or moving again)
BUSY = FOLLOWS
_STARTED = re.compile(r"game (\d+) started.* in <#(\d+)>")


@dataclass(frozen=True)
class FloodConfig:
    """The size of a flood run."""

    flood: int = FLOOD
    flood_moves: int = FLOOD_MOVES
    bob_moves: int = BOB_MOVES
    human_moves: int = HUMAN_MOVES


#: ``--quick``: a third of the flood, a few samples
QUICK = FloodConfig(flood=10, flood_moves=2, bob_moves=6, human_moves=16)


@dataclass
class Game:
    """A game as the bench follows it: its number, its thread, the members' Discord ids by player name."""

    game_id: int
    thread: int
    users: dict[str, int]
    rng: random.Random
    human_moves: int = 0


@dataclass
class RunReport:
    """One run's latencies (seconds) and its proofs."""

    name: str
    bob_replies: list[float] = field(default_factory=list)
    bob_boards: list[float] = field(default_factory=list)
    human_boards: list[float] = field(default_factory=list)
    flood_replies: list[float] = field(default_factory=list)
    flood_answered_in: float = 0.0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)


def percentile(values: list[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``values`` (nearest rank); 0 for none."""
    data = sorted(values)
    return data[min(len(data) - 1, round(fraction * (len(data) - 1)))] if data else 0.0


class Unanswered(Exception):
    """A board a member waited for did not come."""


class Posts:
    """Every message the bot posts in a thread, in order, with the loop time it was posted at."""

    def __init__(self, fake: FakeDiscord) -> None:
        self._threads: dict[int, list[tuple[float, Message]]] = {}
        self._seen: set[int] = set()
        self._changed = asyncio.Event()
        fake.watch(self._told)

    def count(self, thread: int) -> int:
        return len(self._threads.get(thread, []))

    async def next(self, thread: int, start: int, check: Callable[[Message], bool]) -> tuple[int, float, Message]:
        """The first post in ``thread`` from index ``start`` on that satisfies ``check``: its index, time and
        message (waiting for it)."""
        while True:
            posts = self._threads.get(thread, [])
            for index in range(start, len(posts)):
                if check(posts[index][1]):
                    return index, posts[index][0], posts[index][1]
            start = len(posts)
            self._changed.clear()
            await self._changed.wait()

    def _told(self, message: Message) -> None:
        if message.id in self._seen or message.ephemeral:
            return  # an edit of a message seen already
        self._seen.add(message.id)
        self._threads.setdefault(message.channel_id, []).append((asyncio.get_running_loop().time(), message))
        self._changed.set()


def is_board(message: Message) -> bool:
    return bool(message.attachments)


def computer_moved(message: Message) -> bool:
    """Whether a turn tells a move of the computer ("ai:3 played d4", "ai:3 swapped", ...)."""
    return any(line.startswith(f"ai:{LEVEL} ") and BUSY not in line for line in message.text().splitlines())


def busy(message: Message) -> bool:
    """Whether a turn says the computer's move follows in a post of its own."""
    return BUSY in message.text()


def headline(message: Message) -> str:
    """A turn's first line: the game, its number and who is to move at which move (or how it ended)."""
    return message.text().splitlines()[0] if message.text() else ""


class Run:
    """One run: a fresh database and bot process, the members, their games, and what they measured."""

    def __init__(self, fake: FakeDiscord, folder: Path, config: FloodConfig, name: str, flood: tuple[str, str] | None):
        self.fake = fake
        self.folder = folder
        self.config = config
        self.flood = flood
        self.report = RunReport(name)
        self.sent: list[Interaction] = []
        self.games: list[Game] = []
        self.posts = Posts(fake)
        self.db = folder / "flood.sqlite3"
        self.store: Store | None = None

    async def legal_move(self, game: Game) -> str:
        """A legal move of the player to move, read from the database (the bench's own reading, not the bot's)."""
        assert self.store is not None
        row = await self.store.load_game(game.game_id)
        state = registry.get(row.type).load(row.snapshot)
        return state.move_text(state.random_move(game.rng))

    async def to_move(self, game: Game) -> str | None:
        assert self.store is not None
        row = await self.store.load_game(game.game_id)
        return row.to_move if row.status == "active" else None

    async def slash(self, user: int, channel: int, name: str, options: dict[str, object]) -> Interaction:
        interaction = await self.fake.slash(user, channel, name, options)
        self.sent.append(interaction)
        return interaction

    async def challenge_bot(self, user: int, channel: int, game: str, options: str) -> Interaction:
        values: dict[str, object] = {"game": game, "opponent": self.fake.application_id, "level": LEVEL}
        if options:
            values["options"] = options
        return await self.slash(user, channel, "challenge", values)

    async def started(self, interaction: Interaction, users: dict[str, int]) -> Game:
        """The game a ``/challenge`` started, read from its answer ("... game 12 started ... in <#thread>")."""
        reply = await self.fake.reply(interaction, timeout=PATIENCE)
        found = _STARTED.search(reply.content)
        if found is None:
            raise RuntimeError(f"the challenge was not accepted: {reply.content}")
        game = Game(int(found.group(1)), int(found.group(2)), users, random.Random(int(found.group(1))))
        self.games.append(game)
        return game

    async def running(self, game: Game) -> bool:
        assert self.store is not None
        return (await self.store.load_game(game.game_id)).status == "active"

    async def move(self, game: Game, user: int) -> tuple[float, float | None]:
        """Send the next move of ``game`` as ``user``: the seconds until its board is posted, and until the
        computer's reply is (``None`` in a game of people, and when the move ended the game). Returns once the
        game waits on a person again (a computer may move twice in a row)."""
        start = self.posts.count(game.thread)
        interaction = await self.slash(user, game.thread, "move", {"move": await self.legal_move(game)})
        game.human_moves += 1
        index, posted, message = await self.next_board(game, start, "its board")
        replied = posted if computer_moved(message) else None  # the reply came with the move: the pool was free
        while busy(message) or (await self.to_move(game) or "").startswith("ai:"):
            index, at, message = await self.next_board(game, index + 1, "the computer's reply")
            replied = at if replied is None else replied
        return posted - interaction.sent_at, None if replied is None else replied - interaction.sent_at

    async def next_board(self, game: Game, start: int, what: str) -> tuple[int, float, Message]:
        """The next board posted in the game's thread; :class:`Unanswered` after :data:`PATIENCE` seconds."""
        try:
            return await asyncio.wait_for(self.posts.next(game.thread, start, is_board), PATIENCE)
        except TimeoutError:
            raise Unanswered(f"game {game.game_id}: {what} was not posted within {PATIENCE:.0f} s") from None

    async def member(self, play: Coroutine[Any, Any, None]) -> None:
        """A member's part; one who waits in vain gives up, and the run says what never came."""
        try:
            await play
        except Unanswered as exc:
            self.report.problems.append(str(exc))

    # ---- the members ------------------------------------------------------------------------------------------

    async def alice(self, channel: int, alice: int) -> None:
        """The flood: every challenge sent at once, then each game played to its last move (or its end)."""
        assert self.flood is not None
        loop = asyncio.get_running_loop()
        start = loop.time()
        kinds = [("druid", self.flood[0]), ("dragons", self.flood[1])]
        sent = []
        for n in range(self.config.flood):
            game, options = kinds[n % 2]
            # each its own clock: identical challenges sent at once would be merged into the first
            sent.append(await self.challenge_bot(alice, channel, game, f"{options} -days={n // 2 + 1}".strip()))
        games = [await self.started(i, {"alice": alice}) for i in sent]
        self.report.flood_answered_in = loop.time() - start
        await asyncio.gather(*(self.member(self.flood_game(game, alice)) for game in games))

    async def flood_game(self, game: Game, alice: int) -> None:
        for _ in range(self.config.flood_moves):
            if not await self.running(game):
                return
            _, reply = await self.move(game, alice)
            if reply is not None:
                self.report.flood_replies.append(reply)

    async def bob(self, channel: int, bob: int) -> None:
        """Bob's moves, in a Druid game then a Dragons game by turns, each once the reply to the last is posted;
        a game that ends is followed by a new one of its kind (not measured)."""
        games: dict[str, Game | None] = {"druid": None, "dragons": None}
        for n in range(self.config.bob_moves):
            kind = ("druid", "dragons")[n % 2]
            game = games[kind]
            if game is None or not await self.running(game):
                game = games[kind] = await self.started(await self.challenge_bot(bob, channel, kind, ""), {"bob": bob})
            board, reply = await self.move(game, bob)
            self.report.bob_boards.append(board)
            if reply is not None:
                self.report.bob_replies.append(reply)

    async def people(self, channel: int, carol: int, dave: int) -> None:
        """Carol and dave, at people's pace; a game that ends is followed by a new one."""
        game = await self._people_game(channel, carol, dave)
        for _ in range(self.config.human_moves):
            player = await self.to_move(game)
            if player is None:
                game = await self._people_game(channel, carol, dave)
                player = await self.to_move(game)
                assert player is not None
            board, _ = await self.move(game, game.users[player])
            self.report.human_boards.append(board)
            await asyncio.sleep(HUMAN_PACE)

    # ---- the run ----------------------------------------------------------------------------------------------

    async def play(self) -> RunReport:
        fake = self.fake
        guild = await fake.add_guild(f"Flood {self.report.name}")
        channel = await fake.add_channel(guild, "games")
        users = {name: await fake.add_member(guild, name) for name in ("alice", "bob", "carol", "dave")}
        store = await Store.open(self.db)
        try:
            raised = await Actions(store).set_limits(guild, "bench", {"computer_games": max(self.config.flood, 3)})
            assert raised.ok, raised.message
        finally:
            await store.close()
        # the web UI beside the bot on any free port (the default one may be taken on this machine)
        env = {**os.environ, **fake.env(), "PBM_DB": str(self.db), "PBM_COMMAND_BURST": "0", "PBM_WEB_PORT": "0"}
        env.pop("PBM_DATABASE_URL", None)
        bot = BotProcess((0,), 1, env, self.folder / "bot.log")
        await bot.start()
        try:
            await fake.wait_connected(timeout=120)
            self.store = await Store.open(self.db, read_only=True)
            await self._play(channel, users)
            await self._settle()
            self.report.problems += await self._proofs() + bot.read_failures()
        finally:
            if self.store is not None:
                await self.store.close()
            await bot.stop()
        return self.report

    async def _play(self, channel: int, users: dict[str, int]) -> None:
        loop = asyncio.get_running_loop()
        start = loop.time()
        flood = asyncio.create_task(self.alice(channel, users["alice"])) if self.flood else None
        if flood is not None:
            await asyncio.sleep(self.config.flood * 0.1)  # the challenges are on their way
        people = self.people(channel, users["carol"], users["dave"])
        await asyncio.gather(self.member(self.bob(channel, users["bob"])), self.member(people))
        if flood is not None:
            await flood
        self.report.seconds = loop.time() - start

    async def _people_game(self, channel: int, carol: int, dave: int) -> Game:
        """Carol challenges dave, who accepts: their new game."""
        challenge = await self.slash(carol, channel, "challenge", {"game": "druid", "opponent": dave})
        number = re.search(r"Challenge (\d+) posted", (await self.fake.reply(challenge, timeout=30)).content)
        assert number is not None, "carol's challenge was not posted"
        accept = f"pbm:c:{number.group(1)}:accept"
        posted = await self.fake.wait_for(
            lambda: next((m for m in self.fake.channel_log(channel) if accept in m.custom_ids()), None), 30
        )
        accepted = await self.fake.click(dave, posted, accept)
        self.sent.append(accepted)
        return await self.started(accepted, {"carol": carol, "dave": dave})

    async def _settle(self) -> None:
        """Wait until every interaction is answered and no game waits on the computer."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + PATIENCE
        while loop.time() < deadline:
            waiting = [g for g in self.games if (await self.to_move(g) or "").startswith("ai:")]
            if not waiting and all(answer_of(self.fake, i) is not None for i in self.sent):
                return
            await asyncio.sleep(0.5)

    async def _proofs(self) -> list[str]:
        """What was lost or left unanswered, one line each (none: the run proved it): every interaction answered;
        in every game each move a member sent played, no position posted twice, and the last position posted."""
        assert self.store is not None
        unanswered = [i for i in self.sent if answer_of(self.fake, i) is None]
        found = [f"interaction {i.id} (/{i.data.get('name')}) unanswered" for i in unanswered]
        for game in self.games:
            row = await self.store.load_game(game.game_id)
            state = registry.get(row.type).load(row.snapshot)
            status = status_line(state.game, state).split(": ", 1)[1]
            last = f"{state.game.title} {game.game_id}: {status}"
            people = sum(e.player_id in game.users for e in await self.store.log(game.game_id) if not e.auto)
            boards = [headline(m) for m in self.fake.channel_log(game.thread) if is_board(m)]
            if row.status == "active" and (row.to_move or "").startswith("ai:"):
                found.append(f"game {game.game_id}: the computer never replied to the last move")
            if people != game.human_moves:
                found.append(f"game {game.game_id}: {game.human_moves} moves sent, {people} played")
            if len(set(boards)) != len(boards):
                found.append(f"game {game.game_id}: a position was posted twice")
            if not boards or last not in boards[-1]:
                found.append(f"game {game.game_id}: its last position ({last}) was not posted")
        return found


async def measure(config: FloodConfig) -> list[RunReport]:
    """The three runs, one after the other, each on a fresh bot and database."""
    reports = []
    for name, flood in (("quiet", None), ("flood", PLAIN), ("heavy flood", HEAVY)):
        fake = FakeDiscord()
        await fake.start()
        try:
            with tempfile.TemporaryDirectory(prefix="pbm-flood-") as tmp:
                print(f"flood: {name} ...", file=sys.stderr, flush=True)
                reports.append(await Run(fake, Path(tmp), config, name, flood).play())
        finally:
            await fake.stop()
    return reports


def rows(config: FloodConfig, reports: list[RunReport]) -> list[Row]:
    """Quiet and flood side by side: bob's replies and the people's boards against the quiet figures."""
    quiet = reports[0]
    think = percentile(quiet.bob_replies, 0.95)
    board = percentile(quiet.human_boards, 0.95)
    out = [
        Row(
            "flood",
            "quiet: bob's computer reply, p95 (his think time)",
            think * 1000,
            "ms",
            note=f"median {statistics.median(quiet.bob_replies) * 1000:.0f} ms over {len(quiet.bob_replies)} replies"
            f" (Druid 10x10 and Dragons 50 tiles, level {LEVEL})",
        ),
        Row(
            "flood",
            "quiet: carol's and dave's board posted, p95",
            board * 1000,
            "ms",
            note=f"median {statistics.median(quiet.human_boards) * 1000:.0f} ms over {len(quiet.human_boards)} moves",
        ),
    ]
    for r in reports[1:]:
        reply, human = percentile(r.bob_replies, 0.95), percentile(r.human_boards, 0.95)
        flood = (
            f"alice: {config.flood} challenges sent at once, all answered (games started) in "
            f"{r.flood_answered_in:.1f} s, {len(r.flood_replies)} replies, "
            f"median {statistics.median(r.flood_replies):.1f} s, max {max(r.flood_replies):.1f} s; "
            f"{r.seconds:.0f} s in all"
        )
        out += [
            Row(
                "flood",
                f"{r.name}: bob's computer reply, p95",
                reply * 1000,
                "ms",
                "<= 2 x quiet",
                reply <= 2 * think,
                f"quiet {think * 1000:.0f} ms ({reply / think:.1f}x)",
                f"median {statistics.median(r.bob_replies) * 1000:.0f} ms; his own board p95 "
                f"{percentile(r.bob_boards, 0.95) * 1000:.0f} ms; {flood}",
            ),
            Row(
                "flood",
                f"{r.name}: carol's and dave's board posted, p95",
                human * 1000,
                "ms",
                "<= 2 x quiet",
                human <= 2 * board,
                f"quiet {board * 1000:.0f} ms ({human / board:.1f}x)",
                f"median {statistics.median(r.human_boards) * 1000:.0f} ms over {len(r.human_boards)} moves",
            ),
        ]
    for r in reports:
        out.append(
            Row(
                "flood",
                f"{r.name}: proofs",
                len(r.problems),
                "problems",
                "0",
                not r.problems,
                note="; ".join(r.problems[:3])
                or "every interaction answered, every move replied to, each computer move posted once, no error logged",
            )
        )
    return out


def run(quick: bool = False) -> list[Row]:
    config = QUICK if quick else FloodConfig()
    reports = asyncio.run(measure(config))
    for report in reports:
        for line in report.problems:
            print(f"flood, {report.name}: {line}", file=sys.stderr)
    return rows(config, reports)
