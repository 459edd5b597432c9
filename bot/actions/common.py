"""What every action shares: the :class:`Result` fronts present, reading numbers and names players type,
status lines, and replaying the move log."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.text import match_resign_question
from data.store import (
    DamagedRowError,
    GameRow,
    GameSummary,
    LogEntry,
    LogRow,
)
from rules.base import Event, GameDef, GameError, GameState, MoveError, MoveSyntaxError, Resign

_MOVE_NUMBER = re.compile(r"^(?P<text>.*?)\s*#\s*(?P<number>[^\s#]*)\s*$", re.S)
_ASCII_NUMBER = re.compile(r"[0-9]+")
#: how many legal moves ``moves`` lists at most (Discord autocomplete shows 25)
MOVE_LIST_LIMIT = 25
#: the largest game or challenge number (SQLite's integers are signed 64-bit)
MAX_ID = 2**63 - 1
#: the longest move text read; longer input is refused before any parsing
MAX_MOVE_TEXT = 200
#: the most positions a replay holds (a longer game is shown in evenly spread steps)
REPLAY_FRAMES = 200
#: how many games a listing shows at once
PAGE_SIZE = 50
#: what a moderator's actions are logged as: ``cancel`` and ``decide`` by nobody at the board (the moderator and the
#: reason are in the event's data), ``forfeit`` by the player removed (see :mod:`bot.actions.moderation`)
MODERATION_ENTRIES = ("cancel", "decide", "forfeit")
#: words a listing reads as filters, so they cannot be player names
RESERVED_NAMES = ("all", "active", "inactive", "next", "page", "open", "clear")
_PLAYER_NAME = re.compile(r"[A-Za-z0-9_.-]{1,32}")


class InputError(ValueError):
    """A number or name typed by a player cannot be read; the message says why, in one line."""


def shorten(text: str, limit: int = 40) -> str:
    """What a player typed, cut for echoing in a message: never more than ``limit`` characters, one line."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def parse_number(word: str, what: str, maximum: int = MAX_ID) -> int:
    """A positive number written with the ASCII digits 0-9 and at most ``maximum``; anything else (other
    scripts' digits, superscripts, signs, a number too large to store) raises :class:`InputError`."""
    if not _ASCII_NUMBER.fullmatch(word):
        raise InputError(f"{shorten(word)!r} is not a {what}: write it with the digits 0-9")
    if len(word) > len(str(maximum)) or int(word) > maximum or int(word) == 0:
        raise InputError(f"{shorten(word)} is not a {what}: it must be between 1 and {maximum}")
    return int(word)


def check_player_name(name: str) -> None:
    """Console player names: 1-32 letters, digits, ``_``, ``.`` or ``-`` (the characters of Discord usernames),
    and not a word that listings read as a filter; or a computer player, ``ai:1`` to ``ai:3`` (a colon never
    occurs in a Discord username, so they never collide with a member)."""
    if name.lower().startswith("ai:"):
        from ai import is_ai

        if is_ai(name):
            return
        raise InputError(f"{shorten(name)!r} is not a computer player: they are ai:1 (easy), ai:2 and ai:3 (hard)")
    if not _PLAYER_NAME.fullmatch(name):
        raise InputError(f"{shorten(name)!r} cannot be a player name: use 1 to 32 letters, digits, '_', '.' or '-'")
    if name.lower() in RESERVED_NAMES:
        raise InputError(f"{name!r} cannot be a player name: listings read it as a filter word")


