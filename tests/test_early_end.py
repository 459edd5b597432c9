"""Games that end at once: declined (cancelled) or resigned at move 0 or move 1, in every game and variant.

A game can end before anything is on the board; its text board, its JSON and its reload must still work, because
the fronts show the final board of every game that ends.
"""

from __future__ import annotations

import pytest

from rules import registry
from rules.base import GameState

#: option words per game: each board shape, start rule and tile set that changes what an early board holds
VARIANTS: dict[str, list[list[str]]] = {
    "backgammon": [[], ["-force"]],
    "dragons": [[], ["-start_joint"], ["-start_tip"], ["-tantrix"], ["-tails"], ["-may_complete"]],
    "druid": [[], ["-hex"], ["-y"], ["-walk"], ["-nostack"], ["-size=3"]],
    "drogo": [[], ["-size=3"], ["-single"], ["-in_place"]],
}

CASES = [
    (name, nplayers, words)
    for name, variants in VARIANTS.items()
    for nplayers in range(registry.get(name).min_players, registry.get(name).max_players + 1)
    for words in variants
    if not (name == "druid" and nplayers == 3 and "-hex" not in words)  # only Druid's Hex takes three
]


def _started(name: str, nplayers: int, words: list[str], plies: int) -> GameState:
    game = registry.get(name)
    state = game.new(game.parse_options(words, nplayers), [f"p{i}" for i in range(nplayers)], 7)
    for _ in range(plies):
        state.push(state.forced_move() or next(iter(state.legal_moves)))
    return state


def _board_survives(state: GameState) -> str:
    board = state.text_board()
    assert board.strip()
    reloaded = registry.get(state.game.name).load(state.to_json())
    assert reloaded.text_board() == board
    return board


@pytest.mark.parametrize("plies", [0, 1])
@pytest.mark.parametrize(("name", "nplayers", "words"), CASES)
def test_a_declined_game_shows_its_board(name: str, nplayers: int, words: list[str], plies: int) -> None:
    state = _started(name, nplayers, words, plies)
    state.cancel("p0 declined to play")
    outcome = state.outcome()
    assert outcome is not None and outcome.cancelled and not outcome.winners
    board = _board_survives(state)
    if name == "dragons":
        assert "Game over: p0 declined to play" in board
        if plies == 0 and not {"-start_joint", "-start_tip"} & set(words):
            assert "No tile was placed." in board


@pytest.mark.parametrize("plies", [0, 1])
@pytest.mark.parametrize(("name", "nplayers", "words"), CASES)
def test_a_resignation_at_once_shows_its_board(name: str, nplayers: int, words: list[str], plies: int) -> None:
    state = _started(name, nplayers, words, plies)
    seat = state.to_move
    assert seat is not None
    events = state.resign(seat)
    assert events[0].kind == "resign" and events[0].text == f"p{seat} resigned"
    if nplayers == 2:
        outcome = state.outcome()
        assert outcome is not None and outcome.winners == (1 - seat,)
    else:
        assert not state.is_over and state.to_move != seat
    board = _board_survives(state)
    if name == "dragons":
        assert f"Game over: {state.outcome().reason}" in board  # type: ignore[union-attr]
