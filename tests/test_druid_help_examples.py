"""The winning boards drawn in the pbmserv Druid help (the intact copies, rules-notes.md source S2): the two-player
hex game won by X, the three-player hex game won by X and the Druid's Y game won by X.

The help draws them as 3D monuments; the cells below are the top stones read off those drawings, face by face
(a top face at height h is drawn h character columns right of and h lines above its ground cell). Only the top
of each cell counts for connection, so putting these tops down as single sarsens gives the same connections; the
order puts the losers' stones first and the winner's last, so the winning stone is the one that completes the
drawn path.
"""

from __future__ import annotations

import pytest

from rules.druid import GAME, DruidState

#: (option words, players, tops per seat as drawn, reason of the win)
EXAMPLES = {
    "two-player hex won by X": (
        ("-hex",),
        2,
        [
            # X: C7 (NW side) C6 C5 D5 D4 E4 F4 G4 H3 I3 (E side); D4 C3 B2 B1 (SW side), plus C1
            ["c7", "c6", "c5", "d5", "d4", "e4", "f4", "g4", "h3", "c3", "b2", "b1", "c1", "i3"],
            ["a1", "b5", "c2", "c4", "d2", "e2", "e5", "f1", "f5", "g3", "g5", "h4"],
        ],
        "X joined NW, E and SW sides",
    ),
    "three-player hex won by X": (
        ("-hex",),
        3,
        [
            # X: C1 (SW side) D2 D3 D4 E5 F5 G5 H5 H6 (NE side), plus E3; E5 and H6 are partly hidden in the
            # drawing (a lone x shows at each), the beam F5-H5 lies three levels up
            ["c1", "d2", "d3", "e3", "d4", "e5", "f5", "g5", "h5", "h6"],
            ["e4", "f4", "f7", "f8", "g3", "h2", "i1"],
            ["a1", "a4", "b5", "c4", "c6", "d5", "e6", "h4"],
        ],
        "X joined NE and SW sides",
    ),
    "Druid's Y won by X": (
        ("-y",),
        2,
        [
            # X: A5 (W side) B5 C4 D3 E2 F1 (SE side), and E2 E3 E4 (NE side) up column E
            ["a5", "b5", "c4", "d3", "e4", "e3", "e2", "f1"],
            ["a4", "b4", "c3", "d2", "d4", "d5", "e1"],
        ],
        "X joined all three sides",
    ),
}


def put(state: DruidState, seat: int, cell: str) -> None:
    """``seat`` places a sarsen on ``cell``; the seats before it in the round pass."""
    while state.to_move != seat:
        state.push(state.parse_move("pass"))
    state.push(state.parse_move(cell))


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_help_example_is_won_by_the_drawn_path(name: str) -> None:
    words, players, tops, reason = EXAMPLES[name]
    state = GAME.new(GAME.parse_options(words, players), ["ann", "bob", "cy"][:players], seed=5)
    assert isinstance(state, DruidState)
    for seat in range(players - 1, 0, -1):
        for cell in tops[seat]:
            put(state, seat, cell)
    *path, last = tops[0]
    for cell in path:
        put(state, 0, cell)
        assert not state.is_over, f"{cell} should not finish the game yet"
    assert state.recompute_winners() == set()
    put(state, 0, last)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == reason
    assert state.recompute_winners() == {0}
    owners = {state.board.names[i]: state.top[i] for i in range(state.board.ncells) if state.top[i] >= 0}
    assert owners == {cell: seat for seat, cells in enumerate(tops) for cell in cells}


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_help_example_needs_every_drawn_link(name: str) -> None:
    """Taking away any one stone of the drawn path (not the extras) leaves the drawing unwon."""
    words, players, tops, _ = EXAMPLES[name]
    extras = {"two-player hex won by X": {"c1"}, "three-player hex won by X": {"e3"}, "Druid's Y won by X": set()}
    for missing in tops[0]:
        if missing in extras[name]:
            continue
        state = GAME.new(GAME.parse_options(words, players), ["ann", "bob", "cy"][:players], seed=5)
        assert isinstance(state, DruidState)
        for seat in range(players - 1, 0, -1):
            for cell in tops[seat]:
                put(state, seat, cell)
        for cell in tops[0]:
            if cell != missing:
                put(state, 0, cell)
        assert not state.is_over, f"without {missing} the path should be cut"
