"""Every game's picture of a game that ended early: cancelled (a player declined in the first round) or resigned,
at move 0 and after one move. ``show`` draws these boards for as long as the game is stored, so a crash here
would break the command for good."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import render
from render.backgammon import status
from rules import registry
from rules.base import GameState

GAMES = ("backgammon", "dragons", "druid", "drogo")


def started(name: str, moves: int) -> GameState:
    game = registry.get(name)
    state = game.new(game.parse_options([], 2), ["alice", "bob"], 5)
    for _ in range(moves):
        move = state.forced_move()
        state.push(move if move is not None else next(iter(state.legal_moves)))
    return state


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("moves", (0, 1))
@pytest.mark.parametrize("ending", ("cancel", "resign"))
def test_a_game_ended_early_still_renders(name: str, moves: int, ending: str) -> None:
    state = started(name, moves)
    if ending == "cancel":
        state.cancel("bob declined to play")
    else:
        state.resign(state.to_move)
    assert state.is_over
    image = Image.open(io.BytesIO(render.board_png(state)))
    image.load()
    assert image.format == "PNG" and image.width > 300 and image.height > 200
    assert len(image.convert("RGB").getcolors(1 << 24)) > 8  # a drawn board, not a blank panel


def test_a_cancelled_backgammon_game_says_so_and_names_no_winner() -> None:
    state = started("backgammon", 1)
    state.cancel("bob declined to play")
    assert status(state).text == "Game cancelled: bob declined to play"
    resigned = started("backgammon", 0)
    loser = resigned.players[resigned.to_move]
    resigned.resign(resigned.to_move)
    winner = resigned.players[1 - resigned.players.index(loser)]
    assert status(resigned).text == f"{winner} wins: {loser} resigned, 1 point"
