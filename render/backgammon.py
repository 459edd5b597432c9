"""The Backgammon board picture: 24 numbered points, stacked checkers, bar, trays, dice, cube, pips, last play.

Points carry the same absolute numbers as the text board and the move notation (13-24 along the top, 12-1 along
the bottom), so what a player reads on the picture is what they type. X's checkers are dark and O's light, so they
differ in lightness on both Discord themes; the board sits on its own opaque panel. The shared header
(render.header) opens the picture: the status (with a match game's place in its match beside it), one row per
player (their match score in a match, pips, checkers borne off, the cube when they
own it, their modes, their clock) and the last play in words. The cube lies on the bar: in its middle while
centred, at its owner's end once taken, and in the middle, outlined and showing the value offered, while a double
waits for an answer.

Drawn as a scene (render.scene): the panel, frame, felt, numbered points, bar and trays are its static groups;
every point is tagged ``kind="point"`` with its number, its checkers ``kind="checkers"``, and the bar, the trays,
the cube and the dice are tagged too.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import NamedTuple

from PIL import Image

from render import header as head
from render import png
from render.common import BACKGROUND, CLOCK_LOW, FOREGROUND, HIGHLIGHT, PLAYER_COLOURS, Clock, Ratings
from render.scene import Arc, Ellipse, Group, Item, Line, Polygon, Rect, Scene, Text
from rules.backgammon import EKS, OHS, BackgammonState, absolute, dice_text
from rules.backgammon.movegen import BAR, OFF

POINT_W = 38
CHECKER = 34
STACK = 5
BAR_W = 44
TRAY_W = 62
MARGIN = 14
LABEL = 26
HALF_H = CHECKER * STACK + 8
MIDDLE = 46
BOTTOM = MARGIN
CUBE = 36

BOARD_X = MARGIN
BOARD_W = 12 * POINT_W + BAR_W
BOARD_H = 2 * HALF_H + MIDDLE
WIDTH = BOARD_X + BOARD_W + TRAY_W + MARGIN
#: the board's height below the header: point numbers, the board, point numbers, the bottom margin
BELOW = LABEL + BOARD_H + LABEL + BOTTOM

FELT = (28, 92, 70)
FRAME = (92, 62, 40)
POINT_DARK = (150, 58, 48)
POINT_LIGHT = (214, 190, 142)
#: checker fill and rim per colour: X near-black, O the ivory of the other games; they differ in lightness, which
#: no colour blindness hides, and stay exact in the PNG (kept well apart from the panel)
CHECKERS = {EKS: ((22, 24, 30), (160, 165, 175)), OHS: (PLAYER_COLOURS[0][0], (90, 90, 90))}
#: the hit burst: a magenta no colour blindness confuses with the felt, the points, the checkers or the highlight
HIT_MARK = (240, 60, 220)
HIT_INK = (20, 20, 24)
CUBE_FACE = (245, 240, 220)
CUBE_INK = (20, 20, 20)
DIE_FACE = (250, 250, 250)
DIE_INK = (20, 20, 20)
#: text on the board: point numbers, counts on checkers, the cube's value
LABEL_SIZE = 18
#: colours only some positions show: a replay's palette holds them even if its sampled frames do not
KEY_COLOURS = (HIT_MARK, HIT_INK, HIGHLIGHT, CUBE_FACE, DIE_FACE, DIE_INK, *CHECKERS[EKS], *CHECKERS[OHS])
#: colours the PNG keeps to the unit
EXACT = (*(colour for pair in CHECKERS.values() for colour in pair), CLOCK_LOW)


class Geometry(NamedTuple):
    """Where the board's parts are, for a board whose felt starts ``top`` pixels down (below the header)."""

    top: float

    def column(self, point: int) -> tuple[int, bool]:
        """Left x of a point's triangle and whether it hangs from the top edge."""
        if point >= 13:
            index, top = point - 13, True
        else:
            index, top = 12 - point, False
        return BOARD_X + index * POINT_W + (BAR_W if index >= 6 else 0), top

    def slot_centre(self, point: int, level: int) -> tuple[float, float]:
        """Centre of the checker at stack ``level`` (0 = at the edge) on ``point``."""
        x, top = self.column(point)
        offset = CHECKER // 2 + 4 + level * CHECKER
        return x + POINT_W // 2, self.top + offset if top else self.top + BOARD_H - offset

    def bar_slot(self, colour: int, level: int) -> tuple[float, float]:
        """Centre of the ``level``-th checker of ``colour`` on the bar: X's in the top half, O's in the bottom."""
        offset = CHECKER // 2 + 40 + level * CHECKER
        return BAR_X + BAR_W // 2, self.top + offset if colour == EKS else self.top + BOARD_H - offset

    def cube_centre(self, owner: int | None) -> tuple[float, float]:
        """The cube's centre on the bar: the middle, or the end of its owner's half (colour ``owner``)."""
        x = BAR_X + BAR_W / 2
        if owner is None:
            return x, self.top + BOARD_H / 2
        return x, self.top + 2 + CUBE / 2 if owner == EKS else self.top + BOARD_H - 2 - CUBE / 2


