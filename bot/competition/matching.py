"""A maximum matching kept up to date while pairs are taken out: the oracle that lets the Swiss pairing choose board
by board, top board first, and still know for certain that the players left can be paired.

The graph is given by a function (``allowed(a, b)``: may these two meet?), never built: a round of 1,000 players
would have half a million edges. The matching is grown by Edmonds' blossom algorithm (augmenting paths through odd
circles), one search from an unmatched vertex at a time; a search costs at most one look at each pair of live
vertices, and in the dense graphs of a real tournament it ends after a few.

Taking a pair out keeps the matching maximum: the two partners it leaves unmatched are searched from, then every
other unmatched vertex (Edmonds: a matching from which no unmatched vertex has an augmenting path is maximum, and a
vertex that had none keeps having none as the matching grows). If the result leaves more vertices unmatched than
allowed, everything is put back as it was.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

#: the mate of an unmatched vertex
NONE = -1


class Matching:
    """A maximum matching of the live vertices ``0 .. size - 1`` in the graph ``allowed``."""

    def __init__(self, size: int, allowed: Callable[[int, int], bool]) -> None:
        self.allowed = allowed
        self.mate = [NONE] * size
        #: the live vertices, in a fixed order (a dict: removal and iteration both cheap and deterministic)
        self.live: dict[int, None] = dict.fromkeys(range(size))
        #: how many live vertices are unmatched
        self.free = size

    def pair(self, a: int, b: int) -> None:
        """Match two unmatched live vertices (a greedy start, before :meth:`maximise`)."""
        assert self.mate[a] == NONE and self.mate[b] == NONE and a != b
        self.mate[a], self.mate[b] = b, a
        self.free -= 2

    def unmatched(self) -> list[int]:
        return [v for v in self.live if self.mate[v] == NONE]

    def maximise(self, first: Iterable[int] = ()) -> None:
        """Make the matching maximum: search from ``first``, then from every other unmatched vertex, until no more
        than one (an odd number of vertices) is left unmatched, which is as good as can be. The tree of
        a search that fails is left out of the searches after it (Edmonds: no augmenting path ever runs through
        it), which keeps a field with many players who cannot be paired from costing a full search each."""
        dead: set[int] = set()
        for root in [*first, *self.unmatched()]:
            if self.free <= len(self.live) % 2:  # nothing can do better: stop before a search bound to fail
                return
            if root in self.live and root not in dead and self.mate[root] == NONE and self.augment(root, dead):
                self.free -= 2

    def take(self, vertices: tuple[int, ...], spare: int) -> bool:
        """Take ``vertices`` out (a pair that will play, or a player with a bye) if a matching of the rest leaves
        at most ``spare`` vertices unmatched; otherwise change nothing and say so."""
        mate = self.mate
        if len(vertices) == 2 and mate[vertices[0]] == vertices[1]:  # what is left of a maximum one stays maximum
            if self.free > spare:
                return False
            self._remove(vertices)
            return True
        saved = (mate.copy(), self.free)
        partners = [mate[v] for v in vertices if mate[v] != NONE and mate[v] not in vertices]
        self._remove(vertices)
        for partner in partners:
            mate[partner] = NONE
        self.free += len(partners)
        self.maximise(partners)
        if self.free <= spare:
            return True
        self.mate, self.free = saved
        self.live.update(dict.fromkeys(vertices))
        return False

    def _remove(self, vertices: tuple[int, ...]) -> None:
        for v in vertices:
            if self.mate[v] == NONE:
                self.free -= 1
            self.mate[v] = NONE
            del self.live[v]

    def augment(self, root: int, dead: set[int]) -> bool:
        """Edmonds' search from the unmatched ``root``: if an augmenting path starts there, flip it (one more
        pair) and say so; if none does, add the search's tree to ``dead``. Vertices are scanned from the last live
        one back: a search started low in the ranking finds its path among its neighbours in the ranking and leaves
        the pairs above it alone."""
        mate, allowed, live = self.mate, self.allowed, self.live
        tree = _Tree(root)
        queue = deque([root])
        while queue:
            v = queue.popleft()
            for to in reversed(live):
                if to == v or mate[v] == to or to in dead or tree.base(v) == tree.base(to) or not allowed(v, to):
                    continue
                if to == root or (mate[to] != NONE and mate[to] in tree.parent):
                    queue.extend(tree.contract(v, to, mate))
                elif to not in tree.parent:
                    tree.parent[to] = v
                    if mate[to] == NONE:
                        self._flip(to, tree.parent)
                        return True
                    tree.even.add(mate[to])
                    queue.append(mate[to])
        dead.update(tree.even, tree.parent)
        return False

    def _flip(self, end: int, parent: dict[int, int]) -> None:
        mate = self.mate
        while end != NONE:
            before = parent[end]
            following = mate[before]
            mate[end], mate[before] = before, end
            end = following


class _Tree:
    """The alternating tree of one search: each odd vertex's parent, the even vertices, and the blossoms shrunk so
    far (a union-find whose every set is named by its base), so shrinking a blossom costs its length, not a look
    at every vertex."""

    def __init__(self, root: int) -> None:
        self.parent: dict[int, int] = {}
        self.even = {root}
        self._up: dict[int, int] = {}
        self._base: dict[int, int] = {}

    def _find(self, v: int) -> int:
        up = self._up
        top = v
        while top in up:
            top = up[top]
        while v != top:
            up[v], v = top, up[v]
        return top

    def base(self, v: int) -> int:
        top = self._find(v)
        return self._base.get(top, top)

    def contract(self, v: int, to: int, mate: list[int]) -> list[int]:
        """Shrink the odd circle closed by the edge ``v``-``to`` into its base; return the vertices that become
        even (the circle's odd ones), to be searched from."""
        top = self._common(v, to, mate)
        joined: list[int] = []
        self._mark(v, top, to, mate, joined)
        self._mark(to, top, v, mate, joined)
        grown = []
        for b in joined:
            if b not in self.even:
                self.even.add(b)
                grown.append(b)
            head, union = self._find(b), self._find(top)
            if head != union:
                self._up[head] = union
            self._base[union] = top
        return grown

    def _common(self, a: int, b: int, mate: list[int]) -> int:
        """The base of the lowest common ancestor of ``a`` and ``b`` in the tree."""
        seen = set()
        while True:
            a = self.base(a)
            seen.add(a)
            if mate[a] == NONE:
                break
            a = self.parent[mate[a]]
        while True:
            b = self.base(b)
            if b in seen:
                return b
            b = self.parent[mate[b]]

    def _mark(self, v: int, top: int, child: int, mate: list[int], joined: list[int]) -> None:
        """Walk from ``v`` down to the blossom's base ``top``, re-pointing parents so paths can run either way
        round, and collect the vertices (and shrunk blossoms' bases) the walk passes."""
        while self.base(v) != top:
            joined.append(self.base(v))
            joined.append(mate[v])
            self.parent[v] = child
            child = mate[v]
            v = self.parent[mate[v]]
