"""The transport-free actions: the challenge lifecycle, pbmserv's resign rules with three or more players, replays,
and the notifications a front must send."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.actions import Actions
from data.store import Store


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def env(tmp_path: Path):
    store = await Store.open(tmp_path / "actions.sqlite3")
    clock = Clock()
    yield Actions(store, seed_source=lambda: 777, challenge_ttl=3600, clock=clock), clock
    await store.close()


async def test_a_challenge_starts_when_everyone_has_accepted(env) -> None:
    actions, _ = env
    made = await actions.challenge("drogo", ["alice", "bob", "carol"], ["-single"])
    assert made.ok and made.status == "open" and made.notify == ["bob", "carol"]
    cid = made.challenge_id
    first = await actions.accept(cid, "bob")
    assert first.ok and first.game_id is None and "waiting for carol" in first.message
    again = await actions.accept(cid, "bob")
    assert not again.ok and "already accepted" in again.message
    stranger = await actions.accept(cid, "mallory")
    assert not stranger.ok and "not addressed to you" in stranger.message
    started = await actions.accept(cid, "carol")
    assert started.ok and started.game_id is not None and started.status == "active"
    assert started.players == ["alice", "bob", "carol"]
    assert started.notify == ["alice"]
    late = await actions.accept(cid, "carol")
    assert not late.ok and "accepted" in late.message


async def test_decline_cancel_and_expiry(env) -> None:
    actions, clock = env
    declined = await actions.challenge("druid", ["alice", "bob"])
    assert not (await actions.decline(declined.challenge_id, "alice")).ok
    assert (await actions.decline(declined.challenge_id, "bob")).status == "declined"
    assert "declined" in (await actions.accept(declined.challenge_id, "bob")).message

    cancelled = await actions.challenge("druid", ["alice", "bob"])
    refused = await actions.cancel(cancelled.challenge_id, "bob")
    assert not refused.ok and "only alice can cancel" in refused.message
    assert (await actions.cancel(cancelled.challenge_id, "alice")).status == "cancelled"

    expiring = await actions.challenge("druid", ["alice", "bob"])
    clock.now += 3601
    expired = await actions.expire_challenges()
    assert [r.challenge_id for r in expired] == [expiring.challenge_id]
    assert "expired" in (await actions.accept(expiring.challenge_id, "bob")).message


async def test_bad_challenges_are_refused_up_front(env) -> None:
    actions, _ = env
    assert "2 to 4 players" in (await actions.challenge("drogo", ["alice"])).message
    assert "-size" in (await actions.challenge("drogo", ["alice", "bob"], ["-size=1"])).message
    assert "unknown game" in (await actions.challenge("go", ["alice", "bob"])).message
    assert await actions.store.open_challenges() == []


async def test_declining_in_the_first_round_restarts_with_the_others(env) -> None:
    actions, _ = env
    game = await actions.challenge("drogo", ["alice", "bob", "carol"], start=True)
    first = await actions.move(game.game_id, "alice", "c3")
    assert first.ok
    declined = await actions.resign(game.game_id, "carol")
    assert declined.ok and "carol declined to play" in declined.message
    assert declined.game_id != game.game_id
    assert declined.players == ["alice", "bob"]
    old = await actions.show(game.game_id)
    assert old.status == "cancelled"


async def test_with_three_players_a_resigned_player_is_skipped(env) -> None:
    actions, _ = env
    game_id = (await actions.challenge("drogo", ["alice", "bob", "carol"], start=True)).game_id
    for player, cell in (("alice", "a1"), ("bob", "f6"), ("carol", "a6")):
        assert (await actions.move(game_id, player, cell)).ok
    resigned = await actions.resign(game_id, "alice")
    assert resigned.ok and resigned.status == "active" and resigned.to_move == "bob"
    assert resigned.notify == ["bob"]
    assert (await actions.move(game_id, "bob", "f5")).to_move == "carol"
    after = await actions.move(game_id, "carol", "a5")
    assert after.to_move == "bob"
    assert not (await actions.move(game_id, "alice", "c3")).ok
    assert (await actions.resign(game_id, "bob")).winners == ["carol"]


async def test_a_replay_rebuilds_the_stored_state(env) -> None:
    actions, _ = env
    game_id = (await actions.challenge("backgammon", ["alice", "bob"], start=True)).game_id
    for _ in range(30):
        listing = await actions.moves(game_id)
        if not listing.ok or listing.status != "active":
            break
        moves = [m for m in listing.items if m not in ("greedy", "manual")] or listing.items
        assert (await actions.move(game_id, listing.to_move, moves[0])).ok
    row = await actions.store.load_game(game_id)
    replayed = await actions.replay(row)
    assert replayed.to_json() == row.snapshot
    for n in range(0, row.move_number + 1, 5):
        shown = await actions.show(game_id, n)
        assert shown.ok and shown.state.ply == n
    assert "no move 999" in (await actions.show(game_id, 999)).message


async def test_help_for_every_game(env) -> None:
    actions, _ = env
    overview = actions.help()
    assert [item.split(":")[0] for item in overview.items[:4]] == ["backgammon", "dragons", "drogo", "druid"]
    assert overview.items[4].startswith("Options every game takes") and "  -unrated: " in "\n".join(overview.items)
    for name in ("backgammon", "dragons", "druid", "drogo"):
        result = actions.help(name)
        assert result.ok and result.items, name
        assert "Moves." in result.message
