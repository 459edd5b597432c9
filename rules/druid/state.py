"""A Druid position and its rules: reading a move, why it is refused, the legal moves and a uniformly random one,
placing stones (rules-notes.md DU-3 for lintels), Druid's Walk (DU-6), pass, draw and swap (DU-5), the win checked
incrementally and from scratch (DU-4 goals), and the saved form.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator, Mapping
from typing import Any

from rules.base import (
    Event,
    GameState,
    IllegalMoveError,
    LegalMoves,
    MoveSyntaxError,
    Outcome,
    StateFormatError,
)
from rules.druid.board import ALL_DIRECTIONS, SIDE_NAMES, SQUARE, YBOARD, Board, board_for
from rules.druid.moves import Lintel, Pass, Sarsen, Step, Stone, Swap
from rules.druid.options import board_kind
from rules.druid.text import text_board

# Coordinates are ASCII, like game numbers: [0-9], not \d, which also reads other scripts' digits (d٤ as d4)
_CELL = re.compile(r"([a-z])([0-9]{1,2})")
_LINTEL = re.compile(r"([a-z][0-9]{1,2})-([a-z][0-9]{1,2})")


class DruidState(GameState):
    """A Druid position: the stones, every cell's height and top owner, whose turn, the druids of Walk."""

    def __init__(self, options: Mapping[str, Any], players: list[str] | tuple[str, ...], seed: int) -> None:
        super().__init__(options, players, seed)
        self._setup()
        self.turn = 0
        self.passes = 0
        self.druids: list[int | None] = [None] * len(self.players)
        self.targets: list[str | None] = [None] * len(self.players)
        self.last: dict[str, Any] = {}

    def clone(self) -> DruidState:
        """An independent copy, field by field: a search clones thousands of positions, and ``deepcopy`` spent
        nine tenths of its time copying the board's topology, which never changes (boards are shared from
        :func:`board_for`). Stones are immutable tuples, shared; every container of the position is copied."""
        new = self._clone_base()
        new.goals = [list(goal) for goal in self.goals]
        new.stones = list(self.stones)
        new.stacks = [list(stack) for stack in self.stacks]
        new.height = list(self.height)
        new.top = list(self.top)
        new.masks = list(self.masks)
        new.druids = list(self.druids)
        new.targets = list(self.targets)
        new.last = copy.deepcopy(self.last)
        return new

    def _setup(self) -> None:
        """Derived structures from the options: the board, colours, goals; empty stacks."""
        kind = board_kind(self.options)
        self.board = board_for(kind, int(self.options["size"]))
        nplayers = len(self.players)
        self.colours = ("V", "H") if kind == SQUARE else ("X", "O", "Y")[:nplayers]
        self.goals = _goals(kind, nplayers)
        self.walk = bool(self.options.get("walk"))
        self.nostack = bool(self.options.get("nostack"))
        self.nogaps = bool(self.options.get("nogaps"))
        self.stones: list[Stone] = []
        self.stacks: list[list[int]] = [[] for _ in range(self.board.ncells)]
        self.height = [0] * self.board.ncells
        self.top = [-1] * self.board.ncells
        self.masks = [0] * nplayers

    # ---- contract ---------------------------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return None if self.is_over else self.turn

    @property
    def legal_moves(self) -> LegalMoves:
        seat = self.to_move
        if seat is None:
            return LegalMoves(lambda: iter(()))
        return LegalMoves(lambda: self._generate(seat), lambda move: self._legal(move, seat))

    def parse_move(self, text: str, player: int | None = None) -> Any:
        seat = self.check_turn(player)
        raw = "".join(text.split()).lower()
        move = self._read(text, raw)
        problem = self._problem(move, seat)
        if problem is not None:
            raise IllegalMoveError(text.strip(), problem)
        return move

    def _push(self, move: Any) -> list[Event]:
        seat = self.turn
        if isinstance(move, Pass):
            return self._pass(seat)
        self.passes = 0
        if isinstance(move, Swap):
            self.players[0], self.players[1] = self.players[1], self.players[0]
            self.queued_resign = {1 - seat for seat in self.queued_resign}
            self.last = {"seat": seat, "kind": "swap"}
            self.turn = 1
            text = (
                f"{self.players[0]} has swapped sides and now plays {self.colours[0]};"
                f" {self.players[1]} plays {self.colours[1]} and is on move"
            )
            return [Event("swap", text, 0)]
        events = self._step(seat, move) if isinstance(move, Step) else self._place(seat, move)
        if not self.is_over:
            self.turn = self.next_active(seat)
        return events

    def _counts(self, move: Any) -> bool:
        """pbmserv's swap leaves the move counter alone (rules-notes R-5): after ``c3``, ``swap`` the next move is
        still move 2, and the log numbers it so."""
        return not isinstance(move, Swap)

    def _on_resign(self, player: int) -> list[Event]:
        """Three-player hex goes on without the resigned seat; passes so far may already make a full round."""
        self.turn = self.next_active(player)
        return self._draw_if_all_passed()

    # ---- reading moves ----------------------------------------------------------------------------------

    def _read(self, text: str, raw: str) -> Any:
        """The move ``raw`` names, before any rule is checked."""
        shown = text.strip()
        if raw in ("pass", "--"):
            return Pass()
        if raw == "swap":
            return Swap()
        if "," in raw:
            raise IllegalMoveError(
                shown,
                "one action per turn: either place a stone or move your druid, not both"
                " (a druid moves alone, by a direction letter like n)",
            )
        if raw in ALL_DIRECTIONS:
            return Step(raw)
        match = _LINTEL.fullmatch(raw)
        if match:
            return Lintel(self._cell_name(shown, match.group(1)), self._cell_name(shown, match.group(2)))
        if _CELL.fullmatch(raw):
            return Sarsen(self._cell_name(shown, raw))
        raise MoveSyntaxError(
            shown, "not a Druid move", "a cell like c3, a lintel like b2-b4, a druid step like n, swap or pass"
        )

    def _cell_name(self, text: str, name: str) -> str:
        name = f"{name[0]}{int(name[1:])}"
        if name not in self.board.index:
            raise IllegalMoveError(text, f"{name.upper()} is off the board ({self.board.cell_range()})")
        return name

    # ---- rules ------------------------------------------------------------------------------------------

    def _problem(self, move: Any, seat: int) -> str | None:
        """Why ``seat`` may not make ``move`` now, or ``None`` when it is legal."""
        if isinstance(move, Pass):
            return None
        if isinstance(move, Swap):
            return self._swap_problem()
        if isinstance(move, Step):
            return self._step_problem(move, seat)
        if isinstance(move, Sarsen):
            cell = self.board.index.get(move.cell)
            return "that cell is off the board" if cell is None else self._sarsen_problem(cell, seat)
        if isinstance(move, Lintel):
            a, b = self.board.index.get(move.a), self.board.index.get(move.b)
            return "that cell is off the board" if a is None or b is None else self._lintel_problem(a, b, seat)
        return "not a Druid move"

    def _legal(self, move: Any, seat: int) -> bool:
        """Whether ``seat`` may make ``move`` now: :meth:`_problem` without building the words of a refusal."""
        board = self.board
        if isinstance(move, Sarsen):
            cell = board.index.get(move.cell)
            return cell is not None and self._sarsen_ok(cell, seat)
        if isinstance(move, Lintel):
            a, b = board.index.get(move.a), board.index.get(move.b)
            middle = board.lines.get((a, b)) if a is not None and b is not None else None
            return middle is not None and self._lintel_ok(a, middle, b, seat)  # type: ignore[arg-type]
        if isinstance(move, Step):
            return move.direction in board.dirs and self._step_ok(board.dirs.index(move.direction), seat)
        if isinstance(move, Swap):
            return self._swap_problem() is None
        return isinstance(move, Pass)

    def _step_ok(self, direction: int, seat: int) -> bool:
        """Whether ``seat``'s druid may step in ``direction`` (an index into the board's directions)."""
        here = self.druids[seat]
        if not self.walk or here is None:
            return False
        there = self.board.step[here][direction]
        return there >= 0 and self.top[there] == seat

    def _swap_problem(self) -> str | None:
        if len(self.players) != 2:
            return "swap is only offered in two-player games"
        if self.ply == 0:
            return "swap too early: swap is the second move, taking over the opening stone once it is placed"
        if self.ply != 1 or self.last.get("kind") == "swap":  # a swap leaves the counter at 1: no second one
            return "swap too late: swap is only allowed as the second move of the game"
        return None

    def _druid_on(self, cell: int) -> bool:
        return cell in self.druids

    def _sarsen_ok(self, cell: int, seat: int) -> bool:
        """Whether ``seat`` may put a sarsen on ``cell``: the rule alone, for listing moves (no words built)."""
        owner = self.top[cell]
        if owner >= 0 and (owner != seat or (self.nostack and self.stones[self.stacks[cell][-1]].kind == "s")):
            return False
        return cell not in self.druids

    def _lintel_ok(self, a: int, middle: int, b: int, seat: int) -> bool:
        """Whether ``seat`` may lay a lintel over ``a``, ``middle``, ``b`` (a line of the board): the rule alone."""
        height, top = self.height, self.top
        h = height[a]
        if not h or height[b] != h:
            return False
        hm = height[middle]
        if hm > h or (hm < h and self.nogaps):
            return False
        own = (top[a] == seat) + (top[b] == seat) + (hm == h and top[middle] == seat)
        if own != 2:
            return False
        druids = self.druids
        return a not in druids and middle not in druids and b not in druids

    def _sarsen_problem(self, cell: int, seat: int, check_druids: bool = True) -> str | None:
        """Why ``seat`` may not put a sarsen on ``cell``, or ``None``; the words are built only for a refusal."""
        owner = self.top[cell]
        legal = owner < 0 or (owner == seat and not (self.nostack and self.stones[self.stacks[cell][-1]].kind == "s"))
        if legal and not (check_druids and self._druid_on(cell)):
            return None
        name = self.board.names[cell].upper()
        if check_druids and self._druid_on(cell):
            return f"druid in the way: a druid stands on {name}, and nothing can be placed on a druid"
        if owner != seat:
            return (
                f"wrong colour beneath: {name}'s top stone is {self.colours[owner]}'s;"
                " a sarsen goes on the ground or on your own colour"
            )
        return f"-nostack: a sarsen may not go directly on another sarsen ({name})"

    def _lintel_problem(self, a: int, b: int, seat: int, check_druids: bool = True) -> str | None:
        """Why ``seat`` may not lay a lintel from ``a`` to ``b``, or ``None``; words only for a refusal."""
        middle = self.board.lines.get((a, b))
        if middle is not None and check_druids and self._lintel_ok(a, middle, b, seat):
            return None
        names = self.board.names
        span = f"{names[a].upper()}-{names[b].upper()}"
        if middle is None:
            return f"a lintel spans three cells in a straight line, so its ends must be two cells apart ({span} is not)"
        if check_druids:
            for cell in (a, middle, b):
                if self._druid_on(cell):
                    return (
                        f"druid in the way: a druid stands on {names[cell].upper()},"
                        " and nothing can be placed on a druid"
                    )
        h, hb, hm = self.height[a], self.height[b], self.height[middle]
        for cell in (a, b):
            if self.height[cell] == 0:
                return (
                    f"unsupported end: {names[cell].upper()} is bare ground; both ends of a lintel must rest on stones"
                )
        if h != hb:
            return (
                f"uneven ends: {names[a].upper()} is {h} high but {names[b].upper()} is {hb} high;"
                " a lintel must lie flat"
            )
        if hm > h:
            return f"the middle {names[middle].upper()} ({hm} high) is higher than the ends ({h} high)"
        if self.nogaps and hm < h:
            return f"-nogaps: the middle {names[middle].upper()} must be as high as the ends (no gap under a lintel)"
        beneath = [self.top[a], self.top[b]] + ([self.top[middle]] if hm == h else [])
        own = beneath.count(seat)
        if own == 3:
            return "three own units beneath: a lintel must rest on exactly two units of your colour"
        if own < 2:
            return (
                f"wrong colour beneath: a lintel must rest on exactly two units of your colour, {span} rests on {own}"
            )
        return None

    def _step_problem(self, move: Step, seat: int) -> str | None:
        if not self.walk:
            return "there are no druids to move: druids only walk in Druid's Walk (-walk)"
        if move.direction not in self.board.dirs:
            return f"{move.direction} is not a direction on this board (use {', '.join(self.board.dirs)})"
        here = self.druids[seat]
        if here is None:
            edges = " or the ".join(SIDE_NAMES[side] for side in self.goals[seat][0])
            return (
                f"you have no druid yet: it appears on your first stone on your own edge (the {edges});"
                " stones elsewhere, even on another player's edge, do not bring it"
            )
        there = self.board.step[here][self.board.dirs.index(move.direction)]
        name = self.board.names[here].upper()
        if there < 0:
            return f"your druid on {name} cannot step {move.direction}: that is off the board"
        there_name = self.board.names[there].upper()
        if self.top[there] != seat:
            what = "bare ground" if self.top[there] < 0 else f"topped by {self.colours[self.top[there]]}"
            return f"a druid only steps onto stones of its own colour, and {there_name} is {what}"
        return None

    def random_move(self, rng: Any) -> Any:
        """A uniformly random legal move of the player to move, for playouts and search: the same distribution
        as ``rng.choice(list(state.legal_moves))``, without listing the moves. ``rng`` is a ``random.Random`` or a
        :class:`rules.rng.Rng` (anything with ``randrange(n)``); the game's own generator is not touched.

        Candidates (every cell, every line, every druid step, swap, pass) are drawn uniformly until one is legal;
        pass always is, and after many refusals the legal moves are listed instead, so the draw stays uniform
        and never loops long."""
        seat = self.to_move
        if seat is None:
            raise IllegalMoveError("", "the game is over")
        board = self.board
        ncells, nlines = board.ncells, len(board.line_list)
        steps = board.step_moves if self.walk and self.druids[seat] is not None else ()
        nsteps = len(steps)
        swap = self.ply == 1 and len(self.players) == 2 and self._swap_problem() is None
        total = ncells + nlines + nsteps + swap + 1
        draw = rng.randrange
        for _ in range(2 * total):
            pick = draw(total)
            if pick < ncells:
                if self._sarsen_ok(pick, seat):
                    return board.sarsens[pick]
                continue
            pick -= ncells
            if pick < nlines:
                a, middle, b = board.line_list[pick]
                if self._lintel_ok(a, middle, b, seat):
                    return board.lintels[pick]
                continue
            pick -= nlines
            if pick < nsteps:
                if self._step_ok(pick, seat):
                    return steps[pick]
                continue
            return Swap() if swap and pick == nsteps else Pass()
        moves = list(self.legal_moves)
        return moves[draw(len(moves))]

    def _generate(self, seat: int) -> Iterator[Any]:
        board = self.board
        sarsen_ok, lintel_ok = self._sarsen_ok, self._lintel_ok
        for cell, move in enumerate(board.sarsens):
            if sarsen_ok(cell, seat):
                yield move
        height = self.height
        for (a, middle, b), move in zip(board.line_list, board.lintels, strict=True):
            if height[a] and lintel_ok(a, middle, b, seat):
                yield move
        for direction, move in enumerate(board.step_moves):
            if self._step_ok(direction, seat):
                yield move
        if self._swap_problem() is None:
            yield Swap()
        yield Pass()

    # ---- applying moves ---------------------------------------------------------------------------------

    def _add_stone(self, stone: Stone) -> None:
        """Put ``stone`` on its cells, keeping heights, tops and the per-seat top masks in step."""
        number = len(self.stones)
        self.stones.append(stone)
        for cell in stone.cells:
            self.stacks[cell].append(number)
            self.height[cell] = stone.level
            old = self.top[cell]
            if old >= 0:
                self.masks[old] &= ~(1 << cell)
            self.top[cell] = stone.owner
            self.masks[stone.owner] |= 1 << cell

    def _place(self, seat: int, move: Sarsen | Lintel) -> list[Event]:
        who = f"{self.players[seat]} ({self.colours[seat]})"
        if isinstance(move, Sarsen):
            cell = self.board.index[move.cell]
            cells: tuple[int, ...] = (cell,)
            self._add_stone(Stone(seat, "s", self.height[cell] + 1, cells))
            text = f"{who} placed a sarsen on {move.cell.upper()} at level {self.height[cell]}"
            kind = "place"
        else:
            a, b = self.board.index[move.a], self.board.index[move.b]
            cells = (a, self.board.lines[(a, b)], b)
            self._add_stone(Stone(seat, "l", self.height[a] + 1, cells))
            text = f"{who} laid a lintel {str(move).upper()} at level {self.height[a]}"
            kind = "lintel"
        names = [self.board.names[c] for c in cells]
        events = [Event(kind, text, seat, {"cells": names, "level": self.stones[-1].level})]
        self.last = {"seat": seat, "kind": kind, "stone": len(self.stones) - 1}
        if self.walk:
            events.extend(self._spawn(seat, cells))
        else:
            events.extend(self._check_connection(seat, cells))
        return events

    def _spawn(self, seat: int, cells: tuple[int, ...]) -> list[Event]:
        """Walk: the first stone on one of the mover's own edges brings the druid onto it. A lintel can cover at
        most one such cell before the druid exists (its own units beneath would have brought the druid earlier),
        so the order of ``cells`` does not matter."""
        if self.druids[seat] is not None:
            return []
        for cell in cells:
            for edge, target in self._walk_edges(seat):
                if self.board.sides[edge] >> cell & 1:
                    self.druids[seat] = cell
                    self.targets[seat] = target
                    self.last["druid"] = [None, self.board.names[cell]]
                    text = (
                        f"{self.colours[seat]}'s druid appears on {self.board.names[cell].upper()};"
                        f" it must reach the {SIDE_NAMES[target]}"
                    )
                    return [Event("druid", text, seat, {"cell": self.board.names[cell], "target": target})]
        return []

    def _walk_edges(self, seat: int) -> list[tuple[str, str]]:
        """(edge, the opposite edge that becomes the target) for each of ``seat``'s two edges."""
        first, second = self.goals[seat][0]
        return [(first, second), (second, first)]

    def _step(self, seat: int, move: Step) -> list[Event]:
        here = self.druids[seat]
        assert here is not None
        there = self.board.step[here][self.board.dirs.index(move.direction)]
        self.druids[seat] = there
        names = self.board.names
        self.last = {"seat": seat, "kind": "step", "druid": [names[here], names[there]]}
        text = (
            f"{self.colours[seat]}'s druid steps {move.direction} from {names[here].upper()} to {names[there].upper()}"
        )
        events = [Event("druid", text, seat, {"from": names[here], "to": names[there]})]
        target = self.targets[seat]
        if target is not None and self.board.sides[target] >> there & 1:
            reason = f"{self.colours[seat]}'s druid reached the {SIDE_NAMES[target]}"
            self._finish(Outcome((seat,), reason))
            events.append(Event("win", f"{self.players[seat]} wins: {reason}", seat))
        return events

    def _check_connection(self, seat: int, cells: tuple[int, ...]) -> list[Event]:
        """The mover wins when the group holding the new stone touches one of its goal side sets; only the
        mover can gain a connection from a move, and only through the cells it just covered."""
        group = _flood(self.board, self.masks[seat], sum(1 << c for c in cells))
        for sides in self.goals[seat]:
            if all(group & self.board.sides[side] for side in sides):
                reason = f"{self.colours[seat]} joined {_side_words(sides)}"
                self._finish(Outcome((seat,), reason))
                return [Event("win", f"{self.players[seat]} wins: {reason}", seat)]
        return []

    def _pass(self, seat: int) -> list[Event]:
        self.passes += 1
        self.last = {"seat": seat, "kind": "pass"}
        events = [Event("pass", f"{self.players[seat]} ({self.colours[seat]}) passed", seat)]
        self.turn = self.next_active(seat)
        return events + self._draw_if_all_passed()

    def _draw_if_all_passed(self) -> list[Event]:
        if self.passes >= len(self.active_seats()):
            reason = "all players passed in succession"
            self._finish(Outcome((), reason))
            return [Event("draw", f"Draw: {reason}")]
        return []

    # ---- checking from scratch --------------------------------------------------------------------------

    def recompute_winners(self) -> set[int]:
        """Seats whose win condition holds, found from the stone list alone by a plain search (no masks, no
        incremental state): the check that loading a saved game and the self-play proofs rely on."""
        if self.walk:
            return {
                seat
                for seat, (cell, target) in enumerate(zip(self.druids, self.targets, strict=True))
                if cell is not None and target is not None and self.board.sides[target] >> cell & 1
            }
        top = [-1] * self.board.ncells
        for stone in self.stones:
            for cell in stone.cells:
                top[cell] = stone.owner
        winners: set[int] = set()
        seen = [False] * self.board.ncells
        for start in range(self.board.ncells):
            if top[start] < 0 or seen[start]:
                continue
            seat, group, todo = top[start], 0, [start]
            seen[start] = True
            while todo:
                cell = todo.pop()
                group |= 1 << cell
                for other in self.board.neighbours[cell]:
                    if not seen[other] and top[other] == seat:
                        seen[other] = True
                        todo.append(other)
            touched = {side for side, mask in self.board.sides.items() if mask & group}
            if any(set(sides) <= touched for sides in self.goals[seat]):
                winners.add(seat)
        return winners

    # ---- text -------------------------------------------------------------------------------------------

    def owner_glyph(self, cell: int) -> str:
        """``.`` empty, else the top colour in lower case (upper case for a sarsen top under -nostack, where
        nothing may be stacked on it)."""
        owner = self.top[cell]
        if owner < 0:
            return "."
        glyph = self.colours[owner].lower()
        if self.options.get("nostack") and self.stones[self.stacks[cell][-1]].kind == "s":
            glyph = glyph.upper()
        return glyph

    def height_glyph(self, cell: int) -> str:
        h = self.height[cell]
        return "." if h == 0 else str(h) if h < 10 else chr(55 + h) if h < 36 else "+"

    def text_board(self) -> str:
        """Top stones beside heights, with a legend (:mod:`rules.druid.text`)."""
        return text_board(self)

    # ---- serialisation ----------------------------------------------------------------------------------

    def _dump(self) -> dict[str, Any]:
        names = self.board.names
        return {
            "stones": [[s.owner, s.kind, s.level, [names[c] for c in s.cells]] for s in self.stones],
            "turn": self.turn,
            "passes": self.passes,
            "druids": [None if c is None else names[c] for c in self.druids],
            "targets": list(self.targets),
            "last": dict(self.last),
        }

    def _load(self, data: Mapping[str, Any]) -> None:
        self._setup()
        nplayers = len(self.players)
        for number, (owner, kind, level, cells) in enumerate(data["stones"]):
            self._load_stone(number, int(owner), str(kind), int(level), [self.board.index[c] for c in cells])
        self.turn = int(data["turn"])
        self.passes = int(data["passes"])
        if not 0 <= self.turn < nplayers or not 0 <= self.passes <= nplayers:
            raise StateFormatError("damaged druid state: turn or pass count out of range")
        self.druids = [None if c is None else self.board.index[c] for c in data["druids"]]
        self.targets = [None if t is None else str(t) for t in data["targets"]]
        if len(self.druids) != nplayers or len(self.targets) != nplayers:
            raise StateFormatError("damaged druid state: one druid entry per player expected")
        for seat, (cell, target) in enumerate(zip(self.druids, self.targets, strict=True)):
            if (cell is None) != (target is None) or (cell is not None and self.top[cell] != seat):
                raise StateFormatError(f"damaged druid state: druid of seat {seat} is misplaced")
            if target is not None and target not in (side for pair in self._walk_edges(seat) for side in pair):
                raise StateFormatError(f"damaged druid state: unknown target {target!r}")
        self.last = dict(data["last"])
        if not self.is_over and self.recompute_winners():
            raise StateFormatError("damaged druid state: a player has already won but the game is not over")

    def _load_stone(self, number: int, owner: int, kind: str, level: int, cells: list[int]) -> None:
        """Re-place a saved stone, checking it obeys the placement rules (druids aside: they came later)."""
        if not 0 <= owner < len(self.players):
            raise StateFormatError(f"damaged druid state: stone {number} has no owner seat {owner}")
        if kind == "s" and len(cells) == 1:
            problem = self._sarsen_problem(cells[0], owner, check_druids=False)
        elif kind == "l" and len(cells) == 3 and self.board.lines.get((cells[0], cells[2])) == cells[1]:
            problem = self._lintel_problem(cells[0], cells[2], owner, check_druids=False)
        else:
            problem = "not a sarsen or a lintel"
        if problem is None and level != self.height[cells[0]] + 1:
            problem = f"level {level} does not sit on height {self.height[cells[0]]}"
        if problem is not None:
            raise StateFormatError(f"damaged druid state: stone {number}: {problem}")
        self._add_stone(Stone(owner, kind, level, tuple(cells)))


