"""What a member is told when their command fails for a reason that is not theirs, and how it is counted.

Every failure is logged in full for the admin and answered in one line, never left as Discord's "thinking…" until
it runs out: a database that is unavailable (stopped, unreachable, hung past the statement timeout, see
:mod:`data.store.availability`) is said as such; anything else is "something went wrong". Slash commands reach
:func:`report_failure` through their cogs and the tree; buttons and menus through :func:`answers_failures`. Each
handled interaction is counted in the bot's metrics (:mod:`bot.ops`) by its name and outcome, with the time since
it arrived.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.discord.followups import DEFERRED_PUBLICLY, answer, remove_placeholder
from data.store import DatabaseUnavailableError

log = logging.getLogger("pbm.discord")

UNAVAILABLE = "the database is unavailable; try again in a minute"
SOMETHING_WRONG = "Something went wrong; the admin has the details."
STOPPING = "the bot is stopping (a restart or an upgrade); try again in a minute"
#: where a handler notes how its interaction ended when that is not "done" (``interaction.extras``)
OUTCOME = "pbm:outcome"


def unavailable(error: BaseException) -> DatabaseUnavailableError | None:
    """The database's unavailability behind ``error`` (itself, or what it was raised from), if that is what it
    is."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, DatabaseUnavailableError):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


def failure_text(error: BaseException) -> str:
    """The one line a member is told about a failure that is not theirs."""
    return UNAVAILABLE if unavailable(error) is not None else SOMETHING_WRONG


def log_failure(what: str, error: BaseException) -> None:
    """The admin's record of a failure: an unavailable database in one line (it is not a bug, and an outage
    would fill the log with the same traceback), anything else with its traceback."""
    down = unavailable(error)
    if down is not None:
        log.warning("%s: %s", what, down)
    else:
        log.error("%s failed", what, exc_info=error)


async def tell_failure(interaction: discord.Interaction, text: str) -> None:
    """Answer ``interaction`` with ``text`` privately, whether or not it was acknowledged already (after a public
    "thinking…", that placeholder is removed first: a followup replacing it would be public)."""
    try:
        if interaction.response.is_done():
            if interaction.extras.get(DEFERRED_PUBLICLY):
                await remove_placeholder(interaction)
            await answer(interaction, text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not report the failure to the user")


def note_outcome(interaction: discord.Interaction, outcome: str) -> None:
    """Record how an interaction ended, when not "done", for its count in the metrics."""
    interaction.extras[OUTCOME] = outcome


def count(interaction: discord.Interaction, name: str, outcome: str | None = None) -> None:
    """Count a handled interaction in the bot's metrics (when it keeps any): its name, its outcome (else the one
    noted on it, else "done"), and the seconds since it arrived."""
    metrics = getattr(interaction.client, "metrics", None)
    if metrics is None:
        return
    arrived = interaction.extras.get("arrived")
    seconds = None if arrived is None else time.monotonic() - arrived
    metrics.command(name, outcome or interaction.extras.get(OUTCOME, "done"), seconds)


def answers_failures(
    name: str,
) -> Callable[[Callable[..., Awaitable[None]]], Callable[..., Awaitable[None]]]:
    """A button's or menu's callback that answers its own failures (discord.py only logs them, and the member
    would watch "thinking…" for 15 minutes), counted in the metrics as ``name``. While the bot stops, the press is
    answered that it is stopping and nothing else is done."""

    def decorate(callback: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
        @functools.wraps(callback)
        async def run(item: Any, interaction: discord.Interaction) -> None:
            if getattr(interaction.client, "stopping", False):
                count(interaction, name, "stopping")
                await tell_failure(interaction, STOPPING)
                return
            try:
                await callback(item, interaction)
            except Exception as exc:
                log_failure(f"button {name}", exc)
                note_outcome(interaction, "unavailable" if unavailable(exc) else "failed")
                await tell_failure(interaction, failure_text(exc))
            finally:
                count(interaction, name)

        return run

    return decorate
