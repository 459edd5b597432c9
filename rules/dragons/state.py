"""The Dragons game state: placements, the auto-move cascade, gap moves owed, the win test and the tiebreaks.

Empty cells next to the picture are kept in ``frontier`` with two 6-bit masks (closed sides, and which of those
are X), so classifying a gap is two table look-ups (:mod:`rules.dragons.tiles`). A move places one tile, then
fills every auto gap one at a time in screen order, re-classifying the touched cells after each (rules-notes D3),
and only then runs the win test on the dragons the move touched (D4).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.base import (
    Event,
    GameState,
    IllegalMoveError,
    LegalMoves,
    MoveSyntaxError,
    Outcome,
    Resign,
    StateFormatError,
)
from rules.dragons import options as opts
from rules.dragons.graph import Bands, Dragon, Measures, RegionGraph, cell_code
from rules.dragons.tiles import (
    ALIASES,
    AUTO,
    COLOUR_NAMES,
    DEAD,
    DIRECTIONS,
    EDGE_COLOURS,
    EDGE_NAMES,
    FITS,
    FREE,
    GAP,
    KIND,
    LETTERS,
    POPCOUNT,
    Cell,
    describe,
    screen_key,
)

CENTRE: Cell = (0, 0)
START_SHOULDER, START_TAIL = LETTERS.index("a"), LETTERS.index("g")
_MOVE = re.compile(r"([a-z])\s*(?:@\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)|([0-9]+))")  # ASCII digits, like game numbers
#: minimum loop length (tiles) of each loop goal; loop_closed asks for more than one round eye of 3 tiles
LOOP_GOALS = {"loop": 6, "long_loop": 5, "loop_closed": 4}
#: per placement, for each edge: the step to the neighbour, the bit of the side it closes there, and that bit again
#: when the edge is X (else 0): what :meth:`DragonsState._set` adds to a neighbour's two masks
_SIDES = tuple(
    tuple(
        (dq, dr, 1 << ((edge + 3) % 6), (1 << ((edge + 3) % 6)) if EDGE_COLOURS[p][edge] else 0)
        for edge, (dq, dr) in enumerate(DIRECTIONS)
    )
    for p in range(len(LETTERS))
)


class _ScreenKeys(dict):
    """cell -> an integer that sorts as :func:`screen_key` does, filled on first use: sorting by a dict look-up
    of an integer is cheaper than by a call that makes a tuple."""

    def __missing__(self, cell: Cell) -> int:
        row, column = screen_key(cell)
        key = self[cell] = (row << 16) + column + (1 << 15)
        return key


_SCREEN = _ScreenKeys().__getitem__


@dataclass(frozen=True)
class Place:
    """Put the tile with orientation ``letter`` at cell (q, r); ``str`` is the absolute form the log stores."""

    letter: str
    q: int
    r: int

    @property
    def cell(self) -> Cell:
        return (self.q, self.r)

    @property
    def placement(self) -> int:
        return LETTERS.index(self.letter)

    def __str__(self) -> str:
        return f"{self.letter}@{self.q},{self.r}"


def _cell_text(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def _or_list(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def history_moves(text: str, events: Sequence[Mapping[str, Any]]) -> tuple[str, list[str]]:
    """What the history shows for a logged Dragons action: the placement in the fixed form ``d@q,r``, which stays
    true on every later board, and the auto moves of its chain in the order they were made, each to be listed on
    a line of its own. Logs written before pbm logged the fixed form hold the turn's position number (``d3``);
    the placement's event names its cell, so those read the same. An action without a placement (a resignation)
    shows its text."""
    shown, autos = text, []
    for event in events:
        data = event.get("data")
        try:
            fixed = f"{data['letter']}@{int(data['cell'][0])},{int(data['cell'][1])}"  # type: ignore[index]
        except (KeyError, IndexError, TypeError, ValueError):
            continue  # an event without a placement (the win, a gap owed)
        if event.get("kind") == "place":
            shown = fixed
        elif event.get("kind") == "auto":
            autos.append(fixed)
    return shown, autos


def tantrix_score(dragon: Dragon) -> int:
    """Tantrix scoring: one point per hole, doubled when the dragon has no open end (rules-notes D8)."""
    return dragon.holes * (2 if dragon.closed else 1)


class DragonsState(GameState):
    """A Dragons game between O (seat 0, moves first) and X (seat 1)."""

    def __init__(self, options: Mapping[str, Any], players: Sequence[str], seed: int) -> None:
        super().__init__(options, players, seed)
        self._reset()
        if self.options.get("start_joint"):
            self._set(CENTRE, START_SHOULDER, "start")
        elif self.options.get("start_tip"):
            self._set(CENTRE, START_TAIL, "start")
        if self.tiles:
            self.bands.add(cell_code(CENTRE), self.tiles[CENTRE])

    def _reset(self) -> None:
        self.crossed = not self.options.get("tails")
        self.must_complete = not self.options.get("may_complete")
        self.goal = opts.goal(self.options)
        self.num_eyes = int(self.options.get("num_eyes") or 1)
        #: with a loop goal and one eye needed, the win test reads the move's cycles alone (:meth:`_judge_cycles`)
        self._cycles_only = self.goal in LOOP_GOALS and self.num_eyes <= 1
        self.remaining = int(self.options.get("num_tiles") or opts.DEFAULT_TILES)
        self.tiles: dict[Cell, int] = {}
        #: every tile in placement order: (cell, placement, source) with source "start", "move" or "auto"
        self.history: list[tuple[Cell, int, str]] = []
        #: empty cells touching the picture -> [closed sides mask, X-coloured closed sides mask]
        self.frontier: dict[Cell, list[int]] = {}
        #: tail gaps (three closed sides, only a tail fits) waiting to be filled
        self.gaps: set[Cell] = set()
        self.turn = 0
        #: the last move for the renderer: seat, placed cell and letter, and its auto placements in order
        self.last: dict[str, Any] | None = None
        #: loops the last win test found: (colour, cells in loop order, whether it won)
        self.loops: list[tuple[int, list[Cell], bool]] = []
        #: this turn's numbered positions and the placements allowed at each (cached until the board changes)
        self._choices: dict[Cell, tuple[int, ...]] | None = None
        #: the bands joined so far, to tell whether a move closed a cycle (see :meth:`_judge_loops`)
        self.bands = Bands(self.crossed)

    def clone(self) -> DragonsState:
        """An independent copy, field by field: the search copies a position for every playout and for each move
        its root screen tries, and ``deepcopy`` took a third of a millisecond. What a move replaces whole and
        never changes in place (the last move's record, the loops found, the cached choices) is shared; every
        other container is copied."""
        new = self._clone_base()
        new.tiles = dict(self.tiles)
        new.history = list(self.history)
        new.frontier = {cell: list(sides) for cell, sides in self.frontier.items()}
        new.gaps = set(self.gaps)
        new.bands = self.bands.clone()
        return new

    # ---- board bookkeeping ---------------------------------------------------------------------------------

    def _set(self, cell: Cell, placement: int, source: str) -> list[Cell]:
        """Put a tile down and close the matching side of each empty neighbour. Returns the neighbours that were
        next to the picture already, in edge order: the only cells whose class can change (a cell new to the
        frontier has one closed side, so it is free, and it is neither a gap nor waiting for an auto move)."""
        tiles, frontier = self.tiles, self.frontier
        tiles[cell] = placement
        self.history.append((cell, placement, source))
        self.remaining -= 1
        frontier.pop(cell, None)
        self.gaps.discard(cell)
        self._choices = None
        q, r = cell
        touched = []
        for dq, dr, bit, x_bit in _SIDES[placement]:
            other = (q + dq, r + dr)
            if other in tiles:
                continue
            sides = frontier.get(other)
            if sides is None:
                frontier[other] = [bit, x_bit]
            else:
                sides[0] |= bit
                sides[1] |= x_bit
                touched.append(other)
        return touched

    def kind(self, cell: Cell) -> str:
        """free, auto, gap or dead, for an empty cell next to the picture (rules-notes D3)."""
        closed, colours = self.frontier[cell]
        return KIND[closed][colours]

    def fits(self, cell: Cell) -> tuple[int, ...]:
        """The placements whose edges match every closed side of an empty cell."""
        closed, colours = self.frontier[cell]
        return FITS[closed][colours & closed]

    def closed_sides(self, cell: Cell) -> int:
        return bin(self.frontier[cell][0]).count("1") if cell in self.frontier else 0

    def _neighbours_in_frontier(self, cell: Cell) -> Iterator[Cell]:
        q, r = cell
        for dq, dr in DIRECTIONS:
            other = (q + dq, r + dr)
            if other in self.frontier:
                yield other

    def _cascade(self, touched: list[Cell]) -> list[tuple[Cell, int]]:
        """Fill auto gaps until none is left or the pool is empty, one at a time in screen order, and keep the
        set of tail gaps in step. Only the neighbours of a new tile can change class, and of those only the ones
        that were next to the picture before it (``touched``, as :meth:`_set` gives them)."""
        autos: list[tuple[Cell, int]] = []
        waiting: set[Cell] = set()
        frontier, gaps = self.frontier, self.gaps
        while True:
            for other in touched:
                closed, colours = frontier[other]
                kind = KIND[closed][colours]
                if kind == FREE:  # the usual case: neither waiting nor a gap (sets read before a call)
                    if other in waiting:
                        waiting.discard(other)
                    if other in gaps:
                        gaps.discard(other)
                elif kind == AUTO:
                    waiting.add(other)
                    gaps.discard(other)
                elif kind == GAP:
                    waiting.discard(other)
                    gaps.add(other)
                else:
                    waiting.discard(other)
                    gaps.discard(other)
            if not waiting or self.remaining <= 0:
                return autos
            target = min(waiting, key=_SCREEN)
            waiting.discard(target)
            closed, colours = frontier[target]
            placement = FITS[closed][colours & closed][0]
            touched = self._set(target, placement, "auto")
            autos.append((target, placement))

    # ---- turn and positions --------------------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return None if self._outcome is not None else self.turn

    @property
    def gap_owed(self) -> bool:
        return self.must_complete and bool(self.gaps)

    def positions(self) -> list[Cell]:
        """The numbered open positions of this turn: the owed gaps when a gap move is due, else every empty cell
        next to the picture where some tile may go; the centre before the first tile. Screen order (D5)."""
        return list(self.choices())

    def choices(self) -> dict[Cell, tuple[int, ...]]:
        """Open positions in screen order, each with the placements allowed there."""
        if self._choices is None:
            if not self.tiles:
                found = {CENTRE: tuple(range(8))}
            elif self.gap_owed:
                found = {cell: self.fits(cell) for cell in self.gaps}
            elif self.must_complete:  # nothing can over-close a gap: what fits is allowed
                found = {cell: FITS[closed][colours & closed] for cell, (closed, colours) in self.frontier.items()}
            else:
                found = {cell: self._allowed(cell) for cell in self.frontier}
            self._choices = {cell: found[cell] for cell in sorted(found, key=_SCREEN) if found[cell]}
        return self._choices

    def _allowed(self, cell: Cell) -> tuple[int, ...]:
        """The placements that may go at a free cell: those that fit and do not over-close a gap."""
        return tuple(p for p in self.fits(cell) if self._overclosed(cell, p) is None)

    def _overclosed(self, cell: Cell, placement: int) -> Cell | None:
        """With -may_complete tail gaps can stay open; a move (with its auto moves) that would give any empty
        cell a fourth closed side is refused, so the rules' "never more than three closed sides" still holds.
        Returns that cell, or ``None``. With -must_complete gaps are filled at once and this never bites."""
        if self.must_complete:
            return None
        colours = EDGE_COLOURS[placement]
        q, r = cell
        cascades = False
        for edge, (dq, dr) in enumerate(DIRECTIONS):
            other = (q + dq, r + dr)
            sides = self.frontier.get(other)
            if sides is None:
                continue
            bit = 1 << ((edge + 3) % 6)
            closed = sides[0] | bit
            if POPCOUNT[closed] >= 4:
                return other
            cascades = cascades or KIND[closed][sides[1] | (bit if colours[edge] else 0)] == AUTO
        if not cascades:
            return None
        trial = copy.copy(self)
        trial.tiles = dict(self.tiles)
        trial.history = list(self.history)
        trial.frontier = {other: list(sides) for other, sides in self.frontier.items()}
        trial.gaps = set(self.gaps)
        trial._cascade(trial._set(cell, placement, "move"))
        return next((other for other in trial.frontier if trial.closed_sides(other) >= 4), None)

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self._generate, self._contains)

    def _generate(self) -> Iterator[Place]:
        if self._outcome is not None:
            return
        for cell, placements in self.choices().items():
            for placement in placements:
                yield Place(LETTERS[placement], cell[0], cell[1])

    def random_move(self, rng: Any) -> Place:
        """A uniformly random legal move of the player to move, for playouts and search: the same distribution
        as ``rng.choice(list(state.legal_moves))``, drawn from the open positions' allowed tiles without building
        the move list. ``rng`` is a ``random.Random`` or a :class:`rules.rng.Rng` (anything with ``randrange``)."""
        if self._outcome is None:
            if self._choices is None and self.must_complete and self.tiles and not self.gaps:
                # the usual case, without building :meth:`choices`: every frontier cell offers what fits there
                frontier = self.frontier
                cells = sorted(frontier, key=_SCREEN)
                offered = [FITS[closed][colours & closed] for closed, colours in map(frontier.__getitem__, cells)]
                pick = rng.randrange(sum(map(len, offered)) or 1)
                for cell, placements in zip(cells, offered, strict=True):
                    if pick < len(placements):
                        return Place(LETTERS[placements[pick]], cell[0], cell[1])
                    pick -= len(placements)
            else:
                choices = self.choices()
                pick = rng.randrange(sum(map(len, choices.values())) or 1)
                for cell, placements in choices.items():
                    if pick < len(placements):
                        return Place(LETTERS[placements[pick]], cell[0], cell[1])
                    pick -= len(placements)
        raise IllegalMoveError("", "there is no legal move: the game is over")

    def _contains(self, move: object) -> bool:
        return (
            isinstance(move, Place)
            and move.letter in LETTERS
            and self._outcome is None
            and self._refusal(move.cell, move.placement) is None
        )

    def _refusal(self, cell: Cell, placement: int) -> str | None:
        """Why ``placement`` may not go at ``cell`` now, in words for the player; ``None`` when it may."""
        if cell in self.tiles:
            return f"{_cell_text(cell)} already holds a tile"
        if not self.tiles:
            return None if cell == CENTRE else "the first tile goes in the centre, 0,0 (position 1)"
        if cell not in self.frontier:
            return f"{_cell_text(cell)} is not adjacent to any tile"
        if self.gap_owed and cell not in self.gaps:
            numbers = [str(i + 1) for i in range(len(self.positions()))]
            return f"a gap move is owed at {_or_list(numbers)}: fill a gap before playing elsewhere"
        if self.kind(cell) == DEAD:
            return f"{_cell_text(cell)} is a dead gap: no tile can ever match its sides"
        if placement not in self.fits(cell):
            return self._mismatch(cell, placement)
        over = self._overclosed(cell, placement)
        if over is not None:
            return f"this tile, with its auto moves, would close a fourth side of the gap at {_cell_text(over)}"
        return None

    def _mismatch(self, cell: Cell, placement: int) -> str:
        closed, colours = self.frontier[cell]
        edge = next(e for e in range(6) if closed >> e & 1 and (colours >> e & 1) != EDGE_COLOURS[placement][e])
        mine = COLOUR_NAMES[EDGE_COLOURS[placement][edge]]
        theirs = COLOUR_NAMES[colours >> edge & 1]
        fitting = ", ".join(LETTERS[p] for p in self.fits(cell))
        return (
            f"edges do not match: {LETTERS[placement]}'s {EDGE_NAMES[edge]} edge is {mine} but it meets {theirs} "
            f"there (tiles that fit: {fitting})"
        )

    def parse_move(self, text: str, player: int | None = None) -> Place:
        if self.remaining <= 0:
            raise IllegalMoveError(text, "no tiles left: the pool is empty")
        self.check_turn(player)
        match = _MOVE.fullmatch(text.strip().lower())
        if match is None:
            raise MoveSyntaxError(text, "write a tile letter and a position number", "like d3, or d@q,r")
        letter = ALIASES.get(match.group(1), match.group(1))
        if letter not in LETTERS:
            raise MoveSyntaxError(text, f"unknown tile letter {match.group(1)!r}: the letters are a-h (see the legend)")
        if match.group(4) is not None:
            cell = self._numbered(text, int(match.group(4)))
        else:
            cell = (int(match.group(2)), int(match.group(3)))
        reason = self._refusal(cell, LETTERS.index(letter))
        if reason is not None:
            raise IllegalMoveError(text, reason)
        return Place(letter, cell[0], cell[1])

    def move_text(self, move: Any) -> str:
        """A placement as the board shows it this turn: tile letter and position number (``d3``); the absolute
        ``d@q,r`` only for a cell that has no number now."""
        if isinstance(move, Place) and self._outcome is None:
            number = self._numbers().get(move.cell)
            if number is not None:
                return f"{move.letter}{number}"
        return str(move)

    def log_text(self, move: Any) -> str:
        """The fixed form ``d@q,r`` (rules-notes D5): a position number names a cell of this turn's board only,
        so a log of numbers could not be read without replaying the game."""
        return str(move)

    def _numbers(self) -> dict[Cell, int]:
        """Open position -> its number on this turn's board."""
        return {cell: number for number, cell in enumerate(self.choices(), 1)}

    def _numbered(self, text: str, number: int) -> Cell:
        cells = self.positions()
        if not 1 <= number <= len(cells):
            owed = "a gap move is owed, and only the gaps are numbered: " if self.gap_owed else ""
            span = "1" if len(cells) == 1 else f"1 to {len(cells)}"
            raise IllegalMoveError(text, f"there is no position {number}: {owed}the open positions are {span}")
        return cells[number - 1]

    def forced_move(self) -> Any | None:
        """:meth:`GameState.forced_move`, shorter on the playout path: no property, no extra call."""
        if self._outcome is not None:
            return None
        if self.turn in self.queued_resign:
            return Resign(self.turn)
        if self.must_complete and len(self.gaps) == 1:
            (cell,) = self.gaps
            return Place(LETTERS[self.fits(cell)[0]], cell[0], cell[1])
        return None

    def _forced_move(self) -> Place | None:
        """A single owed gap fits a single tail: that is the only legal move, so the server plays it."""
        if self.must_complete and len(self.gaps) == 1:
            (cell,) = self.gaps
            return Place(LETTERS[self.fits(cell)[0]], cell[0], cell[1])
        return None

    def _push(self, move: Place) -> list[Event]:
        seat = self.turn
        cell, placement, letter = (move.q, move.r), LETTERS.index(move.letter), move.letter
        autos = self._cascade(self._set(cell, placement, "move"))
        add = self.bands.add
        code = cell_code(cell)
        codes = [code]
        cycled = add(code, placement)
        for auto, auto_placement in autos:
            code = cell_code(auto)
            codes.append(code)
            cycled += add(code, auto_placement)
        self.last = {"seat": seat, "cell": cell, "placement": placement, "autos": autos}
        text = f"{self._name(seat)} placed {letter}@{cell[0]},{cell[1]}"
        events = [Event("place", text, seat, {"cell": [cell[0], cell[1]], "letter": letter})]
        for order, (auto, auto_placement) in enumerate(autos, 1):
            auto_letter = LETTERS[auto_placement]
            text = f"Auto move {order}: {auto_letter}@{auto[0]},{auto[1]}"
            data = {"cell": [auto[0], auto[1]], "letter": auto_letter, "order": order}
            events.append(Event("auto", text, seat, data))
        if self._cycles_only:  # :meth:`_judge` in short
            self.loops = []
            outcome = self._judge_cycles(codes, cycled) if cycled else None
        else:
            outcome = self._judge([cell, *(auto for auto, _ in autos)], codes, cycled)
        if outcome is None and self.remaining <= 0:
            outcome = self._final()
        if outcome is not None:
            self._finish(outcome)
            kind = "draw" if outcome.draw else "win"
            events.append(Event(kind, outcome.reason, outcome.winners[0] if outcome.winners else None))
            return events
        self.turn = 1 - seat
        if self.gap_owed:
            cells = " and ".join(_cell_text(cell) for cell in sorted(self.gaps, key=screen_key))
            events.append(Event("gap", f"{self._name(self.turn)} owes a gap move at {cells}", self.turn))
        return events

    def _name(self, seat: int) -> str:
        return f"{COLOUR_NAMES[seat]} ({self.players[seat]})"

    # ---- winning -------------------------------------------------------------------------------------------

    def _best_complete(self, dragons: Iterable[Measures], value: int) -> list[int]:
        """Per colour, the largest ``value`` (a field of :data:`Measures`: 1 size, 2 holes) of its completed
        dragons, -1 for none. A completed dragon is a closed one (no open ends) with enough holes (rules-notes
        D9)."""
        best = [-1, -1]
        need = self.num_eyes
        for measures in dragons:
            colour, _, holes, open_ends = measures
            if not open_ends and holes >= need and measures[value] > best[colour]:
                best[colour] = measures[value]
        return best

    def _judge(self, cells: list[Cell], codes: list[int], cycled: list[int]) -> Outcome | None:
        """The win test after a whole move, on the dragons that move touched (the others did not change).
        ``codes`` are the cells' integer codes and ``cycled`` the move's bands (node codes) that closed a cycle:
        with one eye needed only loops the move made count, and those lie in the dragons of these bands, so the
        loop search looks at those dragons alone (none: no search). The dragons come in the same order either
        way, so the loops found are the same. The goals that read closed dragons read the measures the bands
        keep of the dragons on the move's cells (:meth:`Bands.dragons_of`): no walk."""
        self.loops = []
        if self.goal in opts.SCORED_GOALS:
            return None
        if self._cycles_only:
            return self._judge_cycles(codes, cycled) if cycled else None
        if self.goal in LOOP_GOALS:
            graph = RegionGraph(self.tiles, self.crossed)
            return self._judge_loops(graph, graph.dragons_through(cells), cells)
        best = self._best_complete(self.bands.dragons_of(codes), 2)
        if self.goal == "end_single":
            if (best[0] >= 0) == (best[1] >= 0):
                return None
            seat = 0 if best[0] >= 0 else 1
            return Outcome((seat,), f"{self._name(seat)} closed a dragon and the opponent did not")
        if self.goal == "end_most":
            return self._judge_most(best)
        return self._compare(best, "a closed dragon with {} holes", "closed dragons with {} holes each")

    def _judge_cycles(self, codes: list[int], cycled: list[int]) -> Outcome | None:
        """:meth:`_judge_loops` with one eye needed, on the integer bands (:meth:`Bands.loops`): the same
        dragons in the same order, the same loops, the same outcome."""
        need = LOOP_GOALS[self.goal]
        best: list[list[Cell]] = [[], []]
        found: list[tuple[int, list[Cell]]] = []
        for colour, loop in self.bands.loops(codes, cycled, self.goal == "loop_closed"):
            if loop:
                found.append((colour, loop))
                if len(loop) >= need and len(loop) > len(best[colour]):
                    best[colour] = loop
        if not found:
            return None
        self.loops = [(colour, loop, loop is best[colour]) for colour, loop in found]
        lengths = [len(loop) if loop else -1 for loop in best]
        return self._compare(lengths, "a loop through {} tiles", "loops through {} tiles each")

    def _judge_loops(self, graph: RegionGraph, dragons: list[Dragon], cells: list[Cell]) -> Outcome | None:
        """Only loops the move made can be new winners, so only blocks holding a new tile are searched; with
        -num_eyes above 1 an old long loop may start to count when its dragon gains a hole, so all are."""
        need = LOOP_GOALS[self.goal]
        through = set(cells) if self.num_eyes <= 1 else None
        best: list[list[Cell]] = [[], []]
        found: list[tuple[int, list[Cell]]] = []
        for dragon in dragons:
            if dragon.holes < 1 or (self.goal == "loop_closed" and not dragon.closed):
                continue
            loop = graph.longest_loop(dragon, through)
            if loop:
                found.append((dragon.colour, loop))
            wins = len(loop) >= need and dragon.holes >= self.num_eyes
            if wins and len(loop) > len(best[dragon.colour]):
                best[dragon.colour] = loop
        self.loops = [(colour, loop, loop is best[colour]) for colour, loop in found]
        lengths = [len(loop) if loop else -1 for loop in best]
        return self._compare(lengths, "a loop through {} tiles", "loops through {} tiles each")

    def _judge_most(self, best: list[int]) -> Outcome | None:
        """-end_most: a completed dragon with more holes than any enemy dragon, closed or not, wins."""
        for seat in (0, 1):
            if best[seat] < 0:
                continue
            enemy = max((holes for colour, _, holes, _ in self.bands.dragons() if colour != seat), default=0)
            if best[seat] > enemy:
                return Outcome(
                    (seat,), f"{self._name(seat)} closed a dragon with {best[seat]} holes, more than any enemy"
                )
        return None

    def _compare(self, values: list[int], one: str, both: str, lower_wins: bool = False) -> Outcome | None:
        """Who wins on per-seat values (-1 = nothing to show): the only one, else the higher, equal draws."""
        if max(values) < 0:
            return None
        if min(values) >= 0 and values[0] == values[1]:
            return Outcome((), "draw: both have " + both.format(values[0]))
        seat = values.index(max(values))
        shown = one.format(values[seat])
        if lower_wins:
            return Outcome((1 - seat,), f"{self._name(1 - seat)} wins: {self._name(seat)} has {shown}")
        return Outcome((seat,), f"{self._name(seat)} wins with {shown}")

    def _final(self) -> Outcome:
        """The end when the pool is empty and nobody has won: draw, or the scoring/tiebreak option decides. The
        dragons' measures are those the bands keep up to date (:meth:`Bands.dragons`), not a walk of the board;
        the default tie rule reads none."""
        if self.goal == "tantrix":
            scores = [0, 0]
            for colour, _, holes, open_ends in self.bands.dragons():
                score = holes if open_ends else 2 * holes
                if score > scores[colour]:
                    scores[colour] = score
            decided = self._compare(scores, "the best dragon, worth {} points", "best dragons worth {} points")
            outcome = decided or Outcome((), "draw: no dragon scored")
            return Outcome(outcome.winners, f"the tiles ran out; {outcome.reason}", tuple(float(s) for s in scores))
        if self.goal == "all_out_most_eyes":
            values = self._best_complete(self.bands.dragons(), 2)
            decided = self._compare(values, "a closed dragon with {} holes", "closed dragons with {} holes each")
        else:
            tie = opts.tiebreak(self.options)
            decided = None
            if tie != "tie_none":  # the default: an empty pool without a winner is a draw, nothing to score
                values = self._best_complete(self.bands.dragons(), 1)
                largest = "the largest closed dragon, of {} segments"
                equal = "closed dragons of {} segments"
                decided = self._compare(values, largest, equal, lower_wins=tie == "tie_largest_loses")
        reason = decided.reason if decided else "draw: nobody won"
        return Outcome(decided.winners if decided else (), f"the tiles ran out; {reason}")

    # ---- text ----------------------------------------------------------------------------------------------

    def text_board(self) -> str:
        """The hex map: columns are q, each row down is half a hex. ``a``-``h`` tiles (``*`` the last placed,
        ``+`` its auto moves), numbers the open positions (``!`` marks an owed gap); then the key facts."""
        lines = self._map_lines()
        lines.append("")
        lines.extend(self._facts())
        lines.append("Tiles (edge colours N NE SE S SW NW):")
        for p, letter in enumerate(LETTERS):
            colours = "".join(COLOUR_NAMES[c] for c in EDGE_COLOURS[p])
            lines.append(f"  {letter} {colours}  {describe(p)}")
        return "\n".join(lines)

    def _map_lines(self) -> list[str]:
        marks: dict[Cell, str] = {cell: f" {LETTERS[p]}" for cell, p in self.tiles.items()}
        if self.last is not None:
            marks[self.last["cell"]] = "*" + LETTERS[self.last["placement"]]
            for cell, placement in self.last["autos"]:
                marks[cell] = "+" + LETTERS[placement]
        for number, cell in enumerate(self.positions() if self._outcome is None else [], 1):
            marks[cell] = ("!" if cell in self.gaps and self.gap_owed else "") + str(number)
        if not marks:
            return ["No tile was placed."]  # a game declined or resigned before its first tile
        qs = [q for q, _ in marks]
        rows = [screen_key(cell)[0] for cell in marks]
        q0, row0 = min(qs), min(rows)
        width = 3 * (max(qs) - q0 + 1)
        grid = [[" "] * width for _ in range(max(rows) - row0 + 1)]
        for cell, mark in marks.items():
            row, col = screen_key(cell)[0] - row0, 3 * (cell[0] - q0)
            grid[row][col : col + 3] = list(mark.rjust(3)[-3:])
        header = "".join(str(q).rjust(3) for q in range(q0, q0 + width // 3)) + "   <- q (r grows down a column)"
        return [header, *("".join(row).rstrip() for row in grid)]

    def _facts(self) -> list[str]:
        lines = [f"Tiles left: {self.remaining}"]
        if self.last is not None:
            cell, letter = self.last["cell"], LETTERS[self.last["placement"]]
            autos = ", ".join(f"{LETTERS[p]}@{_cell_text(c)}" for c, p in self.last["autos"])
            lines.append(f"Last move: {self._name(self.last['seat'])} {letter}@{_cell_text(cell)}")
            if autos:
                lines.append(f"Auto moves, in order: {autos}")
        for colour, loop, won in self.loops:
            kind = "winning loop" if won else "loop"
            lines.append(f"{COLOUR_NAMES[colour]} {kind} through {len(loop)} tiles")
        if self._outcome is not None:
            lines.append(f"Game over: {self._outcome.reason}")
            return lines
        if self.gaps:
            owed = "owed" if self.must_complete else "open"
            cells = ", ".join(_cell_text(c) for c in sorted(self.gaps, key=screen_key))
            lines.append(f"Gaps {owed} (only a tail fits): {cells}")
        lines.append(f"To move: {self._name(self.turn)}")
        return lines

    # ---- JSON ----------------------------------------------------------------------------------------------

    def _dump(self) -> dict[str, Any]:
        last = None
        if self.last is not None:
            last = {
                "seat": self.last["seat"],
                "cell": list(self.last["cell"]),
                "placement": self.last["placement"],
                "autos": [[c[0], c[1], p] for c, p in self.last["autos"]],
            }
        return {
            "tiles": [[c[0], c[1], LETTERS[p], source] for c, p, source in self.history],
            "remaining": self.remaining,
            "turn": self.turn,
            "last": last,
            "loops": [[colour, [list(c) for c in loop], won] for colour, loop, won in self.loops],
        }

    def _load(self, data: Mapping[str, Any]) -> None:
        self._reset()
        for q, r, letter, source in data["tiles"]:
            cell, placement = (int(q), int(r)), LETTERS.index(letter)
            if source not in ("start", "move", "auto"):
                raise StateFormatError(f"unknown tile source {source!r}")
            if self.tiles and self._refusal_on_load(cell, placement):
                raise StateFormatError(f"tile {letter}@{q},{r} does not fit the board")
            self._set(cell, placement, source)
            self.bands.add(cell_code(cell), placement)
        self.gaps = {cell for cell in self.frontier if self.kind(cell) == GAP}
        if int(data["remaining"]) != self.remaining:
            raise StateFormatError(f"pool count {data['remaining']} does not match the {len(self.tiles)} tiles placed")
        self.turn = int(data["turn"])
        if self.turn not in (0, 1):
            raise StateFormatError(f"bad turn {self.turn}")
        raw = data["last"]
        if raw is not None:
            autos = [((int(q), int(r)), int(p)) for q, r, p in raw["autos"]]
            cell = (int(raw["cell"][0]), int(raw["cell"][1]))
            if any(self.tiles.get(c) != p for c, p in [(cell, int(raw["placement"])), *autos]):
                raise StateFormatError("the last move does not match the board")
            self.last = {"seat": int(raw["seat"]), "cell": cell, "placement": int(raw["placement"]), "autos": autos}
        self.loops = [(int(c), [(int(q), int(r)) for q, r in loop], bool(won)) for c, loop, won in data["loops"]]
        for _, loop, _ in self.loops:
            steps = {(b[0] - a[0], b[1] - a[1]) for a, b in zip(loop, loop[1:] + loop[:1], strict=True)}
            if len(loop) < 3 or not set(loop) <= set(self.tiles) or not steps <= set(DIRECTIONS):
                raise StateFormatError("a recorded loop does not run through neighbouring tiles")

    def _refusal_on_load(self, cell: Cell, placement: int) -> bool:
        return cell in self.tiles or cell not in self.frontier or placement not in self.fits(cell)
