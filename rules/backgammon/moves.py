"""Backgammon's moves (a checker play, no move, roll, take, drop, double, a mode toggle) and how a play is written:
the colours, a pip's point number in pbmserv's board (``B`` the bar, ``H`` home) and the text of steps and dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.backgammon.movegen import BAR, OFF, Step

EKS, OHS = 0, 1  # colour indices: X (eks) and O (ohs)
COLOUR_NAMES = ("X", "O")


def absolute(colour: int, pip: int) -> int:
    """The board's point number of a colour's pip (1..24)."""
    return pip if colour == OHS else 25 - pip


def point_name(colour: int, pip: int) -> str:
    """How a pip is written in moves: 1..24, ``B`` for the bar, ``H`` for home (off)."""
    if pip >= BAR:
        return "B"
    if pip <= OFF:
        return "H"
    return str(absolute(colour, pip))


def steps_text(colour: int, steps: Sequence[Step]) -> str:
    """Canonical text of single steps: ``13-7,8-7``, with ``*`` after a step that hits."""
    return ",".join(f"{point_name(colour, s.src)}-{point_name(colour, s.dest)}{'*' if s.hit else ''}" for s in steps)


def dice_text(dice: Sequence[int]) -> str:
    return "-".join(str(d) for d in dice)


@dataclass(frozen=True)
class Play:
    """A whole turn's checker play, as single die steps in the mover's frame.

    Every resulting position has exactly one canonical step list (the one the generator found first), so two
    plays compare equal exactly when they lead to the same position. Its text lists the steps in the order they
    can be played, in absolute points, e.g. ``24-18*,13-11`` or ``B-22,6-H``.
    """

    colour: int
    steps: tuple[Step, ...]

    def __str__(self) -> str:
        return steps_text(self.colour, self.steps)


@dataclass(frozen=True)
class NoMove:
    """The roll cannot be played at all; the server records it for the player."""

    def __str__(self) -> str:
        return "no move"


@dataclass(frozen=True)
class Roll:
    """Roll the dice (manual mode)."""

    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True)
class Take:
    """Accept the offered double. pbmserv took by rolling, so ``roll`` still reads as a take while a double is
    offered; the log says ``take``."""

    def __str__(self) -> str:
        return "take"


@dataclass(frozen=True)
class Drop:
    """Refuse the offered double: the doubler wins at the cube value before the double (rules-notes R-6). A move
    of its own, not a resignation, so the log and the announcement say what happened."""

    def __str__(self) -> str:
        return "drop"


@dataclass(frozen=True)
class Double:
    """Offer a double before rolling (manual mode, cube centred or owned)."""

    def __str__(self) -> str:
        return "double"


@dataclass(frozen=True)
class Toggle:
    """Switch greedy or manual mode for ``seat``; allowed at any time, also out of turn."""

    seat: int
    mode: str

    def __str__(self) -> str:
        return self.mode
