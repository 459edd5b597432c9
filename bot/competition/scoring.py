"""Points by place, for tables of two, three or four, in exact whole units.

**The scale.** A table of ``k`` players is scored as the ``k - 1`` duels each player fought there, each weighted
``1 / (k - 1)``: ahead of an opponent is 1, level is 1/2, behind is 0. So the winner of any table scores 1 and the
last 0, and the places between are spread evenly: two players 1 / 0 (a draw 1/2 each), three 1, 1/2, 0, four 1,
2/3, 1/3, 0; players who share places share their points (a shared first of three: 3/4 each). A game of two is the
usual win 1, draw 1/2, loss 0, and a tournament's points mean the same whatever the size of its tables.

A player who forfeits scores 0 and loses the duel with everyone who did not forfeit (two who both forfeited both
lose theirs). Every value is a whole number of *units*, :data:`POINT` to a point: with tables of at most four,
1/12 divides them all, so points add and compare exactly, and tie-breaks built from them multiply exactly.
"""

from __future__ import annotations

from fractions import Fraction

from bot.competition.model import Table

#: units in one point: every place's points, for tables of two to four, is a whole number of twelfths
POINT = 12
#: a duel's result in half points: ahead, level, behind
AHEAD, LEVEL, BEHIND = 2, 1, 0
#: the largest table scored
MAX_TABLE = 4


def weight(size: int) -> int:
    """The units one half point of a duel is worth at a table of ``size``: ``POINT / 2 / (size - 1)``."""
    assert 2 <= size <= MAX_TABLE, size
    return POINT // 2 // (size - 1)


def duel(table: Table, player: str, opponent: str) -> int:
    """``player``'s result against ``opponent`` on a finished table, in half points (``AHEAD``, ``LEVEL``,
    ``BEHIND``)."""
    assert table.places is not None, "the table is not finished"
    if player in table.forfeits:
        return BEHIND
    if opponent in table.forfeits:
        return AHEAD
    mine, theirs = table.place_of(player), table.place_of(opponent)
    return AHEAD if mine < theirs else LEVEL if mine == theirs else BEHIND


def table_points(table: Table) -> dict[str, int]:
    """Each seated player's points on a finished table, in units."""
    unit = weight(len(table.seats))
    return {
        player: unit * sum(duel(table, player, other) for other in table.seats if other != player)
        for player in table.seats
    }


def points_text(value: Fraction) -> str:
    """Points as players read them: ``4``, ``4½``, and to two decimals otherwise (``2.67``)."""
    whole, part = divmod(value, 1)
    if part == 0:
        return str(whole)
    if part == Fraction(1, 2):
        return f"{whole}½" if whole else "½"
    return f"{float(value):.2f}"
