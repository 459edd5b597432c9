"""A game's correspondence clock, as a small pure state machine (Lichess-style days per move, no bank):

* only the player to move has a running clock; their time left is their allowance minus the time counted
  since their turn began (weekends left out with ``-weekends``, in their own time zone);
* making a move refills the clock for the next turn: the allowance is ``days`` (capped by what is left of
  ``-total``, which counts every turn's time);
* a vacation pauses the clock (``pause``/``resume``) unless the game is ``-novacation``;
* the player to move is warned when half their time is gone, at a day left and at an hour left, each once.

Times are POSIX seconds given by the caller; nothing here reads a clock, so tests drive it with plain numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.correspondence.options import TimeRules
from bot.correspondence.periods import DAY, HOUR, advance, counted, format_left

#: the warnings, in the order they fall due, with what each tells the player
WARNINGS = ("half", "day", "hour")


@dataclass(frozen=True)
class Warning:
    """A warning still to be sent this turn: its name, when its threshold is crossed, the time left then."""

    name: str
    due: float
    left: float


@dataclass
class Clock:
    """The clock of one game. ``player`` is whose clock runs (the player to move; ``None`` when nobody's does);
    their turn's time counted before ``since`` is ``spent``, and from ``since`` on time counts unless
    ``paused``. ``used`` is each player's time over finished turns (for ``-total``); ``warned`` the warnings
    already sent this turn."""

    rules: TimeRules
    player: str | None = None
    since: float = 0.0
    spent: float = 0.0
    paused: bool = False
    used: dict[str, float] = field(default_factory=dict)
    warned: list[str] = field(default_factory=list)

    # ---- storage -------------------------------------------------------------------------------------------

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Clock:
        """The stored clock; ``None`` (a game from before clocks) is an untimed clock."""
        if data is None:
            return cls(TimeRules(untimed=True))
        return cls(
            TimeRules.from_json(data.get("rules")),
            data.get("player"),
            float(data.get("since", 0.0)),
            float(data.get("spent", 0.0)),
            bool(data.get("paused", False)),
            {str(k): float(v) for k, v in data.get("used", {}).items()},
            [str(w) for w in data.get("warned", [])],
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "player": self.player,
            "since": self.since,
            "spent": self.spent,
            "paused": self.paused,
            "used": self.used,
            "warned": self.warned,
        }

    # ---- reading -------------------------------------------------------------------------------------------

    @property
    def timed(self) -> bool:
        return not self.rules.untimed

    def allowance(self, player: str) -> float:
        """The time ``player`` has for a turn: the days per move, or what is left of the game's total if less."""
        per_move = self.rules.days * DAY
        if not self.rules.total:
            return per_move
        return max(0.0, min(per_move, self.rules.total * DAY - self.used.get(player, 0.0)))

    def spent_at(self, now: float, tz: str) -> float:
        """Time counted on the running turn by ``now`` (``tz``: the zone of the player to move)."""
        if self.paused or self.player is None:
            return self.spent
        return self.spent + counted(self.since, now, weekends=self.rules.weekends, tz=tz)

    def left(self, now: float, tz: str) -> float | None:
        """Seconds left to the player to move (negative once run out); ``None`` without a running clock."""
        if not self.timed or self.player is None:
            return None
        return self.allowance(self.player) - self.spent_at(now, tz)

    def deadline(self, tz: str) -> float | None:
        """When the player to move runs out of time, if nothing pauses the clock; ``None`` when it is not
        running (untimed, nobody to move, paused for a vacation)."""
        if not self.timed or self.player is None or self.paused:
            return None
        rest = max(0.0, self.allowance(self.player) - self.spent)
        return advance(self.since, rest, weekends=self.rules.weekends, tz=tz)

    def pending_warnings(self, tz: str) -> list[Warning]:
        """The warnings not yet sent this turn, earliest first, each with the time it falls due. A warning that
        would say no more than an earlier one (with 2 days per move, half the time gone is a day left) is left
        out, and so is one whose threshold is the turn's start."""
        if self.deadline(tz) is None:
            return []
        assert self.player is not None
        budget = self.allowance(self.player)
        points = {"half": budget / 2, "day": budget - DAY, "hour": budget - HOUR}
        out: list[Warning] = []
        latest = 0.0
        for name in WARNINGS:
            point = points[name]
            if point <= latest:
                continue
            latest = point
            if name in self.warned:
                continue
            due = advance(self.since, max(0.0, point - self.spent), weekends=self.rules.weekends, tz=tz)
            out.append(Warning(name, due, budget - point))
        return out

    def seconds_left(self, players: list[str], now: float, tz: str) -> dict[str, float]:
        """Each player's time, for ``--json``: the running clock's time left for the player to move, and the
        allowance of their next turn for the others."""
        if not self.timed:
            return {}
        out = {}
        for player in players:
            left = self.left(now, tz) if player == self.player else self.allowance(player)
            out[player] = round(max(0.0, left or 0.0), 1)
        return out

    def notes(self, players: list[str], now: float, tz: str) -> dict[str, str]:
        """Each player's time in a few words, for board headers, text boards and listings."""
        if not self.timed:
            return {}
        out = {}
        for player in players:
            if player == self.player:
                left = self.left(now, tz) or 0.0
                out[player] = "paused (vacation)" if self.paused else f"{format_left(left)} left"
            elif self.rules.total and self.allowance(player) < self.rules.days * DAY:
                out[player] = f"{format_left(self.allowance(player))} left in all"
            else:
                out[player] = f"{self.rules.days}d per move"
        return out

    # ---- changing ------------------------------------------------------------------------------------------

    def next_turn(self, player: str | None, now: float, tz: str, *, paused: bool) -> None:
        """The turn passes (a move was made): the outgoing player's time is added to what they used, and
        ``player``'s clock starts full (paused when they are on vacation)."""
        if self.player is not None:
            self.used[self.player] = self.used.get(self.player, 0.0) + self.spent_at(now, tz)
        self.player = player
        self.since = now
        self.spent = 0.0
        self.paused = paused and not self.rules.novacation
        self.warned = []

    def pause(self, now: float, tz: str) -> bool:
        """Stop the running clock (the player to move went on vacation); ``False`` when nothing changed."""
        if self.paused or self.player is None or not self.timed or self.rules.novacation:
            return False
        self.spent = self.spent_at(now, tz)
        self.since = now
        self.paused = True
        return True

    def resume(self, at: float) -> bool:
        """Start the paused clock again from ``at`` (when the vacation ended, which a late sweep notices after
        the fact); ``False`` when it was not paused. A turn that began during the vacation runs from its start
        if that came later."""
        if not self.paused:
            return False
        self.since = max(self.since, at)
        self.paused = False
        return True

    def rebase(self, now: float, tz: str) -> None:
        """Count the time so far in the zone it ran in (before the player changes their time zone)."""
        self.spent = self.spent_at(now, tz)
        self.since = now

    def mark_warned(self, names: list[str]) -> None:
        self.warned = [*self.warned, *(n for n in names if n not in self.warned)]
