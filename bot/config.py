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


def make_data_dir(db_path: Path | str, env: Mapping[str, str] | None = None) -> None:
    """Make pbm's own data directory when the database is to be in it (the first start makes it). No other
    folder is ever made: a database path that is given must name a folder that exists, so a typo is one line
    rather than a fresh, empty database somewhere else and games that seem lost."""
    if not isinstance(db_path, Path):
        return
    folder = default_data_dir(env)
    if os.path.abspath(db_path.parent) == os.path.abspath(folder):
        folder.mkdir(parents=True, exist_ok=True)


def db_target(text: str | Path) -> Path | str:
    """A database as configured: an SQLite file (a path, or ``sqlite:///relative`` / ``sqlite:////absolute`` as
    SQLAlchemy writes them), or a PostgreSQL server's URL (``postgresql://...``), kept as text (a path would fold
    its ``//``)."""
    if isinstance(text, str) and text.startswith(("postgresql://", "postgres://")):
        return text
    if isinstance(text, str) and text.startswith("sqlite://"):
        rest = text[len("sqlite://") :]
        return Path(":memory:" if rest in ("", "/", "/:memory:") else rest[1:] if rest.startswith("/") else rest)
    return Path(text)


#: the database setting: ``PBM_DATABASE_URL``, with the older ``PBM_DB`` as an alias (the first one set wins)
DATABASE_SETTINGS = ("PBM_DATABASE_URL", "PBM_DB")


def default_db_path(env: Mapping[str, str] | None = None) -> Path | str:
    """The database: ``$PBM_DATABASE_URL`` (or its alias ``$PBM_DB``) if set (an SQLite file, ``sqlite:///path``
    or a ``postgresql://`` URL), else ``pbm.sqlite3`` in the data directory."""
    env = os.environ if env is None else env
    for name in DATABASE_SETTINGS:
        if env.get(name):
            return db_target(env[name])
    return default_data_dir(env) / "pbm.sqlite3"


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
    """``PBM_AI_SECONDS``: the most a computer player may think about one move (default: by level, 5 to 30 s; a
    guard only, since its effort is counted in playouts)."""
    env = os.environ if env is None else env
    if not env.get("PBM_AI_SECONDS"):
        return None
    return _float(env, "PBM_AI_SECONDS", 2.0)


def command_burst(env: Mapping[str, str]) -> int:
    """``PBM_COMMAND_BURST``: the commands a member may send at once before the command rate applies (default
    10; 0 turns the rate off)."""
    raw = env.get("PBM_COMMAND_BURST")
    if raw is None or raw == "":
        return 10
    if not raw.strip().isdigit():
        raise SystemExit(f"PBM_COMMAND_BURST must be a whole number of commands (0: no rate), not {raw!r}")
    return int(raw)


def log_format(env: Mapping[str, str]) -> str:
    """``PBM_LOG_FORMAT``: ``text`` (the default: one line per event) or ``json`` (one JSON object per line)."""
    raw = (env.get("PBM_LOG_FORMAT") or "text").strip().lower()
    if raw not in ("text", "json"):
        raise SystemExit(f"PBM_LOG_FORMAT must be text or json, not {env.get('PBM_LOG_FORMAT')!r}")
    return raw


