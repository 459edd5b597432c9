"""Small helpers for the sentences players read, shared by every front (the console, Discord) and the actions.

Counts are written with the noun in the singular or the plural as the number asks ("1 game", "2 games",
"0 games"), never "game(s)".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def plural(n: int, one: str, many: str | None = None) -> str:
    """The noun for ``n`` things: ``one`` for exactly one, else ``many`` (default: ``one`` + ``s``)."""
    return one if n == 1 else many or one + "s"


def count(n: int, one: str, many: str | None = None) -> str:
    """``n`` and its noun: ``1 game``, ``3 games``, ``0 losses`` (``count(0, "loss", "losses")``)."""
    return f"{n} {plural(n, one, many)}"


def match_resign_question(
    match: Mapping[str, Any], player: str, *, declines: bool = False, queued: bool = False
) -> str:
    """What a front asks before ``player`` resigns a game of a Backgammon match (``match``: the match as
    :func:`bot.actions.common.match_json` gives it): resigning resigns the whole match, at its score. ``declines``:
    in the first round of the match's first game, where resigning declines and cancels the match; ``queued``: not
    their turn, so it takes effect when it comes. "Resign the match? alice leads 3-1 in a match to 5; resigning
    gives bob the match." """
    length = match["length"]
    if declines:
        return f"Decline the match? Resigning in the first round of its first game cancels the match to {length}."
    scores: dict[str, int] = dict(match["score"])
    other = next(name for name in scores if name != player)
    (first, high), (_second, low) = sorted(scores.items(), key=lambda item: -item[1])
    standing = f"{first} leads {high}-{low}" if high != low else f"The score is {high}-{low}"  # a name as it is
    question = f"Resign the match? {standing} in a match to {length}; resigning gives"
    when = " when your turn comes" if queued else ""
    return f"{question} {other} the match{when}."
