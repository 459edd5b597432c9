"""What Druid's two pictures share besides the board's geometry: their colours, and what they say in words through
the shared header (render.header): the status, a row per player (their letter, their goal, their druid in Druid's
Walk) and the lines under the rows (how to read the picture, the last move)."""

from __future__ import annotations

from render import header as head
from render.common import PLAYER_COLOURS
from render.scene import Colour
from rules.druid import HEX, SIDE_NAMES, SQUARE, YBOARD, DruidState

#: bare ground: a pale lawn green that every player's colour stands off by Delta E 25 or more (and their stones'
#: shaded sides in the 3D view by 15 or more), also as seen with each colour vision deficiency
#: (tests/test_colour_vision.py); the old dark olive let red sink into it under protanopia (14.8)
GROUND = (144, 180, 132)
GRID = (98, 124, 90)
#: the shared sides' strips: two-player hex's two triples of sides, and the Y's three sides
SHARED_SIDES = ((214, 214, 218), (160, 160, 166))


def seat_colours(seat: int) -> tuple[Colour, Colour]:
    """A seat's fill and rim (outline) colours."""
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def side_colour(state: DruidState, owner: int | None, side: str) -> Colour:
    """A goal side's colour: its owner's (``owner`` from render.druid.geometry.goal_sides), else a grey: two-player
    hex's triples NW, E, SW and NE, SE, W in two, the Y's three sides in one."""
    if owner is not None:
        return seat_colours(owner)[0]
    if state.board.kind == HEX:
        return SHARED_SIDES[0] if side in state.goals[0][0] else SHARED_SIDES[1]
    return SHARED_SIDES[0]


def header(state: DruidState, lines: tuple[str, ...] = ()) -> head.Header:
    """The shared header: status, a row per player, then ``lines`` (what the picture needs explained) and the last
    move in words."""
    seats = tuple(
        head.Seat(seat, name, state.colours[seat], *seat_colours(seat), facts(state, seat))
        for seat, name in enumerate(state.players)
    )
    last = last_text(state)
    return head.Header(status(state), seats, state.to_move, (*lines, *((last,) if last else ())))


def status(state: DruidState) -> head.Status:
    """``alice to move``; ``alice wins: joined top and bottom``; ``Draw: all players passed in succession``."""
    outcome = state.outcome()
    if outcome is None:
        return head.Status.to_move(state.turn, state.players[state.turn])
    how = outcome.reason
    if outcome.winners:
        colour = state.colours[outcome.winners[0]]
        how = how.replace(f"{colour}'s druid", "the druid").removeprefix(f"{colour} ")
    return head.Status.ended(outcome, state.players, how)


def goal(state: DruidState, seat: int) -> str:
    """What ``seat`` must join, in the board's words: ``joins bottom and top rows``, ``joins NE and SW sides``."""
    if state.board.kind == YBOARD:
        return "joins all three sides"
    if len(state.goals[seat]) > 1:
        return "joins NW, E and SW or NE, SE and W sides"
    sides = state.goals[seat][0]
    if state.board.kind == SQUARE:
        kind = "rows" if sides[0] in ("bottom", "top") else "columns"
        return f"joins {sides[0]} and {sides[1]} {kind}"
    return f"joins {' and '.join(sides)} sides"


def facts(state: DruidState, seat: int) -> tuple[str, ...]:
    """A player's facts in their header row: their goal (Walk: where their druid is and must go), resigned."""
    out = [goal(state, seat)]
    if state.walk:
        cell, target = state.druids[seat], state.targets[seat]
        if cell is None or target is None:
            edges = " or ".join(SIDE_NAMES[side] for side in state.goals[seat][0])
            out = [f"druid not on the board yet (it comes on the {edges})"]
        else:
            out = [f"druid on {state.board.names[cell].upper()}, to the {SIDE_NAMES[target]} (starred)"]
    if seat in state.resigned:
        out.append(state.out_reason(seat))
    return tuple(out)


def last_text(state: DruidState) -> str:
    """The last move in words (``last: bob laid a lintel C3-E3 at level 2``), or "" before the first."""
    last = state.last
    kind = last.get("kind")
    if kind is None:
        return ""
    who = state.players[last["seat"]]
    if kind == "pass":
        return head.last_move(who, "passed")
    if kind == "swap":  # the swapper took the first seat: the players have changed places
        return head.last_move(state.players[0], f"swapped and now plays {state.colours[0]}")
    if kind == "step":
        start, end = last["druid"]
        return head.last_move(who, f"stepped the druid from {start.upper()} to {end.upper()}")
    stone = state.stones[last["stone"]]
    names = [state.board.names[cell].upper() for cell in stone.cells]
    what = f"a sarsen on {names[0]}" if stone.kind == "s" else f"a lintel {names[0]}-{names[-1]}"
    verb = "placed" if stone.kind == "s" else "laid"
    appears = "; the druid appears there" if last.get("druid") else ""
    return head.last_move(who, f"{verb} {what} at level {stone.level}{appears}")