def metrics_port(env: Mapping[str, str]) -> int | None:
    """``PBM_METRICS_PORT``: where ``pbm run`` serves ``/healthz`` and ``/metrics`` by themselves (``None``: not
    served alone)."""
    raw = (env.get("PBM_METRICS_PORT") or "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not 1 <= int(raw) <= 65535:
        raise SystemExit(f"PBM_METRICS_PORT must be a port number from 1 to 65535, not {raw!r}")
    return int(raw)


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


def shard_ids(raw: str | None, name: str = "PBM_SHARDS") -> tuple[int, ...] | None:
    """``PBM_SHARDS`` / ``--shards``: the shards this process runs, like ``0,1`` or ``0-3`` (ranges inclusive);
    ``None`` when unset (every shard)."""
    if raw is None or raw.strip() == "":
        return None
    found: list[int] = []
    for part in raw.split(","):
        low, dash, high = part.strip().partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise SystemExit(f"{name} must list shard numbers like 0,1 or 0-3, not {raw!r}")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise SystemExit(f"{name}: the range {part.strip()} runs backwards")
        found.extend(range(first, last + 1))
    if len(set(found)) != len(found):
        raise SystemExit(f"{name} names a shard twice: {raw!r}")
    return tuple(sorted(found))


def shard_count(raw: str | None, name: str = "PBM_SHARD_COUNT") -> int | None:
    """``PBM_SHARD_COUNT`` / ``--shard-count``: how many shards the bot has over all its processes; ``None``
    when unset (Discord's recommendation)."""
    if raw is None or raw.strip() == "":
        return None
    if not raw.strip().isdigit() or int(raw) < 1:
        raise SystemExit(f"{name} must be a whole number of shards, at least 1, not {raw!r}")
    return int(raw)


def check_shards(ids: tuple[int, ...] | None, count: int | None) -> None:
    """Shard numbers need a count, and each must be below it (shards are numbered from 0)."""
    if ids is None:
        return
    if count is None:
        raise SystemExit("PBM_SHARDS (--shards) needs PBM_SHARD_COUNT (--shard-count): the shards of all processes")
    outside = [i for i in ids if i >= count]
    if outside:
        raise SystemExit(
            f"shard {outside[0]} does not exist with a shard count of {count}: shards are 0 to {count - 1}"
        )


#: Discord's REST API, unless ``DISCORD_API_BASE`` points elsewhere (a loopback fake in tests)
DISCORD_API = "https://discord.com/api/v10"
#: the host names and addresses that reach only this machine
LOOPBACK_NAMES = ("localhost", "ip6-localhost", "ip6-loopback")


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, IPv6 with or without brackets) reaches only this machine."""
    import ipaddress

    bare = host.strip().strip("[]").lower()
    if bare in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(bare).is_loopback
    except ValueError:
        return False


def public_url(raw: str | None, name: str = "PBM_WEB_PUBLIC_URL") -> str | None:
    """``PBM_WEB_PUBLIC_URL``: the address users reach the web UI at, a scheme, a host and perhaps a port
    (``https://pbm.example.org``; the pages are at its root), without a trailing slash; ``None`` when unset."""
    if raw is None or raw.strip() == "":
        return None
    from urllib.parse import urlsplit

    url = raw.strip().rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path or parts.query or parts.fragment:
        raise SystemExit(
            f"{name} must be an http:// or https:// address without a path, like https://pbm.example.org, not {raw!r}"
        )
    return url


@dataclass(frozen=True)
class WebConfig:
    """Where and how the web UI is served: ``PBM_WEB_HOST`` (default 127.0.0.1), ``PBM_WEB_PORT`` (8080; 0 takes
    any free port, the one taken is printed),
    ``PBM_WEB_PUBLIC_URL`` (the address users reach, behind a reverse proxy), and Discord sign-in
    (``PBM_OAUTH_CLIENT_ID`` / ``PBM_OAUTH_CLIENT_SECRET``, at ``discord_api``: Discord's, or
    ``DISCORD_API_BASE``'s in tests)."""

    host: str = "127.0.0.1"
    port: int = 8080
    public_url: str | None = None
    oauth_client_id: str | None = None
    oauth_client_secret: str | None = None
    discord_api: str = DISCORD_API

    @property
    def local_address(self) -> str:
        """The address the server listens at, as a browser on this machine writes it."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        if self.host in ("0.0.0.0", "::"):
            host = "127.0.0.1"
        return f"http://{host}:{self.port}"

    @property
    def base_url(self) -> str:
        """The address links point to: the public one, else the local one."""
        return self.public_url or self.local_address

    @property
    def oauth(self) -> bool:
        """Whether "Sign in with Discord" is offered (both OAuth settings are set)."""
        return bool(self.oauth_client_id and self.oauth_client_secret)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> WebConfig:
        """Read the settings above; a bad value is :class:`SystemExit` with one line, as for :class:`Config`."""
        env = os.environ if env is None else env
        raw_port = (env.get("PBM_WEB_PORT") or "8080").strip()
        if not raw_port.isdigit() or not 0 <= int(raw_port) < 65536:
            raise SystemExit(f"PBM_WEB_PORT must be a port number from 1 to 65535 (0: any free one), not {raw_port!r}")
        host = (env.get("PBM_WEB_HOST") or "127.0.0.1").strip()
        return cls(
            host=host,
            port=int(raw_port),
            public_url=public_url(env.get("PBM_WEB_PUBLIC_URL")),
            oauth_client_id=env.get("PBM_OAUTH_CLIENT_ID") or None,
            oauth_client_secret=env.get("PBM_OAUTH_CLIENT_SECRET") or None,
            discord_api=(env.get("DISCORD_API_BASE") or DISCORD_API).rstrip("/"),
        )


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
    #: the shards this process runs (None: every shard) and the shard count of the whole bot (None: Discord's
    #: recommendation)
    shard_ids: tuple[int, ...] | None = None
    shard_count: int | None = None
    #: the command rate per member and server: a burst of ``command_burst`` commands (0: no rate), then one every
    #: ``command_seconds``
    command_burst: int = 10
    command_seconds: float = 2.0
    #: the web UI's public address (``PBM_WEB_PUBLIC_URL``): turn messages get an "Open board" link to it
    web_public_url: str | None = None
    #: the most a database statement may take before the database counts as unavailable (seconds)
    db_timeout: float = 5.0
    #: ``text`` or ``json`` log lines
    log_format: str = "text"
    #: where ``/healthz`` and ``/metrics`` are served alone (``None``: not)
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"

    @property
    def runs_shard_zero(self) -> bool:
        """Whether this process runs shard 0 (or every shard): the one that receives DMs and syncs commands."""
        return self.shard_ids is None or 0 in self.shard_ids

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: object) -> Config:
        """Read ``DISCORD_TOKEN``, ``PBM_DATABASE_URL`` (or ``PBM_DB``) / ``PBM_DATA_DIR``, ``DISCORD_GUILD_ID``,
        ``PBM_CHALLENGE_TTL``, ``PBM_REMINDER_INTERVAL``, ``PBM_SHARDS``, ``PBM_SHARD_COUNT``,
        ``PBM_COMMAND_BURST``, ``PBM_COMMAND_SECONDS``, ``PBM_WEB_PUBLIC_URL``, ``PBM_DB_TIMEOUT``,
        ``PBM_LOG_FORMAT``, ``PBM_METRICS_PORT``, ``PBM_METRICS_HOST`` and the test knobs
        ``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL``, ``DISCORD_CDN_BASE`` (a loopback fake Discord) and
        ``PBM_CLOCK_OFFSET`` (shifts the bot's clock).
        Keyword arguments (from the command line) win over the environment."""
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
            "shard_ids": shard_ids(env.get("PBM_SHARDS")),
            "shard_count": shard_count(env.get("PBM_SHARD_COUNT")),
            "command_burst": command_burst(env),
            "command_seconds": _float(env, "PBM_COMMAND_SECONDS", 2.0),
            "web_public_url": public_url(env.get("PBM_WEB_PUBLIC_URL")),
            "db_timeout": _float(env, "PBM_DB_TIMEOUT", 5.0),
            "log_format": log_format(env),
            "metrics_port": metrics_port(env),
            "metrics_host": (env.get("PBM_METRICS_HOST") or "").strip() or "127.0.0.1",
        }
        values.update({k: v for k, v in overrides.items() if v is not None})
        check_shards(values["shard_ids"], values["shard_count"])  # type: ignore[arg-type]
        values["db_path"] = db_target(values["db_path"])  # type: ignore[arg-type]
        return cls(**values)  # type: ignore[arg-type]
