"""Looking after a database: ``pbm check`` (is every game what its move log says?) and ``pbm backup``.

The move log is the source of truth and the snapshot a cache of it (see :mod:`data.store`). Loading a game checks
the cheap half of their agreement; :func:`check` does the whole of it: SQLite's own integrity check, then every
game replayed from its seed and log and compared with its stored snapshot and memory.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.actions import Actions
from bot.correspondence.clock import Clock
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
    #: games whose clock stands still for a vacation its player is not on: nothing would ever start it again
    clock_problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.file_problems and not self.game_problems and not self.clock_problems

    def lines(self) -> list[str]:
        """One line per game that differs or whose clock is stuck, then the verdict; a damaged file is one line
        alone (its games were not replayed: what they hold cannot be trusted)."""
        if self.file_problems:
            return [self.damage()]
        verdicts = []
        if self.game_problems:
            differ = len(self.game_problems)
            verdicts.append(
                f"{count(differ, 'game')} {'differs from its' if differ == 1 else 'differ from their'} move log"
            )
        if self.clock_problems:
            stuck = len(self.clock_problems)
            verdicts.append(f"{count(stuck, 'game')} {'has' if stuck == 1 else 'have'} a clock paused for no vacation")
        verdict = "; ".join(verdicts) or "all sound"
        return [*self.game_problems, *self.clock_problems, f"{count(self.games, 'game')} checked: {verdict}"]

    def damage(self) -> str:
        """The file's problems in one line: the first (it says where), how many more, and what to do."""
        more = len(self.file_problems) - 1
        told = "" if more == 0 else f" (and {count(more, 'more problem')})"
        return f"{self.file_problems[0]}{told}; restore a backup"


async def check(actions: Actions) -> CheckReport:
    """Run SQLite's integrity check, then replay every game and compare it with what is stored. A file that
    fails SQLite's check is reported as it is, without replaying its games (reading them would meet the damage)."""
    store = actions.store
    report = CheckReport(file_problems=await store.integrity_problems())
    if report.file_problems:
        return report
    for game_id in await store.game_ids():
        report.games += 1
        problem = await _check_game(actions, game_id)
        if problem is not None:
            report.game_problems.append(f"game {game_id}: {problem}")
        stuck = await _paused_for_no_vacation(actions, game_id)
        if stuck is not None:
            report.clock_problems.append(f"game {game_id}: {stuck}")
    return report


async def _paused_for_no_vacation(actions: Actions, game_id: int) -> str | None:
    """What is wrong with a game's clock that stands still for a vacation its player is not on (a vacation ended
    by hand halfway, before each command was one transaction): no timer would ever start it again."""
    try:
        clock = Clock.from_json(await actions.store.clock_of(game_id))
    except DamagedRowError:
        return None  # the game's row is reported as damaged already
    if not clock.paused or clock.player is None:
        return None
    player = clock.player
    bank = await actions.store.vacation(player)
    if bank is not None and bank.since is not None:
        return None
    return (
        f"its clock stands still for a vacation {player} is not on, and nothing would start it again "
        f"('vacation {player} on', then 'vacation {player} off', does)"
    )


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
