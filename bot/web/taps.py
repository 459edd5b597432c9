"""Moves entered by tapping the board: the legal moves of a position as sequences of taps on the board's tagged
elements, answered one step at a time.

A tap names an element of the SVG board the way render/svg.py tags it, ``kind:id``: a Druid or Drogo cell
(``cell:c3``), a Druid druid (``druid:0``, the seat), a Dragons open position (``spot:3``, the number typed; an
unnumbered gap ``gap:q,r``) and a tile of the legend (``letter:h``, the orientation), a Backgammon point
(``point:13``), the bar (``bar:X``, the mover's colour) and a tray (``tray:X``, bearing off).

- Druid: a sarsen is its cell; a lintel its two end cells, in either order; a druid's step in Walk the druid, then
  the cell it steps to (that cell alone would be a sarsen).
- Drogo: a piece is its cell; two pieces the first cell, then the second (the same cell again for a stack of two),
  in either order.
- Dragons: the open position, then the tile in the orientation it would lie (a letter of the legend).
- Backgammon: a checker (its point, or the bar), then where it goes with one die; then the next checker, die by
  die, until every die that must be played is. Every order of the dice and checkers that reaches a legal play is
  offered, computed a step at a time (a double may be played in hundreds of orders).

The game's one-word commands (``pass``, ``swap``, ``roll``, ``double`` ...) are buttons, not taps
(:func:`words`). Everything comes from the rules' own legal moves, so a tap sequence offered always ends in a legal
move and every legal move is offered; the complete move is named by the rules' canonical text (what the text field
holds). Nothing here reads the dice seed or a future roll: only the position's legal moves, which its player sees
on the page anyway. Pure: no I/O, no web server.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.backgammon import MOVE, BackgammonState, steps_text
from rules.backgammon.movegen import BAR, HIT_SHIFT, OFF, Step, pack
from rules.backgammon.notation import apply_step, step_problem
from rules.base import GameState
from rules.dragons.state import Place as DragonsPlace
from rules.drogo import Place as DrogoPlace
from rules.drogo import cell_name
from rules.druid import Lintel, Sarsen
from rules.druid import Step as DruidStep

#: the most taps a request may carry (a Backgammon double is 8: four checkers, each from and to)
MAX_TAPS = 12
#: tappers kept per process (one per position asked about)
CACHE_SIZE = 64


class TapError(Exception):
    """A tap that is not a legal next tap here; the message is one sentence for the page."""


@dataclass(frozen=True)
class TapAnswer:
    """Where a sequence of taps stands: the taps accepted, the taps that may come next (``lit``), the complete
    move they make (``move``, the rules' canonical text; ``None`` while incomplete) and the notation so far
    (``partial``: what the text field holds)."""

    taps: tuple[str, ...]
    lit: tuple[str, ...]
    move: str | None
    partial: str

    def to_json(self) -> dict[str, Any]:
        return {"taps": list(self.taps), "lit": list(self.lit), "move": self.move, "partial": self.partial}


@dataclass
class _Node:
    """A node of a game's tap tree: the move made when the taps stop here (if any), the taps that may follow."""

    move: str | None = None
    children: dict[str, _Node] = field(default_factory=dict)


def words(state: GameState) -> list[str]:
    """The legal moves of the player to move that are entered as buttons, not taps (the game's one-word
    commands, and a forced pass)."""
    extra = state.game.extra_commands
    return [text for text in (state.move_text(m) for m in state.legal_moves) if text in extra or text == "pass"]


def tap_label(tap: str) -> str:
    """A tap as a person reads it: ``cell:c3`` -> ``C3``, ``point:13`` -> ``point 13``."""
    kind, _, ident = tap.partition(":")
    return {
        "cell": ident.upper(),
        "point": f"point {ident}",
        "bar": "the bar",
        "tray": "off the board",
        "druid": "your druid",
        "spot": f"position {ident}",
        "gap": f"the gap at {ident}",
        "letter": f"tile {ident}",
    }.get(kind, tap)


class Tapper:
    """The tap tree of one position (built once, asked many times)."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._bg = _Backgammon(state) if isinstance(state, BackgammonState) else None
        self._root = _Node() if self._bg is not None else _tree(state)

    def answer(self, taps: Sequence[str]) -> TapAnswer:
        """Where ``taps`` stand; :class:`TapError` for the first one that is not a legal next tap."""
        if len(taps) > MAX_TAPS:
            raise TapError(f"A move is at most {MAX_TAPS} taps; start again.")
        if self._bg is not None:
            return self._bg.answer(tuple(taps))
        node = self._root
        for done, tap in enumerate(taps):
            child = node.children.get(tap)
            if child is None:
                raise TapError(_refusal(tap, taps[:done]))
            node = child
        partial = node.move or "".join(t.partition(":")[2] for t in taps if t.startswith("cell:"))
        return TapAnswer(tuple(taps), tuple(node.children), node.move, partial)


def _refusal(tap: str, before: Sequence[str]) -> str:
    after = f" after {', '.join(tap_label(t) for t in before)}" if before else ""
    return f"{tap_label(tap)} is not a legal tap{after}: tap one of the highlighted places."


def _tree(state: GameState) -> _Node:
    """The tap tree of a game whose moves are a few taps each (Druid, Drogo, Dragons)."""
    root = _Node()
    if state.to_move is None:
        return root
    for move in state.legal_moves:
        text = state.move_text(move)
        for path in _paths(state, move, text):
            node = root
            for tap in path:
                node = node.children.setdefault(tap, _Node())
            node.move = text
    return root


def _paths(state: GameState, move: Any, text: str) -> list[tuple[str, ...]]:
    """The tap sequences that make ``move`` (none for a move made by a button)."""
    if isinstance(move, Sarsen):
        return [(f"cell:{move.cell}",)]
    if isinstance(move, Lintel):
        return [(f"cell:{move.a}", f"cell:{move.b}"), (f"cell:{move.b}", f"cell:{move.a}")]
    if isinstance(move, DruidStep):
        return [_druid_step(state, move)]
    if isinstance(move, DrogoPlace):
        cells = tuple(f"cell:{cell_name(col, row)}" for col, row in move.cells)
        return list(dict.fromkeys((cells, cells[::-1])))
    if isinstance(move, DragonsPlace):
        number = text[1:]
        where = f"spot:{number}" if number.isdigit() else f"gap:{move.q},{move.r}"
        return [(where, f"letter:{move.letter}")]
    return []


def _druid_step(state: Any, move: DruidStep) -> tuple[str, str]:
    """A druid's step as taps: the druid (its seat), then the cell it steps to."""
    seat = state.to_move
    board = state.board
    here = state.druids[seat]
    there = board.step[here][board.dirs.index(move.direction)]
    return (f"druid:{seat}", f"cell:{board.names[there]}")


# ---- Backgammon: a step at a time ------------------------------------------------------------------------------

#: one way the taps so far can have been played: the mover's checkers, the blots hit, the dice left, the steps
_Way = tuple[tuple[int, ...], int, tuple[int, ...], tuple[Step, ...]]


class _Backgammon:
    """Backgammon's taps: pairs (a checker, where it goes) one die each, every order that reaches a legal play.

    The taps so far may have been played in more than one way (bearing off from the 3 point with a 4 or a 5):
    all are kept, and what may come next is what any of them allows. A way is kept only when some legal play
    still follows from it (:meth:`_viable`, remembered per position and dice left)."""

    def __init__(self, state: BackgammonState) -> None:
        self.state = state
        self.ready = state.phase == MOVE and state.to_move is not None and bool(state.plays())
        if not self.ready:
            return
        self.colour = state.colour[state.turn]
        self.letter = "XO"[self.colour]
        self.board = state._reading_board(self.colour)
        self.plays = state.plays()
        self.most = len(next(iter(self.plays.values())).steps)
        dice = state.dice * 2 if state.dice[0] == state.dice[1] else state.dice
        self.start: _Way = (tuple(state.points[self.colour]), 0, tuple(sorted(dice)), ())
        self._memo: dict[Hashable, bool] = {}

    def answer(self, taps: tuple[str, ...]) -> TapAnswer:
        if not self.ready:
            if taps:
                raise TapError("There is nothing to move on the board now: use the buttons.")
            return TapAnswer((), (), None, "")
        ways = [self.start]
        pending: int | None = None
        for done, tap in enumerate(taps):
            if pending is None:
                sources = self._sources(ways)
                if tap not in sources:
                    raise TapError(_refusal(tap, taps[:done]))
                pending = sources[tap]
            else:
                after = [w for w in self._moves(ways, pending) if self._tap(w[3][-1].dest) == tap]
                if not after:
                    raise TapError(_refusal(tap, taps[:done]))
                ways, pending = _unique(after), None
        if pending is not None:
            lit = tuple(dict.fromkeys(self._tap(w[3][-1].dest) for w in self._moves(ways, pending)))
            so_far = self._text(ways[0][3])
            return TapAnswer(taps, lit, None, f"{so_far}{',' if so_far else ''}{self.board.name(pending)}-")
        done_way = next((w for w in ways if self._complete(w)), None)
        move = self.state.move_text(self.plays[self._key(done_way)]) if done_way is not None else None
        return TapAnswer(taps, tuple(self._sources(ways)), move, move or self._text(ways[0][3]))

    def _tap(self, pip: int) -> str:
        if pip >= BAR:
            return f"bar:{self.letter}"
        if pip <= OFF:
            return f"tray:{self.letter}"
        return f"point:{self.board.name(pip)}"

    def _text(self, steps: tuple[Step, ...]) -> str:
        return steps_text(self.colour, steps)

    def _sources(self, ways: list[_Way]) -> dict[str, int]:
        """The checkers that may move next (tap -> pip), in board order."""
        found = {w[3][-1].src for w in self._next(ways)}
        return {self._tap(pip): pip for pip in sorted(found, reverse=True)}

    def _moves(self, ways: list[_Way], src: int) -> list[_Way]:
        """The ways on after moving a checker from ``src`` with one die."""
        return [w for w in self._next(ways) if w[3][-1].src == src]

    def _next(self, ways: list[_Way]) -> list[_Way]:
        """Every way one more step on that still leads to a legal play."""
        out: list[_Way] = []
        for me, hits, dice, steps in ways:
            if len(steps) >= self.most:
                continue
            for die in sorted(set(dice), reverse=True):
                left = list(dice)
                left.remove(die)
                for src in range(BAR, OFF, -1):
                    if not me[src] or step_problem(self.board, list(me), src, die) is not None:
                        continue
                    board = list(me)
                    step, now_hits = apply_step(self.board, board, hits, src, die)
                    way = (tuple(board), now_hits, tuple(left), (*steps, step))
                    if self._viable(way):
                        out.append(way)
        return out

    def _key(self, way: _Way) -> int:
        return pack(list(way[0])) | (way[1] << HIT_SHIFT)

    def _complete(self, way: _Way) -> bool:
        return len(way[3]) == self.most and self._key(way) in self.plays

    def _viable(self, way: _Way) -> bool:
        """Whether a legal play still follows from ``way`` (remembered by position, hits, dice left, steps made)."""
        me, hits, dice, steps = way
        memo = (me, hits, dice, len(steps))
        if memo not in self._memo:
            self._memo[memo] = self._complete(way) or any(True for _ in self._next([way]))
        return self._memo[memo]


def _unique(ways: list[_Way]) -> list[_Way]:
    """One way per position and dice left (the steps that led there may differ only in order)."""
    kept: dict[Hashable, _Way] = {}
    for way in ways:
        kept.setdefault((way[0], way[1], way[2]), way)
    return list(kept.values())


class TapCache:
    """Tappers by position key (the caller's: a game and its version), the newest :data:`CACHE_SIZE` kept."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._kept: OrderedDict[Hashable, Tapper] = OrderedDict()

    def tapper(self, key: Hashable, state: GameState) -> Tapper:
        """The tapper of ``state``, built once per ``key``."""
        found = self._kept.get(key)
        if found is None:
            found = self._kept[key] = Tapper(state)
            if len(self._kept) > self.size:
                self._kept.popitem(last=False)
        else:
            self._kept.move_to_end(key)
        return found
