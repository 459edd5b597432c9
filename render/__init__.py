"""Board pictures (PNG) from rules states. One module per game, ``render.<game>``, each with
``render_png(state, clock=None) -> bytes``; this package only dispatches, importing a game's renderer on first use."""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from rules.base import GameState


def board_png(
    state: GameState, clock: Mapping[int, str] | None = None, ratings: Mapping[int, str] | None = None
) -> bytes:
    """The PNG of ``state``'s board, drawn by that game's renderer. ``clock`` maps a seat to a short note about
    that player's time, already formatted ("6d 23h left", "7d per move", "paused (vacation)"), shown in the
    header beside the seat; seats without a note get none, and no clock draws the picture without notes.
    ``ratings`` maps a seat to what follows the player's name in the header, in brackets: their rating
    ("1532", "1000?") or "unrated"."""
    module = importlib.import_module(f"render.{state.game.name}")
    return module.render_png(state, clock=clock, ratings=ratings)
