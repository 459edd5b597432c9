"""The words of tournaments: what players type (a format, a table size, when a signup closes) read into values, and
what they read (a tournament described, a line of the standings, how it ended) written from the store's rows and
the pure core's state. No I/O; :mod:`bot.competition` is imported only where a line needs it, so a console command
that never touches a tournament does not load it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.actions.common import InputError, shorten
from bot.correspondence.options import parse_time_rules, split_options
from bot.text import count
from data.store import TournamentRow
from rules import registry
from rules.base import GameDef, GameState

if TYPE_CHECKING:
    from bot.competition import Standing, Tournament

#: the most players a tournament takes, and the most rounds a Swiss asks for
MAX_PLAYERS = 1000
MAX_ROUNDS = 50
#: how far ahead a signup may close (seconds)
MAX_SIGNUP = 90 * 86400.0
#: each format as players may type it, and as the store and the core spell it
FORMAT_WORDS = {
    "swiss": "swiss",
    "round-robin": "round-robin",
    "roundrobin": "round-robin",
    "round_robin": "round-robin",
    "rr": "round-robin",
    "knock-out": "knock-out",
    "knockout": "knock-out",
    "ko": "knock-out",
}
#: each format as sentences write it
FORMAT_NAMES = {"swiss": "Swiss", "round-robin": "round robin", "knock-out": "knock-out"}
_RELATIVE = re.compile(r"(?:(\d{1,4})d)?(?:(\d{1,5})h)?(?:(\d{1,6})m)?")
_TABLE = re.compile(r"([2-4])(?:\s*(?:-|or|,)\s*([2-4]))?")


def format_name(format_: str) -> str:
    return FORMAT_NAMES.get(format_, format_)


def read_format(word: str) -> str:
    """A format as typed (``swiss``, ``round-robin``, ``knock-out`` and their short forms); :class:`InputError`
    otherwise."""
    found = FORMAT_WORDS.get(word.strip().lower())
    if found is None:
        raise InputError(f"{shorten(word)!r} is not a format: choose swiss, round-robin or knock-out")
    return found


def read_table(text: str | None, game: GameDef) -> tuple[int, ...]:
    """The table sizes the games are played at, largest first: ``3``, ``4``, or ``3-4`` (tables of four, and of
    three where the players do not divide by four); by default two players a game (or the fewest the game takes,
    when that is more). Each must be a number of players the game takes."""
    if text is None or not text.strip():
        return (max(2, game.min_players),)
    match = _TABLE.fullmatch(text.strip().lower())
    if match is None:
        raise InputError(f"{shorten(text)!r} is not a table size: write 2, 3, 4 or 3-4")
    sizes = sorted({int(n) for n in match.groups() if n is not None}, reverse=True)
    if sizes[0] - sizes[-1] > 1:
        raise InputError(f"tables of {sizes[-1]} and {sizes[0]} do not go together: write one size, or two in a row")
    for size in sizes:
        if not game.min_players <= size <= game.max_players:
            raise InputError(f"{game.title} is played by {game.min_players} to {game.max_players} players, not {size}")
    return tuple(sizes)


def read_signup_until(text: str, now: float) -> float:
    """When a signup closes, as typed: a time in UTC (``2026-12-01T09:00Z``, ``2026-12-01 09:00``, ``2026-12-01``)
    or a wait from ``now`` (``3d``, ``12h``, ``1d12h``, ``90m``); in the future, and at most :data:`MAX_SIGNUP`
    ahead."""
    word = "".join(text.split()).lower()
    relative = _RELATIVE.fullmatch(word)
    if relative is not None and any(relative.groups()):
        days, hours, minutes = (int(n or 0) for n in relative.groups())
        when = now + days * 86400 + hours * 3600 + minutes * 60
    else:
        from datetime import UTC, datetime

        try:
            moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError:
            raise InputError(
                f"{shorten(text)!r} is not a time: write a time in UTC like 2026-12-01T09:00Z, or a wait like 3d"
            ) from None
        when = (moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)).timestamp()
    if when <= now:
        raise InputError("the signup must close in the future")
    if when > now + MAX_SIGNUP:
        raise InputError(f"the signup must close within {count(int(MAX_SIGNUP // 86400), 'day')}")
    return when


def when_text(moment: float) -> str:
    """A moment as messages write it, in UTC: ``2026-12-01 09:00 UTC``."""
    from datetime import UTC, datetime

    return f"{datetime.fromtimestamp(moment, UTC):%Y-%m-%d %H:%M} UTC"


def describe(row: TournamentRow) -> str:
    """What a tournament plays, for people: ``Druid (-size=5), Swiss of 3 rounds; 3 days per move``."""
    game = registry.get(row.game_type)
    game_words, server_words = split_options(row.options)
    what = game.title + (f" ({' '.join(game_words)})" if game_words else "") + f", {format_name(row.format)}"
    planned = row.state.get("planned") if row.state is not None else row.rounds
    if isinstance(planned, int) and planned:
        what += f" of {count(planned, 'round')}"
    if row.table_sizes != [2]:
        what += f", tables of {' or '.join(str(size) for size in sorted(row.table_sizes))}"
    return f"{what}; {parse_time_rules(server_words).describe()}"


def past(status: str) -> str:
    """A status as "tournament 3 has ..." says it: ``started``, ``finished``, ``been cancelled``."""
    return {"running": "started", "finished": "finished", "cancelled": "been cancelled"}.get(status, status)


def byes_line(byes: Sequence[str]) -> str:
    return f"{'bye' if len(byes) == 1 else 'byes'}: {', '.join(byes)}"


def places_of(state: GameState, playing: Sequence[str]) -> dict[str, int]:
    """The place of each of ``playing`` in a finished game, ranked among them alone (the others at the board left
    the tournament): one more than the number of them placed strictly ahead (:func:`bot.ratings.placing`)."""
    from bot.ratings import placing

    outcome = state.outcome()
    assert outcome is not None and not outcome.cancelled
    places, _ = placing(outcome, len(state.players), state.resigned)
    mine = {player: places[seat] for seat, player in enumerate(state.players) if player in playing}
    return {p: 1 + sum(other < place for other in mine.values()) for p, place in mine.items()}


def final_round(t: Tournament) -> int:
    """A knock-out's last round (its final)."""
    from bot.competition.knockout import rounds_needed

    return rounds_needed(len(t.entrants))


