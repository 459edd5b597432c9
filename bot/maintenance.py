"""Looking after a database: ``pbm check`` (is every game what its move log says?) and ``pbm backup``.

The move log is the source of truth and the snapshot a cache of it (see :mod:`data.store`). Loading a game checks
the cheap half of their agreement; :func:`check` does the whole of it: SQLite's own integrity check, then every
game replayed from its seed and log and compared with its stored snapshot and memory.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.actions import Actions
from bot.text import count
from data.store import DamagedRowError, NotFoundError, StoreError
from rules import registry
from rules.base import GameError, StateFormatError


@dataclass
class CheckReport:
    """What :func:`check` found: the file's own problems, and one line per game that differs from its log."""

    games: int = 0
    file_problems: list[str] = field(default_factory=list)
    game_problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.file_problems and not self.game_problems

    def lines(self) -> list[str]:
        out = [f"database: {p}" for p in self.file_problems] + self.game_problems
        differ = len(self.game_problems)
        verdict = f"{count(differ, 'game')} {'differs from its' if differ == 1 else 'differ from their'} move log"
        verdict = "all sound" if self.ok else verdict
        checked = count(self.games, "game")
        out.append(f"{checked} checked: {verdict}" if not self.file_problems else "the file is damaged")
        return out


async def check(actions: Actions) -> CheckReport:
    """Run SQLite's integrity check, then replay every game and compare it with what is stored."""
    store = actions.store
    report = CheckReport(file_problems=await store.integrity_problems())
    for game_id in await store.game_ids():
        report.games += 1
        problem = await _check_game(actions, game_id)
        if problem is not None:
            report.game_problems.append(f"game {game_id}: {problem}")
    return report


async def _check_game(actions: Actions, game_id: int) -> str | None:
    store = actions.store
    try:
        row = await store.load_game(game_id)
    except (DamagedRowError, NotFoundError) as exc:
        return str(exc).removeprefix(f"game {game_id} is damaged: ")
    try:
        game = registry.get(row.type)
        stored = game.load(row.snapshot)
        stored.restore_memory(row.memory)
    except (GameError, StateFormatError) as exc:
        return f"its snapshot cannot be read ({exc})"
    try:
        replayed = await actions.replay(row)
    except (StoreError, GameError, StateFormatError) as exc:
        return f"its move log does not replay ({exc})"
    if replayed.to_json() != stored.to_json():
        return f"its snapshot (move {stored.ply}) differs from its replayed move log (move {replayed.ply})"
    if replayed.memory() != list(row.memory):
        return "its stored memory differs from its replayed move log"
    return None
