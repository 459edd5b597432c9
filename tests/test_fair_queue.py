"""Computer moves scheduled fairly (issue 29): a queue per member served by least recent service, a bounded pool of
workers at a lower priority, and commands that never wait for a busy pool: the member's own move is answered at
once and the computer's reply is posted in the thread later, as an ordinary message.

The order of service is checked with a worker the test holds (:class:`Gate`), not with timings: the flood of the
issue (one member's 30 games against the bot) comes first, and another member's move is still worked out before
the flood's second. ``python -m bench flood`` measures the same flood with real searches."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import pytest

from bot.actions import Actions, Result
from bot.discord import create_bot
from bot.discord.followups import LATE_NOTE
from bot.discord.thinking import INLINE_SECONDS, WORKER_NICENESS, ComputerPool, ComputerReplies, member_of
from data.store import Store
from rules import registry
from rules.base import GameState
from tests.fakediscord.pbm import SEED, bot_config
from tests.fakediscord.runner import running

if TYPE_CHECKING:
    from bot.discord import PbmBot
    from tests.fakediscord.fixtures import World
    from tests.fakediscord.records import Message, Thread
    from tests.fakediscord.server import FakeDiscord

pytest_plugins = ["tests.fakediscord.fixtures"]

T = TypeVar("T")
BUSY = "ai:3 is busy with other games: its move will follow here shortly"


class Gate:
    """A worker that holds every move until the test lets one go (:meth:`release`), then answers a legal move
    (drawn from the position, so it is quick and always accepted)."""

    def __init__(self) -> None:
        self.held: list[asyncio.Event] = []

    async def __call__(self, state: GameState, player: str, seconds: float | None) -> tuple[str, str]:
        go = asyncio.Event()
        self.held.append(go)
        await go.wait()
        if state.players == ["fail", "ai:3"]:
            raise RuntimeError("the search failed")
        return state.move_text(state.random_move(random.Random(state.ply))), ""

    def release(self) -> None:
        """Let the oldest move still held be answered."""
        next(go for go in self.held if not go.is_set()).set()


def position(*players: str, game: str = "druid") -> GameState:
    """A new game's position (Druid 5x5 unless told), for the pool's own tests."""
    definition = registry.get(game)
    options = definition.parse_options(["-size=5"] if game == "druid" else [], len(players))
    return definition.new(options, list(players), SEED)


async def soon(awaitable: Awaitable[T]) -> T:
    """``awaitable``'s outcome within 5 seconds: a scheduling bug fails the test rather than hanging it."""
    return await asyncio.wait_for(awaitable, 5)


async def until(condition: Callable[[], bool], what: str) -> None:
    """Wait (5 seconds at most) until ``condition`` holds: the database's worker thread answers in its own
    time, so a few steps of the event loop are not always enough. A wait, never a measure of time."""
    deadline = asyncio.get_running_loop().time() + 5
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, f"still waiting for {what}"
        await asyncio.sleep(0.005)


async def settle() -> None:
    """Let every task the pool started take its next step."""
    for _ in range(5):
        await asyncio.sleep(0)


# ---- the pool on its own --------------------------------------------------------------------------------------


async def test_a_free_worker_takes_the_member_served_least_recently() -> None:
    served: list[str] = []
    gate = Gate()
    pool = ComputerPool(1, work=gate, on_served=lambda member, player: served.append(member))
    asks = [
        asyncio.create_task(pool(position(member, "ai:3"), "ai:3", None))
        for member in ("alice", "alice", "alice", "carol", "carol", "bob")
    ]
    await settle()
    assert (pool.busy, pool.depth) == (1, 5)
    for _ in range(len(asks)):
        gate.release()
        await settle()
    answers = await soon(asyncio.gather(*asks))
    # alice's first was running when the others came; then carol (never served, asked before bob), bob, and only
    # then alice again, carol again, alice
    assert served == ["alice", "carol", "bob", "alice", "carol", "alice"]
    assert all(text for text, _ in answers) and (pool.busy, pool.depth) == (0, 0)


