"""The loop measure (rules-notes D4) against a plain brute force: the longest simple cycle of every dragon with a
few holes in seeded random positions, and holes = links - bands + 1 checked against the cycles found."""

from __future__ import annotations

from rules import registry
from rules.dragons import DragonsState
from rules.dragons.graph import Node, RegionGraph
from rules.rng import Rng

GAME = registry.get("dragons")


def brute_longest(adjacency: dict[Node, list[Node]]) -> int:
    """Every simple path from every node, no pruning, no blocks: slow and obviously right."""
    best = 0

    def walk(path: list[Node]) -> None:
        nonlocal best
        for other in adjacency[path[-1]]:
            if other == path[0] and len(path) >= 3:
                best = max(best, len(path))
            elif other not in path:
                walk([*path, other])

    for start in adjacency:
        walk([start])
    return best


def final_position(seed: int, words: list[str]) -> DragonsState:
    state = GAME.new(GAME.parse_options(words, 2), ["al", "bo"], seed)
    assert isinstance(state, DragonsState)
    rng = Rng(seed)
    while not state.is_over:
        forced = state.forced_move()
        state.push(forced if forced is not None else rng.choice(list(state.legal_moves)))
    return state


def test_longest_loop_matches_brute_force() -> None:
    checked = 0
    for seed in range(40):
        state = final_position(seed, ["-tails"] if seed % 2 else ["-all_out_most_eyes", "-num_tiles=30"])
        graph = RegionGraph(state.tiles, state.crossed)
        for dragon in graph.all_dragons():
            if 0 < dragon.holes <= 4:
                loop = graph.longest_loop(dragon)
                assert len(loop) == brute_longest(dragon.adjacency)
                steps = {(b[0] - a[0], b[1] - a[1]) for a, b in zip(loop, loop[1:] + loop[:1], strict=True)}
                assert len(steps) >= 2 and all(abs(dq) <= 1 and abs(dr) <= 1 for dq, dr in steps)
                checked += 1
            if dragon.holes == 0:
                assert graph.longest_loop(dragon) == []
    assert checked >= 50
