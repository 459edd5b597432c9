"""How a colour looks to people with the two common red-green colour blindnesses, and how far apart two colours
look, so that renderers (and their tests) can check that player colours stay told apart.

Simulation: Machado, Oliveira and Fernandes (2009), severity 1.0 (full protanopia, full deuteranopia), applied to
linear-light sRGB. Distance: CIE 1976 Delta E in CIE Lab (D65 white); about 2 is just noticeable, and two
colours at 20 or more read as different colours at a glance.
"""

from __future__ import annotations

from collections.abc import Sequence

Colour = tuple[int, int, int]

#: Machado et al. 2009, severity 1.0, for linear RGB
MACHADO = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
}
VISIONS = ("normal", *MACHADO)


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encoded(linear: float) -> int:
    linear = min(1.0, max(0.0, linear))
    c = linear * 12.92 if linear <= 0.0031308 else 1.055 * linear ** (1 / 2.4) - 0.055
    return round(c * 255)


def simulate(colour: Colour, vision: str) -> Colour:
    """``colour`` as seen with ``vision`` (one of VISIONS)."""
    if vision == "normal":
        return colour
    rgb = [_linear(c) for c in colour]
    r, g, b = (sum(m * c for m, c in zip(row, rgb, strict=True)) for row in MACHADO[vision])
    return (_encoded(r), _encoded(g), _encoded(b))


def lab(colour: Colour) -> tuple[float, float, float]:
    """CIE Lab (D65) of an sRGB colour."""
    r, g, b = (_linear(c) for c in colour)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def delta_e(a: Colour, b: Colour) -> float:
    """CIE76 distance between two sRGB colours."""
    return sum((p - q) ** 2 for p, q in zip(lab(a), lab(b), strict=True)) ** 0.5


def closest_pair(colours: Sequence[Colour]) -> tuple[float, str]:
    """The smallest Delta E between any two of ``colours`` under any of VISIONS, and that vision."""
    worst = (float("inf"), "normal")
    for vision in VISIONS:
        seen = [simulate(c, vision) for c in colours]
        for i, a in enumerate(seen):
            for b in seen[i + 1 :]:
                worst = min(worst, (delta_e(a, b), vision))
    return worst
