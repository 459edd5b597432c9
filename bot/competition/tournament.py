"""The tournament: its plain state and the few things done to it (pair the next round, record a game, withdraw a
player, read the standings), each checked first so that a refusal (a :class:`CompetitionError`, one sentence)
leaves it unchanged. Pure: the caller loads it from JSON, calls one method, and saves it back under the same
guarded commit as a move, so two processes can never pair a round twice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.competition import knockout, roundrobin, swiss, tables
from bot.competition.model import (
    FORMATS,
    KNOCK_OUT,
    ROUND_ROBIN,
    SWISS,
    VERSION,
    CompetitionError,
    Entrant,
    Round,
    Table,
    decided,
    entrant_from_json,
    plural,
    ranking,
    round_from_json,
    settled,
)
from bot.competition.scoring import MAX_TABLE, POINT, table_points
from bot.competition.standings import Standing, standings


@dataclass
class Tournament:
    """A tournament's whole state. ``entrants`` are in seed order; ``table_sizes`` the sizes a game can be played
    at, largest first (``(2,)`` for two-player games); ``planned`` the number of rounds (a Swiss's chosen number,
    a round robin's schedule, a knock-out's bracket); ``rounds`` those paired so far; ``withdrawn`` maps each
    player who withdrew to the number of rounds paired when he did."""

    format: str
    entrants: tuple[Entrant, ...]
    table_sizes: tuple[int, ...]
    planned: int
    rounds: list[Round] = field(default_factory=list)
    withdrawn: dict[str, int] = field(default_factory=dict)

    # ---- starting -------------------------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        format_: str,
        entrants: Sequence[Entrant],
        *,
        rounds: int | None = None,
        table_sizes: Sequence[int] = (2,),
    ) -> Tournament:
        """A new tournament, seeded: by rating (highest first), then name, then id. ``rounds`` is a Swiss's
        number of rounds (required there, refused elsewhere: the other formats' follow from the players)."""
        sizes = _sizes(format_, table_sizes)
        players = _entrants(entrants, min(sizes))
        count = len(players)
        if format_ == SWISS:
            planned = _swiss_rounds(rounds, count)
        elif rounds is not None:
            name = "a round robin" if format_ == ROUND_ROBIN else "a knock-out"
            raise CompetitionError(f"{name} has as many rounds as its players need: leave the number of rounds out")
        elif format_ == ROUND_ROBIN:
            planned = len(roundrobin.schedule(count, sizes))
        else:
            planned = knockout.rounds_needed(count)
        return cls(format_, players, sizes, planned)

    # ---- reading ----------------------------------------------------------------------------------------------

    @property
    def current(self) -> Round | None:
        """The latest round paired, or ``None`` before the first."""
        return self.rounds[-1] if self.rounds else None

    @property
    def active(self) -> list[Entrant]:
        """The players who have not withdrawn, in seed order."""
        return [e for e in self.entrants if e.id not in self.withdrawn]

    @property
    def is_over(self) -> bool:
        """Whether every round is played (or too few players are left to play another)."""
        if self.current is not None and not self.current.complete:
            return False
        if self.format == KNOCK_OUT:
            return len(self.rounds) >= self.planned or self.champion is not None
        if len(self.active) < min(self.table_sizes) and self.format == SWISS:
            return True
        return len(self.rounds) >= self.planned

    @property
    def champion(self) -> Entrant | None:
        """A knock-out's winner once decided (the last player left), else ``None``."""
        if self.format != KNOCK_OUT or (self.current is not None and not self.current.complete):
            return None
        left = [p for p in knockout.slots(self.seeded, self.rounds) if p is not None]
        return self.entrant(left[0]) if len(left) == 1 else None

    @property
    def seeded(self) -> list[str]:
        return [e.id for e in self.entrants]

    def entrant(self, player: str) -> Entrant:
        for e in self.entrants:
            if e.id == player:
                return e
        raise CompetitionError(f"{player} is not in this tournament")

    def standings(self) -> list[Standing]:
        """The standings after the games finished so far (:mod:`bot.competition.standings`)."""
        return standings(self.format, self.entrants, self.rounds, self.withdrawn)

    # ---- changing ---------------------------------------------------------------------------------------------

    def pair_next(self) -> Round:
        """Pair the next round, keep it and return it: its tables that need a game (``table.needs_game``) are the
        games to start, ``table.playing`` in seat order. Refused while a game of the current round is unfinished
        and once the tournament is over."""
        current = self.current
        if current is not None and not current.complete:
            games = plural(len(current.unfinished), "game is", "games are")
            raise CompetitionError(f"round {current.number} is not finished: {games} still being played")
        if self.is_over:
            raise CompetitionError(self._over())
        number = len(self.rounds) + 1
        if self.format == SWISS:
            round_ = self._swiss(number)
        elif self.format == ROUND_ROBIN:
            round_ = self._round_robin(number)
        else:
            round_ = self._knock_out(number)
        self.rounds.append(round_)
        return round_

    def record(self, number: int, board: int, places: Mapping[str, int]) -> Table:
        """Record a finished game: ``places`` gives each player who played on that board his place (1 = first,
        shared places for a draw). Returns the finished table."""
        if not 1 <= number <= len(self.rounds):
            raise CompetitionError(f"there is no round {number}: {plural(len(self.rounds), 'round')} paired so far")
        round_ = self.rounds[number - 1]
        table = round_.table(board)
        if table.finished:
            raise CompetitionError(f"board {board} of round {number} already has its result")
        playing = table.playing
        if set(places) != set(playing):
            names = ", ".join(self.entrant(p).name for p in playing)
            raise CompetitionError(f"board {board} of round {number} is played by {names}: give a place to each")
        given = [places[p] for p in playing]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in given) or not ranking(given):
            raise CompetitionError(f"places {', '.join(map(str, given))} are not a ranking (a draw of two is 1, 1)")
        if self.format == KNOCK_OUT and given.count(1) > 1:
            raise CompetitionError("a knock-out game needs a winner: replay a drawn game with the seats swapped")
        finished = decided(table, places)
        self.rounds[number - 1] = round_.with_table(finished)
        return finished

    def withdraw(self, player: str) -> list[Table]:
        """Withdraw ``player``: every game of his without a result is lost by forfeit (the others at a table of
        three or four still play theirs) and he is paired no more. Returns the tables he forfeited; a game of
        two on them is over (the caller ends it; to count it as played instead, record its result first)."""
        name = self.entrant(player).name
        if player in self.withdrawn:
            raise CompetitionError(f"{name} has already withdrawn")
        if self.is_over:
            raise CompetitionError(f"{name} cannot withdraw: {self._over()}")
        self.withdrawn[player] = len(self.rounds)
        forfeited = []
        for k, round_ in enumerate(self.rounds):
            table = round_.table_of(player)
            if table is not None and not table.finished:
                out = {*table.forfeits, player}
                table = settled(replace(table, forfeits=tuple(p for p in table.seats if p in out)))
                self.rounds[k] = round_.with_table(table)
                forfeited.append(table)
        return forfeited

    # ---- the formats ------------------------------------------------------------------------------------------

    def _over(self) -> str:
        if self.format == KNOCK_OUT:
            champion = self.champion
            return f"the tournament is over: {champion.name} won it" if champion else "the tournament is over"
        if len(self.active) < min(self.table_sizes) and len(self.rounds) < self.planned:
            return f"the tournament is over: {plural(len(self.active), 'player is', 'players are')} left"
        return f"the tournament is over: all {plural(self.planned, 'round')} are played"

    def _history(self) -> dict[str, _Past]:
        """Each player's past, as the pairing needs it (played games only for meetings, colours and seats)."""
        past = {e.id: _Past() for e in self.entrants}
        for round_ in self.rounds:
            for player in round_.byes:
                past[player].byes += 1
                past[player].points += POINT if self.format == SWISS else 0
            for table in round_.tables:
                for player, value in table_points(table).items() if table.finished else ():
                    past[player].points += value
                if not table.played:
                    continue
                playing = table.playing
                for seat, player in enumerate(playing):
                    past[player].seats[seat] += 1
                    past[player].colours.append(1 if seat == 0 else -1)
                    past[player].met.update(p for p in playing if p != player)
        return past

    def _swiss(self, number: int) -> Round:
        past = self._history()
        active = self.active
        if self.table_sizes == (2,):
            contenders = [
                swiss.Contender(e.id, p.points, e.seed, p.met, tuple(p.colours), p.byes)
                for e in active
                for p in (past[e.id],)
            ]
            pairing = swiss.pair(contenders)
            boards = tuple(Table(k, pair) for k, pair in enumerate(pairing.pairs, start=1))
            return Round(number, boards, (pairing.bye,) if pairing.bye else (), pairing.note)
        return self._swiss_tables(number, past, active)

    def _swiss_tables(self, number: int, past: dict[str, _Past], active: list[Entrant]) -> Round:
        """A Swiss round at tables of three or four (:func:`bot.competition.tables.group`)."""
        ranked = sorted(active, key=lambda e: (-past[e.id].points, e.seed))
        layout, left = tables.table_sizes(len(ranked), self.table_sizes)
        # the byes: the lowest-ranked of those with the fewest byes (a stable sort of the ranking read upwards)
        byes = {e.id for e in sorted(reversed(ranked), key=lambda e: past[e.id].byes)[:left]}
        seated = [e.id for e in ranked if e.id not in byes]

        def met(a: int, b: int) -> int:
            return past[seated[a]].met[seated[b]]

        grouped = tables.group([past[p].points for p in seated], layout, met)
        boards = []
        for k, table in enumerate(grouped, start=1):
            order = tables.seat_order(table, lambda i, s: past[seated[i]].seats[s])
            boards.append(Table(k, tuple(seated[i] for i in order)))
        repeats = sum(tables.repeats(table, met) for table in grouped)
        note = f"{plural(repeats, 'pair')} meet{'s' if repeats == 1 else ''} again." if repeats else ""
        return Round(number, tuple(boards), tuple(p for p in self.seeded if p in byes), note)

    def _round_robin(self, number: int) -> Round:
        scheduled, rest = roundrobin.schedule(len(self.entrants), self.table_sizes)[number - 1]
        seeded = self.seeded
        boards = []
        for k, table in enumerate(scheduled, start=1):
            seats = tuple(seeded[i] for i in table)
            forfeits = tuple(p for p in seats if p in self.withdrawn)
            boards.append(settled(Table(k, seats, forfeits)))
        return Round(number, tuple(boards), tuple(seeded[i] for i in rest))

    def _knock_out(self, number: int) -> Round:
        seed = {e.id: e.seed for e in self.entrants}
        firsts = Counter(t.playing[0] for r in self.rounds for t in r.tables if t.played)
        pairs, byes = knockout.matches(knockout.slots(self.seeded, self.rounds))
        boards = []
        for k, (a, b) in enumerate(pairs, start=1):
            seats = knockout.first_seat(a, b, firsts, seed)
            boards.append(settled(Table(k, seats, tuple(p for p in seats if p in self.withdrawn))))
        return Round(number, tuple(boards), tuple(byes))

    # ---- JSON -------------------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole state as plain JSON data, in a fixed order (the store keeps it as one row of text)."""
        return {
            "version": VERSION,
            "format": self.format,
            "table_sizes": list(self.table_sizes),
            "planned": self.planned,
            "entrants": [e.to_json() for e in self.entrants],
            "rounds": [r.to_json() for r in self.rounds],
            "withdrawn": [[p, self.withdrawn[p]] for p in self.seeded if p in self.withdrawn],
        }

    @classmethod
    def from_json(cls, data: Any) -> Tournament:
        """The tournament saved by :meth:`to_json`; a :class:`CompetitionError` if the data is not one."""
        if not isinstance(data, Mapping) or data.get("version") != VERSION:
            raise CompetitionError("the saved tournament is not one this version can read")
        format_ = data.get("format")
        if format_ not in FORMATS:
            raise CompetitionError(f"the saved tournament's format {format_!r} is unknown")
        withdrawn = {}
        for item in data.get("withdrawn") or ():
            if (
                not (isinstance(item, list) and len(item) == 2)
                or not isinstance(item[0], str)
                or type(item[1]) is not int
            ):
                raise CompetitionError("the saved tournament's withdrawals are not pairs of a player and a round")
            withdrawn[item[0]] = item[1]
        planned = data.get("planned")
        if not isinstance(planned, int) or isinstance(planned, bool):
            raise CompetitionError("the saved tournament's number of rounds is not a whole number")
        sizes = data.get("table_sizes")
        if not isinstance(sizes, list) or not all(isinstance(s, int) for s in sizes):
            raise CompetitionError("the saved tournament's table sizes are not a list of numbers")
        return cls(
            format_,
            tuple(entrant_from_json(e) for e in data.get("entrants") or ()),
            _sizes(format_, sizes),
            planned,
            [round_from_json(r) for r in data.get("rounds") or ()],
            withdrawn,
        )


