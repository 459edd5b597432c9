"""Legal play generation for one side to move, in that side's own frame.

A side's checkers are a list of 26 counts indexed by *pip*: the distance a checker still has to travel.
Pip 25 is the bar, pips 1..24 are the points (pip 1 is the last point before home), pip 0 counts the checkers
borne off. The opponent's checkers use the same layout in the opponent's own frame, so a point that is pip ``p``
for the mover is pip ``25 - p`` for the opponent. This is also GNU Backgammon's layout (its index ``i`` is our
pip ``i + 1``), which keeps the differential test a plain copy.

The generator returns every distinct *resulting position* of a maximal play (BG-3). A position is identified
by an integer: the mover's 26 counts packed 4 bits each (15 fits, so no carries) plus, above them, a bit per
pip where an opponent blot was hit. Two plays are the same play exactly when these integers are equal.

Why it is fast enough in pure Python: the opponent cannot change during a play except by losing blots, so the
blocked points are computed once per position; the mover's board is mutated and restored in place rather than
copied; the position key is updated by adding precomputed deltas; and doubles are enumerated as multisets of
steps in non-increasing source order, which reaches every result once instead of once per permutation.
"""

from __future__ import annotations

from typing import NamedTuple

BAR = 25
OFF = 0
#: bit offset of the hit mask inside a position key
HIT_SHIFT = 4 * 26


class Step(NamedTuple):
    """One die's move of one checker, in the mover's frame; ``dest`` is 0 for a checker borne off."""

    src: int
    dest: int
    hit: bool


#: key delta of moving one checker from pip f to pip t (t clamped to 0)
_DELTA: tuple[tuple[int, ...], ...] = tuple(
    tuple((1 << 4 * max(t, 0)) - (1 << 4 * f) for t in range(-6, 26)) for f in range(26)
)


def pack(me: list[int] | tuple[int, ...]) -> int:
    """The key part of a mover's board (no hits)."""
    key = 0
    for pip in range(25, -1, -1):
        key = (key << 4) | me[pip]
    return key


def unpack(key: int) -> tuple[list[int], int]:
    """A position key back into the mover's 26 counts and the hit mask (bit ``p`` = a blot hit on pip ``p``)."""
    me = [(key >> 4 * pip) & 15 for pip in range(26)]
    return me, key >> HIT_SHIFT


def _highest(me: list[int]) -> int:
    """The farthest occupied pip (0 when everything is off); bear-off rules depend on it."""
    pip = BAR
    while pip > 0 and not me[pip]:
        pip -= 1
    return pip


def _targets(opp: list[int] | tuple[int, ...]) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
    """Per mover pip: blocked by two or more opposing checkers, and holding exactly one (a blot)."""
    blocked = [False] * 26
    blot = [False] * 26
    for pip in range(1, 25):
        count = opp[25 - pip]
        blocked[pip] = count >= 2
        blot[pip] = count == 1
    return tuple(blocked), tuple(blot)


def decode(codes: tuple[int, ...]) -> tuple[Step, ...]:
    """Steps from the generator's compact codes (``src | dest << 5 | hit << 10``)."""
    return tuple(Step(code & 31, (code >> 5) & 31, bool(code >> 10)) for code in codes)


def generate(me: list[int], opp: list[int] | tuple[int, ...], d1: int, d2: int) -> dict[int, tuple[int, ...]]:
    """Every distinct result of a maximal play of dice ``d1``, ``d2``: position key -> one play reaching it, as
    step codes (see :func:`decode`; plain ints because building objects per node would dominate the cost).

    ``me`` is used as scratch space and restored before returning. An empty dict means the roll cannot be played.
    """
    blocked, blot = _targets(opp)
    if d1 == d2:
        return _doubles(me, blocked, blot, d1)
    return _non_doubles(me, blocked, blot, max(d1, d2), min(d1, d2))


def _sources(
    me: list[int], blocked: tuple[bool, ...], die: int, high: int, occupied: list[int]
) -> list[tuple[int, int]]:
    """Legal single steps ``(from, to)`` with ``die`` (to <= 0 means borne off). ``high`` is the farthest checker
    and ``occupied`` lists every pip that may hold a checker (a superset is fine), so empty points are skipped."""
    if me[BAR]:
        dest = BAR - die
        return [] if blocked[dest] else [(BAR, dest)]
    out = []
    for src in occupied:
        if me[src]:
            dest = src - die
            if dest > 0:
                if not blocked[dest]:
                    out.append((src, dest))
            elif high <= 6 and (dest == 0 or src == high):
                out.append((src, dest))
    return out


