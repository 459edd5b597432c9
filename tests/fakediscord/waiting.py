"""Waiting for the bot, from the test's side: a condition on what the fake recorded, a connected gateway session,
the next message in a channel, an interaction's acknowledgement, reply or followups; and watching every message
the bot creates or edits as it happens.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TypeVar

from tests.fakediscord.gateway import GatewaySession
from tests.fakediscord.records import Interaction, Message
from tests.fakediscord.state import FakeState

T = TypeVar("T")
#: seconds between re-checks of a wait condition that depends on something besides the fake
_POLL = 0.01


class Waiting(FakeState):
    """The test-facing waits (see the module)."""

    async def wait_for(self, check: Callable[[], T], timeout: float = 5.0, what: str = "condition") -> T:
        """Wait until ``check()`` is truthy and return it; raise ``TimeoutError`` naming ``what`` otherwise.
        ``check`` is re-evaluated after every change the fake records, and every few milliseconds for
        conditions on the bot's side (its own error list, a database row)."""
        assert self._changed is not None

        async def poll() -> T:
            assert self._changed is not None
            async with self._changed:
                while not (value := check()):
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._changed.wait(), _POLL)
                return value

        try:
            return await asyncio.wait_for(poll(), timeout)
        except TimeoutError:
            raise TimeoutError(f"fake Discord: no {what} within {timeout} s") from None

    def watch(self, callback: Callable[[Message], None]) -> None:
        """Call ``callback`` with every message the bot creates or edits, as it happens: for a driver that follows
        thousands of threads at once, where a :meth:`wait_for` per thread would re-check them all on every change."""
        self._watchers.append(callback)

    async def wait_connected(self, timeout: float = 5.0, *, shard: int | None = None) -> GatewaySession:
        """The newest gateway session once it has received READY and every GUILD_CREATE (of shard ``shard``, when
        given)."""
        what = "identified gateway session" + ("" if shard is None else f" of shard {shard}")
        return await self.wait_for(lambda: self._live_session(shard=shard), timeout, what)

    async def next_message(
        self, channel_id: int, *, after: int | None = None, timeout: float = 5.0, ephemeral: bool = False
    ) -> Message:
        """The first message posted in ``channel_id`` after message id ``after`` (or after the call when None);
        ephemeral replies are skipped unless asked for."""
        ids = self.channel_messages.setdefault(channel_id, [])
        start = ids.index(after) + 1 if after is not None else len(ids)

        def found() -> Message | None:
            later = (self.messages[mid] for mid in ids[start:])
            return next((m for m in later if ephemeral or not m.ephemeral), None)

        return await self.wait_for(found, timeout, f"message in channel {channel_id}")

    def dms(self, user_id: int) -> list[Message]:
        """Direct messages the bot sent to ``user_id``."""
        cid = self.dm_channels.get(user_id)
        return [] if cid is None else self.channel_log(cid)

    async def acked(self, interaction: Interaction, timeout: float = 5.0) -> Interaction:
        """Wait until the bot answered the interaction's callback."""
        await self.wait_for(lambda: interaction.callbacks, timeout, f"callback for interaction {interaction.id}")
        return interaction

    async def reply(self, interaction: Interaction, timeout: float = 5.0) -> Message:
        """The interaction's original reply once it is final: sent, a deferred reply filled in, or a deferred
        reply deleted (``deleted``: the bot had nothing to add to what it posted elsewhere)."""

        def settled() -> Message | None:
            if interaction.original_id is None:
                return None
            original = self.messages[interaction.original_id]
            return None if original.loading and not original.deleted else original

        return await self.wait_for(settled, timeout, f"reply to interaction {interaction.id}")

    async def followup(self, interaction: Interaction, index: int = 0, timeout: float = 5.0) -> Message:
        """The ``index``-th message the interaction produced besides its original reply."""

        def extra() -> Message | None:
            others = [m for m in interaction.messages if m.id != interaction.original_id]
            return others[index] if len(others) > index else None

        return await self.wait_for(extra, timeout, f"followup {index} of interaction {interaction.id}")
