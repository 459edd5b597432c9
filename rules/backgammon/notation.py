"""Reading a player's move text and turning it into the play it means.

Two families of notation are accepted and may be mixed (rules-notes BG-2): pbmserv's comma list (``13-7,8-7``,
``13:6``, ``2x13-10``, ``B-22`` or just ``22`` from the bar, ``3-H`` or just ``3`` to bear off) and the
gnubg/FIBS style (``13/7 8/7``, ``bar/22``, ``6/off``, ``13/7(2)``, ``24/18*/13``). Points are always the
absolute numbers printed on the board, whatever the colour. ``*`` hit marks are optional and not checked.

Reading happens in two stages. :func:`tokenize` is pure syntax: it gives :class:`Segment` items in absolute
points. :func:`interpret` replays them on the mover's board (pips, see :mod:`.movegen`), trying every way the
remaining dice can realise each segment, and returns every distinct resulting position with one step sequence
that reaches it; the caller decides what is legal, maximal or ambiguous.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise, permutations

from rules.backgammon.movegen import BAR, HIT_SHIFT, OFF, Step, pack
from rules.base import IllegalMoveError, MoveSyntaxError

#: absolute point codes for the bar and home (off) in :class:`Segment`
BAR_POINT = "B"
OFF_POINT = "H"

_REPEAT_PREFIX = re.compile(r"^([234])[x*](?=.)")
_REPEAT_SUFFIX = re.compile(r"\(([234])\)$")
_EXPECTED = "a list like 13-7,8-7 or 13/7 8/7, with B for the bar and H for home (off)"


@dataclass(frozen=True)
class Segment:
    """One written movement: ``path`` from ``points[0]`` through the others, ``die`` (``13:3``) or ``lone`` (a single
    point, meaning bar entry or bear-off). ``text`` is the fragment as written, for messages."""

    kind: str
    points: tuple[int | str, ...]
    die: int = 0
    text: str = ""


def _point(raw: str, text: str, label: str) -> int | str:
    """One written point; ``label`` names the item in the message when the text has several."""
    raw = raw.rstrip("*")
    if raw == "b":
        return BAR_POINT
    if raw == "h":
        return OFF_POINT
    if raw.isdigit() and 1 <= int(raw) <= 24:
        return int(raw)
    if not raw:
        reason = "a point is missing: write from-to, like 13-7, or one point from the bar or to bear off"
    elif re.fullmatch(r"\d*[x*]\d*", raw):
        reason = "a repeat count is 2, 3 or 4 before the move, like 2x13-10, or after it, like 13-10(2)"
    else:
        reason = f"{raw!r} is not a point: use 1 to 24, B for the bar or H for home"
    raise MoveSyntaxError(text, f"{label}{reason}", _EXPECTED)


def _item(token: str, text: str, alone: bool) -> list[Segment]:
    """One comma/space separated item, with its repeat count expanded; messages name the item unless ``alone``."""
    label = "" if alone else f"{token}: "
    repeat = 1
    body = token
    if match := _REPEAT_PREFIX.match(body):
        repeat, body = int(match.group(1)), body[match.end() :]
    if match := _REPEAT_SUFFIX.search(body):
        if repeat != 1:
            raise MoveSyntaxError(text, f"{label}give the repeat count once", _EXPECTED)
        repeat, body = int(match.group(1)), body[: match.start()]
    if "(" in body or ")" in body:
        raise MoveSyntaxError(
            text, f"{label}a repeat count in brackets is 2, 3 or 4 after a move, like 13-10(2)", _EXPECTED
        )
    if ":" in body:
        src, _, die = body.partition(":")
        die = die.rstrip("*")
        if not (die.isdigit() and 1 <= int(die) <= 6):
            raise MoveSyntaxError(text, f"{label}after ':' comes the die to use, 1 to 6", _EXPECTED)
        segment = Segment("die", (_point(src, text, label),), int(die), body)
        return [segment] * repeat
    parts = re.split(r"[-/]", body)
    points = tuple(_point(part, text, label) for part in parts)
    if len(points) == 1:
        return [Segment("lone", points, text=body)] * repeat
    segments = [Segment("path", (a, b), text=f"{a}-{b}") for a, b in pairwise(points)]
    return segments * repeat


def tokenize(text: str) -> list[Segment]:
    """Split move text into segments; raises :class:`MoveSyntaxError` for anything that is not notation."""
    cleaned = text.strip().lower().replace("home", "h").replace("off", "h").replace("bar", "b")
    if not cleaned:
        raise MoveSyntaxError(text, "no move given", _EXPECTED)
    if re.search(r"[^0-9bhx*:/\-(),\s]", cleaned):
        raise MoveSyntaxError(text, "this is not backgammon move notation", _EXPECTED)
    tokens = [token for token in re.split(r"[,\s]+", cleaned) if token]
    segments: list[Segment] = []
    for token in tokens:
        segments.extend(_item(token, text, len(tokens) == 1))
    if len(segments) > 4:
        raise MoveSyntaxError(text, "a turn has at most four steps (four only with doubles)", _EXPECTED)
    return segments


# ----------------------------------------------------------------------------------------------------------------
# Interpretation on the board


@dataclass
class Reading:
    """One way the segments can be played: the resulting position key, the steps, and the dice not used."""

    key: int
    steps: tuple[Step, ...]
    dice_left: tuple[int, ...]


class Board:
    """The mover's side of a position for reading: pips of the mover, blocked/blot points, point names."""

    def __init__(self, me: list[int], opp: list[int], absolute: Callable[[int], int], opponent: str) -> None:
        self.me = me
        self.blocked = tuple(0 < pip < 25 and opp[25 - pip] >= 2 for pip in range(26))
        self.blot = tuple(0 < pip < 25 and opp[25 - pip] == 1 for pip in range(26))
        self.absolute = absolute
        self.opponent = opponent

    def name(self, pip: int) -> str:
        """How a pip is written on the board: 1..24, B or H."""
        if pip >= BAR:
            return "B"
        if pip <= OFF:
            return "H"
        return str(self.absolute(pip))


