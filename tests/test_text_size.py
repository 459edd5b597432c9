"""Boards for phones: shown about 400 pixels wide in a phone's chat, every text a player must read (names,
ratings, clocks, scores, coordinates, the status, the last move, the legend) is at least 11 pixels tall there;
and pictures are at most about 800 pixels wide, square or portrait.

Measured on the scene (render.scene), which holds every text with its font size: a text of font size ``s`` in a
picture ``w`` wide is ``s * 400 / w`` pixels on the phone. Tall means the font size (the em, as CSS's
``font-size``): a capital is about seven tenths of it. Texts marked ``minor`` need not be read (a second way of
writing a position already shown in large type); the only ones allowed are listed in :data:`MINOR`.

Generic over games: each game lists its smallest and largest pictures in :data:`CASES`, its 3D view too where it
has one (``view="3d"``, the second picture a player may ask for). Where a Druid board has too many columns for a
cell's letter over its height at 11 pixels (from about 20 columns), its cells are drawn taller than wide: a 26x26
board is a tall picture, every text still readable."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

import render
from render.scene import MAX_WIDTH, PHONE_TEXT, PHONE_WIDTH, Scene, Text
from rules import registry
from rules.base import GameState
from rules.rng import Rng

LONG = ["Alexandria_the_Great_of_Macedon_", "Bartholomew_Longname_the_Third_4"]
FOUR = [*LONG, "Cornelius_Maximilian_Feathersto", "Dorothea_Wilhelmina_Zu_Sayn_Wit"]
CLOCK = {
    0: "less than a minute left",
    1: "paused until the end of the month (vacation), then 7d per move",
    2: "6d 23h left",
    3: "7d per move",
}
RATINGS = {0: "1532", 1: "1000?", 2: "unrated", 3: "2187"}


def played(
    name: str, words: tuple[str, ...], seed: int, moves: int, names: list[str] | None = None, players: int | None = None
) -> GameState:
    game = registry.get(name)
    names = names or ["alice", "bob"]
    if players is not None:
        names = names[:players]
    state = game.new(game.parse_options(list(words), len(names)), names, seed)
    rng = Rng(seed)
    while not state.is_over and moves > 0:
        forced = state.forced_move()
        state.push(forced if forced is not None else state.random_move(rng))
        moves -= 1
    return state


def backgammon_crowded() -> Scene:
    """Long names, both modes, the cube owned at 64, checkers on the bar and borne off, long clock notes."""
    state = played("backgammon", (), 5, 60, LONG)
    state.cube, state.cube_owner, state.greedy, state.manual = 64, 1, [True, True], [True, True]
    return render.board_scene(state, CLOCK, RATINGS)


def druid(words: tuple[str, ...], moves: int, players: int = 2, view: str = "top") -> Scene:
    """A Druid board after ``moves`` random moves, with long names, clock notes and ratings."""
    state = played("druid", words, 3, moves, [*LONG, "Cornelius_Maximilian_Feathersto"], players)
    return render.board_scene(state, CLOCK, RATINGS, view)


#: per game, its pictures at their smallest and largest: a label and the scene
CASES: dict[str, list[tuple[str, Callable[[], Scene]]]] = {
    "backgammon": [
        ("the start", lambda: render.board_scene(played("backgammon", (), 1, 0))),
        ("crowded header and board", backgammon_crowded),
        ("won, long names", lambda: render.board_scene(played("backgammon", (), 5, 2000, LONG), CLOCK, RATINGS)),
    ],
    "dragons": [
        ("the empty board", lambda: render.board_scene(played("dragons", (), 1, 0))),
        ("a gap owed, long names", lambda: render.board_scene(played("dragons", (), 1, 3, LONG), CLOCK, RATINGS)),
        (
            "the widest 200-tile Tantrix board, finished",
            lambda: render.board_scene(played("dragons", ("-tantrix", "-num_tiles=200"), 9, 2000), CLOCK, RATINGS),
        ),
    ],
    "drogo": [
        ("the smallest board, empty", lambda: render.board_scene(played("drogo", ("-size=3",), 1, 0))),
        (
            "the smallest board, four long names, finished",
            lambda: render.board_scene(played("drogo", ("-size=3",), 1, 500, FOUR), CLOCK, RATINGS),
        ),
        (
            "the largest board, four players, late",
            lambda: render.board_scene(played("drogo", ("-size=12",), 1, 3000, FOUR), CLOCK, RATINGS),
        ),
        (
            "the smallest board in 3D",
            lambda: render.board_scene(played("drogo", ("-size=3",), 1, 20, FOUR), CLOCK, RATINGS, "3d"),
        ),
        (
            "the largest board in 3D, late",
            lambda: render.board_scene(played("drogo", ("-size=12",), 1, 3000, FOUR), CLOCK, RATINGS, "3d"),
        ),
    ],
    "druid": [
        ("the smallest square board", lambda: druid(("-size=3",), 4)),
        ("a 19x19 board at move 250", lambda: druid(("-size=19",), 250)),
        ("the largest square board, late", lambda: druid(("-size=26",), 900)),
        ("the smallest hex board", lambda: druid(("-hex", "-size=3"), 6, 3)),
        ("the largest hex board, three players", lambda: druid(("-hex", "-size=13"), 300, 3)),
        ("the smallest Y board", lambda: druid(("-y", "-size=3"), 3)),
        ("the largest Y board", lambda: druid(("-y", "-size=26"), 300)),
        ("a Walk game on the hex board", lambda: druid(("-hex", "-walk"), 90, 3)),
        ("the 3D view of the smallest board", lambda: druid(("-size=3",), 4, view="3d")),
        ("the 3D view of the largest board", lambda: druid(("-size=26",), 900, view="3d")),
        ("the 3D view of the largest hex board", lambda: druid(("-hex", "-size=13"), 300, 3, "3d")),
        ("the 3D view of the largest Y board", lambda: druid(("-y", "-size=26"), 300, view="3d")),
    ],
}

#: the minor texts a game may draw: (the kind of group it sits in, what the text looks like)
MINOR = {"dragons": [("spot", re.compile(r"-?\d+,-?\d+"))]}


def test_every_game_drawn_as_a_scene_has_its_cases() -> None:
    assert set(CASES) == set(render.SCENE_GAMES)


@pytest.mark.parametrize(("game", "label"), [(game, label) for game, cases in CASES.items() for label, _ in cases])
def test_every_text_a_player_must_read_is_11_px_on_a_phone(game: str, label: str) -> None:
    drawn = dict(CASES[game])[label]()
    assert drawn.width <= MAX_WIDTH and drawn.height >= drawn.width, (drawn.width, drawn.height)
    texts = [(item, groups) for item, groups in drawn.walk() if isinstance(item, Text)]
    assert len(texts) >= 10
    small = []
    for text, groups in texts:
        if text.minor:
            kind = next((group.kind for group in reversed(groups) if group.kind), "")
            assert any(kind == allowed and pattern.fullmatch(text.text) for allowed, pattern in MINOR[game]), text
            continue
        on_phone = text.size * PHONE_WIDTH / drawn.width
        if on_phone < PHONE_TEXT:
            small.append((text.text, round(on_phone, 1)))
    assert small == []


def test_the_widest_dragons_board_is_drawn_at_the_width_limit() -> None:
    """The largest case is a board that needs smaller tiles to fit: wider than the limit at full size."""
    drawn = dict(CASES["dragons"])["the widest 200-tile Tantrix board, finished"]()
    assert MAX_WIDTH - 20 <= drawn.width <= MAX_WIDTH
