"""Small helpers for the sentences players read, shared by every front (the console, Discord) and the actions.

Counts are written with the noun in the singular or the plural as the number asks ("1 game", "2 games",
"0 games"), never "game(s)".
"""

from __future__ import annotations


def plural(n: int, one: str, many: str | None = None) -> str:
    """The noun for ``n`` things: ``one`` for exactly one, else ``many`` (default: ``one`` + ``s``)."""
    return one if n == 1 else many or one + "s"


def count(n: int, one: str, many: str | None = None) -> str:
    """``n`` and its noun: ``1 game``, ``3 games``, ``0 losses`` (``count(0, "loss", "losses")``)."""
    return f"{n} {plural(n, one, many)}"
