"""Dragons scoring from the measures the bands keep (:meth:`rules.dragons.graph.Bands.dragons`) against a walk of
every dragon on the board (:meth:`RegionGraph.all_dragons`), the way the scoring was done before.

At every ply of seeded random games under every option that scores: the kept measures of every dragon equal the
walked ones (colour, size, holes, open ends); the end of game the rules would declare if the pool ran out there
equals the one the walk gives; and so do the per-colour figures the win tests read. A clone and a JSON round trip
keep the measures. The pool's end and the closed-dragon goals walk no dragon at all. The default run plays a modest
sample; ``-m slow`` plays thousands of games.
"""

from __future__ import annotations

import json
import random

import pytest

from rules import registry
from rules.base import Outcome
from rules.dragons import DragonsState
from rules.dragons import options as opts
from rules.dragons.graph import Dragon, RegionGraph, cell_code

GAME = registry.get("dragons")

#: every option that changes what is scored, with the tile sets, start tiles and gap rules that change the board
WORDS: list[list[str]] = [
    [],
    ["-tantrix"],
    ["-tantrix", "-tails"],
    ["-tantrix", "-num_tiles=120"],
    ["-all_out_most_eyes"],
    ["-tails", "-all_out_most_eyes", "-may_complete"],
    ["-tie_largest_wins"],
    ["-tie_largest_loses", "-num_eyes=2"],
    ["-tails", "-tie_largest_wins"],
    ["-tails", "-end_first"],
    ["-tails", "-end_single"],
    ["-tails", "-end_most", "-tie_largest_loses"],
    ["-end_most", "-num_eyes=2"],
    ["-start_tip", "-tie_largest_wins"],
    ["-start_joint", "-tails", "-tie_largest_loses"],
]


def new(words: list[str], seed: int) -> DragonsState:
    state = GAME.new(GAME.parse_options(words, 2), ["al", "bo"], seed)
    assert isinstance(state, DragonsState)
    return state


def walked(state: DragonsState) -> list[Dragon]:
    return RegionGraph(state.tiles, state.crossed).all_dragons()


def walked_final(state: DragonsState) -> Outcome:
    """The end when the pool runs out, scored from a walk of every dragon on the board: the rules' scoring as it
    was written before the bands kept the measures (rules-notes D4, D8, D9)."""
    dragons = walked(state)
    if state.goal == "tantrix":
        scores = [max((d.holes * (2 if d.closed else 1) for d in dragons if d.colour == c), default=0) for c in (0, 1)]
        decided = state._compare(scores, "the best dragon, worth {} points", "best dragons worth {} points")
        outcome = decided or Outcome((), "draw: no dragon scored")
        return Outcome(outcome.winners, f"the tiles ran out; {outcome.reason}", tuple(float(s) for s in scores))
    complete = [d for d in dragons if d.closed and d.holes >= state.num_eyes]
    if state.goal == "all_out_most_eyes":
        values = [max((d.holes for d in complete if d.colour == c), default=-1) for c in (0, 1)]
        decided = state._compare(values, "a closed dragon with {} holes", "closed dragons with {} holes each")
    else:
        tie = opts.tiebreak(state.options)
        values = [max((d.size for d in complete if d.colour == c), default=-1) for c in (0, 1)]
        lower = tie == "tie_largest_loses"
        largest, equal = "the largest closed dragon, of {} segments", "closed dragons of {} segments"
        decided = None if tie == "tie_none" else state._compare(values, largest, equal, lower_wins=lower)
    reason = decided.reason if decided else "draw: nobody won"
    return Outcome(decided.winners if decided else (), f"the tiles ran out; {reason}")


def figures(state: DragonsState, dragons: list[tuple[int, int, int, int]]) -> dict[str, list[int]]:
    """What the win tests read, per colour: the best completed dragon by holes and by size, and the most holes
    of any dragon (-end_most's enemy)."""
    return {
        "holes": state._best_complete(dragons, 2),
        "size": state._best_complete(dragons, 1),
        "most": [max((h for c, _, h, _ in dragons if c == colour), default=0) for colour in (0, 1)],
    }


def measures(dragons: list[Dragon]) -> list[tuple[int, int, int, int]]:
    return sorted((d.colour, d.size, d.holes, d.open_ends) for d in dragons)


def check_game(words: list[str], seed: int) -> int:
    """Play one seeded random game, comparing kept and walked after every ply; the number of plies checked."""
    state, rng = new(words, seed), random.Random(seed)
    plies = 0
    while not state.is_over:
        before = sorted(state.bands.dragons())
        trial = state.clone()
        state.push(state.forced_move() or state.random_move(rng))
        assert sorted(trial.bands.dragons()) == before, "a clone shares the measures it changes"
        kept = sorted(state.bands.dragons())
        assert kept == measures(walked(state)), (words, seed, len(state.tiles))
        assert figures(state, kept) == figures(state, measures(walked(state)))
        if state.last is not None:
            cells = [state.last["cell"], *(cell for cell, _ in state.last["autos"])]
            codes = [cell_code(cell) for cell in cells]
            through = RegionGraph(state.tiles, state.crossed).dragons_through(cells)
            assert sorted(state.bands.dragons_of(codes)) == measures(through)
        assert state._final() == walked_final(state), (words, seed, len(state.tiles))
        plies += 1
    again = GAME.load(json.loads(json.dumps(state.to_json())))
    assert isinstance(again, DragonsState)
    assert sorted(again.bands.dragons()) == sorted(state.bands.dragons())
    return plies


@pytest.mark.parametrize("words", WORDS, ids=lambda words: " ".join(words) or "default")
def test_kept_measures_and_scores_equal_a_walk_of_every_dragon_at_every_ply(words: list[str]) -> None:
    assert sum(check_game(words, seed) for seed in range(20)) > 20 * 8


@pytest.mark.slow
@pytest.mark.parametrize("words", WORDS, ids=lambda words: " ".join(words) or "default")
def test_kept_measures_and_scores_equal_the_walk_in_thousands_of_games(words: list[str]) -> None:
    plies = sum(check_game(words, seed) for seed in range(20, 520))
    print(" ".join(words) or "default", "500 games,", plies, "plies")


@pytest.mark.parametrize(
    "words",
    [
        [],
        ["-tantrix"],
        ["-all_out_most_eyes"],
        ["-tie_largest_wins"],
        ["-tails", "-end_first"],
        ["-tails", "-end_single"],
        ["-tails", "-end_most", "-tie_largest_loses"],
    ],
    ids=lambda words: " ".join(words) or "default",
)
def test_the_pool_end_and_the_closed_dragon_goals_walk_no_dragon(
    words: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*_: object) -> None:
        raise AssertionError("a dragon was walked")

    monkeypatch.setattr(RegionGraph, "dragon", refuse)
    endings = set()
    for seed in range(30):
        state, rng = new([*words, "-num_tiles=16"], seed), random.Random(seed)
        while not state.is_over:
            state.push(state.forced_move() or state.random_move(rng))
        endings.add(state.outcome().reason.startswith("the tiles ran out"))  # type: ignore[union-attr]
    assert True in endings  # some games were scored at the pool's end
