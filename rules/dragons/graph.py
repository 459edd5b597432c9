"""Dragons as graphs: the region graph of each colour, its connected dragons, their holes and their loops.

A node is one band of one colour on one tile; two nodes are linked when their tiles share an edge of that colour
(rules-notes D4). A dragon is a connected component; its holes are the cycle rank (links - nodes + 1); it is closed
when no band edge faces an empty cell; a loop is a simple cycle and its length is the number of tiles it passes.
The loop measure lives in :func:`longest_loop` alone, so a different reading of "loop" changes one function
(:class:`Bands`, the playout path's copy of the bands, searches blocks with the same :func:`_longest_cycle` and reads
blocks of three and four bands directly: tests/test_dragons_playout.py holds the two to the same loops).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from rules.dragons.tiles import DIRECTIONS, EDGE_REGION, REGIONS, Cell

#: (cell, index of the region on that tile)
Node = tuple[Cell, int]
#: what the scoring reads of one dragon, without its bands: (colour, size, holes, open ends), as :class:`Dragon`
#: gives them (closed when no end is open); a plain tuple, made on every band a tile adds (:meth:`Bands.add`)
Measures = tuple[int, int, int, int]


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


# ---- the playout path: bands as integers -----------------------------------------------------------------------
#
# A cell (q, r) is the integer code (q + _OFFSET) * _WIDTH + r + _OFFSET, and its band ``index`` the node
# code * 8 + index. Both orders agree with the tuples' (cell first, then band), so sorting codes sorts as the
# tuple forms would, and a neighbour is one addition away. Coordinates stay far inside the offset: a pool holds
# at most a few hundred tiles.

_OFFSET, _WIDTH = 1 << 12, 1 << 13
_STEPS = tuple(dq * _WIDTH + dr for dq, dr in DIRECTIONS)
#: [crossed][placement][region]: (step to the neighbour's code, edge seen from the neighbour) per edge reached
_CODE_REACH = tuple(
    tuple(tuple(tuple((_STEPS[e], (e + 3) % 6) for e in region.edges) for region in regions) for regions in by_set)
    for by_set in REGIONS
)
#: [crossed][placement]: per region, its reach as above, its colour and its number of edges (what :meth:`Bands.add`
#: reads of a new band)
_CODE_BANDS = tuple(
    tuple(
        tuple((reach, region.colour, len(region.edges)) for reach, region in zip(reaches, regions, strict=True))
        for reaches, regions in zip(by_placement, by_set, strict=True)
    )
    for by_placement, by_set in zip(_CODE_REACH, REGIONS, strict=True)
)


def cell_code(cell: Cell) -> int:
    """The integer code of a cell (see above)."""
    return (cell[0] + _OFFSET) * _WIDTH + cell[1] + _OFFSET


def code_cell(code: int) -> Cell:
    q, r = divmod(code, _WIDTH)
    return (q - _OFFSET, r - _OFFSET)


class _Cells(dict):
    """cell code -> cell, filled on first use (a look-up instead of a call on the loop path)."""

    def __missing__(self, code: int) -> Cell:
        cell = self[code] = code_cell(code)
        return cell


_CELL = _Cells().__getitem__


class Bands:
    """:class:`BandForest` and the loop search of a move, on integer codes: the state's own copy of the bands,
    grown tile by tile as the forest is.

    Beside the union-find it keeps the biconnected blocks up to date as links are added (links and bands are
    never removed): a spanning forest of the links (``tree``: node -> parent, -1 at a root), each tree link
    labelled with its block (``label``: child node -> block, -1 for a bridge; the blocks with a cycle are a
    union-find with their bands listed), and for each band in a block with a cycle that block (``block_of``; a
    band has at most three links, so it lies in at most one such block). A link that joins two trees is a
    bridge, a block of its own; a link inside a tree merges every block on the tree path between its ends. So
    the block a move's band lies in is a look-up, not a walk of its dragon.

    :meth:`loops` gives what :class:`RegionGraph` gives for the dragons a move's cycles lie in: the same dragons
    in the same order and the same loops. When a dragon's new bands lie in two blocks or more whose longest
    cycles are equally long (the block the walk meets first then decides), or closed dragons alone count, it
    walks that dragon as :class:`RegionGraph` and :func:`_blocks` do (:meth:`_dragon`).

    Each dragon's measures are kept at its root as well (``measures``: root -> :data:`Measures`), updated from
    the bands a tile adds: a new band is a dragon of one band; each of its edges facing an empty cell is an open
    end, each facing a tile is a link, and closes the open end the neighbour's band had there; a link between two
    dragons joins them (holes add up), a link inside one adds a hole. So the scoring when the pool runs out and
    the win tests of the closed-dragon goals read one entry per dragon instead of walking the board."""

    def __init__(self, crossed: bool) -> None:
        #: cell code -> placement of the tiles added so far
        self.board: dict[int, int] = {}
        #: node code -> parent node code (union-find, path halving)
        self.parent: dict[int, int] = {}
        self.tree: dict[int, int] = {}
        self.label: dict[int, int] = {}
        #: block -> the block it was merged into (itself while it is whole), and each whole block's bands
        self.merged: list[int] = []
        self.members: dict[int, list[int]] = {}
        self.block_of: dict[int, int] = {}
        #: root node code -> the measures of its dragon (immutable, so a clone copies the table alone)
        self.measures: dict[int, Measures] = {}
        self.reach = _CODE_REACH[crossed]
        self.tile_bands = _CODE_BANDS[crossed]
        self.edge_region = EDGE_REGION[crossed]
        self.colours = tuple(tuple(region.colour for region in regions) for regions in REGIONS[crossed])

    def clone(self) -> Bands:
        """An independent copy: the tables are copied, the lookup tables of the tile set shared."""
        new = copy.copy(self)
        new.board = dict(self.board)
        new.parent = dict(self.parent)
        new.tree = dict(self.tree)
        new.label = dict(self.label)
        new.merged = list(self.merged)
        new.members = {block: list(bands) for block, bands in self.members.items()}
        new.block_of = dict(self.block_of)
        new.measures = dict(self.measures)
        return new

    def root(self, node: int) -> int:
        parent = self.parent
        while (up := parent[node]) != node:
            parent[node] = parent[up]
            node = up
        return node

    def _block(self, block: int) -> int:
        merged = self.merged
        while (up := merged[block]) != block:
            merged[block] = merged[up]
            block = up
        return block

    def _evert(self, node: int) -> None:
        """Make ``node`` the root of its tree: the links on its path to the old root turn round, labels kept."""
        tree, label = self.tree, self.label
        path = [node]
        while (up := tree[path[-1]]) >= 0:
            path.append(up)
        for i in range(len(path) - 1, 0, -1):
            tree[path[i]] = path[i - 1]
            label[path[i]] = label[path[i - 1]]
        tree[node] = -1

    def _merge(self, a: int, b: int) -> None:
        """The link a-b closes a cycle: the blocks of the tree links on the path between them become one."""
        tree, label, merged, members, block_of = self.tree, self.label, self.merged, self.members, self.block_of
        above = {a}
        x = a
        while (x := tree[x]) >= 0:
            above.add(x)
        path = []
        x = b
        while x not in above:
            path.append(x)
            x = tree[x]
        top = x
        x = a
        while x != top:
            path.append(x)
            x = tree[x]
        blocks = set()
        for x in path:
            found = label[x]
            if found >= 0:  # not a bridge: find its block
                while (up := merged[found]) != found:
                    merged[found] = merged[up]
                    found = up
                blocks.add(found)
        if not blocks:
            into = len(merged)
            merged.append(into)
            bands = members[into] = []
        else:
            into = max(blocks, key=lambda found: len(members[found])) if len(blocks) > 1 else blocks.pop()
            bands = members[into]
            blocks.discard(into)
            for other in blocks:
                merged[other] = into
                bands += members.pop(other)
        for x in path:
            label[x] = into
            block_of[x] = into
        block_of[top] = into
        bands += path
        bands.append(top)

    def add(self, code: int, placement: int) -> list[int]:
        """Link the tile ``placement`` at cell ``code`` to the tiles added before it; its bands (node codes) whose
        links closed a cycle, as :meth:`BandForest.add`."""
        board, parent, edge_region, tree = self.board, self.parent, self.edge_region, self.tree
        label, measures = self.label, self.measures
        board[code] = placement
        closed = []
        node = code * 8
        for reach, colour, open_ends in self.tile_bands[placement]:
            parent[node] = node
            tree[node] = -1
            a = node  # the root of the band's set, kept as links are made
            # the measures of a's dragon, stored under a once the band is linked: every edge open until it links
            size, holes = 1, 0
            for step, facing in reach:
                other = code + step
                placed = board.get(other)
                if placed is None:
                    continue
                linked = other * 8 + edge_region[placed][facing]
                b = linked
                while (up := parent[b]) != b:
                    parent[b] = parent[up]
                    b = up
                open_ends -= 2  # this edge is a link, not an open end, and so is the neighbour's edge facing it
                if a == b:
                    holes += 1
                    closed.append(node)
                    self._merge(node, linked)
                else:
                    _, its_size, its_holes, its_open = measures.pop(b)
                    size, holes, open_ends = size + its_size, holes + its_holes, open_ends + its_open
                    parent[a] = b
                    a = b
                    if tree[node] < 0:
                        child, top = node, linked
                    else:  # the band is in a tree already: hang the other tree from it
                        self._evert(linked)
                        child, top = linked, node
                    tree[child] = top
                    label[child] = -1  # a bridge, a block of its own (not listed: only blocks with a cycle are)
            measures[a] = (colour, size, holes, open_ends)
            node += 1
        return closed

    def dragons(self) -> Iterable[Measures]:
        """The measures of every dragon on the board, one entry per dragon (in no particular order)."""
        return self.measures.values()

    def dragons_of(self, codes: Iterable[int]) -> list[Measures]:
        """The measures of the dragons holding a band on one of the cells ``codes``, each once."""
        board, regions, root, measures = self.board, self.reach, self.root, self.measures
        roots = {root(node) for code in codes for node in range(code * 8, code * 8 + len(regions[board[code]]))}
        return [measures[top] for top in roots]

    def loops(self, codes: list[int], cycled: list[int], closed_only: bool) -> list[tuple[int, list[Cell]]]:
        """The dragons holding a band of ``cycled``, in the order :meth:`RegionGraph.dragons_through` meets them
        from the cells ``codes``: for each with a hole (and closed, with ``closed_only``) its colour and
        :meth:`RegionGraph.longest_loop` through those cells (cells in loop order, [] for none)."""
        board, regions, block_of, block = self.board, self.reach, self.block_of, self._block
        if len(codes) == 1 and not closed_only:
            # one new tile: a band that closes a cycle has two links or more, so it is not a dead-end tail, and
            # the tile's other bands are of the other colour: each such band is the only new one of its dragon
            colours = self.colours[board[codes[0]]]
            return [
                (colours[node & 7], self._cycle(set(self.members[block(block_of[node])])))
                for node in dict.fromkeys(cycled)
            ]
        root = self.root
        roots = {root(node) for node in cycled}
        new = [node for code in codes for node in range(code * 8, code * 8 + len(regions[board[code]]))]
        tops = [root(node) for node in new]
        out = []
        for start, top in zip(new, tops, strict=True):
            if top not in roots:
                continue
            roots.discard(top)
            if closed_only:
                found = self._dragon(start, set(codes), closed_only)
                if found is not None:
                    out.append(found)
                continue
            # every cycled dragon has a hole; its loop lies in the blocks holding its new bands
            colour = self.colours[board[start >> 3]][start & 7]
            mine = [node for node, its in zip(new, tops, strict=True) if its == top and node in block_of]
            blocks = {block(block_of[node]) for node in mine}
            if len(blocks) == 1:
                out.append((colour, self._cycle(set(self.members[blocks.pop()]))))
            elif not blocks:
                out.append((colour, []))
            else:
                # the longest of the blocks' cycles; between equally long ones the walk's block order decides
                cycles = [self._cycle(set(self.members[found])) for found in blocks]
                longest = max(map(len, cycles))
                if sum(len(cycle) == longest for cycle in cycles) == 1:
                    out.append((colour, next(cycle for cycle in cycles if len(cycle) == longest)))
                else:
                    found = self._dragon(start, set(codes), closed_only)
                    if found is not None:
                        out.append(found)
            if not roots:
                break
        return out

    def _cycle(self, block: set[int]) -> list[Cell]:
        """:func:`_longest_cycle` of one block (links in the order the dragon walk lists them), as cells."""
        board, reach, edge_region = self.board, self.reach, self.edge_region
        if len(block) == 3:
            # a triangle: the search starts at its lowest band and goes first to that band's first link
            start = min(block)
            cell = start >> 3
            for step, facing in reach[board[cell]][start & 7]:
                placed = board.get(cell + step)
                if placed is not None and (cell + step) * 8 + edge_region[placed][facing] in block:
                    block.discard(start)
                    block.discard((cell + step) * 8 + edge_region[placed][facing])
                    return [_CELL(cell), _CELL(cell + step), _CELL(block.pop() >> 3)]
        sub: dict[int, list[int]] = {}
        for node in block:
            cell = node >> 3
            linked = []
            for step, facing in reach[board[cell]][node & 7]:
                placed = board.get(cell + step)
                if placed is not None:
                    other = (cell + step) * 8 + edge_region[placed][facing]
                    if other in block:
                        linked.append(other)
            sub[node] = linked
        if len(block) == 4:
            # four bands in a block always close a cycle through all four: the first the search meets
            start = min(block)
            for a in sub[start]:
                for b in sub[a]:
                    if b != start:
                        for c in sub[b]:
                            if c != start and c != a and start in sub[c]:
                                return [_CELL(start >> 3), _CELL(a >> 3), _CELL(b >> 3), _CELL(c >> 3)]
        return [_CELL(node >> 3) for node in _longest_cycle(sub)]

    def _dragon(self, start: int, through: set[int], closed_only: bool) -> tuple[int, list[Cell]] | None:
        """One dragon from ``start``: a depth-first walk in link order that counts its bands, links and open ends
        and cuts it into biconnected blocks as :func:`_blocks` does (same walk, so the same blocks in the same
        order); then the longest cycle of the blocks holding a band on a ``through`` cell."""
        board, reach, edge_region = self.board, self.reach, self.edge_region
        adjacency: dict[int, list[int]] = {}
        order: dict[int, int] = {start: 0}
        low: dict[int, int] = {start: 0}
        count = 1
        degree = opened = 0
        edges: list[tuple[int, int]] = []
        blocks: list[set[int]] = []
        cell = start >> 3
        linked = []
        for step, facing in reach[board[cell]][start & 7]:
            placed = board.get(cell + step)
            if placed is None:
                opened += 1
            else:
                linked.append((cell + step) * 8 + edge_region[placed][facing])
        adjacency[start] = linked
        degree += len(linked)
        stack = [(start, -1, iter(linked))]
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
                            blocks.append(block)
                continue
            if child == parent:
                continue
            seen = order.get(child)
            if seen is None:
                order[child] = low[child] = count
                count += 1
                edges.append((node, child))
                cell = child >> 3
                linked = []
                for step, facing in reach[board[cell]][child & 7]:
                    placed = board.get(cell + step)
                    if placed is None:
                        opened += 1
                    else:
                        linked.append((cell + step) * 8 + edge_region[placed][facing])
                adjacency[child] = linked
                degree += len(linked)
                stack.append((child, node, iter(linked)))
            elif seen < order[node]:
                edges.append((node, child))
                if seen < low[node]:
                    low[node] = seen
        holes = degree // 2 - count + 1
        if holes < 1 or (closed_only and opened):
            return None
        best: list[int] = []
        for block in blocks:
            if len(block) > len(best) and any(node >> 3 in through for node in block):
                sub = {node: [other for other in adjacency[node] if other in block] for node in block}
                cycle = _longest_cycle(sub)
                if len(cycle) > len(best):
                    best = cycle
        colour = self.colours[board[start >> 3]][start & 7]
        return colour, [code_cell(node >> 3) for node in best]
