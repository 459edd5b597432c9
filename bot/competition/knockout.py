"""Knock-out brackets for two-player games.

* **Seeding.** Players are seeded by rating (seed 1 the strongest). The bracket has room for the next power of
  two; its slots are placed the standard way, so that the top seeds can only meet late: 1 v 16, 8 v 9, 4 v 13, 5 v
  12, 2 v 15, 7 v 10, 3 v 14, 6 v 11 for sixteen (each half of a bracket of ``2m`` is the bracket of ``m`` with each
  seed ``s`` facing ``2m + 1 - s``). The missing seeds are byes, so the top seeds have them: 13 players, seeds 1,
  2 and 3 go through to round two.
* **Each round** pairs the winners of neighbouring matches. A game must have a winner: a drawn game is replayed
  by the caller (seats swapped) and only the decisive game is recorded (:meth:`Tournament.record
  <bot.competition.Tournament.record>` refuses a draw). A Backgammon knock-out plays matches: the pairing only names
  the pairs, the match length is the caller's.
* **Withdrawals.** A player who withdraws loses his match in progress, and any match he would still have played,
  by forfeit: his opponent goes through without playing. If both players of a match have withdrawn, nobody comes
  out of it and the player it would have met goes through on a bye.
* **Seats.** In each match the player who has had the first seat fewer times in the tournament has it; on a tie,
  the higher seed.
* **Tables of three or four** are refused: one winner a table would put the rest out at once, and the number left
  would rarely fill the next round's tables; those games play Swiss or round robin.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.competition.model import Round


def bracket(count: int) -> list[int | None]:
    """The first round's slots, top to bottom: seeds (1 = top) and ``None`` for a bye, for ``count`` players."""
    slots = [1]
    while len(slots) < count:
        size = 2 * len(slots)
        slots = [seed for s in slots for seed in (s, size + 1 - s)]
    return [seed if seed <= count else None for seed in slots]


def rounds_needed(count: int) -> int:
    """How many rounds a knock-out of ``count`` players has."""
    return max(1, (count - 1).bit_length())


def winner(round_: Round, a: str | None, b: str | None) -> str | None:
    """Who comes out of the slots ``a`` and ``b`` of a finished round: a bye's player, the table's winner, or
    ``None`` when both slots are empty or both players forfeited."""
    if a is None or b is None:
        return a if b is None else b
    table = round_.table_of(a)
    assert table is not None and table.places is not None, "the match is not decided"
    firsts = [p for p in table.seats if table.place_of(p) == 1 and p not in table.forfeits]
    return firsts[0] if firsts else None


def slots(seeded: Sequence[str], played: Sequence[Round]) -> list[str | None]:
    """The players (or empty slots) of the next round, top to bottom, after the finished rounds ``played``."""
    current: list[str | None] = [None if seed is None else seeded[seed - 1] for seed in bracket(len(seeded))]
    for round_ in played:
        current = [winner(round_, current[k], current[k + 1]) for k in range(0, len(current), 2)]
    return current


def matches(current: Sequence[str | None]) -> tuple[list[tuple[str, str]], list[str]]:
    """The next round from its slots: the matches (higher slot first) and the players going through on a bye."""
    pairs, byes = [], []
    for k in range(0, len(current), 2):
        a, b = current[k], current[k + 1]
        if a is not None and b is not None:
            pairs.append((a, b))
        elif a is not None or b is not None:
            byes.append(a if a is not None else b)
    return pairs, [p for p in byes if p is not None]


def first_seat(a: str, b: str, firsts: dict[str, int], seed: dict[str, int]) -> tuple[str, str]:
    """The pair in seat order: fewer first seats so far first, then the higher seed."""
    return (a, b) if (firsts.get(a, 0), seed[a]) <= (firsts.get(b, 0), seed[b]) else (b, a)
