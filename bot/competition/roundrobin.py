"""Round robin schedules: every player meets every other.

* **Two-player games: the Berger tables** (FIDE's, used for chess round robins), players numbered by seed. With
  ``n`` players (one more, a rest, when ``n`` is odd: whoever meets it has the round off) there are ``n - 1``
  rounds; in round ``r`` player ``n`` meets ``h = 1 + (r - 1) n/2 (mod n - 1)`` (``h`` White in odd rounds), and
  on the other boards ``h + j`` (White) meets ``h - j``. Everyone plays each other once, no one has the same colour
  three times running, and each ends with as many Whites as Blacks, or one more of either.
* **Tables of three or four.** Meeting everyone exactly once is possible only for a few numbers of players (a
  resolvable design: 9 at tables of 3, 16 at tables of 4 ...), so the schedule makes every pair meet *at least*
  once, spreading the meetings: round after round, tables are filled to bring together as many pairs who have not
  met as it can while keeping repeats rare (each table started by the player with the most opponents still to
  meet, each seat to the player who adds most: see :data:`NEW_PAIR`), players are swapped between the round's
  tables while a swap helps, and rounds are added until every pair has met; then, over the whole schedule,
  players are swapped within rounds while that spreads the meetings more evenly and leaves no pair unmet. Byes (when the
  players cannot all be seated) go to those with the fewest byes, then the fewest opponents still to meet. The
  least a schedule can have is ``ceil((n - 1) / (size - 1))`` rounds; the tests measure how close this one comes.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from bot.competition.tables import seat_order, table_sizes

#: a round of a schedule: its tables (players as seed indices, 0 = seed 1, in seat order) and who has the round off
Scheduled = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]


def berger(count: int) -> list[Scheduled]:
    """The Berger schedule of ``count`` players of a two-player game."""
    n = count + count % 2
    rounds: list[Scheduled] = []
    for r in range(1, n):
        h = 1 + (r - 1) * (n // 2) % (n - 1)
        first = (h, n) if r % 2 else (n, h)
        pairs = [first] + [(1 + (h - 1 + j) % (n - 1), 1 + (h - 1 - j) % (n - 1)) for j in range(1, n // 2)]
        tables = tuple((a - 1, b - 1) for a, b in pairs if a <= count and b <= count)
        rest = tuple(a - 1 for pair in pairs for a in pair if a <= count and n in pair and n > count)
        rounds.append((tables, rest))
    return rounds


@lru_cache(maxsize=16)
def schedule(count: int, sizes: tuple[int, ...]) -> tuple[Scheduled, ...]:
    """The whole schedule of ``count`` players at tables of ``sizes`` (largest first). Kept for the next call:
    each round of a tournament reads it again."""
    if max(sizes) == 2:
        return tuple(berger(count))
    return tuple(_tables(count, sizes))


def _tables(count: int, sizes: Sequence[int]) -> list[Scheduled]:
    """Tables of three or four (the module docstring): who sits together, round by round, then the seats."""
    meets = [[0] * count for _ in range(count)]
    rests = [0] * count
    unmet = [count - 1] * count
    rounds: list[Scheduled] = []
    layout, off = table_sizes(count, sizes)
    while any(unmet):
        resting = sorted(range(count), key=lambda i: (rests[i], unmet[i], -i))[:off]
        playing = sorted((i for i in range(count) if i not in resting), key=lambda i: (-unmet[i], i))
        tables = _fill(playing, layout, meets)
        _spread(tables, meets)
        for table in tables:
            for k, a in enumerate(table):
                for b in table[k + 1 :]:
                    unmet[a] -= meets[a][b] == 0
                    unmet[b] -= meets[a][b] == 0
                    meets[a][b] += 1
                    meets[b][a] += 1
        for i in resting:
            rests[i] += 1
        rounds.append((tuple(tuple(sorted(table)) for table in tables), tuple(sorted(resting))))
    _even_out(rounds, meets)
    return _seated(rounds, max(sizes))


def _seated(rounds: list[Scheduled], size: int) -> list[Scheduled]:
    """The schedule with each table in seat order (:func:`bot.competition.tables.seat_order`), round by round."""
    seats: dict[int, list[int]] = {}
    out = []
    for tables, rest in rounds:
        ordered = []
        for table in tables:
            order = seat_order(sorted(table), lambda p, s: seats.setdefault(p, [0] * size)[s])
            for s, p in enumerate(order):
                seats[p][s] += 1
            ordered.append(tuple(order))
        out.append((tuple(ordered), rest))
    return out


def _fill(playing: list[int], layout: Sequence[int], meets: list[list[int]]) -> list[list[int]]:
    """A round's tables: each started by the first player left (most opponents to meet), each seat to the player
    adding most new pairs, then fewest meetings, then first in ``playing``."""
    left = list(playing)
    tables = []
    for size in layout:
        table = [left.pop(0)]
        while len(table) < size:
            chosen = min(left, key=lambda i: (-sum(_worth(meets[i][j]) for j in table), left.index(i)))
            table.append(chosen)
            left.remove(chosen)
        tables.append(table)
    return tables


#: what bringing together a pair who have not met is worth, against a repeat's cost of the square of the
#: meetings it adds to: a second meeting (cost 1) is worth a new pair, a third (cost 4) is not. Measured over
#: 3 to 24 players at tables of 3, and of 4 or 3: no pair meets more than 3 times (a larger worth shortens some
#: schedules by a round but lets one pair meet 4 or 5 times; a smaller one lengthens them)
NEW_PAIR = 2


def _worth(meetings: int) -> int:
    """What seating a pair who have met ``meetings`` times together is worth."""
    return NEW_PAIR if meetings == 0 else -(meetings**2)


def _value(table: list[int], meets: list[list[int]]) -> int:
    """How good a table is: the worth of its pairs."""
    return sum(_worth(meets[a][b]) for k, a in enumerate(table) for b in table[k + 1 :])


def _spread(tables: list[list[int]], meets: list[list[int]]) -> None:
    """Swap players between the round's tables while a swap makes the two tables better (:func:`_value`)."""
    improved = True
    while improved:
        improved = False
        for t in range(len(tables)):
            for u in range(t + 1, len(tables)):
                if _swap_once(tables, t, u, meets):
                    improved = True


