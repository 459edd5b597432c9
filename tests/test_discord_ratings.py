"""/leaderboard and /profile through the fake Discord: a leaderboard pages with its buttons (the asker's message
turns, anyone else gets the page privately, the buttons work after a restart and disable at the ends); a server's
board holds the players seen in it; a variant's board and its autocomplete; /profile's embeds and chart after
rated games; the head-to-head record; and the one clear line for a member without games, a bot, a bad variant or
a page past the end."""

from __future__ import annotations

import contextlib
import io
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from PIL import Image

import render.chart
from bot.actions import Actions
from bot.discord.rating_embeds import CHART_FILE, head_to_head_embed, profile_embeds
from bot.discord.ratings import SERVER, Board, PageButton
from bot.ratings import STANDARD
from data.rows import RatingRow
from rules import registry
from tests.fakediscord.limits import check_message
from tests.fakediscord.pbm import FakeClock, pbm_running

if TYPE_CHECKING:
    from bot.discord import PbmBot
    from tests.fakediscord.fixtures import World
    from tests.fakediscord.records import Interaction, Message
    from tests.fakediscord.server import FakeDiscord

pytest_plugins = ["tests.fakediscord.fixtures"]

HOUR = 3600.0


async def rated_players(actions: Actions, count: int, guild: int | None) -> list[str]:
    """``count`` players rated in Druid, p00 the best, each 30 points below the one before (seen in ``guild``)."""
    players = [f"p{k:02d}" for k in range(count)]
    for player in players:
        await actions.store.ensure_player(player)
    await actions.store.replace_ratings(
        [RatingRow(p, "druid", 40.0 - k, 2.0, 34.0 - k, 5, 3, 1, 1) for k, p in enumerate(players)], [], []
    )
    if guild is not None:
        await actions.store.add_guild_players(guild, players)
    return players


def rows_shown(message: Message) -> list[str]:
    """The players of a leaderboard message, in order."""
    lines = (message.embeds[0].get("description") or "").splitlines()
    return [line.split(" · ")[0].split("** ", 1)[1] for line in lines]


def buttons(message: Message) -> list[tuple[str, str, bool]]:
    """(label, custom id, disabled) of every button on a message."""
    return [(c["label"], c["custom_id"], bool(c.get("disabled"))) for c in message.all_components() if c["type"] == 2]


async def turn(fake: FakeDiscord, user: int, message: Message, custom_id: str) -> None:
    """Click a page button of ``message`` and wait until the message shows the new page."""
    edits = len(message.edits)
    await fake.click(user, message, custom_id)
    await fake.wait_for(lambda: len(message.edits) > edits, what=f"{custom_id} shown")


async def answer_to(fake: FakeDiscord, interaction: Interaction, timeout: float = 20) -> Message:
    """What a command finally showed: its public reply, or the private line that replaced the placeholder."""

    def shown() -> Message | None:
        return next((m for m in interaction.messages if not m.loading and not m.deleted), None)

    return await fake.wait_for(shown, timeout, f"answer to /{interaction.data.get('name')}")


async def command(fake: FakeDiscord, user: int, channel: int, name: str, **options: Any) -> Message:
    return await answer_to(fake, await fake.slash(user, channel, name, options))


async def leaderboard(fake: FakeDiscord, user: int, channel: int, **options: Any) -> Message:
    return await command(fake, user, channel, "leaderboard", **{"game": "druid", **options})


