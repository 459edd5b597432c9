"""Smoke tests of the fake Discord with a minimal discord.py bot defined here (not the product bot): login, command
sync, a slash command and its reply, autocomplete, a button click that opens a thread and uploads a file, DMs
(open and closed), missing permissions, an injected 429, a deferred reply, the 3-second deadline, a gateway resume
and a restart whose persistent buttons still work."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord
import discord.http
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import FakeDiscord, endpoints_pointed_at, running

if TYPE_CHECKING:
    from tests.fakediscord.fixtures import World

pytest_plugins = ["tests.fakediscord.fixtures"]

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
WORDS = ["alpha", "almond", "beta", "gamma"]


class OpenThread(discord.ui.View):
    """A persistent button that opens a public thread, adds the presser, and posts a file there."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Open thread", custom_id="smoke:thread")
    async def open_thread(self, interaction: discord.Interaction, _: discord.ui.Button[OpenThread]) -> None:
        await interaction.response.defer()
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        thread = await channel.create_thread(name="smoke game", type=discord.ChannelType.public_thread)
        await thread.add_user(interaction.user)
        await thread.send(
            f"{interaction.user.mention} to move",
            file=discord.File(io.BytesIO(PNG), "board.png"),
            allowed_mentions=discord.AllowedMentions(users=[interaction.user]),
        )

    @discord.ui.button(label="Mark read", custom_id="smoke:edit")
    async def mark_read(self, interaction: discord.Interaction, _: discord.ui.Button[OpenThread]) -> None:
        await interaction.response.edit_message(content=f"read by {interaction.user.name}", view=None)

    async def on_error(self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any]) -> None:
        assert isinstance(interaction.client, SmokeBot)
        interaction.client.errors.append(error)