@dataclass
class Result:
    """What an action did. ``notify`` lists the players to ping (the player to move after a turn change);
    ``state`` is the position to draw (``None`` when there is no board to show)."""

    ok: bool
    message: str
    game_id: int | None = None
    game_type: str | None = None
    move_number: int | None = None
    to_move: str | None = None
    status: str | None = None
    winners: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    notify: list[str] = field(default_factory=list)
    state: GameState | None = None
    items: list[str] = field(default_factory=list)
    challenge_id: int | None = None
    players: list[str] = field(default_factory=list)
    legal_moves: list[str] | None = None
    frames: list[tuple[GameState, str]] = field(default_factory=list)
    #: seconds left per player on a timed game's clock (the player to move's running clock, the others' next
    #: turn), and the same in a few words for pictures and text boards
    clock: dict[str, float] = field(default_factory=dict)
    clock_notes: dict[str, str] = field(default_factory=dict)
    #: players who are in their quiet hours: not pinged now, told when those end (POSIX time)
    held: dict[str, float] = field(default_factory=dict)
    #: private notes for players (a queued line dropped), to be shown only to them
    private: list[tuple[str, str]] = field(default_factory=list)
    #: the move text the action played, as logged (queued lines are matched against it); for a preview, the
    #: move with its ``#n`` guard, as a Confirm button plays it
    played: str | None = None
    #: who played ``played``
    played_by: str | None = None
    #: what a vacation switch tells each game's other players (:class:`bot.actions.clocks.Notice`)
    notices: list[Any] = field(default_factory=list)
    #: whether the game counts for the ratings (``None``: the result is not about a game)
    rated: bool | None = None
    #: each player's rating in the game's type as shown (``1532``, ``1000?``); after a rated game, the new one
    ratings: dict[str, str] = field(default_factory=dict)
    #: what the game that just ended did to each player's rating (:class:`bot.ratings.Shift`), best placed first
    rating_changes: list[Any] = field(default_factory=list)
    #: a listing's data for fronts that lay it out themselves (a leaderboard's page and rows, a profile's
    #: games), the same as ``--json`` prints
    data: dict[str, Any] = field(default_factory=dict)
    #: the challenges a listing shows (:class:`data.store.ChallengeRow`), for fronts that link to their messages
    challenges: list[Any] = field(default_factory=list)
    #: what the action did to tournaments (:class:`bot.actions.tournaments.News`: a round over, the next one's
    #: games started, the end), for fronts to post in the tournament's channel and the new games' threads
    news: list[Any] = field(default_factory=list)
    #: the game this action finished when the result is about the next game of its match, which started at once:
    #: fronts may post that game's final board where it lives too
    finished_game: int | None = None

    def match(self) -> dict[str, Any] | None:
        """The Backgammon match the game shown is part of (``None``: none), as ``--json`` gives it (see
        :func:`match_json`)."""
        return match_json(self.state)

    def resign_question(self, player: str) -> str | None:
        """What to ask ``player`` before they resign the running game shown when it is a game of a Backgammon
        match (resigning resigns the match; see :func:`bot.text.match_resign_question`); ``None`` when there is
        nothing to ask: no match, a game not running or not theirs, or a queued resignation, which resigning
        again withdraws."""
        match, state = self.match(), self.state
        if match is None or state is None or state.is_over or player not in state.players:
            return None
        seat = state.players.index(player)
        if seat in state.queued_resign:
            return None
        declines = state.ply < len(state.players) and match["game"] == 1
        return match_resign_question(match, player, declines=declines, queued=self.to_move != player)

    def legal_move_texts(self) -> list[str]:
        """The legal moves of the player to move in the position this result is about (empty when the game is
        over or there is none): ``legal_moves`` when the action listed them, else read from ``state``."""
        if self.legal_moves is not None:
            return self.legal_moves
        state = self.state
        if state is None or state.is_over or state.to_move is None or self.status not in (None, "active"):
            return []
        return [state.move_text(m) for m in state.legal_moves]

    def seat_notes(self) -> dict[int, str]:
        """The clock notes by seat, as the pictures take them."""
        if self.state is None:
            return {}
        return {seat: self.clock_notes[p] for seat, p in enumerate(self.state.players) if p in self.clock_notes}

    def seat_ratings(self) -> dict[int, str]:
        """What the pictures show after each seat's name: the rating in a rated game, ``unrated`` in an unrated
        one (its ratings are in the text header)."""
        if self.state is None or self.rated is None:
            return {}
        return {seat: self.ratings.get(p, "") if self.rated else "unrated" for seat, p in enumerate(self.state.players)}

    def rating_header(self) -> str:
        """The text board's first line: ``rated: alice 1532, bob 1000?`` (``unrated: ...``); "" when unknown."""
        if self.state is None or self.rated is None or not self.ratings:
            return ""
        names = ", ".join(f"{p} {self.ratings[p]}" for p in self.state.players if p in self.ratings)
        return f"{'rated' if self.rated else 'unrated'}: {names}"

    def board_text(self) -> str | None:
        if self.state is None:
            return None
        board = self.state.text_board()
        header = self.rating_header()
        if header:
            board = f"{header}\n{board}"
        if self.clock_notes:
            board += "\nclock: " + ", ".join(f"{p} {note}" for p, note in self.clock_notes.items())
        return board

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "message": self.message,
            "game": self.game_type,
            "game_id": self.game_id,
            "challenge_id": self.challenge_id,
            "move_number": self.move_number,
            "to_move": self.to_move,
            "status": self.status,
            "winner": self.winners[0] if len(self.winners) == 1 else (self.winners or None),
            "players": self.players,
            "events": [e.to_json() for e in self.events],
            "notify": self.notify,
            "items": self.items,
            "legal_moves": self.legal_move_texts() if self.game_id is not None else [],
            "clock": self.clock or None,
            "rated": self.rated,
            "ratings": self.ratings or None,
            "rating_changes": [shift.to_json() for shift in self.rating_changes] or None,
            "data": self.data or None,
            "match": self.match(),
            "finished_game": self.finished_game,
        }


