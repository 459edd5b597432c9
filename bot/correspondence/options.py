"""The options every game takes at the challenge, declared once: the clock (``-days``, ``-total``, ``-weekends``,
``-untimed``, ``-novacation``), ``-noundo`` and ``-unrated``. They are read beside the game's own options with the same
parser, listed by ``help`` after them, and kept in the game's clock rather than in the rules' options, because
they govern the server, not the board. So are an open challenge's rating range (``-rating_min``,
``-rating_max``), kept with the challenge: they say who may take its seats, and the game never sees them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from bot.text import count
from rules.base import Option, OptionError, format_options, parse_options

SERVER_OPTIONS: tuple[Option, ...] = (
    Option(
        "days",
        int,
        7,
        "days per move; making a move refills the mover's clock to the full allowance",
        1,
        30,
        conflicts=("untimed",),
    ),
    Option(
        "total",
        int,
        0,
        "the most days a player may use over the whole game (0: no cap)",
        0,
        3650,
        conflicts=("untimed",),
    ),
    Option(
        "weekends",
        bool,
        False,
        "clocks stand still on Saturday and Sunday, in each player's own time zone",
        conflicts=("untimed",),
    ),
    Option("untimed", bool, False, "no clock at all; the player to move is only reminded"),
    Option("novacation", bool, False, "a player's vacation does not stop this game's clock", conflicts=("untimed",)),
    Option("noundo", bool, False, "moves cannot be taken back (no undo proposals)"),
    Option("unrated", bool, False, "the game does not count for the ratings"),
)
_NAMES = frozenset(option.name for option in SERVER_OPTIONS)
#: the widest rating range a challenge may name
MAX_RATING = 4000
SEAT_OPTIONS: tuple[Option, ...] = (
    Option("rating_min", int, None, "an open challenge's seats are for players rated n or more", 0, MAX_RATING),
    Option("rating_max", int, None, "an open challenge's seats are for players rated n or less", 0, MAX_RATING),
)
_SEAT_NAMES = frozenset(option.name for option in SEAT_OPTIONS)


@dataclass(frozen=True)
class TimeRules:
    """A game's server options: ``days`` per move, a ``total`` cap in days (0: none), whether weekends are free,
    whether the game is ``untimed``, whether vacations stop its clock (not with ``novacation``), whether
    takebacks may be proposed (not with ``noundo``), and whether the game counts for the ratings (not with
    ``unrated``)."""

    days: int = 7
    total: int = 0
    weekends: bool = False
    untimed: bool = False
    novacation: bool = False
    noundo: bool = False
    unrated: bool = False

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> TimeRules:
        """The rules stored with a game; ``None`` (a game from before clocks) is untimed, takebacks allowed, rated."""
        if data is None:
            return cls(untimed=True)
        return cls(**{name: data[name] for name in _NAMES if name in data})

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def words(self) -> str:
        """The options as typed (``-days=3 -weekends``), only those that differ from the defaults."""
        return format_options(SERVER_OPTIONS, asdict(self))

    def describe(self) -> str:
        """For people: ``3 days per move, 30 days in all, weekends free`` or ``untimed`` (and ``unrated``)."""
        if self.untimed:
            parts = ["untimed"]
        else:
            parts = [f"{count(self.days, 'day')} per move"]
            if self.total:
                parts.append(f"{count(self.total, 'day')} in all")
            if self.weekends:
                parts.append("weekends free")
            if self.novacation:
                parts.append("vacations do not stop it")
        if self.noundo:
            parts.append("no takebacks")
        if self.unrated:
            parts.append("unrated")
        return ", ".join(parts)


def split_options(tokens: Iterable[str]) -> tuple[list[str], list[str]]:
    """Separate the server's option words from the game's: (game's, server's)."""
    game, server = [], []
    for token in tokens:
        name = token[1:].partition("=")[0].lower() if token.startswith("-") else ""
        (server if name in _NAMES else game).append(token)
    return game, server


def split_seat_options(tokens: Iterable[str]) -> tuple[list[str], list[str]]:
    """Separate the rating range's words from the others: (others, the range's)."""
    rest, seats = [], []
    for token in tokens:
        name = token[1:].partition("=")[0].lower() if token.startswith("-") else ""
        (seats if name in _SEAT_NAMES else rest).append(token)
    return rest, seats


def parse_rating_range(tokens: Iterable[str]) -> tuple[int | None, int | None]:
    """The rating range's words read as (lowest, highest), ``None`` where unbounded; raises
    :class:`rules.base.OptionError` naming what is wrong, a lowest above the highest included."""
    values = parse_options(SEAT_OPTIONS, tokens)
    low, high = values["rating_min"], values["rating_max"]
    if isinstance(low, int) and isinstance(high, int) and low > high:
        raise OptionError(f"-rating_min={low} is above -rating_max={high}: nobody could take a seat")
    return (low if isinstance(low, int) else None), (high if isinstance(high, int) else None)


def parse_time_rules(tokens: Iterable[str]) -> TimeRules:
    """Read the server's option words; raises :class:`rules.base.OptionError` naming what is wrong."""
    return TimeRules(**parse_options(SERVER_OPTIONS, tokens))  # type: ignore[arg-type]


def describe_options() -> list[str]:
    """One help line per server option, then the rating range's."""
    return [option.describe() for option in (*SERVER_OPTIONS, *SEAT_OPTIONS)]
