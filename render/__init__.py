"""Board pictures from rules states. One module per game, ``render.<game>``, each with
``render_png(state, clock=None, ratings=None) -> bytes``; this package only dispatches, importing a game's renderer
on first use.

A game drawn as a scene (render.scene: one description of shapes and text, tagged with the board's coordinates)
also has ``scene(state, clock=None, ratings=None) -> Scene``; its PNG is render.png's drawing of that scene and its
SVG render.svg's, so the two always agree. Every game is (:data:`SCENE_GAMES`).

Views: every board has its main picture, ``view="top"`` (for Druid and Drogo the top-down board, which carries the
whole position). A game whose module also has ``scene_3d(state, clock=None, ratings=None) -> Scene`` offers a
second picture, ``view="3d"``: its monument seen from the front, asked for when wanted (``show <id> 3d``, a
"3D view" button). :func:`has_3d` says which games do; the dispatchers below take ``view`` and raise LookupError for
a view a game does not have.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import TYPE_CHECKING

from rules.base import GameState

if TYPE_CHECKING:  # a console show imports this package to key its cached picture: it draws nothing
    from render.scene import Scene

#: the games whose boards are drawn as scenes, and so also have an SVG
SCENE_GAMES = ("backgammon", "dragons", "drogo", "druid")
#: the views a board may be drawn in: the main picture, and the 3D view of the games that have one
VIEWS = ("top", "3d")


def _module(game: str) -> ModuleType:
    return importlib.import_module(f"render.{game}")


def has_3d(game: str) -> bool:
    """Whether ``game`` (a game's name, as ``state.game.name``) has a 3D view: ``view="3d"`` draws it."""
    return hasattr(_module(game), "scene_3d")


def _check_view(state: GameState, view: str) -> None:
    """LookupError for a view that is not one of :data:`VIEWS`, or a 3D view of a game that has none."""
    if view not in VIEWS:
        raise LookupError(f"no view {view!r}: the views are {', '.join(VIEWS)}")
    if view == "3d" and not has_3d(state.game.name):
        raise LookupError(f"{state.game.title} boards have no 3D view")


def board_png(
    state: GameState,
    clock: Mapping[int, str] | None = None,
    ratings: Mapping[int, str] | None = None,
    view: str = "top",
) -> bytes:
    """The PNG of ``state``'s board, drawn by that game's renderer. ``clock`` maps a seat to a short note about
    that player's time, already formatted ("6d 23h left", "7d per move", "paused (vacation)"), shown in the
    header beside the seat; seats without a note get none, and no clock draws the picture without notes.
    ``ratings`` maps a seat to what follows the player's name in the header, in brackets: their rating
    ("1532", "1000?") or "unrated". ``view``: "top" (the main picture) or "3d" (see :func:`has_3d`)."""
    _check_view(state, view)
    if view == "3d":
        from render.png import png

        return png(_module(state.game.name).scene_3d(state, clock=clock, ratings=ratings))
    return _module(state.game.name).render_png(state, clock=clock, ratings=ratings)


def board_scene(
    state: GameState,
    clock: Mapping[int, str] | None = None,
    ratings: Mapping[int, str] | None = None,
    view: str = "top",
) -> Scene:
    """The scene of ``state``'s board (arguments as for :func:`board_png`). Raises LookupError for a view the game
    does not have."""
    _check_view(state, view)
    name = state.game.name
    if view == "3d":
        return _module(name).scene_3d(state, clock=clock, ratings=ratings)
    return _module(name).scene(state, clock=clock, ratings=ratings)


def board_svg(
    state: GameState,
    clock: Mapping[int, str] | None = None,
    ratings: Mapping[int, str] | None = None,
    view: str = "top",
) -> str:
    """The SVG of ``state``'s board (arguments as for :func:`board_png`): the same scene as its PNG, every
    point, cell and spot a tagged element. LookupError as for :func:`board_scene`."""
    from render.svg import svg

    return svg(board_scene(state, clock, ratings, view))
