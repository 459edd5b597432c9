"""The rating formula, pure: openskill's Weng-Lin model with Plackett-Luce ranking (it rates games of two to four
players natively, ties included), its default parameters (a new player is mu 25, sigma 25/3).

* **What a game counts for.** Every finished game, unless it was started ``-unrated``; cancelled games (declined
  in the first round) are not finished and count for nothing. Players are ranked by the outcome: the winners
  first; players still in the game before players who resigned or ran out of time (those share the last place);
  in games of more than two players that keep a score (Drogo), the rest by score, ties sharing a place; everyone
  else tied (Druid's three-player hex: the winner first, the others tied). A draw (on the board or by
  agreement) ties its players. A win is a ``win``, a shared first place without winners a ``draw``, anything
  else a ``loss``; Backgammon's points (gammons, the cube) go into the statistics, not into the rating.
* **The number shown.** ``1000 + 30 * (mu - 3 * sigma)``, rounded: the conservative estimate (the rating the
  player is very likely above) scaled so that 30 points are one unit of openskill's scale, about what one Elo
  point is in win chances. Everyone starts at 1000; a player of average strength whose rating has settled (sigma
  near 2.8) shows about 1500. While sigma is above :data:`PROVISIONAL_SIGMA` (roughly the first ten two-player
  games) the number is marked ``?``.

A rebuild (:func:`rebuild`) runs the same functions over the finished games in the order they were rated, so it
gives bit for bit the numbers the live updates gave.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
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


def variant_of(game: GameDef, options: dict[str, Any]) -> str:
    """A game's variant: its options as typed, in their canonical form (``-size=5 -hex``), or ``standard``."""
    return game.format_options(options) or STANDARD


def read_variant(game: GameDef, words: Sequence[str]) -> str:
    """The variant players name by its options (``hex``, ``-size=8 -single``, ``standard``), as it is stored;
    raises :class:`rules.base.GameError` naming what is wrong."""
    if [word.lower() for word in words] == [STANDARD]:
        return STANDARD
    typed = [word if word.startswith("-") else f"-{word}" for word in words]
    problem: GameError | None = None
    for players in range(game.min_players, game.max_players + 1):
        try:
            return variant_of(game, game.parse_options(typed, players))
        except GameError as exc:
            problem = problem or exc
    assert problem is not None
    raise problem


def placing(outcome: Outcome, seats: int, resigned: Iterable[int]) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Each seat's place (1 first; equal places for ties; a place after ``k`` better seats is ``k + 1``) and
    result (``win``, ``loss``, ``draw``) in a finished game (see the module docstring)."""
    out = set(resigned) - set(outcome.winners)
    by_score = outcome.scores is not None and seats > 2

    def key(seat: int) -> tuple[bool, bool, float]:
        score = -float(outcome.scores[seat]) if by_score and outcome.scores is not None else 0.0
        return seat in out, seat not in outcome.winners, score

    keys = [key(seat) for seat in range(seats)]
    places = tuple(1 + sum(other < mine for other in keys) for mine in keys)
    results = tuple(
        "win" if seat in outcome.winners else "draw" if not outcome.winners and places[seat] == 1 else "loss"
        for seat in range(seats)
    )
    return places, results


def rated_game(
    game: GameDef, options: dict[str, Any], outcome: Outcome, seats: Sequence[str], resigned: Iterable[int]
) -> RatedGame | None:
    """A finished game as the ratings take it; ``None`` for one that counts for nothing (cancelled)."""
    if outcome.cancelled:
        return None
    places, results = placing(outcome, len(seats), resigned)
    points = tuple(
        outcome.points if result == "win" else -outcome.points if outcome.winners else 0 for result in results
    )
    return RatedGame(game.name, variant_of(game, options), tuple(seats), places, results, points)


@dataclass(frozen=True)
class OpenSkillRater:
    """The formula as the store takes it (:class:`data.store.Rater`): new players, and ratings after a game."""

    def fresh(self, player_id: str, game_type: str, now: float) -> RatingRow:
        return fresh(player_id, game_type, now)

    def rate(self, game: RatedGame, before: Sequence[RatingRow], now: float) -> list[RatingRow]:
        rating = model().rating
        teams = [[rating(mu=row.mu, sigma=row.sigma)] for row in before]
        rated = model().rate(teams, ranks=list(game.places))
        return [
            _after(row, team[0].mu, team[0].sigma, game.results[index], game.points[index], now)
            for index, (row, team) in enumerate(zip(before, rated, strict=True))
        ]


RATER = OpenSkillRater()


def _after(row: RatingRow, mu: float, sigma: float, result: str, points: int, now: float) -> RatingRow:
    """A player's rating and statistics after one game."""
    if result == "win":
        streak = row.streak + 1 if row.streak > 0 else 1
    elif result == "loss":
        streak = row.streak - 1 if row.streak < 0 else -1
    else:
        streak = 0
    return row._replace(
        mu=mu,
        sigma=sigma,
        score=conservative(mu, sigma),
        games=row.games + 1,
        wins=row.wins + (result == "win"),
        losses=row.losses + (result == "loss"),
        draws=row.draws + (result == "draw"),
        points_won=row.points_won + max(points, 0),
        points_lost=row.points_lost + max(-points, 0),
        streak=streak,
        updated_at=now,
    )


def finished_to_rated(finished: FinishedGame) -> RatedGame | None:
    """A stored finished game as the ratings take it; ``None`` when it does not count (unrated, or of a game
    this pbm does not know)."""
    if not is_rated(finished.clock):
        return None
    try:
        game = registry.get(finished.type)
    except GameError:
        return None
    outcome = Outcome.from_json(finished.outcome)
    if outcome is None:
        return None
    return rated_game(game, finished.options, outcome, finished.seats, finished.resigned)


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
    variants: dict[tuple[str, str, str], VariantRow] = {}
    changes: list[RatingChange] = []
    counted = 0
    for finished in games:
        game = finished_to_rated(finished)
        if game is None:
            continue
        counted += 1
        now = finished.ended_at
        before = [ratings.get((p, game.game_type)) or fresh(p, game.game_type, now) for p in game.players]
        after = RATER.rate(game, before, now)
        for index, row in enumerate(after):
            ratings[(row.player_id, row.game_type)] = row
            added = VariantRow(*variant_increment(game, index, row.score))
            key = (row.player_id, row.game_type, game.variant)
            known = variants.get(key)
            variants[key] = added if known is None else VariantRow(*known[:4], *_sum(known, added))
            changes.append(
                RatingChange(
                    finished.id,
                    row.player_id,
                    counted,
                    game.game_type,
                    game.variant,
                    game.places[index],
                    game.results[index],
                    game.points[index],
                    before[index].mu,
                    before[index].sigma,
                    row.mu,
                    row.sigma,
                    now,
                )
            )
    # a variant's score is a copy of its game type's, as the live updates keep it
    final = [row._replace(score=ratings[(row.player_id, row.game_type)].score) for row in variants.values()]
    return Rebuilt(list(ratings.values()), final, changes, counted)


def _sum(known: VariantRow, added: VariantRow) -> tuple[int, ...]:
    return tuple(a + b for a, b in zip(known[4:], added[4:], strict=True))
