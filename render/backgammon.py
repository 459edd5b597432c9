"""The Backgammon board picture: 24 numbered points, stacked checkers, bar, trays, dice, cube, pips, last play.

Points carry the same absolute numbers as the text board and the move notation (13-24 along the top, 12-1 along
the bottom), so what a player reads on the picture is what they type. X's checkers are dark and O's light, so they
differ in lightness on both Discord themes; the board sits on its own opaque panel.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from render.common import (
    BACKGROUND,
    CLOCK_LOW,
    FOREGROUND,
    HIGHLIGHT,
    MUTED,
    PLAYER_COLOURS,
    Clock,
    Ratings,
    centred_text,
    clock_note,
    draw_note,
    font,
    note_lines,
    note_width,
    rating_label,
    to_png,
)
from rules.backgammon import EKS, OHS, BackgammonState, absolute, dice_text
from rules.backgammon.movegen import BAR, OFF

POINT_W = 38
CHECKER = 34
STACK = 5
BAR_W = 44
TRAY_W = 62
MARGIN = 14
CUBE_W = 48
HEADER = 96
LABEL = 22
HALF_H = CHECKER * STACK + 8
MIDDLE = 46
FOOTER = 32

BOARD_X = MARGIN + CUBE_W
BOARD_Y = HEADER + LABEL
BOARD_W = 12 * POINT_W + BAR_W
BOARD_H = 2 * HALF_H + MIDDLE
WIDTH = BOARD_X + BOARD_W + TRAY_W + MARGIN
HEIGHT = BOARD_Y + BOARD_H + LABEL + FOOTER

FELT = (28, 92, 70)
FRAME = (92, 62, 40)
POINT_DARK = (150, 58, 48)
POINT_LIGHT = (214, 190, 142)
#: checker fill and rim per colour: X near-black, O the ivory of the other games; they differ in lightness, which
#: no colour blindness hides, and stay exact in the PNG (passed to to_png, so kept well apart from the panel)
CHECKERS = {EKS: ((22, 24, 30), (160, 165, 175)), OHS: (PLAYER_COLOURS[0][0], (90, 90, 90))}
#: the hit burst: a magenta no colour blindness confuses with the felt, the points, the checkers or the highlight
HIT_MARK = (240, 60, 220)
HIT_INK = (20, 20, 24)
STATUS_SIZE = 26
ROW_SIZE = 16
CUBE_FACE = (245, 240, 220)
DIE_FACE = (250, 250, 250)
DIE_INK = (20, 20, 20)
#: colours only some positions show: a replay's palette holds them even if its sampled frames do not
KEY_COLOURS = (HIT_MARK, HIT_INK, HIGHLIGHT, CUBE_FACE, DIE_FACE, DIE_INK, *CHECKERS[EKS], *CHECKERS[OHS])


def _column(point: int) -> tuple[int, bool]:
    """Left x of a point's triangle and whether it hangs from the top edge."""
    if point >= 13:
        index, top = point - 13, True
    else:
        index, top = 12 - point, False
    x = BOARD_X + index * POINT_W + (BAR_W if index >= 6 else 0)
    return x, top


def _slot_centre(point: int, level: int) -> tuple[int, int]:
    """Centre of the checker at stack ``level`` (0 = at the edge) on ``point``."""
    x, top = _column(point)
    cx = x + POINT_W // 2
    offset = CHECKER // 2 + 4 + level * CHECKER
    cy = BOARD_Y + offset if top else BOARD_Y + BOARD_H - offset
    return cx, cy


def _checker(draw: ImageDraw.ImageDraw, centre: tuple[int, int], colour: int, label: str = "") -> None:
    fill, rim = CHECKERS[colour]
    cx, cy = centre
    r = CHECKER // 2 - 1
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=rim, width=3)
    if label:
        centred_text(draw, centre, label, 18, CHECKERS[1 - colour][0])


