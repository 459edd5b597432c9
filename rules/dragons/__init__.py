"""Dragons (Cameron Browne, 2009): hex tiles with shoulders and tails, auto moves, gap moves and loops.

The engine is split by concern: :mod:`.tiles` (geometry and lookup tables), :mod:`.graph` (dragons, holes,
loops), :mod:`.options` (challenge options and help) and :mod:`.state` (the game). ``GAME`` is what the
registry loads.
"""

from __future__ import annotations

from rules.base import GameDef
from rules.dragons.options import HELP, NOTATION, OPTIONS, validate
from rules.dragons.state import DragonsState, Place, history_moves

GAME = GameDef(
    name="dragons",
    title="Dragons",
    summary="Lay hex tiles to close a loop of your colour through six or more tiles",
    options=OPTIONS,
    min_players=2,
    max_players=2,
    state_class=DragonsState,
    help=HELP,
    notation=NOTATION,
    validate=validate,
    history_moves=history_moves,
)
DragonsState.game = GAME

__all__ = ["GAME", "DragonsState", "Place"]
