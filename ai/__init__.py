"""Computer players for every pbm game: one object per level that, given a position, answers with a move TEXT.

A player never touches a game other than through the rules' public API, and its answer is what a person would
type: ``state.parse_move(text, seat)`` accepts it. Console and Discord name computer seats ``ai:1`` (easy),
``ai:2`` (medium) and ``ai:3`` (hard); :func:`is_ai` and :func:`level_of` read those names.

Choices are reproducible: the random generator of a move is seeded from the game's seed and the move number
(both passed in), so replaying a game asks the same questions and gets the same answers. Effort is a number of
playouts (or evaluator plies, or for Dragons also positions tried) per level, never a time, so a game replays the
same on any machine. ``max_seconds`` is only a safety net for slow machines and huge boards, set far above what
the levels need on this machine (tests/test_ai_progress.py checks that they do not meet it); when it does cut a
search short, the decision says so (``Decision.cut``) and the choice may depend on the machine's speed.

Backgammon uses GNU Backgammon's neural nets through ``gnubg-nn`` when installed, else a hand-built evaluator
(:mod:`ai.bgeval`); Druid, Drogo and Dragons use Monte Carlo tree search (:mod:`ai.search`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

LEVELS = (1, 2, 3)
LEVEL_NAMES = {1: "easy", 2: "medium", 3: "hard"}
#: wall-clock safety net per level, in seconds, when the caller gives none (PBM_AI_SECONDS is the front's say):
#: at least four times each level's dearest move measured, a late Dragons move (3.4 s of CPU at level 2, 6.5 s at
#: level 3, on two busy shared cores; BENCHMARKS.md, the ai group), so that it guards without deciding
DEFAULT_SECONDS = {1: 5.0, 2: 15.0, 3: 30.0}
_NAME = re.compile(r"ai:([1-9])")


@dataclass(frozen=True)
class Decision:
    """A chosen move as text, with a short reason for people (cube actions say why, e.g. ``doubles: 71% to win``).
    ``cut`` tells that the wall-clock safety net stopped the thinking short of its budget: only then may the
    choice depend on the machine's speed."""

    text: str
    note: str = ""
    cut: bool = False


def is_ai(name: str) -> bool:
    """Whether a player name denotes a computer player (``ai:1`` .. ``ai:3``)."""
    match = _NAME.fullmatch(name.strip().lower())
    return match is not None and int(match.group(1)) in LEVELS


def level_of(name: str) -> int:
    """The level of a computer player's name; raises ``ValueError`` with a readable message for anything else."""
    match = _NAME.fullmatch(name.strip().lower())
    if match is None or int(match.group(1)) not in LEVELS:
        raise ValueError(f"{name!r} is not a computer player (use ai:1, ai:2 or ai:3)")
    return int(match.group(1))


def _check_level(level: int) -> int:
    if level not in LEVELS:
        raise ValueError(f"AI level {level!r} does not exist (levels: 1 easy, 2 medium, 3 hard)")
    return level


def decide(
    state: Any,
    level: int,
    *,
    seed: int,
    move_number: int | None = None,
    max_seconds: float | None = None,
    seat: int | None = None,
    timer: Callable[[], float] = time.monotonic,
) -> Decision:
    """The move ``level`` plays for the seat to move (or ``seat``), with its reason.

    ``seed`` is the game's seed and ``move_number`` the number of moves made so far (default: ``state.ply``);
    together they seed the choice. ``max_seconds`` is the safety net, measured on ``timer`` (tests make the
    clock run fast or slow through it). Raises ``ValueError`` when nobody is to move.
    """
    from ai.players import decide_for

    _check_level(level)
    if state.to_move is None:
        raise ValueError("the game is over: there is no move to choose")
    if seat is not None and seat != state.to_move:
        raise ValueError(f"it is seat {state.to_move}'s turn, not seat {seat}'s")
    number = state.ply if move_number is None else move_number
    seconds = DEFAULT_SECONDS[level] if max_seconds is None else max(0.01, float(max_seconds))
    return decide_for(state, level, seed=seed, move_number=number, max_seconds=seconds, timer=timer)


def choose_move(
    state: Any, level: int, *, seed: int, move_number: int | None = None, max_seconds: float | None = None
) -> str:
    """The move text ``level`` plays in ``state`` (see :func:`decide`)."""
    return decide(state, level, seed=seed, move_number=move_number, max_seconds=max_seconds).text


@dataclass(frozen=True)
class Player:
    """A computer player of one level: ``choose(state, seat, seed=...)`` returns a move text the rules accept."""

    level: int

    @property
    def name(self) -> str:
        return f"ai:{self.level}"

    def choose(
        self,
        state: Any,
        seat: int | None = None,
        *,
        seed: int,
        move_number: int | None = None,
        max_seconds: float | None = None,
    ) -> str:
        return self.decide(state, seat, seed=seed, move_number=move_number, max_seconds=max_seconds).text

    def decide(
        self,
        state: Any,
        seat: int | None = None,
        *,
        seed: int,
        move_number: int | None = None,
        max_seconds: float | None = None,
    ) -> Decision:
        return decide(state, self.level, seed=seed, move_number=move_number, max_seconds=max_seconds, seat=seat)


def player_for(level: int) -> Player:
    """The computer player of ``level`` (1 easy, 2 medium, 3 hard)."""
    return Player(_check_level(level))


__all__ = [
    "DEFAULT_SECONDS",
    "LEVELS",
    "LEVEL_NAMES",
    "Decision",
    "Player",
    "choose_move",
    "decide",
    "is_ai",
    "level_of",
    "player_for",
]
