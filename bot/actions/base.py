"""The state every group of actions shares (the store, the clock, the seed source) and the steps they all take:
loading a game, committing actions under the stale-move guard, and turning a position into a :class:`Result`."""

from __future__ import annotations

import os
import time
from collections.abc import Awaitable, Callable

from bot.actions.common import (
    Result,
    _fail,
    _player_to_move,
    _winners,
    status_line,
    think_here,
)
from data.store import (
    DamagedRowError,
    GameRow,
    LogEntry,
    NotFoundError,
    StaleWriteError,
    Store,
)
from rules import registry
from rules.base import Event, GameDef, GameError, GameState, StateFormatError


class ActionsBase:
    """The transport-free actions' shared core. ``seed_source`` gives each new game its RNG seed (tests pass a
    fixed one)."""

    def __init__(
        self,
        store: Store,
        *,
        seed_source: Callable[[], int] | None = None,
        challenge_ttl: float | None = 24 * 3600.0,
        clock: Callable[[], float] = time.time,
        think: Callable[[GameState, str, float | None], Awaitable[tuple[str, str]]] | None = think_here,
        ai_seconds: float | None = None,
    ) -> None:
        """``think`` makes computer players' moves (``None``: they never move by themselves); ``ai_seconds`` is
        their wall-clock safety net (``PBM_AI_SECONDS``; default per level)."""
        self.store = store
        self._think = think
        self.ai_seconds = ai_seconds
        self._seed = seed_source or (lambda: int.from_bytes(os.urandom(8), "big") >> 1)
        self.challenge_ttl = challenge_ttl
        self._clock = clock

    async def _commit(
        self, game_id: int, log_length: int, entries: list[LogEntry], state: GameState, memory_from: int
    ) -> Result | None:
        """Commit actions under the stale-move guard (``log_length`` is what the caller read); the game's memory
        held ``memory_from`` values when it was read, and what the actions added is appended."""
        outcome = state.outcome()
        status = "active" if outcome is None else ("cancelled" if outcome.cancelled else "finished")
        try:
            await self.store.commit_actions(
                game_id,
                log_length,
                entries,
                snapshot=state.to_json(),
                move_number=state.ply,
                status=status,
                to_move=_player_to_move(state),
                outcome=None if outcome is None else outcome.to_json(),
                memory_from=memory_from,
                memory_append=state.memory()[memory_from:],
            )
        except StaleWriteError:
            return _fail(
                f"game {game_id} changed while your move was being made (another move got there first); "
                "nothing was played: look at the board and try again",
                game_id=game_id,
            )
        return None

    # ---- helpers -------------------------------------------------------------------------------------------

    async def _load(self, game_id: int) -> tuple[GameRow, GameDef, GameState] | Result:
        try:
            row = await self.store.load_game(game_id)
            game = registry.get(row.type)
            state = game.load(row.snapshot)
            state.restore_memory(row.memory)
            if state.ply != row.move_number:
                raise DamagedRowError(
                    f"its snapshot is at move {state.ply} but the game is at move {row.move_number}; run pbm check"
                )
        except NotFoundError as exc:
            return _fail(str(exc), game_id=game_id)
        except (DamagedRowError, StateFormatError, GameError) as exc:
            return _fail(f"game {game_id} cannot be read: {exc}", game_id=game_id)
        return row, game, state

    def _game_result(
        self,
        game: GameDef,
        game_id: int,
        state: GameState,
        message: str,
        events: list[Event],
        *,
        actor: str | None,
        ping: bool = True,
    ) -> Result:
        outcome = state.outcome()
        status = "active" if outcome is None else ("cancelled" if outcome.cancelled else "finished")
        to_move = _player_to_move(state)
        notify = [to_move] if ping and to_move is not None and (to_move != actor or len(events) > 1) else []
        lines = [message, *(e.text for e in events if e.text and e.text != message)]
        said = outcome is not None and any(outcome.reason in line for line in lines)
        summary = status_line(game, state, with_reason=not said)
        if summary and summary not in lines:
            lines.append(summary)
        return Result(
            ok=True,
            message="\n".join(lines),
            game_id=game_id,
            game_type=game.name,
            move_number=state.ply,
            to_move=to_move,
            status=status,
            winners=_winners(state),
            events=events,
            notify=notify,
            state=state,
            players=list(state.players),
        )
