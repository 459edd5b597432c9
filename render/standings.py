"""A tournament's standings as a picture: a table readable on a phone, drawn as a scene (:mod:`render.scene`).

From the top: the title (``Tournament 3``) in large highlight type, the line under it (what the tournament plays and
where it stands), wrapped; the column headings, short (``Buch.``, ``SB``, ``H2H``; a legend under the table spells
them out); one row per player, striped, the rank right-aligned, the name cut with ``…`` when it does not fit, the
points and tie-breaks right-aligned; a player who withdrew in muted type with ``(out)`` after the name (never by
colour alone). At most :data:`MAX_ROWS` rows; a line says how many more there are.

The picture is :data:`WIDTH` pixels wide and as tall as its rows need (portrait); every text is at least
:func:`render.scene.readable` size for that width, 11 pixels on a phone. The table is a group tagged
``kind="standings"``, each row ``kind="row"`` with ``id`` its rank and ``data-player`` the name, so a web page can
make them tappable. Pure data in, a scene out: it knows nothing of tournaments but the texts it is given.
"""

from __future__ import annotations

from collections.abc import Sequence

from render.common import BACKGROUND, FOREGROUND, HIGHLIGHT, MUTED, font, wrap_text
from render.scene import Group, Item, Rect, Scene, Text, readable

#: the picture's width; its height follows the rows
WIDTH = 600
#: the most rows drawn (the rest are counted on a line under the table)
MAX_ROWS = 100
#: line pitch to text size, and the margins in text sizes
PITCH = 1.6
MARGIN = 1.0
#: the stripe behind every other row
STRIPE = (48, 52, 61)
#: short headings for the columns the standings name (the legend spells out those it shortens)
SHORT = {"Buchholz": "Buch.", "Sonneborn-Berger": "SB", "head-to-head": "H2H", "round reached": "reached"}
#: what follows a withdrawn player's name
OUT = " (out)"


def drawable(text: str) -> str:
    """``text`` in characters the picture's font has: a half point (``3½``, ``½``) as a decimal (``3.5``, ``0.5``),
    the font having no ``½``."""
    if "½" not in text:
        return text
    return "".join(
        f"{'0' if k == 0 or not text[k - 1].isdigit() else ''}.5" if c == "½" else c for k, c in enumerate(text)
    )


def _width(text: str, size: int) -> float:
    return font(size).getlength(text)


def _fit(text: str, size: int, room: float) -> str:
    """``text`` cut with ``…`` to fit ``room`` pixels."""
    if _width(text, size) <= room:
        return text
    while text and _width(text + "…", size) > room:
        text = text[:-1]
    return text + "…"


def standings_scene(
    title: str,
    subtitle: str,
    columns: Sequence[str],
    rows: Sequence[tuple[Sequence[str], bool]],
) -> Scene:
    """The standings picture: ``columns`` are the headings (the second is the player's name, left-aligned; the
    others right-aligned); each row is its cells in the same order and whether its player withdrew."""
    size = readable(WIDTH)
    big = round(size * 1.5)
    margin = round(size * MARGIN)
    pitch = round(size * PITCH)
    items: list[Item] = [Text((margin, margin), title, big, HIGHLIGHT, "la")]
    y = margin + round(big * 1.4)
    for line in wrap_text(subtitle, size, WIDTH - 2 * margin):
        items.append(Text((margin, y), line, size, MUTED, "la"))
        y += pitch
    y += round(size * 0.5)
    headings = [SHORT.get(c, c) for c in columns]
    shown = [([drawable(text) for text in cells], out) for cells, out in rows[:MAX_ROWS]]
    gap = round(size * 0.9)
    widths = [
        max([_width(headings[k], size), *(_width(cells[k], size) for cells, _ in shown)]) for k in range(len(columns))
    ]
    name_room = WIDTH - 2 * margin - sum(w for k, w in enumerate(widths) if k != 1) - gap * (len(columns) - 1)
    widths[1] = max(name_room, size * 4)
    lefts = [margin + sum(widths[:k]) + gap * k for k in range(len(columns))]

    def cell(k: int, text: str, top: float, colour: tuple[int, int, int], suffix: str = "") -> Text:
        if k == 1:
            name = _fit(text, size, widths[k] - _width(suffix, size)) + suffix
            return Text((lefts[k], top + pitch / 2), name, size, colour, "lm")
        return Text((lefts[k] + widths[k], top + pitch / 2), text, size, colour, "rm")

    table: list[Item] = [Group(tuple(cell(k, h, y, MUTED) for k, h in enumerate(headings)), kind="headings")]
    y += pitch
    for index, (cells, out) in enumerate(shown):
        colour = MUTED if out else FOREGROUND
        texts: list[Item] = []
        if index % 2 == 0:
            texts.append(Rect((margin // 2, y, WIDTH - margin // 2, y + pitch - 1), STRIPE, radius=size // 4))
        texts += [cell(k, text, y, colour, OUT if out and k == 1 else "") for k, text in enumerate(cells)]
        data = (("player", cells[1]),)
        table.append(Group(tuple(texts), kind="row", id=str(cells[0]), data=data))
        y += pitch
    items.append(Group(tuple(table), kind="standings"))
    if len(rows) > len(shown):
        items.append(Text((margin, y + pitch / 2), f"and {len(rows) - len(shown)} more", size, MUTED, "lm"))
        y += pitch
    legend = [f"{SHORT[c]}: {c}" for c in columns if c in SHORT and SHORT[c] != c]
    if legend:
        y += round(size * 0.4)
        for line in wrap_text(", ".join(legend), size, WIDTH - 2 * margin):
            items.append(Text((margin, y + pitch / 2), line, size, MUTED, "lm"))
            y += pitch
    height = max(WIDTH // 2, round(y + margin))
    return Scene(WIDTH, height, BACKGROUND, tuple(items))


def standings_png(
    title: str, subtitle: str, columns: Sequence[str], rows: Sequence[tuple[Sequence[str], bool]]
) -> bytes:
    """The standings picture as PNG bytes (:func:`standings_scene`)."""
    from render.png import png

    return png(standings_scene(title, subtitle, columns, rows))