def tiebreak_text(format_: str, value: Any, final: int) -> str:
    """A tie-break as the standings show it: points as players read them; a knock-out's round reached."""
    from bot.competition import points_text

    if format_ == "knock-out":
        reached = int(value)
        return "winner" if reached > final else "final" if reached == final else f"round {reached}"
    return points_text(value)


def standing_line(standing: Standing, format_: str, final: int) -> str:
    """One line of the standings: ``1. alice: 3 points (Buchholz 4½, Sonneborn-Berger 3), 3 games``; a knock-out's
    says how far the player came."""
    from bot.competition import TIEBREAKS, points_text

    name = standing.entrant.name + (" (withdrawn)" if standing.withdrawn else "")
    if format_ == "knock-out":
        reached = int(standing.tiebreaks[0])
        how = "won the final" if reached > final else "reached the final" if reached == final else f"round {reached}"
        return f"{standing.rank}. {name}: {how}, {count(int(standing.points), 'game')} won"
    breaks = ", ".join(
        f"{label} {points_text(value)}" for label, value in zip(TIEBREAKS[format_], standing.tiebreaks, strict=True)
    )
    points = f"{points_text(standing.points)} point{'' if 0 < standing.points <= 1 else 's'}"
    return f"{standing.rank}. {name}: {points} ({breaks}), {count(standing.played, 'game')}"


def winner_line(t: Tournament, tournament_id: int) -> str:
    """How a tournament ended: its champion, or who shares first place."""
    if t.champion is not None:
        return f"tournament {tournament_id} is over: {t.champion.name} won it"
    first = [s.entrant.name for s in t.standings() if s.rank == 1]
    if len(first) == 1:
        return f"tournament {tournament_id} is over: {first[0]} won it"
    return f"tournament {tournament_id} is over: {' and '.join(first)} share first place"


def stage(row: TournamentRow, t: Tournament) -> str:
    """Where a started tournament is: ``round 2 of 5 is being played (3 games to finish)``, or how it ended."""
    if row.status == "cancelled":
        return "cancelled"
    if row.status == "finished" or t.is_over:
        return winner_line(t, row.id)
    current = t.current
    if current is None:
        return "about to start"
    return f"round {current.number} of {t.planned} is being played ({count(len(current.unfinished), 'game')} to finish)"


def picture_of(result: Any) -> dict[str, object]:
    """What the standings picture shows of a standings result (:meth:`TournamentActions.tournament_standings`):
    a title, a line under it, the columns, and each row's cells and whether its player withdrew."""
    facts = result.data["tournament"]
    return {
        "title": f"Tournament {facts['id']}",
        "subtitle": result.message.split(": ", 1)[1] if ": " in result.message else result.message,
        "columns": [str(c) for c in result.data["columns"]],
        "rows": [(list(row["cells"]), bool(row["withdrawn"])) for row in result.data["rows"]],
    }
