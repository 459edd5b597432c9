"""The rating formula, pure: openskill's Weng-Lin model with Plackett-Luce ranking (it rates games of two to four
players natively, ties included), its default parameters (a new player is mu 25, sigma 25/3).

* **What a game counts for.** Every finished game, unless it was started ``-unrated``; cancelled games (declined
  in the first round) are not finished and count for nothing. Players are ranked by the outcome: the winners
  first; players still in the game before players who resigned or ran out of time (those share the last place);
  in games of more than two players that keep a score (Drogo), the rest by score, ties sharing a place; everyone
  else tied (Druid's three-player hex: the winner first, the others tied). A draw (on the board or by
  agreement) ties its players. A win is a ``win``, a shared first place without winners a ``draw``, anything
  else a ``loss``; Backgammon's points (gammons, the cube) go into the statistics, not into the rating.
* **Backgammon matches** are rated once, whatever their number of games: as their last game, won by the match's
  winner, worth the match's length in the statistics (a match to 5 won: 5 points won; lost: 5 points lost). The
  games before it count for nothing on their own.
* **The number shown.** ``1000 + 30 * (mu - 3 * sigma)``, rounded: the conservative estimate (the rating the
  player is very likely above) scaled so that 30 points are one unit of openskill's scale, about what one Elo
  point is in win chances. Everyone starts at 1000; a player of average strength whose rating has settled (sigma
  near 2.8) shows about 1500. While sigma is above :data:`PROVISIONAL_SIGMA` (roughly the first ten two-player
  games) the number is marked ``?``.

A rebuild (:func:`rebuild`) runs the same functions over the finished games in the order they were rated, so it
gives bit for bit the numbers the live updates gave.
"""

from __future__ import annotations

import gc
import math
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

from bot.correspondence.options import TimeRules
from data.rows import FinishedGame, RatedGame, RatingChange, RatingRow, VariantRow
from data.store.rate import variant_increment
from rules import registry
from rules.base import GameDef, GameError, Outcome

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

#: a new player's rating: openskill's defaults (its model is imported only when a game is rated: showing a
#: rating costs a console command nothing)
MU = 25.0
SIGMA = 25.0 / 3.0
#: the shown number: DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 sigma)
DISPLAY_BASE = 1000
DISPLAY_SCALE = 30
#: above this sigma a rating is provisional, shown with ``?``
PROVISIONAL_SIGMA = 6.5
#: the variant name of a game played with its default options
STANDARD = "standard"
#: games whose wins are worth points (Backgammon's gammons and cube): profiles show the points won and lost
POINTS_GAMES = frozenset({"backgammon"})


@cache
def model() -> PlackettLuce:
    """openskill's Plackett-Luce model with its default parameters (mu 25, sigma 25/3, beta 25/6, tau 25/300)."""
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA)


def conservative(mu: float, sigma: float) -> float:
    """The conservative estimate leaderboards sort by: ``mu - 3 sigma``."""
    return mu - 3 * sigma


def display(mu: float, sigma: float) -> int:
    """The number players see (see the module docstring), rounded half up."""
    return math.floor(DISPLAY_BASE + DISPLAY_SCALE * conservative(mu, sigma) + 0.5)


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def shown(mu: float, sigma: float) -> str:
    """The rating as text: ``1532``, or ``1000?`` while provisional."""
    return f"{display(mu, sigma)}{'?' if provisional(sigma) else ''}"


def row_text(row: RatingRow | None) -> str:
    """A stored rating as text; a player without one (no rated game yet) shows the rating everyone starts with."""
    return shown(MU, SIGMA) if row is None else shown(row.mu, row.sigma)


def fresh(player_id: str, game_type: str, now: float = 0.0) -> RatingRow:
    """The rating of a player before their first rated game of ``game_type``."""
    return RatingRow(player_id, game_type, MU, SIGMA, conservative(MU, SIGMA), updated_at=now)


class Shift(NamedTuple):
    """What a finished game did to a player's shown rating."""

    player: str
    before: int
    after: int
    provisional: bool

    @classmethod
    def of(cls, change: RatingChange) -> Shift:
        return cls(
            change.player_id,
            display(change.mu_before, change.sigma_before),
            display(change.mu_after, change.sigma_after),
            provisional(change.sigma_after),
        )

    def text(self) -> str:
        """``alice 1532 (+14)``; a provisional rating keeps its ``?``."""
        return f"{self.player} {self.after}{'?' if self.provisional else ''} ({self.after - self.before:+d})"

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "before": self.before, "after": self.after, "provisional": self.provisional}


def is_rated(clock: dict[str, Any] | None) -> bool:
    """Whether a game counts for the ratings: not started ``-unrated`` (its rules are kept with its clock)."""
    return not TimeRules.from_json(None if clock is None else clock.get("rules")).unrated


