"""A game's memory packed as the store keeps it (:mod:`rules.memory`): it reads as the numbers it holds, and a
search finds a value only where a value starts."""

from __future__ import annotations

import pytest

from rules.memory import Memory, contains, pack


def test_packed_values_read_back_as_the_numbers_they_are() -> None:
    values = [0, 1, 2**64 - 1, 0xDD53A1DD2006FAAB]
    memory = Memory.of(values)
    assert memory.data == b"".join(pack(v) for v in values) and len(memory.data) == 32
    assert memory == values and values == memory and memory == tuple(values) and list(memory) == values
    assert len(memory) == 4 and memory[-1] == 0xDD53A1DD2006FAAB and memory[1] == 1
    assert memory[2:] == values[2:] and isinstance(memory[2:], Memory) and memory[9:] == []
    assert memory[::2] == values[::2]
    assert memory != values[:3] and memory != [*values[:3], 5] and memory != "abcd"
    assert Memory.of(memory) is memory and Memory(memory.data) == memory
    with pytest.raises(IndexError):
        memory[4]


@pytest.mark.parametrize("bad", [[-1], [2**64], [1.5]])
def test_only_unsigned_64_bit_integers_pack(bad: list) -> None:
    with pytest.raises(ValueError, match="unsigned 64-bit"):
        Memory.of(bad)


def test_a_cut_value_is_no_memory() -> None:
    with pytest.raises(ValueError, match="not a whole number"):
        Memory(bytes(12))


def test_a_value_is_found_only_where_a_value_starts() -> None:
    inside = 0x1122334455667788
    # the bytes of ``inside`` straddle the two stored values: a plain byte search would find it
    straddling = Memory(bytes(4) + pack(inside) + bytes(4))
    assert pack(inside) in straddling.data
    assert inside not in straddling and not contains(straddling.data, inside)
    twice = Memory(bytes(4) + pack(inside) + bytes(4) + pack(inside))
    assert inside in twice and contains(bytearray(twice.data), inside)
    assert -1 not in twice and 2**64 not in twice and "x" not in twice