async def test_a_member_who_had_nothing_waiting_counts_as_never_served() -> None:
    served: list[str] = []
    gate = Gate()
    pool = ComputerPool(1, work=gate, on_served=lambda member, player: served.append(member))
    first = asyncio.create_task(pool(position("bob", "ai:3"), "ai:3", None))
    await settle()
    gate.release()
    await soon(first)  # bob is idle again: his service is forgotten
    flood = [asyncio.create_task(pool(position("alice", "ai:3"), "ai:3", None)) for _ in range(3)]
    await settle()
    again = asyncio.create_task(pool(position("bob", "ai:3"), "ai:3", None))
    await settle()
    for _ in range(4):
        gate.release()
        await settle()
    await soon(asyncio.gather(*flood, again))
    assert served == ["bob", "alice", "bob", "alice", "alice"]


async def test_one_member_never_takes_every_worker_so_another_s_move_starts_at_once() -> None:
    """Two workers: alice's flood has one of them at a time, however many moves she has waiting, and bob's move
    takes the other at once, while her first search still runs."""
    served: list[str] = []
    gate = Gate()
    pool = ComputerPool(2, work=gate, on_served=lambda member, player: served.append(member))
    flood = [asyncio.create_task(pool(position("alice", "ai:3"), "ai:3", None)) for _ in range(3)]
    await settle()
    alone = (pool.busy, pool.depth, served[:])
    bobs = asyncio.create_task(pool(position("bob", "ai:3"), "ai:3", None))
    await settle()
    with_bob = (pool.busy, pool.depth, served[:])
    for _ in range(4):
        gate.release()
        await settle()
    await soon(asyncio.gather(*flood, bobs))
    assert pool.share == 1 and alone == (1, 2, ["alice"])  # the second worker is kept for someone else
    assert with_bob == (2, 2, ["alice", "bob"])
    assert served == ["alice", "bob", "alice", "alice"]


async def test_the_pool_is_free_for_a_command_only_when_a_short_move_would_start_at_once() -> None:
    gate = Gate()
    pool = ComputerPool(1, work=gate)
    free_before = (pool.free(None), pool.free(INLINE_SECONDS), pool.free(INLINE_SECONDS + 1))
    now = asyncio.create_task(pool(position("alice", "ai:3"), "ai:3", None))
    await settle()
    busy = pool.free(None)
    queued = asyncio.create_task(pool(position("bob", "ai:3"), "ai:3", None))  # it waits its turn
    await settle()
    depth = pool.depth
    gate.release()
    await settle()
    gate.release()
    assert (await soon(now))[0] and (await soon(queued))[0]
    assert free_before == (True, True, False)  # too long a search to hold a command for
    assert (busy, depth, pool.free(None)) == (False, 1, True)


async def test_a_failed_search_is_the_asker_s_error_and_the_queue_goes_on() -> None:
    gate = Gate()
    pool = ComputerPool(1, work=gate)
    failing = asyncio.create_task(pool(position("fail", "ai:3"), "ai:3", None))
    after = asyncio.create_task(pool(position("bob", "ai:3"), "ai:3", None))
    await settle()
    gate.release()
    await settle()
    gate.release()
    with pytest.raises(RuntimeError, match="the search failed"):
        await soon(failing)
    assert (await soon(after))[0]


async def test_closing_abandons_the_waiting_moves_and_refuses_new_ones() -> None:
    gate = Gate()
    pool = ComputerPool(1, work=gate)
    running_now = asyncio.create_task(pool(position("alice", "ai:3"), "ai:3", None))
    waiting = asyncio.create_task(pool(position("bob", "ai:3"), "ai:3", None))
    await settle()
    pool.close()
    await settle()
    assert running_now.cancelled() and waiting.cancelled() and not pool.free(None)
    with pytest.raises(RuntimeError, match="stopped"):
        await soon(pool(position("carol", "ai:3"), "ai:3", None))


def test_a_member_is_the_game_s_people() -> None:
    assert member_of(position("alice", "ai:3")) == "alice"
    assert member_of(position("ai:1", "carol", "bob", game="drogo")) == "bob carol"
    assert member_of(position("ai:1", "ai:2")) == "ai:1 ai:2"


async def test_the_workers_run_at_a_lower_priority_than_the_bot() -> None:
    pool = ComputerPool(1)
    try:
        niceness = await asyncio.get_running_loop().run_in_executor(pool.executor(), os.nice, 0)
    finally:
        pool.close()
    assert niceness == min(19, os.nice(0) + WORKER_NICENESS)


