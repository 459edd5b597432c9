"""Drogo (Cameron Browne, 2006): Go played with stacks of cubes, for two to four players.

The board is an n x n grid whose cells hold stacks at most n high. A stack belongs to the owner of its top cube;
same-owner stacks side by side form groups; a group lives while one of its stacks touches an empty ground cell.
Rulings where the help file is silent follow ``rules-notes.md`` section 4 (DO-1..DO-5).

Positions are kept as bitboards (one Python int per player and per level) so that a whole placement, captures
included, is judged with a handful of integer operations: enumerating every one- and two-piece placement of a
mid-game 6x6 position has to stay within a few milliseconds.

The board's masks and position keys are in :mod:`.board`, the moves in :mod:`.moves` and the help texts in
:mod:`.texts`; this module holds the game. ``GAME`` is what the registry loads.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import reduce
from operator import getitem, xor
from typing import Any

from rules.base import (
    Event,
    GameDef,
    GameState,
    IllegalMoveError,
    LegalMoves,
    MoveSyntaxError,
    Option,
    OptionError,
    Outcome,
    StateFormatError,
)
from rules.drogo.board import COLOURS, MAX_SIZE, MIN_SIZE, bits, cell_name, cube_key, geometry, stack_keys
from rules.drogo.moves import Pass, Place
from rules.drogo.texts import HELP, NOTATION
from rules.memory import Memory, contains, pack, unpack
from rules.rng import Rng

_CELL = re.compile(r"([a-z])([0-9]{1,2})")  # ASCII digits only, like game numbers (not \d: c٣ is no cell)
#: a stack's text and its list of seats, one into the other (``xo`` <-> ``[0, 1]``), translated in C
_SEAT_OF_LETTER = bytes.maketrans(COLOURS.encode(), bytes(range(len(COLOURS))))
_LETTER_OF_SEAT = bytes.maketrans(bytes(range(len(COLOURS))), COLOURS.encode())
#: superko questions a restored state answers by searching its packed memory before it builds a set of it: a set
#: of thousands of hashes costs about as much as this many searches
_SEARCHES_BEFORE_SET = 16


def move_cap(size: int) -> int:
    """Placements after which a game ends and is scored as it stands (4 * size^3: 864 on 6x6)."""
    return 4 * size**3


@dataclass(frozen=True)
class _Verdict:
    """What a placement would do: ``reason`` it is refused (``None`` if legal), the stacks it captures and the
    hash of the position it leads to."""

    reason: str | None
    captured: int = 0
    new_hash: int = 0


# --------------------------------------------------------------------------------------------------------------
# The state


class DrogoState(GameState):
    """A Drogo position: stacks of seat numbers per cell, whose turn it is, and the positions seen so far.

    Format 2 keeps the positions seen out of the JSON snapshot: they are the state's :meth:`memory`, stored
    beside it, and :meth:`restore_memory` must be called after :meth:`from_json` for superko to see them.
    Format 1 snapshots, which carry them as ``seen``, still load with their memory.

    Ko is positional superko: the whole board (every cube of every stack, by colour and level) may not repeat;
    whose turn it is is not part of a position. A resigned player's stacks stay on the board in their colour:
    they still count as enemy stacks for everybody and can still be captured, but they never win.
    """

    FORMAT_VERSION = 2
    OLD_VERSIONS = (1,)

    def __init__(self, options: Mapping[str, Any], players: list[str] | tuple[str, ...], seed: int) -> None:
        super().__init__(options, players, seed)
        self.size: int = int(self.options["size"])
        self.stacks: list[list[int]] = [[] for _ in range(self.size * self.size)]
        self.turn = 0
        self.placements = 0
        #: placements after which the game ends as it stands (:func:`move_cap`); ``None`` lifts the cap, leaving
        #: superko alone to end the game, which it does, but only after astronomically many moves on big boards
        self.placement_limit: int | None = move_cap(self.size)
        self.passes = 0
        self.last: dict[str, Any] | None = None
        self._rebuild()
        self._remember_start()

    @classmethod
    def from_rows(
        cls, options: Mapping[str, Any], players: list[str], rows: list[str], turn: int = 0, placements: int = 1
    ) -> DrogoState:
        """A position set up from a picture (puzzles, tests, previews): ``rows`` top row first, one word per cell,
        ``.`` for an empty cell or the colour letters of its stack from the bottom up (``xxo``). Only this
        position counts as seen for superko."""
        state = cls(options, players, 0)
        n = state.size
        if len(rows) != n or any(len(row.split()) != n for row in rows):
            raise StateFormatError(f"a {n}x{n} position needs {n} rows of {n} cells")
        for row_index, row in enumerate(rows):
            for col, word in enumerate(row.split()):
                stack = [] if word == "." else [COLOURS.index(letter) for letter in word]
                state.stacks[(n - 1 - row_index) * n + col] = stack
        state.turn = turn
        state.placements = placements
        state._rebuild()
        state._remember_start()
        return state

    def clone(self) -> DrogoState:
        """An independent copy, field by field: a search clones thousands of positions, and ``deepcopy`` went
        through the superko set one hash at a time. The geometry (shared per board size), the judgements of
        this position (frozen) and the last move's record (replaced whole by every move, never changed in place)
        are shared; every other container is copied."""
        new = self._clone_base()
        new.stacks = [list(stack) for stack in self.stacks]
        new.own = list(self.own)
        new.levels = list(self.levels)
        new.cell_hash = list(self.cell_hash)
        new._groups = list(self._groups)
        new._verdicts = dict(self._verdicts)
        new._memory = bytearray(self._memory)
        new._seen = None if self._seen is None else set(self._seen)
        return new

    # ---- derived data ------------------------------------------------------------------------------------

    def _remember_start(self) -> None:
        """Superko memory: the position hashes seen, packed in the order they occurred (``_memory``, see
        :mod:`rules.memory`). They live outside the JSON snapshot (:meth:`memory`), which would otherwise grow
        with every move of the game."""
        self._memory = bytearray()
        #: the same hashes as a set, for membership once judging has asked often (see :meth:`_seen_before`);
        #: ``None`` until then, so that a state loaded to play one move never turns thousands of them into ints
        self._seen: set[int] | None = set()
        self._lookups = 0
        if self.superko:
            self._remember(self.hash)

    def _remember(self, value: int) -> None:
        self._memory += pack(value)
        if self._seen is not None:
            self._seen.add(value)

    def _seen_before(self, value: int) -> bool:
        """Whether superko forbids the position hashed ``value``. A state restored with a long memory answers
        its first questions with a byte search of the packed hashes (microseconds, the same for every move of
        a command); a state asked many times (a listing of every legal move, a computer player's search) builds
        the set once and answers from it."""
        if self._seen is None:
            self._lookups += 1
            if self._lookups <= _SEARCHES_BEFORE_SET:
                return contains(self._memory, value)
            self._seen = set(unpack(self._memory))
        return value in self._seen

    def memory(self) -> Memory:
        """The position hashes seen, oldest first (empty with ``-no_superko``): what superko judges against."""
        return Memory(self._memory)

    def restore_memory(self, values: Sequence[int]) -> None:
        """The positions seen before this snapshot, as :meth:`memory` gave them; superko needs them. A state
        loaded from JSON without them knows only its current position. Only what a damaged store could make
        wrong at once is checked here (values that are no 64-bit hashes; a memory without the current position);
        a memory that differs from the game's log in any other way is ``pbm check``'s to find, by replaying it."""
        try:
            memory = Memory.of(values)
        except ValueError:
            raise StateFormatError("the positions seen must be unsigned 64-bit numbers") from None
        if not self.superko:
            if memory:
                raise StateFormatError("a game without superko keeps no positions")
            return
        if not (memory and memory[-1] == self.hash) and self.hash not in memory:  # it is last unless format 1
            raise StateFormatError("the current position is missing from the positions seen")
        self._memory = bytearray(memory.data)
        self._seen = None
        self._lookups = 0
        self._verdicts = {}

    @property
    def superko(self) -> bool:
        return not self.options.get("no_superko")

    def _rebuild(self) -> None:
        """Recompute the bitboards and the hash from ``stacks`` (after a load or a new game): one pass over the
        cells, each stack's hash folded from its keys in C, and the level masks from the stack heights."""
        n = self.size
        self.geo = geometry(n)
        own = [0] * len(self.players)
        #: cells by stack height
        tops = [0] * (n + 1)
        cell_hash = [0] * (n * n)
        whole = 0
        keys = stack_keys(n)
        for cell, stack in enumerate(self.stacks):
            if stack:
                bit = 1 << cell
                tops[len(stack)] |= bit
                own[stack[-1]] |= bit
                value = reduce(xor, map(getitem, keys[cell], stack))
                cell_hash[cell] = value
                whole ^= value
        levels, above = [0] * n, 0
        for height in range(n, 0, -1):
            above |= tops[height]
            levels[height - 1] = above
        self.own, self.levels, self.cell_hash, self.hash = own, levels, cell_hash, whole
        #: the groups of this position found so far (each a mask of cells), for the judgements that follow
        self._groups: list[int] = []
        #: (seat, cells) -> verdict, for this position only: a move judged when listed or read is not judged again
        #: when pushed
        self._verdicts: dict[tuple[int, tuple[int, ...]], _Verdict] = {}
        #: the placements of the right shape with room in this position (see :meth:`_candidates`)
        self._listed: tuple[tuple[int, ...], ...] | None = None

    def height(self, col: int, row: int) -> int:
        return len(self.stacks[row * self.size + col])

    def owner(self, col: int, row: int) -> int | None:
        stack = self.stacks[row * self.size + col]
        return stack[-1] if stack else None

    def scores(self) -> tuple[int, ...]:
        """Per seat, the total height of the stacks it owns."""
        totals = [0] * len(self.players)
        for stack in self.stacks:
            if stack:
                totals[stack[-1]] += len(stack)
        return tuple(totals)

    def _group_of(self, bit: int) -> int:
        """The group (before any move) holding the stack at ``bit``, kept until the position changes. A board
        has few groups, so looking through those found is cheaper than filing every cell of a large one."""
        for group in self._groups:
            if group & bit:
                return group
        group = self.geo.flood(bit, self.own[self.stacks[bit.bit_length() - 1][-1]])
        self._groups.append(group)
        return group

    def _freedom(self, levels: list[int]) -> int:
        """Stacks that have freedom: next to an empty ground cell, or with ``-easy_free`` next to any lower
        stack (an empty point beside them at some level)."""
        adjacent = self.geo.adjacent
        full = self.geo.full
        free = levels[0] & adjacent(full & ~levels[0])
        if self.options.get("easy_free"):
            for level in levels[1:]:
                if not level:
                    break
                free |= level & adjacent(full & ~level)
        return free

    # ---- judging a placement -----------------------------------------------------------------------------

    def _pieces(self, cells: tuple[int, ...]) -> list[tuple[int, int]]:
        """(cell, level) of each piece of a placement given as cell indices."""
        height = len(self.stacks[cells[0]])
        if len(cells) == 2 and cells[0] == cells[1]:
            return [(cells[0], height), (cells[0], height + 1)]
        return [(cell, len(self.stacks[cell])) for cell in cells]

    def _verdict(self, seat: int, cells: tuple[int, ...]) -> _Verdict:
        """:meth:`_judge`, remembered until the position changes."""
        key = (seat, cells)
        verdict = self._verdicts.get(key)
        if verdict is None:
            verdict = self._verdicts[key] = self._judge(seat, cells)
        return verdict

    def _judge(self, seat: int, cells: tuple[int, ...]) -> _Verdict:
        """Would ``seat`` placing on ``cells`` (already checked for shape and room) be legal, and what would it
        capture? Captures take every other player's group left without freedom; the mover's group must then
        have freedom; the resulting position must be new (superko)."""
        geo = self.geo
        pieces = self._pieces(cells)
        placed = 0
        for cell, _ in pieces:
            placed |= 1 << cell
        around = geo.adjacent(placed) & ~placed
        own = self.own[seat]
        lands_on_enemy = any(self.stacks[cell] and self.stacks[cell][-1] != seat for cell in set(cells))
        if lands_on_enemy and not own & (placed | around):
            return _Verdict("you may build on an enemy stack only when the piece joins one of your groups")
        levels = list(self.levels)
        for cell, level in pieces:
            levels[level] |= 1 << cell
        free = self._freedom(levels)
        captured = 0
        for other, mask in enumerate(self.own):
            if other == seat:
                continue
            seeds = mask & around
            while seeds:
                bit = seeds & -seeds
                if bit & free:  # this stack breathes, so its whole group does: no need to find the group
                    seeds ^= bit
                    continue
                group = self._group_of(bit)
                if group & placed:
                    group = geo.flood(bit, mask & ~placed)
                seeds &= ~group
                if not group & free:
                    captured |= group
        # Captures only ever give freedom, so placed pieces that breathe already need no look at their group.
        if not placed & free:
            group = placed
            for cell in bits(own & (placed | around)):
                group |= self._group_of(1 << cell)
            if captured:
                if self.options.get("in_place"):
                    group = geo.flood(placed, own | placed | captured)
                else:
                    levels = [level & ~captured for level in levels]
                    free = self._freedom(levels)
            if not group & free:
                return _Verdict("your group would have no freedom (suicide)")
        new_hash = self._hash_after(seat, pieces, captured)
        if self.superko and self._seen_before(new_hash):
            return _Verdict("it would repeat an earlier board position (superko)")
        return _Verdict(None, captured, new_hash)

    def _hash_after(self, seat: int, pieces: list[tuple[int, int]], captured: int) -> int:
        n = self.size
        value = self.hash
        for cell, level in pieces:
            value ^= cube_key(seat, level, cell, n)
        for cell in bits(captured):
            value ^= self.cell_hash[cell]
            if self.options.get("in_place"):
                for level in range(len(self.stacks[cell])):
                    value ^= cube_key(seat, level, cell, n)
        return value

    def _shape_error(self, cells: tuple[int, ...]) -> str | None:
        """Why a placement's shape is wrong before any capture is considered (piece count, room, contact)."""
        n = self.size
        if len(cells) == 2:
            if self.placements == 0:
                return "only one piece may be placed on the opening move"
            if self.options.get("single"):
                return "this game is played with -single: one piece per turn"
        first = cells[0]
        if len(cells) == 2 and cells[0] == cells[1]:
            room = n - len(self.stacks[first])
            if room < 2:
                return f"{self._name(first)} has room for {'only one more piece' if room else 'no more pieces'}"
            return None
        for cell in cells:
            if len(self.stacks[cell]) >= n:
                return f"the stack on {self._name(cell)} is full ({n} high)"
        if len(cells) == 2:
            second = cells[1]
            if not self.geo.adjacent(1 << first) & (1 << second):
                return "the two pieces must touch: on neighbouring cells, or one on top of the other (c3,c3)"
            low, high = len(self.stacks[first]), len(self.stacks[second])
            if low != high:
                return (
                    f"pieces side by side must be at the same level, but {self._name(first)} would be at level "
                    f"{low + 1} and {self._name(second)} at level {high + 1}"
                )
        return None

    def _name(self, cell: int) -> str:
        row, col = divmod(cell, self.size)
        return cell_name(col, row)

    # ---- the contract ------------------------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return None if self._outcome is not None else self.turn

    def _candidates(self) -> tuple[tuple[int, ...], ...]:
        """Every placement of the right shape with room, before captures and freedom are judged: listed once per
        position (a playout's policy draws several random moves from each position)."""
        if self._listed is None:
            self._listed = tuple(self._list_candidates())
        return self._listed

    def _list_candidates(self) -> Iterator[tuple[int, ...]]:
        n = self.size
        heights = [len(stack) for stack in self.stacks]
        pairs = self.placements > 0 and not self.options.get("single")
        for cell, height in enumerate(heights):
            if height < n:
                yield (cell,)
        if not pairs:
            return
        for cell, height in enumerate(heights):
            if height + 2 <= n:
                yield (cell, cell)
            if height >= n:
                continue
            if cell % n < n - 1 and heights[cell + 1] == height:
                yield (cell, cell + 1)
            if cell + n < n * n and heights[cell + n] == height:
                yield (cell, cell + n)

    def _legal_cells(self, seat: int) -> Iterator[tuple[int, ...]]:
        for cells in self._candidates():
            if self._verdict(seat, cells).reason is None:
                yield cells

    def _place(self, cells: tuple[int, ...]) -> Place:
        return Place(tuple(divmod(cell, self.size)[::-1] for cell in cells))

    def _indices(self, move: Place) -> tuple[int, ...]:
        return tuple(row * self.size + col for col, row in move.cells)

    def _contains(self, move: object) -> bool:
        if self._outcome is not None or not isinstance(move, Place) or not 1 <= len(move.cells) <= 2:
            return False
        if not all(0 <= col < self.size and 0 <= row < self.size for col, row in move.cells):
            return False
        cells = self._indices(move)
        return self._shape_error(cells) is None and self._verdict(self.turn, cells).reason is None

    @property
    def legal_moves(self) -> LegalMoves:
        if self._outcome is not None:
            return LegalMoves(lambda: iter(()), lambda move: False)
        seat = self.turn
        return LegalMoves(lambda: (self._place(cells) for cells in self._legal_cells(seat)), self._contains)

    def random_move(self, rng: Any) -> Place | Pass:
        """A uniformly random legal move of the player to move (a pass when there is none), for playouts and
        search: the same distribution as choosing from :attr:`legal_moves`, at the cost of a few judgements
        instead of all of them. Candidates are drawn in a random order and judged one by one until one is legal;
        the verdicts are kept, so pushing the move does not judge it again. ``rng`` is a ``random.Random`` or a
        :class:`rules.rng.Rng` (anything with ``randrange(n)``)."""
        if self._outcome is not None:
            raise IllegalMoveError("", "the game is over")
        candidates = list(self._candidates())
        seat = self.turn
        draw = rng.randrange
        for end in range(len(candidates), 0, -1):
            pick = draw(end)
            cells = candidates[pick]
            candidates[pick] = candidates[end - 1]
            if self._verdict(seat, cells).reason is None:
                return self._place(cells)
        return Pass()

    def captured_by(self, move: Place) -> int:
        """Pieces a legal placement of the player to move would capture (0 for none): the judgement made to list
        or draw the move is reused, so asking costs nothing more (python-chess's ``is_capture``). A move judged
        already had its shape checked first; any other is checked in full."""
        n = self.size
        verdict = None
        if self._outcome is None and isinstance(move, Place) and all(0 <= c < n and 0 <= r < n for c, r in move.cells):
            verdict = self._verdicts.get((self.turn, self._indices(move)))
        if verdict is None:
            if not self._contains(move):
                raise IllegalMoveError(str(move), "it is not a legal placement in this position")
            verdict = self._verdict(self.turn, self._indices(move))
        elif verdict.reason is not None:
            raise IllegalMoveError(str(move), verdict.reason)
        return sum(len(self.stacks[cell]) for cell in bits(verdict.captured))

    def has_legal_move(self, seat: int | None = None) -> bool:
        """Whether ``seat`` (default: the player to move) could place anything in this position."""
        seat = self.turn if seat is None else seat
        for cells in self._likely_legal():
            if self._verdict(seat, cells).reason is None:
                return True
        return next(self._legal_cells(seat), None) is not None

    def _likely_legal(self) -> Iterator[tuple[int, ...]]:
        """Single pieces on empty cells beside empty ground: such a piece always breathes, so only superko can
        refuse it. Asked first whether a player can move at all, one of them usually answers at the first
        judgement, however full the board (their verdicts are kept for the full scan after them)."""
        empty = self.geo.full & ~self.levels[0]
        for cell in bits(empty & self.geo.adjacent(empty)):
            yield (cell,)

    def parse_move(self, text: str, player: int | None = None) -> Place | Pass:
        seat = self.check_turn(player)
        words = text.strip().lower().replace(" ", "")
        if words == "pass":
            if self.has_legal_move(seat):
                raise IllegalMoveError(text, "Drogo has no voluntary pass: you have a legal placement")
            return Pass()
        parts = words.split(",")
        if not words or len(parts) > 2:
            raise MoveSyntaxError(text, "a turn places one or two pieces", "a cell like c3, or two like c3,d3 or c3,c3")
        cells = tuple(self._parse_cell(text, part) for part in parts)
        reason = self._shape_error(cells) or self._verdict(seat, cells).reason
        if reason:
            raise IllegalMoveError(text, reason)
        return self._place(cells)

    def _parse_cell(self, text: str, part: str) -> int:
        match = _CELL.fullmatch(part)
        if not match:
            raise MoveSyntaxError(text, f"{part!r} is not a cell", "a column letter and a row number, like c3")
        col = ord(match.group(1)) - ord("a")
        row = int(match.group(2)) - 1
        if not (0 <= col < self.size and 0 <= row < self.size):
            last = cell_name(self.size - 1, self.size - 1)
            raise IllegalMoveError(text, f"{part} is off the board (a1 to {last})")
        return row * self.size + col

    def _forced_move(self) -> Pass | None:
        return None if self.has_legal_move() else Pass()

    def _push(self, move: Place | Pass) -> list[Event]:
        seat = self.turn
        if isinstance(move, Pass):
            return self._push_pass(seat)
        cells = self._indices(move)
        verdict = self._verdict(seat, cells)
        if verdict.reason is not None:
            raise IllegalMoveError(str(move), verdict.reason)
        pieces = self._pieces(cells)
        taken = self._apply(seat, pieces, verdict)
        self.placements += 1
        self.passes = 0
        events = self._capture_events(seat, taken)
        self.turn = self.next_active(seat)
        if self.placement_limit is not None and self.placements >= self.placement_limit:
            cap, n = self.placement_limit, self.size
            events.extend(self._end(f"the game has reached its limit of {cap} placements for a {n}x{n} board"))
        return events

    def _apply(self, seat: int, pieces: list[tuple[int, int]], verdict: _Verdict) -> list[tuple[int, list[int]]]:
        """Place the pieces, then remove (or with ``-in_place`` recolour) the captured stacks; returns the
        captured stacks as they were."""
        n = self.size
        for cell, level in pieces:
            self._set_top(cell, level, seat)
        taken = [(cell, list(self.stacks[cell])) for cell in bits(verdict.captured)]
        for cell, stack in taken:
            self._clear(cell)
            if self.options.get("in_place"):
                for level in range(len(stack)):
                    self._set_top(cell, level, seat)
        self._groups = []
        self._verdicts = {}
        self._listed = None
        if self.hash != verdict.new_hash:
            raise AssertionError("Drogo position hash out of step with the board")
        if self.superko:
            self._remember(self.hash)
        self.last = {
            "seat": seat,
            "placed": [[cell % n, cell // n, level] for cell, level in pieces],
            "captured": [[cell % n, cell // n, "".join(map(COLOURS.__getitem__, stack))] for cell, stack in taken],
        }
        return taken

    def _set_top(self, cell: int, level: int, seat: int) -> None:
        """Put ``seat``'s piece on top of ``cell`` (at ``level``), keeping bitboards and hashes in step."""
        bit = 1 << cell
        stack = self.stacks[cell]
        if stack:
            self.own[stack[-1]] &= ~bit
        stack.append(seat)
        self.own[seat] |= bit
        self.levels[level] |= bit
        key = cube_key(seat, level, cell, self.size)
        self.cell_hash[cell] ^= key
        self.hash ^= key

    def _clear(self, cell: int) -> None:
        """Lift a whole stack off ``cell``."""
        bit = 1 << cell
        stack = self.stacks[cell]
        self.own[stack[-1]] &= ~bit
        for level in range(len(stack)):
            self.levels[level] &= ~bit
        self.hash ^= self.cell_hash[cell]
        self.cell_hash[cell] = 0
        self.stacks[cell] = []

    def _capture_events(self, seat: int, taken: list[tuple[int, list[int]]]) -> list[Event]:
        by_victim: dict[int, list[tuple[int, list[int]]]] = {}
        for cell, stack in taken:
            by_victim.setdefault(stack[-1], []).append((cell, stack))
        verb = "takes over" if self.options.get("in_place") else "captures"
        events = []
        for victim, stacks in sorted(by_victim.items()):
            names = [self._name(cell) for cell, _ in stacks]
            pieces = sum(len(stack) for _, stack in stacks)
            text = (
                f"{self.players[seat]} ({COLOURS[seat]}) {verb} {len(stacks)} stack{'s' if len(stacks) > 1 else ''} "
                f"of {self.players[victim]} ({COLOURS[victim]}), {pieces} piece{'s' if pieces > 1 else ''}: "
                f"{', '.join(names)}"
            )
            events.append(Event("capture", text, seat, {"victim": victim, "cells": names, "pieces": pieces}))
        return events

    def _push_pass(self, seat: int) -> list[Event]:
        if self.has_legal_move(seat):
            raise IllegalMoveError("pass", "Drogo has no voluntary pass: you have a legal placement")
        self.passes += 1
        self.last = {"seat": seat, "placed": [], "captured": []}
        events = [Event("pass", f"{self.players[seat]} ({COLOURS[seat]}) has no legal placement and passes", seat)]
        self.turn = self.next_active(seat)
        if self.passes >= len(self.active_seats()):
            events.extend(self._end("no player can place a piece"))
        return events

    def _end(self, why: str) -> list[Event]:
        """Score the board: each player's stacks by height; the highest active player wins, a tie is a draw."""
        scores = self.scores()
        active = self.active_seats()
        best = max(scores[seat] for seat in active)
        leaders = tuple(seat for seat in active if scores[seat] == best)
        table = ", ".join(f"{self.players[s]} ({COLOURS[s]}) {scores[s]}" for s in range(len(self.players)))
        if len(leaders) == 1:
            winner = leaders[0]
            reason = f"{why}; {self.players[winner]} wins on height: {table}"
            self._finish(Outcome((winner,), reason, scores))
            return [Event("win", reason, winner, {"scores": list(scores)})]
        tied = " and ".join(self.players[s] for s in leaders)
        reason = f"{why}; draw, {tied} tie on {best}: {table}"
        self._finish(Outcome((), reason, scores))
        return [Event("draw", reason, None, {"scores": list(scores), "tied": list(leaders)})]

    def _on_resign(self, player: int) -> list[Event]:
        if self.turn == player:
            self.turn = self.next_active(player)
        if self.passes >= len(self.active_seats()):
            return self._end("no player can place a piece")
        return []

    # ---- text and JSON -----------------------------------------------------------------------------------

    def text_board(self) -> str:
        """Owner letter and height per cell (``x3``), row 1 at the bottom; capitals mark the last placement and
        ``*`` a stack captured by the last move."""
        n = self.size
        placed = {(col, row) for col, row, _ in (self.last or {}).get("placed", [])}
        captured = {(col, row) for col, row, _ in (self.last or {}).get("captured", [])}
        header = "    " + "".join(f"{chr(ord('a') + col):>4}" for col in range(n))
        lines = [header]
        for row in reversed(range(n)):
            cells = []
            for col in range(n):
                owner = self.owner(col, row)
                if owner is None:
                    text = "*" if (col, row) in captured else "."
                else:
                    letter = COLOURS[owner].upper() if (col, row) in placed else COLOURS[owner]
                    text = f"{letter}{self.height(col, row)}"
                cells.append(f"{text:>4}")
            lines.append(f"{row + 1:>3} " + "".join(cells) + f"  {row + 1}")
        lines.append(header)
        scores = self.scores()
        out = [f" ({self.out_reason(s)})" if s in self.resigned else "" for s in range(len(self.players))]
        lines.append("  ".join(f"{COLOURS[s]} {self.players[s]} {scores[s]}{out[s]}" for s in range(len(self.players))))
        if self._outcome is None:
            lines.append(f"{COLOURS[self.turn]} ({self.players[self.turn]}) to move")
        return "\n".join(lines)

    def _dump(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "stacks": [bytes(stack).translate(_LETTER_OF_SEAT).decode() for stack in self.stacks],
            "turn": self.turn,
            "placements": self.placements,
            "passes": self.passes,
            "last": self.last,
        }

    def _load(self, data: Mapping[str, Any]) -> None:
        nplayers = len(self.players)
        if not GAME.min_players <= nplayers <= GAME.max_players:
            raise StateFormatError(f"Drogo has 2 to 4 players, not {nplayers}")
        self.options = GAME.validate(self.options, nplayers)
        self.size = int(data["size"])
        self.placement_limit = move_cap(self.size)
        if self.size != self.options["size"]:
            raise StateFormatError(f"board size {self.size} does not match the option -size={self.options['size']}")
        raw = list(data["stacks"])
        if len(raw) != self.size * self.size:
            raise StateFormatError(f"expected {self.size * self.size} stacks, found {len(raw)}")
        letters = COLOURS[:nplayers]
        for text in raw:
            if not isinstance(text, str) or len(text) > self.size or text.strip(letters):
                raise StateFormatError(f"bad stack {text!r}: at most {self.size} of the letters {letters!r}")
        self.stacks = [list(text.encode().translate(_SEAT_OF_LETTER)) for text in raw]
        self.turn = int(data["turn"])
        if not 0 <= self.turn < nplayers:
            raise StateFormatError(f"seat {self.turn} cannot be on move")
        self.placements = int(data["placements"])
        self.passes = int(data["passes"])
        if self.placements < 0 or self.passes < 0:
            raise StateFormatError("negative move counters")
        self.last = self._load_last(data["last"])
        self._rebuild()
        self._memory, self._seen, self._lookups = bytearray(), {self.hash} if self.superko else set(), 0
        if "seen" in data:  # format 1 kept the positions seen in the snapshot, as hex strings
            self.restore_memory([int(str(text), 16) for text in data["seen"]])

    def _load_last(self, raw: Any) -> dict[str, Any] | None:
        if raw is None:
            return None
        seat = int(raw["seat"])
        placed = [[int(col), int(row), int(level)] for col, row, level in raw["placed"]]
        captured = [[int(col), int(row), str(stack)] for col, row, stack in raw["captured"]]
        n = self.size
        for col, row, level in placed:
            if not (0 <= col < n and 0 <= row < n and 0 <= level < n):
                raise StateFormatError(f"last move placed a piece off the board: {col},{row},{level}")
        for col, row, _ in captured:
            if not (0 <= col < n and 0 <= row < n):
                raise StateFormatError(f"last move captured off the board: {col},{row}")
        if not 0 <= seat < len(self.players):
            raise StateFormatError(f"last move by unknown seat {seat}")
        return {"seat": seat, "placed": placed, "captured": captured}


def random_move(state: DrogoState, rng: Rng) -> Place | Pass:
    """:meth:`DrogoState.random_move`, as a function (self-play tests and the benchmarks call it so)."""
    return state.random_move(rng)


# --------------------------------------------------------------------------------------------------------------
# The game description


def _validate(options: dict[str, Any], nplayers: int) -> dict[str, Any]:
    """Fill the size default; no other option depends on another, and every board size suits 2 to 4 players."""
    values = dict(options)
    size = values.get("size")
    values["size"] = 6 if size is None else int(size)
    if not MIN_SIZE <= values["size"] <= MAX_SIZE:
        raise OptionError(f"option -size={values['size']} is out of range ({MIN_SIZE}..{MAX_SIZE})")
    for name in ("single", "in_place", "easy_free", "no_superko"):
        values[name] = bool(values.get(name, False))
    return values


GAME = GameDef(
    name="drogo",
    title="Drogo",
    summary="Go in three dimensions: stack cubes, surround enemy groups, own the tallest stacks (2-4 players)",
    options=(
        Option("size", int, 6, "board size n: n x n cells, stacks at most n high", MIN_SIZE, MAX_SIZE),
        Option("single", bool, False, "only one piece per turn"),
        Option("in_place", bool, False, "captured stacks turn to the capturer's colour instead of being removed"),
        Option("easy_free", bool, False, "freedom may be an empty point at any level, not only on the ground"),
        Option("no_superko", bool, False, "do not forbid repeating an earlier position (as pbmserv did)"),
    ),
    min_players=2,
    max_players=4,
    state_class=DrogoState,
    help=HELP,
    notation=NOTATION,
    validate=_validate,
)

DrogoState.game = GAME

__all__ = [
    "COLOURS",
    "GAME",
    "HELP",
    "MAX_SIZE",
    "MIN_SIZE",
    "NOTATION",
    "DrogoState",
    "Pass",
    "Place",
    "cell_name",
    "move_cap",
    "random_move",
]