def _fail(message: str, **fields: Any) -> Result:
    return Result(ok=False, message=message, **fields)


def _refusal(exc: GameError) -> str:
    """A rules refusal for people: what the player typed is echoed shortened, the reason whole."""
    if isinstance(exc, MoveError) and exc.text:
        message = f"{shorten(exc.text)}: {exc.reason}"
        return message + (f" (expected {exc.expected})" if exc.expected else "")
    return str(exc)


def _stale(game_id: int, state: GameState, expected: int | None) -> Result | None:
    """pbmserv's ``#n`` guard: a refusal when the game is no longer at move ``expected``."""
    if expected is None or expected == state.ply + 1:
        return None
    return _fail(
        f"move received as move #{expected}, but game {game_id} is at move #{state.ply + 1}: "
        "the board has changed since you looked",
        game_id=game_id,
        move_number=state.ply,
    )


def split_move_number(text: str) -> tuple[str, int | None]:
    """Split pbmserv's ``move#moveno`` suffix: ``"c3#5"`` -> ``("c3", 5)``; a suffix that is not a move number
    written with the digits 0-9 raises :class:`InputError`."""
    match = _MOVE_NUMBER.match(text)
    if match is None:
        return text.strip(), None
    return match.group("text").strip(), parse_number(match.group("number"), "move number", 10**9)


def status_line(game: GameDef, state: GameState, *, with_reason: bool = True) -> str:
    """One line on how the game stands: whose turn it is, or how it ended (and why, unless ``with_reason`` is
    false because the lines above already say it)."""
    outcome = state.outcome()
    if outcome is None:
        seat = state.to_move
        return f"{game.title}: {state.players[seat]} to move (move {state.ply + 1})" if seat is not None else ""
    details = [outcome.reason] if with_reason else []
    if outcome.cancelled:
        verdict = "cancelled"
    elif outcome.draw:
        verdict = "drawn"
    else:
        verdict = f"{' and '.join(state.players[w] for w in outcome.winners)} won"
        if outcome.points != 1 and not (with_reason and f"{outcome.points} points" in outcome.reason):
            details.append(f"{outcome.points} points")  # unless the reason says them (Backgammon's endings do)
    return f"{game.title}: {verdict}" + (f" ({', '.join(details)})" if details else "")


def decide_now(state: GameState, player: str, seconds: float | None) -> tuple[str, str]:
    """A computer player's move and its note (``doubles: 71% to win``), seeded by the game and move number."""
    from ai import decide, level_of

    decision = decide(state, level_of(player), seed=state.seed, move_number=state.ply, max_seconds=seconds)
    return decision.text, decision.note


async def think_here(state: GameState, player: str, seconds: float | None) -> tuple[str, str]:
    """:func:`decide_now` in this thread: the console, which has nothing else to serve meanwhile."""
    return decide_now(state, player, seconds)


def match_json(state: GameState | None) -> dict[str, Any] | None:
    """A Backgammon game's match for fronts and ``--json``: its number, length, which game of it this is, whether
    it is the Crawford game, the score by player (before this game while it runs; after it once it is over),
    whether the match is over and who won it, and whether it was cancelled with this game. ``None`` for a game that
    is no match's."""
    match = getattr(state, "match", None)
    if state is None or match is None:
        return None
    end = state.match_end()  # type: ignore[attr-defined]
    score = match.score if end is None else end.score
    winner = None if end is None or end.winner is None else state.players[end.winner]
    return {
        "id": match.id,
        "length": match.length,
        "game": match.game,
        "crawford": match.crawford,
        "score": {state.players[0]: score[0], state.players[1]: score[1]},
        "over": winner is not None,
        "winner": winner,
        "cancelled": bool(state.is_over and state.outcome().cancelled),  # type: ignore[union-attr]
    }


def start_of(game: GameDef, row: GameRow) -> GameState:
    """A stored game's position before its first move, from which its log replays: its options, players and seed,
    and what it started with beyond them (a Backgammon match's score, see :meth:`GameState.carry_context`)."""
    state = game.new(row.options, row.players, row.seed)
    state.carry_context(row.snapshot)
    return state