async def test_a_leaderboard_pages_with_its_buttons_also_after_a_restart(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    db = tmp_path / "pbm.sqlite3"
    async with pbm_running(fake, db) as bot:
        players = await rated_players(bot.actions, 25, w.guild)
        board = await leaderboard(fake, w.alice, w.channel)
        first = (rows_shown(board), buttons(board), board.embeds[0]["footer"]["text"])
        await turn(fake, w.alice, board, "pbm:lb:druid:s:2:")
        second = (rows_shown(board), buttons(board), board.embeds[0]["footer"]["text"])
        # someone else's click: the page privately, with buttons of their own; the asker's message stays
        theirs = await fake.reply(await fake.click(w.bob, board, "pbm:lb:druid:s:3:"))
        privately = (theirs.ephemeral, rows_shown(theirs), rows_shown(board))
        await turn(fake, w.bob, theirs, "pbm:lb:druid:s:2:")
    async with pbm_running(fake, db):  # a restart: the buttons are decoded from their ids
        await turn(fake, w.alice, board, "pbm:lb:druid:s:3:")
        last = (buttons(board), board.embeds[0]["footer"]["text"])
    assert not board.ephemeral and board.embeds[0]["title"] == "Druid · Test Guild"
    assert first == (
        players[:10],
        [("Previous", "pbm:lb:druid:s:0:", True), ("Next", "pbm:lb:druid:s:2:", False)],
        "Page 1 of 3 · 25 players",
    )
    assert (board.embeds[0]["description"] or "").splitlines()[0] == "**21.** p20 · **1420** · 5 games: 3 W · 1 L · 1 D"
    assert second == (
        players[10:20],
        [("Previous", "pbm:lb:druid:s:1:", False), ("Next", "pbm:lb:druid:s:3:", False)],
        "Page 2 of 3 · 25 players",
    )
    assert privately == (True, players[20:], players[10:20])
    assert rows_shown(theirs) == players[10:20]  # bob turned his own copy back to page 2
    assert last == (
        [("Previous", "pbm:lb:druid:s:2:", False), ("Next", "pbm:lb:druid:s:4:", True)],
        "Page 3 of 3 · 25 players",
    )


async def test_a_servers_leaderboard_shows_the_players_seen_there(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    other = await fake.add_guild("Other Guild")
    elsewhere = await fake.add_channel(other, "games")
    dave = await fake.add_member(other, "dave")
    fake.join(other, w.carol)  # carol is in both servers, and has only been seen in the other one
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        for name, uid in (("alice", w.alice), ("bob", w.bob), ("carol", w.carol), ("dave", dave)):
            await bot.actions.store.ensure_player(name, uid)
        ranked = ["dave", "carol", "bob"]
        rows = [RatingRow(p, "druid", 30.0 - k, 2.0, 24.0 - k, 4, 2, 2, 0) for k, p in enumerate(ranked)]
        await bot.actions.store.replace_ratings(rows, [], [])
        # bob named in a command here; carol and dave use one in the other server
        await command(fake, w.alice, w.channel, "games", player=w.bob)
        for user in (w.carol, dave):
            await leaderboard(fake, user, elsewhere)
        here = await leaderboard(fake, w.alice, w.channel)
        there = await leaderboard(fake, dave, elsewhere)
        everyone = await leaderboard(fake, w.alice, w.channel, everyone=True)
        nobody = await leaderboard(fake, w.alice, w.channel, game="drogo", everyone=True)
        empty_here = await leaderboard(fake, w.alice, w.channel, game="dragons")
    assert rows_shown(here) == ["bob"] and here.embeds[0]["footer"]["text"] == "Page 1 of 1 · 1 player"
    assert here.custom_ids() == []  # one page: no buttons
    assert rows_shown(there) == ["dave", "carol"] and there.embeds[0]["title"] == "Druid · Other Guild"
    assert rows_shown(everyone) == ["dave", "carol", "bob"] and everyone.embeds[0]["title"] == "Druid · all players"
    assert nobody.ephemeral and nobody.content == "nobody has played a rated Drogo game yet"
    assert empty_here.ephemeral and empty_here.content == (
        "nobody in this server has played a rated Dragons game yet; `everyone:True` shows every player's"
    )


async def test_the_players_of_a_game_started_in_a_server_are_seen_there(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        values = {"game": "druid", "opponent": fake.application_id, "level": 1, "options": "-size=5"}
        await fake.reply(await fake.slash(w.alice, w.channel, "challenge", values))
        thread = await fake.wait_for(lambda: next(iter(fake.threads.values()), None), what="game thread")
        await fake.wait_for(lambda: fake.channel_log(thread.id), what="opening board")  # posted after the record
        seen = await bot.actions.store.guild_players(w.guild)
    assert seen == ["ai:1", "alice"]  # the computer player too: its rating is on the server's board


async def finish(actions: Actions, clock: FakeClock, game: str, loser: str, winner: str, options: str = "") -> None:
    """A rated game ``winner`` wins: moves an hour apart until both have moved and it is ``loser``'s turn, who
    resigns."""
    started = await actions.challenge(game, [loser, winner], options.split(), start=True)
    assert started.ok and started.game_id is not None, started.message
    while True:
        shown = await actions.show(started.game_id)
        assert shown.state is not None and shown.to_move is not None
        if shown.state.ply >= 2 and shown.to_move == loser:
            break
        clock.now += HOUR
        moved = await actions.move(started.game_id, shown.to_move, (await actions.moves(started.game_id, "")).items[0])
        assert moved.ok, moved.message
    resigned = await actions.resign(started.game_id, loser)
    assert resigned.ok and resigned.state is not None and resigned.state.is_over, resigned.message


@contextlib.asynccontextmanager
async def played(fake: FakeDiscord, w: World, tmp_path: Path, clock: FakeClock) -> AsyncIterator[PbmBot]:
    """A running bot whose alice beat bob twice at Druid (-size=5, once -hex) and once at Backgammon."""
    async with pbm_running(fake, tmp_path / "pbm.sqlite3", clock=clock) as bot:
        for name, uid in (("alice", w.alice), ("bob", w.bob), ("carol", w.carol)):
            await bot.actions.store.ensure_player(name, uid)
        await finish(bot.actions, clock, "druid", "bob", "alice", "-size=5")
        await finish(bot.actions, clock, "druid", "bob", "alice", "-size=5 -hex")
        await finish(bot.actions, clock, "backgammon", "bob", "alice")
        yield bot


def fields(embed: dict[str, Any]) -> dict[str, str]:
    return {f["name"]: f["value"] for f in embed.get("fields", [])}


async def test_profile_shows_each_game_and_attaches_the_chart(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    clock = FakeClock(1_800_000_000.0)
    async with played(fake, w, tmp_path, clock) as bot:
        expected = (await bot.actions.profile("alice")).data["games"]
        mine = await command(fake, w.alice, w.channel, "profile")
        theirs = await command(fake, w.carol, w.channel, "profile", member=w.bob)
    head, backgammon, druid = mine.embeds
    assert not mine.ephemeral and len(mine.embeds) == 3
    assert head["title"] == "alice · ratings" and head["image"]["url"] == "attachment://rating-chart.png"
    assert head["description"].startswith("Rated in Backgammon, Druid.")
    assert [a.filename for a in mine.attachments] == ["rating-chart.png"]
    picture = Image.open(io.BytesIO(mine.attachments[0].data))
    assert (picture.format, picture.size) == ("PNG", (render.chart.WIDTH, render.chart.HEIGHT))
    bg, dr = (next(s for s in expected if s["game"] == g) for g in ("backgammon", "druid"))
    assert backgammon["title"] == "Backgammon" and fields(backgammon) == {
        "Rating": f"**{bg['rating']}?**\nrank 1 of 2",
        "Games": "1\n1 W · 0 L · 0 D",
        "Streak": "1 win",
        "Time per move": "1h",
        "Points": f"{bg['points_won']} won\n0 lost",
        "Variants": "`standard` 1 game: 1 W · 0 L · 0 D",
    }
    assert bg["points_won"] >= 1
    assert druid["title"] == "Druid" and fields(druid) == {
        "Rating": f"**{dr['rating']}?**\nrank 1 of 2",
        "Games": "2\n2 W · 0 L · 0 D",
        "Streak": "2 wins",
        "Time per move": "1h",
        "Variants": "`-hex` 1 game: 1 W · 0 L · 0 D\n`-size=5` 1 game: 1 W · 0 L · 0 D",
    }
    assert druid["color"] == int.from_bytes(bytes(render.chart.STYLES["Druid"].colour), "big")
    assert [e["title"] for e in theirs.embeds] == ["bob · ratings", "Backgammon", "Druid"]
    assert fields(theirs.embeds[2])["Streak"] == "2 losses" and fields(theirs.embeds[2])["Rating"].endswith("2 of 2")


async def test_a_chart_that_cannot_be_drawn_leaves_the_profile_without_it(
    discord_world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: object, **__: object) -> bytes:
        raise RuntimeError("no fonts")

    monkeypatch.setattr("bot.discord.ratings.rating_chart", broken)
    w = discord_world
    async with played(w.fake, w, tmp_path, FakeClock(1_800_000_000.0)):
        shown = await command(w.fake, w.alice, w.channel, "profile")
    assert [e["title"] for e in shown.embeds] == ["alice · ratings", "Backgammon", "Druid"]
    assert "image" not in shown.embeds[0] and shown.attachments == []


async def test_profile_with_other_is_the_head_to_head_record(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    clock = FakeClock(1_800_000_000.0)
    async with played(fake, w, tmp_path, clock):
        record = await command(fake, w.carol, w.channel, "profile", member=w.alice, other=w.bob)
        mine = await command(fake, w.bob, w.channel, "profile", other=w.alice)
        never = await command(fake, w.alice, w.channel, "profile", other=w.carol)
        same = await command(fake, w.alice, w.channel, "profile", other=w.alice)
    (embed,) = record.embeds
    assert not record.ephemeral and record.attachments == []
    assert embed["title"] == "alice vs bob"
    assert embed["description"] == "alice **3** · bob **0** · 0 draws (3 games)"
    assert fields(embed) == {
        "Backgammon": "alice **1** · bob **0** · 0 draws (1 game)",
        "Druid": "alice **2** · bob **0** · 0 draws (2 games)",
    }
    assert mine.embeds[0]["description"] == "bob **0** · alice **3** · 0 draws (3 games)"
    assert never.ephemeral and never.content == "alice and carol have not finished a game together yet"
    assert same.ephemeral and same.content == "a head-to-head needs two different players"


async def test_one_clear_line_when_there_is_nothing_to_show(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    other_bot = await fake.add_member(w.guild, "otherbot", bot=True)
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        await rated_players(bot.actions, 3, w.guild)
        answers = []
        for name, options in (
            ("profile", {"member": w.carol}),
            ("profile", {"member": other_bot}),
            ("profile", {"member": fake.application_id}),
            ("leaderboard", {"game": "druid", "variant": "-single"}),
            ("leaderboard", {"game": "druid", "page": 2}),
        ):
            answers.append(await command(fake, w.alice, w.channel, name, **options))
        public = [m for m in fake.channel_log(w.channel) if not m.deleted]
    assert [(a.ephemeral, a.content) for a in answers] == [
        (True, "carol has played no rated game yet"),
        (True, "other bots do not play, so they have no profile"),
        (True, "as a computer opponent I play as ai:1, ai:2 and ai:3; /leaderboard shows their ratings"),
        (True, "unknown option -single (this game knows: -size=n, -hex, -walk, -nostack, -nogaps, -y)"),
        (True, "the Druid leaderboard has 1 page: there is no page 2"),
    ]
    assert [a.embeds for a in answers] == [[]] * 5 and public == []


async def test_a_variants_board_and_its_suggestions(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    clock = FakeClock(1_800_000_000.0)
    async with played(fake, w, tmp_path, clock):
        suggested = await fake.autocomplete(
            w.alice, w.channel, "leaderboard", {"game": "druid", "variant": "hex"}, focused="variant"
        )
        every = await fake.autocomplete(
            w.alice, w.channel, "leaderboard", {"game": "druid", "variant": ""}, focused="variant"
        )
        hexes = await leaderboard(fake, w.alice, w.channel, variant="-size=5 -hex", everyone=True)
        standard = await leaderboard(fake, w.alice, w.channel, variant=STANDARD, everyone=True)
    assert [c["value"] for c in suggested] == ["-hex"]
    assert [c["value"] for c in every] == [STANDARD, "-hex", "-size=5"]
    assert hexes.embeds[0]["title"] == "Druid (-hex) · all players"
    assert rows_shown(hexes) == ["alice", "bob"]
    assert standard.ephemeral and standard.content == "nobody has played a rated Druid (standard) game yet"


async def test_the_chart_is_prepared_on_a_worker_thread_as_the_bot_starts(
    discord_world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[threading.Thread] = []
    monkeypatch.setattr(render.chart, "prepare", lambda: threads.append(threading.current_thread()))
    async with pbm_running(discord_world.fake, tmp_path / "pbm.sqlite3"):
        await discord_world.fake.wait_for(lambda: threads, what="prepare() called")
    assert len(threads) == 1 and threads[0] is not threading.main_thread()


@pytest.mark.parametrize("game", registry.names())
def test_every_variant_fits_a_button_and_reads_back(game: str) -> None:
    """The longest variant of each game (every option given, each number at its largest) on the deepest page
    still fits Discord's 100 characters, matches the button's template and decodes to the same board."""
    options = registry.get(game).options
    longest = " ".join(f"-{o.name}" if o.kind is bool else f"-{o.name}={o.maximum}" for o in options)
    for variant in (None, STANDARD, "-" + options[0].name if options[0].kind is bool else None, longest):
        board = Board(game, SERVER, variant)
        custom_id = board.custom_id(100000)
        match = PageButton.__discord_ui_compiled_template__.fullmatch(custom_id)
        assert len(custom_id) <= 100 and match is not None, custom_id
        assert Board.decode(match["game"], match["scope"], match["variant"]) == board


def test_a_profile_of_every_game_with_many_variants_keeps_discords_limits() -> None:
    variants = [
        {"variant": f"-num_tiles={n} -tantrix -start_joint -end_most -tie_largest_wins", "games": 3, "wins": 1,
         "losses": 1, "draws": 1}
        for n in range(60)
    ]  # fmt: skip
    sections = [
        {"game": game, "rating": 1999, "provisional": False, "rank": 123456, "players": 999999, "games": 99999,
         "wins": 33333, "losses": 33333, "draws": 33333, "streak": -12, "seconds_per_move": 9 * 86400.0,
         "variants": variants, "points_won": 123456, "points_lost": 654321}
        for game in registry.names()
    ]  # fmt: skip
    name = "a" * 32 + "-" + "9" * 19
    embeds = profile_embeds({"player": name, "games": sections}, chart=True)
    check_message({"embeds": [e.to_dict() for e in embeds]}, [CHART_FILE])  # raises ApiError when refused
    assert len(embeds) == 5
    assert fields(embeds[3].to_dict())["Variants"].endswith("more variants")
    assert fields(embeds[3].to_dict())["Streak"] == "12 losses"
    assert fields(embeds[3].to_dict())["Time per move"] == "9d"
    record = {"player": name, "other": name[::-1], "games": 10**6, "wins": 1, "losses": 2, "draws": 3}
    record["by_game"] = [{"game": g, "games": 9, "wins": 1, "losses": 2, "draws": 6} for g in registry.names()]
    check_message({"embeds": [head_to_head_embed(record).to_dict()]}, [])
