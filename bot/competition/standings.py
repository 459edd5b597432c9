"""Standings with tie-breaks, computed from the finished tables alone (an unfinished game counts for nothing yet).

* **Points**: each table's points by place (:mod:`bot.competition.scoring`: win 1, draw 1/2, loss 0 in a game of
  two; a forfeit 0 to the one who forfeited, a win to the others). A Swiss bye is worth a win; a round robin's
  round off is worth nothing (everyone has the same number); a knock-out's first-round bye is not a game.
* **Round robin**: points, then **Sonneborn-Berger** (the sum, over a player's games, of his result against each
  opponent times that opponent's points: beaten opponents' points in full, drawn ones' half), then
  **head-to-head** (the points a player took from the others still tied with him after the first two).
* **Swiss**: points, then **Buchholz** (the sum of the opponents' points), then Sonneborn-Berger.
* **Tables of three or four**: a table's ``k - 1`` opponents each count ``1 / (k - 1)`` of a game, so a round
  adds one opponent's worth to Buchholz whatever the size of its table, and Sonneborn-Berger uses the result
  against each opponent (ahead 1, level 1/2, behind 0) exactly as in a game of two.
* **Rounds without a game** in a Swiss (a bye, a game won or lost by forfeit, a round after withdrawing): counted
  for Buchholz and Sonneborn-Berger as a game against an opponent with the player's own points, with the round's
  result (a bye or a forfeit win 1, a forfeit loss or a round after withdrawing 0): the "dummy opponent" of FIDE's
  2023 tie-break rules, so a bye neither helps nor hurts. In a round robin every game, forfeits included, counts
  with the real opponent's points (the cross-table's usual Sonneborn-Berger).
* **Knock-out**: the round a player reached (the winner one more than there are rounds), then games won; players
  knocked out in the same round share their place.
* Players level on everything share a rank; they are listed by seed.

Everything is summed in whole units (a twelfth of a point, a 144th for the products) and returned as exact
fractions: no two players are split or joined by rounding.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.competition.knockout import rounds_needed
from bot.competition.model import KNOCK_OUT, ROUND_ROBIN, SWISS, Entrant, Round, Table
from bot.competition.scoring import AHEAD, BEHIND, LEVEL, POINT, weight

#: the tie-breaks of each format, in order, as players read them
TIEBREAKS = {
    ROUND_ROBIN: ("Sonneborn-Berger", "head-to-head"),
    SWISS: ("Buchholz", "Sonneborn-Berger"),
    KNOCK_OUT: ("round reached",),
}
#: the weight of a game of two
TWO = weight(2)
#: units of a tie-break built from products (a duel in halves x points in twelfths x the table's weight)
PRODUCT = POINT * POINT


@dataclass(frozen=True)
class Standing:
    """One line of the standings: the rank (shared by players level on everything), the player, his points,
    the games he has played (not byes or forfeits), the format's tie-breaks (:data:`TIEBREAKS`, same order) and
    whether he has withdrawn."""

    rank: int
    entrant: Entrant
    points: Fraction
    played: int
    tiebreaks: tuple[Fraction, ...]
    withdrawn: bool = False


def standings(
    format_: str, entrants: Sequence[Entrant], rounds: Sequence[Round], withdrawn: Mapping[str, int]
) -> list[Standing]:
    """The standings of a tournament after the tables finished so far (the module docstring)."""
    duels = [[_duels(table) for table in round_.tables if table.finished] for round_ in rounds]
    points = dict.fromkeys((e.id for e in entrants), 0)
    for in_round in duels:
        for table in in_round:
            for player, _, result, unit, _ in table:
                points[player] += result * unit
    played = dict.fromkeys(points, 0)
    for round_ in rounds:
        for table in round_.tables:
            if table.places is not None:
                playing = [p for p in table.seats if p not in table.forfeits] if table.forfeits else table.seats
                for player in playing if len(playing) >= 2 else ():
                    played[player] += 1
    if format_ == SWISS:
        for round_ in rounds:
            for player in round_.byes:
                points[player] += POINT
    if format_ == KNOCK_OUT:
        keys, scales = _knock_out(entrants, rounds, points), (1, 1)
    elif format_ == SWISS:
        keys, scales = _swiss(rounds, duels, points), (POINT, PRODUCT, PRODUCT)
    else:
        keys, scales = _round_robin(duels, points), (POINT, PRODUCT, POINT)
    order = sorted(entrants, key=lambda e: (*(-k for k in keys[e.id]), e.seed))
    lines: list[Standing] = []
    for position, entrant in enumerate(order):
        key = keys[entrant.id]
        level = lines and keys[lines[-1].entrant.id] == key
        lines.append(
            Standing(
                lines[-1].rank if level else position + 1,
                entrant,
                Fraction(points[entrant.id], POINT),
                played[entrant.id],
                tuple(Fraction(value, scale) for value, scale in zip(key[1:], scales[1:], strict=True)),
                entrant.id in withdrawn,
            )
        )
    return lines


def _duels(table: Table) -> list[tuple[str, str, int, int, bool]]:
    """Each (player, opponent, result in halves, the table's weight, whether unplayed: a forfeit) of a finished
    table."""
    seats, places, out = table.seats, table.places, table.forfeits
    assert places is not None, "the table is not finished"
    if len(seats) == 2 and not out:  # most tables: said quickly
        result = AHEAD if places[0] < places[1] else LEVEL if places[0] == places[1] else BEHIND
        return [(seats[0], seats[1], result, TWO, False), (seats[1], seats[0], AHEAD - result, TWO, False)]
    unit = weight(len(seats))
    found = []
    for i, player in enumerate(seats):
        for j, opponent in enumerate(seats):
            if i == j:
                continue
            if player in out or opponent in out:
                found.append((player, opponent, BEHIND if player in out else AHEAD, unit, True))
            else:
                mine, theirs = places[i], places[j]
                result = AHEAD if mine < theirs else LEVEL if mine == theirs else BEHIND
                found.append((player, opponent, result, unit, False))
    return found


def _round_robin(duels: list[list[list[tuple]]], points: dict[str, int]) -> dict[str, tuple[int, ...]]:
    """Sort keys in units: points, Sonneborn-Berger, head-to-head among those level on both."""
    sb = dict.fromkeys(points, 0)
    every = [d for in_round in duels for table in in_round for d in table]
    for player, opponent, result, unit, _ in every:
        sb[player] += result * points[opponent] * unit
    tied: dict[tuple[int, int], set[str]] = {}
    for player in points:
        tied.setdefault((points[player], sb[player]), set()).add(player)
    h2h = dict.fromkeys(points, 0)
    for player, opponent, result, unit, _ in every:
        group = tied[(points[player], sb[player])]
        if len(group) > 1 and opponent in group:
            h2h[player] += result * unit
    return {player: (points[player], sb[player], h2h[player]) for player in points}


def _swiss(rounds: Sequence[Round], duels: list[list[list[tuple]]], points: dict[str, int]) -> dict[str, tuple]:
    """Sort keys in units: points, Buchholz, Sonneborn-Berger (rounds without a game against a dummy opponent with
    the player's own points)."""
    buchholz = dict.fromkeys(points, 0)
    sb = dict.fromkeys(points, 0)
    full = 2 * weight(2)  # one whole opponent, in the products' units per point of his
    for round_, in_round in zip(rounds, duels, strict=True):
        for table in in_round:
            for player, opponent, result, unit, unplayed in table:
                other = points[player] if unplayed else points[opponent]
                buchholz[player] += 2 * unit * other
                sb[player] += result * unit * other
        for player in round_.byes:
            buchholz[player] += full * points[player]
            sb[player] += full * points[player]
        seated = {player for table in round_.tables for player in table.seats}
        for player in points.keys() - seated - set(round_.byes):
            buchholz[player] += full * points[player]
    return {player: (points[player], buchholz[player], sb[player]) for player in points}


def _knock_out(entrants: Sequence[Entrant], rounds: Sequence[Round], points: dict[str, int]) -> dict[str, tuple]:
    """Sort keys: the round reached (the last round a player was in; the winner of the final one more)."""
    final = rounds_needed(len(entrants))
    reached = dict.fromkeys(points, 0)
    for round_ in rounds:
        for player in round_.byes:
            reached[player] = round_.number
        for table in round_.tables:
            for player in table.seats:
                won = table.finished and table.place_of(player) == 1 and player not in table.forfeits
                reached[player] = round_.number + (won and round_.number == final)
    return {e.id: (reached[e.id], reached[e.id]) for e in entrants}  # the round reached sorts and is shown