class SmokeBot(commands.Bot):
    """Slash commands /ping (with autocomplete), /dm, /announce and /slow."""

    def __init__(self, slow_seconds: float = 0.0) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.slow_seconds = slow_seconds
        self.errors: list[BaseException] = []
        self.tree.on_error = self._on_tree_error
        self._add_commands()

    async def _on_tree_error(self, _: discord.Interaction, error: app_commands.AppCommandError) -> None:
        self.errors.append(error.__cause__ or error)

    async def setup_hook(self) -> None:
        self.add_view(OpenThread())
        await self.tree.sync()

    def _add_commands(self) -> None:
        @self.tree.command(description="Answer with a word and a button")
        async def ping(interaction: discord.Interaction, word: str) -> None:
            await interaction.response.send_message(f"pong {word}", view=OpenThread())

        @ping.autocomplete("word")
        async def ping_words(_: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=w, value=w) for w in WORDS if w.startswith(current)]

        @self.tree.command(description="Send yourself a DM")
        async def dm(interaction: discord.Interaction) -> None:
            try:
                await interaction.user.send("hello by DM")
            except discord.Forbidden as err:
                await interaction.response.send_message(f"cannot DM you ({err.code})", ephemeral=True)
            else:
                await interaction.response.send_message("sent", ephemeral=True)

        @self.tree.command(description="Post in the channel after a deferred reply")
        async def announce(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.defer(thinking=True)
            assert isinstance(interaction.channel, discord.TextChannel)
            await interaction.channel.send(text)
            await interaction.followup.send(f"announced {interaction.user.mention}")

        @self.tree.command(description="Answer too late")
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(self.slow_seconds)
            await interaction.response.send_message("late")


async def test_login_syncs_commands_once_with_the_bot_identity(discord_world: World) -> None:
    fake = discord_world.fake
    bot = SmokeBot()
    async with running(bot, fake):
        await bot.wait_until_ready()
        assert bot.user is not None and bot.user.id == fake.application_id
        assert bot.get_channel(discord_world.channel) is not None
    assert len(fake.syncs) == 1 and fake.syncs[0].guild_id is None
    ping = next(c for c in fake.syncs[0].commands if c["name"] == "ping")
    assert ping["options"][0]["autocomplete"] is True
    assert fake.unhandled == []


async def test_slash_reply_binds_the_view_and_the_click_opens_a_thread_with_a_file(discord_world: World) -> None:
    fake, alice = discord_world.fake, discord_world.alice
    bot = SmokeBot()
    async with running(bot, fake):
        interaction = await fake.slash(alice, discord_world.channel, "ping", {"word": "alpha"})
        reply = await fake.reply(interaction)
        assert reply.content == "pong alpha" and reply.custom_ids() == ["smoke:thread", "smoke:edit"]
        assert interaction.response_type == 4

        click = await fake.click(alice, reply, "smoke:thread")
        await fake.acked(click)
        thread = await fake.wait_for(lambda: next(iter(fake.threads.values()), None), what="thread")
        posted = await fake.next_message(thread.id, after=None) if not fake.channel_log(thread.id) else None
        board = posted or fake.channel_log(thread.id)[0]
    assert click.response_type == 6
    assert thread.parent_id == discord_world.channel and not thread.private
    assert thread.members == [alice]
    assert [a.filename for a in board.attachments] == ["board.png"]
    assert board.attachments[0].data == PNG
    assert board.pinged == [alice]
    assert bot.errors == []


async def test_autocomplete_returns_the_bots_prefix_filtered_choices(discord_world: World) -> None:
    fake = discord_world.fake
    async with running(SmokeBot(), fake):
        choices = await fake.autocomplete(discord_world.bob, discord_world.channel, "ping", {"word": "al"}, "word")
    assert [c["value"] for c in choices] == ["alpha", "almond"]


async def test_dm_is_delivered_and_closed_dms_answer_50007(discord_world: World) -> None:
    fake, alice, bob = discord_world.fake, discord_world.alice, discord_world.bob
    fake.close_dms(bob)
    async with running(SmokeBot(), fake):
        sent = await fake.reply(await fake.slash(alice, discord_world.channel, "dm"))
        refused = await fake.reply(await fake.slash(bob, discord_world.channel, "dm"))
    assert [m.content for m in fake.dms(alice)] == ["hello by DM"]
    assert sent.content == "sent" and sent.ephemeral
    assert fake.dms(bob) == []
    assert refused.content == "cannot DM you (50007)" and refused.ephemeral


async def test_an_injected_429_is_retried_and_the_message_posted_once(discord_world: World) -> None:
    fake = discord_world.fake
    fake.rate_limit("POST /channels/{channel_id}/messages", retry_after=0.05, channel_id=discord_world.channel)
    async with running(SmokeBot(), fake):
        interaction = await fake.slash(discord_world.alice, discord_world.channel, "announce", {"text": "hear ye"})
        await fake.reply(interaction)
    statuses = [r.status for r in fake.requests if r.route == "POST /channels/{channel_id}/messages"]
    assert statuses == [429, 200]
    deferred_reply, announcement = fake.channel_log(discord_world.channel)
    assert (deferred_reply.content, announcement.content) == (f"announced <@{discord_world.alice}>", "hear ye")


async def test_the_followup_after_a_deferred_reply_replaces_it_and_pings_nobody(discord_world: World) -> None:
    fake, alice = discord_world.fake, discord_world.alice
    async with running(SmokeBot(), fake):
        interaction = await fake.slash(alice, discord_world.channel, "announce", {"text": "news"})
        reply = await fake.reply(interaction)
    assert interaction.response_type == 5
    assert reply.id == interaction.original_id and reply.content == f"announced <@{alice}>"
    assert reply.pinged == []
    announced = fake.channel_log(discord_world.channel)[1]
    assert announced.content == "news" and announced.pinged == []


async def test_missing_permission_refuses_the_thread_with_50013(discord_world: World) -> None:
    fake = discord_world.fake
    fake.deny(discord_world.channel, "create_public_threads")
    bot = SmokeBot()
    async with running(bot, fake):
        reply = await fake.reply(await fake.slash(discord_world.alice, discord_world.channel, "ping", {"word": "x"}))
        await fake.acked(await fake.click(discord_world.alice, reply, "smoke:thread"))
        await fake.wait_for(lambda: bot.errors, what="bot error")
    assert isinstance(bot.errors[0], discord.Forbidden) and bot.errors[0].code == 50013
    assert fake.threads == {}


async def test_a_reply_after_the_deadline_is_an_unknown_interaction(discord_world: World) -> None:
    fake = discord_world.fake
    fake.interaction_deadline = 0.1
    bot = SmokeBot(slow_seconds=0.3)
    async with running(bot, fake):
        interaction = await fake.slash(discord_world.alice, discord_world.channel, "slow")
        await fake.wait_for(lambda: bot.errors, what="bot error")
    assert isinstance(bot.errors[0], discord.NotFound) and bot.errors[0].code == 10062
    assert interaction.callbacks == [] and interaction.original_id is None


async def test_the_bot_resumes_after_a_dropped_gateway_and_keeps_answering(discord_world: World) -> None:
    fake = discord_world.fake
    async with running(SmokeBot(), fake):
        await fake.drop_gateway()
        session = await fake.wait_for(lambda: fake._live_session(), what="resumed session")
        reply = await fake.reply(await fake.slash(discord_world.alice, discord_world.channel, "ping", {"word": "y"}))
    assert session.resumed
    assert reply.content == "pong y"


async def test_a_second_bot_after_a_restart_answers_the_first_bots_buttons(discord_world: World) -> None:
    fake, alice = discord_world.fake, discord_world.alice
    async with running(SmokeBot(), fake):
        reply = await fake.reply(await fake.slash(alice, discord_world.channel, "ping", {"word": "z"}))
    second = SmokeBot()
    async with running(second, fake):
        click = await fake.acked(await fake.click(alice, reply, "smoke:thread"))
        await fake.wait_for(lambda: [fake.channel_log(t) for t in fake.threads if fake.channel_log(t)], what="board")
    assert click.response_type == 6 and second.errors == []
    assert len(fake.syncs) == 2


async def test_wrong_token_and_unknown_routes_are_refused(fake_discord: FakeDiscord) -> None:
    bot = SmokeBot()
    with pytest.raises(discord.LoginFailure):
        await bot.start("not-the-token")
    await bot.close()
    assert fake_discord.requests[0].status == 401


async def test_endpoints_are_restored_after_use(fake_discord: FakeDiscord) -> None:
    outer = discord.http.Route.BASE
    other = FakeDiscord()
    await other.start()
    try:
        with endpoints_pointed_at(other):
            assert other.base_url == discord.http.Route.BASE
        assert discord.http.Route.BASE == outer == fake_discord.base_url
    finally:
        await other.stop()


async def test_a_click_that_updates_its_message_edits_that_message(discord_world: World) -> None:
    fake = discord_world.fake
    async with running(SmokeBot(), fake):
        first = await fake.reply(await fake.slash(discord_world.alice, discord_world.channel, "ping", {"word": "a"}))
        second = await fake.reply(await fake.slash(discord_world.alice, discord_world.channel, "ping", {"word": "b"}))
        click = await fake.acked(await fake.click(discord_world.bob, second, "smoke:edit"))
    assert click.response_type == 7
    assert (first.content, second.content) == ("pong a", "read by bob")
    assert second.components == [] and second.pinged == []


async def test_a_delayed_callback_route_makes_a_prompt_reply_arrive_too_late(discord_world: World) -> None:
    fake = discord_world.fake
    fake.interaction_deadline = 0.2
    fake.delay("POST /interactions/{interaction_id}/{token}/callback", 0.3, times=1)
    bot = SmokeBot()
    async with running(bot, fake):
        late = await fake.slash(discord_world.alice, discord_world.channel, "ping", {"word": "late"})
        await fake.wait_for(lambda: bot.errors, what="bot error")
        prompt = await fake.reply(await fake.slash(discord_world.alice, discord_world.channel, "ping", {"word": "ok"}))
    assert isinstance(bot.errors[0], discord.NotFound) and late.callbacks == []
    assert prompt.content == "pong ok"