def _flood(board: Board, own: int, seed: int) -> int:
    """The cells of ``own`` (a bitmask) connected to ``seed``'s cells."""
    group = frontier = seed & own
    nbr = board.nbr_mask
    while frontier:
        grow = 0
        while frontier:
            low = frontier & -frontier
            grow |= nbr[low.bit_length() - 1]
            frontier ^= low
        frontier = grow & own & ~group
        group |= frontier
    return group


def _goals(kind: str, nplayers: int) -> list[list[tuple[str, ...]]]:
    """Per seat, the side sets of which any one, fully touched by a group, wins."""
    if kind == SQUARE:
        return [[("bottom", "top")], [("left", "right")]]
    if kind == YBOARD:
        return [[("W", "SE", "NE")]] * nplayers
    if nplayers == 3:
        return [[("NE", "SW")], [("NW", "SE")], [("W", "E")]]
    return [[("NW", "E", "SW"), ("NE", "SE", "W")]] * 2


def _side_words(sides: tuple[str, ...]) -> str:
    if sides == ("bottom", "top"):
        return "top and bottom"
    if sides == ("left", "right"):
        return "left and right"
    if len(sides) == 3 and set(sides) == {"W", "SE", "NE"}:
        return "all three sides"
    return ", ".join(sides[:-1]) + f" and {sides[-1]} sides"