def variant_of(game: GameDef, options: Mapping[str, Any], players: int) -> str:
    """A game's variant: its options minus the defaults, in their canonical form (``-size=8 -hex``), or
    ``standard``. A game's stored options are complete: an option whose default depends on the others (Druid's
    ``-size``, 10 on the square board and 5 on the hex; Dragons' ``-num_tiles``, 50 or 40 with ``-tantrix``) is
    stored with the value the game filled in, which is dropped here when it is that default, so that a game
    started with ``-size=10`` and one started with no option at all are the same variant. ``players``: the
    game's seats (a game's checks may depend on them)."""
    return game.format_options(_without_filled_defaults(game, options, players)) or STANDARD


def _without_filled_defaults(game: GameDef, options: Mapping[str, Any], players: int) -> dict[str, Any]:
    """``options`` without the options whose default the game computes, where they hold that default: the
    game's own check fills them again from the other options, and what it fills is the default."""
    computed = [option.name for option in game.options if option.default is None]
    kept = dict(options)
    if not computed:
        return kept
    try:
        defaults = game.validate({**kept, **dict.fromkeys(computed)}, players)
    except GameError:
        return kept  # options no game of this many players takes: named as they are
    for name in computed:
        if name in kept and kept[name] == defaults.get(name):
            del kept[name]
    return kept


def read_variant(game: GameDef, words: Sequence[str]) -> str:
    """The variant players name by its options (``hex``, ``-size=8 -single``, ``standard``), as it is stored:
    options given at their default name the same variant as options left out (``-size=10`` is ``standard``).
    Raises :class:`rules.base.GameError` naming what is wrong."""
    if [word.lower() for word in words] == [STANDARD]:
        return STANDARD
    typed = [word if word.startswith("-") else f"-{word}" for word in words]
    problem: GameError | None = None
    for players in range(game.min_players, game.max_players + 1):
        try:
            return variant_of(game, game.parse_options(typed, players), players)
        except GameError as exc:
            problem = problem or exc
    assert problem is not None
    raise problem


def placing(outcome: Outcome, seats: int, resigned: Iterable[int]) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Each seat's place (1 first; equal places for ties; a place after ``k`` better seats is ``k + 1``) and
    result (``win``, ``loss``, ``draw``) in a finished game (see the module docstring)."""
    winners = outcome.winners
    out = set(resigned).difference(winners)
    scores = outcome.scores if outcome.scores is not None and seats > 2 else None
    keys = [
        (seat in out, seat not in winners, 0.0 if scores is None else -float(scores[seat])) for seat in range(seats)
    ]
    ordered = sorted(keys)
    places = tuple([bisect_left(ordered, key) + 1 for key in keys])
    results = tuple(
        ["win" if seat in winners else "loss" if winners or places[seat] > 1 else "draw" for seat in range(seats)]
    )
    return places, results


def rated_game(
    game: GameDef,
    options: dict[str, Any],
    outcome: Outcome,
    seats: Sequence[str],
    resigned: Iterable[int],
    variant: str | None = None,
    points: int | None = None,
) -> RatedGame | None:
    """A finished game as the ratings take it; ``None`` for one that counts for nothing (cancelled).
    ``variant``: the variant of its ``options``, when the caller knows it already; ``points``: what the win is
    worth, when not the outcome's points (a Backgammon match: its length)."""
    if outcome.cancelled:
        return None
    places, results = placing(outcome, len(seats), resigned)
    value = (outcome.points if points is None else points) if outcome.winners else 0
    points = tuple([value if result == "win" else -value for result in results])
    variant = variant_of(game, options, len(seats)) if variant is None else variant
    return RatedGame(game.name, variant, tuple(seats), places, results, points)


@dataclass(frozen=True)
class OpenSkillRater:
    """The formula as the store takes it (:class:`data.store.Rater`): new players, and ratings after a game."""

    def fresh(self, player_id: str, game_type: str, now: float) -> RatingRow:
        return fresh(player_id, game_type, now)

    def rate(self, game: RatedGame, before: Sequence[RatingRow], now: float) -> list[RatingRow]:
        rated = plackett_luce([(row.mu, row.sigma) for row in before], game.places)
        return [
            _after(row, mu, sigma, result, points, now)
            for row, (mu, sigma), result, points in zip(before, rated, game.results, game.points, strict=True)
        ]


def plackett_luce(ratings: Sequence[tuple[float, float]], places: Sequence[int]) -> list[tuple[float, float]]:
    """Each player's ``(mu, sigma)`` after a game of one-player teams, by openskill's Plackett-Luce model: exactly
    what ``PlackettLuce().rate([[rating] ...], ranks=places)`` gives (a test holds them equal bit for bit), computed
    by the model's own ``_compute`` after the same steps ``rate`` takes first (sigma widened by tau, the teams
    sorted by place), without ``rate``'s defensive deep copy and argument checks, which cost as much as the
    computation itself: a rebuild of 100,000 games spends its time here."""
    openskill = model()
    tau_squared = openskill.tau * openskill.tau
    order = sorted(range(len(places)), key=places.__getitem__)
    pool = _pool(len(places))
    teams = []
    for player, i in zip(pool, order, strict=False):
        mu, sigma = ratings[i]
        player.mu, player.sigma = mu, math.sqrt(sigma * sigma + tau_squared)
        teams.append([player])
    result = openskill._compute(teams=teams, ranks=sorted(places))
    out: list[tuple[float, float]] = [(0.0, 0.0)] * len(places)
    for k, i in enumerate(order):
        out[i] = (result[k][0].mu, result[k][0].sigma)
    return out