def _swap_once(tables: list[list[int]], t: int, u: int, meets: list[list[int]]) -> bool:
    a, b = tables[t], tables[u]
    before = _value(a, meets) + _value(b, meets)
    for x in a:
        for y in b:
            new_a = [y if i == x else i for i in a]
            new_b = [x if i == y else i for i in b]
            if _value(new_a, meets) + _value(new_b, meets) > before:
                tables[t], tables[u] = new_a, new_b
                return True
    return False


#: how many times the evening-out looks over the whole schedule at most (it usually settles in a few)
EVEN_PASSES = 20


def _even_out(rounds: list[Scheduled], meets: list[list[int]]) -> None:
    """Spread the meetings of a finished schedule: swap two players between tables of the same round while the
    swap lowers the sum of the squares of the pairs' meetings and leaves no pair unmet (seats stay as given)."""
    for _ in range(EVEN_PASSES):
        improved = False
        for r, (tables, rest) in enumerate(rounds):
            changed = [list(table) for table in tables]
            for t in range(len(changed)):
                for u in range(t + 1, len(changed)):
                    improved |= _even_swap(changed[t], changed[u], meets)
            rounds[r] = (tuple(tuple(table) for table in changed), rest)
        if not improved:
            return


def _even_swap(a: list[int], b: list[int], meets: list[list[int]]) -> bool:
    """Swap players between tables ``a`` and ``b`` (in place, each into the other's seat) while a swap helps."""
    improved = False
    for i in range(len(a)):
        for j in range(len(b)):
            x, y = a[i], b[j]
            lost = [(x, p) for p in a if p != x] + [(y, p) for p in b if p != y]
            gained = [(y, p) for p in a if p != x] + [(x, p) for p in b if p != y]
            if any(meets[p][q] == 1 for p, q in lost):
                continue
            change = sum(1 - 2 * meets[p][q] for p, q in lost) + sum(1 + 2 * meets[p][q] for p, q in gained)
            if change < 0:
                for p, q in lost:
                    meets[p][q] -= 1
                    meets[q][p] -= 1
                for p, q in gained:
                    meets[p][q] += 1
                    meets[q][p] += 1
                a[i], b[j] = y, x
                improved = True
    return improved
