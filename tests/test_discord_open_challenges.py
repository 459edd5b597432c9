"""Open challenges through the fake Discord: ``/challenge`` with no opponent posts a challenge anyone but its
challenger may accept, the message follows the seats as they fill, the game's thread opens when they are full;
named players and open seats together; the rating range shown; ``/challenges`` lists a server's open challenges."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from bot.actions import Result
from bot.discord.cog import REPLY_LIMIT, open_challenge_listing
from data.store import ChallengeRow
from tests.fakediscord.pbm import FakeClock, pbm_running

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World
    from tests.fakediscord.records import Message
    from tests.fakediscord.server import FakeDiscord

pytest_plugins = ["tests.fakediscord.fixtures"]


async def open_challenge(fake: FakeDiscord, channel: int, challenger: int, values: dict[str, object]) -> Message:
    """``/challenge`` and the public message it posts."""
    before = len(fake.channel_log(channel))
    answer = await fake.reply(await fake.slash(challenger, channel, "challenge", values))
    assert answer.ephemeral and answer.content.startswith("Challenge"), answer.content
    await fake.wait_for(lambda: len(fake.channel_log(channel)) > before, what="challenge message")
    return fake.channel_log(channel)[before]


async def test_a_stranger_takes_the_seat_and_the_challenger_cannot(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        posted = await open_challenge(fake, w.channel, w.alice, {"game": "druid", "options": "-size=5"})
        buttons = posted.custom_ids()
        own = await fake.reply(await fake.click(w.alice, posted, "pbm:c:1:accept"))
        taken = await fake.reply(await fake.click(w.carol, posted, "pbm:c:1:accept"))
        thread = await fake.wait_for(lambda: next(iter(fake.threads.values()), None), what="game thread")
        opening = await fake.wait_for(lambda: fake.channel_log(thread.id), what="opening board")
        row = await bot.actions.store.load_challenge(1)
    assert posted.content.startswith("alice (1000?) offers a game of Druid (-size=5); 7 days per move: challenge 1,")
    assert "1 seat open to anyone" in posted.content
    assert "Anyone else may take a seat with Accept" in posted.content
    assert posted.pinged == [] and buttons == ["pbm:c:1:accept", "pbm:c:1:withdraw"]
    assert posted.custom_ids() == []  # the game started: no buttons left
    assert own.ephemeral and own.content == "challenge 1 is yours: others take its open seats"
    assert taken.ephemeral and taken.content.startswith("Druid game 1 started: alice, carol")
    assert posted.content.endswith("Game 1 started.")
    assert sorted(thread.members) == sorted([w.alice, w.carol])
    assert opening[0].pinged == [w.alice]
    assert (row.status, row.joined) == ("accepted", ["carol"])


async def test_four_seats_fill_one_by_one_and_nobody_takes_two(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    dave = await fake.add_member(w.guild, "dave")
    async with pbm_running(fake, tmp_path / "pbm.sqlite3"):
        values = {"game": "drogo", "open_seats": 3, "rating_min": 900, "rating_max": 1800, "options": "-size=5"}
        posted = await open_challenge(fake, w.channel, w.alice, values)
        offered = posted.content
        first = await fake.reply(await fake.click(w.bob, posted, "pbm:c:1:accept"))
        after_first = posted.content
        again = await fake.reply(await fake.click(w.bob, posted, "pbm:c:1:accept"))
        declined = await fake.reply(await fake.click(w.bob, posted, "pbm:c:1:withdraw"))
        await fake.reply(await fake.click(w.carol, posted, "pbm:c:1:accept"))
        threads_before_last = len(fake.threads)
        await fake.reply(await fake.click(dave, posted, "pbm:c:1:accept"))
        thread = await fake.wait_for(lambda: next(iter(fake.threads.values()), None), what="game thread")
        opening = await fake.wait_for(lambda: fake.channel_log(thread.id), what="opening board")
    assert "3 seats open to players rated 900 to 1800" in offered
    assert first.content == "bob took a seat in challenge 1; 2 seats open to players rated 900 to 1800"
    assert after_first.endswith("\nbob took a seat in challenge 1; 2 seats open to players rated 900 to 1800")
    assert again.content == "you already have a seat in challenge 1"
    assert declined.content == "only alice can cancel challenge 1"
    assert "carol took a seat in challenge 1; 1 seat open" in posted.content
    assert threads_before_last == 0
    assert sorted(thread.members) == sorted([w.alice, w.bob, w.carol, dave])
    assert "Drogo game 1 started: alice, bob, carol, dave (-size=5)" in opening[0].text()


async def test_a_named_opponent_and_an_open_seat(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3"):
        posted = await open_challenge(fake, w.channel, w.alice, {"game": "drogo", "opponent": w.bob, "open_seats": 1})
        buttons = posted.custom_ids()
        taken = await fake.reply(await fake.click(w.carol, posted, "pbm:c:1:accept"))
        kept = await fake.reply(await fake.click(w.carol, posted, "pbm:c:1:decline"))
        started = await fake.reply(await fake.click(w.bob, posted, "pbm:c:1:accept"))
        thread = await fake.wait_for(lambda: next(iter(fake.threads.values()), None), what="game thread")
    assert posted.pinged == [w.bob]
    assert f"<@{w.bob}>: accept or decline below; anyone else may take an open seat with Accept." in posted.content
    assert buttons == ["pbm:c:1:accept", "pbm:c:1:decline", "pbm:c:1:withdraw"]
    assert taken.content == "carol took a seat in challenge 1; waiting for bob"
    assert kept.content == "you took a seat in challenge 1; it is kept until the game starts"
    assert started.content.startswith("Drogo game 1 started: alice, bob, carol")
    assert sorted(thread.members) == sorted([w.alice, w.bob, w.carol])


async def test_the_challenger_withdraws_an_open_challenge(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        posted = await open_challenge(fake, w.channel, w.alice, {"game": "druid"})
        withdrawn = await fake.reply(await fake.click(w.alice, posted, "pbm:c:1:withdraw"))
        await fake.wait_for(lambda: posted.components == [], what="buttons removed")
        row = await bot.actions.store.load_challenge(1)
    assert withdrawn.content == "alice withdrew challenge 1"
    assert row.status == "cancelled" and fake.threads == {}


async def test_bad_open_challenges_are_refused_before_anything_is_posted(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    tries = [
        {"game": "druid", "opponent": w.bob, "rating_min": 1400},
        {"game": "druid", "open_seats": 1, "rating_min": 1800, "rating_max": 1200},
        {"game": "druid", "options": "-rating_max=1500", "rating_max": 1600},
        {"game": "backgammon", "open_seats": 2},
        {"game": "drogo", "opponent": w.bob, "opponent2": w.carol, "open_seats": 2},
    ]
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        answers = [(await fake.reply(await fake.slash(w.alice, w.channel, "challenge", t))).content for t in tries]
        challenges = await bot.actions.store.open_challenges()
    assert answers == [
        "a rating range is for open seats: leave a seat open, or leave out the range",
        "-rating_min=1800 is above -rating_max=1200: nobody could take a seat",
        "option -rating_max is given twice",
        "Backgammon is played by exactly 2 players, not 3",
        "Drogo is played by 2 to 4 players, not 5",
    ]
    assert fake.channel_log(w.channel) == [] and challenges == []


async def test_challenges_lists_this_servers_open_challenges(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    other = await fake.add_guild("Other Guild")
    elsewhere = await fake.add_channel(other, "games")
    fake.join(other, w.carol)
    # a clock that stands still: the listing reads the challenge's time left the moment it was made
    async with pbm_running(fake, tmp_path / "pbm.sqlite3", clock=FakeClock()):
        empty = await fake.reply(await fake.slash(w.bob, w.channel, "challenges"))
        drogo = await open_challenge(fake, w.channel, w.alice, {"game": "drogo", "open_seats": 2, "rating_min": 1500})
        await open_challenge(fake, w.channel, w.alice, {"game": "druid", "opponent": w.bob})
        await open_challenge(fake, elsewhere, w.carol, {"game": "druid"})
        refused = await fake.reply(await fake.click(w.bob, drogo, "pbm:c:1:accept"))
        here = await fake.reply(await fake.slash(w.bob, w.channel, "challenges"))
        druid_only = await fake.reply(await fake.slash(w.bob, w.channel, "challenges", {"game": "druid"}))
        there = await fake.reply(await fake.slash(w.carol, elsewhere, "challenges"))
    assert empty.ephemeral and empty.content == "no open challenges"
    assert refused.ephemeral
    assert refused.content == "challenge 1's seats are for players rated 1500 or more; you are 1000"
    url = f"https://discord.com/channels/{w.guild}/{w.channel}/{drogo.id}"
    assert here.ephemeral and here.content.splitlines() == [
        "1 open challenge",
        f"[challenge 1](<{url}>): Drogo, alice: 2 seats open to players rated 1500 or more, 1d left",
    ]
    assert druid_only.content == "no open Druid challenges"
    assert there.content.splitlines()[1].startswith("[challenge 3](")
    assert "Druid, carol: 1 seat open to anyone" in there.content


def test_a_long_listing_is_cut_to_one_message_saying_how_many_more() -> None:
    rows = [
        ChallengeRow(n, "drogo", [], ["alice"], ["alice"], "open", None, 1, 2, 3, 0.0, None, 3, [], None, None)
        for n in range(1, 51)
    ]
    items = [f"challenge {r.id}: Drogo, alice: 3 seats open to anyone, 23h 59m left" for r in rows]
    text = open_challenge_listing(Result(ok=True, message="50 open challenge(s)", items=items, challenges=rows))
    lines = text.splitlines()
    assert len(text) <= REPLY_LIMIT and lines[0] == "50 open challenge(s)"
    assert (
        lines[1]
        == "[challenge 1](<https://discord.com/channels/1/2/3>): Drogo, alice: 3 seats open to anyone, 23h 59m left"
    )
    assert lines[-1] == f"… and {51 - len(lines) + 1} more" and len(lines) > 10
