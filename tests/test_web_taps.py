"""Moves by taps (bot.web.taps): in many seeded positions of every game, reached by random playouts, every legal
move the board can make is reached by taps, every tap sequence offered ends in a legal move (exhaustively), and
a tap that is not offered is refused in one sentence. Then the same over HTTP (``GET /g/<id>/taps``): only the
player to move asks, with the page's ``#n``, and a board that moved on refuses."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.web.taps import MAX_TAPS, TapCache, TapError, Tapper, words
from rules import registry
from rules.base import GameState
from rules.druid import Lintel
from rules.rng import Rng
from tests.webtools import Site, serving

#: (game, options): every way of entering moves (Druid's lintels and Walk's steps, hex boards, Drogo's stacks of
#: two, -single, Dragons' gaps, Backgammon's doubles and bear-offs)
GAMES = [
    ("druid", ("-size=6",)),
    ("druid", ("-size=6", "-walk")),
    ("druid", ("-hex", "-size=3", "-walk")),
    ("druid", ("-y", "-size=5")),
    ("drogo", ("-size=4",)),
    ("drogo", ("-size=4", "-single")),
    ("dragons", ("-num_tiles=20",)),
    ("dragons", ("-num_tiles=20", "-tantrix")),
    ("backgammon", ()),
]


def positions(name: str, options: tuple[str, ...], seed: int) -> list[GameState]:
    """Every position of one random playout where the player to move has a choice."""
    game = registry.get(name)
    names = ["alice", "bob", "carol"] if "-hex" in options else ["alice", "bob"]  # Walk on hex is for three
    state = game.new(game.parse_options(list(options), len(names)), names, seed)
    rng = Rng(seed)
    found = []
    while not state.is_over and len(found) < 400:
        forced = state.forced_move()
        if forced is None:
            found.append(state.clone())
        state.push(forced if forced is not None else state.random_move(rng))
    return found


def walk(tapper: Tapper, taps: tuple[str, ...] = ()) -> tuple[set[str], int]:
    """Every move the taps reach from ``taps`` on, and how many tap sequences were followed; every sequence
    offered must end in a move (a place with nothing lit after it is a whole move; with no taps at all, the
    position's moves are all buttons)."""
    answer = tapper.answer(taps)
    assert answer.lit or answer.move or not taps, f"the taps {taps} lead nowhere"
    assert len(set(answer.lit)) == len(answer.lit)
    moves = {answer.move} if answer.move else set()
    count = 1
    for tap in answer.lit:
        more, followed = walk(tapper, (*taps, tap))
        moves |= more
        count += followed
    return moves, count


@pytest.mark.parametrize(("name", "options"), GAMES, ids=[f"{n}{''.join(o)}" for n, o in GAMES])
def test_every_legal_move_is_reached_by_taps_and_every_tap_sequence_ends_in_one(
    name: str, options: tuple[str, ...]
) -> None:
    checked = 0
    for seed in (1, 2):
        for state in positions(name, options, seed)[::3]:
            legal = {state.move_text(m) for m in state.legal_moves}
            reached, _ = walk(Tapper(state))
            assert reached == legal - set(words(state)), state.text_board()
            for move in reached:  # the canonical text, which the rules read back as that move
                assert state.move_text(state.parse_move(move)) == move
            checked += 1
    assert checked >= 4


def backgammon(dice: tuple[int, int], points: dict[int, int] | None = None) -> Any:
    """The player to move at the start, with ``dice``; ``points``: their checkers by their own pips (the rest
    borne off)."""
    game = registry.get("backgammon")
    data = game.new(game.parse_options([], 2), ["alice", "bob"], 1).to_json()
    board = data["board"]
    board["dice"] = list(dice)
    if points is not None:
        side = [0] * 26
        for pip, count in points.items():
            side[pip] = count
        side[0] = 15 - sum(points.values())
        board["points"][board["colour"][board["turn"]]] = side
    return game.load(data)


def test_a_double_is_offered_checker_by_checker_in_every_order() -> None:
    state = backgammon((1, 1))
    tapper = Tapper(state)
    first = tapper.answer([])
    assert first.move is None and first.partial == "" and all(t.startswith("point:") for t in first.lit)
    moves, sequences = walk(tapper)
    assert moves == {state.move_text(m) for m in state.legal_moves} - set(words(state))
    assert sequences > len(moves) * 4  # the same play in many orders, each followed to its end


def test_bearing_off_goes_to_the_tray_and_a_partial_play_says_so_far() -> None:
    state = backgammon((6, 5), {3: 1, 2: 1})
    colour = "XO"[state.colour[state.to_move]]
    tapper = Tapper(state)
    start = tapper.answer([])
    assert start.lit == tuple(f"point:{p}" for p in _points(state, (3,)))  # the farthest first: a 5 or 6
    src = start.lit[0]
    half = tapper.answer([src])
    assert half.lit == (f"tray:{colour}",) and half.move is None and half.partial.endswith("-")
    one = tapper.answer([src, f"tray:{colour}"])
    assert one.move is None and one.partial.endswith("-H") and one.lit == (f"point:{_points(state, (2,))[0]}",)
    done = tapper.answer([src, f"tray:{colour}", one.lit[0], f"tray:{colour}"])
    assert done.lit == () and done.move == state.move_text(next(iter(state.legal_moves)))


def _points(state: Any, pips: tuple[int, ...]) -> list[str]:
    colour = state.colour[state.to_move]
    return [str(p if colour == 1 else 25 - p) for p in pips]


def test_a_druid_cell_is_a_sarsen_and_the_first_end_of_a_lintel() -> None:
    state = next(p for p in positions("druid", ("-size=6",), 1) if any(isinstance(m, Lintel) for m in p.legal_moves))
    tapper = Tapper(state)
    lintel = next(state.move_text(m) for m in state.legal_moves if isinstance(m, Lintel))
    a, b = lintel.split("-")
    after = tapper.answer([f"cell:{a}"])
    assert f"cell:{b}" in after.lit  # only the legal second cells stay lit
    assert tapper.answer([f"cell:{a}", f"cell:{b}"]).move == lintel
    assert tapper.answer([f"cell:{b}", f"cell:{a}"]).move == lintel  # either end first
    assert after.move in (a, None)


def test_a_walk_druid_steps_by_the_druid_then_the_cell() -> None:
    for state in positions("druid", ("-size=6", "-walk"), 2):
        steps = [state.move_text(m) for m in state.legal_moves if state.move_text(m).isalpha()]
        steps = [s for s in steps if s not in ("pass", "swap")]
        if steps:
            break
    else:
        pytest.fail("no druid could step in the playout")
    tapper = Tapper(state)
    druid = f"druid:{state.to_move}"
    assert druid in tapper.answer([]).lit
    reached = {tapper.answer([druid, cell]).move for cell in tapper.answer([druid]).lit}
    assert reached == set(steps)


def test_dragons_offers_the_tiles_that_fit_at_a_spot() -> None:
    state = positions("dragons", ("-num_tiles=20",), 1)[3]
    tapper = Tapper(state)
    spot = tapper.answer([]).lit[0]
    number = spot.partition(":")[2]
    letters = tapper.answer([spot]).lit
    legal = {state.move_text(m) for m in state.legal_moves}
    assert letters and {f"{t.partition(':')[2]}{number}" for t in letters} == {m for m in legal if m[1:] == number}


def test_a_tap_not_offered_is_refused_in_one_sentence() -> None:
    state = positions("drogo", ("-size=4",), 1)[5]
    tapper = Tapper(state)
    with pytest.raises(TapError) as refused:
        tapper.answer(["cell:z9"])
    assert str(refused.value) == "Z9 is not a legal tap: tap one of the highlighted places."
    first = tapper.answer([]).lit[0]
    with pytest.raises(TapError) as refused:
        tapper.answer([first, "point:3"])
    assert (
        str(refused.value)
        == f"point 3 is not a legal tap after {first.partition(':')[2].upper()}: tap one of the highlighted places."
    )
    with pytest.raises(TapError, match=f"A move is at most {MAX_TAPS} taps"):
        tapper.answer([first] * (MAX_TAPS + 1))


def test_the_words_are_buttons_and_a_roll_to_come_has_no_taps() -> None:
    game = registry.get("backgammon")
    state = game.new(game.parse_options([], 2), ["alice", "bob"], 1)
    for seat in (0, 1):
        state.push(state.parse_move("manual", seat))
    for _ in range(20):
        if state.phase == "decide":
            break
        state.push(state.forced_move() or state.random_move(Rng(1)))
    assert state.phase == "decide"
    assert "roll" in words(state)
    assert Tapper(state).answer([]).lit == ()
    with pytest.raises(TapError, match="use the buttons"):
        Tapper(state).answer(["point:13"])


def test_the_cache_builds_a_position_once() -> None:
    state = positions("druid", ("-size=6",), 1)[2]
    cache = TapCache(size=2)
    assert cache.tapper("a", state) is cache.tapper("a", state)
    cache.tapper("b", state)
    cache.tapper("c", state)
    assert cache.tapper("a", state) is not cache.tapper("c", state)


# ---- over HTTP ---------------------------------------------------------------------------------------------------


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    async with serving(tmp_path / "pbm.sqlite3") as site:
        assert (await site.actions.challenge("druid", ["alice", "bob"], ["-size=5"], start=True)).game_id == 1
        yield site


async def test_the_player_to_move_asks_tap_by_tap(site: Site) -> None:
    async with site.browser() as alice:
        await alice.sign_in("alice")
        json = {"Accept": "application/json"}
        start = await alice.get("/g/1/taps?guard=1", headers=json)
        one = await alice.get("/g/1/taps?tap=cell:c3&guard=1", headers=json)
        page = await alice.get("/g/1")
    assert start.status == 200 and start.json()["ok"] is True and len(start.json()["lit"]) == 25
    assert one.json() == {"ok": True, "guard": "1", "taps": ["cell:c3"], "lit": [], "move": "c3", "partial": "c3"}
    assert 'id="taps" hidden' in page.text and 'id="tap-status"' in page.text
    assert (await site.game_row(1)).log_length == 0  # asking plays nothing


async def test_taps_are_refused_in_one_sentence_and_change_nothing(site: Site) -> None:
    json = {"Accept": "application/json"}
    async with site.browser() as nobody, site.browser() as bob, site.browser() as carol, site.browser() as alice:
        await bob.sign_in("bob")
        await carol.sign_in("carol")
        await alice.sign_in("alice")
        answers = {
            "nobody": await nobody.get("/g/1/taps", headers=json),
            "bob": await bob.get("/g/1/taps", headers=json),
            "carol": await carol.get("/g/1/taps", headers=json),
            "stale": await alice.get("/g/1/taps?guard=7", headers=json),
            "wrong": await alice.get("/g/1/taps?tap=cell:z9", headers=json),
            "many": await alice.get("/g/1/taps?" + "&".join(["tap=cell:c3"] * 13), headers=json),
            "unknown": await alice.get("/g/9/taps", headers=json),
        }
        page = await alice.get("/g/1/taps?tap=cell:z9")
    said = {who: (a.status, a.json()["message"]) for who, a in answers.items()}
    assert said == {
        "nobody": (401, "Sign in to play: use a sign-in link, or sign in with Discord."),
        "bob": (409, "It is not your move in game 1."),
        "carol": (403, "You (carol) do not play in game 1: only its players act in it."),
        "stale": (409, "The board has changed since this page showed it: reload the page to see it."),
        "wrong": (400, "Z9 is not a legal tap: tap one of the highlighted places."),
        "many": (400, f"A move is at most {MAX_TAPS} taps; start again."),
        "unknown": (404, "there is no game 9."),
    }
    assert page.status == 400 and page.heading == "Z9 is not a legal tap: tap one of the highlighted places."
    assert (await site.game_row(1)).log_length == 0


async def test_a_board_that_moved_on_refuses_the_old_guard(site: Site) -> None:
    json = {"Accept": "application/json"}
    async with site.browser() as alice:
        await alice.sign_in("alice")
        await site.actions.move(1, "alice", "c3")
        await site.actions.move(1, "bob", "b2")
        old = await alice.get("/g/1/taps?guard=1", headers=json)
        new = await alice.get("/g/1/taps?guard=3&tap=cell:c3", headers=json)
    assert old.status == 409 and new.json()["move"] == "c3" and new.json()["guard"] == "3"


def test_the_field_holds_only_what_the_notation_starts_with() -> None:
    dragons = Tapper(positions("dragons", ("-num_tiles=20",), 1)[3])
    spot = dragons.answer([]).lit[0]
    assert dragons.answer([spot]).partial == ""  # a Dragons move starts with the tile's letter, tapped second
    walks = [Tapper(p) for p in positions("druid", ("-size=6", "-walk"), 2)]
    druid = next(t for t in walks if f"druid:{t.state.to_move}" in t.answer([]).lit)
    assert druid.answer([f"druid:{druid.state.to_move}"]).partial == ""


def test_every_place_is_named_for_screen_readers_from_the_scene() -> None:
    """render.svg names the places from the scene's tags (the owner by the header's seats), the PNG unchanged."""
    import re

    import render

    druid = registry.get("druid")
    state = druid.new(druid.parse_options(["-size=5", "-walk"], 2), ["alice", "bob"], 1)
    for move in ("c3", "c4", "c3"):
        state.push(state.parse_move(move))
    svg = render.board_svg(state, None, None, "top")
    assert (
        'data-id="c3" data-height="2" data-owner="0" data-stone="sarsen" role="img" aria-label="C3, height 2, alice\'s"'
        in svg
    )
    assert 'aria-label="C4, height 1, bob\'s"' in svg and 'aria-label="A1, empty"' in svg
    drogo = registry.get("drogo").new(registry.get("drogo").parse_options(["-size=4"], 2), ["x<&>", "bob"], 1)
    drogo.push(drogo.parse_move("b2"))
    assert 'aria-label="B2, height 1, x&lt;&amp;&gt;\'s"' in render.board_svg(drogo, None, None, "top")
    board = render.board_svg(backgammon((6, 5)), None, None, "top")
    labels = re.findall(r'aria-label="([^"]*)"', board)
    assert {
        "point 6, 5 O checkers",
        "point 1, 2 X checkers",
        "point 3, empty",
        "X's tray, 0 checkers borne off",
    } <= set(labels)
    dragons = positions("dragons", ("-num_tiles=20",), 1)[3]
    labels = re.findall(r'aria-label="([^"]*)"', render.board_svg(dragons, None, None, "top"))
    assert "position 1" in labels and "tile h" in labels
