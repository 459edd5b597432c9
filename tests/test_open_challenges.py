"""Open challenges on SQLite and PostgreSQL: seats anyone but the challenger may take, filled by strangers, one seat a
player, three- and four-player games starting when the last seat is taken, seats taken at the same moment, withdrawal,
expiry, the rating range stored and shown, the listing by server and game; and the console's ``open``, ``join``,
``withdraw`` and ``challenges``."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.actions import Actions
from bot.console import Console, render_text
from data.schema import MIGRATIONS
from data.store import Store
from tests.databases import Databases

TTL = 3600.0


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def env(databases: Databases) -> AsyncIterator[tuple[Actions, Clock]]:
    store = await Store.open(await databases.target())
    clock = Clock()
    yield Actions(store, seed_source=lambda: 777, challenge_ttl=TTL, clock=clock), clock
    await store.close()


async def test_strangers_fill_an_open_challenge_and_the_challenger_never_takes_a_seat(env) -> None:
    actions, _ = env
    made = await actions.challenge("druid", ["alice"], ["-size=5"], open_seats=1, guild_id=7, channel_id=8)
    assert made.ok and made.status == "open" and made.notify == []
    assert made.message == (
        "alice (1000?) offers a game of Druid (-size=5); 7 days per move: challenge 1, 1 seat open to anyone"
    )
    own = await actions.accept(1, "alice")
    assert not own.ok and own.message == "challenge 1 is yours: others take its open seats"
    started = await actions.accept(1, "bob")
    assert started.ok and started.game_id == 1 and started.challenge_id == 1 and started.status == "active"
    assert started.players == ["alice", "bob"]
    assert started.message.startswith("Druid game 1 started: alice, bob (-size=5)")
    late = await actions.accept(1, "carol")
    assert not late.ok and late.message == "challenge 1 was accepted: it is game 1"
    row = await actions.store.load_challenge(1)
    assert (row.status, row.game_id, row.joined, row.accepted) == ("accepted", 1, ["bob"], ["alice"])
    assert (await actions.store.load_game(1)).guild_id == 7


async def test_a_four_player_drogo_starts_when_its_last_seat_is_taken(env) -> None:
    actions, _ = env
    made = await actions.challenge("drogo", ["alice"], ["-size=5", "-days=3"], open_seats=3)
    assert made.message.endswith("3 days per move: challenge 1, 3 seats open to anyone")
    first = await actions.accept(1, "bob")
    assert (
        first.ok and first.game_id is None and first.message == "bob took a seat in challenge 1; 2 seats open to anyone"
    )
    twice = await actions.accept(1, "bob")
    assert not twice.ok and twice.message == "you already have a seat in challenge 1"
    second = await actions.accept(1, "carol")
    assert second.message == "carol took a seat in challenge 1; 1 seat open to anyone"
    assert second.players == ["alice", "bob", "carol"]
    started = await actions.accept(1, "dave")
    assert started.ok and started.game_id == 1
    assert started.players == ["alice", "bob", "carol", "dave"]
    game = await actions.store.load_game(1)
    assert game.players == ["alice", "bob", "carol", "dave"] and game.to_move == "alice"


async def test_a_three_player_hex_druid_and_too_many_seats(env) -> None:
    actions, _ = env
    assert (await actions.challenge("druid", ["alice"], ["-hex"], open_seats=2)).ok
    await actions.accept(1, "bob")
    started = await actions.accept(1, "carol")
    assert started.game_id == 1 and started.players == ["alice", "bob", "carol"]
    too_many = await actions.challenge("druid", ["alice"], ["-hex"], open_seats=3)
    assert not too_many.ok and too_many.message == "Druid is played by 2 to 3 players, not 4"
    square = await actions.challenge("druid", ["alice"], [], open_seats=2)
    assert not square.ok and "hex" in square.message
    assert [r.id for r in await actions.store.open_challenges()] == []


async def test_named_players_accept_and_strangers_fill_the_rest(env) -> None:
    actions, _ = env
    made = await actions.challenge("drogo", ["alice", "bob"], [], open_seats=1)
    assert made.notify == ["bob"]
    assert made.message.startswith("alice (1000?) challenges bob (1000?) to Drogo")
    assert made.message.endswith("1 seat open to anyone")
    taken = await actions.accept(1, "carol")
    assert taken.message == "carol took a seat in challenge 1; waiting for bob"
    full = await actions.accept(1, "dave")
    assert not full.ok and full.message == "challenge 1 has no open seat left"
    kept = await actions.decline(1, "carol")
    assert not kept.ok and kept.message == "you took a seat in challenge 1; it is kept until the game starts"
    started = await actions.accept(1, "bob")
    assert started.game_id == 1 and started.players == ["alice", "bob", "carol"]


async def test_seats_taken_at_the_same_moment_are_all_kept(env) -> None:
    actions, _ = env
    await actions.challenge("drogo", ["alice"], [], open_seats=3)
    answers = await asyncio.gather(*(actions.accept(1, p) for p in ("bob", "carol", "dave", "erin")))
    seated = [a for a in answers if a.ok]
    assert len(seated) == 3 and [a.game_id for a in seated].count(1) == 1
    assert [a.message for a in answers if not a.ok] in (
        ["challenge 1 has no open seat left"],
        ["challenge 1 was accepted: it is game 1"],
        ["challenge 1 was accepted: its game is starting"],
    )
    game = await actions.store.load_game(1)
    assert game.players[0] == "alice" and len(set(game.players)) == 4
    assert (await actions.store.load_challenge(1)).joined == game.players[1:]


async def test_bad_answers_change_nothing(env) -> None:
    actions, _ = env
    await actions.challenge("druid", ["alice", "bob"])
    await actions.challenge("druid", ["alice"], [], open_seats=1)
    assert (await actions.accept(99, "bob")).message == "there is no challenge 99"
    assert (await actions.accept(1, "carol")).message == "challenge 1 is not addressed to you"
    withdrawn = await actions.cancel(2, "bob")
    assert not withdrawn.ok and withdrawn.message == "only alice can cancel challenge 2"
    assert (await actions.cancel(2, "alice")).message == "alice withdrew challenge 2"
    assert (await actions.accept(2, "bob")).message == "challenge 2 is cancelled"
    row = await actions.store.load_challenge(2)
    assert (row.status, row.joined) == ("cancelled", [])


async def test_an_open_challenge_expires_like_any_other(env) -> None:
    actions, clock = env
    await actions.challenge("druid", ["alice"], [], open_seats=1)
    clock.now += TTL
    assert (await actions.accept(1, "bob")).message == "challenge 1 has expired"
    assert (await actions.challenges_open_to_all()).message == "no open challenges"
    expired = await actions.expire_challenges()
    assert [r.message for r in expired] == ["challenge 1 expired unanswered"]
    assert (await actions.store.load_challenge(1)).status == "expired"


async def test_the_rating_range_is_stored_and_shown(env) -> None:
    actions, _ = env
    made = await actions.challenge("drogo", ["alice"], ["-rating_min=900", "-size=5", "-rating_max=1800"], open_seats=2)
    assert made.message.endswith("challenge 1, 2 seats open to players rated 900 to 1800")
    row = await actions.store.load_challenge(1)
    assert (row.rating_min, row.rating_max, row.options) == (900, 1800, ["-size=5"])
    taken = await actions.accept(1, "bob")
    assert taken.message == "bob took a seat in challenge 1; 1 seat open to players rated 900 to 1800"
    low = await actions.challenge("druid", ["alice"], ["-rating_min=1500"], open_seats=1)
    assert low.message.endswith("1 seat open to players rated 1500 or more")
    high = await actions.challenge("druid", ["alice"], ["-rating_max=1300"], open_seats=1)
    assert high.message.endswith("1 seat open to players rated 1300 or less")
    refusals = [
        await actions.challenge("druid", ["alice", "bob"], ["-rating_min=1400"]),
        await actions.challenge("druid", ["alice"], ["-rating_min=1900", "-rating_max=1400"], open_seats=1),
        await actions.challenge("druid", ["alice"], ["-rating_min=5000"], open_seats=1),
        await actions.challenge("druid", ["alice"], ["-rating_min=1", "-rating_min=2"], open_seats=1),
    ]
    assert [r.message for r in refusals] == [
        "a rating range is for open seats: leave a seat open, or leave out the range",
        "-rating_min=1900 is above -rating_max=1400: nobody could take a seat",
        "option -rating_min=5000 is out of range (0..4000)",
        "option -rating_min is given twice",
    ]
    assert len(await actions.store.open_challenges()) == 3


async def test_the_rating_range_keeps_out_players_rated_outside_it(env) -> None:
    """Everyone starts at 1000; a win lifts dave above it. The range is judged by the number players see."""
    actions, _ = env
    await actions.challenge("druid", ["carol", "dave"], ["-size=5"], start=True)
    await actions.move(1, "carol", "c3")
    await actions.move(1, "dave", "d4")  # a round played: a resignation now loses, it no longer declines
    assert (await actions.resign(1, "carol")).status == "finished"
    dave = await actions.display_rating("dave", "druid")
    assert dave > 1000
    await actions.challenge("druid", ["alice"], ["-size=5", "-rating_min=1001"], open_seats=1)
    await actions.challenge("druid", ["alice"], ["-size=5", f"-rating_max={dave - 1}"], open_seats=1)
    newcomer = await actions.accept(1, "bob")
    assert not newcomer.ok
    assert newcomer.message == "challenge 1's seats are for players rated 1001 or more; you are 1000"
    strong = await actions.accept(2, "dave")
    assert not strong.ok
    assert strong.message == f"challenge 2's seats are for players rated {dave - 1} or less; you are {dave}"
    for challenge_id in (1, 2):
        row = await actions.store.load_challenge(challenge_id)
        assert (row.status, row.joined) == ("open", [])
    assert (await actions.accept(1, "dave")).status == "active"
    assert (await actions.accept(2, "bob")).status == "active"


async def test_the_listing_shows_one_servers_open_challenges(env) -> None:
    actions, clock = env
    await actions.challenge("drogo", ["alice"], ["-size=5"], open_seats=2, guild_id=1)
    await actions.challenge("druid", ["bob", "carol"], guild_id=1)  # names everyone: not open
    await actions.challenge("druid", ["dave"], ["-rating_min=1200"], open_seats=1, guild_id=2)
    await actions.challenge("druid", ["erin"], [], open_seats=1, guild_id=1)
    await actions.accept(1, "frank")
    clock.now += 600
    here = await actions.challenges_open_to_all(guild_id=1)
    assert here.message == "2 open challenges"
    assert here.items == [
        "challenge 1: Drogo (-size=5), alice, frank: 1 seat open to anyone, 50m left",
        "challenge 4: Druid, erin: 1 seat open to anyone, 50m left",
    ]
    assert [row.id for row in here.challenges] == [1, 4]
    druid = await actions.challenges_open_to_all("druid")
    assert druid.message == "2 open Druid challenges"
    assert [line.split(":")[0] for line in druid.items] == ["challenge 3", "challenge 4"]
    assert "1 seat open to players rated 1200 or more" in druid.items[0]
    assert (await actions.challenges_open_to_all("chess")).ok is False
    await actions.cancel(4, "erin")
    assert [row.id for row in (await actions.challenges_open_to_all(guild_id=1)).challenges] == [1]


async def test_a_database_from_before_open_challenges_is_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as raw:
        raw.executescript("".join(MIGRATIONS[:3]))
        raw.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        raw.execute("INSERT INTO schema_version (version) VALUES (3)")
        raw.execute(
            "INSERT INTO challenges (type, options, players, accepted, status, created_at)"
            " VALUES ('druid', '[]', '[\"alice\",\"bob\"]', '[\"alice\"]', 'open', 1.0)"
        )
    store = await Store.open(path)
    try:
        row = await store.load_challenge(1)
        assert (row.open_seats, row.joined, row.rating_min, row.rating_max) == (0, [], None, None)
        accepted = await Actions(store, seed_source=lambda: 1, challenge_ttl=None).accept(1, "bob")
        assert accepted.game_id == 1
    finally:
        await store.close()


# ---- the console ---------------------------------------------------------------------------------------------


@pytest.fixture
async def console(databases: Databases, tmp_path: Path) -> AsyncIterator[Console]:
    store = await Store.open(await databases.target())
    # a clock that stands still: the listing reads the challenge's time left the moment it was made
    yield Console(Actions(store, seed_source=lambda: 12345, clock=Clock()), tmp_path / "boards", images=False)
    await store.close()


async def said(console: Console, line: str) -> str:
    """What the console prints for ``line``."""
    return render_text(await console.run(line))


async def test_the_console_opens_seats_and_strangers_join(console: Console) -> None:
    made = await said(console, "drogo challenge -size=5 -rating_max=1400 alice bob open open")
    assert made == (
        "alice (1000?) challenges bob (1000?) to Drogo (-size=5); 7 days per move: challenge 1, 2 seats open to players"
        " rated 1400 or less"
    )
    assert await said(console, "challenges") == (
        "1 open challenge\n\nchallenge 1: Drogo (-size=5), alice, bob: 2 seats open to players rated 1400 or less,"
        " 1d left"
    )
    assert await said(console, "drogo join 1 alice") == "error: challenge 1 is yours: others take its open seats"
    assert await said(console, "drogo join 1 bob") == "error: you have already accepted challenge 1"
    assert await said(console, "drogo join 1 carol pw") == (
        "carol took a seat in challenge 1; 1 seat open to players rated 1400 or less"
    )
    assert await said(console, "drogo join 1 carol") == "error: you already have a seat in challenge 1"
    started = await console.run("drogo join 1 dave")
    assert started.ok and started.result.game_id == 1
    assert started.result.message.startswith("Drogo game 1 started: alice, bob, carol, dave (-size=5)")
    assert await said(console, "drogo challenges") == "no open Drogo challenges"
    assert await said(console, "drogo join 1 erin") == "error: challenge 1 was accepted: it is game 1"


async def test_the_console_refuses_bad_open_challenges_in_one_line(console: Console) -> None:
    await said(console, "druid challenge alice open")
    refusals = {
        "druid challenge open alice": "usage: druid challenge [-options] user1 user2 [...]   (open: a seat for anyone)",
        "druid challenge alice": "usage: druid challenge [-options] user1 user2 [...]   (open: a seat for anyone)",
        "backgammon challenge alice open open": "Backgammon is played by exactly 2 players, not 3",
        "druid challenge -rating_max=1200 alice bob": (
            "a rating range is for open seats: leave a seat open, or leave out the range"
        ),
        "drogo join 1 bob": "challenge 1 is for Druid, not drogo: use 'druid join ...'",
        "druid join x bob": "'x' is not a challenge number: write it with the digits 0-9",
        "druid join 9 bob": "there is no challenge 9",
        "druid join 1": "usage: druid join <challenge> <user> [password]",
        "druid withdraw 1 bob": "only alice can cancel challenge 1",
        "druid challenges all": "usage: druid challenges",
        "challenges druid": "usage: challenges   (or <game> challenges for one game's)",
    }
    for line, message in refusals.items():
        outcome = await console.run(line)
        assert not outcome.ok and outcome.result.message == message, line
    assert await said(console, "druid withdraw 1 alice") == "alice withdrew challenge 1"
    assert await said(console, "challenges") == "no open challenges"


async def test_the_console_joins_as_the_given_identity(console: Console) -> None:
    console.identity = "carol"
    await said(console, "druid challenge alice open")
    assert (await said(console, "druid join 1")).startswith("Druid game 1 started: alice, carol")