# ---- the actions with a front that plays computers later --------------------------------------------------------


async def quick_think(state: GameState, player: str, seconds: float | None) -> tuple[str, str]:
    """A legal move at once, as a worker would answer it."""
    return state.move_text(state.random_move(random.Random(state.ply))), ""


async def three_player_game(tmp_path: Path, free: bool) -> tuple[Actions, Store]:
    """Druid hex for alice and two computers in a row, with a pool that is ``free`` or not."""
    store = await Store.open(tmp_path / "pbm.sqlite3")
    actions = Actions(store, seed_source=lambda: SEED, think=quick_think, think_now=lambda seconds: free)
    started = await actions.challenge("druid", ["alice", "ai:1", "ai:2"], ["-hex", "-size=5"], start=True)
    assert started.ok, started.message
    return actions, store


async def test_a_command_waits_for_one_search_at_most_and_the_next_computer_is_left(tmp_path: Path) -> None:
    actions, store = await three_player_game(tmp_path, free=True)
    try:
        moved = await actions.move(1, "alice", "c3", will_post="first")
        marks_after_move = await store.unposted_boards()
        replied = await actions.computer_reply(1, will_post="second")
        marks_after_reply = await store.unposted_boards()
        again = await actions.computer_reply(1, will_post="third")  # alice's turn: nothing to play
        log = [(e.player_id, e.number) for e in await store.log(1)]
    finally:
        await store.close()
    lines = moved.message.splitlines()
    assert lines[0] == "alice played c3" and any(line.startswith("ai:1 played") for line in lines)
    assert lines[-1] == "ai:2's move will follow here shortly" and moved.to_move == "ai:2"
    assert marks_after_move == [(1, "first")]  # the board of alice's move and ai:1's, until it is posted
    assert replied.played_by == "ai:2" and replied.to_move == "alice" and replied.notify == ["alice"]
    assert marks_after_reply == [(1, "second")]  # ai:2's board, marked by its own commit
    assert again.played is None and again.move_number == 3
    assert log == [("alice", 1), ("ai:1", 2), ("ai:2", 3)]


async def test_a_command_does_not_wait_for_a_busy_pool(tmp_path: Path) -> None:
    actions, store = await three_player_game(tmp_path, free=False)
    try:
        moved = await actions.move(1, "alice", "c3")
        log = [(e.player_id, e.number) for e in await store.log(1)]
    finally:
        await store.close()
    assert moved.message.splitlines()[-1] == "ai:1 is busy with other games: its move will follow here shortly"
    assert moved.to_move == "ai:1" and log == [("alice", 1)]


async def test_the_console_plays_every_computer_at_once(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "pbm.sqlite3")
    try:
        actions = Actions(store, seed_source=lambda: SEED, think=quick_think)  # no think_now: nobody plays later
        await actions.challenge("druid", ["alice", "ai:1", "ai:2"], ["-hex", "-size=5"], start=True)
        moved = await actions.move(1, "alice", "c3")
    finally:
        await store.close()
    assert moved.to_move == "alice" and moved.move_number == 3 and "follow" not in moved.message


async def test_a_computer_to_move_again_after_a_reply_is_played_without_waiting_for_the_sweep(
    tmp_path: Path,
) -> None:
    """Drogo for alice and three computers: her move waits for ai:1's reply and leaves ai:2's; ai:2's reply, played
    by :class:`ComputerReplies`, leaves ai:3's, and its post asks for it from within that reply (as the front does
    for every turn that waits on a computer): ai:3 plays once ai:2's reply is done, not a sweep later."""
    store = await Store.open(tmp_path / "pbm.sqlite3")
    posted: list[Result] = []
    actions = Actions(store, seed_source=lambda: SEED, think=quick_think, think_now=lambda seconds: True)

    async def post(result: Result, nonce: str) -> None:
        posted.append(result)
        if result.to_move is not None and result.to_move.startswith("ai:"):
            replies.schedule(result.game_id or 0)

    replies = ComputerReplies(actions, post)
    try:
        started = await actions.challenge("drogo", ["alice", "ai:1", "ai:2", "ai:3"], [], start=True)
        assert started.ok and started.to_move == "alice", started.message
        moved = await actions.move(1, "alice", started.legal_move_texts()[0])
        replies.schedule(1)
        await until(lambda: len(posted) == 2 and not replies.pending, "both replies posted")
        log = [e.player_id for e in await store.log(1)]
    finally:
        await replies.close()
        await store.close()
    assert moved.message.splitlines()[-1] == "ai:2's move will follow here shortly"
    assert [(r.played_by, r.to_move) for r in posted] == [("ai:2", "ai:3"), ("ai:3", "alice")]
    assert log == ["alice", "ai:1", "ai:2", "ai:3"]


