"""A tournament's plain data: the entrants, the tables of each round and their results, with JSON both ways.

Everything here is a frozen dataclass of strings, numbers and tuples, so the store keeps a tournament as one row of
text and two processes that load the same text compute the same next round. Points are kept exact, as whole
*units*: one game's win is :data:`POINT` units (see :mod:`bot.competition.scoring`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

#: the formats, as the store and the fronts spell them
ROUND_ROBIN = "round-robin"
SWISS = "swiss"
KNOCK_OUT = "knock-out"
FORMATS = (ROUND_ROBIN, SWISS, KNOCK_OUT)

#: the version of the JSON layout written by :meth:`bot.competition.Tournament.to_json`
VERSION = 1


class CompetitionError(ValueError):
    """Bad input to a tournament (an unknown player, a result for a table that has one): the message is one plain
    sentence a player can be shown, and the tournament is left unchanged."""


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 game``, ``2 games``: every count a player reads goes through here."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


@dataclass(frozen=True)
class Entrant:
    """A player in the tournament. ``seed`` (1 = strongest) is given at the start from the ratings, the names and
    the ids, in that order, and never changes: it breaks every tie that nothing else breaks."""

    id: str
    name: str
    rating: float = 0.0
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "rating": self.rating, "seed": self.seed}


@dataclass(frozen=True)
class Table:
    """One game of a round: ``seats`` are the players in seat order (seat 0 moves first: White in the two-player
    games). ``forfeits`` are the players who lose it by forfeit without playing (they withdrew); the others still
    play it when two or more of them are left. ``places`` (1 = first, equal places shared) is set when the game is
    decided, one per seat; those who forfeited share the last places."""

    board: int
    seats: tuple[str, ...]
    forfeits: tuple[str, ...] = ()
    places: tuple[int, ...] | None = None

    @property
    def playing(self) -> tuple[str, ...]:
        """The players who play the game, in seat order: the seats without those who forfeited."""
        return tuple(player for player in self.seats if player not in self.forfeits)

    @property
    def played(self) -> bool:
        """Whether a game is (or was) played on this table: two players or more who did not forfeit. A table
        won by forfeit counts for points but not for colours, seats or who has met whom."""
        return len(self.playing) >= 2

    @property
    def needs_game(self) -> bool:
        """Whether the caller must start (or is waiting for) a game for this table."""
        return self.places is None and self.played

    @property
    def finished(self) -> bool:
        return self.places is not None

    def place_of(self, player: str) -> int:
        """The place ``player`` took on this finished table."""
        assert self.places is not None, "the table is not finished"
        return self.places[self.seats.index(player)]

    def to_json(self) -> dict[str, Any]:
        return {
            "board": self.board,
            "seats": list(self.seats),
            "forfeits": list(self.forfeits),
            "places": None if self.places is None else list(self.places),
        }


@dataclass(frozen=True)
class Round:
    """A round: its tables in board order, the players with a bye (in a Swiss a bye is worth a win; in a round
    robin it is a round off, worth nothing; in a knock-out the player goes through), and ``note``: what the pairing
    had to give up this round, in plain sentences (empty when every rule held)."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()
    note: str = ""

    @property
    def complete(self) -> bool:
        return all(table.finished for table in self.tables)

    @property
    def unfinished(self) -> tuple[Table, ...]:
        return tuple(table for table in self.tables if not table.finished)

    def table(self, board: int) -> Table:
        for table in self.tables:
            if table.board == board:
                return table
        raise CompetitionError(f"round {self.number} has no board {board}")

    def table_of(self, player: str) -> Table | None:
        """The table ``player`` sits at this round, or ``None`` (a bye, or not paired)."""
        for table in self.tables:
            if player in table.seats:
                return table
        return None

    def with_table(self, table: Table) -> Round:
        """This round with ``table`` in place of the table of the same board."""
        return replace(self, tables=tuple(table if t.board == table.board else t for t in self.tables))

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "tables": [table.to_json() for table in self.tables],
            "byes": list(self.byes),
            "note": self.note,
        }


def ranking(places: Sequence[int]) -> bool:
    """Whether ``places`` is a ranking as sports write it: each place is one more than the number of players
    placed strictly ahead (so a draw of two is ``1, 1`` and a shared second of three is ``1, 2, 2``)."""
    return all(place == 1 + sum(other < place for other in places) for place in places)


def decided(table: Table, places: Mapping[str, int]) -> Table:
    """``table`` with its result: ``places`` gives each player who played the game a place; those who forfeited
    share the places after them."""
    last = len(table.playing) + 1
    return replace(table, places=tuple(last if p in table.forfeits else places[p] for p in table.seats))


def settled(table: Table) -> Table:
    """``table``, decided at once when no game can be played on it (one player left or none): the one left wins,
    those who forfeited share the last places."""
    if table.played or table.places is not None:
        return table
    return decided(table, dict.fromkeys(table.playing, 1))


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise CompetitionError(f"the tournament's saved {what} is not text")
    return value


def _integer(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise CompetitionError(f"the tournament's saved {what} is not a whole number")
    return value


def entrant_from_json(data: Any) -> Entrant:
    if not isinstance(data, Mapping):
        raise CompetitionError("the tournament's saved player is not a record")
    rating = data.get("rating", 0.0)
    if not isinstance(rating, int | float) or isinstance(rating, bool):
        raise CompetitionError("the tournament's saved rating is not a number")
    player, name = _text(data.get("id"), "player id"), _text(data.get("name"), "name")
    return Entrant(player, name, float(rating), _integer(data.get("seed"), "seed"))


def table_from_json(data: Any) -> Table:
    if not isinstance(data, Mapping):
        raise CompetitionError("the tournament's saved table is not a record")
    seats = tuple(_text(player, "seat") for player in data.get("seats") or ())
    forfeits = tuple(_text(player, "forfeit") for player in data.get("forfeits") or ())
    places = data.get("places")
    if places is not None:
        places = tuple(_integer(place, "place") for place in places)
        if len(places) != len(seats) or not ranking(places):
            raise CompetitionError(f"the tournament's saved places {list(places)} are not a ranking of its seats")
    if not seats or not set(forfeits) <= set(seats):
        raise CompetitionError("the tournament's saved table has no seats, or a forfeit by someone not seated")
    return Table(_integer(data.get("board"), "board"), seats, forfeits, places)


def round_from_json(data: Any) -> Round:
    if not isinstance(data, Mapping):
        raise CompetitionError("the tournament's saved round is not a record")
    return Round(
        _integer(data.get("number"), "round number"),
        tuple(table_from_json(table) for table in data.get("tables") or ()),
        tuple(_text(player, "bye") for player in data.get("byes") or ()),
        _text(data.get("note", ""), "note"),
    )
