"""A game's memory (:meth:`rules.base.GameState.memory`) as the store keeps it: unsigned 64-bit values packed eight
bytes each, little-endian, oldest first.

Drogo remembers one position hash per placement, thousands in a long game, and every move reads them all back and
appends one. Kept packed, they travel between the store and the rules as one ``bytes`` object: no Python number is
made per value on load, a membership test is a byte search in C, and appending is a copy of eight bytes.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import overload

#: bytes per value
WIDTH = 8
_SWAP = sys.byteorder != "little"


class Memory(Sequence[int]):
    """Packed values, read-only: a sequence of ints that compares equal to any sequence of the same ints."""

    __slots__ = ("data",)

    def __init__(self, data: bytes | bytearray = b"") -> None:
        """``data`` is the packed form; :class:`ValueError` if it is not a whole number of values."""
        if len(data) % WIDTH:
            raise ValueError(f"{len(data)} bytes are not a whole number of {WIDTH}-byte values")
        self.data = bytes(data)

    @classmethod
    def of(cls, values: Iterable[int]) -> Memory:
        """``values`` packed (a :class:`Memory` is returned as it is); :class:`ValueError` for a value that is
        not an unsigned 64-bit integer."""
        if isinstance(values, Memory):
            return values
        try:
            packed = array("Q", values)
        except (OverflowError, TypeError) as exc:
            raise ValueError("memory values must be unsigned 64-bit integers") from exc
        if _SWAP:
            packed.byteswap()
        return cls(packed.tobytes())

    def values(self) -> list[int]:
        """Every value, oldest first."""
        return unpack(self.data)

    def __len__(self) -> int:
        return len(self.data) // WIDTH

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> Memory: ...

    def __getitem__(self, index: int | slice) -> int | Memory:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step == 1:
                return Memory(self.data[start * WIDTH : max(start, stop) * WIDTH])
            return Memory.of(self.values()[index])
        count = len(self)
        at = index + count if index < 0 else index
        if not 0 <= at < count:
            raise IndexError("memory index out of range")
        return int.from_bytes(self.data[at * WIDTH : (at + 1) * WIDTH], "little")

    def __iter__(self) -> Iterator[int]:
        return iter(self.values())

    def __contains__(self, value: object) -> bool:
        return isinstance(value, int) and contains(self.data, value)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Memory):
            return self.data == other.data
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes, bytearray)):
            return len(other) == len(self) and self.values() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to lists, which have no hash

    def __repr__(self) -> str:
        return f"Memory({self.values()!r})"


def pack(value: int) -> bytes:
    """One value's eight bytes, to append to a packed ``bytearray``."""
    return value.to_bytes(WIDTH, "little")


def unpack(data: bytes | bytearray) -> list[int]:
    """The values of a packed buffer, oldest first."""
    values = array("Q")
    values.frombytes(data)
    if _SWAP:
        values.byteswap()
    return values.tolist()


def contains(data: bytes | bytearray, value: int) -> bool:
    """Whether packed ``data`` holds ``value``: a byte search, where a match must start on a value's boundary."""
    if not 0 <= value < 1 << 64:
        return False
    needle = pack(value)
    at = data.find(needle)
    while at >= 0:
        if at % WIDTH == 0:
            return True
        at = data.find(needle, at - at % WIDTH + WIDTH)
    return False
