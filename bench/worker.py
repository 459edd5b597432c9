"""A bench worker: run as a script (``python bench/worker.py``) with ``PYTHONPATH`` naming the tree to measure
(version 1 or the current one). It reads one JSON request per line and answers one JSON line with wall and CPU
seconds, through the public actions only, so the same script measures both versions.

Requests: ``build`` (a long real game appended through the store in batches), ``moves`` (moves played one by one
through the actions, each timed), ``history`` and ``show`` (the board now, or after move ``at``: a replay),
``position`` (a game replayed from its seed and move texts by this tree's rules, kept under a key) and
``render`` (that position's board PNG drawn and encoded by this tree's renderer, timed).
It imports nothing from ``bench``: the tree under ``PYTHONPATH`` is all it knows.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import sys
import time
import traceback
from typing import Any

from bot.actions import Actions, _run_server_loop
from data.store import LogEntry, Store
from rules import registry

_stores: dict[str, Any] = {}
_loop = asyncio.new_event_loop()


async def _actions(db: str, seed: int) -> Actions:
    if db not in _stores:
        _stores[db] = await Store.open(db)
    return Actions(_stores[db], seed_source=lambda: seed)


def _timed(coroutine: Any) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = _loop.run_until_complete(coroutine)
    return result, time.perf_counter() - wall, time.process_time() - cpu


async def _build(db: str, request: dict[str, Any]) -> dict[str, Any]:
    """Start a game (or take ``game_id``) and append ``moves`` through the store directly, in transactions of
    ``batch`` moves, as the actions would have logged them (the server's forced moves included): a long real game
    in seconds instead of one committed move at a time."""
    actions = await _actions(db, request.get("seed", 1))
    if request.get("game_id") is None:
        started = await actions.challenge(request["game"], request["players"], request["options"], start=True)
        if not started.ok:
            raise RuntimeError(started.message)
        game_id = started.game_id
    else:
        game_id = request["game_id"]
    store = actions.store
    takes_memory = "memory_append" in inspect.signature(store.commit_actions).parameters
    moves = request["moves"]
    batch = request.get("batch", 500)
    for first in range(0, len(moves), batch):
        row = await store.load_game(game_id)
        state = registry.get(row.type).load(row.snapshot)
        memory = list(getattr(row, "memory", ()))
        if takes_memory:
            state.restore_memory(memory)
        entries = []
        for text in moves[first : first + batch]:
            seat = state.to_move
            player = state.players[seat]
            move = state.parse_move(text, seat)
            move_text = state.move_text(move)
            events = state.push(move)
            entries.append(LogEntry(state.ply, player, move_text, [e.to_json() for e in events]))
            more, _ = _run_server_loop(state)
            entries.extend(more)
        outcome = state.outcome()
        status = "active" if outcome is None else ("cancelled" if outcome.cancelled else "finished")
        extra = {"memory_from": len(memory), "memory_append": state.memory()[len(memory) :]} if takes_memory else {}
        await store.commit_actions(
            game_id,
            row.log_length,
            entries,
            snapshot=state.to_json(),
            move_number=state.ply,
            status=status,
            to_move=None if state.to_move is None or state.is_over else state.players[state.to_move],
            outcome=None if outcome is None else outcome.to_json(),
            **extra,
        )
    return {"game_id": game_id}


async def _moves(db: str, game_id: int, moves: list[str]) -> dict[str, Any]:
    """Play ``moves`` one by one through :meth:`Actions.move`, each timed (wall and CPU seconds)."""
    actions = await _actions(db, 1)
    walls, cpus = [], []
    for text in moves:
        shown = await actions.show(game_id)
        player = shown.to_move
        wall, cpu = time.perf_counter(), time.process_time()
        result = await actions.move(game_id, player, text)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        if not result.ok:
            raise RuntimeError(f"{text} refused: {result.message}")
    return {"walls": walls, "cpus": cpus}


_positions: dict[str, Any] = {}


def _position(request: dict[str, Any]) -> dict[str, Any]:
    """Replay ``moves`` (texts, the server's forced moves among them) from a new game of ``game`` with ``options``,
    ``players`` and ``seed``; keep it as ``key``. Answers what both trees can compare: the move number, whether
    the game is over and who is to move."""
    game = registry.get(request["game"])
    players = request["players"]
    state = game.new(game.parse_options(list(request["options"]), len(players)), players, request["seed"])
    for text in request["moves"]:
        state.push(state.parse_move(text, state.to_move))
    _positions[request["key"]] = state
    return {"ply": state.ply, "over": state.is_over, "to_move": state.to_move}


def _render(key: str) -> dict[str, Any]:
    """The board PNG of position ``key``, drawn and encoded as a player waits for it: wall and CPU seconds."""
    import render

    state = _positions[key]
    wall, cpu = time.perf_counter(), time.process_time()
    png = render.board_png(state)
    return {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu, "bytes": len(png)}


def handle(request: dict[str, Any]) -> dict[str, Any]:
    op = request["op"]
    if op == "position":
        return _position(request)
    if op == "render":
        return _render(request["key"])
    if op == "build":
        return _loop.run_until_complete(_build(request["db"], request))
    if op == "moves":
        return _loop.run_until_complete(_moves(request["db"], request["game_id"], request["moves"]))
    actions = _loop.run_until_complete(_actions(request["db"], 1))
    if op == "history":
        result, wall, cpu = _timed(actions.history(request["game_id"]))
    elif op == "show":
        result, wall, cpu = _timed(actions.show(request["game_id"], request.get("at")))
    else:
        raise ValueError(f"unknown request {op!r}")
    if not result.ok:
        raise RuntimeError(result.message)
    return {"wall": wall, "cpu": cpu, "lines": len(result.items)}


def main() -> None:
    for line in sys.stdin:
        try:
            answer = handle(json.loads(line))
        except Exception as exc:
            answer = {"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc()}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    for store in _stores.values():
        _loop.run_until_complete(store.close())


if __name__ == "__main__":
    main()
