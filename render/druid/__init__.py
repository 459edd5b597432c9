"""Druid boards: the top-down board (render.druid.top) is the picture of every turn; the 3D view
(render.druid.iso) is the second picture, asked for when wanted (``render.board_png(state, view="3d")``).
Both are scenes (render.scene) under the shared header (render.druid.words), laid out from one plane geometry
(render.druid.geometry), so they always show the board the same way round.

The tags in use (besides the shared header's): the top-down board's ``board`` holds ``cells`` (every ``cell``,
``id`` its name as typed, ``data`` its ``height``, ``owner`` seat and top ``stone``, sarsen or lintel), ``lintels``
(each ``lintel``, ``id`` its ends as typed, ``data`` its ``owner`` and ``level``) and ``texts`` (each ``druid``, ``id``
its seat, ``data`` its ``cell``); around it ``surround`` holds each goal ``side`` (``data`` its ``owner``), the
``coordinates`` and hex boards' ``side-name``s; ``last-move`` (``id`` ``step`` for a druid's step) or
``winning-path`` (one ``chain`` per chain of cells). The 3D view: ``ground``, ``sides`` (each ``side``), ``stacks``
(each built ``cell`` with its ``height`` and ``owner``, a ``druid`` in it), ``coordinates``, ``last-move`` or
``winning-path``.
"""

from __future__ import annotations

from render import png
from render.common import Clock, Ratings
from render.druid.iso import scene_3d
from render.druid.top import KEY_COLOURS, render_image, replay_images, scene
from rules.druid import DruidState


def render_png(state: DruidState, clock: Clock | None = None, ratings: Ratings | None = None) -> bytes:
    """The top-down board as PNG bytes; ``clock`` and ``ratings`` as for :func:`render.board_png`."""
    return png.png(scene(state, clock, ratings))


__all__ = ["KEY_COLOURS", "render_image", "render_png", "replay_images", "scene", "scene_3d"]