def _player_to_move(state: GameState) -> str | None:
    seat = state.to_move
    return None if seat is None or state.is_over else state.players[seat]


def _spread(total: int, count: int) -> list[int]:
    """``count`` indices spread evenly over ``range(total)``, first and last included (all when fewer)."""
    if total <= count:
        return list(range(total))
    return sorted({round(i * (total - 1) / (count - 1)) for i in range(count)})


def _without_status(message: str, game: GameDef, state: GameState) -> list[str]:
    """The lines of an action's message without its closing status line, in full or short (a longer report gets
    one at its end)."""
    lines = message.splitlines()
    if lines and lines[-1] in (status_line(game, state), status_line(game, state, with_reason=False)):
        lines.pop()
    return lines


def closing_status(game: GameDef, state: GameState, lines: list[str]) -> str | None:
    """The status line a report ends with: in full, or without the reason when a line above already says it
    ("alice wins: bob ran out of time" then "Druid: alice won"); none when a line above is already that status."""
    outcome = state.outcome()
    said = outcome is not None and any(outcome.reason in line for line in lines)
    summary = status_line(game, state, with_reason=not said)
    if not summary or summary in lines or status_line(game, state) in lines:
        return None
    return summary


def _announce(game: GameDef, player: str, move_text: str, events: list[Event]) -> str:
    """The first line after a move: a one-word command says what it did in the game's words ("bob refused the
    double: alice wins 1 point", "bob turned manual mode on"); a move is "alice played c3"."""
    if move_text in game.extra_commands and events and events[0].text:
        return events[0].text
    return f"{player} played {move_text}"


def _legal_texts(state: GameState) -> list[str]:
    """The legal moves of the player to move, in the game's canonical notation (none once the game is over)."""
    if state.is_over or state.to_move is None:
        return []
    return [state.move_text(m) for m in state.legal_moves]


def _winners(state: GameState) -> list[str]:
    outcome = state.outcome()
    return [] if outcome is None else [state.players[w] for w in outcome.winners]


def _run_server_loop(state: GameState) -> tuple[list[LogEntry], list[Event]]:
    """Play every move the server must make now (pbmserv's ``NextPlayer`` loop) and return their log entries."""
    entries: list[LogEntry] = []
    events: list[Event] = []
    while (move := state.forced_move()) is not None:
        seat = move.player if isinstance(move, Resign) else state.to_move
        player = state.players[seat] if seat is not None else None
        text = state.log_text(move)
        caused = state.push(move)
        entries.append(LogEntry(state.ply, player, text, [e.to_json() for e in caused], auto=True))
        events.extend(caused)
    return entries, events


def _is_move_fragment(state: GameState, word: str, seat: int) -> bool:
    """Whether ``word`` alone reads as move notation (legal here or not), as a password word would not."""
    try:
        state.parse_move(word, seat)
    except MoveSyntaxError:
        return False
    except GameError:
        return True
    return True


def cancelled_by_moderator(reason: str) -> str:
    """The outcome of a game a moderator cancelled, as boards and listings say it."""
    return f"cancelled by a moderator: {reason}"


def decided_by_moderator(reason: str) -> str:
    """The outcome of a game a moderator decided, as boards and listings say it."""
    return f"decided by a moderator: {reason}"


def forfeit_seat(state: GameState, seat: int) -> list[Event]:
    """A moderator removes ``seat`` from a running game (a member who left, or was banned), as if they had
    resigned: at once when it is their turn or only one other player is left (who then wins); in a game that goes
    on without them and waits on someone else, when their turn comes (the server plays it, as a queued
    resignation), so the others' turn order is kept. The seat must still be in the game, with no resignation
    queued."""
    if seat == state.to_move or len(state.active_seats()) <= 2:
        return state.push(Resign(seat))
    return state.resign(seat)


def _apply_moderation(state: GameState, entry: LogEntry) -> None:
    """Re-apply a moderator's ``cancel`` or ``decide`` (logged by nobody at the board; the reason, and a decision's
    winning seats, are in the event's data)."""
    data = entry.events[0].get("data", {}) if entry.events else {}
    reason = str(data.get("reason", ""))
    if entry.text == "cancel":  # a tournament's cancellation logs the outcome's own words
        state.cancel(str(data["outcome"]) if "outcome" in data else cancelled_by_moderator(reason))
        return
    winners = data.get("winners")
    if not isinstance(winners, list):
        raise DamagedRowError(f"the decision at move {entry.number} names no winner")
    state.decide([int(seat) for seat in winners], decided_by_moderator(reason))