# ---- the actions and the pool together, as the bot wires them (no Discord) ----------------------------------


class Flood:
    """The bot's computer players without Discord: actions on a :class:`ComputerPool` of one worker held by a
    :class:`Gate`, and :class:`ComputerReplies` (what the bot has play a reply a command left) posting into a list,
    as the Discord front's ``post_turn`` hands it every turn that waits on a computer."""

    def __init__(self, store: Store) -> None:
        self.gate = Gate()
        self.served: list[str] = []
        self.pool = ComputerPool(1, work=self.gate, on_served=lambda member, player: self.served.append(member))
        self.actions = Actions(store, seed_source=lambda: SEED, think=self.pool, think_now=self.pool.free)
        self.posted: list[Result] = []

        async def post(result: Result, nonce: str) -> None:
            self.posted.append(result)

        self.replies = ComputerReplies(self.actions, post)

    async def challenge_the_bot(self, member: str, game: str) -> int:
        """``member`` against ``ai:3`` (Druid 5x5 or Dragons), the member to move first; the game's number."""
        options = ["-size=5"] if game == "druid" else []
        started = await self.actions.challenge(game, [member, "ai:3"], options, start=True)
        assert started.ok and started.game_id is not None and started.to_move == member, started.message
        return started.game_id

    async def move(self, game_id: int, member: str) -> Result:
        """``member``'s first legal move in ``game_id``; a turn that waits on the computer is handed on, as
        the front does once the turn is posted."""
        shown = await self.actions.show(game_id)
        moved = await self.actions.move(game_id, member, shown.legal_move_texts()[0])
        assert moved.ok, moved.message
        if moved.to_move == "ai:3":
            self.replies.schedule(game_id)
        return moved

    async def release_all(self, count: int) -> None:
        """Let ``count`` searches go, one at a time, each once it is being worked out (one worker)."""
        for _ in range(count):
            await until(lambda: any(not go.is_set() for go in self.gate.held), "a search being worked out")
            self.gate.release()


async def test_flood_actions_serve_another_member_before_the_flood_s_second_to_thirtieth_moves(
    tmp_path: Path,
) -> None:
    """Issue 29's flood at the actions: alice's 30 games against the computer, then bob's one. alice's first move
    finds the worker free and waits for its reply; her 29 others and bob's are answered at once (the reply
    follows). The worker, held by the test, serves bob second, before alice's 2nd to 30th, and every game gets
    its reply, once."""
    store = await Store.open(tmp_path / "pbm.sqlite3")
    flood = Flood(store)
    try:
        floods = [await flood.challenge_the_bot("alice", ("druid", "dragons")[n % 2]) for n in range(30)]
        mine = await flood.challenge_the_bot("bob", "druid")
        first = asyncio.create_task(flood.move(floods[0], "alice"))
        await until(lambda: flood.gate.held, "alice's first reply being worked out")
        assert (flood.pool.busy, flood.pool.depth) == (1, 0)  # worked out at once, held by the gate
        answered = [await soon(flood.move(game_id, "alice")) for game_id in floods[1:]]
        await until(lambda: flood.pool.depth == 29, "the flood's replies in the queue")
        bobs = await soon(flood.move(mine, "bob"))
        await until(lambda: flood.pool.depth == 30, "bob's reply in the queue")
        await flood.release_all(31)
        first_answer = await soon(first)
        await until(lambda: len(flood.posted) == 30 and not flood.replies.pending, "every reply posted")
        shown = [await flood.actions.show(game_id) for game_id in [*floods, mine]]
        logs = [[e.player_id for e in await store.log(game_id)] for game_id in [*floods, mine]]
    finally:
        await flood.replies.close()
        flood.pool.close()
        await store.close()
    assert flood.served == ["alice", "bob"] + ["alice"] * 29
    assert first_answer.to_move == "alice" and "ai:3 played" in first_answer.message
    for answer in [*answered, bobs]:  # the member's own move, answered before any search of theirs began
        assert answer.to_move == "ai:3" and answer.message.splitlines()[-1] == BUSY
    # nothing unanswered: each left game's reply was played and posted once, pinging its member
    assert sorted(r.game_id for r in flood.posted) == sorted([*floods[1:], mine])
    assert all(r.played_by == "ai:3" and r.notify == [r.to_move] for r in flood.posted)
    assert [(r.move_number, r.to_move) for r in shown] == [(2, "alice")] * 30 + [(2, "bob")]
    assert logs == [["alice", "ai:3"]] * 30 + [["bob", "ai:3"]]


