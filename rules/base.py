"""The contract every game engine follows.

A game is described once by a :class:`GameDef` (name, options, player counts, help) and played through a
:class:`GameState` created from ``(options, players, seed)``. The state feels like python-chess's ``Board``:
``legal_moves`` is a lazy collection, ``parse_move`` reads pbmserv notation against the position, ``push``
applies a move and returns the :class:`Event` list it caused, ``outcome`` tells who won and why.

Everything here is pure: no I/O, no asyncio, no Pillow. All randomness comes from :class:`rules.rng.Rng`,
whose state is part of the game's JSON, so a game replays exactly from its seed and its move list.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

# --------------------------------------------------------------------------------------------------------------
# Errors


class GameError(ValueError):
    """Base of every error a player's input can cause; the message is shown to the player as is."""


class OptionError(GameError):
    """A challenge option is unknown, malformed, out of range or conflicts with another, or the number of
    players does not fit the game."""


class MoveError(GameError):
    """A move was refused. ``text`` is what the player typed, ``reason`` says why in the game's own words and
    ``expected`` (optional) what would have been accepted."""

    def __init__(self, text: str, reason: str, expected: str | None = None) -> None:
        self.text = text
        self.reason = reason
        self.expected = expected
        message = f"{text}: {reason}" if text else reason
        if expected:
            message += f" (expected {expected})"
        super().__init__(message)


class MoveSyntaxError(MoveError):
    """The text is not a move in this game's notation."""


class IllegalMoveError(MoveError):
    """The text reads as a move, but the rules forbid it here (or it is not this player's turn)."""


class AmbiguousMoveError(MoveError):
    """The text matches several different legal moves; the message says how to tell them apart."""


class StateFormatError(ValueError):
    """A serialised state cannot be loaded: wrong game, unknown format version, or damaged content."""


# --------------------------------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True)
class Option:
    """One challenge option, declared once: it feeds the parser, the help text and the Discord front.

    ``kind`` is ``bool`` for a flag (``-hex``) or ``int`` for a value (``-size=8``). A ``default`` of ``None``
    means the game computes it from the other options (Druid's size depends on ``-hex``). ``conflicts`` names
    options that may not be given together with this one. ``ranges`` replaces ``minimum..maximum`` and the default
    in help texts when both depend on other options (Druid: per board shape); ``minimum``/``maximum`` then give
    the widest range, which the parser checks before the game checks the rest.
    """

    name: str
    kind: type
    default: bool | int | None
    help: str
    minimum: int | None = None
    maximum: int | None = None
    conflicts: tuple[str, ...] = ()
    ranges: str = ""

    @property
    def spelling(self) -> str:
        """The pbmserv spelling: ``-hex`` or ``-size=n``."""
        return f"-{self.name}" if self.kind is bool else f"-{self.name}=n"

    def describe(self) -> str:
        """One line for help texts: spelling, range, default and description."""
        extra = []
        if self.ranges:
            extra.append(self.ranges)
        elif self.kind is int:
            if self.minimum is not None and self.maximum is not None:
                extra.append(f"{self.minimum}..{self.maximum}")
            if self.default is not None:
                extra.append(f"default {self.default}")
        suffix = f" ({', '.join(extra)})" if extra else ""
        return f"{self.spelling}{suffix}: {self.help}"


