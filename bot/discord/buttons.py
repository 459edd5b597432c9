"""Buttons whose custom ids carry everything needed to act (challenge id, game id, move number), registered as
dynamic items so buttons on old messages keep working after a restart. The move number in a move button makes a
second click (or a click on an outdated turn message) a refused stale move instead of a second move."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.actions import Result
from bot.board_files import caption_3d
from bot.discord.failures import answers_failures
from bot.discord.followups import answer, defer_publicly
from bot.discord.ports import bot_of
from data.store import NotFoundError
from render import has_3d
from rules.base import GameError

log = logging.getLogger("pbm.discord")
#: buttons on one turn message at most (two rows of five)
MAX_BUTTONS = 10
#: the most options a select menu holds (Discord's limit): more legal moves than this, and /move it is
MAX_SELECT_OPTIONS = 25
_CHALLENGE_LABELS = {"accept": "Accept", "decline": "Decline", "withdraw": "Withdraw"}
_CHALLENGE_STYLES = {
    "accept": discord.ButtonStyle.success,
    "decline": discord.ButtonStyle.danger,
    "withdraw": discord.ButtonStyle.secondary,
}


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pbm:c:(?P<id>\d+):(?P<action>accept|decline|withdraw)"
):
    """Accept, Decline (the challenged) or Withdraw (the challenger) a challenge; on an open challenge, Accept
    also takes a seat for anyone else."""

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

    @answers_failures("button challenge")
    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = bot_of(interaction)
        player = await bot.front.player_id(interaction.user)
        settings = None
        if self.action == "accept" and interaction.guild_id is not None:  # a game it starts counts in the server
            settings = await bot.actions.server_settings(interaction.guild_id)
            refused = await bot.actions.may_join(settings, interaction.guild_id, player)
            if refused:
                await answer(interaction, refused, ephemeral=True)
                return
        act = {"accept": bot.actions.accept, "decline": bot.actions.decline, "withdraw": bot.actions.cancel}
        result = await act[self.action](self.challenge_id, player)
        if not result.ok:
            await answer(interaction, result.message, ephemeral=True)
            return
        await self._update_challenge_message(interaction, result)
        if result.game_id is None:
            await answer(interaction, result.message, ephemeral=True)
            return
        await bot.games.start_game(interaction, result, settings)

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

    @answers_failures("button move")
    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = bot_of(interaction)
        player = await bot.front.player_id(interaction.user)
        await bot.games.play(interaction, self.game_id, player, f"{self.word}#{self.number}")


class MoveSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"pbm:s:(?P<game>\d+):(?P<number>\d+)"):
    """The legal moves of the player to move, when there are few enough to list (Discord's select holds 25), as
    move ``number`` of a game: only the player to move can use it (anyone else is answered privately), and a
    choice on an old board is refused by the ``#n`` guard."""

    def __init__(self, game_id: int, number: int, moves: list[str] | None = None) -> None:
        self.game_id, self.number = game_id, number
        menu: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"pbm:s:{game_id}:{number}",
            placeholder="Choose your move",
            options=[discord.SelectOption(label=m[:100], value=m[:100]) for m in (moves or ["-"])],
        )
        super().__init__(menu)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select[Any], match: re.Match[str], /
    ) -> MoveSelect:
        made = cls(int(match["game"]), int(match["number"]))
        made.item.options = item.options
        return made

    @answers_failures("menu move")
    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = bot_of(interaction)
        player = await bot.front.player_id(interaction.user)
        chosen = (interaction.data or {}).get("values") or []  # type: ignore[union-attr]
        if not chosen:
            await answer(interaction, "no move chosen", ephemeral=True)
            return
        to_move = (await bot.actions.show(self.game_id)).to_move
        if player != to_move:
            who = f"{to_move} chooses" if to_move else "nobody chooses"
            await answer(interaction, f"only the player to move can use this menu ({who} now)", ephemeral=True)
            return
        await bot.games.play(interaction, self.game_id, player, f"{chosen[0]}#{self.number}")


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

    @answers_failures("button replay")
    async def callback(self, interaction: discord.Interaction) -> None:
        await defer_publicly(interaction)
        await bot_of(interaction).games.post_replay(interaction, self.game_id)


class ViewButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pbm:3d:(?P<game>\d+)"):
    """On the turn messages of a game with a 3D view (Druid, Drogo): the 3D picture of the game's current
    position, for anyone who asks, answered privately so the thread keeps one board per turn."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        button: discord.ui.Button[Any] = discord.ui.Button(
            label="3D view", style=discord.ButtonStyle.secondary, custom_id=f"pbm:3d:{game_id}"
        )
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ViewButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = bot_of(interaction)
        shown = await bot.actions.show(self.game_id)
        if not shown.ok:
            await answer(interaction, shown.message, ephemeral=True)
            return
        upload, _text = await bot.front.board_upload(shown, "3d")
        if upload is None:
            await answer(interaction, f"the 3D view of game {self.game_id} could not be drawn", ephemeral=True)
            return
        await answer(interaction, caption_3d(shown), ephemeral=True, uploads=(upload,))


def has_3d_view(result: Result) -> bool:
    """Whether the position ``result`` shows has a 3D view to offer (Druid and Drogo games)."""
    return result.state is not None and result.game_id is not None and has_3d(result.state.game.name)


def challenge_view(challenge_id: int, *, decline: bool = True) -> discord.ui.View:
    """Accept / Decline / Withdraw for a new challenge; an open challenge naming nobody but its challenger has
    no Decline (Accept takes a seat, and nobody is asked)."""
    view = discord.ui.View(timeout=None)
    for action in _CHALLENGE_LABELS:
        if decline or action != "decline":
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


def move_items(result: Result) -> list[discord.ui.Item[Any]]:
    """The controls of a turn message: a menu of the legal moves when they are :data:`MAX_SELECT_OPTIONS` or
    fewer, then buttons for the one-word commands the player to move can send; a Replay button once the game is
    over (not for a game cancelled before a move); none for a game that is not being played. A game with a 3D
    view has a "3D view" button last, while it is played and once it is over."""
    state = result.state
    if state is not None and state.is_over and result.game_id is not None and state.ply > 0:
        return [ReplayButton(result.game_id), *_view_button(result)]
    if result.game_id is None or state is None or result.status not in (None, "active"):
        return []
    words = accepted_words(result)
    moves = [m for m in result.legal_move_texts() if m not in words]
    items: list[discord.ui.Item[Any]] = []
    if 0 < len(moves) <= MAX_SELECT_OPTIONS:
        items.append(MoveSelect(result.game_id, state.ply + 1, moves))
    items += [MoveButton(result.game_id, state.ply + 1, word) for word in words[:MAX_BUTTONS]]
    return items + _view_button(result)


def _view_button(result: Result) -> list[discord.ui.Item[Any]]:
    """The 3D view button of a game that has a 3D view, else none."""
    return [ViewButton(result.game_id)] if result.game_id is not None and has_3d_view(result) else []


def move_view(result: Result) -> discord.ui.View | None:
    """:func:`move_items` as the rows under a plain message (the select fills a row, buttons go five a row);
    ``None`` when there are none."""
    items = move_items(result)
    if not items:
        return None
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


class ProposalButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pbm:p:(?P<game>\d+):(?P<proposal>\d+):(?P<answer>[ar])"
):
    """Accept (``a``) or Reject (``r``) proposal ``proposal`` (a takeback or a draw) of a game. Only a player who
    must answer it can; a click on a proposal that is no longer open is refused and changes nothing."""

    def __init__(self, game_id: int, proposal_id: int, answer: str) -> None:
        self.game_id, self.proposal_id, self.answer = game_id, proposal_id, answer
        button: discord.ui.Button[Any] = discord.ui.Button(
            label="Accept" if answer == "a" else "Reject",
            style=discord.ButtonStyle.success if answer == "a" else discord.ButtonStyle.danger,
            custom_id=f"pbm:p:{game_id}:{proposal_id}:{answer}",
        )
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ProposalButton:
        return cls(int(match["game"]), int(match["proposal"]), match["answer"])

    @answers_failures("button proposal")
    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = bot_of(interaction)
        player = await bot.front.player_id(interaction.user)
        store = bot.actions.store
        current = await store.open_proposal(self.game_id)
        if current is None or current.id != self.proposal_id:
            await answer(interaction, f"proposal {self.proposal_id} is no longer open", ephemeral=True)
            try:
                pressed = await store.load_proposal(self.proposal_id)
            except NotFoundError:
                return
            if pressed.game_id == self.game_id and pressed.status == "void" and pressed.message_id is not None:
                await bot.front.close_void(pressed, interaction.message)  # its buttons go: nothing to press
            return
        result = await bot.actions.answer(self.game_id, player, accept=self.answer == "a")
        if not result.ok:
            await answer(interaction, result.message, ephemeral=True)
            settled = await store.load_proposal(self.proposal_id)
            if settled.status == "void" and settled.message_id is not None:  # the game moved on
                await bot.front.close_void(settled, interaction.message)
            return
        if result.status == "open":
            await _append_line(interaction.message, result.message)
            await answer(interaction, result.message, ephemeral=True)
            return
        await bot.front.close_proposal(self.proposal_id, result.message.splitlines()[0], interaction.message)
        if result.state is None:  # rejected: the proposer hears of it
            await answer(interaction, result.message, ephemeral=True)
            await bot.front.tell(self.game_id, result.message, result.notify)
            return
        await bot.games.after_action(interaction, result)


class PreviewButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pbm:v:(?P<game>\d+):(?P<action>ok|no):(?P<move>.+)"
):
    """Confirm (``ok``) or Cancel (``no``) a previewed move, or a resignation of a Backgammon match (``resign``);
    the custom id carries the move with its ``#n`` guard, so a board that moved on since refuses the confirmation."""

    def __init__(self, game_id: int, action: str, move: str) -> None:
        self.game_id, self.action, self.move = game_id, action, move
        button: discord.ui.Button[Any] = discord.ui.Button(
            label="Confirm" if action == "ok" else "Cancel",
            style=discord.ButtonStyle.success if action == "ok" else discord.ButtonStyle.secondary,
            custom_id=f"pbm:v:{game_id}:{action}:{move}",
        )
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PreviewButton:
        return cls(int(match["game"]), match["action"], match["move"])

    @answers_failures("button preview")
    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        if self.action == "no":
            move = self.move.split("#")[0]
            said = (
                f"You did not resign; game {self.game_id} goes on." if move == "resign" else f"{move} was not played."
            )
            await answer(interaction, said, ephemeral=True)
            return
        bot = bot_of(interaction)
        player = await bot.front.player_id(interaction.user)
        await bot.games.play(interaction, self.game_id, player, self.move)


async def _append_line(message: discord.Message | None, line: str) -> None:
    if message is None:
        return
    try:
        await message.edit(content=f"{message.content}\n{line}"[:2000], allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as exc:
        log.warning("could not update message %s: %s", message.id, exc)


def proposal_view(game_id: int, proposal_id: int) -> discord.ui.View:
    """Accept / Reject for an open proposal."""
    view = discord.ui.View(timeout=None)
    view.add_item(ProposalButton(game_id, proposal_id, "a"))
    view.add_item(ProposalButton(game_id, proposal_id, "r"))
    return view


def preview_view(game_id: int, played: str) -> discord.ui.View | None:
    """Confirm / Cancel under a preview; ``None`` when the move is too long for a button's id (100 characters)."""
    if len(f"pbm:v:{game_id}:ok:{played}") > 100:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(PreviewButton(game_id, "ok", played))
    view.add_item(PreviewButton(game_id, "no", played))
    return view