def _apply_logged(state: GameState, entry: LogEntry) -> None:
    """Re-apply one logged action during a replay; a log that no longer replays is reported as damaged. A
    takeback (``undo``) needs the earlier position: :func:`replay_steps` applies those."""
    if entry.auto:
        move = state.forced_move()
        # logs written before :meth:`GameState.log_text` hold the canonical text of the moment (Dragons' ``h1``)
        if move is None or entry.text not in (state.log_text(move), state.move_text(move)):
            raise DamagedRowError(f"move {entry.number} ({entry.text}, played by the server) does not replay")
        state.push(move)
        return
    if entry.player_id is None and entry.text in ("cancel", "decide"):
        _apply_moderation(state, entry)
        return
    seat = state.seat_of(entry.player_id or "")
    if entry.text == "forfeit":
        forfeit_seat(state, seat)
        return
    if entry.text == "decline":
        state.cancel(f"{entry.player_id} declined to play")
        return
    if entry.text == "resign":
        state.resign(seat)
        return
    if entry.text == "timeout":
        state.time_out(seat)
        return
    if entry.text == "draw":
        state.agree_draw()
        return
    state.push(state.parse_move(entry.text, seat))


def replay_steps(state: GameState, log: Sequence[LogRow]) -> Iterator[tuple[LogRow, GameState]]:
    """Apply a game's logged actions one by one from its start, yielding each with the position after it. A
    takeback (``undo``, whose event names the first action it took back) brings back the position before that
    action, keeping the dice of the moment (:meth:`GameState.adopt_dice`): the position is copied before
    every action a later takeback names, and only then."""
    marks = {_undo_seq(entry) for entry in log if entry.text == "undo" and not entry.auto}
    saved: dict[int, GameState] = {}
    for entry in log:
        if entry.seq in marks:
            saved[entry.seq] = state.clone()
        if entry.text == "undo" and not entry.auto:
            earlier = saved.pop(_undo_seq(entry), None)
            if earlier is None:
                raise DamagedRowError(f"the takeback at action {entry.seq} names no earlier action")
            earlier.adopt_dice(state)
            state = earlier
        else:
            _apply_logged(state, entry)
        yield entry, state


def taken_back(log: Sequence[LogRow]) -> set[int]:
    """The places (``seq``) in a log of the actions that takebacks removed from the game, the takebacks
    themselves included."""
    undone: set[int] = set()
    for entry in log:
        if entry.text == "undo" and not entry.auto:
            undone.update(range(_undo_seq(entry), entry.seq + 1))
    return undone


def _undo_seq(entry: LogRow) -> int:
    """The first action a logged takeback took back."""
    try:
        return int(entry.events[0]["data"]["seq"])
    except (IndexError, KeyError, TypeError, ValueError):
        raise DamagedRowError(f"the takeback at action {entry.seq} is damaged") from None


def _is_computer_name(player: str) -> bool:
    """Whether a player is a computer player (``ai:1`` .. ``ai:3``); the ``ai`` package is imported only then."""
    if not player.lower().startswith("ai:"):
        return False
    from ai import is_ai

    return is_ai(player)


def _rolled(events_json: str) -> str:
    """The dice of the last roll among a logged action's events (``6-5``), or ``""``; the JSON is only parsed
    when it mentions a roll, so listing a long log stays cheap."""
    if '"roll"' not in events_json:
        return ""
    dice = ""
    for event in json.loads(events_json):
        if event.get("kind") == "roll" and event.get("data", {}).get("dice"):
            dice = "-".join(str(d) for d in event["data"]["dice"])
    return dice


def _first_event_text(events_json: str) -> str:
    events = json.loads(events_json)
    return str(events[0].get("text", "")) if events else ""


def _game_line(row: GameSummary) -> str:
    """pbmserv's games listing: board, game, move count, players, status."""
    if row.status == "active":
        status = f"{row.to_move}'s turn" if row.to_move else "in progress"
    elif row.status == "cancelled":
        status = "cancelled"
    else:
        outcome = row.outcome or {}
        winners = outcome.get("winners") or []
        seats = row.seats or row.players
        if winners:
            names = " and ".join(str(seats[w]) for w in winners if 0 <= w < len(seats))
            points = outcome.get("points", 1)
            status = f"{names} won" + (f" {points} points" if points != 1 else "")
        else:
            status = "draw"
    return f"{row.type} {row.id}: move {row.move_number}, {', '.join(row.players)}: {status}"
