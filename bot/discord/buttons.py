"""Buttons whose custom ids carry everything needed to act (challenge id, game id, move number), registered as
dynamic items so buttons on old messages keep working after a restart. The move number in a move button makes a
second click (or a click on an outdated turn message) a refused stale move instead of a second move."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.actions import Result
from rules.base import GameError

if TYPE_CHECKING:
    from bot.discord.client import PbmBot

log = logging.getLogger("pbm.discord")
#: buttons on one turn message at most (two rows of five)
MAX_BUTTONS = 10
_CHALLENGE_LABELS = {"accept": "Accept", "decline": "Decline", "withdraw": "Withdraw"}
_CHALLENGE_STYLES = {
    "accept": discord.ButtonStyle.success,
    "decline": discord.ButtonStyle.danger,
    "withdraw": discord.ButtonStyle.secondary,
}


def _bot(interaction: discord.Interaction) -> PbmBot:
    return interaction.client  # type: ignore[return-value]


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pbm:c:(?P<id>\d+):(?P<action>accept|decline|withdraw)"
):
    """Accept, Decline (the challenged) or Withdraw (the challenger) an open challenge."""

    def __init__(self, challenge_id: int, action: str) -> None:
        self.challenge_id, self.action = challenge_id, action
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=_CHALLENGE_LABELS[action], style=_CHALLENGE_STYLES[action], custom_id=f"pbm:c:{challenge_id}:{action}"
        )
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ChallengeButton:
        return cls(int(match["id"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = _bot(interaction)
        player = await bot.front.player_id(interaction.user)
        act = {"accept": bot.actions.accept, "decline": bot.actions.decline, "withdraw": bot.actions.cancel}
        result = await act[self.action](self.challenge_id, player)
        if not result.ok:
            await interaction.followup.send(result.message, ephemeral=True)
            return
        await self._update_challenge_message(interaction, result)
        if result.game_id is None:
            await interaction.followup.send(result.message, ephemeral=True)
            return
        await bot.games.start_game(interaction, result)

    @staticmethod
    async def _update_challenge_message(interaction: discord.Interaction, result: Result) -> None:
        message = interaction.message
        if message is None:
            return
        done = result.status != "open"
        line = f"Game {result.game_id} started." if result.game_id is not None else result.message
        try:
            await message.edit(
                content=f"{message.content}\n{line}"[:2000],
                view=None if done else discord.utils.MISSING,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as exc:
            log.warning("could not update challenge message %s: %s", message.id, exc)


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pbm:m:(?P<game>\d+):(?P<number>\d+):(?P<word>[a-z]+)"
):
    """A one-word command (roll, double, take, drop, greedy, manual, pass, swap) as move ``number`` of a game."""

    def __init__(self, game_id: int, number: int, word: str) -> None:
        self.game_id, self.number, self.word = game_id, number, word
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=word.capitalize(), style=discord.ButtonStyle.primary, custom_id=f"pbm:m:{game_id}:{number}:{word}"
        )
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MoveButton:
        return cls(int(match["game"]), int(match["number"]), match["word"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = _bot(interaction)
        player = await bot.front.player_id(interaction.user)
        result = await bot.actions.move(self.game_id, player, f"{self.word}#{self.number}")
        await bot.games.after_action(interaction, result)


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pbm:r:(?P<game>\d+)"):
    """On a finished game's last message: the game's animated replay, for anyone."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        button: discord.ui.Button[Any] = discord.ui.Button(
            label="Replay", style=discord.ButtonStyle.secondary, custom_id=f"pbm:r:{game_id}"
        )
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await _bot(interaction).games.post_replay(interaction, self.game_id)


def challenge_view(challenge_id: int) -> discord.ui.View:
    """Accept / Decline / Withdraw for a new challenge."""
    view = discord.ui.View(timeout=None)
    for action in _CHALLENGE_LABELS:
        view.add_item(ChallengeButton(challenge_id, action))
    return view


def accepted_words(result: Result) -> list[str]:
    """The game's one-word commands (``GameDef.extra_commands``: roll, double, take, drop, greedy, manual, pass,
    swap) that the player to move could send now; the rules decide, by reading each word."""
    state = result.state
    if state is None or state.is_over or state.to_move is None:
        return []
    accepted: dict[str, str] = {}
    for word in state.game.extra_commands:
        try:
            move = state.parse_move(word, state.to_move)
        except GameError:
            continue
        accepted[word] = state.move_text(move)
    # Two words for one move (Backgammon's roll while a double is offered is a take): one button, the move's own.
    return [w for w, text in accepted.items() if text == w or text not in accepted]


def move_view(result: Result) -> discord.ui.View | None:
    """Buttons for the one-word commands the player to move can send; a Replay button once the game is over
    (not for a game cancelled before a move); ``None`` when there are none."""
    state = result.state
    if state is not None and state.is_over and result.game_id is not None and state.ply > 0:
        view = discord.ui.View(timeout=None)
        view.add_item(ReplayButton(result.game_id))
        return view
    words = accepted_words(result)
    if not words or result.game_id is None or result.state is None:
        return None
    view = discord.ui.View(timeout=None)
    for word in words[:MAX_BUTTONS]:
        view.add_item(MoveButton(result.game_id, result.state.ply + 1, word))
    return view