def _non_doubles(
    me: list[int], blocked: tuple[bool, ...], blot: tuple[bool, ...], big: int, small: int
) -> dict[int, tuple[int, ...]]:
    """Both orders of the two dice; singles are kept only if no full play exists, the larger die first."""
    base = pack(me)
    high = _highest(me)
    occupied = [pip for pip in range(24, 0, -1) if me[pip]]
    full: dict[int, tuple[int, ...]] = {}
    singles: dict[int, dict[int, tuple[int, ...]]] = {big: {}, small: {}}
    for first, second in ((big, small), (small, big)):
        for src, dest in _sources(me, blocked, first, high, occupied):
            land = dest if dest > 0 else 0
            hit1 = land > 0 and blot[land]
            key1 = base + _DELTA[src][dest + 6]
            code1 = src | land << 5
            if hit1:
                key1 += 1 << (HIT_SHIFT + land)
                code1 |= 1024
            me[src] -= 1
            me[land] += 1
            after = _highest(me) if src == high and not me[src] else high
            seconds = _sources(me, blocked, second, after, [*occupied, land] if land else occupied)
            for src2, dest2 in seconds:
                land2 = dest2 if dest2 > 0 else 0
                key = key1 + _DELTA[src2][dest2 + 6]
                code2 = src2 | land2 << 5
                if land2 and blot[land2] and not (hit1 and land2 == land):
                    key += 1 << (HIT_SHIFT + land2)
                    code2 |= 1024
                if key not in full:
                    full[key] = (code1, code2)
            if not seconds and not full:
                singles[first].setdefault(key1, (code1,))
            me[land] -= 1
            me[src] += 1
    if full:
        return full
    return singles[big] or singles[small]


def _doubles(me: list[int], blocked: tuple[bool, ...], blot: tuple[bool, ...], die: int) -> dict[int, tuple[int, ...]]:
    """Up to four steps of ``die`` as multisets in non-increasing source order (see the module docstring).

    Sources are visited through ``pips``: every pip a checker can stand on during the play (the occupied ones
    and up to three die lengths below them), sorted from the farthest; a node passes on its index, not a pip."""
    results: dict[int, tuple[int, ...]] = {}
    best = [0]
    reachable = set()
    for pip in range(BAR, 0, -1):
        if me[pip]:
            reachable.update(p for p in range(pip, pip - 4 * die, -die) if p > 0)
    pips = sorted(reachable, reverse=True)
    count = len(pips)
    dests = [pip - die for pip in pips]
    deltas = [_DELTA[pip][pip - die + 6] for pip in pips]
    steps: list[int] = []

    def walk(start: int, depth: int, key: int, hits: int, high: int) -> None:
        moved = False
        if depth < 4:
            bar = me[BAR]
            for index in range(start, count):
                src = pips[index]
                if not me[src]:
                    continue
                if bar and src != BAR:
                    break
                dest = dests[index]
                if dest > 0:
                    if blocked[dest]:
                        continue
                    land = dest
                elif high > 6 or (dest < 0 and src != high):
                    continue
                else:
                    land = 0
                me[src] -= 1
                me[land] += 1
                after = high
                if src == high and not me[src]:
                    after = src - 1
                    while after > 0 and not me[after]:
                        after -= 1
                if land and blot[land] and not (hits >> land) & 1:
                    steps.append(src | land << 5 | 1024)
                    walk(index, depth + 1, key + deltas[index], hits | (1 << land), after)
                else:
                    steps.append(src | land << 5)
                    walk(index, depth + 1, key + deltas[index], hits, after)
                steps.pop()
                me[land] -= 1
                me[src] += 1
                moved = True
        if not moved and depth >= best[0]:
            if depth > best[0]:
                results.clear()
                best[0] = depth
            full_key = key | (hits << HIT_SHIFT)
            if full_key not in results:
                results[full_key] = tuple(steps)

    walk(0, 0, pack(me), 0, _highest(me))
    return results if best[0] else {}
