"""The Swiss pairing of two-player games: who plays whom next round, with which colour, and who has the bye.

**The order.** Players are ranked by points, then by seed. The bye goes to the lowest-ranked player who has not had
one (when all have, the lowest-ranked of those with the fewest). The rest are paired top board first, in the way of
the Dutch system: the top player left meets the first player of the lower half of his score group (round one: 1
v n/2 + 1, 2 v n/2 + 2 ...), or the next one down that half, then up the upper half, then down the lower groups; a
player alone in his score group floats down and meets the top of the next group.

**The rules, strongest first.** (1) at most one bye each; (2) no two players meet twice; (3) colours: nobody plays
the same colour three times running or ends two games ahead of one colour by three (pairing two players who both
*must* have the same colour is what this forbids); (4) the order above. Each board takes the first opponent in
that order who leaves the players below it a pairing that keeps rules 1-3: a maximum matching
(:mod:`bot.competition.matching`) says so exactly, so the pairing never walks into a dead end and never gives up a
rule it could have kept.

**When a rule cannot be kept**, the pairing does not fail and does not hide it:

* no pairing keeps the colour rule: colours are given up (still no repeats), each board preferring an opponent
  who keeps it; the players who break it are counted in the round's note;
* no pairing avoids a repeat: the round has the fewest repeats any pairing can have (a maximum matching of the
  pairs that have not met says how few), and they fall on the lowest boards (each board, top first, takes a new
  opponent whenever the rest can still be paired with no more repeats than that); the note says how many.

**Colours.** A player's colour history counts played games only (not byes, not forfeits). The one with the
stronger wish gets his colour: a must (see rule 3), then a player one game ahead of a colour, then a player who
had the other colour last; equal wishes: the colours of the latest round where they differed are swapped, else the
higher-ranked player has his way. With no history at all (round one): the higher-ranked player is White on boards
1, 3, 5 ... and Black on the others.

Speed: one pass to find a matching, one to choose the boards, each looking at a few candidates a player in a real
tournament; 1,000 players are paired in well under a second (``python -m bench competition``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from bot.competition.matching import Matching
from bot.competition.model import plural

WHITE, BLACK = 1, -1
#: how much a player wants his colour: must, strongly (one game ahead of the other colour), mildly (had the other
#: one last), not at all
MUST, STRONG, MILD, NO_WISH = 3, 2, 1, 0
#: the end of the linked list of players still to pair
END = -1


@dataclass(frozen=True)
class Contender:
    """A player to pair, as the pairing sees him: ``points`` in units, the seed, how often he has met each opponent
    (played games only), his colours in played games in order (``WHITE`` / ``BLACK``) and his byes."""

    id: str
    points: int
    seed: int
    met: Mapping[str, int] = field(default_factory=dict)
    colours: tuple[int, ...] = ()
    byes: int = 0


@dataclass(frozen=True)
class Pairing:
    """A round's pairing: ``pairs`` (White, Black) in board order, the ``bye`` (or ``None``), how many pairs
    meet again and how many players break the colour rule."""

    pairs: tuple[tuple[str, str], ...]
    bye: str | None
    repeats: int = 0
    colour_breaks: int = 0

    @property
    def note(self) -> str:
        """What the pairing had to give up, in plain sentences (empty when nothing)."""
        said = []
        if self.repeats:
            meet = "meets" if self.repeats == 1 else "meet"
            said.append(f"{plural(self.repeats, 'pair')} {meet} again: no pairing could avoid it.")
        if self.colour_breaks:
            said.append(
                f"{plural(self.colour_breaks, 'player')} get{'s' if self.colour_breaks == 1 else ''} a colour"
                " out of turn (a third in a row or three more of one colour): no pairing could avoid it."
            )
        return " ".join(said)


def wish(colours: Sequence[int]) -> tuple[int, int]:
    """The colour a player wants next and how much (``MUST`` ... ``NO_WISH``), from his played colours."""
    if not colours:
        return 0, NO_WISH
    balance = sum(colours)
    if balance >= 2:
        return BLACK, MUST
    if balance <= -2:
        return WHITE, MUST
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return -colours[-1], MUST
    if balance:
        return -balance, STRONG
    return -colours[-1], MILD


def breaks(colours: Sequence[int], colour: int) -> bool:
    """Whether giving ``colour`` next breaks the colour rule: a third in a row, or three ahead of one colour."""
    after = [*colours, colour]
    return abs(sum(after)) > 2 or (len(after) >= 3 and after[-1] == after[-2] == after[-3])


def colours_for(high: Contender, low: Contender, board: int) -> tuple[str, str]:
    """(White, Black) of a pair, ``high`` ranked above ``low``, on ``board`` (see the module docstring)."""
    (want_h, how_h), (want_l, how_l) = wish(high.colours), wish(low.colours)
    if want_h != want_l:
        white_high = want_h == WHITE if want_h else want_l == BLACK
    elif not want_h:
        white_high = board % 2 == 1
    elif how_h != how_l:
        white_high = (want_h == WHITE) == (how_h > how_l)
    else:
        latest = _latest_difference(high.colours, low.colours)
        white_high = latest == BLACK if latest else want_h == WHITE
    return (high.id, low.id) if white_high else (low.id, high.id)


def _latest_difference(mine: Sequence[int], theirs: Sequence[int]) -> int:
    """My colour in the latest round (counted back from now) where ours differed, or 0."""
    for a, b in zip(reversed(mine), reversed(theirs), strict=False):
        if a != b:
            return a
    return 0


def pair(players: Sequence[Contender]) -> Pairing:
    """The next round's pairing of ``players`` (those still in: no one who withdrew)."""
    ranked = sorted(players, key=lambda p: (-p.points, p.seed))
    field_ = _Field(ranked)
    for level in (0, 1):
        chosen = field_.attempt(level, budget=0)
        if chosen is not None:
            return field_.result(chosen, repeats=0)
    least = field_.fewest_repeats()
    for budget in range(least, len(ranked) // 2 + 1):
        chosen = field_.attempt(2, budget)
        if chosen is not None:
            return field_.result(chosen, repeats=budget)
    raise AssertionError("a pairing with repeats always exists")  # every pair may meet again at level 2


class _Field:
    """The ranked players as indices (0 = top), with what each level of the rules allows."""

    def __init__(self, ranked: list[Contender]) -> None:
        self.ranked = ranked
        index = {p.id: i for i, p in enumerate(ranked)}
        self.met = [{index[o]: n for o, n in p.met.items() if o in index and n} for p in ranked]
        self.must = [w if how == MUST else 0 for w, how in (wish(p.colours) for p in ranked)]
        #: each player's score group, named by the index of its first (top) player
        self.group = [i if i == 0 or p.points != ranked[i - 1].points else 0 for i, p in enumerate(ranked)]
        for i in range(1, len(ranked)):
            if ranked[i].points == ranked[i - 1].points:
                self.group[i] = self.group[i - 1]
        fewest = min((p.byes for p in ranked), default=0)
        #: who may have the bye, best first: the lowest-ranked of those with the fewest byes
        self.bye_order = [i for i in reversed(range(len(ranked))) if ranked[i].byes == fewest]

    def new(self, a: int, b: int) -> bool:
        """Rule 2: these two have not met."""
        return b not in self.met[a]

    def keeps_colours(self, a: int, b: int) -> bool:
        """Rules 2 and 3: not met, and not both bound to the same colour."""
        return b not in self.met[a] and (not self.must[a] or self.must[a] != self.must[b])

    def colours_can_hold(self) -> bool:
        """A quick necessary condition for rule 3: players who must have the same colour cannot meet each other,
        so they cannot be more than half the field (one more with a bye)."""
        half = (len(self.ranked) + 1) // 2
        return self.must.count(WHITE) <= half and self.must.count(BLACK) <= half

    def passes(self, level: int) -> list[Callable[[int, int], bool]]:
        """The kinds of opponent a board tries, in turn, at this level: level 0 keeps every rule, level 1 gives up
        colours only when it must, level 2 allows repeats when it must."""
        kept = [self.keeps_colours]
        if level >= 1:
            kept.append(lambda a, b: self.new(a, b) and not self.keeps_colours(a, b))
        if level >= 2:
            kept.append(lambda a, b: not self.new(a, b))
        return kept

    def fewest_repeats(self) -> int:
        """The fewest repeats any pairing has: the players a maximum matching of new pairs leaves over, halved
        (with the bye, one fewer)."""
        matching = self._matching(self.new)
        return max(0, (matching.free - len(self.ranked) % 2) // 2)

    def _matching(self, graph: Callable[[int, int], bool]) -> Matching:
        """A maximum matching of ``graph``, started greedily in the order the boards will be chosen (so the board
        pass mostly finds its choice already matched)."""
        matching = Matching(len(self.ranked), graph)
        walk = _Walk(self)
        while (top := walk.head()) != END:
            partner = next((q for q in walk.candidates(top) if graph(top, q)), END)
            walk.remove(top)
            if partner != END:
                walk.remove(partner)
                matching.pair(top, partner)
        matching.maximise()
        return matching

    def attempt(self, level: int, budget: int) -> list[tuple[int, int | None]] | None:
        """The pairing at ``level`` with at most ``budget`` repeats, or ``None`` when there is none: pairs of
        indices in board order, the bye last as ``(player, None)``."""
        if level == 0 and not self.colours_can_hold():
            return None
        matching = self._matching(self.keeps_colours if level == 0 else self.new)
        spare = 2 * budget
        bye = None
        if len(self.ranked) % 2:
            bye = next((b for b in self.bye_order if matching.take((b,), spare)), None)
            if bye is None:
                return None
        elif matching.free > spare:
            return None
        return self._boards(matching, self.passes(level), budget, bye)

    def _boards(
        self, matching: Matching, passes: list[Callable[[int, int], bool]], budget: int, bye: int | None
    ) -> list[tuple[int, int | None]]:
        """Each board, top first, takes its first candidate that the matching says leaves the rest pairable."""
        walk = _Walk(self)
        if bye is not None:
            walk.remove(bye)
        chosen: list[tuple[int, int | None]] = []
        while (top := walk.head()) != END:
            partner = END
            for kind in passes:
                for q in walk.candidates(top):
                    if not kind(top, q):
                        continue
                    repeat = not self.new(top, q)
                    if repeat and budget == 0:
                        continue
                    if matching.take((top, q), 2 * (budget - repeat)):
                        partner, budget = q, budget - repeat
                        break
                if partner != END:
                    break
            assert partner != END, "the matching promised a partner"
            walk.remove(top)
            walk.remove(partner)
            chosen.append((top, partner))
        if bye is not None:
            chosen.append((bye, None))
        return chosen

    def result(self, chosen: list[tuple[int, int | None]], repeats: int) -> Pairing:
        """The pairing in players' ids, with colours, and what it gave up."""
        pairs, bye, colour_breaks = [], None, 0
        for board, (a, b) in enumerate(chosen, start=1):
            if b is None:
                bye = self.ranked[a].id
                continue
            high, low = self.ranked[a], self.ranked[b]
            white, black = colours_for(high, low, board)
            pairs.append((white, black))
            colour_breaks += breaks(high.colours, WHITE if white == high.id else BLACK)
            colour_breaks += breaks(low.colours, WHITE if white == low.id else BLACK)
        return Pairing(tuple(pairs), bye, repeats, colour_breaks)


class _Walk:
    """The players still to pair as a linked list in rank order, and each one's candidates in the Dutch order."""

    def __init__(self, field_: _Field) -> None:
        n = len(field_.ranked)
        self.group = field_.group
        self.next = [*range(1, n), END]
        self.prev = [END, *range(n - 1)]
        self.first = 0 if n else END

    def head(self) -> int:
        return self.first

    def remove(self, i: int) -> None:
        before, after = self.prev[i], self.next[i]
        if before == END:
            self.first = after
        else:
            self.next[before] = after
        if after != END:
            self.prev[after] = before

    def candidates(self, top: int) -> Iterator[int]:
        """``top``'s opponents in order of preference (the module docstring's order)."""
        group, nxt = self.group, self.next
        bracket = [top]
        i = nxt[top]
        while i != END and group[i] == group[top]:
            bracket.append(i)
            i = nxt[i]
        if len(bracket) == 1:  # alone in his group: floats down to the top of the next one
            yield from self._rest(i)
            return
        half = len(bracket) // 2
        yield from bracket[half:]
        yield from reversed(bracket[1:half])
        yield from self._rest(i)

    def _rest(self, i: int) -> Iterator[int]:
        while i != END:
            yield i
            i = self.next[i]
