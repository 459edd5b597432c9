"""A game as the web page shows it, built from the same actions every front uses (``show``, ``history``) and worded
by :mod:`bot.turn_text`: the public view (board, whose turn, clocks as seconds the page counts down, the move list,
options, ratings, the result) that every viewer sees and Server-Sent Events push, and what only a player sees
beside it (their legal moves and the game's one-word commands, their queued lines, a proposal to answer).

Nothing here reads or writes a dice seed or a future roll: the public view names the fields it shows one by one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bot.actions import Actions, Result
from bot.correspondence.clock import Clock
from bot.turn_text import clock_words, headline, rating_words
from bot.web.boards import TOP, BoardCache, board_of, view_refusal
from data.store import NotFoundError, StoreError
from rules import registry
from rules.base import GameError

#: a numbered line of ``history``: "  12. alice (6-5): 13-8,6-5 (Auto)"
_HISTORY_LINE = re.compile(r"^\s*(?P<n>\d+)\. (?P<text>.*)$")
#: the most move-list entries a view carries (the newest; the page says how many came before)
HISTORY_SHOWN = 500


@dataclass
class GameView:
    """What every viewer of a game sees (:meth:`public`), the :class:`Result` it comes from, and the game's
    stored facts the page shows beside it."""

    result: Result
    at: int | None
    view: str
    version: str
    options: str
    rules: str
    history: list[dict[str, Any]]
    history_skipped: int
    board: dict[str, str]
    channel_id: int | None
    extra_commands: tuple[str, ...]
    as_of: float = 0.0
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def game_id(self) -> int:
        assert self.result.game_id is not None
        return self.result.game_id

    @property
    def current(self) -> bool:
        """Whether this is the game as it stands (not a past position)."""
        return self.at is None

    def public(self) -> dict[str, Any]:
        """The view as JSON for the page's scripts and the event stream: the same for everyone."""
        return self.data


def version_text(version: tuple[int, float | None, str]) -> str:
    """A game's version (:meth:`data.store.web.WebStore.game_versions`) as the event stream's id: it changes with
    every move, clock pause and ending."""
    log_length, deadline, status = version
    return f"{log_length}-{status}-{'' if deadline is None else int(deadline)}"


def history_entries(items: list[str]) -> list[dict[str, Any]]:
    """The move list as entries: a numbered move (``n``: the position after it) or a note (``n``: ``None``)."""
    out = []
    for line in items:
        found = _HISTORY_LINE.match(line)
        if found:
            out.append({"n": int(found["n"]), "text": found["text"]})
        else:
            out.append({"n": None, "text": line.strip()})
    return out


async def game_view(
    actions: Actions, boards: BoardCache, game_id: int, at: int | None = None, view: str = TOP
) -> GameView | Result:
    """The view of a game (after move ``at``, or as it stands) with its board drawn in ``view``; a refusal
    :class:`Result` for an unknown or unreadable game, a move number it does not have, or a view its boards are
    not drawn in (refused before anything is drawn)."""
    shown = await actions.show(game_id, at)
    if not shown.ok or shown.state is None:
        return shown
    refused = view_refusal(shown.state.game.name, view)
    if refused is not None:
        return Result(ok=False, message=refused, game_id=game_id)
    try:
        row = await actions.store.load_game(game_id)
    except NotFoundError as exc:
        return Result(ok=False, message=str(exc), game_id=game_id)
    except StoreError as exc:
        return Result(ok=False, message=f"game {game_id} cannot be read: {exc}", game_id=game_id)
    listed = await actions.history(game_id)
    entries = history_entries(listed.items if listed.ok else [])
    skipped = max(0, len(entries) - HISTORY_SHOWN)
    entries = entries[skipped:]
    state = shown.state
    game = state.game
    label = f"{headline(shown)}: the board" + (" in 3D" if view == "3d" else "")
    png_url = f"/g/{game_id}/board.png" + (f"?at={at}" if at is not None else f"?v={row.log_length}")
    png_url += "" if view == TOP else f"&view={view}"
    board = await board_of(boards, state, shown.seat_ratings() or None, label, png_url, view)
    version = version_text((row.log_length, row.deadline, row.status))
    rules = Clock.from_json(row.clock).rules.describe() if row.clock is not None else "untimed"
    view = GameView(
        result=shown,
        at=at,
        view=view,
        version=version,
        options=game.format_options(row.options),
        rules=rules,
        history=entries,
        history_skipped=skipped,
        board=board,
        channel_id=row.channel_id,
        extra_commands=tuple(game.extra_commands),
        as_of=actions.store.now(),
    )
    view.data = _public_data(view, row.players)
    return view


def _public_data(view: GameView, seats: list[str]) -> dict[str, Any]:
    """The public view's JSON (see :meth:`GameView.public`)."""
    result = view.result
    state = result.state
    assert state is not None
    running = (
        result.to_move if result.clock_notes.get(result.to_move or "") not in (None, "paused (vacation)") else None
    )
    return {
        "game_id": view.game_id,
        "game": state.game.name,
        "title": state.game.title,
        "players": list(state.players),
        "seats": seats,
        "at": view.at,
        "view": view.view,
        "move_number": result.move_number,
        "guard": (result.move_number or 0) + 1 if result.to_move is not None and view.current else None,
        "status": result.status,
        "to_move": result.to_move,
        "winners": result.winners,
        "headline": headline(result),
        "clock": {player: round(seconds) for player, seconds in result.clock.items()},
        "clock_words": clock_words(result),
        "clock_notes": dict(result.clock_notes) if not state.is_over else {},
        "running": running,
        "rated": result.rated,
        "ratings": result.ratings,
        "rating_words": rating_words(result),
        "options": view.options,
        "rules": view.rules,
        "board": view.board,
        "history": view.history,
        "history_skipped": view.history_skipped,
        "version": view.version,
        # when the clocks above were read (the server's time): a page that gets this view later counts from here
        "as_of": view.as_of,
    }


def player_extras(view: GameView, viewer: str | None) -> dict[str, Any]:
    """What the viewer sees beside the public view when they play in the game: whether it is their move, their
    legal moves (the typed ones, and the game's one-word commands apart)."""
    result = view.result
    if viewer is None or result.state is None or viewer not in result.state.players or not view.current:
        return {"viewer": viewer, "plays": False, "my_move": False, "legal_moves": [], "words": []}
    mine = result.to_move == viewer and result.status == "active"
    legal = result.legal_move_texts() if mine else []
    words = [m for m in legal if m in view.extra_commands]
    return {
        "viewer": viewer,
        "plays": True,
        "my_move": mine,
        "legal_moves": [m for m in legal if m not in view.extra_commands],
        "words": words,
    }


def game_title(name: str) -> str:
    """A game's title ("Druid") from its name, or the name itself for a game this pbm does not know."""
    try:
        return registry.get(name).title
    except GameError:
        return name.capitalize()
