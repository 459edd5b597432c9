"""Backgammon game analysis: every play and cube action of both players rated by GNU Backgammon's evaluator.

Feed it the game's replayed positions, ``(state_before, move_text, seat)`` per logged move (see
:func:`replay`, which rebuilds them from the seed and the move log). Each real decision (not a forced or
impossible play, not a mode switch) gets the equity it lost against the best choice, in normalised money
equity (per unit of the cube as it stood), and a mark: ``doubtful`` from 0.04, ``error`` from 0.08,
``blunder`` from 0.16 (gnubg's usual thresholds). Plays are judged by gnubg's cubeless equities at the chosen
ply (0 by default: the numbers ``gnubg_nn.best_move`` lists); cube actions by :mod:`ai.cube` from gnubg's
chances. Each player's error rate is the equity lost per decision, in thousandths (gnubg's "mEMG").

A game of a match is rated in match winning chances: each choice's chance of winning the match (plays: the game's
chances after the play, dead cube, each result read from the match equity table; cube actions:
:func:`ai.cube.match_view`), shown as percentages; the loss is also put on the money scale above (divided by what
one point is worth at that score, half the chances between winning and losing one point), so the marks and error
rates mean the same.

Without gnubg-nn this raises :class:`AnalysisUnavailable`, whose message says what to install.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ai import backgammon as bg
from ai.cube import cubeless_equity
from rules.backgammon import NoMove, Play, Toggle
from rules.base import GameError, Resign

#: (threshold, mark), largest first: equity lost from which a decision gets the mark
MARKS = ((0.16, "blunder"), (0.08, "error"), (0.04, "doubtful"))
INSTALL_HINT = "Backgammon analysis needs GNU Backgammon's evaluator: install it with pip install 'pbm[ai]' (gnubg-nn)"


class AnalysisUnavailable(RuntimeError):
    """gnubg-nn is not installed."""


def mark_for(lost: float) -> str:
    """The mark of a decision that lost ``lost`` equity ('' when it is fine)."""
    for threshold, mark in MARKS:
        if lost >= threshold - 1e-9:
            return mark
    return ""


@dataclass(frozen=True)
class Rating:
    """One decision: who, what was played, the best choice, both equities and the loss (per cube unit)."""

    index: int
    seat: int
    player: str
    kind: str  # "play", "cube" (roll or double) or "answer" (take or drop)
    context: str  # the dice of a play, else the cube value
    played: str
    best: str
    played_equity: float
    best_equity: float
    #: in a match: the match winning chances of the choice played and of the best one (the equities above are
    #: them on the money scale)
    chances: tuple[float, float] | None = None

    @property
    def lost(self) -> float:
        return max(0.0, self.best_equity - self.played_equity)

    @property
    def mark(self) -> str:
        return mark_for(self.lost)

    def line(self) -> str:
        where = f"{self.index + 1:>3}. {self.player} {self.kind} {self.context}".rstrip()
        if self.chances is not None:
            played, best = self.chances
            text = f"{where}: {self.played} ({100 * played:.1f}% to win the match)"
            if self.lost > 0.0005:
                text += f", best {self.best} ({100 * best:.1f}%), lost {100 * max(0.0, best - played):.1f}%"
            return text + (f"  {self.mark.upper()}" if self.mark else "")
        text = f"{where}: {self.played} ({self.played_equity:+.3f})"
        if self.lost > 0.0005:
            text += f", best {self.best} ({self.best_equity:+.3f}), lost {self.lost:.3f}"
        return text + (f"  {self.mark.upper()}" if self.mark else "")


@dataclass(frozen=True)
class PlayerSummary:
    seat: int
    player: str
    decisions: int
    lost: float
    marks: dict[str, int] = field(default_factory=dict)

    @property
    def error_rate(self) -> float:
        """Equity lost per decision, in thousandths."""
        return 1000 * self.lost / self.decisions if self.decisions else 0.0

    def line(self) -> str:
        counts = ", ".join(f"{mark} {self.marks.get(mark, 0)}" for _, mark in reversed(MARKS))
        decisions = f"{self.decisions} decision{'' if self.decisions == 1 else 's'}"
        return (
            f"{self.player}: {decisions}, {self.lost:.3f} equity lost, "
            f"error rate {self.error_rate:.1f} per thousand; {counts}"
        )


@dataclass(frozen=True)
class Analysis:
    ratings: list[Rating]
    players: list[PlayerSummary]

    def text(self, only_marked: bool = False) -> str:
        shown = [r for r in self.ratings if r.mark or not only_marked]
        return "\n".join([*(r.line() for r in shown), "", *(p.line() for p in self.players)])


def _require_gnubg() -> None:
    if not bg.has_gnubg():
        raise AnalysisUnavailable(INSTALL_HINT)


def replay(
    options: dict[str, Any], players: Sequence[str], seed: int, log: Iterable[tuple[int, str]]
) -> list[tuple[Any, str, int]]:
    """The positions of a logged game: replays ``(seat, text)`` entries from the seed and returns
    ``(state_before, text, seat)`` for each. Raises ``GameError`` if the log does not fit the game."""
    from rules.backgammon import GAME

    state = GAME.new(options, list(players), seed)
    records = []
    for seat, text in log:
        records.append((state.clone(), text, seat))
        move = state.parse_move(text, seat)
        if isinstance(move, Resign):
            state.resign(move.player)
        else:
            state.push(move)
    return records


def analyze(records: Iterable[tuple[Any, str, int]], ply: int = 0) -> Analysis:
    """Rate every decision in ``records`` (``(state_before, move_text, seat)``, as :func:`replay` gives)."""
    _require_gnubg()
    ratings: list[Rating] = []
    names: dict[int, str] = {}
    for index, (state, text, seat) in enumerate(records):
        if state.game.name != "backgammon":
            raise ValueError(f"analysis is for backgammon games, not {state.game.name}")
        names[seat] = state.players[seat]
        rating = _rate(state, text, seat, index, ply)
        if rating is not None:
            ratings.append(rating)
    players = []
    for seat in sorted(names):
        mine = [r for r in ratings if r.seat == seat]
        marks: dict[str, int] = {}
        for r in mine:
            if r.mark:
                marks[r.mark] = marks.get(r.mark, 0) + 1
        players.append(PlayerSummary(seat, names[seat], len(mine), sum(r.lost for r in mine), marks))
    return Analysis(ratings, players)


def _rate(state: Any, text: str, seat: int, index: int, ply: int) -> Rating | None:
    if state.is_over or state.to_move != seat:
        return None
    try:
        move = state.parse_move(text, seat)
    except GameError:
        return None
    if isinstance(move, Toggle | NoMove):
        return None
    player = state.players[seat]
    cube = f"cube {state.cube}"
    if bg.match_score(state, seat) is not None:
        return _rate_in_match(state, move, text, seat, index, ply, player)
    if state.phase == "decide":
        view = bg.view(bg.on_roll_chances(state, seat, ply), "centre" if state.cube_owner is None else "me")
        double = min(view.double_take, view.double_pass)
        played = "double" if text.strip().lower() == "double" else "roll"
        values = {"roll": view.no_double, "double": double}
        best = max(values, key=values.__getitem__)
        return Rating(index, seat, player, "cube", cube, played, best, values[played], values[best])
    if state.phase == "answer":
        view = bg.view(bg.on_roll_chances(state, state.turn, ply), "centre" if state.cube_owner is None else "me")
        values = {"take": -view.double_take, "drop": -view.double_pass}
        word = text.strip().lower()
        played = "drop" if word == "drop" or isinstance(move, Resign) else "take"
        best = max(values, key=values.__getitem__)
        return Rating(index, seat, player, "answer", cube, played, best, values[played], values[best])
    if not isinstance(move, Play) or state.forced_move() is not None:
        return None
    return _rate_play(state, move, seat, index, ply, player)


def _rate_play(state: Any, move: Play, seat: int, index: int, ply: int, player: str) -> Rating:
    me, opp = bg.sides(state, seat)
    plays = state.plays()
    keys = bg.gnubg_keys(state, me, opp)
    ranking = bg.ranked(me, opp, state.dice, ply)
    equities = dict(ranking)
    played_key = next(key for key, play in plays.items() if play == move)
    played_gkey = next(gkey for gkey, key in keys.items() if key == played_key)
    played_equity = equities.get(played_gkey)
    if played_equity is None:  # pruned away at a higher ply: evaluate the played position itself
        after, theirs = bg.after_play(me, opp, played_key)
        played_equity = -cubeless_equity(bg.gnubg_nn.probabilities(bg.gnubg_board(theirs, after), ply))
    best_gkey, best_equity = ranking[0]
    dice = "-".join(str(d) for d in state.dice)
    best_text = state.move_text(plays[keys[best_gkey]])
    return Rating(index, seat, player, "play", dice, state.move_text(move), best_text, played_equity, best_equity)


def _rate_in_match(state: Any, move: Any, text: str, seat: int, index: int, ply: int, player: str) -> Rating | None:
    """A decision in a game of a match, rated in match winning chances (see the module docstring)."""
    cube = f"cube {state.cube}"
    word = text.strip().lower()
    if state.phase in ("decide", "answer"):
        doubler = seat if state.phase == "decide" else state.turn
        score = bg.match_score(state, doubler)
        assert score is not None
        view = bg.cube_view_at(state, doubler, ply)
        if state.phase == "decide":
            values = {"roll": view.no_double, "double": min(view.double_take, view.double_pass)}
            played, kind = ("double" if word == "double" else "roll"), "cube"
        else:  # the taker's chances are the doubler's, turned round
            values = {"take": 1 - view.double_take, "drop": 1 - view.double_pass}
            played, kind = ("drop" if word == "drop" or isinstance(move, Resign) else "take"), "answer"
        best = max(values, key=values.__getitem__)
        scale = score.point_value()
        chances = (values[played], values[best])
        return Rating(index, seat, player, kind, cube, played, best, chances[0] / scale, chances[1] / scale, chances)
    if not isinstance(move, Play) or state.forced_move() is not None:
        return None
    score = bg.match_score(state, seat)
    assert score is not None
    me, opp = bg.sides(state, seat)
    plays = state.plays()
    values = {}
    for key in plays:
        after, theirs = bg.after_play(me, opp, key)
        win, wg, wbg, lg, lbg = bg.gnubg_nn.probabilities(bg.gnubg_board(theirs, after), ply)
        values[key] = score.dead((1 - win, lg, lbg, wg, wbg), state.cube)  # the opponent is on roll: turned round
    played_key = next(key for key, play in plays.items() if play == move)
    best_key = max(values, key=values.__getitem__)
    scale = score.point_value()
    chances = (values[played_key], values[best_key])
    dice = "-".join(str(d) for d in state.dice)
    best_text = state.move_text(plays[best_key])
    return Rating(
        index,
        seat,
        player,
        "play",
        dice,
        state.move_text(move),
        best_text,
        chances[0] / scale,
        chances[1] / scale,
        chances,
    )
