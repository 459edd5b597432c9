"""Moderation (issue 29): cancel a game, decide one (rated or not), forfeit a member from all their games, withdraw
a member's open challenges, and the audit log, from the console (``admin ...``, every game) and through the fake
Discord (``/admin``, this server's games only; refused to a member without Manage Server, even in a crafted
interaction). A game is ended through the guarded commit: two moderators racing end it once, and what they did
replays from the log (``pbm check``)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from bot.actions import Actions
from bot.cli import main
from bot.maintenance import check
from data.store import Store
from tests.databases import Databases
from tests.fakediscord.pbm import challenge, pbm_running, start_game

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]

T0 = "2026-12-01T09:00Z"


def pbm(
    target: Path | str, command: str, capsys: pytest.CaptureFixture[str], *, who: str = ""
) -> tuple[int, list[str]]:
    """``pbm do --now T0 [--as who] COMMAND``: the exit code and the lines printed (standard output and error)."""
    extra = ["--as", who] if who else []
    code = main(["do", "--no-images", "--db", str(target), "--now", T0, *extra, command])
    captured = capsys.readouterr()
    return code, (captured.out + captured.err).splitlines()


def first_move(target: Path | str, game: str, game_id: int, capsys: pytest.CaptureFixture[str]) -> str:
    main(["do", "--json", "--no-images", "--db", str(target), "--now", T0, f"{game} moves {game_id}"])
    return str(json.loads(capsys.readouterr().out)["items"][0])


def play(target: Path | str, game: str, game_id: int, players: list[str], moves: int, capsys) -> None:  # type: ignore[no-untyped-def]
    """``moves`` first legal moves, the players taking turns from the first."""
    for index in range(moves):
        move = first_move(target, game, game_id, capsys)
        code, out = pbm(target, f"{game} move {game_id} {players[index % len(players)]} {move}", capsys)
        assert code == 0, out


# ---- the console ---------------------------------------------------------------------------------------------


def console_cancel_and_decide(target: Path | str, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    seen: dict[str, object] = {}
    for number in (1, 2, 3):
        pbm(target, "druid challenge -size=5 alice bob", capsys)
        play(target, "druid", number, ["alice", "bob"], 2, capsys)
    seen["no reason"] = pbm(target, "admin cancel 1", capsys)
    seen["typo"] = pbm(target, "admin cancle 1 x", capsys)
    seen["cancel"] = pbm(target, "admin cancel 1 cheating   detected", capsys)
    seen["again"] = pbm(target, "admin cancel 1 again", capsys)
    seen["history"] = pbm(target, "history 1", capsys)
    seen["stranger"] = pbm(target, "admin decide 2 carol no", capsys)
    seen["unrated"] = pbm(target, "admin decide 2 bob unrated alice abandoned the game", capsys, who="carol")
    seen["rated"] = pbm(target, "admin decide 3 alice bob stopped answering", capsys, who="carol")
    seen["board"] = pbm(target, "druid show 2", capsys)
    seen["log"] = pbm(target, "admin log", capsys)
    seen["no game"] = pbm(target, "admin cancel 99 gone", capsys)
    return seen


async def test_the_console_cancels_and_decides_games_and_keeps_the_log(
    databases: Databases, capsys: pytest.CaptureFixture[str]
) -> None:
    target = await databases.target()
    seen = await asyncio.to_thread(console_cancel_and_decide, target, capsys)
    changes = await databases.execute(
        target, "SELECT game_id, player_id FROM rating_changes ORDER BY game_id, player_id"
    )
    async with await Store.open(target) as store:
        report = await check(Actions(store, think=None))
    assert seen["no reason"] == (1, ["error: usage: admin cancel <id> <reason ...>"])
    assert seen["typo"] == (1, ["error: usage: admin cancel|decide|forfeit|challenges|log ...; did you mean 'cancel'?"])
    code, cancelled = seen["cancel"]  # type: ignore[misc]
    assert code == 0 and cancelled[:3] == [
        "game 1 was cancelled by a moderator: cheating detected; it does not count for the ratings",
        "Druid: cancelled",
        "",
    ]
    assert seen["again"] == (1, ["error: game 1 is over already (cancelled by a moderator: cheating detected)"])
    assert seen["history"][1][-1] == "   2. moderator: cancel"  # type: ignore[index]
    assert seen["stranger"] == (1, ["error: carol is not playing in game 2"])
    code, unrated = seen["unrated"]  # type: ignore[misc]
    assert code == 0 and unrated[:3] == [
        "bob wins game 2: decided by a moderator: alice abandoned the game",
        "Druid: bob won",
        "an unrated game: the ratings do not change",
    ]
    code, rated = seen["rated"]  # type: ignore[misc]
    assert code == 0 and rated[:2] == [
        "alice wins game 3: decided by a moderator: bob stopped answering",
        "Druid: alice won",
    ]
    assert rated[2].startswith("ratings: alice ")
    assert "unrated: alice" in "\n".join(seen["board"][1])  # type: ignore[index]
    assert seen["log"] == (
        0,
        [
            "What moderators did: 3 entries, page 1 of 1",
            "",
            "2026-12-01 09:00 UTC: carol decided game 3 for alice: bob stopped answering",
            "2026-12-01 09:00 UTC: carol decided game 2 for bob (unrated): alice abandoned the game",
            "2026-12-01 09:00 UTC: operator cancelled game 1: cheating detected",
        ],
    )
    assert seen["no game"] == (1, ["error: there is no game 99"])
    assert [tuple(row) for row in changes] == [(3, "alice"), (3, "bob")]  # only the rated decision counted
    assert report.ok, report.lines()


def console_forfeit(target: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    seen: dict[str, object] = {}
    pbm(target, "druid challenge -size=5 alice bob", capsys)  # game 1: past the first round
    play(target, "druid", 1, ["alice", "bob"], 2, capsys)
    pbm(target, "druid challenge -size=5 bob alice", capsys)  # game 2: still in its first round
    pbm(target, "drogo challenge -size=5 alice bob carol", capsys)  # game 3: three players, bob not to move
    play(target, "drogo", 3, ["alice", "bob", "carol"], 3, capsys)
    pbm(target, "druid challenge -size=5 bob open", capsys)  # challenge 1: made by bob
    pbm(target, "drogo challenge -size=5 carol bob open", capsys)  # challenge 2: naming bob
    pbm(target, "druid challenge -size=5 carol open", capsys)  # challenge 3: not his
    seen["forfeit"] = pbm(target, "admin forfeit bob he left the server", capsys)
    seen["turn"] = pbm(target, f"drogo move 3 alice {first_move(target, 'drogo', 3, capsys)}", capsys)
    seen["history"] = pbm(target, "history 3", capsys)
    seen["nothing"] = pbm(target, "admin forfeit bob again", capsys)
    seen["challenges"] = pbm(target, "admin challenges carol spam", capsys)
    seen["none left"] = pbm(target, "admin challenges carol spam", capsys)
    seen["games"] = pbm(target, "games bob all", capsys)
    seen["check"] = main(["check", "--db", str(target)])
    capsys.readouterr()
    return seen


def test_the_console_forfeits_a_player_from_all_their_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seen = console_forfeit(tmp_path / "pbm.sqlite3", capsys)
    code, lines = seen["forfeit"]  # type: ignore[misc]
    assert code == 0 and lines == [
        "Forfeited bob from 3 games and withdrew 2 open challenges: he left the server",
        "bob was removed from game 1 by a moderator: he left the server",
        "game 2 was cancelled by a moderator: bob left before the first round was over (he left the server); it does"
        " not count for the ratings",
        "bob was removed from game 3 by a moderator: he left the server",
        "challenges withdrawn: 1, 2",
    ]
    code, turn = seen["turn"]  # type: ignore[misc]
    assert code == 0 and "bob resigned" in "\n".join(turn) and "Drogo: carol to move" in "\n".join(turn)
    history = seen["history"][1]  # type: ignore[index]
    # in a game that goes on without him, bob is out when his turn comes, resigned by the server
    assert history[-3] == "   3. bob: forfeit" and history[-1] == "   5. bob: resign (Auto)"
    assert seen["nothing"] == (1, ["error: bob has no running game and no open challenge; nothing to do"])
    assert seen["challenges"] == (0, ["Withdrew 1 open challenge of carol (3): spam"])
    assert seen["none left"] == (1, ["error: carol has no open challenge; nothing to withdraw"])
    games = seen["games"][1]  # type: ignore[index]
    assert "druid 1: move 3, alice, bob: alice won" in games
    assert "druid 2: move 0, bob, alice: cancelled" in games
    assert seen["check"] == 0


# ---- racing moderators, on both databases ----------------------------------------------------------------------


async def test_two_moderators_ending_a_game_at_once_end_it_once(databases: Databases) -> None:
    target = await databases.target()
    async with await Store.open(target) as one, await Store.open(target) as two:
        first = Actions(one, seed_source=lambda: 5, think=None)
        second = Actions(two, seed_source=lambda: 5, think=None)
        await first.challenge("druid", ["alice", "bob"], ["-size=5"], start=True, guild_id=9)
        for player, move in (("alice", "a1"), ("bob", "e5")):
            assert (await first.move(1, player, move)).ok
        cancelled, decided = await asyncio.gather(
            first.admin_cancel(1, "mod1", "cheating", guild_id=9),
            second.admin_decide(1, "mod2", "bob", "abandoned", guild_id=9),
        )
        log = await one.log(1)
        audit, total = await one.audit_log(9)
        row = await one.load_game(1)
        report = await check(first)
    assert sorted([cancelled.ok, decided.ok]) == [False, True]
    loser = decided if cancelled.ok else cancelled
    assert loser.message.startswith("game 1 is over already (")
    assert [entry.text for entry in log][2:] in (["cancel"], ["decide"])
    assert total == 1 and audit[0].moderator == ("mod1" if cancelled.ok else "mod2")
    assert row.status in ("cancelled", "finished")
    assert report.ok, report.lines()


async def test_another_servers_game_is_not_there_for_a_moderator(databases: Databases) -> None:
    async with await Store.open(await databases.target()) as store:
        actions = Actions(store, seed_source=lambda: 5, think=None)
        await actions.challenge("druid", ["alice", "bob"], ["-size=5"], start=True, guild_id=9)
        refused = await actions.admin_cancel(1, "mod", "no", guild_id=10)
        decided = await actions.admin_decide(1, "mod", "alice", "no", guild_id=10)
        forfeit = await actions.admin_forfeit("alice", "mod", "no", guild_id=10)
        row = await store.load_game(1)
    assert refused.message == decided.message == "there is no game 1 in this server"
    assert forfeit.message == "alice has no running game and no open challenge in this server; nothing to do"
    assert row.status == "active"


# ---- through the fake Discord ----------------------------------------------------------------------------


async def test_a_moderator_cancels_and_decides_and_the_threads_are_told(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    mod = await fake.add_member(w.guild, "mod", permissions=("manage_guild",))
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        first = await start_game(fake, w.channel, "druid", [w.alice, w.bob], "-size=5")
        await first.move_and_wait(w.alice, "a1")
        await first.move_and_wait(w.bob, "e5")
        done = await fake.reply(
            await fake.slash(mod, w.channel, "admin cancel", {"game": 1, "reason": "a rules dispute"})
        )
        told = first.last_post()
        second = await start_game(fake, w.channel, "druid", [w.alice, w.bob], "-size=5")
        await second.move_and_wait(w.alice, "a1")
        await second.move_and_wait(w.bob, "e5")
        suggested = await fake.autocomplete(
            mod, w.channel, "admin decide", {"game": 2, "winner": "b", "reason": "x"}, focused="winner"
        )
        decided = await fake.reply(
            await fake.slash(
                mod, w.channel, "admin decide", {"game": 2, "winner": "bob", "reason": "alice left", "unrated": False}
            )
        )
        ended = second.last_post()
        again = await fake.reply(await fake.slash(mod, w.channel, "admin cancel", {"game": 2, "reason": "x"}))
        log = await fake.reply(await fake.slash(mod, w.channel, "admin log"))
        changes = await bot.actions.store.game_rating_changes(2)
    assert done.ephemeral and done.content == (
        "game 1 was cancelled by a moderator: a rules dispute; it does not count for the ratings.\n"
        f"Told in <#{first.thread.id}>."
    )
    assert "game 1 was cancelled by a moderator: a rules dispute" in told.text()
    assert sorted(told.pinged) == sorted([w.alice, w.bob])
    assert suggested == [{"name": "bob", "value": "bob"}]
    assert decided.content == f"bob wins game 2: decided by a moderator: alice left.\nTold in <#{second.thread.id}>."
    assert "bob wins game 2" in ended.text() and sorted(ended.pinged) == sorted([w.alice, w.bob])
    assert "ratings: bob" in ended.text()
    assert again.content == "game 2 is over already (decided by a moderator: alice left)"
    assert log.content.splitlines()[0] == "What moderators did: 2 entries, page 1 of 1"
    assert log.content.splitlines()[1].endswith("UTC: mod decided game 2 for bob: alice left")
    assert {c.player_id: c.result for c in changes} == {"alice": "loss", "bob": "win"}


async def test_a_moderator_forfeits_a_member_and_withdraws_challenges(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    fake = w.fake
    mod = await fake.add_member(w.guild, "mod", permissions=("manage_guild",))
    other_guild = await fake.add_guild("Other")
    other_channel = await fake.add_channel(other_guild, "games")
    fake.join(other_guild, w.alice)
    fake.join(other_guild, w.bob)
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        table = await start_game(fake, w.channel, "druid", [w.alice, w.bob], "-size=5")
        await table.move_and_wait(w.alice, "a1")
        await table.move_and_wait(w.bob, "e5")
        elsewhere = await start_game(fake, other_channel, "druid", [w.alice, w.bob], "-size=5")
        made = await challenge(fake, w.channel, w.bob, "druid", w.carol)
        aimed = await challenge(fake, w.channel, w.carol, "druid", w.bob)
        forfeit = await fake.reply(
            await fake.slash(mod, w.channel, "admin forfeit", {"member": w.bob, "reason": "banned"})
        )
        told = table.last_post()
        spam = [await challenge(fake, w.channel, w.carol, "drogo", other) for other in (w.alice, mod)]
        withdrawn = await fake.reply(
            await fake.slash(mod, w.channel, "admin challenges", {"member": w.carol, "reason": "spam"})
        )
        stranger = await fake.add_member(w.guild, "stranger")
        never = await fake.reply(await fake.slash(mod, w.channel, "admin forfeit", {"member": stranger, "reason": "x"}))
        kept = await bot.actions.store.load_game(2)
    assert forfeit.content == (
        "Forfeited bob from 1 game and withdrew 2 open challenges: banned\n"
        "bob was removed from game 1 by a moderator: banned\n"
        "challenges withdrawn: 3, 4"
    )
    assert "bob was removed from game 1 by a moderator: banned" in told.text() and told.pinged == [w.alice]
    assert made.content.endswith("Withdrawn by a moderator: banned") and made.custom_ids() == []
    assert aimed.content.endswith("Withdrawn by a moderator: banned") and aimed.custom_ids() == []
    assert kept.status == "active" and elsewhere.thread.parent_id == other_channel  # another server's game goes on
    assert withdrawn.content == "Withdrew 2 open challenges of carol (5, 6): spam"
    assert all(m.content.endswith("Withdrawn by a moderator: spam") and m.custom_ids() == [] for m in spam)
    assert never.content == "stranger has never played here; nothing to do"


async def test_a_member_without_manage_server_cannot_moderate_even_by_crafting_it(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    fake = w.fake
    async with pbm_running(fake, tmp_path / "pbm.sqlite3") as bot:
        await start_game(fake, w.channel, "druid", [w.alice, w.bob], "-size=5")
        with pytest.raises(PermissionError):
            await fake.slash(w.alice, w.channel, "admin cancel", {"game": 1, "reason": "I am losing"})
        answers = [
            await fake.reply(await fake.slash(w.alice, w.channel, f"admin {sub}", values, crafted=True))
            for sub, values in (
                ("cancel", {"game": 1, "reason": "I am losing"}),
                ("decide", {"game": 1, "winner": "alice", "reason": "I win"}),
                ("forfeit", {"member": w.bob, "reason": "go away"}),
                ("challenges", {"member": w.bob, "reason": "go away"}),
                ("log", {}),
            )
        ]
        suggested = await fake.autocomplete(
            w.alice, w.channel, "admin decide", {"game": 1, "winner": "", "reason": "x"}, focused="winner"
        )
        row = await bot.actions.store.load_game(1)
        _, total = await bot.actions.store.audit_log(w.guild)
    assert {a.content for a in answers} == {"only members with the Manage Server permission can use this command"}
    assert all(a.ephemeral for a in answers)
    assert suggested == []
    assert row.status == "active" and total == 0
