"""The rows the store hands out: plain named tuples, immutable and cheap.

This module deliberately does without ``from __future__ import annotations``: with string annotations,
``typing.NamedTuple`` compiles every field's annotation at import, which made importing the store the largest part
of a console command's start-up. Real annotations cost nothing here.
"""

from collections.abc import Sequence
from typing import Any, NamedTuple


class GameRow(NamedTuple):
    """One game as stored. ``snapshot`` is the parsed state JSON; ``players`` the seats at creation."""

    id: int
    type: str
    options: dict[str, Any]
    players: list[str]
    seed: int
    status: str
    move_number: int
    log_length: int
    to_move: str | None
    snapshot: dict[str, Any]
    outcome: dict[str, Any] | None
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    created_at: float
    updated_at: float
    #: the game's memory (:meth:`rules.base.GameState.memory`), packed as stored: a :class:`rules.memory.Memory`
    memory: Sequence[int] = ()
    #: the correspondence clock (JSON of :class:`bot.correspondence.clock.Clock`); ``None``: untimed (old games)
    clock: dict[str, Any] | None = None
    #: when the player to move runs out of time (``None``: no clock running)
    deadline: float | None = None
    #: the id of the game's clock timer as read (see :class:`data.store.ClockWrite`)
    timer_id: int | None = None
    #: the Backgammon match the game is part of (``None``: none), and which of its games it is (from 1)
    match_id: int | None = None
    match_game: int | None = None


class MatchRow(NamedTuple):
    """A Backgammon match as stored: its length, players (seat order), the score per seat as of its last finished
    game, how many games it has had, ``status`` (``active``, ``finished``, ``cancelled``) and its winner."""

    id: int
    length: int
    players: list[str]
    score: list[int]
    games: int
    status: str
    winner: str | None
    created_at: float
    updated_at: float


class GameSummary(NamedTuple):
    """What a listing shows of a game, read without parsing its snapshot. ``seats`` are the players in seat
    order at the end (a swap may change them), known for finished games; ``players`` are the seats at creation."""

    id: int
    type: str
    players: list[str]
    status: str
    move_number: int
    to_move: str | None
    outcome: dict[str, Any] | None
    seats: list[str] | None
    #: when the player to move runs out of time (``None``: no clock running)
    deadline: float | None = None


class LogEntry(NamedTuple):
    """One action appended to the move log: the move number after it, who acted, the canonical text, the
    events it caused (JSON-able), and whether the server played it (``(Auto)``)."""

    number: int
    player_id: str | None
    text: str
    events: list[dict[str, Any]]
    auto: bool = False
    #: played for the player from their conditional moves (``queue``), shown as ``(Queued)``
    queued: bool = False


class LogRow(NamedTuple):
    """A logged action as read back: a :class:`LogEntry` with its place in the log and its time."""

    number: int
    player_id: str | None
    text: str
    events: list[dict[str, Any]]
    auto: bool = False
    seq: int = 0
    created_at: float = 0.0
    queued: bool = False


class LogLine(NamedTuple):
    """One logged action for a listing: ``events_json`` unparsed; ``made`` is 0 for a player's action, 1 for
    the server's (``(Auto)``), 2 for a conditional move played for the player (``(Queued)``)."""

    number: int
    player_id: str | None
    text: str
    made: int
    events_json: str


class ChallengeRow(NamedTuple):
    """A challenge: the ``players`` it names (the challenger first) and which of them ``accepted``; an open
    challenge also keeps ``open_seats`` seats for anyone, taken by ``joined`` in the order they came, for
    players rated ``rating_min`` to ``rating_max`` (``None``: no bound)."""

    id: int
    type: str
    options: list[str]
    players: list[str]
    accepted: list[str]
    status: str
    game_id: int | None
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    created_at: float
    expires_at: float | None
    open_seats: int
    joined: list[str]
    rating_min: int | None
    rating_max: int | None

    @property
    def seated(self) -> list[str]:
        """Everyone with a seat so far, in seat order: the named players, then those who took an open seat."""
        return [*self.players, *self.joined]

    @property
    def free_seats(self) -> int:
        """Open seats nobody has taken yet."""
        return self.open_seats - len(self.joined)


class TimerRow(NamedTuple):
    """A due time in the timers table: a game's clock (``clock``), a proposal's end (``proposal``, ``ref`` the
    proposal), a vacation's end (``vacation``) or a ping held through quiet hours (``deliver``)."""

    id: int
    due_at: float
    kind: str
    game_id: int | None
    player_id: str | None
    ref: int | None
    data: dict[str, Any]


class VacationRow(NamedTuple):
    """A player's vacation bank: ``balance`` seconds as of ``as_of``; ``since`` when the vacation started
    (``None``: not on vacation)."""

    balance: float
    as_of: float
    since: float | None


class ProposalRow(NamedTuple):
    """A takeback (``undo``) or draw proposal, open while the game stays at ``log_length`` actions."""

    id: int
    game_id: int
    kind: str
    proposer: str
    log_length: int
    accepted: list[str]
    status: str
    channel_id: int | None
    message_id: int | None
    created_at: float
    expires_at: float | None


class QueuedLine(NamedTuple):
    """A stored line of conditional moves (``queue``): the moves in order, as the player wrote them."""

    id: int
    game_id: int
    player_id: str
    moves: list[str]


class RatingRow(NamedTuple):
    """A player's rating in one game type: openskill's ``mu`` and ``sigma``, ``score`` the number leaderboards sort
    by (the conservative estimate), and the statistics shown beside it. ``points_won`` and ``points_lost`` add up
    the points of games won and lost (Backgammon's gammons and cube); ``streak`` counts the latest results alike:
    wins in a row (positive), losses in a row (negative), 0 after a draw."""

    player_id: str
    game_type: str
    mu: float
    sigma: float
    score: float
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    points_won: int = 0
    points_lost: int = 0
    streak: int = 0
    updated_at: float = 0.0


class VariantRow(NamedTuple):
    """A player's results in one variant of a game type (variants share their game type's rating; ``score`` is a
    copy of it, for the variant's leaderboard)."""

    player_id: str
    game_type: str
    variant: str
    score: float
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    points_won: int = 0
    points_lost: int = 0


class RatedGame(NamedTuple):
    """A finished game as the ratings take it: its players (seats at the end), each one's ``place`` (1 is first;
    players tied share a place), ``result`` (``win``, ``loss`` or ``draw``) and ``points`` (won: positive, lost:
    negative, drawn: 0)."""

    game_type: str
    variant: str
    players: tuple[str, ...]
    places: tuple[int, ...]
    results: tuple[str, ...]
    points: tuple[int, ...]


class RatingChange(NamedTuple):
    """What one rated game did to one player's rating. ``seq`` is the game's place in the order games were rated
    (games rated at the same moment share no player, so their order does not matter)."""

    game_id: int
    player_id: str
    seq: int
    game_type: str
    variant: str
    place: int
    result: str
    points: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    created_at: float


class FinishedGame(NamedTuple):
    """A finished game as a rebuild of the ratings reads it: its options, whether it was started ``-unrated``, its
    outcome, the seats at the end and who resigned or ran out of time, and when it ended. ``seq`` is its place in
    the order of rating when it was rated live (``None``: it never was)."""

    id: int
    type: str
    options: dict[str, Any]
    unrated: bool
    outcome: dict[str, Any]
    seats: list[str]
    resigned: list[int]
    ended_at: float
    seq: int | None
    #: the length of the Backgammon match the game was part of (``None``: none), and whether it is the game that
    #: ended that match: a match is rated once, as its last game
    match_length: int | None = None
    match_final: bool = False