def parse_options(declared: Sequence[Option], tokens: Iterable[str]) -> dict[str, bool | int | None]:
    """Read pbmserv option words (``-size=8 -hex``) into a complete ``{name: value}`` mapping.

    Every declared option is present in the result (flags default to ``False``). Raises :class:`OptionError`
    naming the offending option for an unknown name, a value on a flag, a missing or non-integer value, a value
    out of range, a repeated option, or two conflicting options.
    """
    by_name = {opt.name: opt for opt in declared}
    values: dict[str, bool | int | None] = {opt.name: (False if opt.kind is bool else opt.default) for opt in declared}
    given: list[str] = []
    for token in tokens:
        if not token.startswith("-") or len(token) < 2:
            raise OptionError(f"{token!r} is not an option: options start with '-', like -size=8")
        name, sep, raw = token[1:].partition("=")
        name = name.lower()
        opt = by_name.get(name)
        if opt is None:
            known = ", ".join(o.spelling for o in declared) or "none"
            raise OptionError(f"unknown option -{name} (this game knows: {known})")
        if name in given:
            raise OptionError(f"option -{name} is given twice")
        if opt.kind is bool:
            if sep:
                raise OptionError(f"option -{name} is a switch and takes no value (write just -{name})")
            values[name] = True
        else:
            if not sep or raw == "":
                raise OptionError(f"option -{name} needs a value, like -{name}=8")
            if not (raw.isascii() and raw.isdigit()):
                shown = raw if len(raw) <= 12 else raw[:12] + "…"
                raise OptionError(f"option -{name}: {shown!r} is not a whole number written with the digits 0-9")
            number = int(raw) if len(raw) <= 9 else 10**9
            if (opt.minimum is not None and number < opt.minimum) or (opt.maximum is not None and number > opt.maximum):
                raise OptionError(f"option -{name}={number} is out of range ({opt.minimum}..{opt.maximum})")
            values[name] = number
        given.append(name)
    for name in given:
        for other in by_name[name].conflicts:
            if other in given:
                raise OptionError(f"options -{name} and -{other} cannot be used together")
    return values


def format_options(declared: Sequence[Option], values: Mapping[str, Any]) -> str:
    """The pbmserv spelling of the options that differ from their defaults, e.g. ``-size=8 -hex``."""
    words = []
    for opt in declared:
        value = values.get(opt.name)
        if opt.kind is bool:
            if value:
                words.append(f"-{opt.name}")
        elif value is not None and value != opt.default:
            words.append(f"-{opt.name}={value}")
    return " ".join(words)


# --------------------------------------------------------------------------------------------------------------
# Events and outcomes


@dataclass(frozen=True)
class Event:
    """Something a move caused, for the log and for the message a front posts.

    ``kind`` is a short machine word (``roll``, ``hit``, ``capture``, ``auto``, ``pass``, ``skip``, ``swap``,
    ``double``, ``take``, ``drop``, ``resign``, ``win``, ``draw`` ...); ``text`` is a sentence for people;
    ``player`` the seat it concerns, if any; ``data`` extra JSON-able details for renderers and tests.
    """

    kind: str
    text: str
    player: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text}
        if self.player is not None:
            out["player"] = self.player
        if self.data:
            out["data"] = dict(self.data)
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Event:
        return cls(str(raw["kind"]), str(raw["text"]), raw.get("player"), dict(raw.get("data", {})))


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``winners`` are seat indices (empty for a draw or a cancelled game); ``scores`` per
    seat where the game counts them; ``points`` the value of the win (Backgammon's gammons and cube)."""

    winners: tuple[int, ...]
    reason: str
    scores: tuple[float, ...] | None = None
    points: int = 1
    cancelled: bool = False
    #: why the game ended, where a rating or listing needs it and ``reason`` is a sentence: ``timeout`` (a player
    #: ran out of time), ``agreement`` (a draw all players agreed to), ``decision`` (a moderator decided it); empty
    #: for an ending on the board
    cause: str = ""

    @property
    def draw(self) -> bool:
        return not self.winners and not self.cancelled

    def to_json(self) -> dict[str, Any]:
        out = {
            "winners": list(self.winners),
            "reason": self.reason,
            "scores": None if self.scores is None else list(self.scores),
            "points": self.points,
            "cancelled": self.cancelled,
        }
        if self.cause:  # absent on board endings, so states saved before causes existed read back equal
            out["cause"] = self.cause
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, Any] | None) -> Outcome | None:
        if raw is None:
            return None
        scores = raw.get("scores")
        return cls(
            tuple(int(w) for w in raw["winners"]),
            str(raw["reason"]),
            None if scores is None else tuple(scores),
            int(raw.get("points", 1)),
            bool(raw.get("cancelled", False)),
            str(raw.get("cause", "")),
        )


