"""Dragons as graphs: the region graph of each colour, its connected dragons, their holes and their loops.

A node is one band of one colour on one tile; two nodes are linked when their tiles share an edge of that colour
(rules-notes D4). A dragon is a connected component; its holes are the cycle rank (links - nodes + 1); it is closed
when no band edge faces an empty cell; a loop is a simple cycle and its length is the number of tiles it passes.
The loop measure lives in :func:`longest_loop` alone, so a different reading of "loop" changes one function.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from rules.dragons.tiles import DIRECTIONS, EDGE_REGION, REGIONS, Cell

#: (cell, index of the region on that tile)
Node = tuple[Cell, int]


#: [crossed][placement][region]: (dq, dr, edge seen from the neighbour) for each edge the band reaches
_REACH = tuple(
    tuple(tuple(tuple((*DIRECTIONS[e], (e + 3) % 6) for e in region.edges) for region in regions) for regions in by_set)
    for by_set in REGIONS
)


@dataclass(frozen=True)
class Dragon:
    """One connected band of one colour, with the measures the win rules and tiebreaks use."""

    colour: int
    nodes: tuple[Node, ...]
    links: int
    open_ends: int
    #: node -> linked nodes, kept from the walk so the loop search does not look the links up again
    adjacency: dict[Node, list[Node]] = field(default_factory=dict, compare=False, repr=False)

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
        self.reach = _REACH[crossed]

    def colour(self, node: Node) -> int:
        return self.regions[self.tiles[node[0]]][node[1]].colour

    def nodes_on(self, cell: Cell) -> Iterator[Node]:
        for index in range(len(self.regions[self.tiles[cell]])):
            yield (cell, index)

    def links(self, node: Node) -> tuple[list[Node], int]:
        """The linked nodes of ``node`` and its number of open ends."""
        cell, index = node
        q, r = cell
        tiles = self.tiles
        edge_region = self.edge_region
        out: list[Node] = []
        open_ends = 0
        for dq, dr, facing in self.reach[tiles[cell]][index]:
            other = (q + dq, r + dr)
            placement = tiles.get(other)
            if placement is None:
                open_ends += 1
            else:
                out.append((other, edge_region[placement][facing]))
        return out, open_ends

    def dragon(self, start: Node, seen: set[Node]) -> Dragon:
        """The dragon containing ``start``; adds its nodes to ``seen``."""
        seen.add(start)
        stack = [start]
        adjacency: dict[Node, list[Node]] = {}
        degree_sum = 0
        open_ends = 0
        while stack:
            node = stack.pop()
            linked, opened = self.links(node)
            adjacency[node] = linked
            degree_sum += len(linked)
            open_ends += opened
            for other in linked:
                if other not in seen:
                    seen.add(other)
                    stack.append(other)
        return Dragon(self.colour(start), tuple(adjacency), degree_sum // 2, open_ends, adjacency)

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

    def longest_loop(self, dragon: Dragon, through: set[Cell] | None = None) -> list[Cell]:
        """The cells of a longest simple cycle of ``dragon`` in cycle order ([] when it has no hole); with
        ``through``, only cycles in blocks that hold a band on one of those cells (the loops a move can have made).

        A simple cycle lies inside one biconnected block, so the dragon is cut into blocks first and each block
        is searched alone: a dragon strung from many small eyes joined at single bands (common, and with no long
        loop yet) is then a row of tiny searches instead of one exponential one. Within a block every simple
        cycle is enumerated once per direction from its lowest node; bands have at most three links, and the
        loop rules end the game at the first long loop, so the blocks searched stay small."""
        if dragon.holes <= 0:
            return []
        adjacency = dragon.adjacency
        if through is not None and not any(len(adjacency[n]) >= 2 for n in adjacency if n[0] in through):
            return []
        best: list[Node] = []
        for block in _blocks(adjacency):
            if through is not None and not any(node[0] in through for node in block):
                continue
            if len(block) > len(best):
                sub = {node: [other for other in adjacency[node] if other in block] for node in block}
                cycle = _longest_cycle(sub)
                if len(cycle) > len(best):
                    best = cycle
        return [node[0] for node in best]


def _longest_cycle(adjacency: dict[Node, list[Node]]) -> list[Node]:
    rank = {node: i for i, node in enumerate(sorted(adjacency))}
    best: list[Node] = []

    def extend(path: list[Node], on_path: set[Node]) -> None:
        nonlocal best
        start, floor = path[0], rank[path[0]]
        if len(best) == len(rank) - floor:
            return
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

    for start, index in rank.items():
        if len(best) >= len(rank) - index:
            break  # cycles from here on use only the nodes ranked above: none can be longer
        extend([start], {start})
    return best


def _blocks(adjacency: dict[Node, list[Node]]) -> list[set[Node]]:
    """The biconnected blocks of three or more nodes (Hopcroft-Tarjan with an edge stack, iterative)."""
    order: dict[Node, int] = {}
    low: dict[Node, int] = {}
    blocks: list[set[Node]] = []
    for root in adjacency:
        if root in order:
            continue
        order[root] = low[root] = len(order)
        edges: list[tuple[Node, Node]] = []
        stack = [(root, None, iter(adjacency[root]))]
        while stack:
            node, parent, links = stack[-1]
            child = next(links, None)
            if child is None:
                stack.pop()
                if parent is not None:
                    low[parent] = min(low[parent], low[node])
                    if low[node] >= order[parent]:
                        block: set[Node] = set()
                        while True:
                            a, b = edges.pop()
                            block.update((a, b))
                            if (a, b) == (parent, node):
                                break
                        if len(block) >= 3:
                            blocks.append(block)
                continue
            if child == parent:
                continue
            if child not in order:
                order[child] = low[child] = len(order)
                edges.append((node, child))
                stack.append((child, node, iter(adjacency[child])))
            elif order[child] < order[node]:
                edges.append((node, child))
                low[node] = min(low[node], order[child])
    return blocks
