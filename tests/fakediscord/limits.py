"""Discord's refusals of message bodies and autocomplete answers, so a test fails where the real bot would.

Discord answers a body that breaks a limit with HTTP 400, code 50035 "Invalid Form Body" and an ``errors`` tree
naming the offending field (``{"content": {"_errors": [{"code": ..., "message": ...}]}}``, list indices as string
keys); a message with nothing to show with 50006 "Cannot send an empty message". Checked here: content up to 2,000
characters, at most 10 embeds and 10 attachments; each embed's title up to 256 characters, description 4,096, at
most 25 fields of a name (1 to 256) and a value (1 to 1,024), footer 2,048, author 256, and 6,000 characters over
every embed of the message; up to 5 action rows of 1 to 5 buttons or exactly one select menu,
the button and select rules of :mod:`tests.fakediscord.components`; messages flagged IS_COMPONENTS_V2 by its
layout rules, without ``content`` or ``embeds``; autocomplete answers of at most 25 choices, names of 1 to 100
characters and string values of at most 100.
"""

from __future__ import annotations

from typing import Any

from tests.fakediscord.components import ACTION_ROW, SELECTS, LayoutCheck, check_item, legacy_field
from tests.fakediscord.payloads import IS_COMPONENTS_V2

MAX_CONTENT, MAX_EMBEDS, MAX_ATTACHMENTS = 2000, 10, 10
MAX_ROWS, MAX_ROW_WIDTH, MAX_CHOICES, MAX_CHOICE_TEXT = 5, 5, 25, 100
#: an embed's limits: title, description, fields, a field's name and value, footer text, author name; and the
#: characters of all of them over every embed of a message
MAX_TITLE, MAX_DESCRIPTION, MAX_FIELDS, MAX_FIELD_NAME, MAX_FIELD_VALUE = 256, 4096, 25, 256, 1024
MAX_FOOTER, MAX_AUTHOR, MAX_EMBED_TOTAL = 2048, 256, 6000


Errors = dict[str, Any]


class ApiError(Exception):
    """A Discord JSON error: HTTP status, Discord error code, message and (for 50035) the ``errors`` tree."""

    def __init__(self, status: int, code: int, message: str, errors: Errors | None = None) -> None:
        super().__init__(message if not errors else f"{message}: {errors}")
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict[str, Any]:
        """The JSON Discord sends."""
        data: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        return data


