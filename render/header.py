"""The header every board picture opens with, and the one grammar of its status line, for all four games.

From the top:

1. **The status line**, the largest text, in the highlight colour, led by the chip of the player it concerns
   (whoever must act, or the winner); wrapped between words, never cut or shrunk. One grammar for every game:

   - running: ``alice to move``, or a game's own verb and what it asks (``alice to play 3-1``,
     ``bob to take or drop: alice doubles to 2``, ``alice to move: a gap move is owed``);
   - won: ``alice wins: <how>`` (``alice wins: gammon, 2 points``; several winners: ``alice and bob win: ...``);
   - drawn: ``Draw: <how>``; cancelled: ``Game cancelled: <why>``.

2. **One row per player**: a turn marker (a highlight arrowhead) before the player to move, only while the game
   runs; the player's chip (their colour, with their letter in capitals: the legend never rests on colour alone);
   their name and rating (``alice (1532)``); the game's facts about them (``pips 167``, ``3 off``); and their clock
   note, always in one place: right-aligned at the row's right edge, or, where the row has no room left, on a line
   of its own under it, still right-aligned (wrapped between words only if wider than the whole row). The note of
   the player to move is in the text colour, the others muted, one with under a day left on a CLOCK_LOW pill.

3. **Lines in words**: the game's facts about the whole board, then the last move (``last: bob played 24-13``),
   muted, wrapped. A short fact (``26 tiles left``) may stand aside, right-aligned on the status line, where it
   fits there.

Every text is at least :func:`render.scene.readable` size for the picture's width. The header is a tagged group
(``kind="header"``) holding ``status``, one ``seat`` per player (``id`` the seat number, ``data-player`` the name)
with its ``clock`` note inside, and ``lines``. A game builds a :class:`Header` and calls :func:`draw`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from render.common import (
    CLOCK_LOW,
    FOREGROUND,
    HIGHLIGHT,
    MUTED,
    Clock,
    Ratings,
    clock_is_low,
    clock_note,
    font,
    ink_on,
    note_icon,
    note_lines,
    note_pad,
    note_width,
    rating_label,
)
from render.scene import Colour, Ellipse, Group, Item, Line, Polygon, Rect, Text, readable
from rules.base import Outcome

#: the status line's size to a row's
STATUS_RATIO = 1.45
#: line pitch to text size
PITCH = 1.45
#: the least room between a row's text and its clock note, in rows' text sizes
NOTE_GAP = 1.0
#: a row's chip, in rows' text sizes: room for its letter at the row's size
CHIP = 1.35


@dataclass(frozen=True)
class Seat:
    """A player as the header shows them: their seat number, name, chip (``letter`` on ``fill`` with a ``rim``;
    ``disc`` for a round chip, as Backgammon's checkers) and the game's facts about them."""

    seat: int
    name: str
    letter: str
    fill: Colour
    rim: Colour
    facts: tuple[str, ...] = ()
    disc: bool = False


@dataclass(frozen=True)
class Status:
    """The status line's text and the seat whose chip leads it (None: no chip)."""

    text: str
    seat: int | None = None

    @classmethod
    def to_move(cls, seat: int, name: str, verb: str = "move", detail: str = "") -> Status:
        """``alice to move``; ``alice to play 3-1``; ``alice to move: a gap move is owed``."""
        return cls(f"{name} to {verb}" + (f": {detail}" if detail else ""), seat)

    @classmethod
    def won(cls, seats: Sequence[int], names: Sequence[str], how: str) -> Status:
        """``alice wins: <how>``, ``alice and bob win: <how>``; the first winner's chip leads."""
        who = " and ".join(names[seat] for seat in seats)
        verb = "wins" if len(seats) == 1 else "win"
        return cls(f"{who} {verb}" + (f": {how}" if how else ""), seats[0])

    @classmethod
    def drawn(cls, how: str) -> Status:
        return cls("Draw" + (f": {how}" if how else ""))

    @classmethod
    def cancelled(cls, why: str) -> Status:
        return cls("Game cancelled" + (f": {why}" if why else ""))

    @classmethod
    def ended(cls, outcome: Outcome, names: Sequence[str], how: str) -> Status:
        """The status of a finished game: won (``how`` the game's words for it), drawn (``how``, or the
        outcome's reason) or cancelled (the reason)."""
        if outcome.cancelled:
            return cls.cancelled(outcome.reason)
        if outcome.winners:
            return cls.won(outcome.winners, names, how)
        return cls.drawn((how or outcome.reason).removeprefix("draw: ").removeprefix("drawn "))


@dataclass(frozen=True)
class Header:
    """What a header shows: the status, the players in seat order, who is to move (None once the game is over)
    and the lines in words under the rows (the game's facts, the last move)."""

    status: Status
    seats: tuple[Seat, ...]
    mover: int | None
    lines: tuple[str, ...] = ()
    #: a short fact about the whole game (``26 tiles left``), right-aligned on the status line where it fits
    #: there, else the first of the lines
    aside: str = ""


def last_move(name: str, words: str) -> str:
    """The last move in words, one grammar for every game: ``last: bob played 24-13``."""
    return f"last: {name} {words}"


@lru_cache(maxsize=4096)
def width_of(text: str, size: int) -> float:
    """Drawn width of ``text`` at ``size`` (the same names and labels are measured on every render)."""
    return font(size).getlength(text)


def wrap(text: str, size: int, room: float) -> list[str]:
    """``text`` broken between words into lines at most ``room`` wide; a word wider than the room alone is cut
    short with "..." (a 32-letter name in a narrow picture), so that nothing runs past the edge."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if line and width_of(candidate, size) > room:
            lines.append(line)
            candidate = word
        line = candidate
    lines.append(line)
    return [_cut(line, size, room) for line in lines]


def _cut(text: str, size: int, room: float) -> str:
    while len(text) > 4 and width_of(text, size) > room:
        text = text[: -4 if text.endswith("...") else -1].rstrip() + "..."
    return text


@dataclass(frozen=True)
class Sizes:
    """The header's measures for a picture ``width`` wide (picture pixels)."""

    row: int
    status: int
    margin: float

    @classmethod
    def for_width(cls, width: int, margin: float, row: int = 0) -> Sizes:
        row = readable(width, row)
        return cls(row, round(row * STATUS_RATIO), margin)


def draw(
    header: Header, width: int, sizes: Sizes, clock: Clock | None, ratings: Ratings | None, top: float = 0.0
) -> tuple[Group, float]:
    """The header as a tagged group for a picture ``width`` wide, starting at ``top``, and the y where it ends."""
    y = top + sizes.margin * 0.6
    status, y, aside = _status(header.status, header.seats, header.aside, width, sizes, y)
    items: list[Item] = [status]
    pitch = sizes.row * PITCH
    y += pitch * 0.15
    for seat in header.seats:
        group, y = _seat(
            seat, header.mover, width, sizes, clock_note(clock, seat.seat), rating_label(ratings, seat.seat), y
        )
        items.append(group)
    lines = header.lines if aside else (header.aside, *header.lines) if header.aside else header.lines
    if lines:
        texts: list[Item] = []
        for line in lines:
            for part in wrap(line, sizes.row, width - 2 * sizes.margin):
                texts.append(Text((sizes.margin, y + pitch / 2), part, sizes.row, MUTED, "lm"))
                y += pitch
        items.append(Group(tuple(texts), "lines"))
    return Group(tuple(items), "header"), y + sizes.margin * 0.3


def _status(
    status: Status, seats: Sequence[Seat], aside: str, width: int, sizes: Sizes, y: float
) -> tuple[Group, float, bool]:
    """The status line(s), led by the chip of the seat concerned, with ``aside`` right-aligned on the last line
    where it fits there; and whether it did."""
    size = sizes.status
    pitch = size * 1.25
    x = sizes.margin
    right = width - sizes.margin
    items: list[Item] = []
    if status.seat is not None:
        concerned = next(seat for seat in seats if seat.seat == status.seat)
        items.append(chip(concerned, x, y + pitch / 2, size * 1.1, round(size * 0.8)))
        x += size * 1.5
    lines = wrap(status.text, size, right - x)
    for line in lines:
        items.append(Text((x, y + pitch / 2), line, size, HIGHLIGHT, "lm"))
        y += pitch
    fits = bool(aside) and x + width_of(lines[-1], size) + sizes.row * 2 + width_of(aside, sizes.row) <= right
    if fits:
        items.append(Group((Text((right, y - pitch / 2), aside, sizes.row, MUTED, "rm"),), "aside"))
    return Group(tuple(items), "status"), y, fits


def chip(seat: Seat, left: float, middle: float, size: float, letter: int) -> Group:
    """A player's chip ``size`` wide, its left edge at ``left`` and its middle at ``middle``: their colour with
    their letter in capitals, ``letter`` pixels, in the ink that reads on it (tagged ``kind="chip"``)."""
    box = (left, middle - size / 2, left + size, middle + size / 2)
    rim = max(1.0, round(size / 10))
    shape: Item = (
        Ellipse(box, seat.fill, seat.rim, rim) if seat.disc else Rect(box, seat.fill, seat.rim, rim, radius=size / 5)
    )
    text = Text((left + size / 2, middle), seat.letter.upper(), letter, ink_on(seat.fill), "mm")
    return Group((shape, text), "chip", seat.letter.upper())


def _seat(
    seat: Seat, mover: int | None, width: int, sizes: Sizes, note: str, rating: str, y: float
) -> tuple[Group, float]:
    """A player's row(s): marker, chip, name, rating and facts flowing over as many lines as they need, and the
    clock note right-aligned on the row, or under it where the row has no room."""
    row = sizes.row
    pitch = row * PITCH
    marker_x = sizes.margin
    chip_x = marker_x + row * 0.8
    text_x = chip_x + row * CHIP + row * 0.45
    right = width - sizes.margin
    items: list[Item] = []
    middle = y + pitch / 2
    if mover == seat.seat:
        half = row * 0.36
        tip = (marker_x + row * 0.55, middle)
        items.append(Polygon(((marker_x, middle - half), tip, (marker_x, middle + half)), HIGHLIGHT))
    items.append(chip(seat, chip_x, middle, row * CHIP, row))
    pieces = [f"{seat.name}{rating}", *seat.facts]
    room = right - text_x
    gap = row * NOTE_GAP
    need = note_width(note, row) + gap if note else 0.0
    one = "  ".join(pieces)
    lines = [one] if width_of(one, row) + need <= room else _flow(pieces, row, room)
    for k, line in enumerate(lines):
        items.append(Text((text_x, middle + k * pitch), line, row, FOREGROUND, "lm"))
    y += pitch * len(lines)
    if note:
        ink = FOREGROUND if mover == seat.seat else MUTED
        end = text_x + width_of(lines[-1], row)
        if end + need <= right:
            at = middle + (len(lines) - 1) * pitch
        else:
            at = y + pitch / 2
            y += pitch * len(note_lines(note, row, room))
        items.append(clock(note, row, right, at, ink, seat.seat, room))
    return Group(tuple(items), "seat", str(seat.seat), (("player", seat.name),)), y


def _flow(pieces: Sequence[str], size: int, room: float) -> list[str]:
    """``pieces`` on as few lines as fit ``room``, two spaces between pieces on a line; a piece too wide for a
    line alone is wrapped between its words."""
    lines: list[str] = []
    line = ""
    for piece in pieces:
        candidate = f"{line}  {piece}" if line else piece
        if width_of(candidate, size) <= room:
            line = candidate
            continue
        if line:
            lines.append(line)
        parts = wrap(piece, size, room)
        lines.extend(parts[:-1])
        line = parts[-1]
    lines.append(line)
    return lines


def clock(note: str, size: int, right: float, middle: float, ink: Colour, seat: int, room: float) -> Group:
    """A clock note right-aligned at ``right``, its first line's middle at ``middle``: led by a small clock face
    so that it reads as time at a glance, in ``ink``, or when under a day is left (:func:`clock_is_low`) in dark
    ink on a CLOCK_LOW pill, which catches the eye on a phone where a colour alone may not. Wrapped between words
    only when wider than ``room``."""
    lines = note_lines(note, size, room)
    low = clock_is_low(note)
    pitch = size * 1.25
    left = right - note_width(lines, size)
    items: list[Item] = []
    if low:
        half = round(size * 0.62)
        box = (left, middle - half, right, middle + half + pitch * (len(lines) - 1))
        items.append(Rect(box, CLOCK_LOW, radius=half * 0.6))
        ink = ink_on(CLOCK_LOW)
        left += note_pad(size)
    diameter, gap = note_icon(size)
    r = diameter / 2
    cx, cy = left + r, middle
    stroke = max(1, round(size / 10))
    items.append(Ellipse((cx - r, cy - r, cx + r, cy + r), None, ink, stroke))
    items.append(Line(((cx, cy - r * 0.62), (cx, cy), (cx + r * 0.5, cy)), ink, stroke))
    for k, line in enumerate(lines):
        items.append(Text((left + diameter + gap, middle + k * pitch), line, size, ink, "lm"))
    return Group(tuple(items), "clock", str(seat))
