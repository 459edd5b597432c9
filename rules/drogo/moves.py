"""Drogo's moves: a placement of one or two cubes, and the forced pass."""

from __future__ import annotations

from dataclasses import dataclass

from rules.drogo.board import cell_name


@dataclass(frozen=True)
class Place:
    """One turn: one piece, or two face-adjacent pieces, each landing on top of its cell's stack.

    ``cells`` are ``(column, row)`` from 0. Two pieces side by side are kept in board order (lower row first, then
    left to right) so that ``d3,c3`` and ``c3,d3`` are the same move; ``c3,c3`` puts the second piece on the first.
    """

    cells: tuple[tuple[int, int], ...]

    def __post_init__(self) -> None:
        if len(self.cells) == 2 and self.cells[0] != self.cells[1]:
            object.__setattr__(self, "cells", tuple(sorted(self.cells, key=lambda cell: (cell[1], cell[0]))))

    def __str__(self) -> str:
        return ",".join(cell_name(col, row) for col, row in self.cells)


@dataclass(frozen=True)
class Pass:
    """The forced pass of a player who has no legal placement (never a voluntary move)."""

    def __str__(self) -> str:
        return "pass"