def step_problem(board: Board, me: list[int], src: int, die: int) -> str | None:
    """Why the mover cannot move a checker from pip ``src`` with ``die`` now, or ``None`` if the step is legal."""
    name = board.name
    if src == OFF:
        return "no checker can move from home: a checker borne off stays off"
    if not me[src]:
        return _no_checker(board, src)
    if me[BAR] and src != BAR:
        waiting = "your checker" if me[BAR] == 1 else f"your {me[BAR]} checkers"
        return f"you must bring {waiting} in from the bar first"
    dest = src - die
    if dest > 0:
        if board.blocked[dest]:
            return f"point {name(dest)} is blocked ({board.opponent} has two or more checkers there)"
        return None
    high = max(pip for pip in range(26) if me[pip] and pip > 0)
    if high > 6:
        return "you can bear off only when all 15 of your checkers are in your home board"
    if dest < 0 and src != high:
        return f"a {die} bears off from {name(src)} only when no checker of yours is farther from home"
    return None


def _no_checker(board: Board, src: int) -> str:
    return "you have no checker on the bar" if src == BAR else f"you have no checker on point {board.name(src)}"


def apply_step(board: Board, me: list[int], hits: int, src: int, die: int) -> tuple[Step, int]:
    """Move one checker (the step must be legal); returns the step and the new hit mask."""
    dest = max(src - die, 0)
    hit = dest > 0 and board.blot[dest] and not (hits >> dest) & 1
    me[src] -= 1
    me[dest] += 1
    return Step(src, dest, hit), (hits | (1 << dest)) if hit else hits


