"""Druid (Cameron Browne, 2004) as pbmserv played it: square, hex-hex (two or three players), Y, Walk.

Players stack sarsens (one-cell cubes) and lintels (three-cell beams) and try to join their sides with a path of
cells whose *top* stone is theirs. Everything needed to draw the monument is kept: every stone ever placed, in
order, with its level, so a renderer can show gaps under lintels and the stones that lie buried.

Geometry follows rules-notes.md DU-1 (coordinates of the three board shapes), DU-3 (lintel test), DU-4 (goals),
DU-5 (pass, draw and pbmserv's seat-exchanging swap) and DU-6 (Druid's Walk).

The engine is split by concern: :mod:`.board` (the three board shapes), :mod:`.moves` (moves and stones),
:mod:`.options` (challenge options and help), :mod:`.state` (the game and its rules) and :mod:`.text` (the text
board). ``GAME`` is what the registry loads.
"""

from __future__ import annotations

from rules.base import GameDef
from rules.druid.board import ALL_DIRECTIONS, HEX, SIDE_NAMES, SQUARE, YBOARD, Board, board_for
from rules.druid.moves import Lintel, Pass, Sarsen, Step, Stone, Swap
from rules.druid.options import HELP, NOTATION, OPTIONS, SIZES, board_kind, validate
from rules.druid.state import DruidState

GAME = GameDef(
    name="druid",
    title="Druid",
    summary="Build sarsens and lintels in 3D to join your sides; upper stones cut lower paths.",
    options=OPTIONS,
    min_players=2,
    max_players=3,
    state_class=DruidState,
    help=HELP,
    notation=NOTATION,
    validate=validate,
    extra_commands=("pass", "swap"),
)
DruidState.game = GAME

__all__ = [
    "ALL_DIRECTIONS",
    "GAME",
    "HELP",
    "HEX",
    "NOTATION",
    "OPTIONS",
    "SIDE_NAMES",
    "SIZES",
    "SQUARE",
    "YBOARD",
    "Board",
    "DruidState",
    "Lintel",
    "Pass",
    "Sarsen",
    "Step",
    "Stone",
    "Swap",
    "board_for",
    "board_kind",
    "validate",
]
