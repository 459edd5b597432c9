"""Discord's refusals of message bodies and autocomplete answers, so a test fails where the real bot would.

Discord answers a body that breaks a limit with HTTP 400, code 50035 "Invalid Form Body" and an ``errors`` tree
naming the offending field (``{"content": {"_errors": [{"code": ..., "message": ...}]}}``, list indices as string
keys); a message with nothing to show with 50006 "Cannot send an empty message". Checked here: content up to 2,000
characters, at most 10 embeds and 10 attachments; up to 5 action rows of 1 to 5 buttons or exactly one select menu,
unique ``custom_id``s of at most 100 characters, button labels of at most 80, select menus of 1 to 25 options whose
labels, values and descriptions hold at most 100; autocomplete answers of at most 25 choices, names of 1 to 100
characters and string values of at most 100. Messages flagged IS_COMPONENTS_V2 are not laid out in rows and skip
the component checks.
"""

from __future__ import annotations

from typing import Any

MAX_CONTENT, MAX_EMBEDS, MAX_ATTACHMENTS = 2000, 10, 10
MAX_ROWS, MAX_ROW_WIDTH, MAX_OPTIONS, MAX_CHOICES = 5, 5, 25, 25
MAX_CUSTOM_ID, MAX_LABEL, MAX_OPTION_TEXT, MAX_CHOICE_TEXT = 100, 80, 100, 100
ACTION_ROW, BUTTON, STRING_SELECT = 1, 2, 3
SELECTS = {3, 5, 6, 7, 8}
IS_COMPONENTS_V2 = 1 << 15

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
    body: dict[str, Any], files: int, *, prefix: list[str] | None = None, current: dict[str, Any] | None = None
) -> None:
    """Refuse a message body (a new message, or an edit of the message whose payload is ``current``) as Discord
    would. ``files`` counts uploads; ``prefix`` nests the errors ("data" for an interaction callback)."""
    errors: Errors = {}
    content = body.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        _error_at(errors, ["content"], _too_long(MAX_CONTENT))
    if len(body.get("embeds") or []) > MAX_EMBEDS:
        _error_at(errors, ["embeds"], _too_long(MAX_EMBEDS))
    kept = 0
    if current is not None:
        existing = [str(a.get("id")) for a in current.get("attachments") or []]
        named = {str(a.get("id")) for a in body.get("attachments") or []}
        kept = len(existing) if "attachments" not in body else len([a for a in existing if a in named])
    if files + kept > MAX_ATTACHMENTS:
        _error_at(errors, ["attachments"], _too_long(MAX_ATTACHMENTS))
    flags = int(body.get("flags") or (current or {}).get("flags") or 0)
    if not flags & IS_COMPONENTS_V2:
        _check_components(body.get("components") or [], errors)
    _raise(errors, prefix or [])
    after = {**(current or {}), **{k: v for k, v in body.items() if k in _VISIBLE}}
    shown = any(after.get(key) for key in ("content", "embeds", "components", "sticker_ids", "poll"))
    if not shown and files + kept == 0:
        raise ApiError(400, 50006, "Cannot send an empty message")


_VISIBLE = ("content", "embeds", "components", "attachments", "sticker_ids", "poll")


def _check_components(rows: list[dict[str, Any]], errors: Errors) -> None:
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
            _check_item(item, [*where, "components", str(i)], errors, seen)


def _check_item(item: dict[str, Any], where: list[str], errors: Errors, seen: set[str]) -> None:
    custom_id = item.get("custom_id")
    if custom_id is not None:
        if len(custom_id) > MAX_CUSTOM_ID:
            _error_at(errors, [*where, "custom_id"], _too_long(MAX_CUSTOM_ID))
        if custom_id in seen:
            dup = {"code": "COMPONENT_CUSTOM_ID_DUPLICATED", "message": "Component custom id cannot be duplicated"}
            _error_at(errors, [*where, "custom_id"], {"_errors": [dup]})
        seen.add(custom_id)
    if item.get("type") == BUTTON and len(item.get("label") or "") > MAX_LABEL:
        _error_at(errors, [*where, "label"], _too_long(MAX_LABEL))
    if item.get("type") == STRING_SELECT:
        options = item.get("options") or []
        if not 1 <= len(options) <= MAX_OPTIONS:
            _error_at(errors, [*where, "options"], _bad_length(1, MAX_OPTIONS))
        for o, option in enumerate(options):
            for key in ("label", "value", "description"):
                if len(option.get(key) or "") > MAX_OPTION_TEXT:
                    _error_at(errors, [*where, "options", str(o), key], _too_long(MAX_OPTION_TEXT))


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
