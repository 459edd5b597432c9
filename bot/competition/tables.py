"""Tables of three or four: how many of each size a round needs, who sits together, and in which seats.

* **Sizes.** A game declares the table sizes it can be played at, consecutive (Drogo: 4 down to 2; three-player
  Druid: 3 only). A round uses the fewest byes, then the fewest tables, then tables as even as can be (10 players
  at tables of 4 or 3: 4, 3, 3; at tables of 3 only: 3, 3, 3 and a bye). The larger tables are the top boards.
* **A Swiss round** (:func:`group`): players ranked by points then seed; each table, top first, is led by the best
  player left, and its other seats are spread through his score group (extended down the ranking until it fills a
  table) as the Dutch system spreads a pairing: with room for ``t`` tables in the group, the seats go to the players
  ``t``, ``2t`` ... places below him, or the nearest ones to those who have met nobody already seated. Round one,
  12 players at tables of 4: 1-4-7-10, 2-5-8-11, 3-6-9-12. If that leaves a pair meeting again, a field of up to
  60 is searched seat by seat in the same order of preference, backing out of dead ends, for a round with no
  repeats (up to 5,000 seats tried: a field of 16 is searched to the end in a few milliseconds); failing that, a
  seat that can only be filled by someone who has met a player already there goes to whoever has met them least,
  and players are swapped between tables while a swap lowers the repeats (nearest tables first). So a repeat
  happens only when the search shows none can be avoided or runs out of tries; the fewest repeats are not
  proven (finding them is a hard problem, a partition into triangles). The round's note counts them. Measured
  at tables of 4 or 3 with random results: 16 players over 4 rounds, 5 rounds in 20 had a repeat (each proven
  unavoidable after the rounds before); 40 over 6 rounds, 1 in 30; 100 and 1,000, none. Tables of 3: none.
* **Seats** (:func:`seat_order`): seat 0 goes to the player who has sat there least, seat 1 likewise among the
  rest, and so on (ties: the higher-ranked player first), so first moves are shared out over the rounds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

#: how many times two players have met before (played games)
Meetings = Callable[[int, int], int]


def table_sizes(count: int, sizes: Sequence[int]) -> tuple[tuple[int, ...], int]:
    """The tables that seat ``count`` players at the consecutive ``sizes``: their sizes, largest first, and the
    number of players left over (byes)."""
    big, small = max(sizes), min(sizes)
    for left in range(count + 1):
        seated = count - left
        if seated == 0:
            break
        tables = -(-seated // big)
        if tables * small <= seated:
            base, extra = divmod(seated, tables)
            return (base + 1,) * extra + (base,) * (tables - extra), left
    return (), count


def repeats(table: Sequence[int], met: Meetings) -> int:
    """Earlier meetings between players at one table, counted by pair."""
    return sum(met(a, b) for k, a in enumerate(table) for b in table[k + 1 :])


def group(points: Sequence[int], sizes: Sequence[int], met: Meetings) -> list[list[int]]:
    """A Swiss round's tables (the module docstring): ``points`` are the players' points in rank order (players
    are their indices, 0 = top), ``sizes`` the tables' sizes top first; each table's players in rank order."""
    tables: list[list[int]] = []
    left = list(range(len(points)))
    for size in sizes:
        table = [left[0]]
        for candidates in _seats(points, left, size):
            table.append(_best(table, [i for i in candidates if i not in table], met))
        tables.append(sorted(table))
        left = [i for i in left if i not in table]
    if len(points) <= SEARCH_PLAYERS and any(repeats(table, met) for table in tables):
        found = _search(points, sizes, met)
        if found is not None:
            return found
        _swap_repeats(tables, met)
    return [sorted(table) for table in tables]


def _seats(points: Sequence[int], left: list[int], size: int) -> list[list[int]]:
    """For the table led by the best player ``left``, each other seat's candidates in order of preference: his
    score group (extended down until it fills a table) around the seat's place in it, then the players below."""
    top = left[0]
    bracket = [i for i in left if points[i] == points[top]]
    below = [i for i in left if points[i] < points[top]]
    while len(bracket) < size:
        bracket += [i for i in below if points[i] == points[below[0]]]
        below = [i for i in below if points[i] < points[bracket[-1]]]
    step = max(1, len(bracket) // size)
    return [_around(bracket, seat * step, [top]) + below for seat in range(1, size)]


#: how many seats the search for a round without repeats may try before it settles for fewer repeats
SEARCH_SEATS = 5_000
#: the largest field searched (larger ones are paired without repeats by the greedy choice in all but rare rounds:
#: measured, 1 round in 30 at 40 players, none at 100 or 1,000)
SEARCH_PLAYERS = 60


def _search(points: Sequence[int], sizes: Sequence[int], met: Meetings) -> list[list[int]] | None:
    """A round with no repeats, if a depth-first search finds one within :data:`SEARCH_SEATS` seats tried: table
    after table, seat after seat, each seat trying its candidates in order of preference among those who have met
    nobody already at the table. The greedy choice above can paint itself into a corner (the last tables left
    with players who have all met); this backs out of it."""
    tried = 0

    def fill(left: list[int], at: int) -> list[list[int]] | None:
        nonlocal tried
        if at == len(sizes):
            return []
        preferences = _seats(points, left, sizes[at])

        def seat(table: list[int]) -> list[list[int]] | None:
            nonlocal tried
            if len(table) == sizes[at]:
                rest = fill([i for i in left if i not in table], at + 1)
                return None if rest is None else [sorted(table), *rest]
            for i in preferences[len(table) - 1]:
                if tried >= SEARCH_SEATS:
                    return None
                if i in table or any(met(i, j) for j in table):
                    continue
                tried += 1
                found = seat([*table, i])
                if found is not None:
                    return found
            return None

        return seat([left[0]])

    return fill(list(range(len(points))), 0)


def _around(bracket: list[int], ideal: int, taken: list[int]) -> list[int]:
    """The bracket's players nearest to position ``ideal`` first (below it before above), leaving out ``taken``."""
    ideal = min(ideal, len(bracket) - 1)
    order = [bracket[ideal]]
    for gap in range(1, len(bracket)):
        order += [bracket[k] for k in (ideal + gap, ideal - gap) if 0 <= k < len(bracket)]
    return [i for i in order if i not in taken]


def _best(table: list[int], candidates: list[int], met: Meetings) -> int:
    """The first candidate who has met nobody at ``table``, else the one who has met them least (the first such)."""
    best, fewest = candidates[0], None
    for i in candidates:
        seen = sum(met(i, j) for j in table)
        if seen == 0:
            return i
        if fewest is None or seen < fewest:
            best, fewest = i, seen
    return best


def _swap_repeats(tables: list[list[int]], met: Meetings) -> None:
    """Swap players between tables while a swap lowers the repeats of the two tables: tables with repeats from the
    bottom up, the other table nearest first, the first swap that helps."""
    improved = True
    while improved:
        improved = False
        for t in reversed(range(len(tables))):
            if repeats(tables[t], met) == 0:
                continue
            others = sorted((u for u in range(len(tables)) if u != t), key=lambda u: (abs(u - t), u))
            if any(_try_swaps(tables, t, u, met) for u in others):
                improved = True
                break


def _try_swaps(tables: list[list[int]], t: int, u: int, met: Meetings) -> bool:
    """Make the first swap between tables ``t`` and ``u`` that lowers their repeats; say whether one was made."""
    a, b = tables[t], tables[u]
    before = repeats(a, met) + repeats(b, met)
    for x in a:
        for y in b:
            new_a = [y if i == x else i for i in a]
            new_b = [x if i == y else i for i in b]
            if repeats(new_a, met) + repeats(new_b, met) < before:
                tables[t], tables[u] = new_a, new_b
                return True
    return False


def seat_order(table: Sequence[int], seated: Callable[[int, int], int]) -> list[int]:
    """``table``'s players (in rank order) in seat order: each seat, first to last, to the player who has sat in it
    least (``seated(player, seat)``), the higher-ranked on a tie."""
    left = list(table)
    order = []
    for seat in range(len(table)):
        chosen = min(left, key=lambda p: (seated(p, seat), left.index(p)))
        order.append(chosen)
        left.remove(chosen)
    return order
