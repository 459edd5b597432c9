"""Druid's text board: the top stone of every cell beside every cell's height, hex and Y columns staggered by half
a row as on the board, druids of Walk starred, and a legend that says what the letters and numbers mean.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.druid.board import SIDE_NAMES, SQUARE

if TYPE_CHECKING:
    from rules.druid.state import DruidState


def text_board(state: DruidState) -> str:
    """The position as two grids side by side, top stones (druids starred) and heights, over a legend."""
    grids = [_star_druids(state, _grid(state, state.owner_glyph)), _grid(state, state.height_glyph)]
    lines = [f"{left}       {right}" for left, right in zip(*grids, strict=True)]
    lines.append("")
    lines.append(_legend(state))
    return "\n".join(line.rstrip() for line in lines)


def _grid(state: DruidState, glyph: Any) -> list[str]:
    """One summary as text lines; hex and Y columns are staggered by half a row, as on the board."""
    board = state.board
    letters = "".join(f"{chr(65 + c):<2}" for c in range(board.ncols)).rstrip()
    if board.kind == SQUARE:
        n = board.size
        width = len(str(n))
        rows = []
        for row in range(n, 0, -1):
            cells = " ".join(glyph(board.index[f"{chr(97 + c)}{row}"]) for c in range(n))
            rows.append(f"{row:>{width}}  {cells}  {row:<{width}}")
        pad = " " * (width + 2)
        lines = [f"{pad}{letters}", *rows, f"{pad}{letters}"]
        longest = max(map(len, lines))
        return [line.ljust(longest) for line in lines]
    top = max(board.y2)
    canvas = [[" "] * (2 * board.ncols) for _ in range(top + 2)]
    for cell in range(board.ncells):
        canvas[1 + top - board.y2[cell]][2 * board.col[cell]] = glyph(cell)
    for column in range(board.ncols):
        # the number of each column's top row, just above that cell: the half-row there is always free
        last = max((i for i in range(board.ncells) if board.col[i] == column), key=lambda i: board.row[i])
        for k, digit in enumerate(str(board.row[last])):
            canvas[top - board.y2[last]][2 * column + k] = digit
    pad = "   "
    lines = [f"{pad}{letters}", *(pad + "".join(line) for line in canvas), f"{pad}{letters}"]
    width = max(map(len, lines))
    return [line.ljust(width) for line in lines]


def _star_druids(state: DruidState, lines: list[str]) -> list[str]:
    """Walk: each druid's cell shown between stars, like *v* (the help marks druids so)."""
    board = state.board
    for cell in state.druids:
        if cell is None:
            continue
        if board.kind == SQUARE:
            y, x = 1 + board.size - board.row[cell], len(str(board.size)) + 2 + 2 * board.col[cell]
        else:
            y, x = 2 + max(board.y2) - board.y2[cell], 3 + 2 * board.col[cell]
        chars = list(lines[y])
        for k in (x - 1, x + 1):
            if chars[k] == " ":
                chars[k] = "*"
        lines[y] = "".join(chars)
    return lines


def _legend(state: DruidState) -> str:
    parts = [f"{state.colours[s].lower()} = {state.players[s]}" for s in range(len(state.players))]
    text = "Left: top stone of each cell (" + ", ".join(parts) + "). Right: height."
    if state.board.kind != SQUARE:
        text += " Rows count up from each column's bottom cell; the number over a column is its top row."
    if state.options.get("nostack"):
        text += " Capitals are sarsen tops: -nostack lets no sarsen go on them."
    if any(cell is not None for cell in state.druids):
        text += f" Stars mark a druid, as in *{state.colours[0].lower()}*."
    if state.walk:
        for seat, cell in enumerate(state.druids):
            target = state.targets[seat]
            where = (
                "not on the board yet"
                if cell is None or target is None
                else f"on {state.board.names[cell].upper()}, heading for the {SIDE_NAMES[target]}"
            )
            text += f"\nDruid {state.colours[seat]}: {where}"
    return text
