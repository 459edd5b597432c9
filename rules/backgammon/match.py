"""Backgammon matches to n points: the score carried from game to game, the Crawford rule, points capped.

A match is a series of games between the same two players; each game's points (the cube's value, doubled for a
gammon, tripled for a backgammon) go to its winner's score, and the first player to reach the match length wins
the match. Points past the match length do not count.

**The Crawford rule.** In the first game after either player reaches match point minus one (one point from
winning), nobody may double: that game is the *Crawford game*. Every game after it is *post-Crawford*: doubling
as usual. A match started ``-nocrawford`` has no Crawford game. A 1-point match starts with both players one point
from winning: nobody *reached* it, so it has no Crawford game either (the cube is then worthless, not refused).

:class:`Match` is what one game of a match knows: the length, the score before the game (per seat), which game of
the match it is and whether it is the Crawford game. :meth:`Match.after` is the arithmetic of a game's end; it is
pure, so the rules, the store's rebuild of the ratings and the tests all use the same one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.base import StateFormatError

#: the longest match pbm plays (the length the published match equity tables cover)
MAX_LENGTH = 25


@dataclass(frozen=True)
class Match:
    """One game's place in a match: ``score`` per seat before this game, ``game`` its number in the match (from 1),
    ``crawford`` whether this is the Crawford game, ``post_crawford`` whether the Crawford game has been played,
    ``rule`` whether the Crawford rule is in force (``-nocrawford``: not); ``id`` the match's number where it is
    stored (the rules never read it)."""

    length: int
    score: tuple[int, int] = (0, 0)
    game: int = 1
    crawford: bool = False
    post_crawford: bool = False
    rule: bool = True
    id: int | None = None

    def away(self, seat: int) -> int:
        """How many points ``seat`` still needs to win the match."""
        return self.length - self.score[seat]

    def counted(self, winner: int, points: int) -> int:
        """The points of a game won by ``winner`` that count: no more than they need to win the match."""
        return min(points, self.away(winner))

    def after(self, winner: int, points: int) -> MatchEnd:
        """The match after ``winner`` won this game for ``points``: the new score, whether the match is over,
        and (when it goes on) the next game's place in it."""
        counted = self.counted(winner, points)
        score = list(self.score)
        score[winner] += counted
        new = (score[0], score[1])
        if new[winner] >= self.length:
            return MatchEnd(new, counted, winner, None)
        one_away = any(self.length - s == 1 for s in new)
        crawford = self.rule and one_away and not self.crawford and not self.post_crawford
        post = self.rule and (self.post_crawford or self.crawford)
        return MatchEnd(new, counted, None, Match(self.length, new, self.game + 1, crawford, post, self.rule, self.id))

    def forfeited(self, winner: int) -> MatchEnd:
        """The match after a player gave it up (a resignation, their time ran out, a moderator's decision): the
        other player wins it, and the score stays as it was."""
        return MatchEnd(self.score, 0, winner, None)

    def describe(self, players: Sequence[str]) -> str:
        """``match 4 to 5, game 3: alice 2, bob 1 (the Crawford game: no doubling)`` (the number where known)."""
        number = "" if self.id is None else f" {self.id}"
        return f"match{number} to {self.length}, game {self.game}: {score_text(players, self.score)}{self._kind()}"

    def _kind(self) -> str:
        if self.crawford:
            return " (the Crawford game: no doubling)"
        return ""

    def to_json(self) -> dict[str, Any]:
        return {
            "length": self.length,
            "score": list(self.score),
            "game": self.game,
            "crawford": self.crawford,
            "post_crawford": self.post_crawford,
            "rule": self.rule,
            "id": self.id,
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any] | None) -> Match | None:
        """The match of a saved state (``None`` for a money game); raises :class:`StateFormatError` if damaged."""
        if raw is None:
            return None
        try:
            length = int(raw["length"])
            score = (int(raw["score"][0]), int(raw["score"][1]))
            match = cls(
                length,
                score,
                int(raw["game"]),
                bool(raw["crawford"]),
                bool(raw["post_crawford"]),
                bool(raw["rule"]),
                None if raw.get("id") is None else int(raw["id"]),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise StateFormatError(f"backgammon: damaged match ({exc})") from None
        if not 1 <= length <= MAX_LENGTH or min(score) < 0 or max(score) >= length or match.game < 1:
            raise StateFormatError("backgammon: the match's score or length is out of range")
        return match


@dataclass(frozen=True)
class MatchEnd:
    """The match after one of its games: the score per seat, the points of the game that counted, the match's
    winner (``None`` while it goes on) and the next game's place in it (``None`` once it is over)."""

    score: tuple[int, int]
    counted: int
    winner: int | None
    next: Match | None

    @property
    def over(self) -> bool:
        return self.winner is not None


def score_text(players: Sequence[str], score: Sequence[int]) -> str:
    """``alice 2, bob 1``."""
    return f"{players[0]} {score[0]}, {players[1]} {score[1]}"


def end_text(players: Sequence[str], match: Match, end: MatchEnd, points: int) -> str:
    """What a game's end did to the match, in one sentence: ``match to 5: alice 3, bob 1; game 4 is the Crawford
    game``, ``alice wins the match to 5, 5-3 (2 of the 4 points counted)``, or after a match given up ``alice wins
    the match to 5; the score stood at alice 1, bob 3``."""
    if end.winner is not None and end.score[end.winner] < match.length:  # resigned, out of time, decided
        stood = score_text(players, end.score)
        return f"{players[end.winner]} wins the match to {match.length}; the score stood at {stood}"
    if end.winner is not None:
        loser = 1 - end.winner
        capped = f" ({end.counted} of the {points} points counted)" if 0 < end.counted < points else ""
        final = f"{end.score[end.winner]}-{end.score[loser]}"
        return f"{players[end.winner]} wins the match to {match.length}, {final}{capped}"
    assert end.next is not None
    text = f"match to {match.length}: {score_text(players, end.score)}"
    if end.next.crawford:
        text += f"; game {end.next.game} is the Crawford game: no doubling"
    return text