def _too_long(limit: int) -> dict[str, Any]:
    return {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {limit} or fewer in length."}]}


def _bad_length(low: int, high: int) -> dict[str, Any]:
    return {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH", "message": f"Must be between {low} and {high} in length."}]}


def _error_at(errors: Errors, path: list[str], leaf: dict[str, Any]) -> None:
    node = errors
    for key in path:
        node = node.setdefault(key, {})
    node.setdefault("_errors", []).extend(leaf["_errors"])


def _raise(errors: Errors, prefix: list[str]) -> None:
    if errors:
        for key in reversed(prefix):
            errors = {key: errors}
        raise ApiError(400, 50035, "Invalid Form Body", errors)


def check_message(
    body: dict[str, Any],
    files: list[str],
    *,
    prefix: list[str] | None = None,
    current: dict[str, Any] | None = None,
) -> None:
    """Refuse a message body (a new message, or an edit of the message whose payload is ``current``) as Discord
    would. ``files`` are the names of the uploaded files; ``prefix`` nests the errors ("data" for an interaction
    callback). A layout message (IS_COMPONENTS_V2, set by the body or already on the message: the flag cannot be
    removed) is checked by :class:`tests.fakediscord.components.LayoutCheck`."""
    errors: Errors = {}
    content = body.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        _error_at(errors, ["content"], _too_long(MAX_CONTENT))
    if len(body.get("embeds") or []) > MAX_EMBEDS:
        _error_at(errors, ["embeds"], _too_long(MAX_EMBEDS))
    _check_embeds(body.get("embeds") or [], errors)
    kept: list[str] = []
    if current is not None:
        existing = current.get("attachments") or []
        named = {str(a.get("id")) for a in body.get("attachments") or []}
        kept = [str(a.get("filename")) for a in existing if "attachments" not in body or str(a.get("id")) in named]
    if len(files) + len(kept) > MAX_ATTACHMENTS:
        _error_at(errors, ["attachments"], _too_long(MAX_ATTACHMENTS))
    after = {**(current or {}), **{k: v for k, v in body.items() if k in _VISIBLE}}
    if is_layout(body, current):
        for field in ("content", "embeds"):
            if after.get(field):
                _error_at(errors, [field], legacy_field(field))
        if current is None or "components" in body:
            LayoutCheck({*files, *kept}, lambda path, found: _error_at(errors, path, found)).message(
                body.get("components") or []
            )
    else:
        _check_components(body.get("components") or [], errors)
    _raise(errors, prefix or [])
    shown = any(after.get(key) for key in ("content", "embeds", "components", "sticker_ids", "poll"))
    if not shown and not files and not kept:
        raise ApiError(400, 50006, "Cannot send an empty message")


def _check_embeds(embeds: list[dict[str, Any]], errors: Errors) -> None:
    """Each embed's text within its limits, and all of them within MAX_EMBED_TOTAL."""
    total = 0
    for e, embed in enumerate(embeds):
        where = ["embeds", str(e)]
        texts = [
            (["title"], embed.get("title"), MAX_TITLE),
            (["description"], embed.get("description"), MAX_DESCRIPTION),
            (["footer", "text"], (embed.get("footer") or {}).get("text"), MAX_FOOTER),
            (["author", "name"], (embed.get("author") or {}).get("name"), MAX_AUTHOR),
        ]
        fields = embed.get("fields") or []
        if len(fields) > MAX_FIELDS:
            _error_at(errors, [*where, "fields"], _too_long(MAX_FIELDS))
        for f, item in enumerate(fields):
            for key, limit in (("name", MAX_FIELD_NAME), ("value", MAX_FIELD_VALUE)):
                text = str(item.get(key) or "")
                if not text.strip():
                    required = {"_errors": [{"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}]}
                    _error_at(errors, [*where, "fields", str(f), key], required)
                texts.append((["fields", str(f), key], text, limit))
        for path, text, limit in texts:
            length = len(str(text or ""))
            total += length
            if length > limit:
                _error_at(errors, [*where, *path], _too_long(limit))
    if total > MAX_EMBED_TOTAL:
        size = {"code": "MAX_EMBED_SIZE_EXCEEDED", "message": f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}"}
        _error_at(errors, ["embeds"], {"_errors": [size]})


def is_layout(body: dict[str, Any], current: dict[str, Any] | None = None) -> bool:
    """Whether the body, or the message it edits, carries IS_COMPONENTS_V2."""
    return bool((int(body.get("flags") or 0) | int((current or {}).get("flags") or 0)) & IS_COMPONENTS_V2)


_VISIBLE = ("content", "embeds", "components", "attachments", "sticker_ids", "poll")


def _check_components(rows: list[dict[str, Any]], errors: Errors) -> None:
    """A message without the layout flag: up to 5 action rows of buttons or one select menu each."""

    def report(path: list[str], found: dict[str, Any]) -> None:
        _error_at(errors, path, found)

    if len(rows) > MAX_ROWS:
        _error_at(errors, ["components"], _too_long(MAX_ROWS))
    seen: set[str] = set()
    for r, row in enumerate(rows):
        where = ["components", str(r)]
        if row.get("type") != ACTION_ROW:
            _error_at(errors, [*where, "type"], {"_errors": [{"code": "UNION_TYPE_CHOICES", "message": "Bad type"}]})
            continue
        items = row.get("components") or []
        if not 1 <= len(items) <= MAX_ROW_WIDTH:
            _error_at(errors, [*where, "components"], _bad_length(1, MAX_ROW_WIDTH))
        if len(items) > 1 and any(item.get("type") in SELECTS for item in items):
            width = {
                "code": "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "message": "The specified component exceeds the maximum width",
            }
            _error_at(errors, [*where, "components"], {"_errors": [width]})
        for i, item in enumerate(items):
            check_item(item, [*where, "components", str(i)], report, seen)


def check_choices(choices: list[dict[str, Any]]) -> None:
    """Refuse an autocomplete answer (callback type 8) as Discord would."""
    errors: Errors = {}
    if len(choices) > MAX_CHOICES:
        _error_at(errors, ["choices"], _too_long(MAX_CHOICES))
    for c, choice in enumerate(choices):
        if not 1 <= len(str(choice.get("name") or "")) <= MAX_CHOICE_TEXT:
            _error_at(errors, ["choices", str(c), "name"], _bad_length(1, MAX_CHOICE_TEXT))
        value = choice.get("value")
        if isinstance(value, str) and len(value) > MAX_CHOICE_TEXT:
            _error_at(errors, ["choices", str(c), "value"], _too_long(MAX_CHOICE_TEXT))
    _raise(errors, ["data"])
