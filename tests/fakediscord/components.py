"""Discord's rules for message components: buttons and select menus (in every message), and the layout of
messages flagged IS_COMPONENTS_V2 (1 << 15, "components v2").

Buttons have labels of at most 80 characters; select menus 1 to 25 options whose labels, values and descriptions
hold at most 100; every ``custom_id`` holds at most 100 characters and is unique in its message.

A layout message has no ``content`` and no ``embeds`` (Discord answers 50035 with
MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2 at the field); its components are laid out freely:

* at the top: action rows, sections, text displays, media galleries, files, separators and containers;
* a container holds the same except containers; a section holds one to three text displays and a button or a
  thumbnail as its accessory; an action row holds one to five buttons or exactly one select menu;
* a media gallery shows 1 to 10 items, each an ``{"media": {"url": ...}}`` with alt text of at most 1,024
  characters; a file component and ``attachment://name`` media must name a file of the message;
* at most 40 components in all, nested ones counted (gallery items are not components); the text displays
  together hold at most 4,000 characters; ``custom_id``s and component ``id``s are unique in the message.

Every breach is reported at its path in the ``errors`` tree, as Discord does, so a test names what was wrong.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

ACTION_ROW, BUTTON, SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = (
    1,
    2,
    9,
    10,
    11,
    12,
    13,
    14,
    17,
)
SELECTS = {3, 5, 6, 7, 8}
TOP_LEVEL = (ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER)
IN_CONTAINER = (ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR)
ACCESSORIES = (BUTTON, THUMBNAIL)
MAX_CUSTOM_ID, MAX_LABEL, MAX_OPTIONS, MAX_OPTION_TEXT = 100, 80, 25, 100
STRING_SELECT = 3
MAX_COMPONENTS, MAX_TEXT, MAX_GALLERY, MAX_ALT_TEXT, MAX_SECTION_TEXTS = 40, 4000, 10, 1024, 3
LEGACY = "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"

Leaf = dict[str, Any]


def leaf(code: str, message: str) -> Leaf:
    """One error of the ``errors`` tree."""
    return {"_errors": [{"code": code, "message": message}]}


def legacy_field(field: str) -> Leaf:
    """``content`` or ``embeds`` sent with the flag."""
    return leaf(LEGACY, f"The '{field}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2")


def _choices(allowed: tuple[int, ...]) -> Leaf:
    listed = ", ".join(str(t) for t in allowed)
    return leaf("UNION_TYPE_CHOICES", f'Value of field "type" must be one of ({listed}).')


def check_item(item: dict[str, Any], where: list[str], report: Any, seen: set[str]) -> None:
    """A button or select menu at ``where``; ``seen`` collects the message's custom ids so far."""
    custom_id = item.get("custom_id")
    if custom_id is not None:
        if len(custom_id) > MAX_CUSTOM_ID:
            report([*where, "custom_id"], leaf("BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CUSTOM_ID} or fewer in length."))
        if custom_id in seen:
            report(
                [*where, "custom_id"],
                leaf("COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"),
            )
        seen.add(custom_id)
    if item.get("type") == BUTTON and len(item.get("label") or "") > MAX_LABEL:
        report([*where, "label"], leaf("BASE_TYPE_MAX_LENGTH", f"Must be {MAX_LABEL} or fewer in length."))
    if item.get("type") == STRING_SELECT:
        options = item.get("options") or []
        if not 1 <= len(options) <= MAX_OPTIONS:
            report([*where, "options"], leaf("BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_OPTIONS} in length."))
        for o, option in enumerate(options):
            for key in ("label", "value", "description"):
                if len(option.get(key) or "") > MAX_OPTION_TEXT:
                    message = f"Must be {MAX_OPTION_TEXT} or fewer in length."
                    report([*where, "options", str(o), key], leaf("BASE_TYPE_MAX_LENGTH", message))


def walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component of a message, nested ones included (a section's accessory too), parents first."""
    for component in components:
        yield component
        yield from walk(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            yield component["accessory"]


def attachment_name(url: Any) -> str | None:
    """The file an ``attachment://name`` url names, else None."""
    return url.removeprefix("attachment://") if isinstance(url, str) and url.startswith("attachment://") else None


class LayoutCheck:
    """Checks one layout message's components; ``files`` are the names of the files it has (uploads and kept
    attachments). ``report(path, leaf)`` receives each breach."""

    def __init__(self, files: set[str], report: Any) -> None:
        self.files = files
        self.report = report
        self.custom_ids: set[str] = set()
        self.ids: set[int] = set()

    def message(self, components: list[dict[str, Any]]) -> None:
        """The whole component list of a message."""
        total = sum(1 for _ in walk(components))
        if total > MAX_COMPONENTS:
            self.report(["components"], leaf("BASE_TYPE_MAX_LENGTH", f"Must be {MAX_COMPONENTS} or fewer in length."))
        if not components:
            self.report(["components"], leaf("BASE_TYPE_REQUIRED", "This field is required"))
        text = sum(len(c.get("content") or "") for c in walk(components) if c.get("type") == TEXT_DISPLAY)
        if text > MAX_TEXT:
            self.report(
                ["components"],
                leaf("BASE_TYPE_MAX_LENGTH", f"Text display content must total {MAX_TEXT} or fewer in length."),
            )
        for index, component in enumerate(components):
            self.component(component, ["components", str(index)], TOP_LEVEL)

    def component(self, component: dict[str, Any], where: list[str], allowed: tuple[int, ...]) -> None:
        """One component found where ``allowed`` types may stand."""
        kind = component.get("type")
        if kind not in allowed:
            self.report([*where, "type"], _choices(allowed))
            return
        self._unique_id(component, where)
        check = {
            ACTION_ROW: self._row,
            SECTION: self._section,
            TEXT_DISPLAY: self._text,
            MEDIA_GALLERY: self._gallery,
            FILE: self._file,
            SEPARATOR: self._separator,
            CONTAINER: self._container,
            BUTTON: self._interactive,
            THUMBNAIL: self._thumbnail,
        }[kind]
        check(component, where)

    def _unique_id(self, component: dict[str, Any], where: list[str]) -> None:
        number = component.get("id")
        if not number:
            return
        if number in self.ids:
            self.report([*where, "id"], leaf("COMPONENT_ID_DUPLICATED", "Component id cannot be duplicated"))
        self.ids.add(number)

    def _container(self, component: dict[str, Any], where: list[str]) -> None:
        children = component.get("components") or []
        if not children:
            self.report([*where, "components"], leaf("BASE_TYPE_REQUIRED", "This field is required"))
        colour = component.get("accent_color")
        if colour is not None and not (isinstance(colour, int) and 0 <= colour <= 0xFFFFFF):
            self.report([*where, "accent_color"], leaf("NUMBER_TYPE_MAX", "int value should be <= 16777215."))
        for index, child in enumerate(children):
            self.component(child, [*where, "components", str(index)], IN_CONTAINER)

    def _section(self, component: dict[str, Any], where: list[str]) -> None:
        texts = component.get("components") or []
        if not 1 <= len(texts) <= MAX_SECTION_TEXTS:
            message = f"Must be between 1 and {MAX_SECTION_TEXTS} in length."
            self.report([*where, "components"], leaf("BASE_TYPE_BAD_LENGTH", message))
        for index, child in enumerate(texts):
            self.component(child, [*where, "components", str(index)], (TEXT_DISPLAY,))
        accessory = component.get("accessory")
        if not isinstance(accessory, dict):
            self.report([*where, "accessory"], leaf("BASE_TYPE_REQUIRED", "This field is required"))
        else:
            self.component(accessory, [*where, "accessory"], ACCESSORIES)

    def _row(self, component: dict[str, Any], where: list[str]) -> None:
        items = component.get("components") or []
        if not 1 <= len(items) <= 5:
            self.report([*where, "components"], leaf("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."))
        if len(items) > 1 and any(item.get("type") in SELECTS for item in items):
            width = leaf("COMPONENT_LAYOUT_WIDTH_EXCEEDED", "The specified component exceeds the maximum width")
            self.report([*where, "components"], width)
        for index, item in enumerate(items):
            spot = [*where, "components", str(index)]
            if item.get("type") not in (BUTTON, *SELECTS):
                self.report([*spot, "type"], _choices((BUTTON, *sorted(SELECTS))))
                continue
            self._unique_id(item, spot)
            self._interactive(item, spot)

    def _interactive(self, item: dict[str, Any], where: list[str]) -> None:
        check_item(item, where, self.report, self.custom_ids)

    def _text(self, component: dict[str, Any], where: list[str]) -> None:
        content = component.get("content")
        if not isinstance(content, str) or not content:
            self.report([*where, "content"], leaf("BASE_TYPE_REQUIRED", "This field is required"))

    def _gallery(self, component: dict[str, Any], where: list[str]) -> None:
        items = component.get("items") or []
        if not 1 <= len(items) <= MAX_GALLERY:
            message = f"Must be between 1 and {MAX_GALLERY} in length."
            self.report([*where, "items"], leaf("BASE_TYPE_BAD_LENGTH", message))
        for index, item in enumerate(items):
            spot = [*where, "items", str(index)]
            self._media(item.get("media"), [*spot, "media"])
            if len(item.get("description") or "") > MAX_ALT_TEXT:
                self.report([*spot, "description"], leaf("BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ALT_TEXT} or fewer."))

    def _thumbnail(self, component: dict[str, Any], where: list[str]) -> None:
        self._media(component.get("media"), [*where, "media"])
        if len(component.get("description") or "") > MAX_ALT_TEXT:
            self.report([*where, "description"], leaf("BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ALT_TEXT} or fewer."))

    def _file(self, component: dict[str, Any], where: list[str]) -> None:
        media = component.get("file")
        url = media.get("url") if isinstance(media, dict) else None
        if attachment_name(url) is None:
            message = "The file component only supports attachment:// references"
            self.report([*where, "file", "url"], leaf("UNFURLED_MEDIA_ITEM_INVALID_PROTOCOL", message))
            return
        self._media(media, [*where, "file"])

    def _media(self, media: Any, where: list[str]) -> None:
        url = media.get("url") if isinstance(media, dict) else None
        if not isinstance(url, str) or not url:
            self.report([*where, "url"], leaf("BASE_TYPE_REQUIRED", "This field is required"))
            return
        name = attachment_name(url)
        if name is not None and name not in self.files:
            message = f"The attachment {name!r} is not a file of this message"
            self.report([*where, "url"], leaf("UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND", message))

    def _separator(self, component: dict[str, Any], where: list[str]) -> None:
        if component.get("spacing", 1) not in (1, 2):
            self.report([*where, "spacing"], leaf("BASE_TYPE_CHOICES", "Value must be one of {1, 2}."))
        if not isinstance(component.get("divider", True), bool):
            self.report([*where, "divider"], leaf("BASE_TYPE_BOOLEAN", "Must be either true or false."))
