"""The games pbm knows, by name. Modules are imported on first use so that a command for one game loads
only that game."""

from __future__ import annotations

import importlib

from rules.base import GameDef, GameState, OptionError, StateFormatError

#: game name -> module that defines ``GAME`` (a :class:`GameDef`)
_MODULES: dict[str, str] = {
    "backgammon": "rules.backgammon",
    "dragons": "rules.dragons",
    "druid": "rules.druid",
    "drogo": "rules.drogo",
}

_loaded: dict[str, GameDef] = {}


def names() -> list[str]:
    """Names of all registered games, sorted."""
    return sorted(_MODULES)


def get(name: str) -> GameDef:
    """The game called ``name`` (case-insensitive); raises :class:`OptionError` for an unknown game."""
    key = name.lower()
    if key not in _MODULES:
        raise OptionError(f"unknown game {name!r} (games: {', '.join(names())})")
    if key not in _loaded:
        _loaded[key] = importlib.import_module(_MODULES[key]).GAME
    return _loaded[key]


def load_state(data: dict) -> GameState:
    """Rebuild any game's state from its JSON form."""
    name = data.get("game") if isinstance(data, dict) else None
    if not isinstance(name, str) or name.lower() not in _MODULES:
        raise StateFormatError(f"unknown game in saved state: {name!r}")
    return get(name).load(data)
