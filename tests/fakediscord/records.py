"""What the fake saw: messages, threads, interactions, command syncs and faults, kept for tests to assert on.

Records are plain dataclasses the server appends to and updates in place; tests read them directly or wait for
them through :meth:`FakeDiscord.wait_for`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tests.fakediscord.components import MEDIA_GALLERY, TEXT_DISPLAY, walk
from tests.fakediscord.payloads import EPHEMERAL, IS_COMPONENTS_V2, LOADING, SUPPRESS_NOTIFICATIONS


@dataclass
class Attachment:
    """A file the bot uploaded, with its bytes."""

    filename: str
    data: bytes
    content_type: str | None
    description: str | None = None


@dataclass
class Message:
    """A message as it stands now, with the history of its edits. ``pinged`` lists the users Discord would
    notify when it was created (mentions allowed by ``allowed_mentions``, nobody for a silent message or for
    the followup that replaces a deferred reply). An ``@everyone``/``@here`` that ``allowed_mentions`` let through
    and the bot had the permission for sets ``pinged_everyone`` and adds every member who can see the channel
    (a thread's members in a thread) to ``pinged``."""

    id: int
    channel_id: int
    author_id: int
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[Attachment]
    allowed_mentions: dict[str, Any] | None
    flags: int
    pinged: list[int]
    payload: dict[str, Any]
    interaction_id: int | None = None
    edits: list[dict[str, Any]] = field(default_factory=list)
    deleted: bool = False
    pinged_everyone: bool = False

    @property
    def ephemeral(self) -> bool:
        """Only the invoking user sees it."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred reply still showing "thinking…"."""
        return bool(self.flags & LOADING)

    @property
    def silent(self) -> bool:
        """Posted with SUPPRESS_NOTIFICATIONS."""
        return bool(self.flags & SUPPRESS_NOTIFICATIONS)

    @property
    def layout(self) -> bool:
        """Sent with IS_COMPONENTS_V2: no content, everything shown by components."""
        return bool(self.flags & IS_COMPONENTS_V2)

    def all_components(self) -> list[dict[str, Any]]:
        """Every component, nested ones included, in the order Discord shows them."""
        return list(walk(self.components))

    def custom_ids(self) -> list[str]:
        """Every component custom_id on the message, in the order shown (rows, containers, sections)."""
        return [item["custom_id"] for item in walk(self.components) if "custom_id" in item]

    def displayed_text(self) -> str:
        """The text displays of a layout message, one after the other."""
        return "\n".join(c.get("content") or "" for c in walk(self.components) if c.get("type") == TEXT_DISPLAY)

    def gallery_urls(self) -> list[str]:
        """The media urls of every media gallery, as Discord resolved them."""
        return [
            item["media"]["url"]
            for c in walk(self.components)
            if c.get("type") == MEDIA_GALLERY
            for item in c.get("items") or []
        ]

    def embed_text(self) -> str:
        """Titles, descriptions and fields of every embed, one per line, for substring assertions."""
        parts: list[str] = []
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            parts += [f"{f.get('name', '')}: {f.get('value', '')}" for f in embed.get("fields", [])]
            footer = embed.get("footer") or {}
            parts.append(footer.get("text") or "")
        return "\n".join(p for p in parts if p)

    def text(self) -> str:
        """Everything a reader sees as text: content, text displays and embeds."""
        return "\n".join(p for p in (self.content, self.displayed_text(), self.embed_text()) if p)


@dataclass
class Thread:
    """A thread the bot created; ``members`` are user ids added through thread-members."""

    id: int
    parent_id: int
    name: str
    starter_message_id: int | None
    private: bool
    members: list[int] = field(default_factory=list)


@dataclass
class CommandSync:
    """One bulk overwrite of application commands (``guild_id`` None for global)."""

    guild_id: int | None
    commands: list[dict[str, Any]]


@dataclass
class Interaction:
    """An interaction the fake dispatched and everything the bot answered to it. ``callbacks`` are the bodies
    posted to the callback route in order (Discord accepts only the first; later ones got 400), ``messages``
    the messages the interaction produced (the original reply first, then followups); ``clicked_id`` the message
    whose button was pressed. Times are loop times."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    data: dict[str, Any]
    sent_at: float
    callbacks: list[dict[str, Any]] = field(default_factory=list)
    acked_at: float | None = None
    original_id: int | None = None
    messages: list[Message] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    clicked_id: int | None = None

    @property
    def response_type(self) -> int | None:
        """The callback type of the accepted response (4 reply, 5 deferred, 6 deferred update, 7 update, 8
        autocomplete result, 9 modal)."""
        return self.callbacks[0]["type"] if self.callbacks else None

    @property
    def ack_latency(self) -> float | None:
        """Seconds between dispatch and the callback."""
        return None if self.acked_at is None else self.acked_at - self.sent_at


@dataclass
class Fault:
    """A planned failure or delay of a route. ``route`` is "METHOD /template" with ``{name}`` placeholders as in
    Discord's docs (or "*" for any route); ``params`` narrows it to given placeholder values; ``times`` None means
    forever."""

    route: str
    status: int | None
    code: int | None
    message: str
    retry_after: float
    delay: float
    times: int | None
    params: dict[str, str]
    hits: int = 0
    #: for a 429: "user" (a route's limit) or "global" (every route), and whether the bucket headers come with it
    scope: str = "user"
    bucket_headers: bool = True
    #: requests wait until this is set (see :meth:`FakeDiscord.hold`)
    gate: Any = None

    def matches(self, route: str, params: dict[str, str]) -> bool:
        """Whether a request to ``route`` with ``params`` is covered and still due (route "*": every route)."""
        if self.times is not None and self.hits >= self.times:
            return False
        return self.route in (route, "*") and all(params.get(k) == v for k, v in self.params.items())


@dataclass
class Request:
    """A REST request the fake served: its route template, the placeholder values, query and JSON body."""

    route: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    status: int = 200
    #: the event loop's time when the request arrived
    at: float = 0.0


_SPACES = re.compile(r"\s+")


def route_key(method: str, template: str) -> str:
    """Normalise "post  /channels/{id}/messages" to "POST /channels/{id}/messages"."""
    return _SPACES.sub(" ", f"{method.upper()} {template}".strip())
