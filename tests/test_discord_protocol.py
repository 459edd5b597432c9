"""The pbm bot against Discord's harder answers, through the fake: 429s without bucket headers and the global
429 (it waits and retries, and posts nothing twice), a gateway resume Discord refuses (it identifies afresh and
keeps playing), and answers that come after an interaction's 15-minute token (nothing is lost: a public answer
goes to the channel, a private one by DM). Time on the fake's clock is moved on by hand; the rate-limit waits are
real and short."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from bot.board_files import Picture
from bot.discord.followups import LATE_NOTE
from bot.discord.front import render_board
from tests.fakediscord.commands import check_commands
from tests.fakediscord.pbm import pbm_running, start_game

if TYPE_CHECKING:
    from tests.fakediscord import FakeDiscord
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]
THREAD_POSTS = "POST /channels/{channel_id}/messages"


def posts_to(fake: FakeDiscord, thread: int) -> list[tuple[int, float]]:
    """Status and arrival time of every post the bot made to ``thread``."""
    return [
        (r.status, r.at) for r in fake.requests if r.route == THREAD_POSTS and r.params["channel_id"] == str(thread)
    ]


def late_render(fake: FakeDiscord, minutes: float = 16) -> Callable[[Picture], bytes | None]:
    """A board that takes ``minutes`` on the fake's clock to draw (the interaction's token ages; nobody waits)."""

    def render(board: Picture) -> bytes | None:
        fake.advance(minutes * 60)
        return render_board(board)

    return render


async def test_a_429_with_only_retry_after_is_waited_out_and_the_board_posted_once(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3"):
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        w.fake.rate_limit(THREAD_POSTS, retry_after=0.05, bucket_headers=False, channel_id=table.thread.id)
        reply = await table.move(w.alice, "c3")
        turn = table.last_post()
    (limited, at_429), (posted, at_retry) = posts_to(w.fake, table.thread.id)[-2:]
    assert (limited, posted) == (429, 200) and at_retry - at_429 >= 0.05
    assert reply.deleted and "alice played c3" in turn.text() and turn.pinged == [w.bob]
    assert sum("alice played c3" in m.text() for m in w.fake.channel_log(table.thread.id)) == 1


async def test_a_global_429_holds_every_post_until_it_is_over_and_each_board_goes_out_once(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    window = 0.5  # long enough to see a second game's post held back, short enough for a test
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3"):
        first = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        second = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        w.fake.global_rate_limit(window, route=THREAD_POSTS, channel_id=first.thread.id)
        moved = await w.fake.slash(w.alice, first.thread.id, "move", {"move": "c3"})
        await w.fake.wait_for(lambda: (429, True) in [(s, True) for s, _ in posts_to(w.fake, first.thread.id)])
        at_429 = next(at for status, at in posts_to(w.fake, first.thread.id) if status == 429)
        meanwhile = await w.fake.slash(w.alice, second.thread.id, "move", {"move": "a1"})
        replies = [await w.fake.reply(i, timeout=10) for i in (moved, meanwhile)]
    first_posts, second_posts = posts_to(w.fake, first.thread.id)[-2:], posts_to(w.fake, second.thread.id)[-1:]
    assert [status for status, _ in first_posts] == [429, 200] and second_posts[0][0] == 200
    assert meanwhile.acked_at is not None and meanwhile.acked_at < at_429 + window  # answered during the window,
    assert first_posts[1][1] >= at_429 + window and second_posts[0][1] >= at_429 + window  # posted only after it
    assert all(r.deleted for r in replies)
    assert sum("alice played c3" in m.text() for m in w.fake.channel_log(first.thread.id)) == 1
    assert sum("alice played a1" in m.text() for m in w.fake.channel_log(second.thread.id)) == 1


async def test_a_refused_resume_makes_the_bot_identify_afresh_and_keep_playing(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    identifies: list[bool] = []

    async def unpaced(shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before a later IDENTIFY (Discord's pace); the fake does not count, so no wait."""
        identifies.append(initial)

    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3") as bot:
        bot.before_identify_hook = unpaced  # type: ignore[method-assign]
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
        before = list(w.fake.sessions)
        w.fake.expire_sessions()
        await w.fake.drop_gateway()
        session = await w.fake.wait_for(
            lambda: next((s for s in w.fake.sessions if s.ready and s not in before), None), what="a new session"
        )
        turn = await table.move_and_wait(w.alice, "c3")
    assert w.fake.refused_resumes == 1 and not session.resumed and session.intents is not None
    assert identifies == [False]  # one IDENTIFY after the refused RESUME, paced as a later one
    assert "alice played c3" in turn.text() and turn.pinged == [w.bob]


async def test_a_board_asked_for_and_drawn_past_the_tokens_15_minutes_is_posted_in_the_channel_once(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    db = tmp_path / "pbm.sqlite3"
    async with pbm_running(w.fake, db):
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
    before = len(w.fake.channel_log(table.thread.id))
    olds = {m.id for m in w.fake.channel_log(table.thread.id)}
    async with pbm_running(w.fake, db, render=late_render(w.fake)):
        asked = await w.fake.slash(w.carol, table.thread.id, "board")
        shown = await w.fake.wait_for(
            lambda: next(
                (
                    m
                    for m in w.fake.channel_log(table.thread.id)
                    if m.attachments and m.interaction_id is None and m.id not in olds
                ),
                None,
            ),
            what="the board in the thread",
        )
        await w.fake.wait_for(lambda: w.fake.messages[asked.original_id].deleted, what="placeholder removed")
    expired = [r.status for r in w.fake.requests if r.route.startswith("POST /webhooks/")][-1]
    assert expired == 401 and asked.response_type == 5
    assert shown.interaction_id is None and shown.text().startswith("### Druid 1: alice to move (move 1)")
    assert [a.filename for a in shown.attachments] == ["druid-1.png"]
    assert len(w.fake.channel_log(table.thread.id)) == before + 1 and len(asked.messages) == 1


async def test_a_move_whose_board_comes_after_15_minutes_posts_the_turn_once_and_tells_the_player_by_dm(
    discord_world: World, tmp_path: Path
) -> None:
    w = discord_world
    db = tmp_path / "pbm.sqlite3"
    async with pbm_running(w.fake, db):
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5")
    async with pbm_running(w.fake, db, render=late_render(w.fake)) as bot:
        moved = await w.fake.slash(w.alice, w.channel, "move", {"move": "c3", "game": 1})  # told where it went
        dm = await w.fake.wait_for(lambda: w.fake.dms(w.alice), what="the answer by DM")
        shown = await bot.actions.show(1)
    turns = [m for m in w.fake.channel_log(table.thread.id) if "alice played c3" in m.text()]
    assert len(turns) == 1 and turns[0].layout and turns[0].pinged == [w.bob] and shown.move_number == 1
    assert dm[0].content == f"Done in <#{table.thread.id}>.\n{LATE_NOTE}"
    assert [m.id for m in moved.messages] == [moved.original_id] and w.fake.messages[moved.original_id].loading


async def test_the_bots_own_command_definitions_pass_discords_checks(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3"):
        pass
    pushes = [r for r in w.fake.requests if r.route == "PUT /applications/{application_id}/commands"]
    assert [r.status for r in pushes] == [200] and check_commands(pushes[0].body) == {}
    names = {c["name"]: c.get("type", 1) for c in pushes[0].body}
    assert names["move"] == 1 and names["Show board"] == 3 and len(names) == len(pushes[0].body)
