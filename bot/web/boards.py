"""Boards for the web page, drawn by the same code as the pictures, behind one function (:func:`board_of`): an SVG
(every point, cell and spot a tagged element the page can make tappable); every game is drawn as a scene
(:data:`render.SCENE_GAMES`), so every board on the page is SVG. ``board.png`` still serves any board as a picture.

Drawing is CPU work: it runs on a worker thread, and each drawing is kept (:class:`BoardCache`, keyed by the
position, never shown to anyone: the key covers the state's seed) so a hundred viewers of one position cost one
drawing, and one drawing at a time per position however many ask at once. A board is drawn in one of the views
(:data:`render.VIEWS`): the top-down picture every game has, or the 3D view of the games that have one
(:func:`render.has_3d`, asked for with ``?view=3d``); the view is part of every drawing's key. The web board
carries no clock notes: the page shows the clocks itself, counting down, so a drawing stays true until the
position changes.
"""

from __future__ import annotations

import asyncio
import html
import json
import zlib
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import render
from rules import registry
from rules.base import GameState

#: the view a board is drawn in unless another is asked for
TOP = "top"

#: drawings kept per process
CACHE_SIZE = 256


def view_refusal(game_name: str, view: str) -> str | None:
    """The sentence refusing ``view`` of a game whose boards are not drawn that way (``None``: they are); it
    names the games that have a 3D view, so the reader knows where to find one."""
    if view == TOP or render.has_3d(game_name):
        return None
    title = registry.get(game_name).title
    having = [registry.get(name).title for name in render.SCENE_GAMES if render.has_3d(name)]
    if not having:
        return f"there is no 3D view of {title} boards."
    listed = having[0] if len(having) == 1 else ", ".join(having[:-1]) + " and " + having[-1]
    return f"there is no 3D view of {title} boards; {listed} {'has' if len(having) == 1 else 'have'} one."


def svg_markup(state: GameState, ratings: dict[int, str] | None, label: str, view: str = TOP) -> str:
    """The board as inline SVG in ``view``, labelled for screen readers (``label`` is escaped here): a group, so
    that a reader reaches its places, each named (render.svg: "D4, height 3, alice's")."""
    text = render.board_svg(state, None, ratings or None, view)
    return text.replace("<svg ", f'<svg role="group" aria-label="{html.escape(label)}" ', 1)


def board_png_bytes(state: GameState, ratings: dict[int, str] | None, view: str = TOP) -> bytes:
    """The board as a PNG in ``view`` (any game's ``board.png``)."""
    return render.board_png(state, None, ratings or None, view)


def position_key(state: GameState) -> str:
    """A short key of everything a web board shows of ``state`` (the renderer's code does not change while the
    process runs; the page's boards carry no clock notes)."""
    data = json.dumps(state.to_json(), sort_keys=True, separators=(",", ":")).encode()
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}{len(data):x}"


class BoardCache:
    """Drawings by position, view and kind, the newest :data:`CACHE_SIZE` kept; concurrent requests for one
    drawing share it."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._done: OrderedDict[tuple[str, str, str], Any] = OrderedDict()
        self._drawing: dict[tuple[str, str, str], asyncio.Future[Any]] = {}

    async def get(self, state: GameState, kind: str, draw: Callable[[], Any], view: str = TOP) -> Any:
        """The drawing of ``kind`` (``svg``, ``png``) of ``state`` in ``view``, drawn by ``draw`` on a worker
        thread if it is not kept yet."""
        key = (position_key(state), view, kind)
        if key in self._done:
            self._done.move_to_end(key)
            return self._done[key]
        pending = self._drawing.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            made = await asyncio.to_thread(draw)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: a drawing nobody else waited for must not warn
            raise
        finally:
            self._drawing.pop(key, None)
        future.set_result(made)
        self._done[key] = made
        if len(self._done) > self.size:
            self._done.popitem(last=False)
        return made


async def board_of(
    cache: BoardCache, state: GameState, ratings: dict[int, str] | None, label: str, view: str = TOP
) -> dict[str, str]:
    """The board as the page shows it in ``view`` (one the game has, see :func:`view_refusal`):
    ``{"kind": "svg", "svg": ...}``, drawn once per position and view."""
    svg = await cache.get(state, f"svg {ratings}", lambda: svg_markup(state, ratings, label, view), view)
    return {"kind": "svg", "svg": svg}


async def preview_board(cache: BoardCache, state: GameState, label: str) -> dict[str, str]:
    """The board of a preview (a position nobody else sees, so it has no address)."""
    return await board_of(cache, state, None, label)
