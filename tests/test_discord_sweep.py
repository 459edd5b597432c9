"""The bot's background sweep through the fake Discord: expired challenges close, idle players get one reminder
per interval."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tests.fakediscord.pbm import pbm_running, start_game

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]


async def test_an_unanswered_challenge_expires_and_loses_its_buttons(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3", challenge_ttl=0.3) as bot:
        await w.fake.reply(await w.fake.slash(w.alice, w.channel, "challenge", {"game": "druid", "opponent": w.bob}))
        challenge = w.fake.channel_log(w.channel)[-1]
        await w.fake.wait_for(lambda: challenge.components == [], timeout=5, what="expired challenge")
        row = await bot.actions.store.load_challenge(1)
    assert row.status == "expired"
    assert "challenge 1 expired unanswered" in challenge.text()


async def test_an_idle_player_is_reminded_once_per_interval(discord_world: World, tmp_path: Path) -> None:
    w = discord_world
    async with pbm_running(w.fake, tmp_path / "pbm.sqlite3", reminder_interval=0.4):
        table = await start_game(w.fake, w.channel, "druid", [w.alice, w.bob], options="-size=5 -untimed")
        reminder = await w.fake.next_message(table.thread.id, timeout=5)
        await w.fake.wait_for(lambda: len(w.fake.channel_log(table.thread.id)) >= 3, timeout=5, what="2nd reminder")
        reminders = [m for m in w.fake.channel_log(table.thread.id) if "waiting for your move" in m.text()]
    assert reminder.text() == f"<@{w.alice}>, game 1 is waiting for your move." and reminder.pinged == [w.alice]
    assert len(reminders) == 2
    assert reminders[1].id != reminders[0].id