def _die_orders(dice: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Distinct ordered selections of the remaining dice, fewest dice first."""
    orders: list[tuple[int, ...]] = []
    for size in range(1, len(dice) + 1):
        orders.extend(sorted(set(permutations(dice, size))))
    return orders


def _without(dice: tuple[int, ...], used: tuple[int, ...]) -> tuple[int, ...]:
    rest = list(dice)
    for die in used:
        rest.remove(die)
    return tuple(rest)


class _Search:
    """Depth-first replay of the segments, remembering the furthest failure for the error message."""

    def __init__(self, board: Board, segments: list[tuple[Segment, int, int]]) -> None:
        self.board = board
        self.segments = segments
        self.readings: dict[int, Reading] = {}
        self.failure: tuple[int, str] = (-1, "")

    def fail(self, index: int, reason: str) -> None:
        if index > self.failure[0]:
            self.failure = (index, reason)

    def label(self, segment: Segment) -> str:
        """The fragment named in a refusal, when the move has several."""
        return f"{segment.text}: " if len(self.segments) > 1 else ""

    def run(self, index: int, me: list[int], hits: int, dice: tuple[int, ...], steps: tuple[Step, ...]) -> None:
        if index == len(self.segments):
            key = pack(me) | (hits << HIT_SHIFT)
            known = self.readings.get(key)
            if known is None or len(known.dice_left) > len(dice):
                self.readings[key] = Reading(key, steps, dice)
            return
        segment, src, dest = self.segments[index]
        label = self.label(segment)
        if segment.kind == "die":
            if not me[src]:
                self.fail(index, f"{label}{_no_checker(self.board, src)}")
                return
            if segment.die not in dice:
                self.fail(index, f"{label}there is no {segment.die} left to play (dice {_dice_text(dice)})")
                return
            orders: list[tuple[int, ...]] = [(segment.die,)]
        else:
            if segment.kind == "lone":
                src, dest = self._lone(me, dest)
                if src < 0:
                    reason = "a lone point means entering from the bar or bearing off, and you have neither to do"
                    self.fail(index, f"{label}{reason}")
                    return
            if problem := self._path_problem(src, dest):
                self.fail(index, f"{label}{problem}")
                return
            if not me[src]:  # said before the dice: a missing checker is the real mistake, whatever the distance
                self.fail(index, f"{label}{_no_checker(self.board, src)}")
                return
            orders = [order for order in _die_orders(dice) if _reaches(order, src - dest, dest == OFF)]
            if not orders:
                distance = src - dest
                left = f"no die or sum of the dice you have left ({_dice_text(dice)})"
                if dest == OFF:
                    reason = f"bearing off from {self.board.name(src)} takes {distance} or more, and {left} is enough"
                else:
                    reason = f"that is a move of {distance}, and {left} makes {distance}"
                self.fail(index, f"{label}{reason}")
                return
        walked_with = 0
        for order in orders:
            if walked_with and len(order) > walked_with:
                break  # a segment one die can play is not read as a detour over several dice
            if self._follow(index, order, me, hits, dice, steps, src):
                walked_with = len(order)

    def _lone(self, me: list[int], pip: int) -> tuple[int, int]:
        """A single written point: entry from the bar when the mover has one there, else a bear-off when all home."""
        if me[BAR]:
            return BAR, pip
        if max(p for p in range(26) if me[p] and p > 0) <= 6:
            return pip, OFF
        return -1, -1

    def _path_problem(self, src: int, dest: int) -> str | None:
        if src == OFF:
            return "no checker can move from home: a checker borne off stays off"
        if dest == BAR:
            return "a checker goes to the bar only when the opponent hits it"
        if dest >= src:
            return "that is the wrong direction for your checkers"
        return None

    def _follow(
        self,
        index: int,
        order: tuple[int, ...],
        me: list[int],
        hits: int,
        dice: tuple[int, ...],
        steps: tuple[Step, ...],
        src: int,
    ) -> bool:
        """Walk one checker from ``src`` with the dice of ``order``, each step checked on the board of its moment,
        then read the rest of the segments; ``False`` if this walk itself is illegal."""
        segment = self.segments[index][0]
        work = list(me)
        at = src
        new_steps = steps
        for die in order:
            if problem := step_problem(self.board, work, at, die):
                self.fail(index, f"{self.label(segment)}{problem}")
                return False
            step, hits = apply_step(self.board, work, hits, at, die)
            new_steps = (*new_steps, step)
            at = step.dest
        self.run(index + 1, work, hits, _without(dice, order), new_steps)
        return True


def _reaches(order: tuple[int, ...], distance: int, bearing_off: bool) -> bool:
    """Whether dice ``order`` cover exactly ``distance``; bearing off, the last die may go beyond."""
    total = sum(order)
    if not bearing_off:
        return total == distance
    return total >= distance and total - order[-1] < distance


def _dice_text(dice: tuple[int, ...]) -> str:
    return "-".join(str(d) for d in dice) if dice else "none"


def interpret(
    board: Board, segments: list[Segment], dice: tuple[int, ...], pip_of: Callable[[int | str], int]
) -> list[Reading]:
    """Every distinct resulting position the segments can mean with ``dice``; raises :class:`IllegalMoveError`
    with the furthest failure's reason when no reading works. ``pip_of`` maps a written point to the mover's pip."""
    resolved = []
    for segment in segments:
        pips = tuple(pip_of(point) for point in segment.points)
        if segment.kind == "path":
            resolved.append((segment, pips[0], pips[1]))
        elif segment.kind == "die":
            resolved.append((segment, pips[0], 0))
        else:
            resolved.append((segment, -1, pips[0]))
    search = _Search(board, resolved)
    search.run(0, list(board.me), 0, tuple(dice), ())
    if not search.readings:
        raise IllegalMoveError("", search.failure[1] or "that cannot be played with these dice")
    return list(search.readings.values())