def _points(draw: ImageDraw.ImageDraw) -> None:
    for point in range(1, 25):
        x, top = _column(point)
        colour = POINT_DARK if point % 2 else POINT_LIGHT
        tip = BOARD_Y + HALF_H - 6 if top else BOARD_Y + BOARD_H - HALF_H + 6
        base = BOARD_Y if top else BOARD_Y + BOARD_H
        draw.polygon([(x + 2, base), (x + POINT_W - 2, base), (x + POINT_W // 2, tip)], fill=colour)
        label_y = BOARD_Y - LABEL // 2 if top else BOARD_Y + BOARD_H + LABEL // 2
        centred_text(draw, (x + POINT_W // 2, label_y), str(point), 17, FOREGROUND)


def _stacks(draw: ImageDraw.ImageDraw, state: BackgammonState) -> None:
    for point in range(1, 25):
        for colour in (EKS, OHS):
            count = state.points[colour][25 - point if colour == EKS else point]
            for level in range(min(count, STACK)):
                label = str(count) if count > STACK and level == STACK - 1 else ""
                _checker(draw, _slot_centre(point, level), colour, label)


def _bar(draw: ImageDraw.ImageDraw, state: BackgammonState) -> None:
    """Checkers on the bar, up to three per colour, the last labelled with the count when there are more."""
    for colour in (EKS, OHS):
        count = state.points[colour][BAR]
        for level in range(min(count, 3)):
            label = str(count) if count > 1 and level == min(count, 3) - 1 else ""
            _checker(draw, _bar_slot(colour, level), colour, label)


def _bar_slot(colour: int, level: int) -> tuple[int, int]:
    """Centre of the ``level``-th checker of ``colour`` on the bar: X's in the top half, O's in the bottom."""
    offset = CHECKER // 2 + 40 + level * CHECKER
    cy = BOARD_Y + offset if colour == EKS else BOARD_Y + BOARD_H - offset
    return BOARD_X + 6 * POINT_W + BAR_W // 2, cy


def _trays(draw: ImageDraw.ImageDraw, state: BackgammonState) -> None:
    """Borne-off checkers as thin slabs: X's tray at the top right (X leaves past 24), O's at the bottom right."""
    left = BOARD_X + BOARD_W + 8
    for colour, top in ((EKS, True), (OHS, False)):
        y0 = BOARD_Y if top else BOARD_Y + BOARD_H - HALF_H
        fill, rim = CHECKERS[colour]
        count = state.points[colour][OFF]
        for index in range(count):
            y = y0 + 6 + index * 11 if top else y0 + HALF_H - 14 - index * 11
            draw.rectangle((left + 6, y, left + TRAY_W - 20, y + 8), fill=fill, outline=rim)
        label_y = y0 + HALF_H + 14 if top else y0 - 14
        name = "X" if colour == EKS else "O"
        centred_text(draw, (left + (TRAY_W - 14) // 2, label_y), f"{name} off {count}", 14, FOREGROUND)


def _die(draw: ImageDraw.ImageDraw, left: int, top: int, value: int) -> None:
    size = 40
    draw.rounded_rectangle((left, top, left + size, top + size), radius=7, fill=DIE_FACE, outline=DIE_INK)
    spots = {
        1: [(1, 1)],
        2: [(0, 0), (2, 2)],
        3: [(0, 0), (1, 1), (2, 2)],
        4: [(0, 0), (2, 0), (0, 2), (2, 2)],
        5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
        6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
    }[value]
    for col, row in spots:
        cx, cy = left + 9 + col * 11, top + 9 + row * 11
        draw.ellipse((cx - 4, cy - 4, cx + 4, cy + 4), fill=DIE_INK)


def _dice_and_cube(draw: ImageDraw.ImageDraw, state: BackgammonState) -> None:
    centre_y = BOARD_Y + BOARD_H // 2
    if state.dice and not state.is_over:
        right_half = BOARD_X + 6 * POINT_W + BAR_W + 3 * POINT_W
        for index, value in enumerate(state.dice):
            _die(draw, right_half - 46 + index * 52, centre_y - 20, value)
    cube_y = {None: centre_y, EKS: BOARD_Y + 30, OHS: BOARD_Y + BOARD_H - 30}[
        None if state.cube_owner is None else state.colour[state.cube_owner]
    ]
    cube_x = MARGIN + CUBE_W // 2 - 6
    draw.rounded_rectangle((cube_x - 20, cube_y - 20, cube_x + 20, cube_y + 20), radius=6, fill=CUBE_FACE)
    centred_text(draw, (cube_x, cube_y), str(state.cube), 20, (20, 20, 20))


def _last_play(draw: ImageDraw.ImageDraw, state: BackgammonState) -> None:
    """Show where the last play started (a dashed ghost checker) and ended (a ring round the checker); points a
    checker only passed through are not marked. Drawn after the stacks so the rings sit on top."""
    last = state.last
    if not last or last.get("kind") != "play":
        return
    colour = int(last["colour"])
    sources = Counter(src for src, _dest, _hit in last["steps"])
    targets = Counter(dest for _src, dest, _hit in last["steps"])
    started, ended = sources - targets, targets - sources
    side = state.points[colour]
    r = CHECKER // 2 - 1
    for pip, moved in started.items():
        if pip == BAR:
            continue
        point = absolute(colour, pip)
        for level in range(side[pip], min(side[pip] + moved, STACK)):
            cx, cy = _slot_centre(point, level)
            for start in range(0, 360, 30):
                draw.arc((cx - r, cy - r, cx + r, cy + r), start, start + 15, fill=HIGHLIGHT, width=3)
    for pip, moved in ended.items():
        if pip == OFF:
            continue
        point = absolute(colour, pip)
        for level in range(max(side[pip] - moved, 0), min(side[pip], STACK)):
            cx, cy = _slot_centre(point, level)
            draw.ellipse((cx - r - 2, cy - r - 2, cx + r + 2, cy + r + 2), outline=HIGHLIGHT, width=3)


def _hit_points(state: BackgammonState) -> list[int]:
    """The points (absolute numbers) where the last play hit a checker, in the order of its steps."""
    last = state.last
    if not last or last.get("kind") != "play":
        return []
    colour = int(last["colour"])
    return [absolute(colour, dest) for _src, dest, hit in last["steps"] if hit]


def _hit_bursts(draw: ImageDraw.ImageDraw, state: BackgammonState) -> None:
    """A spiky burst on each point where the last play hit, drawn under the stacks: the hitting checker stands on
    it unmarked (a mark on the checker itself read as that checker being taken)."""
    for point in _hit_points(state):
        cx, cy = _slot_centre(point, 0)
        spikes = []
        for k in range(24):
            radius = CHECKER * 0.86 if k % 2 == 0 else CHECKER * 0.56
            angle = math.pi * k / 12
            spikes.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
        draw.polygon(spikes, fill=HIT_MARK, outline=HIT_INK, width=2)


def _hit_arrows(draw: ImageDraw.ImageDraw, state: BackgammonState) -> None:
    """An arrow from each hit point to the hit checker waiting on the bar: shape and direction, not colour alone,
    tell what happened."""
    points = _hit_points(state)
    if not points:
        return
    victim = 1 - int(state.last["colour"])
    on_bar = state.points[victim][BAR]
    for index, point in enumerate(points):
        start = _slot_centre(point, 0)
        level = min(index, 2, max(on_bar - 1, 0))
        end = _bar_slot(victim, level)
        _arrow(draw, start, end)


def _arrow(draw: ImageDraw.ImageDraw, start: tuple[int, int], end: tuple[int, int]) -> None:
    """A dark-edged arrow from just outside the checker at ``start`` to just outside the one at ``end``."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0)
    if length < CHECKER:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    gap = CHECKER / 2 + 2
    x0, y0, x1, y1 = x0 + ux * gap, y0 + uy * gap, x1 - ux * gap, y1 - uy * gap
    head = [(x1, y1), (x1 - 14 * ux + 8 * uy, y1 - 14 * uy - 8 * ux), (x1 - 14 * ux - 8 * uy, y1 - 14 * uy + 8 * ux)]
    shaft_end = (x1 - 10 * ux, y1 - 10 * uy)
    draw.line(((x0, y0), shaft_end), fill=HIT_INK, width=7)
    draw.polygon(head, fill=HIT_INK, outline=HIT_INK, width=3)
    draw.line(((x0, y0), shaft_end), fill=HIT_MARK, width=3)
    draw.polygon(head, fill=HIT_MARK)


@lru_cache(maxsize=4096)
def _width(text: str, size: int) -> int:
    """Drawn width of ``text`` at ``size``: measuring glyphs costs about as much as drawing them, and the same
    names and labels are measured on every render."""
    left, _top, right, _bottom = font(size).getbbox(text)
    return int(right - left)


def _fit(draw: ImageDraw.ImageDraw | None, text: str, size: int, width: int, smallest: int = 12) -> tuple[str, int]:
    """``text`` and a font size at which it fits ``width`` pixels: smaller type first (down to ``smallest``),
    then cut short with "..." (long player names must never run into the other texts)."""
    while size > smallest and _width(text, size) > width:
        size -= 1
    while len(text) > 4 and _width(text, size) > width:
        text = text[: -4 if text.endswith("...") else -1].rstrip() + "..."
    return text, size


def _texts(
    draw: ImageDraw.ImageDraw, state: BackgammonState, clock: Clock | None = None, ratings: Ratings | None = None
) -> None:
    """Header: what is asked now (or the result) in large type behind the disc of the player concerned, the most
    visible thing above the board; then one row per colour (disc, name, pips, modes; the player concerned marked
    with an arrowhead) with the cube's value and owner at the right, and with a clock each row's note in a column
    just left of the cube's; footer: the last play (or the opening roll)."""
    concerned = _concerned(state)
    left = MARGIN
    if concerned is not None:
        fill, rim = CHECKERS[concerned]
        draw.ellipse((MARGIN, 20 - 12, MARGIN + 24, 20 + 12), fill=fill, outline=rim, width=3)
        left += 34
    status, size = _fit(draw, _status(state), STATUS_SIZE, WIDTH - MARGIN - left, smallest=ROW_SIZE + 4)
    draw.text((left, 20), status, font=font(size), fill=HIGHLIGHT, anchor="lm")
    cube = _cube_text(state)
    draw.text((WIDTH - MARGIN, 52), cube, font=font(ROW_SIZE), fill=MUTED, anchor="rm")
    rows = header_rows(state, clock, ratings)
    if rows is None:
        _rows(draw, state, concerned, _row_room(state), ratings)
    else:
        _draw_rows(draw, state, concerned, rows)
    footer = _last_text(state)
    if footer:
        footer, size = _fit(draw, footer, 16, WIDTH - 2 * MARGIN)
        draw.text((MARGIN, HEIGHT - FOOTER // 2), footer, font=font(size), fill=MUTED, anchor="lm")


def _row_parts(state: BackgammonState, colour: int, ratings: Ratings | None = None) -> tuple[str, str, str]:
    """A colour's row: its letter, its player's name, and what follows the name (their rating, the pips and
    modes), which is never cut short."""
    seat = state.seat_of_colour(colour)
    modes = [mode for mode, flags in (("greedy", state.greedy), ("manual", state.manual)) if flags[seat]]
    extra = f"   [{', '.join(modes)}]" if modes else ""
    return f"{'XO'[colour]}: ", state.players[seat], f"{rating_label(ratings, seat)}   pips {state.pips(colour)}{extra}"


def _row_marks(draw: ImageDraw.ImageDraw, colour: int, concerned: int | None, y: float) -> None:
    """A row's disc, and the arrowhead when the row's player is the one concerned."""
    fill, rim = CHECKERS[colour]
    if colour == concerned:
        draw.polygon([(MARGIN, y - 7), (MARGIN + 9, y), (MARGIN, y + 7)], fill=HIGHLIGHT)
    draw.ellipse((MARGIN + 14, y - 9, MARGIN + 32, y + 9), fill=fill, outline=rim, width=2)


def _rows(
    draw: ImageDraw.ImageDraw, state: BackgammonState, concerned: int | None, room: int, ratings: Ratings | None
) -> None:
    """The two rows without a clock: long names cut short with "...", both rows in one size."""
    rows = []
    for colour in (EKS, OHS):
        letter, name, rest = _row_parts(state, colour, ratings)
        player, _ = _fit(draw, name, ROW_SIZE, room // 2)
        rows.append(_fit(draw, f"{letter}{player}{rest}", ROW_SIZE, room))
    size = min(row_size for _text, row_size in rows)  # both rows in one size
    for row, (colour, (text, _size)) in enumerate(zip((EKS, OHS), rows, strict=True)):
        y = 52 + row * 24
        _row_marks(draw, colour, concerned, y)
        draw.text((MARGIN + 40, y), _fit(draw, text, size, room)[0], font=font(size), fill=FOREGROUND, anchor="lm")


#: room kept between a row's text and its clock note; the least room a long note leaves a row's name
NOTE_GAP = 16
NAME_KEEP = (90, 40, 0)


class Row(NamedTuple):
    """A colour's header row with a clock: its middle, its text and size, and its note's lines (more than one
    only for a long note), their left end and size."""

    colour: int
    y: float
    text: str
    size: int
    note: list[str]
    note_x: int
    note_size: int


def _cube_text(state: BackgammonState) -> str:
    owner = "centred" if state.cube_owner is None else f"owned by {'XO'[state.colour[state.cube_owner]]}"
    return f"cube {state.cube} ({owner})"


def _row_room(state: BackgammonState) -> int:
    """The room for a row's text (and note): from after its disc to a gap before the cube's text."""
    return WIDTH - 2 * MARGIN - 40 - _width(_cube_text(state), ROW_SIZE) - 16


def header_rows(state: BackgammonState, clock: Clock | None, ratings: Ratings | None = None) -> list[Row] | None:
    """The two rows with each player's clock note in a column after the longer row; None without a note. The
    pips and modes are never cut: a long note takes room from the names first (cut short with "..."), then gets
    smaller type (down to 12), then two lines (the rows move apart a little), so that it is never cut either."""
    notes = {colour: clock_note(clock, state.seat_of_colour(colour)) for colour in (EKS, OHS)}
    if not any(notes.values()):
        return None
    room = _row_room(state)
    parts = {colour: _row_parts(state, colour, ratings) for colour in (EKS, OHS)}
    fixed = max(_width(letter + rest, ROW_SIZE) for letter, _name, rest in parts.values())
    for keep in NAME_KEEP:
        note_room = room - NOTE_GAP - fixed - keep
        size = ROW_SIZE
        while size > 12 and max(note_width(note, size) for note in notes.values() if note) > note_room:
            size -= 1
        lines = {colour: note_lines(note, size, note_room) if note else [] for colour, note in notes.items()}
        if max(map(len, lines.values())) <= 2:
            break
    row_room = room - max(note_width(part, size) for part in lines.values() if part) - NOTE_GAP
    texts = {}
    for colour, (letter, name, rest) in parts.items():
        player, _ = _fit(None, name, ROW_SIZE, min(room // 2, row_room - _width(letter + rest, ROW_SIZE)), ROW_SIZE)
        texts[colour] = _fit(None, f"{letter}{player}{rest}", ROW_SIZE, row_room)
    row_size = min(text_size for _text, text_size in texts.values())
    fitted = {colour: _fit(None, text, row_size, row_room)[0] for colour, (text, _) in texts.items()}
    note_x = MARGIN + 40 + max(_width(text, row_size) for text in fitted.values()) + NOTE_GAP
    ys = (48, 76) if max(map(len, lines.values())) > 1 else (52, 76)
    return [
        Row(colour, y, fitted[colour], row_size, lines[colour], note_x, size)
        for colour, y in zip((EKS, OHS), ys, strict=True)
    ]


def _draw_rows(draw: ImageDraw.ImageDraw, state: BackgammonState, concerned: int | None, rows: list[Row]) -> None:
    """The rows with their clock notes (the mover's note in the text colour, the other muted, one with under a
    day left on a CLOCK_LOW pill)."""
    for row in rows:
        _row_marks(draw, row.colour, concerned, row.y)
        draw.text((MARGIN + 40, row.y), row.text, font=font(row.size), fill=FOREGROUND, anchor="lm")
        if row.note:
            ink = FOREGROUND if state.seat_of_colour(row.colour) == state.to_move else MUTED
            first = row.y - (len(row.note) - 1) * row.note_size / 2
            draw_note(draw, (row.note_x, first), row.note, row.note_size, ink, "lm", row.note_size)


def _concerned(state: BackgammonState) -> int | None:
    """The colour the status line is about: the winner once the game is won, else whoever must act now; none
    for a cancelled game."""
    outcome = state.outcome()
    if outcome is not None:
        return state.colour[outcome.winners[0]] if outcome.winners else None
    seat = state.to_move
    return None if seat is None else state.colour[seat]


def _status(state: BackgammonState) -> str:
    outcome = state.outcome()
    if outcome is not None and not outcome.winners:  # cancelled (declined in the first round): nobody won
        return f"Game cancelled: {outcome.reason}" if outcome.cancelled else f"Game over: {outcome.reason}"
    if outcome is not None:
        unit = "point" if outcome.points == 1 else "points"
        return f"{state.players[outcome.winners[0]]} wins {outcome.points} {unit}"
    seat = state.turn
    if state.phase == "answer":
        return f"{state.players[1 - seat]} to take or drop: {state.players[seat]} doubles to {state.cube * 2}"
    if state.phase == "decide":
        return f"{state.players[seat]} to roll or double"
    return f"{state.players[seat]} to play {dice_text(state.dice)}"


def _last_text(state: BackgammonState) -> str:
    last = state.last
    if not last:
        first, second = state.opening[-1]
        o_player = state.players[state.seat_of_colour(OHS)]
        return f"opening roll: {state.players[0]} {first}, {state.players[1]} {second}: {o_player} plays O and starts"
    colour = int(last["colour"])
    who = state.players[state.seat_of_colour(colour)]
    if last.get("kind") == "skip":
        return f"last: {who} could not move with {dice_text(last['dice'])}"
    steps = ",".join(
        f"{'B' if s == BAR else absolute(colour, s)}-{'H' if d == OFF else absolute(colour, d)}{'*' if h else ''}"
        for s, d, h in last["steps"]
    )
    return f"last: {who} rolled {dice_text(last['dice'])} and played {steps}"


def render_image(state: BackgammonState, clock: Clock | None = None, ratings: Ratings | None = None) -> Image.Image:
    """The board as a Pillow RGB image (render_png encodes it; replays draw their frames from it); ``clock`` and
    ``ratings`` as for :func:`render.board_png`."""
    image = _empty_board().copy()
    draw = ImageDraw.Draw(image)
    _bar(draw, state)
    _trays(draw, state)
    _hit_bursts(draw, state)
    _stacks(draw, state)
    _last_play(draw, state)
    _hit_arrows(draw, state)
    _dice_and_cube(draw, state)
    _texts(draw, state, clock, ratings)
    return image


@lru_cache(maxsize=1)
def _empty_board() -> Image.Image:
    """What every position shares (panel, frame, felt, the numbered points, the bar, the trays), drawn once:
    its two dozen labels were a third of a render."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((BOARD_X - 6, BOARD_Y - 6, BOARD_X + BOARD_W + 5, BOARD_Y + BOARD_H + 5), fill=FRAME)
    draw.rectangle((BOARD_X, BOARD_Y, BOARD_X + BOARD_W - 1, BOARD_Y + BOARD_H), fill=FELT)
    _points(draw)
    left = BOARD_X + 6 * POINT_W
    draw.rectangle((left, BOARD_Y, left + BAR_W - 1, BOARD_Y + BOARD_H), fill=FRAME)
    centred_text(draw, (left + BAR_W // 2, BOARD_Y + BOARD_H // 2), "BAR", 14, MUTED)
    tray = BOARD_X + BOARD_W + 8
    for y0 in (BOARD_Y, BOARD_Y + BOARD_H - HALF_H):
        draw.rectangle((tray, y0, tray + TRAY_W - 14, y0 + HALF_H), fill=FRAME)
    return image


def render_png(state: BackgammonState, clock: Clock | None = None, ratings: Ratings | None = None) -> bytes:
    """The board as PNG bytes, ready to attach to a message."""
    return to_png(
        render_image(state, clock, ratings), [*(colour for pair in CHECKERS.values() for colour in pair), CLOCK_LOW]
    )