async def test_people_s_moves_never_wait_behind_computer_thinking(tmp_path: Path) -> None:
    """With the one worker held and 29 computer moves waiting for it, people's commands still finish at once:
    a move between two people, a look at a board, and a member's move against the busy computer (answered, its
    reply left). Each is committed before the searches go on."""
    store = await Store.open(tmp_path / "pbm.sqlite3")
    flood = Flood(store)
    try:
        floods = [await flood.challenge_the_bot("alice", "druid") for _ in range(30)]
        people = await flood.actions.challenge("druid", ["carol", "dave"], ["-size=5"], start=True)
        mine = await flood.challenge_the_bot("bob", "druid")
        first = asyncio.create_task(flood.move(floods[0], "alice"))
        await until(lambda: flood.gate.held, "alice's first reply being worked out")
        for game_id in floods[1:]:
            await soon(flood.move(game_id, "alice"))
        await until(lambda: flood.pool.depth == 29, "the flood's replies in the queue")
        held = (flood.pool.busy, flood.pool.depth, len(flood.gate.held))
        carol = await soon(flood.actions.move(people.game_id, "carol", "c3"))
        dave_looks = await soon(flood.actions.show(people.game_id))
        bob = await soon(flood.move(mine, "bob"))
        committed = [[e.player_id for e in await store.log(game_id)] for game_id in (people.game_id, mine)]
        await flood.release_all(31)
        await soon(first)
        await until(lambda: not flood.replies.pending, "every reply posted")
    finally:
        await flood.replies.close()
        flood.pool.close()
        await store.close()
    assert held == (1, 29, 1)  # every search was still held while the people moved
    assert carol.ok and carol.to_move == "dave" and dave_looks.move_number == 1
    assert bob.ok and bob.message.splitlines()[-1] == BUSY
    assert committed == [["carol"], ["bob"]]


# ---- through Discord ------------------------------------------------------------------------------------------


async def challenge_the_bot(fake: FakeDiscord, user: int, channel: int, game: str) -> Thread:
    """``/challenge`` at the bot (level 3) and the game's new thread, once its opening board is there."""
    before = set(fake.threads)
    values = {"game": game, "opponent": fake.application_id, "level": 3}
    if game == "druid":
        values["options"] = "-size=5"
    started = await fake.reply(await fake.slash(user, channel, "challenge", values), timeout=10)
    assert "started" in started.content, started.content
    thread = await fake.wait_for(lambda: next((t for t in fake.threads.values() if t.id not in before), None))
    await fake.wait_for(lambda: fake.channel_log(thread.id), what="opening board")
    return thread


async def first_move(bot: PbmBot, thread: Thread) -> str:
    game_id = await bot.actions.store.game_by_thread(thread.id)
    assert game_id is not None
    return (await bot.actions.show(game_id)).legal_move_texts()[0]


def reply_of(fake: FakeDiscord, thread: Thread) -> Message | None:
    """The computer's reply posted in the thread, if it is there."""
    return next((m for m in fake.channel_log(thread.id) if "ai:3 played" in m.text()), None)


