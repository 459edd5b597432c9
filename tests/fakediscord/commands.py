"""Discord's refusals of application command definitions in a bulk overwrite (``PUT .../commands``).

Discord answers 400, code 50035 "Invalid Form Body", with the errors at their place in the list (``{"3":
{"options": {"0": {"name": {"_errors": [...]}}}}}``). Checked here: slash command and option names of 1 to 32
characters that are letters, numbers, ``-``, ``_`` or ``'``, lowercase where the letter has a lowercase form
(user and message commands may use capitals and spaces); descriptions of 1 to 100 characters (none for user and
message commands); at most 25 options, required ones before optional ones, names unique among their siblings; at
most 25 choices with names of 1 to 100 characters and string values of at most 100; command names unique per
type; at most 100 slash commands and 15 each of user and message commands in one scope.
"""

from __future__ import annotations

import unicodedata
from typing import Any

CHAT_INPUT, USER, MESSAGE = 1, 2, 3
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
MAX_COMMANDS = {CHAT_INPUT: 100, USER: 15, MESSAGE: 15}
MAX_NAME, MAX_DESCRIPTION, MAX_OPTIONS, MAX_CHOICES, MAX_CHOICE_TEXT = 32, 100, 25, 25, 100
_NAME_PUNCTUATION = "-_'"

Errors = dict[str, Any]


def _leaf(code: str, message: str) -> dict[str, Any]:
    return {"_errors": [{"code": code, "message": message}]}


def _add(errors: Errors, path: list[str], leaf: dict[str, Any]) -> None:
    node = errors
    for key in path:
        node = node.setdefault(key, {})
    node.setdefault("_errors", []).extend(leaf["_errors"])


def slash_name_ok(name: Any) -> bool:
    """``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lowercase where a lowercase form exists (the marks of
    Devanagari and Thai count as letters)."""
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
        return False
    for char in name:
        kind = unicodedata.category(char)[0]
        if char not in _NAME_PUNCTUATION and kind not in "LNM":
            return False
        if char.lower() != char:
            return False
    return True


def check_commands(commands: Any) -> Errors:
    """The errors tree Discord would answer for this bulk overwrite; empty when it would accept it."""
    errors: Errors = {}
    if not isinstance(commands, list):
        _add(errors, [], _leaf("BASE_TYPE_ARRAY", "Must be an array."))
        return errors
    counts: dict[int, int] = {}
    seen: set[tuple[int, str]] = set()
    for index, command in enumerate(commands):
        kind = int(command.get("type") or CHAT_INPUT)
        counts[kind] = counts.get(kind, 0) + 1
        where = [str(index)]
        _check_command(command, kind, where, errors)
        key = (kind, str(command.get("name")))
        if key in seen:
            _add(errors, [*where, "name"], _leaf("APPLICATION_COMMANDS_DUPLICATE_NAME", "Command names must be unique"))
        seen.add(key)
    for kind, count in counts.items():
        limit = MAX_COMMANDS.get(kind)
        if limit is not None and count > limit:
            message = f"Maximum number of application commands of type {kind} reached ({limit})."
            _add(errors, [], _leaf("APPLICATION_COMMANDS_TOO_MANY", message))
    return errors


def _check_command(command: dict[str, Any], kind: int, where: list[str], errors: Errors) -> None:
    name = command.get("name")
    description = command.get("description") or ""
    if kind == CHAT_INPUT:
        if not slash_name_ok(name):
            _add(errors, [*where, "name"], _leaf("APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"))
        _check_description(description, [*where, "description"], errors)
        _check_options(command.get("options") or [], [*where, "options"], errors)
        return
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
        _add(errors, [*where, "name"], _leaf("BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_NAME} in length."))
    if description:
        message = "Descriptions are only for slash commands"
        _add(errors, [*where, "description"], _leaf("APPLICATION_COMMAND_DESCRIPTION_INVALID", message))
    if command.get("options"):
        message = "Options are only for slash commands"
        _add(errors, [*where, "options"], _leaf("APPLICATION_COMMAND_OPTIONS_INVALID", message))


def _check_description(description: Any, where: list[str], errors: Errors) -> None:
    if not isinstance(description, str) or not 1 <= len(description) <= MAX_DESCRIPTION:
        message = f"Must be between 1 and {MAX_DESCRIPTION} in length."
        _add(errors, where, _leaf("BASE_TYPE_BAD_LENGTH", message))


def _check_options(options: list[dict[str, Any]], where: list[str], errors: Errors) -> None:
    if len(options) > MAX_OPTIONS:
        _add(errors, where, _leaf("BASE_TYPE_MAX_LENGTH", f"Must be {MAX_OPTIONS} or fewer in length."))
    names: set[str] = set()
    optional_seen = False
    for index, option in enumerate(options):
        spot = [*where, str(index)]
        name = option.get("name")
        if not slash_name_ok(name):
            _add(errors, [*spot, "name"], _leaf("APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"))
        elif name in names:
            message = "Option names must be unique"
            _add(errors, [*spot, "name"], _leaf("APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS", message))
        names.add(str(name))
        _check_description(option.get("description"), [*spot, "description"], errors)
        if option.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
            _check_options(option.get("options") or [], [*spot, "options"], errors)
            continue
        if option.get("required"):
            if optional_seen:
                message = "Required options must be placed before non-required options"
                _add(errors, [*spot, "required"], _leaf("APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", message))
        else:
            optional_seen = True
        _check_choices(option.get("choices") or [], [*spot, "choices"], errors)


def _check_choices(choices: list[dict[str, Any]], where: list[str], errors: Errors) -> None:
    if len(choices) > MAX_CHOICES:
        _add(errors, where, _leaf("BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CHOICES} or fewer in length."))
    for index, choice in enumerate(choices):
        name = choice.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_CHOICE_TEXT:
            message = f"Must be between 1 and {MAX_CHOICE_TEXT} in length."
            _add(errors, [*where, str(index), "name"], _leaf("BASE_TYPE_BAD_LENGTH", message))
        value = choice.get("value")
        if isinstance(value, str) and len(value) > MAX_CHOICE_TEXT:
            message = f"Must be {MAX_CHOICE_TEXT} or fewer in length."
            _add(errors, [*where, str(index), "value"], _leaf("BASE_TYPE_MAX_LENGTH", message))
