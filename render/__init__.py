"""Board pictures (PNG) from rules states. One module per game, ``render.<game>``, each with
``render_png(state) -> bytes``; this package only dispatches, importing a game's renderer on first use."""

from __future__ import annotations

import importlib

from rules.base import GameState


def board_png(state: GameState) -> bytes:
    """The PNG of ``state``'s board, drawn by that game's renderer."""
    module = importlib.import_module(f"render.{state.game.name}")
    return module.render_png(state)
