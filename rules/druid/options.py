"""Druid's challenge options (board shape and size, Walk, -nostack, -nogaps), their cross-checks, and the help
and notation texts players read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.base import Option, OptionError
from rules.druid.board import HEX, SQUARE, YBOARD

#: per board shape: default size and the accepted range; the -size help text is written from it
SIZES = {SQUARE: (10, 3, 26), HEX: (5, 3, 13), YBOARD: (8, 3, 26)}
_SHAPE_WORDS = {SQUARE: "square", HEX: "hex", YBOARD: "Y"}

OPTIONS = (
    Option(
        "size",
        int,
        None,
        "cells along each edge",
        minimum=min(low for _, low, _ in SIZES.values()),
        maximum=max(high for _, _, high in SIZES.values()),
        ranges="; ".join(f"{_SHAPE_WORDS[k]} {low}..{high}, default {d}" for k, (d, low, high) in SIZES.items()),
    ),
    Option("hex", bool, False, "play Druid's Hex on a hex-hex board (two or three players)"),
    Option("walk", bool, False, "Druid's Walk: race a druid across instead of joining sides"),
    Option("nostack", bool, False, "a sarsen may not go directly on another sarsen"),
    Option("nogaps", bool, False, "lintels must rest on three stones (no gap under the middle)"),
    Option("y", bool, False, "play Druid's Y on a triangular board", conflicts=("hex", "walk")),
)


def board_kind(options: Mapping[str, Any]) -> str:
    if options.get("hex"):
        return HEX
    return YBOARD if options.get("y") else SQUARE


def validate(options: dict[str, Any], nplayers: int) -> dict[str, Any]:
    """Cross-option rules: three players only on the hex board, no Walk on two-player hex, size per shape."""
    kind = board_kind(options)
    default, low, high = SIZES[kind]
    out = dict(options)
    if out.get("size") is None:
        out["size"] = default
    elif not low <= out["size"] <= high:
        raise OptionError(f"option -size={out['size']} is out of range for the {kind} board ({low}..{high})")
    if nplayers == 3 and kind != HEX:
        raise OptionError("option -hex is needed for three players: only Druid's Hex takes a third player")
    if out.get("walk") and kind == HEX and nplayers == 2:
        raise OptionError("option -walk cannot be used in two-player Druid's Hex (three players only)")
    return out


HELP = """\
**Druid** is a connection game built in three dimensions. On your turn you add one stone of your colour: a \
**sarsen** (a one-cell cube) or a **lintel** (a beam three cells long). Only the stone on top of each cell \
counts, so building over your opponent's path cuts it.

A sarsen stands on bare ground or on top of your own colour. A lintel lies flat one level above its two end \
cells, which must be equally high; the cell in between may be lower, leaving a gap, but never higher. Of the \
stones right under the lintel exactly two must be yours, so a lintel never touches the ground and cannot be \
piled on three of your own units.

On the square board V moves first and links the top row to the bottom row, H links the left and right \
columns. Cells touching side by side connect, whatever their heights.

`-hex`: hexagonal board. With two players, link three sides that are not next to each other; with three \
players, each links their own pair of opposite sides. `-y`: triangular board, link all three sides.

`-walk` (square, or three-player hex): your first stone on one of your edges brings your druid onto it. From \
then on you may either place a stone or step the druid to a neighbouring cell topped by your colour. Nothing \
may be built on a druid. The first druid to reach its far edge wins; connections alone do not.

`-nostack` forbids a sarsen directly on a sarsen; `-nogaps` makes lintels rest on three stones.

The second player may `swap` instead of moving: the two players trade seats and the opening stone. You may \
`pass`; when everyone passes in a row the game is a draw.
"""

NOTATION = """\
`c3` puts a sarsen on C3 (column letter, row number; A1 is bottom left on the square board; on hex and Y \
boards rows count up from each column's bottom cell).
`b2-b4` lays a lintel over B2, B3, B4 (ends two cells apart in a line).
`n` moves your druid one step in Walk: `n s e w` on the square board, `n ne se s sw nw` on hex. A turn is \
one action, so a stone and a step together (`c3,a4`) are refused.
`swap` (second move only), `pass` or `--`.
"""
