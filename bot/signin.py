"""Signing in to the web UI, the parts every front shares: the random tokens of sessions and one-time links (only
their SHA-256 is stored, see :mod:`data.store.web`), and the one-time link itself, which the console
(``pbm web-link alice``) and Discord (``/web``) hand out and the web page takes."""

from __future__ import annotations

import hashlib
import secrets

from bot.actions import InputError, check_player_name
from data.store import Store

#: how long a one-time sign-in link can be used (seconds)
LINK_SECONDS = 15 * 60
#: how long a session lasts (seconds)
SESSION_SECONDS = 30 * 24 * 3600
#: the path of a sign-in link, before its token
LINK_PATH = "/signin/link/"


def new_token() -> str:
    """A random token for a cookie or a link: 256 bits, URL-safe."""
    return secrets.token_urlsafe(32)


def token_key(token: str) -> str:
    """What is stored for a token: its SHA-256 in hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def check_web_player(player: str) -> None:
    """A player who can sign in: a valid player name, and not a computer player (:class:`InputError`)."""
    check_player_name(player)
    if player.lower().startswith("ai:"):
        raise InputError(f"{player} is a computer player: only people sign in")


async def sign_in_link(store: Store, player: str, base_url: str, now: float) -> str:
    """A new one-time sign-in link for ``player`` at the web UI reached at ``base_url``, valid
    :data:`LINK_SECONDS` from ``now`` (the player is recorded if new). Raises :class:`InputError` for a name that
    cannot sign in."""
    check_web_player(player)
    token = new_token()
    await store.create_web_link(token_key(token), player, expires_at=now + LINK_SECONDS)
    return f"{base_url.rstrip('/')}{LINK_PATH}{token}"


def link_sentence(player: str, link: str) -> str:
    """How the console and Discord hand a link out."""
    minutes = LINK_SECONDS // 60
    return f"Sign-in link for {player} (works once, for {minutes} minutes): {link}"