BAR_X = BOARD_X + 6 * POINT_W
TRAY_X = BOARD_X + BOARD_W + 8


def scene(
    state: BackgammonState, clock: Clock | None = None, ratings: Ratings | None = None, board_top: float = 0.0
) -> Scene:
    """The board as a scene, its felt at ``board_top`` or lower (a replay keeps it in one place); ``clock`` and
    ``ratings`` as for :func:`render.board_png`."""
    top, where = layout(state, clock, ratings, board_top)
    items: list[Item] = [_board(where.top), top]
    items += [_trays(state, where), _hit_bursts(state, where), _stacks(state, where)]
    items += [_last_play(state, where), _hit_arrows(state, where), _bar(state, where), _cube(state, where)]
    items.append(_dice(state, where))
    height = round(where.top + BOARD_H + LABEL + BOTTOM)
    return Scene(WIDTH, height, BACKGROUND, tuple(items), exact=EXACT)


def layout(
    state: BackgammonState, clock: Clock | None = None, ratings: Ratings | None = None, board_top: float = 0.0
) -> tuple[Group, Geometry]:
    """The header as drawn for this picture, and where the board goes below it (at ``board_top`` or lower)."""
    group, bottom = head.draw(header(state), WIDTH, head.Sizes.for_width(WIDTH, MARGIN), clock, ratings)
    return group, Geometry(max(math.ceil(bottom) + LABEL, board_top))


def render_image(state: BackgammonState, clock: Clock | None = None, ratings: Ratings | None = None) -> Image.Image:
    """The board as a Pillow RGB image; ``clock`` and ``ratings`` as for :func:`render.board_png`."""
    return png.raster(scene(state, clock, ratings))


def replay_images(states: Sequence[BackgammonState]) -> Iterator[Image.Image]:
    """The boards of a replay, each with the board at the same height (the lowest any frame's header needs), so
    that a frame changes only where the game did and a GIF stores only that."""
    board_top = max(layout(state)[1].top for state in states)
    for state in states:
        yield png.raster(scene(state, board_top=board_top))


def render_png(state: BackgammonState, clock: Clock | None = None, ratings: Ratings | None = None) -> bytes:
    """The board as PNG bytes, ready to attach to a message."""
    return png.png(scene(state, clock, ratings))


