"""The turn message as a layout message (Discord's "components v2"): one container that reads from the top on a
phone, the way a player looks at a turn —

1. a header: the game and its number, then who is to move (or how the game ended) in large type, and the clock
   of each player, where a Backgammon match stands, and whether the game is rated, with each player's rating, in
   small type under it;
2. what just happened (the moves played, rolls, captures), without the status line the header already shows;
3. the board picture, in a media gallery (it fills the container's width; its alt text says which board it is);
4. the ping of the player to move and the spectators' mentions, next to
5. the controls: the menu of legal moves on a row of its own, the one-word buttons five to a row, or Replay;
6. a link button "Open board" to the game's web page, when ``PBM_WEB_PUBLIC_URL`` is set.

At most 17 components of Discord's 40, and the text is kept within Discord's 4,000 characters for a message's
text displays (what happened is shortened first; the header and the pings are always kept). A layout message
has no ``content``: everything is in the components, which is also why it is only used where the board is a
picture; the text board goes in a plain message (see :meth:`bot.discord.front.Front.post_turn`).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.actions import Result
from bot.discord.buttons import MoveSelect, move_items
from bot.turn_text import clock_words, happened, headline, rating_words, running_match_words

#: Discord's limit on the text of all the text displays of one message
MAX_TEXT = 4000
#: Discord's limit on a media item's alt text
MAX_ALT_TEXT = 1024
#: buttons in one action row (Discord's limit)
ROW_WIDTH = 5


def clock_line(result: Result) -> str:
    """Each player's clock in a few words, in small type; "" for an untimed or finished game."""
    words = clock_words(result)
    return f"-# clock: {words}" if words else ""


def match_line(result: Result) -> str:
    """Where the Backgammon match stands while the game runs, in small type: "-# Match 1 to 5, game 3: alice 2,
    bob 1"; "" for a game that is no match's, or is over (what it did to the match is in what happened)."""
    words = running_match_words(result)
    return f"-# {words}" if words else ""


def rating_line(result: Result) -> str:
    """Rated or unrated, and each player's rating, in small type: "-# rated: alice 1532, bob 1000?"."""
    header = rating_words(result)
    return f"-# {header}" if header else ""


def turn_text(result: Result, limit: int = MAX_TEXT) -> str:
    """What a turn says, in ``limit`` characters: the headline, the clocks, the ratings, and what happened (cut
    to fit; the lines above it are always kept), worded by :mod:`bot.turn_text` and set in Discord's markdown.
    Every message that shows a game's position says it with this (the turn layout's text, a plain turn message,
    ``/board``), so what a screen reader or a notification reads does not depend on which message it is."""
    parts = (f"### {headline(result)}", clock_line(result), match_line(result), rating_line(result))
    top = "\n".join(part for part in parts if part)
    body = happened(result)
    room = limit - len(top) - 1
    if len(body) > room:
        body = body[: max(0, room - 1)].rstrip() + "…"
    return f"{top}\n{body}" if body else top


def control_rows(result: Result) -> list[discord.ui.ActionRow[Any]]:
    """The turn's controls in rows: a select menu alone on its row, buttons five to a row."""
    rows: list[discord.ui.ActionRow[Any]] = []
    buttons: list[discord.ui.Item[Any]] = []
    for item in move_items(result):
        if isinstance(item, MoveSelect):
            rows.append(discord.ui.ActionRow(item))
        else:
            buttons.append(item)
    for start in range(0, len(buttons), ROW_WIDTH):
        rows.append(discord.ui.ActionRow(*buttons[start : start + ROW_WIDTH]))
    return rows


def open_board_row(board_url: str | None) -> list[discord.ui.ActionRow[Any]]:
    """A row with the link button "Open board" to the game's web page, when the web UI has a public address."""
    if not board_url:
        return []
    return [discord.ui.ActionRow(discord.ui.Button(style=discord.ButtonStyle.link, label="Open board", url=board_url))]


def turn_layout(result: Result, picture: str, pings: str, board_url: str | None = None) -> discord.ui.LayoutView:
    """The turn message for ``result``: the board is the uploaded file named ``picture`` (sent with the message),
    ``pings`` the line of mentions ("" for none), ``board_url`` the game's web page (an "Open board" link button;
    ``None``: none). Persistent: its controls are dynamic items, answered after a restart too."""
    alt = f"{headline(result)}: the board"[:MAX_ALT_TEXT]
    parts: list[discord.ui.Item[Any]] = [
        discord.ui.TextDisplay(turn_text(result, MAX_TEXT - len(pings))),
        discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{picture}", description=alt)),
    ]
    if pings:
        parts.append(discord.ui.TextDisplay(pings))
    parts += control_rows(result) + open_board_row(board_url)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(*parts))
    return view
