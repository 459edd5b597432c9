"""Who a Discord account is as a player, for every front that meets Discord accounts (the bot's commands, the web
page's "Sign in with Discord"): the player id stored for the account, else its username (unique on Discord), taken
by the account from then on."""

from __future__ import annotations

from data.store import Store


async def player_of_discord_account(store: Store, discord_id: int, username: str) -> str:
    """The player a Discord account is: the id stored for it, else its username. A console player of that name
    without a Discord id becomes the account's, so console and Discord share games; when another Discord account
    already holds the name, the account's id is appended to keep ids unique."""
    known = await store.player_by_discord_id(discord_id)
    if known is not None:
        return known
    name = username
    holder = await store.discord_id_of(name)
    if holder is not None and holder != discord_id:  # the holder may be this account: an earlier command of theirs,
        name = f"{username}-{discord_id}"  # still running, has just recorded them
    await store.ensure_player(name, discord_id)
    return name
