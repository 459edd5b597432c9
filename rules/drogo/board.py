"""Drogo's board as bitmasks and its position keys: the colours and size limits, cell names, the masks of one board
size (neighbours, flood fill), and one fixed 64-bit key per (colour, level, cell), the same in every process, from
which a position's hash is built.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from rules.rng import output_at

#: colour letters of seats 0..3, in challenge order
COLOURS = "xoyz"
MIN_SIZE = 3
MAX_SIZE = 12


def cell_name(col: int, row: int) -> str:
    """``(2, 2)`` -> ``c3``: column letter, then row number counted from 1 at the bottom."""
    return f"{chr(ord('a') + col)}{row + 1}"


@dataclass(frozen=True)
class Geometry:
    """Bit masks of one board size: cell ``i = row * n + col`` is bit ``1 << i``."""

    n: int
    full: int
    not_first_col: int
    not_last_col: int

    def adjacent(self, mask: int) -> int:
        """Cells orthogonally next to any cell of ``mask`` (the mask itself may be included)."""
        n = self.n
        return (
            ((mask << 1) & self.not_first_col) | ((mask >> 1) & self.not_last_col) | (mask << n) | (mask >> n)
        ) & self.full

    def flood(self, seed: int, within: int) -> int:
        """The connected part of ``within`` that contains the cells of ``seed``."""
        group = seed & within
        while True:
            grown = (group | self.adjacent(group)) & within
            if grown == group:
                return group
            group = grown


@cache
def geometry(n: int) -> Geometry:
    """The masks of an n x n board, made once per size."""
    first_col = sum(1 << (row * n) for row in range(n))
    last_col = first_col << (n - 1)
    full = (1 << (n * n)) - 1
    return Geometry(n, full, full & ~first_col, full & ~last_col)


#: the seed of the position keys: one fixed random 64-bit key per (colour, level, row, column) of the largest board,
#: the same in every process, so that position hashes saved with a game stay valid when it is loaded elsewhere
_KEY_SEED = 0xD206_0C0B


@cache
def _size_keys(n: int) -> tuple[int, ...]:
    """The keys of an n x n board, indexed ``(seat * n + level) * n * n + cell``: key number
    ``((seat * MAX_SIZE + level) * MAX_SIZE + row) * MAX_SIZE + column`` of the seed's sequence, computed for this
    size only."""
    return tuple(
        output_at(_KEY_SEED, ((seat * MAX_SIZE + level) * MAX_SIZE + cell // n) * MAX_SIZE + cell % n)
        for seat in range(len(COLOURS))
        for level in range(n)
        for cell in range(n * n)
    )


def cube_key(seat: int, level: int, cell: int, n: int) -> int:
    """The key of a cube of ``seat`` at ``level`` (from 0) on ``cell`` of an n x n board."""
    return _size_keys(n)[(seat * n + level) * n * n + cell]


@cache
def stack_keys(n: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The same keys arranged ``[cell][level][seat]``: a stack's hash is its seats looked up level by level."""
    keys, area = _size_keys(n), n * n
    seats = range(len(COLOURS))
    by_level = [
        zip(*(keys[(seat * n + level) * area : (seat * n + level + 1) * area] for seat in seats), strict=True)
        for level in range(n)
    ]
    return tuple(zip(*by_level, strict=True))


def bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