async def test_another_member_is_served_before_the_flood_s_second_move_and_nobody_waits_unanswered(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    fake = w.fake
    served: list[str] = []
    gate = Gate()
    pool = ComputerPool(1, work=gate, on_served=lambda member, player: served.append(member))
    bot = create_bot(
        bot_config(fake, tmp_path / "pbm.sqlite3", command_burst=0), seed_source=lambda: SEED, computers=pool
    )
    async with running(bot, fake):
        raised = await bot.actions.set_limits(w.guild, "mod", {"computer_games": 30})
        floods = [await challenge_the_bot(fake, w.alice, w.channel, ("druid", "dragons")[n % 2]) for n in range(30)]
        moves = [await first_move(bot, thread) for thread in floods]
        sent = [await fake.slash(w.alice, t.id, "move", {"move": m}) for t, m in zip(floods, moves, strict=True)]
        # the first found the worker free and is worked out at once; the others are answered without waiting
        flood_answers = await asyncio.gather(*(fake.reply(i, timeout=30) for i in sent[1:]))
        await fake.wait_for(lambda: (pool.busy, pool.depth) == (1, 29), what="the flood's moves in the queue")
        mine = await challenge_the_bot(fake, w.bob, w.channel, "druid")
        bob_answer = await fake.reply(await fake.slash(w.bob, mine.id, "move", {"move": "c3"}), timeout=10)
        await fake.wait_for(lambda: pool.depth == 30, what="bob's move in the queue")
        boards_while_held = [fake.channel_log(t.id)[-1] for t in [*floods[1:], mine]]
        for _ in range(31):  # one worker: one move held at a time
            await fake.wait_for(lambda: any(not go.is_set() for go in gate.held), what="a move being worked out")
            gate.release()
        first_answer = await fake.reply(sent[0], timeout=10)
        replies = [await fake.wait_for(lambda t=t: reply_of(fake, t), 30, "reply") for t in [*floods, mine]]
        shown = [await bot.actions.show(n) for n in range(1, 32)]
    assert raised.ok
    assert served == ["alice", "bob"] + ["alice"] * 29
    # every move but the first was answered at once, while the computer's replies were all still held (the turn
    # in the thread is the answer: the "thinking…" placeholder is removed); the first, with its reply
    assert all(a.deleted for a in flood_answers) and bob_answer.deleted and first_answer.deleted
    for board in boards_while_held:
        assert BUSY in board.text() and board.pinged == []
    assert "alice played" in replies[0].text() and BUSY not in replies[0].text()
    # each reply came later, as an ordinary message in the thread pinging the member, not as a followup
    for reply, user in zip(replies, [w.alice] * 30 + [w.bob], strict=True):
        assert reply.interaction_id is None and not reply.ephemeral and reply.pinged == [user]
    assert [(r.move_number, r.to_move) for r in shown] == [(2, "alice")] * 30 + [(2, "bob")]


async def test_a_reply_waiting_past_the_interaction_s_15_minutes_is_posted_in_the_thread(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    fake = w.fake
    gate = Gate()
    pool = ComputerPool(1, work=gate)
    bot = create_bot(
        bot_config(fake, tmp_path / "pbm.sqlite3", command_burst=0), seed_source=lambda: SEED, computers=pool
    )
    async with running(bot, fake):
        busy = await challenge_the_bot(fake, w.alice, w.channel, "druid")
        await fake.slash(w.alice, busy.id, "move", {"move": "c3"})  # the worker was free: worked out at once
        await fake.wait_for(lambda: pool.busy == 1, what="alice's move being worked out")
        mine = await challenge_the_bot(fake, w.bob, w.channel, "druid")
        answer = await fake.reply(await fake.slash(w.bob, mine.id, "move", {"move": "c3"}), timeout=10)
        fake.advance(16 * 60)  # the interaction's token runs out while bob's reply waits
        gate.release()
        await fake.wait_for(lambda: len(gate.held) == 2, what="bob's move being worked out")
        gate.release()
        reply = await fake.wait_for(lambda: reply_of(fake, mine), 10, "bob's reply")
        dms = fake.dms(w.bob)
    assert answer.deleted  # answered before the wait, by the turn in the thread
    assert reply.interaction_id is None and reply.pinged == [w.bob]
    assert not any(LATE_NOTE in m.text() for m in dms)
