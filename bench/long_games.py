"""Long real games for the store's figures, as lists of the players' move texts (the server's forced moves are
made again wherever the list is replayed): every one is a legal game that replays from its seed.

* Drogo 12x12, 6,000 moves of seeded random play: its superko memory grows with every move.
* Druid 26x26 (the largest board), 3,000 moves of seeded random play (stacks up to a dozen high).
* Dragons with a 200-tile pool (``-tantrix -num_tiles=200``), seeded random play to the end.
* Druid 10x10, 20,000 moves: one player builds a single tower while the other passes, the longest game any rule
  allows here, for ``history`` and ``show <id>#n`` on a 20,000-move log.

Random moves are drawn the way a quick player would find them: a random cell first, the full legal-move list only
when a few cells in a row are refused, so a 6,000-move game takes seconds instead of minutes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from rules import registry
from rules.base import GameError, GameState


@dataclass(frozen=True)
class LongGame:
    label: str
    game: str
    options: tuple[str, ...]
    players: tuple[str, ...]
    seed: int
    moves: tuple[str, ...]


def _letters(size: int) -> list[str]:
    return [chr(ord("a") + i) for i in range(size)]


def _cell_guess(state: GameState, rng: random.Random, size: int) -> str:
    column = rng.choice(_letters(size))
    row = rng.randint(1, size)
    if state.game.name == "drogo" and rng.random() < 0.5:
        return f"{column}{row},{column}{row}"
    return f"{column}{row}"


def _random_game(game: str, options: Sequence[str], players: int, seed: int, limit: int, size: int) -> LongGame:
    definition = registry.get(game)
    names = tuple(f"p{i}" for i in range(players))
    state = definition.new(definition.parse_options(options, players), names, seed)
    rng = random.Random(seed)
    moves: list[str] = []
    _forced(state)
    while not state.is_over and len(moves) < limit:
        move = None
        for _ in range(6 if size else 0):
            try:
                move = state.parse_move(_cell_guess(state, rng, size), state.to_move)
                break
            except GameError:
                continue
        if move is None:
            move = rng.choice(list(state.legal_moves))
        moves.append(state.move_text(move))
        state.push(move)
        _forced(state)
    return LongGame(f"{game} {' '.join(options)}".strip(), game, tuple(options), names, seed, tuple(moves))


def _forced(state: GameState) -> None:
    while (move := state.forced_move()) is not None:
        state.push(move)


def drogo_late(moves: int = 6000) -> LongGame:
    return _random_game("drogo", ("-size=12",), 2, 11, moves, 12)


def druid_largest() -> LongGame:
    return _random_game("druid", ("-size=26",), 2, 12, 3000, 26)


def dragons_largest() -> LongGame:
    return _random_game("dragons", ("-tantrix", "-num_tiles=200"), 2, 3, 100_000, 0)


def druid_tower(moves: int = 20_000) -> LongGame:
    texts = tuple("a1" if i % 2 == 0 else "--" for i in range(moves))
    return LongGame("druid, one tower and passes", "druid", (), ("p0", "p1"), 13, texts)
