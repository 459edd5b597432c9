"""Board pictures from rules states. One module per game, ``render.<game>``, each with
``render_png(state, clock=None, ratings=None) -> bytes``; this package only dispatches, importing a game's renderer
on first use.

A game drawn as a scene (render.scene: one description of shapes and text, tagged with the board's coordinates)
also has ``scene(state, clock=None, ratings=None) -> Scene``; its PNG is render.png's drawing of that scene and its
SVG render.svg's, so the two always agree. Backgammon and Dragons are; Druid and Drogo draw their PNG directly
until they are ported (:data:`SCENE_GAMES` lists the games that are).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING

from rules.base import GameState

if TYPE_CHECKING:  # a console show imports this package to key its cached picture: it draws nothing
    from render.scene import Scene

#: the games whose boards are drawn as scenes, and so also have an SVG
SCENE_GAMES = ("backgammon", "dragons")


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


def board_scene(
    state: GameState, clock: Mapping[int, str] | None = None, ratings: Mapping[int, str] | None = None
) -> Scene:
    """The scene of ``state``'s board (arguments as for :func:`board_png`). Raises LookupError for a game not
    drawn as a scene yet (not in :data:`SCENE_GAMES`)."""
    name = state.game.name
    if name not in SCENE_GAMES:
        raise LookupError(f"{name} boards are not drawn as scenes yet, so they have no SVG")
    module = importlib.import_module(f"render.{name}")
    return module.scene(state, clock=clock, ratings=ratings)


def board_svg(
    state: GameState, clock: Mapping[int, str] | None = None, ratings: Mapping[int, str] | None = None
) -> str:
    """The SVG of ``state``'s board (arguments as for :func:`board_png`): the same scene as its PNG, every
    point, cell and spot a tagged element. LookupError as for :func:`board_scene`."""
    from render.svg import svg

    return svg(board_scene(state, clock, ratings))
