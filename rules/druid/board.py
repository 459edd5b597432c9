"""Druid's three board shapes (rules-notes.md DU-1): cells by column and row, neighbours by direction, the lines a
lintel can span and the sides as bitmasks. A :class:`Board` never changes, so :func:`board_for` shares one per
shape and size between every game, the renderers and the computer players.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rules.druid.moves import Lintel, Sarsen, Step

SQUARE, HEX, YBOARD = "square", "hex", "y"

#: (direction name, offset) per board shape: square offsets are (column, row); hex and Y offsets are axial (q, r)
_DIRECTIONS: dict[str, tuple[tuple[str, tuple[int, int]], ...]] = {
    SQUARE: (("n", (0, 1)), ("e", (1, 0)), ("s", (0, -1)), ("w", (-1, 0))),
    HEX: (("n", (0, -1)), ("ne", (1, -1)), ("se", (1, 0)), ("s", (0, 1)), ("sw", (-1, 1)), ("nw", (-1, 0))),
    YBOARD: (("n", (0, -1)), ("ne", (1, -1)), ("se", (1, 0)), ("s", (0, 1)), ("sw", (-1, 1)), ("nw", (-1, 0))),
}
ALL_DIRECTIONS = frozenset(name for dirs in _DIRECTIONS.values() for name, _ in dirs)

SIDE_NAMES = {
    "bottom": "bottom row",
    "top": "top row",
    "left": "left column",
    "right": "right column",
    "W": "W side",
    "E": "E side",
    "NW": "NW side",
    "NE": "NE side",
    "SE": "SE side",
    "SW": "SW side",
}


class Board:
    """Cells of one board shape and size: names, neighbours by direction, lintel lines and sides as bitmasks.

    Cells are numbered column by column from the bottom; ``col``/``row`` (row 1-based) name them and ``y2`` is
    the cell's height above the board's lowest point in half cells, which both the text board and the renderer
    use to place hex and Y columns that are offset by half a cell.
    """

    def __init__(self, kind: str, size: int) -> None:
        self.kind = kind
        self.size = size
        cells = _cells(kind, size)
        self.ncells = len(cells)
        self.col = tuple(c for c, _ in cells)
        self.row = tuple(r for _, r in cells)
        self.ncols = max(self.col) + 1
        self.col_len = tuple(sum(1 for c in self.col if c == k) for k in range(self.ncols))
        self.names = tuple(f"{chr(97 + c)}{r}" for c, r in cells)
        self.index = {name: i for i, name in enumerate(self.names)}
        self.y2 = tuple(_offset(kind, size, c) + 2 * (r - 1) for c, r in cells)
        self.dirs = tuple(name for name, _ in _DIRECTIONS[kind])
        self.step = tuple(tuple(self._neighbour(i, d) for d in range(len(self.dirs))) for i in range(self.ncells))
        self.nbr_mask = tuple(sum(1 << j for j in self.step[i] if j >= 0) for i in range(self.ncells))
        self.neighbours = tuple(tuple(j for j in self.step[i] if j >= 0) for i in range(self.ncells))
        self.lines: dict[tuple[int, int], int] = {}
        for a in range(self.ncells):
            for d in range(len(self.dirs)):
                m = self.step[a][d]
                b = self.step[m][d] if m >= 0 else -1
                if b >= 0:
                    self.lines[(a, b)] = m
        self.line_list = tuple((a, m, b) for (a, b), m in self.lines.items() if a < b)
        #: the move objects of every sarsen (by cell) and lintel (by line), made once per board: moves are
        #: immutable, and listing the legal moves then builds nothing
        self.sarsens = tuple(Sarsen(name) for name in self.names)
        self.lintels = tuple(Lintel(self.names[a], self.names[b]) for a, _, b in self.line_list)
        self.step_moves = tuple(Step(name) for name in self.dirs)
        self.sides = {name: sum(1 << i for i in range(self.ncells) if test(i)) for name, test in self._side_tests()}
        self.full = (1 << self.ncells) - 1

    def _axial(self, i: int) -> tuple[int, int]:
        return _to_axial(self.kind, self.size, self.col[i], self.row[i])

    def _neighbour(self, i: int, d: int) -> int:
        dq, dr = _DIRECTIONS[self.kind][d][1]
        q, r = self._axial(i)
        col, row = _from_axial(self.kind, self.size, q + dq, r + dr)
        return self.index.get(f"{chr(97 + col)}{row}", -1) if col >= 0 and row >= 1 else -1

    def _side_tests(self) -> list[tuple[str, Any]]:
        n, m = self.size, self.size - 1
        if self.kind == SQUARE:
            return [
                ("bottom", lambda i: self.row[i] == 1),
                ("top", lambda i: self.row[i] == n),
                ("left", lambda i: self.col[i] == 0),
                ("right", lambda i: self.col[i] == m),
            ]
        if self.kind == HEX:
            qrs = [(q, r, -q - r) for q, r in map(self._axial, range(self.ncells))]
            return [
                ("W", lambda i: qrs[i][0] == -m),
                ("E", lambda i: qrs[i][0] == m),
                ("NW", lambda i: qrs[i][2] == m),
                ("NE", lambda i: qrs[i][1] == -m),
                ("SE", lambda i: qrs[i][2] == -m),
                ("SW", lambda i: qrs[i][1] == m),
            ]
        return [
            ("W", lambda i: self.col[i] == 0),
            ("SE", lambda i: self.row[i] == 1),
            ("NE", lambda i: self.row[i] == n - self.col[i]),
        ]

    def cell_range(self) -> str:
        """Columns and rows in words, for 'off the board' refusals."""
        last = chr(64 + self.ncols)
        return f"columns A-{last}, rows 1-{max(self.col_len)}"


def _cells(kind: str, n: int) -> list[tuple[int, int]]:
    """(column, row) of every cell, column by column, bottom up."""
    if kind == SQUARE:
        return [(c, r) for c in range(n) for r in range(1, n + 1)]
    if kind == HEX:
        return [(c, r) for c in range(2 * n - 1) for r in range(1, 2 * n - abs(c - n + 1))]
    return [(c, r) for c in range(n) for r in range(1, n - c + 1)]


def _offset(kind: str, n: int, col: int) -> int:
    """Half cells between the board's lowest point and the bottom cell of column ``col``."""
    if kind == SQUARE:
        return 0
    if kind == HEX:
        return abs(col - n + 1)
    return col


def _to_axial(kind: str, n: int, col: int, row: int) -> tuple[int, int]:
    if kind == SQUARE:
        return col, row
    if kind == HEX:
        q = col - (n - 1)
        return q, n - row - max(q, 0)
    return col, 1 - row - col


def _from_axial(kind: str, n: int, q: int, r: int) -> tuple[int, int]:
    if kind == SQUARE:
        return q, r
    if kind == HEX:
        return q + n - 1, n - r - max(q, 0)
    return q, 1 - r - q


@lru_cache(maxsize=64)
def board_for(kind: str, size: int) -> Board:
    """Boards are immutable and shared by every game of the same shape and size."""
    return Board(kind, size)
