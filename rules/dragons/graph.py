"""Dragons as graphs: the region graph of each colour, its connected dragons, their holes and their loops.

A node is one band of one colour on one tile; two nodes are linked when their tiles share an edge of that colour
(rules-notes D4). A dragon is a connected component; its holes are the cycle rank (links - nodes + 1); it is closed
when no band edge faces an empty cell; a loop is a simple cycle and its length is the number of tiles it passes.
The loop measure lives in :func:`longest_loop` alone, so a different reading of "loop" changes one function.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
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


class BandForest:
    """Union-find over the bands of the placed tiles, grown tile by tile (tiles are never removed). Its sets are
    the dragons. Adding a tile says which of its bands closed a cycle: only the dragons holding those can have
    a loop the move made, so the loop search looks at them alone, and at nothing when no cycle was closed."""

    def __init__(self, crossed: bool) -> None:
        self.parent: dict[Node, Node] = {}
        self.reach = _REACH[crossed]
        self.edge_region = EDGE_REGION[crossed]

    def _root(self, node: Node) -> Node:
        parent = self.parent
        while (up := parent[node]) != node:
            parent[node] = parent[up]  # path halving
            node = up
        return node

    def add(self, tiles: Mapping[Cell, int], cell: Cell) -> list[Node]:
        """Link the tile at ``cell`` to the tiles added before it; its bands whose links closed a cycle."""
        q, r = cell
        parent, root, edge_region = self.parent, self._root, self.edge_region
        closed = []
        for index, reach in enumerate(self.reach[tiles[cell]]):
            node = parent[(cell, index)] = (cell, index)
            for dq, dr, facing in reach:
                other = (q + dq, r + dr)
                if (other, 0) not in parent:
                    continue
                a, b = root(node), root((other, edge_region[tiles[other]][facing]))
                if a == b:
                    closed.append(node)
                else:
                    parent[a] = b
        return closed

    def root(self, node: Node) -> Node:
        """The representative of the dragon holding ``node``: two bands are in one dragon when theirs agree."""
        return self._root(node)


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
        """The dragon containing ``start``; adds its nodes to ``seen``. (:meth:`links`, inlined: this walk is the
        bulk of a move's win test.)"""
        seen.add(start)
        stack = [start]
        adjacency: dict[Node, list[Node]] = {}
        degree_sum = 0
        open_ends = 0
        tiles, reach, edge_region = self.tiles, self.reach, self.edge_region
        while stack:
            node = stack.pop()
            cell, index = node
            q, r = cell
            linked: list[Node] = []
            for dq, dr, facing in reach[tiles[cell]][index]:
                other = (q + dq, r + dr)
                placement = tiles.get(other)
                if placement is None:
                    open_ends += 1
                    continue
                neighbour = (other, edge_region[placement][facing])
                linked.append(neighbour)
                if neighbour not in seen:
                    seen.add(neighbour)
                    stack.append(neighbour)
            adjacency[node] = linked
            degree_sum += len(linked)
        return Dragon(self.colour(start), tuple(adjacency), degree_sum // 2, open_ends, adjacency)

    def dragons_through(self, cells: Iterable[Cell], keep: Callable[[Node], bool] | None = None) -> list[Dragon]:
        """Every dragon that has a band on one of ``cells`` (each once), in the order the cells and their bands
        come; with ``keep``, only the dragons of the bands it keeps."""
        seen: set[Node] = set()
        out = []
        for cell in cells:
            for node in self.nodes_on(cell):
                if node not in seen and (keep is None or keep(node)):
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
    """The biconnected blocks of three or more nodes (Hopcroft-Tarjan with an edge stack, iterative). Nodes are
    numbered first (in the adjacency's order, so the blocks come in the same order): the walk then indexes
    lists instead of hashing nested tuples."""
    nodes = list(adjacency)
    number = {node: i for i, node in enumerate(nodes)}
    links = [[number[other] for other in adjacency[node]] for node in nodes]
    order = [-1] * len(nodes)
    low = [0] * len(nodes)
    count = 0
    blocks: list[set[Node]] = []
    for root in range(len(nodes)):
        if order[root] >= 0:
            continue
        order[root] = low[root] = count
        count += 1
        edges: list[tuple[int, int]] = []
        stack = [(root, -1, iter(links[root]))]
        while stack:
            node, parent, pending = stack[-1]
            child = next(pending, None)
            if child is None:
                stack.pop()
                if parent >= 0:
                    if low[node] < low[parent]:
                        low[parent] = low[node]
                    if low[node] >= order[parent]:
                        block: set[int] = set()
                        while True:
                            a, b = edges.pop()
                            block.add(a)
                            block.add(b)
                            if a == parent and b == node:
                                break
                        if len(block) >= 3:
                            blocks.append({nodes[i] for i in block})
                continue
            if child == parent:
                continue
            if order[child] < 0:
                order[child] = low[child] = count
                count += 1
                edges.append((node, child))
                stack.append((child, node, iter(links[child])))
            elif order[child] < order[node]:
                edges.append((node, child))
                if order[child] < low[node]:
                    low[node] = order[child]
    return blocks
