"""Dragons as graphs: the region graph of each colour, its connected dragons, their holes and their loops.

A node is one band of one colour on one tile; two nodes are linked when their tiles share an edge of that colour
(rules-notes D4). A dragon is a connected component; its holes are the cycle rank (links - nodes + 1); it is closed
when no band edge faces an empty cell; a loop is a simple cycle and its length is the number of tiles it passes.
The loop measure lives in :func:`longest_loop` alone, so a different reading of "loop" changes one function.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from rules.dragons.tiles import DIRECTIONS, EDGE_REGION, REGIONS, Cell

#: (cell, index of the region on that tile)
Node = tuple[Cell, int]


@dataclass(frozen=True)
class Dragon:
    """One connected band of one colour, with the measures the win rules and tiebreaks use."""

    colour: int
    nodes: tuple[Node, ...]
    links: int
    open_ends: int

    @property
    def holes(self) -> int:
        return self.links - len(self.nodes) + 1

    @property
    def closed(self) -> bool:
        return self.open_ends == 0

    @property
    def size(self) -> int:
        """Number of tile segments (regions): the 'largest dragon' of the tiebreaks (rules-notes D4)."""
        return len(self.nodes)


class RegionGraph:
    """Read-only view of the placed tiles as per-colour region graphs."""

    def __init__(self, tiles: Mapping[Cell, int], crossed: bool) -> None:
        self.tiles = tiles
        self.regions = REGIONS[crossed]
        self.edge_region = EDGE_REGION[crossed]

    def colour(self, node: Node) -> int:
        return self.regions[self.tiles[node[0]]][node[1]].colour

    def nodes_on(self, cell: Cell) -> Iterator[Node]:
        for index in range(len(self.regions[self.tiles[cell]])):
            yield (cell, index)

    def links(self, node: Node) -> tuple[list[Node], int]:
        """The linked nodes of ``node`` and its number of open ends."""
        (q, r), index = node
        tiles = self.tiles
        out: list[Node] = []
        open_ends = 0
        for edge in self.regions[tiles[node[0]]][index].edges:
            dq, dr = DIRECTIONS[edge]
            other = (q + dq, r + dr)
            placement = tiles.get(other)
            if placement is None:
                open_ends += 1
            else:
                out.append((other, self.edge_region[placement][(edge + 3) % 6]))
        return out, open_ends

    def dragon(self, start: Node, seen: set[Node]) -> Dragon:
        """The dragon containing ``start``; adds its nodes to ``seen``."""
        seen.add(start)
        stack = [start]
        nodes = []
        degree_sum = 0
        open_ends = 0
        while stack:
            node = stack.pop()
            nodes.append(node)
            linked, opened = self.links(node)
            degree_sum += len(linked)
            open_ends += opened
            for other in linked:
                if other not in seen:
                    seen.add(other)
                    stack.append(other)
        return Dragon(self.colour(start), tuple(nodes), degree_sum // 2, open_ends)

    def dragons_through(self, cells: Iterable[Cell]) -> list[Dragon]:
        """Every dragon that has a band on one of ``cells`` (each once)."""
        seen: set[Node] = set()
        out = []
        for cell in cells:
            for node in self.nodes_on(cell):
                if node not in seen:
                    out.append(self.dragon(node, seen))
        return out

    def all_dragons(self) -> list[Dragon]:
        return self.dragons_through(sorted(self.tiles))

    def longest_loop(self, dragon: Dragon) -> list[Cell]:
        """The cells of a longest simple cycle of ``dragon`` in cycle order ([] when it has no hole).

        Dead ends are pruned first (cycles live in the 2-core); then every simple cycle is enumerated once per
        direction from its lowest node. Bands have at most three links, and the loop rules end the game at the
        first long loop, so the dragons searched stay small."""
        if dragon.holes <= 0:
            return []
        adjacency = {node: self.links(node)[0] for node in dragon.nodes}
        _prune_to_core(adjacency)
        return [node[0] for node in _longest_cycle(adjacency)]


def _longest_cycle(adjacency: dict[Node, list[Node]]) -> list[Node]:
    rank = {node: i for i, node in enumerate(sorted(adjacency))}
    best: list[Node] = []

    def extend(path: list[Node], on_path: set[Node]) -> None:
        nonlocal best
        start, floor = path[0], rank[path[0]]
        for other in adjacency[path[-1]]:
            if other == start:
                if len(path) >= 3 and len(path) > len(best):
                    best = list(path)
            elif other not in on_path and rank[other] > floor:
                path.append(other)
                on_path.add(other)
                extend(path, on_path)
                path.pop()
                on_path.discard(other)

    for start in rank:
        extend([start], {start})
    return best


def _prune_to_core(adjacency: dict[Node, list[Node]]) -> None:
    """Remove nodes of degree < 2 repeatedly, in place: no simple cycle passes through them."""
    stack = [node for node, linked in adjacency.items() if len(linked) < 2]
    while stack:
        node = stack.pop()
        if node not in adjacency:
            continue
        for other in adjacency.pop(node):
            if other in adjacency:
                adjacency[other].remove(node)
                if len(adjacency[other]) < 2:
                    stack.append(other)