# --------------------------------------------------------------------------------------------------------------
# Moves


class LegalMoves:
    """A lazy collection of the legal moves of a position: iterate it, test ``move in legal``, ``len()`` it.

    Nothing is generated until asked, and then only once; ``contains`` (when the game gives one) answers ``in``
    without enumerating, and ``bool`` stops at the first move.
    """

    def __init__(self, generate: Callable[[], Iterator[Any]], contains: Callable[[Any], bool] | None = None) -> None:
        self._generate = generate
        self._contains = contains
        self._cache: list[Any] | None = None

    def _all(self) -> list[Any]:
        if self._cache is None:
            self._cache = list(self._generate())
        return self._cache

    def __iter__(self) -> Iterator[Any]:
        # the list is made once: ``list(legal)`` asks for ``len`` after ``iter``, which would generate it twice
        return iter(self._all())

    def __contains__(self, move: object) -> bool:
        if self._contains is not None:
            return self._contains(move)
        return move in self._all()

    def __len__(self) -> int:
        return len(self._all())

    def count(self) -> int:
        return len(self)

    def __bool__(self) -> bool:
        if self._cache is not None:
            return bool(self._cache)
        return next(iter(self._generate()), None) is not None


@dataclass(frozen=True)
class Resign:
    """A player gives up. Handled by :class:`GameState` itself, the same way in every game."""

    player: int

    def __str__(self) -> str:
        return "resign"


# --------------------------------------------------------------------------------------------------------------
# Game states


