"""The "new challenge" form: every game's own options, the options every game takes and an open challenge's rating
range, each a field of its own, read into pbmserv's option words and checked by the same parsers as the console's
and Discord's options (``parse_options`` and the server's). A mistake is shown beside the field it is about: a
field is first checked alone (a number out of range, not a number), then the whole set (conflicts, the board's
size for its shape, the number of players); a message naming an option goes beside that option's field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.actions import InputError, check_player_name
from bot.correspondence.options import (
    SEAT_OPTIONS,
    SERVER_OPTIONS,
    parse_rating_range,
    parse_time_rules,
    split_options,
    split_seat_options,
)
from rules import registry
from rules.base import GameDef, GameError, Option, parse_options

#: the most opponents a challenge names or leaves open (Drogo seats four)
MAX_OPPONENTS = 3
#: an option named in a parser's message: "-size", "option -days: ..."
_OPTION_NAMED = re.compile(r"-([a-z_]+)")


@dataclass
class FieldSpec:
    """One option as a form field: its name in the form, the option, and the label and hint shown."""

    name: str
    option: Option

    @property
    def label(self) -> str:
        return self.option.spelling.removesuffix("=n")

    @property
    def is_switch(self) -> bool:
        return self.option.kind is bool

    @property
    def hint(self) -> str:
        return self.option.describe().split(": ", 1)[-1]


@dataclass
class ChallengeForm:
    """What was typed in the form, and the mistakes found, by field (``"form"``: about the whole)."""

    game: str = ""
    values: dict[str, str] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    opponents: list[str] = field(default_factory=list)
    open_seats: int = 0
    words: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def game_fields(game: GameDef) -> list[FieldSpec]:
    """A game's own options as fields, named ``<game>-<option>``."""
    return [FieldSpec(f"{game.name}-{option.name}", option) for option in game.options]


def common_fields() -> list[FieldSpec]:
    """The options every game takes (clock, takebacks, ratings), then an open challenge's rating range."""
    return [FieldSpec(f"all-{option.name}", option) for option in (*SERVER_OPTIONS, *SEAT_OPTIONS)]


def every_game() -> list[GameDef]:
    return [registry.get(name) for name in registry.names()]


def read_challenge(form: Mapping[str, str], challenger: str) -> ChallengeForm:
    """Read and check the form (see the module docstring); ``words`` are the option words when ``ok``."""
    read = ChallengeForm(values={k: str(v) for k, v in form.items()})
    read.game = read.values.get("game", "")
    try:
        game = registry.get(read.game)
    except GameError:
        read.errors["game"] = "Choose one of the games."
        return read
    read.game = game.name
    _read_opponents(read, challenger)
    specs = game_fields(game) + common_fields()
    owner: dict[str, str] = {}
    for spec in specs:
        owner[spec.option.name] = spec.name
        word = _word(spec, read.values.get(spec.name, ""))
        if word is None:
            continue
        try:
            parse_options([spec.option], [word])
        except GameError as exc:
            read.errors[spec.name] = _said(str(exc))
            continue
        read.words.append(word)
    if read.errors:
        return read
    _check_together(read, game, owner)
    return read


def _word(spec: FieldSpec, raw: str) -> str | None:
    """The option word a field makes (``-hex``, ``-size=8``), or ``None`` when it is left as it is."""
    raw = raw.strip()
    if spec.is_switch:
        return f"-{spec.option.name}" if raw in ("on", "yes", "1", "true") else None
    if raw == "":
        return None
    return f"-{spec.option.name}={raw}"


def _read_opponents(read: ChallengeForm, challenger: str) -> None:
    """The opponents typed (a player, ``ai:1``..``ai:3``, or ``open`` for a seat anyone may take)."""
    for index in range(1, MAX_OPPONENTS + 1):
        name = f"opponent{index}"
        typed = read.values.get(name, "").strip()
        if not typed:
            continue
        if typed.lower() == "open":
            read.open_seats += 1
            continue
        try:
            check_player_name(typed)
        except InputError as exc:
            read.errors[name] = _said(str(exc))
            continue
        if typed == challenger or typed in read.opponents:
            read.errors[name] = "A player takes one seat: name each opponent once, and not yourself."
            continue
        read.opponents.append(typed)
    if not read.opponents and not read.open_seats and "opponent1" not in read.errors:
        read.errors["opponent1"] = "Name an opponent, a computer player (ai:1 to ai:3), or open for anyone."


def _check_together(read: ChallengeForm, game: GameDef, owner: dict[str, str]) -> None:
    """The options as a whole, by the parsers the challenge itself uses: a message naming an option goes to its
    field, any other to the form."""
    players = 1 + len(read.opponents) + read.open_seats
    try:
        words, range_words = split_seat_options(read.words)
        game_words, server_words = split_options(words)
        game.parse_options(game_words, players)
        parse_time_rules(server_words)
        parse_rating_range(range_words)
        if range_words and not read.open_seats:
            raise GameError("a rating range is for open seats: leave a seat open, or leave out the range")
    except GameError as exc:
        message = str(exc)
        named = [owner[n] for n in _OPTION_NAMED.findall(message) if n in owner]
        where = named[0] if named else ("opponent1" if "played by" in message else "form")
        read.errors[where] = _said(message)


def _said(text: str) -> str:
    line = " ".join(text.split())
    line = line[:1].upper() + line[1:]
    return line if line.endswith((".", "!", "?")) else line + "."
