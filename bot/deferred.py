"""Modules a console command imports without ever using them, executed on first use instead of at start-up.

``pbm do`` is one process per command, so every module imported is paid on every move. Two imports on its path
are never used by it: :mod:`dataclasses` imports :mod:`inspect` (and with it ``ast``, ``dis`` and ``tokenize``,
about a fifth of our own start-up) only to describe a class that has no docstring, and Pillow imports its EXIF and
TIFF tag tables (a few hundred enum members) and its palette file readers only to read and write image files. Within
:func:`deferred`, importing one of these gives a lazy module (:class:`importlib.util.LazyLoader`, the standard
library's tool for start-up time): it is executed the first time anything reads an attribute of it, so code that
does use it works exactly as before. ``tests/test_console_imports.py`` checks that a show and a move never do.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec
    from types import ModuleType

#: imported at start-up by modules a console command needs, used by none of its code (Pillow's palette module
#: imports the readers of three palette file formats)
UNUSED_AT_START = frozenset(
    {"inspect", "PIL.ExifTags", "PIL.TiffTags", "PIL.GimpGradientFile", "PIL.GimpPaletteFile", "PIL.PaletteFile"}
)


class _LazyFinder:
    """Finds the modules named in ``names`` as the other finders would, with a loader that executes them on first
    use (modules whose loader cannot do that are left alone)."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names

    def find_spec(self, name: str, path: object = None, target: ModuleType | None = None) -> ModuleSpec | None:
        if name not in self.names:
            return None
        for finder in sys.meta_path:
            if isinstance(finder, _LazyFinder) or not hasattr(finder, "find_spec"):  # this one, or one nested
                continue
            spec = finder.find_spec(name, path, target)
            if spec is None:
                continue
            if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                spec.loader = importlib.util.LazyLoader(spec.loader)
            return spec
        return None


@contextmanager
def deferred(names: frozenset[str] = UNUSED_AT_START) -> Iterator[None]:
    """Within this block, the modules of ``names`` not imported yet are imported lazily (see the module's
    docstring); they stay lazy until first used, also after the block."""
    finder = _LazyFinder(names)
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