class GameState(ABC):
    """The evolving state of one game; subclasses hold the board.

    The base keeps what every pbmserv game shares: the seats (``players``, in seat order, which a swap may
    change), the options, the number of moves made (``ply``), resigned seats (and which of them ran out of time),
    resignations queued out of turn, and the final outcome. Subclasses implement the abstract hooks and call
    :meth:`_finish` when the game ends.
    """

    game: ClassVar[GameDef]
    FORMAT_VERSION: ClassVar[int] = 1
    #: earlier format versions that :meth:`_load` still reads
    OLD_VERSIONS: ClassVar[tuple[int, ...]] = ()

    def __init__(self, options: Mapping[str, Any], players: Sequence[str], seed: int) -> None:
        self.options: dict[str, Any] = dict(options)
        self.players: list[str] = list(players)
        self.seed = seed
        self.ply = 0
        self.resigned: set[int] = set()
        #: the resigned seats that are out because their time ran out (boards say "out of time", not "resigned")
        self.timed_out: set[int] = set()
        self.queued_resign: set[int] = set()
        self._outcome: Outcome | None = None

    # ---- what the game must provide ----------------------------------------------------------------------

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """Seat of the player who must act now, or ``None`` when the game is over."""

    @property
    @abstractmethod
    def legal_moves(self) -> LegalMoves:
        """The moves the player to move may make now."""

    @abstractmethod
    def parse_move(self, text: str, player: int | None = None) -> Any:
        """Read ``text`` (pbmserv notation) as a move of ``player`` (default: the player to move) in this
        position. Raises :class:`MoveSyntaxError`, :class:`IllegalMoveError` or :class:`AmbiguousMoveError`.
        Only games with commands allowed out of turn (Backgammon's ``greedy``) accept another player."""

    @abstractmethod
    def _push(self, move: Any) -> list[Event]:
        """Apply a legal move of the player to move and return its events (not ``resign``: the base does it)."""

    @abstractmethod
    def text_board(self) -> str:
        """The board as monospaced text."""

    @abstractmethod
    def _dump(self) -> dict[str, Any]:
        """The game-specific part of the JSON form."""

    @abstractmethod
    def _load(self, data: Mapping[str, Any]) -> None:
        """Restore the game-specific part from :meth:`_dump`'s output; raise on anything malformed."""

    def move_text(self, move: Any) -> str:
        """The canonical text of a move in this position, as a player types it: the legal-move lists, previews
        and conditional moves use it."""
        return str(move)

    def log_text(self, move: Any) -> str:
        """The text the move log keeps for a move of this position, which the history shows and a replay parses
        again in the same position. It must stay true when read later, without this position's board: most
        games' canonical text does; Dragons' numbers this turn's open positions, so it logs the fixed form."""
        return self.move_text(move)

    def random_move(self, rng: Any) -> Any:
        """A uniformly random legal move of the player to move, for playouts and search: the same distribution
        as choosing from ``list(state.legal_moves)``. ``rng`` is a ``random.Random`` or a :class:`rules.rng.Rng`
        (anything with ``randrange(n)``); the game's own generator is not touched. Games override this with a
        draw that does not list every move; forced moves (:meth:`forced_move`) are the caller's to play first."""
        if self._outcome is not None:
            raise IllegalMoveError("", "the game is over")
        moves = list(self.legal_moves)
        return moves[rng.randrange(len(moves))]

    def memory(self) -> Sequence[int]:
        """Append-only values the game keeps outside its snapshot (Drogo: the position hashes seen, oldest first,
        as unsigned 64-bit ints, packed: a :class:`rules.memory.Memory`); empty for games without.

        A game's history can grow without bound, and its snapshot is rewritten after every move: values that
        only ever grow are stored beside it, each once. After a move, ``memory()[n:]`` are the values new since
        the ``n`` already stored."""
        return []

    def restore_memory(self, values: Sequence[int]) -> None:
        """Give a state loaded from JSON its memory back: call it with every stored value, oldest first, right
        after :meth:`from_json`. Until then a game with memory judges moves as if nothing before the current
        position had been seen. Raises :class:`StateFormatError` for values that do not fit the position."""
        if values:
            raise StateFormatError(f"{self.game.name} keeps no memory outside its snapshot")

    def _forced_move(self) -> Any | None:
        """A move the server must make for the player to move (a forced pass, the only legal play), or ``None``."""
        return None

    def _on_resign(self, player: int) -> list[Event]:
        """Called after ``player`` resigned while others play on (three or more seats); games with turn order
        state override it to move the turn along. The default does nothing."""
        return []

    def _resign_outcome(self, player: int, winner: int) -> Outcome:
        """The outcome when ``player`` resigns and ``winner`` is the last one left; Backgammon counts its cube."""
        return Outcome((winner,), f"{self.players[player]} resigned")

    # ---- shared behaviour --------------------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        return self._outcome

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    def out_reason(self, seat: int) -> str:
        """Why ``seat`` is out of the game, for boards and seat lists: ``out of time``, ``resigned``, or ``""``
        while they play on."""
        if seat in self.timed_out:
            return "out of time"
        return "resigned" if seat in self.resigned else ""

    def active_seats(self) -> list[int]:
        """Seats that have not resigned, in seat order."""
        return [seat for seat in range(len(self.players)) if seat not in self.resigned]

    def next_active(self, seat: int) -> int:
        """The next seat after ``seat`` that has not resigned."""
        n = len(self.players)
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if candidate not in self.resigned:
                return candidate
        return seat

    def seat_of(self, player: str) -> int:
        """Seat index of a player id; raises :class:`IllegalMoveError` for someone not in the game."""
        try:
            return self.players.index(player)
        except ValueError:
            raise IllegalMoveError("", f"{player} is not playing in this game") from None

    def _finish(self, outcome: Outcome) -> None:
        self._outcome = outcome

    def turn_context(self) -> str:
        """What the player to move plays with that the move's text does not say (Backgammon: the dice), shown
        beside their move in the history; empty for games without chance."""
        return ""

    def forced_move(self) -> Any | None:
        """What the server plays next without waiting for a player: a queued resignation falls due, or the
        game's forced move (marked ``(Auto)`` in the history). ``None`` when a player must decide."""
        if self._outcome is not None:
            return None
        seat = self.to_move
        if seat is not None and seat in self.queued_resign:
            return Resign(seat)
        return self._forced_move()

    def check_turn(self, player: int | None) -> int:
        """The seat that acts: ``player`` or the player to move; refuses moves out of turn or after the end."""
        if self._outcome is not None:
            raise IllegalMoveError("", "the game is over")
        seat = self.to_move if player is None else player
        if seat is None or seat != self.to_move:
            name = self.players[self.to_move] if self.to_move is not None else "nobody"
            raise IllegalMoveError("", f"it is not your turn (waiting for {name})")
        return seat

    def push(self, move: Any) -> list[Event]:
        """Apply ``move`` and return the events it caused. ``move`` must come from :meth:`parse_move`,
        :attr:`legal_moves` or :meth:`forced_move`."""
        if self._outcome is not None:
            raise IllegalMoveError(str(move), "the game is over")
        events = self._resign(move.player) if isinstance(move, Resign) else self._push(move)
        if self._counts(move):
            self.ply += 1
        return events

    def push_preview(self, move: Any) -> list[Event]:
        """Apply ``move`` as :meth:`push` does for a preview: where what follows the move is left to chance (the
        next player's dice), stop before it, since nobody may know it before the move is made. Games without
        chance play it out as :meth:`push`."""
        return self.push(move)

    def _counts(self, move: Any) -> bool:
        """Whether ``move`` advances the move counter; pbmserv's swap does not (Druid overrides this)."""
        return True

    def resign(self, player: int) -> list[Event]:
        """``player`` resigns: now if it is their turn, else queued until their turn comes, as pbmserv did;
        resigning again while queued withdraws it. The move counter only advances when it takes effect."""
        if self._outcome is not None:
            raise IllegalMoveError("resign", "the game is over")
        if player in self.resigned:
            raise IllegalMoveError("resign", "you have already resigned")
        if player == self.to_move:
            self.queued_resign.discard(player)
            return self.push(Resign(player))
        if player in self.queued_resign:
            self.queued_resign.discard(player)
            return [Event("resign", f"{self.players[player]} withdrew the queued resignation", player)]
        self.queued_resign.add(player)
        return [Event("resign", f"{self.players[player]} will resign when their turn comes", player, {"queued": True})]

    def time_out(self, player: int) -> list[Event]:
        """``player``, who is to move, ran out of time on a correspondence clock: they are out of the game as if
        they had resigned (pbmserv), so with two players the other wins, and with more the others play on. The
        outcome's ``cause`` is ``timeout``. The move counter advances, as for a resignation."""
        if self._outcome is not None:
            raise IllegalMoveError("timeout", "the game is over")
        if player != self.to_move:
            raise IllegalMoveError("timeout", f"{self.players[player]} is not to move, so their time is not running")
        events = self._resign(player, timed_out=True)
        self.ply += 1
        return events

    def agree_draw(self) -> list[Event]:
        """Every player agreed to a draw (``propose draw``): the game ends drawn, ``cause`` ``agreement``.
        Games whose :attr:`GameDef.draws` is false (Backgammon) have no draws and refuse it."""
        if self._outcome is not None:
            raise IllegalMoveError("draw", "the game is over")
        if not self.game.draws:
            raise IllegalMoveError("draw", f"{self.game.title} has no draws")
        self._finish(Outcome((), "drawn by agreement", cause="agreement"))
        return [Event("draw", "the players agreed to a draw")]

    def carry_context(self, saved: Mapping[str, Any]) -> None:
        """Take from ``saved`` (a saved state of this same game, :meth:`to_json`) what the game started with that its
        options, players and seed do not say, so that replaying its log from the start gives the same game: a
        Backgammon match's score before the game. Games without such context have nothing to take."""
        del saved

    def adopt_dice(self, later: GameState) -> None:
        """Take the random generator of ``later`` (a later position of this game): a move taken back is then
        played again with the dice already rolled, and the rolls to come are not the ones that were seen, so
        nobody can fish for better dice by taking moves back. Games without chance have nothing to take."""
        del later

    def cancel(self, reason: str) -> None:
        """End the game without a result (a player declined to play in the first round, or a moderator
        cancelled it)."""
        self._finish(Outcome((), reason, points=0, cancelled=True))

    def decide(self, winners: Sequence[int], reason: str) -> list[Event]:
        """A moderator ends the game: the seats ``winners`` win and every other seat loses, for ``reason``; the
        outcome's ``cause`` is ``decision``. The move counter stays where it is, as for a draw by agreement."""
        if self._outcome is not None:
            raise IllegalMoveError("decide", "the game is over")
        seats = tuple(sorted(set(winners)))
        if not seats or any(not 0 <= seat < len(self.players) for seat in seats):
            raise IllegalMoveError("decide", "a decision names at least one winner among the players")
        self._finish(Outcome(seats, reason, cause="decision"))
        names = " and ".join(self.players[seat] for seat in seats)
        return [Event("win", f"{names} {'wins' if len(seats) == 1 else 'win'}: {reason}", seats[0])]

    def _resign(self, player: int, *, timed_out: bool = False) -> list[Event]:
        self.queued_resign.discard(player)
        self.resigned.add(player)
        if timed_out:
            self.timed_out.add(player)
        name = self.players[player]
        what = "ran out of time" if timed_out else "resigned"
        events = [Event("timeout" if timed_out else "resign", f"{name} {what}", player)]
        left = self.active_seats()
        if len(left) == 1:
            outcome = self._resign_outcome(player, left[0])
            if timed_out:
                outcome = Outcome(
                    outcome.winners, f"{name} ran out of time", outcome.scores, outcome.points, cause="timeout"
                )
            self._finish(outcome)
            events.append(Event("win", f"{self.players[left[0]]} wins: {name} {what}", left[0]))
        else:
            events.extend(self._on_resign(player))
        return events

    # ---- serialisation -----------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """A lossless JSON-able form: ``from_json(to_json())`` equals the state. ``timed_out`` is written only when
        someone ran out of time, so states saved before it was kept read back equal (see :meth:`from_json`)."""
        out: dict[str, Any] = {
            "game": self.game.name,
            "version": self.FORMAT_VERSION,
            "options": self.options,
            "players": self.players,
            "seed": self.seed,
            "ply": self.ply,
            "resigned": sorted(self.resigned),
            "queued_resign": sorted(self.queued_resign),
            "outcome": None if self._outcome is None else self._outcome.to_json(),
            "board": self._dump(),
        }
        if self.timed_out:
            out["timed_out"] = sorted(self.timed_out)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameState:
        """Rebuild a state from :meth:`to_json`; raises :class:`StateFormatError` for anything malformed."""
        try:
            if data.get("game") != cls.game.name:
                raise StateFormatError(f"this is a {data.get('game')!r} state, not {cls.game.name!r}")
            if data.get("version") not in (cls.FORMAT_VERSION, *cls.OLD_VERSIONS):
                raise StateFormatError(
                    f"unknown {cls.game.name} format version {data.get('version')!r} (expected {cls.FORMAT_VERSION})"
                )
            state = cls.__new__(cls)
            GameState.__init__(state, dict(data["options"]), [str(p) for p in data["players"]], int(data["seed"]))
            state.ply = int(data["ply"])
            state.resigned = {int(s) for s in data["resigned"]}
            state.queued_resign = {int(s) for s in data["queued_resign"]}
            state._outcome = Outcome.from_json(data["outcome"])
            timed_out = data.get("timed_out")
            state.timed_out = state._last_timed_out() if timed_out is None else {int(s) for s in timed_out}
            state._load(data["board"])
        except StateFormatError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise StateFormatError(f"damaged {cls.game.name} state: {type(exc).__name__}: {exc}") from exc
        return state

    def _last_timed_out(self) -> set[int]:
        """For a state saved before ``timed_out`` was kept: the seat whose running out of time ended the game, read
        from the outcome (its cause, and the reason :meth:`time_out` wrote); earlier timeouts in a game of three
        or four were not recorded and read as resignations."""
        outcome = self._outcome
        if outcome is None or outcome.cause != "timeout":
            return set()
        return {seat for seat in self.resigned if outcome.reason == f"{self.players[seat]} ran out of time"}

    def clone(self) -> GameState:
        """An independent copy (for previews, search and tests). Games whose states a search copies often
        override it with a copy made field by field (see :meth:`_clone_base`)."""
        return copy.deepcopy(self)

    def _clone_base(self) -> Self:
        """A shallow copy with this class's own mutable fields copied: the start of a game's field-by-field
        ``clone``, which then copies its own containers and shares what never changes."""
        new = copy.copy(self)
        new.options = dict(self.options)
        new.players = list(self.players)
        new.resigned = set(self.resigned)
        new.timed_out = set(self.timed_out)
        new.queued_resign = set(self.queued_resign)
        return new

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # states are mutable


# --------------------------------------------------------------------------------------------------------------
# Game descriptions


@dataclass(frozen=True)
class GameDef:
    """What the registry knows of a game: its name, options, player counts, help and state class.

    ``validate`` checks combinations that single options cannot (Druid's ``-walk`` with a two-player hex board)
    and fills defaults that depend on other options; it returns the final option mapping.
    """

    name: str
    title: str
    summary: str
    options: tuple[Option, ...]
    min_players: int
    max_players: int
    state_class: type[GameState]
    help: str
    notation: str
    validate: Callable[[dict[str, Any], int], dict[str, Any]] = lambda options, nplayers: options
    extra_commands: tuple[str, ...] = ()
    #: whether the game can end drawn, so players may agree to a draw (Backgammon cannot)
    draws: bool = True
    #: commands that can never be taken back (Backgammon's dice and cube: taking them back would undo chance)
    final_commands: tuple[str, ...] = ()
    #: for a game whose moves make moves of the server's inside them (Dragons' auto moves): from a logged action's
    #: text and events (:meth:`Event.to_json`), the text the history shows for it and the moves the server made
    #: in it, each listed on a line of its own marked (Auto); ``None``: the logged text alone
    history_moves: Callable[[str, Sequence[Mapping[str, Any]]], tuple[str, list[str]]] | None = None

    def parse_options(self, tokens: Iterable[str], nplayers: int) -> dict[str, Any]:
        """Parse and validate pbmserv option words for a game of ``nplayers``; raises :class:`OptionError`."""
        values = parse_options(self.options, tokens)
        if not self.min_players <= nplayers <= self.max_players:
            if self.min_players == self.max_players:
                wanted = f"exactly {self.min_players}"
            else:
                wanted = f"{self.min_players} to {self.max_players}"
            raise OptionError(f"{self.title} is played by {wanted} players, not {nplayers}")
        return self.validate(values, nplayers)

    def new(self, options: Mapping[str, Any], players: Sequence[str], seed: int) -> GameState:
        """Start a game. ``options`` must come from :meth:`parse_options`."""
        return self.state_class(options, players, seed)

    def load(self, data: Mapping[str, Any]) -> GameState:
        return self.state_class.from_json(data)

    def format_options(self, values: Mapping[str, Any]) -> str:
        return format_options(self.options, values)