@dataclass
class _Past:
    """One player's past: points (units), whom he has met and how often, colours (1 first seat, -1 second) and
    seats taken, in played games only, and byes."""

    points: int = 0
    met: Counter = field(default_factory=Counter)
    colours: list[int] = field(default_factory=list)
    seats: Counter = field(default_factory=Counter)
    byes: int = 0


def _sizes(format_: str, table_sizes: Sequence[int]) -> tuple[int, ...]:
    """The table sizes, largest first, checked: 2 to 4, consecutive; a knock-out's only 2."""
    if format_ not in FORMATS:
        raise CompetitionError(f"there is no format {format_!r}: choose round-robin, swiss or knock-out")
    sizes = tuple(sorted(set(table_sizes), reverse=True))
    if not sizes or sizes[-1] < 2 or sizes[0] > MAX_TABLE or len(sizes) != sizes[0] - sizes[-1] + 1:
        raise CompetitionError("games are played at tables of 2, 3 or 4 players, in a run such as 4 and 3")
    if format_ == KNOCK_OUT and sizes != (2,):
        raise CompetitionError(
            "a knock-out is for two-player games: choose swiss or round-robin for games of three or four"
        )
    return sizes


def _entrants(entrants: Sequence[Entrant], fewest: int) -> tuple[Entrant, ...]:
    """The entrants in seed order with their seeds, checked: no one twice, enough to fill a table."""
    counts = Counter(e.id for e in entrants)
    twice = [e.name for e in entrants if counts[e.id] > 1]
    if twice:
        raise CompetitionError(f"{twice[0]} is entered twice")
    if len(entrants) < max(2, fewest):
        raise CompetitionError(f"a tournament needs at least {plural(max(2, fewest), 'player')}, not {len(entrants)}")
    ordered = sorted(entrants, key=lambda e: (-e.rating, e.name.casefold(), e.id))
    return tuple(replace(e, seed=k, rating=float(e.rating)) for k, e in enumerate(ordered, start=1))


def _swiss_rounds(rounds: int | None, count: int) -> int:
    """A Swiss's number of rounds, checked: at least 1, and no more than lets everyone meet everyone once (with an
    odd number of players, one more: each then has one bye)."""
    most = count - 1 + count % 2
    if rounds is None:
        raise CompetitionError("a Swiss needs its number of rounds")
    if not 1 <= rounds <= most:
        raise CompetitionError(f"a Swiss of {plural(count, 'player')} has 1 to {plural(most, 'round')}, not {rounds}")
    return rounds
