"""A tiny seeded random number generator whose whole state is one integer.

Dice are part of a game's state, so the generator must serialise to a few bytes of JSON and replay exactly
on any machine and any Python version. ``random.Random`` carries 625 words of state; SplitMix64 carries one.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class Rng:
    """SplitMix64 (Steele, Lea, Flood 2014): passes BigCrush, one 64-bit word of state."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """Return the next 64-bit output."""
        self.state = (self.state + _GOLDEN) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)``, without modulo bias (rejection sampling)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def randrange(self, n: int) -> int:
        """The same as :meth:`below`, under ``random.Random``'s name, so the rules' fast random-move APIs take
        either generator."""
        return self.below(n)

    def die(self, sides: int = 6) -> int:
        """Roll one die: a uniform integer in ``[1, sides]``."""
        return 1 + self.below(sides)

    def choice(self, items: list) -> object:
        """Return one element of a non-empty list, uniformly."""
        return items[self.below(len(items))]


def output_at(seed: int, index: int) -> int:
    """What call number ``index`` (from 0) of ``Rng(seed).next64()`` returns, without the calls before it: after
    k steps SplitMix64's state is ``seed + k * golden``, so a table of fixed keys computes only the entries it
    uses (Drogo's 6x6 board needs 432 of its 6,912 position keys, and every console command starts afresh)."""
    z = (seed + (index + 1) * _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)
