"""Backgammon game analysis for players: every play and cube action of a finished game rated by GNU
Backgammon's evaluator (:mod:`ai.analysis`). Offered only once a game is over: during a game it would be a hint.
The rating itself is CPU work; it runs through the actions' ``offload`` (a worker thread in the bot)."""

from __future__ import annotations

from typing import Any

from bot.actions.base import ActionsBase
from bot.actions.common import MODERATION_ENTRIES, Result, _fail, replay_steps, start_of, taken_back
from data.store import DamagedRowError, LogRow
from rules.base import GameError, GameState

#: logged actions that are no decision of a player's at the board
_NOT_DECISIONS = ("undo", "timeout", "draw", "decline", "resign", *MODERATION_ENTRIES)


class AnalysisActions(ActionsBase):
    async def analyze(self, game_id: int) -> Result:
        """Rate a finished Backgammon game: one line per decision (the equity lost against the best choice,
        marked doubtful, error or blunder, the best choice beside it) and each player's error rate."""
        loaded = await self._load(game_id)
        if isinstance(loaded, Result):
            return loaded
        row, game, _ = loaded
        fields: dict[str, Any] = {"game_id": game_id, "game_type": game.name}
        if game.name != "backgammon":
            return _fail(f"analysis is for Backgammon games; game {game_id} is {game.title}", **fields)
        if row.status == "active":
            return _fail(f"game {game_id} is still being played: it can be analysed once it is over", **fields)
        from ai import analysis

        try:
            records = _decisions(start_of(game, row), await self.store.log(game_id))
            report = await self._offload(analysis.analyze, records)
        except analysis.AnalysisUnavailable as exc:
            return _fail(str(exc), **fields)
        except (GameError, DamagedRowError, ValueError) as exc:
            return _fail(f"game {game_id} cannot be analysed: {exc}", **fields)
        lines = [rating.line() for rating in report.ratings]
        summary = [player.line() for player in report.players]
        match = getattr(start_of(game, row), "match", None)
        unit = "equity lost per decision"
        if match is not None:  # each game of a match in match winning chances, by the score it was played at
            unit = f"game {match.game} of match {match.id} to {match.length}, in match winning chances"
        return Result(
            ok=True,
            message=f"Backgammon game {game_id}, analysed by GNU Backgammon ({unit})\n" + "\n".join(summary),
            items=lines,
            status=row.status,
            players=list(row.players),
            **fields,
        )


def _decisions(start: GameState, log: list[LogRow]) -> list[tuple[GameState, str, int]]:
    """``(position before, move text, seat)`` for every action a player made in the game as it stands (moves
    taken back left out), read from the log."""
    undone = taken_back(log)
    records = []
    before = start.clone()
    for entry, after in replay_steps(start, log):
        if entry.seq not in undone and entry.player_id and entry.text not in _NOT_DECISIONS:
            records.append((before, entry.text, before.seat_of(entry.player_id)))
        before = after.clone()
    return records