@cache
def _pools() -> Any:
    """Each thread's pool (a ``threading.local``, made on the first rating: a move or a board shown never needs
    the threading module)."""
    import threading

    return threading.local()


def _pool(size: int) -> list[Any]:
    """This thread's openskill rating objects, reused for every game (``_compute`` rewrites their mu and sigma):
    making new ones draws a random id for each, the largest cost of a rebuild after the arithmetic."""
    pools = _pools()
    pool: list[Any] = getattr(pools, "ratings", [])
    while len(pool) < size:
        pool.append(model().rating())
    pools.ratings = pool
    return pool


RATER = OpenSkillRater()


def _after(row: RatingRow, mu: float, sigma: float, result: str, points: int, now: float) -> RatingRow:
    """A player's rating and statistics after one game."""
    if result == "win":
        streak = row.streak + 1 if row.streak > 0 else 1
    elif result == "loss":
        streak = row.streak - 1 if row.streak < 0 else -1
    else:
        streak = 0
    return RatingRow(
        row.player_id,
        row.game_type,
        mu,
        sigma,
        conservative(mu, sigma),
        row.games + 1,
        row.wins + (result == "win"),
        row.losses + (result == "loss"),
        row.draws + (result == "draw"),
        row.points_won + max(points, 0),
        row.points_lost + max(-points, 0),
        streak,
        now,
    )


def finished_to_rated(finished: FinishedGame, variant: str | None = None) -> RatedGame | None:
    """A stored finished game as the ratings take it; ``None`` when it does not count (unrated, or of a game
    this pbm does not know). ``variant``: its variant, when the caller knows it already."""
    if finished.unrated:
        return None
    try:
        game = registry.get(finished.type)
    except GameError:
        return None
    try:
        outcome = Outcome.from_json(finished.outcome)
    except (KeyError, TypeError, ValueError):
        return None  # a damaged game is reported when it is opened (and by pbm check)
    if outcome is None:
        return None
    if finished.match_length is not None and not finished.match_final:
        return None  # a game inside a Backgammon match: the match is rated once, as its last game
    points = finished.match_length
    return rated_game(game, finished.options, outcome, finished.seats, finished.resigned, variant, points)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off for a rebuild: hundreds of thousands of rows are made and none refers to another
    in a cycle, so the collector would only rescan them again and again (a tenth of a rebuild)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


@dataclass
class Rebuilt:
    """Every rating, variant result and rating change, recomputed."""

    ratings: list[RatingRow]
    variants: list[VariantRow]
    changes: list[RatingChange]
    games: int


def rebuild(games: Iterable[FinishedGame]) -> Rebuilt:
    """Rate ``games`` in the order given (the store's :meth:`finished_games`), from nothing, exactly as the live
    updates do: the same rater on the same ratings, each game stamped with the time it ended."""
    ratings: dict[tuple[str, str], RatingRow] = {}
    tallies: dict[tuple[str, str, str], list[int]] = {}
    changes: list[RatingChange] = []
    counted = _rate_all(games, ratings, tallies, changes)
    # a variant's score is a copy of its game type's, as the live updates keep it
    variants = [
        VariantRow(player, game_type, variant, ratings[(player, game_type)].score, *tally)
        for (player, game_type, variant), tally in tallies.items()
    ]
    return Rebuilt(list(ratings.values()), variants, changes, counted)


def _rate_all(
    games: Iterable[FinishedGame],
    ratings: dict[tuple[str, str], RatingRow],
    tallies: dict[tuple[str, str, str], list[int]],
    changes: list[RatingChange],
) -> int:
    """:func:`rebuild`'s loop: rate every game that counts, in order; how many did."""
    counted = 0
    # the store shares one options mapping between games that share it; a variant is named by the options and
    # the seats (see variant_of)
    variants: dict[tuple[str, int, int], str] = {}
    for finished in games:
        options_key = (finished.type, id(finished.options), len(finished.seats))
        variant = variants.get(options_key)
        game = finished_to_rated(finished, variant)
        if game is None:
            continue
        variants[options_key] = game.variant
        counted += 1
        now, game_type = finished.ended_at, game.game_type
        before = [ratings.get((p, game_type)) or fresh(p, game_type, now) for p in game.players]
        after = RATER.rate(game, before, now)
        for index, row in enumerate(after):
            player = row.player_id
            ratings[(player, game_type)] = row
            key = (player, game_type, game.variant)
            tally = tallies.get(key)
            added = variant_increment(game, index, row.score)[4:]
            tallies[key] = list(added) if tally is None else [a + b for a, b in zip(tally, added, strict=True)]
            old = before[index]
            changes.append(
                RatingChange(
                    finished.id,
                    player,
                    counted,
                    game_type,
                    game.variant,
                    game.places[index],
                    game.results[index],
                    game.points[index],
                    old.mu,
                    old.sigma,
                    row.mu,
                    row.sigma,
                    now,
                )
            )
    return counted
