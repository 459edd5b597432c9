"""Druid's moves (a sarsen, a lintel, a druid's step, pass, pbmserv's swap) and the stones they leave: immutable
values, printed as a player types them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


@dataclass(frozen=True)
class Sarsen:
    """A one-cell stone on ``cell`` (lower-case name, like ``c3``)."""

    cell: str

    def __str__(self) -> str:
        return self.cell


@dataclass(frozen=True)
class Lintel:
    """A three-cell beam from ``a`` to ``b`` (ends two cells apart), kept in the order typed so that the history
    shows what the player wrote."""

    a: str
    b: str

    def __str__(self) -> str:
        return f"{self.a}-{self.b}"


@dataclass(frozen=True)
class Step:
    """The mover's druid steps one cell in ``direction`` (Walk only)."""

    direction: str

    def __str__(self) -> str:
        return self.direction


@dataclass(frozen=True)
class Pass:
    """The player places nothing this turn."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Swap:
    """pbmserv's swap: the two players exchange seats, the board stays as it is."""

    def __str__(self) -> str:
        return "swap"


class Stone(NamedTuple):
    """A placed stone: owner seat, kind (``s`` sarsen, ``l`` lintel), level of its top (1 = on the ground) and
    its cells (a lintel's are end, middle, end, as typed)."""

    owner: int
    kind: str
    level: int
    cells: tuple[int, ...]