# ---- the board ------------------------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _board(top: float) -> Group:
    """What every position shares (panel, frame, felt, the numbered points, the bar, the trays): static."""
    where = Geometry(top)
    items: list[Item] = [
        Rect((BOARD_X - 6, top - 6, BOARD_X + BOARD_W + 5, top + BOARD_H + 5), FRAME),
        Rect((BOARD_X, top, BOARD_X + BOARD_W - 1, top + BOARD_H), FELT),
    ]
    for point in range(1, 25):
        x, at_top = where.column(point)
        colour = POINT_DARK if point % 2 else POINT_LIGHT
        tip = top + HALF_H - 6 if at_top else top + BOARD_H - HALF_H + 6
        base = top if at_top else top + BOARD_H
        label_y = top - LABEL / 2 if at_top else top + BOARD_H + LABEL / 2
        triangle = Polygon(((x + 2, base), (x + POINT_W - 2, base), (x + POINT_W // 2, tip)), colour)
        number = Text((x + POINT_W // 2, label_y), str(point), LABEL_SIZE, FOREGROUND, "mm")
        items.append(Group((triangle, number), "point", str(point)))
    items.append(Group((Rect((BAR_X, top, BAR_X + BAR_W - 1, top + BOARD_H), FRAME),), "bar"))
    for name, y0 in (("X", top), ("O", top + BOARD_H - HALF_H)):
        items.append(Group((Rect((TRAY_X, y0, TRAY_X + TRAY_W - 14, y0 + HALF_H), FRAME),), "tray", name))
    return Group(tuple(items), "board", static=True)


def _checker(centre: tuple[float, float], colour: int, label: str = "") -> list[Item]:
    fill, rim = CHECKERS[colour]
    cx, cy = centre
    r = CHECKER // 2 - 1
    items: list[Item] = [Ellipse((cx - r, cy - r, cx + r, cy + r), fill, rim, 3)]
    if label:
        items.append(Text(centre, label, LABEL_SIZE, CHECKERS[1 - colour][0], "mm"))
    return items


def _stacks(state: BackgammonState, where: Geometry) -> Group:
    """Each point's checkers, up to five, the fifth labelled with the count when there are more."""
    groups: list[Item] = []
    for point in range(1, 25):
        for colour in (EKS, OHS):
            count = state.points[colour][25 - point if colour == EKS else point]
            if not count:
                continue
            items: list[Item] = []
            for level in range(min(count, STACK)):
                label = str(count) if count > STACK and level == STACK - 1 else ""
                items += _checker(where.slot_centre(point, level), colour, label)
            groups.append(
                Group(tuple(items), "checkers", str(point), (("colour", "XO"[colour]), ("count", str(count))))
            )
    return Group(tuple(groups))


def _bar(state: BackgammonState, where: Geometry) -> Group:
    """Checkers on the bar, up to three per colour, the last labelled with the count when there are more than
    one. Drawn over the hit arrows, so that an arrow's head never covers the count."""
    groups: list[Item] = []
    for colour in (EKS, OHS):
        count = state.points[colour][BAR]
        items: list[Item] = []
        for level in range(min(count, 3)):
            label = str(count) if count > 1 and level == min(count, 3) - 1 else ""
            items += _checker(where.bar_slot(colour, level), colour, label)
        if items:
            groups.append(Group(tuple(items), "bar", "XO"[colour], (("count", str(count)),)))
    return Group(tuple(groups))


def _trays(state: BackgammonState, where: Geometry) -> Group:
    """Borne-off checkers as thin slabs: X's tray at the top right (X leaves past 24), O's at the bottom right;
    their counts are in the header."""
    groups: list[Item] = []
    for colour, at_top in ((EKS, True), (OHS, False)):
        y0 = where.top if at_top else where.top + BOARD_H - HALF_H
        fill, rim = CHECKERS[colour]
        count = state.points[colour][OFF]
        slabs: list[Item] = []
        for index in range(count):
            y = y0 + 6 + index * 11 if at_top else y0 + HALF_H - 14 - index * 11
            slabs.append(Rect((TRAY_X + 6, y, TRAY_X + TRAY_W - 20, y + 8), fill, rim))
        if slabs:
            groups.append(Group(tuple(slabs), "off", "XO"[colour], (("count", str(count)),)))
    return Group(tuple(groups))


SPOTS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


def _dice(state: BackgammonState, where: Geometry) -> Group:
    """The dice to play, in the right half's middle, while a play is due."""
    if not state.dice or state.is_over:
        return Group(())
    centre_y = where.top + BOARD_H // 2
    right_half = BAR_X + BAR_W + 3 * POINT_W
    items: list[Item] = []
    for index, value in enumerate(state.dice):
        left, top = right_half - 46 + index * 52, centre_y - 20
        items.append(Rect((left, top, left + 40, top + 40), DIE_FACE, DIE_INK, radius=7))
        for col, row in SPOTS[value]:
            cx, cy = left + 9 + col * 11, top + 9 + row * 11
            items.append(Ellipse((cx - 4, cy - 4, cx + 4, cy + 4), DIE_INK))
    return Group(tuple(items), "dice", dice_text(state.dice))


def _cube(state: BackgammonState, where: Geometry) -> Group:
    """The cube on the bar: centred, at its owner's end, or, offered, in the middle with the value offered and
    a highlight outline (the status line says who doubles)."""
    offered = state.phase == "answer" and not state.is_over
    owner = None if state.cube_owner is None or offered else state.colour[state.cube_owner]
    x, y = where.cube_centre(owner)
    value = state.cube * 2 if offered else state.cube
    half = CUBE / 2
    outline = HIGHLIGHT if offered else None
    face = Rect((x - half, y - half, x + half, y + half), CUBE_FACE, outline, 3, radius=6)
    text = Text((x, y), str(value), 20 if value < 10 else LABEL_SIZE, CUBE_INK, "mm")
    state_word = "offered" if offered else "centred" if owner is None else f"owned by {'XO'[owner]}"
    return Group((face, text), "cube", str(value), (("state", state_word),))


# ---- the last play ----------------------------------------------------------------------------------------------


def _last_play(state: BackgammonState, where: Geometry) -> Group:
    """Where the last play started (a dashed ring) and ended (a full ring round the checker); points a checker
    only passed through are not marked. On a point showing its count (more than five), the marks go round the
    fifth checker, the one with the count. Drawn after the stacks so the rings sit on top."""
    last = state.last
    if not last or last.get("kind") != "play":
        return Group(())
    colour = int(last["colour"])
    sources = Counter(src for src, _dest, _hit in last["steps"])
    targets = Counter(dest for _src, dest, _hit in last["steps"])
    started, ended = sources - targets, targets - sources
    side = state.points[colour]
    r = CHECKER // 2 - 1
    items: list[Item] = []
    for pip, moved in started.items():
        if pip == BAR:
            continue
        point = absolute(colour, pip)
        for level in _levels(side[pip], side[pip] + moved):
            cx, cy = where.slot_centre(point, level)
            items += [Arc((cx, cy), r - 1.5, start, start + 15, HIGHLIGHT, 3) for start in range(0, 360, 30)]
    for pip, moved in ended.items():
        if pip == OFF:
            continue
        point = absolute(colour, pip)
        for level in _levels(max(side[pip] - moved, 0), side[pip]):
            cx, cy = where.slot_centre(point, level)
            items.append(Ellipse((cx - r - 2, cy - r - 2, cx + r + 2, cy + r + 2), None, HIGHLIGHT, 3))
    return Group(tuple(items), "last-play")


def _levels(first: int, end: int) -> range:
    """The stack levels to mark for checkers at levels ``first`` to ``end - 1``: those drawn, and the fifth (the
    one that carries the count) for any beyond it."""
    if first >= STACK:
        return range(STACK - 1, STACK)
    return range(first, min(end, STACK))


def _hit_points(state: BackgammonState) -> list[int]:
    """The points (absolute numbers) where the last play hit a checker, in the order of its steps."""
    last = state.last
    if not last or last.get("kind") != "play":
        return []
    colour = int(last["colour"])
    return [absolute(colour, dest) for _src, dest, hit in last["steps"] if hit]


def _hit_bursts(state: BackgammonState, where: Geometry) -> Group:
    """A spiky burst on each point where the last play hit, drawn under the stacks: the hitting checker stands on
    it unmarked (a mark on the checker itself read as that checker being taken)."""
    items: list[Item] = []
    for point in _hit_points(state):
        cx, cy = where.slot_centre(point, 0)
        spikes = []
        for k in range(24):
            radius = CHECKER * 0.86 if k % 2 == 0 else CHECKER * 0.56
            angle = math.pi * k / 12
            spikes.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
        items.append(Polygon(tuple(spikes), HIT_MARK, HIT_INK, 2))
    return Group(tuple(items), "hit") if items else Group(())


def _hit_arrows(state: BackgammonState, where: Geometry) -> Group:
    """An arrow from each hit point to the nearest of the hit checkers waiting on the bar: shape and direction,
    not colour alone, tell what happened. The bar's checkers are drawn over them."""
    points = _hit_points(state)
    if not points:
        return Group(())
    victim = 1 - int(state.last["colour"])
    shown = max(1, min(state.points[victim][BAR], 3))
    items: list[Item] = []
    for point in points:
        start = where.slot_centre(point, 0)
        slots = [where.bar_slot(victim, level) for level in range(shown)]
        end = min(slots, key=lambda slot: math.dist(slot, start))
        items += _arrow(start, end)
    return Group(tuple(items), "hit-arrows")


def _arrow(start: tuple[float, float], end: tuple[float, float]) -> list[Item]:
    """A dark-edged arrow from just outside the checker at ``start`` to just outside the one at ``end``."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0)
    if length < CHECKER:
        return []
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    gap = CHECKER / 2 + 2
    x0, y0, x1, y1 = x0 + ux * gap, y0 + uy * gap, x1 - ux * gap, y1 - uy * gap
    head_points = (
        (x1, y1),
        (x1 - 14 * ux + 8 * uy, y1 - 14 * uy - 8 * ux),
        (x1 - 14 * ux - 8 * uy, y1 - 14 * uy + 8 * ux),
    )
    shaft = ((x0, y0), (x1 - 10 * ux, y1 - 10 * uy))
    return [
        Line(shaft, HIT_INK, 7),
        Polygon(head_points, HIT_INK, HIT_INK, 3),
        Line(shaft, HIT_MARK, 3),
        Polygon(head_points, HIT_MARK),
    ]


# ---- the header -------------------------------------------------------------------------------------------------


def header(state: BackgammonState) -> head.Header:
    """The shared header: status, a row per colour (X first), the opening roll or the last play in words."""
    seats = [_seat(state, state.seat_of_colour(colour)) for colour in (EKS, OHS)]
    mover = None if state.is_over else state.to_move
    return head.Header(status(state), tuple(seats), mover, (last_text(state),), aside=match_aside(state))


def match_aside(state: BackgammonState) -> str:
    """A match game's place in its match, beside the status: ``match to 5, game 3`` (``, Crawford`` in the
    Crawford game); each player's score is among their facts. Empty in a money game."""
    match = state.match
    if match is None:
        return ""
    return f"match to {match.length}, game {match.game}" + (", Crawford" if match.crawford else "")


def match_score(state: BackgammonState, seat: int) -> int | None:
    """A player's match score as the picture shows it: before this game while it runs, after it once it is over."""
    if state.match is None:
        return None
    end = state.match_end()
    return (state.match.score if end is None else end.score)[seat]


def _seat(state: BackgammonState, seat: int) -> head.Seat:
    colour = state.colour[seat]
    score = match_score(state, seat)
    facts = [] if score is None else [f"score {score}"]
    facts.append(f"pips {state.pips(colour)}")
    off = state.points[colour][OFF]
    if off:
        facts.append(f"{off} off")
    if state.cube_owner == seat:
        facts.append(f"cube {state.cube}")
    modes = [mode for mode, flags in (("greedy", state.greedy), ("manual", state.manual)) if flags[seat]]
    if modes:
        facts.append(f"[{', '.join(modes)}]")
    fill, rim = CHECKERS[colour]
    return head.Seat(seat, state.players[seat], "XO"[colour], fill, rim, tuple(facts), disc=True)


def status(state: BackgammonState) -> head.Status:
    """What is asked now, or the result: ``alice to play 3-1``, ``bob to roll or double``, ``alice to take or
    drop: bob doubles to 2``, ``alice wins: gammon, 2 points``."""
    outcome = state.outcome()
    if outcome is not None:
        return head.Status.ended(outcome, state.players, _how(state) if outcome.winners else "")
    seat = state.turn
    if state.phase == "answer":
        doubler = f"{state.players[seat]} doubles to {state.cube * 2}"
        return head.Status.to_move(1 - seat, state.players[1 - seat], "take or drop", doubler)
    if state.phase == "decide":
        return head.Status.to_move(seat, state.players[seat], "roll or double")
    return head.Status.to_move(seat, state.players[seat], f"play {dice_text(state.dice)}")


def _how(state: BackgammonState) -> str:
    """How a won game was won, with its points: ``gammon, 4 points (cube at 2)`` when the winner bore off, else
    what ended it (``bob refused the double, 2 points``, ``bob resigned, 1 point``)."""
    outcome = state.outcome()
    assert outcome is not None and outcome.winners
    winner = state.colour[outcome.winners[0]]
    points = f"{outcome.points} point{'s' if outcome.points != 1 else ''}"
    if state.points[winner][OFF] == 15:
        loser = state.points[1 - winner]
        kind = "backgammon" if any(loser[19:26]) else "gammon" if loser[OFF] == 0 else "single game"
        cube = f" (cube at {state.cube})" if state.cube > 1 else ""
        return f"{kind}, {points}{cube}"
    return f"{outcome.reason.split(': ')[0]}, {points}"


def last_text(state: BackgammonState) -> str:
    """The last play in words, or before any the opening roll and why its player starts."""
    last = state.last
    if not last:
        first, second = state.opening[-1]
        o_player = state.players[state.seat_of_colour(OHS)]
        rolls = f"opening roll: {state.players[0]} {first}, {state.players[1]} {second}"
        if state.options.get("force"):
            return f"{rolls}; -force: {o_player}, named first, plays O and starts"
        return f"{rolls}: {o_player} rolled higher, plays O and starts"
    colour = int(last["colour"])
    who = state.players[state.seat_of_colour(colour)]
    if last.get("kind") == "skip":
        return head.last_move(who, f"could not move with {dice_text(last['dice'])}")
    steps = ",".join(
        f"{'B' if s == BAR else absolute(colour, s)}-{'H' if d == OFF else absolute(colour, d)}{'*' if h else ''}"
        for s, d, h in last["steps"]
    )
    return head.last_move(who, f"rolled {dice_text(last['dice'])} and played {steps}")
