"""Dragons tile geometry: hex directions, the eight placements a-h, their regions, and which placements fit a gap.

Everything a move needs per cell is precomputed into small tables here, because the auto-move cascade classifies
every touched gap after every placement and must stay far below a millisecond per move (rules-notes D1, D2, D5).
"""

from __future__ import annotations

from typing import NamedTuple

#: a cell in axial coordinates (q, r) of flat-topped hexagons; the start tile is at (0, 0)
Cell = tuple[int, int]

COLOUR_O, COLOUR_X = 0, 1
COLOUR_NAMES = ("O", "X")

#: edges clockwise from north: 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW, and the neighbour across each (rules-notes D5)
EDGE_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
DIRECTIONS: tuple[Cell, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))

#: the 8 distinct placements, edge colours N NE SE S SW NW (rules-notes D2); a-f shoulders, g-h tails
LETTERS = "abcdefgh"
_COLOURS = ("ooxxxo", "oooxxx", "xoooxx", "xxooox", "xxxooo", "oxxxoo", "oxoxox", "xoxoxo")
EDGE_COLOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(COLOUR_O if ch == "o" else COLOUR_X for ch in word) for word in _COLOURS
)
#: the edge colours of each placement as a bit mask (bit i set = edge i is X)
COLOUR_BITS: tuple[int, ...] = tuple(sum(c << i for i, c in enumerate(cols)) for cols in EDGE_COLOURS)
SHOULDER_COUNT = 6
ALIASES = {"i": "g", "k": "g", "j": "h", "l": "h"}


def is_tail(placement: int) -> bool:
    return placement >= SHOULDER_COUNT


def neighbour(cell: Cell, edge: int) -> Cell:
    dq, dr = DIRECTIONS[edge]
    return (cell[0] + dq, cell[1] + dr)


def screen_key(cell: Cell) -> tuple[int, int]:
    """Sort key of screen order for flat-topped hexes: by row (2r + q), then column (rules-notes D5)."""
    return (2 * cell[1] + cell[0], cell[0])


class Region(NamedTuple):
    """One connected band of one colour on a tile: the edges it reaches."""

    colour: int
    edges: tuple[int, ...]


def _regions(placement: int, crossed: bool) -> tuple[Region, ...]:
    """Regions of a placement. Shoulders and crossed tails have one band per colour; the old disjoint tails have
    one dead-end band per edge (rules-notes D1)."""
    cols = EDGE_COLOURS[placement]
    if is_tail(placement) and not crossed:
        return tuple(Region(cols[e], (e,)) for e in range(6))
    return tuple(Region(c, tuple(e for e in range(6) if cols[e] == c)) for c in (COLOUR_O, COLOUR_X))


#: REGIONS[crossed][placement] and EDGE_REGION[crossed][placement][edge] = index of the region touching that edge
REGIONS: tuple[tuple[tuple[Region, ...], ...], ...] = tuple(
    tuple(_regions(p, crossed) for p in range(8)) for crossed in (False, True)
)
EDGE_REGION: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(next(i for i, reg in enumerate(regs) if e in reg.edges) for e in range(6)) for regs in by_set)
    for by_set in REGIONS
)


def _fit_table() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """FITS[closed][colours]: placements whose edges match the closed sides of a gap (colours masked by closed).
    A placement fits where its own colours, masked the same way, are the gap's: one pass over the eight per
    ``closed`` sorts them by that masked value, and every ``colours`` looks its answer up."""
    table = []
    for closed in range(64):
        fitting: dict[int, tuple[int, ...]] = {}
        for placement, bits in enumerate(COLOUR_BITS):
            fitting[bits & closed] = (*fitting.get(bits & closed, ()), placement)
        table.append(tuple(fitting.get(colours & closed, ()) for colours in range(64)))
    return tuple(table)


FITS = _fit_table()
POPCOUNT = tuple(bin(mask).count("1") for mask in range(64))

#: classification of a gap (rules-notes D3)
FREE, AUTO, GAP, DEAD = "free", "auto", "gap", "dead"


def _kind_table() -> tuple[tuple[str, ...], ...]:
    """KIND[closed][colours]: the classification of a gap, which depends only on the colours of its closed sides."""
    table = []
    for closed in range(64):
        kinds = {masked: _kind(closed, FITS[closed][masked]) for masked in {c & closed for c in range(64)}}
        table.append(tuple(kinds[colours & closed] for colours in range(64)))
    return tuple(table)


def _kind(closed: int, fits: tuple[int, ...]) -> str:
    if not fits:
        return DEAD
    if POPCOUNT[closed] >= 3 and len(fits) == 1:
        return GAP if is_tail(fits[0]) else AUTO
    return FREE


KIND = _kind_table()


def describe(placement: int) -> str:
    """Human description of a placement, e.g. ``shoulder, O on NW N NE``."""
    cols = EDGE_COLOURS[placement]
    start = next(e for e in range(6) if cols[e] == COLOUR_O and cols[e - 1] == COLOUR_X)
    o_edges = " ".join(EDGE_NAMES[(start + k) % 6] for k in range(6) if cols[(start + k) % 6] == COLOUR_O)
    face = "tail" if is_tail(placement) else "shoulder"
    return f"{face}, O on {o_edges}"
