"""Settings of a running bot or console, read only from the environment and command-line arguments.

Nothing here imports discord.py, so the console starts fast.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


def default_data_dir(env: Mapping[str, str] | None = None) -> Path:
    """Where pbm keeps its database and board images: ``$PBM_DATA_DIR``, else ``$XDG_DATA_HOME/pbm``, else
    ``~/.local/share/pbm``."""
    env = os.environ if env is None else env
    if env.get("PBM_DATA_DIR"):
        return Path(env["PBM_DATA_DIR"])
    base = Path(env["XDG_DATA_HOME"]) if env.get("XDG_DATA_HOME") else Path.home() / ".local" / "share"
    return base / "pbm"


def db_target(text: str | Path) -> Path | str:
    """A database as configured: an SQLite file (a path), or a PostgreSQL server's URL (``postgresql://...``),
    kept as text (a path would fold its ``//``)."""
    if isinstance(text, str) and text.startswith(("postgresql://", "postgres://")):
        return text
    return Path(text)


def default_db_path(env: Mapping[str, str] | None = None) -> Path | str:
    """The database: ``$PBM_DB`` if set (an SQLite file or a ``postgresql://`` URL), else ``pbm.sqlite3`` in the
    data directory."""
    env = os.environ if env is None else env
    return db_target(env["PBM_DB"]) if env.get("PBM_DB") else default_data_dir(env) / "pbm.sqlite3"


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SystemExit(f"{name} must be a number of seconds, not {raw!r}") from None
    if value <= 0:
        raise SystemExit(f"{name} must be positive, not {raw!r}")
    return value


def ai_seconds(env: Mapping[str, str] | None = None) -> float | None:
    """``PBM_AI_SECONDS``: the most a computer player may think about one move (default: by level, 0.5 to 2 s)."""
    env = os.environ if env is None else env
    if not env.get("PBM_AI_SECONDS"):
        return None
    return _float(env, "PBM_AI_SECONDS", 2.0)


def clock_offset(env: Mapping[str, str] | None = None) -> float:
    """``PBM_CLOCK_OFFSET`` (test-only): seconds added to the bot's clock, any sign; default 0."""
    env = os.environ if env is None else env
    raw = env.get("PBM_CLOCK_OFFSET")
    if raw is None or raw == "":
        return 0.0
    try:
        return float(raw)
    except ValueError:
        raise SystemExit(f"PBM_CLOCK_OFFSET must be a number of seconds, not {raw!r}") from None


@dataclass(frozen=True)
class Config:
    """Everything the Discord bot needs to start. Time settings are in seconds."""

    token: str | None
    #: an SQLite file, or a PostgreSQL server's URL (see :func:`db_target`)
    db_path: Path | str
    guild_id: int | None = None
    challenge_ttl: float = 24 * 3600.0
    reminder_interval: float = 24 * 3600.0
    ai_seconds: float | None = None
    api_base: str | None = None
    gateway_url: str | None = None
    cdn_base: str | None = None
    clock_offset: float = 0.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: object) -> Config:
        """Read ``DISCORD_TOKEN``, ``PBM_DB`` / ``PBM_DATA_DIR``, ``DISCORD_GUILD_ID``, ``PBM_CHALLENGE_TTL``,
        ``PBM_REMINDER_INTERVAL`` and the test knobs ``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL``,
        ``DISCORD_CDN_BASE`` (a loopback fake Discord) and ``PBM_CLOCK_OFFSET`` (shifts the bot's clock). Keyword
        arguments (from the command line) win over the environment."""
        env = os.environ if env is None else env
        guild = env.get("DISCORD_GUILD_ID") or None
        if guild is not None and not guild.isdigit():
            raise SystemExit(f"DISCORD_GUILD_ID must be a numeric id, not {guild!r}")
        values: dict[str, object] = {
            "token": env.get("DISCORD_TOKEN") or None,
            "db_path": default_db_path(env),
            "guild_id": int(guild) if guild else None,
            "challenge_ttl": _float(env, "PBM_CHALLENGE_TTL", 24 * 3600.0),
            "reminder_interval": _float(env, "PBM_REMINDER_INTERVAL", 24 * 3600.0),
            "ai_seconds": ai_seconds(env),
            "api_base": env.get("DISCORD_API_BASE") or None,
            "gateway_url": env.get("DISCORD_GATEWAY_URL") or None,
            "cdn_base": env.get("DISCORD_CDN_BASE") or None,
            "clock_offset": clock_offset(env),
        }
        values.update({k: v for k, v in overrides.items() if v is not None})
        values["db_path"] = db_target(values["db_path"])  # type: ignore[arg-type]
        return cls(**values)  # type: ignore[arg-type]
