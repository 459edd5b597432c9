"""Player colours stay told apart by people with the two common red-green colour blindnesses and with the
blue-yellow one (tritanopia), from each other, from the marks drawn over them and from the boards they stand on.

Simulation: Machado, Oliveira and Fernandes (2009), severity 1.0 (full deuteranopia, protanopia and tritanopia),
applied to linear-light sRGB; distance: CIE 1976 Delta E in CIE Lab (D65). About 2 is just noticeable; 20 and more reads
as a different colour at a glance. The matrices live here, beside the checks, so a renderer cannot quietly
weaken the test it is judged by. Colour is also never the only cue: the pictures carry each player's letter.
"""

from __future__ import annotations

import itertools

import pytest
from PIL import Image, ImageDraw

from render import backgammon, dragons, drogo, drogo_3d
from render.common import BACKGROUND, HIGHLIGHT, PLAYER_COLOURS, seat_chip
from render.druid import iso
from render.druid.words import GROUND

Colour = tuple[int, int, int]

MACHADO: dict[str, tuple[tuple[float, float, float], ...]] = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def seen_lab(colour: Colour, vision: str) -> tuple[float, float, float]:
    """CIE Lab of ``colour`` as someone with ``vision`` sees it."""
    rgb = [linear(c) for c in colour]
    r, g, b = (min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True)))) for row in MACHADO[vision])
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def delta_e(a: Colour, b: Colour, vision: str) -> float:
    return sum((p - q) ** 2 for p, q in zip(seen_lab(a, vision), seen_lab(b, vision), strict=True)) ** 0.5


def closest_pair(colours: list[Colour]) -> tuple[float, str]:
    """The smallest Delta E between any two of ``colours`` under any vision, and that vision (other pictures'
    tests judge their colours with it)."""
    return min((delta_e(a, b, vision), vision) for vision in MACHADO for a, b in itertools.combinations(colours, 2))


def test_the_simulation_merges_what_it_should() -> None:
    """The matrices are the right way round: a red and an olive far apart in normal vision collapse for the
    deficiency they confuse (protanopes also see red darker, so their olive is darker), not for tritanopia; the
    blue and the teal of Drogo's third and fourth players before issue 27 collapse under tritanopia (Delta E 12);
    blue against yellow and red against teal stay clear for all four."""
    red = (200, 60, 40)
    for vision, olive in (("deuteranopia", (110, 130, 40)), ("protanopia", (110, 90, 40))):
        assert delta_e(red, olive, "normal") > 40
        assert delta_e(red, olive, vision) < 8
    assert delta_e(red, (110, 130, 40), "tritanopia") > 25
    blue, teal = (64, 120, 214), (20, 150, 170)
    assert delta_e(blue, teal, "normal") > 40 and delta_e(blue, teal, "tritanopia") < 15
    assert all(delta_e((40, 80, 220), (230, 210, 40), vision) > 60 for vision in MACHADO)
    assert all(delta_e(red, teal, vision) > 40 for vision in MACHADO)


@pytest.mark.parametrize("vision", list(MACHADO))
def test_every_pair_of_player_colours_stays_apart(vision: str) -> None:
    """Four players' fills, pair by pair, at least 20 apart as seen: the old red/green pair fell to 16, and the
    old blue/teal pair to 12 under tritanopia."""
    fills = [fill for fill, _ in PLAYER_COLOURS]
    close = [
        (a, b, round(delta_e(a, b, vision))) for a, b in itertools.combinations(fills, 2) if delta_e(a, b, vision) <= 20
    ]
    assert close == []


@pytest.mark.parametrize("vision", list(MACHADO))
def test_marks_and_pieces_stand_off_the_panel(vision: str) -> None:
    """The highlight (last move, winning path) differs from every player's fill, and every fill from the panel."""
    for fill, _ in PLAYER_COLOURS:
        assert delta_e(fill, HIGHLIGHT, vision) > 20, fill
        assert delta_e(fill, BACKGROUND, vision) > 20, fill


#: per board: the colours of the pieces standing on it, and the colours of the board around them (Druid's board
#: is judged by its own tests)
BOARDS: dict[str, tuple[list[Colour], list[Colour]]] = {
    "backgammon": (
        [fill for fill, _rim in backgammon.CHECKERS.values()],
        [backgammon.FELT, backgammon.POINT_DARK, backgammon.POINT_LIGHT, backgammon.FRAME],
    ),
    "dragons": ([fill for fill, _ in PLAYER_COLOURS[:2]], [dragons.TILE_FILL]),
    "drogo": ([fill for fill, _ in PLAYER_COLOURS], [drogo.EMPTY]),
    "drogo 3d": ([fill for fill, _ in PLAYER_COLOURS], [drogo_3d.GROUND]),
}


@pytest.mark.parametrize("vision", list(MACHADO))
@pytest.mark.parametrize("board", list(BOARDS))
def test_each_piece_stands_off_its_board(board: str, vision: str) -> None:
    """Checkers on the felt and the points, bands on their tiles, Drogo's cubes beside empty cells and on the
    ground of the 3D view: more than 20 apart as seen."""
    pieces, surfaces = BOARDS[board]
    close = [
        (piece, surface, round(delta_e(piece, surface, vision)))
        for piece in pieces
        for surface in surfaces
        if delta_e(piece, surface, vision) <= 20
    ]
    assert close == []


@pytest.mark.parametrize("seat", range(len(PLAYER_COLOURS)))
def test_a_seat_chip_carries_its_letter_in_a_contrasting_ink(seat: int) -> None:
    """Legend chips do not rest on colour alone: the letter inside is drawn dark on light fills, light on dark."""
    image = Image.new("RGB", (40, 40), BACKGROUND)
    seat_chip(ImageDraw.Draw(image), (4, 4, 36, 36), seat, "X")
    fill = PLAYER_COLOURS[seat][0]
    inner = image.crop((8, 8, 32, 32)).convert("L")
    light = sum(fill) / 3 > 140
    extreme = [v for v in inner.get_flattened_data() if (v < 60 if light else v > 220)]
    assert len(extreme) >= 20


@pytest.mark.parametrize("vision", list(MACHADO))
def test_druid_pieces_stand_off_their_board(vision: str) -> None:
    """Druid's bare ground against every player's colour at least 25 apart (the red once sank into the olive
    ground, Delta E 14.8 under protanopia), and against their stones' lit and shaded sides in the 3D view at least
    15 apart."""
    close = []
    for fill, _ in PLAYER_COLOURS:
        if delta_e(fill, GROUND, vision) < 25:
            close.append((fill, round(delta_e(fill, GROUND, vision), 1)))
        for normal in ((0.0, -1.0), (1.0, 0.0)):
            factor = iso._face_light(normal)
            shade = (int(fill[0] * factor), int(fill[1] * factor), int(fill[2] * factor))
            if delta_e(shade, GROUND, vision) < 15:
                close.append((shade, round(delta_e(shade, GROUND, vision), 1)))
    assert close == []
