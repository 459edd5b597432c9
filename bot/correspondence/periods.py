"""Time rules for correspondence games: clocks that stand still at weekends, quiet hours, vacation banks.

Everything here is pure: times arrive as POSIX seconds (UTC floats) and time zones as IANA names, so the same
question always gets the same answer and tests can pin exact numbers. The rules are local (a weekend is Saturday and
Sunday where the player lives, quiet hours are read on the player's wall clock), so every local question goes
through :mod:`zoneinfo`, daylight saving changes included.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from functools import lru_cache

DAY = 86400.0
HOUR = 3600.0

VACATION_START = 14 * DAY  # the bank a new member starts with
VACATION_CAP = 30 * DAY  # accrual stops here, so nobody can vanish for a season
VACATION_ACCRUAL = 1 / 7  # one day of vacation per seven days of membership

# What an IANA name can look like. Checked before ZoneInfo (which refuses bad names too) so that junk a player typed
# never reaches the file system: no dots ("..", "zone.tab"), no leading "/", nothing longer than a real name.
_ZONE_NAME = re.compile(r"[A-Za-z0-9_+-]+(?:/[A-Za-z0-9_+-]+)*")
_ZONE_NAME_MAX = 64  # the longest IANA name has 32 characters
# Times this module accepts: years 1653 to 5138. Far inside what datetime holds, so walking week by week past either
# end cannot overflow, and infinite or NaN times (which would loop forever) are refused.
_EARLIEST, _LATEST = -1e10, 1e11
_LONGEST_SPAN = 1e10  # about 317 years; advance() stays inside datetime's range
_DAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")

_QUIET = re.compile(r"\s*([0-9]{1,2})(?::([0-9]{2}))?\s*-\s*([0-9]{1,2})(?::([0-9]{2}))?\s*")
_QUIET_FORMAT = "write quiet hours as start-end in 24-hour time, like 22-08 or 22:30-07:00"
_QUIET_DIFFER = "quiet hours need a start and an end that differ, like 22-08"


def zone(name: str) -> tzinfo:
    """The IANA time zone called ``name``.

    A player types the name once and it is then read for every game in every listing, so a bad one is refused here
    with a line the player can act on, and good ones are cached.
    """
    found = _zone(name) if isinstance(name, str) else None
    if found is None:
        shown = "".join(c if c.isprintable() else "?" for c in str(name)[:40])
        raise ValueError(f"unknown time zone '{shown}': use an IANA name like Europe/Paris or America/New_York")
    return found


@lru_cache(maxsize=512)
def _zone(name: str) -> tzinfo | None:
    """The zone, or None for a name that is malformed, unknown or not a zone file (a directory, ``leapseconds``).

    ``UTC``, every player's zone until they name another, is :data:`datetime.UTC` (the same offsets, no
    transitions): :mod:`zoneinfo` is imported only for the zones players choose, which keeps it (and the
    ``sysconfig`` it reads its search path from) out of every console command's start."""
    if name == "UTC":
        return UTC
    if len(name) > _ZONE_NAME_MAX or not _ZONE_NAME.fullmatch(name):
        return None
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None


def _checked(t: float) -> float:
    """``t`` itself, once known to be a finite time this module can walk around without overflowing."""
    if not _EARLIEST <= t <= _LATEST:  # also false for NaN
        raise ValueError(f"the time {t!r} is out of range")
    return t


def _local(t: float, z: tzinfo) -> datetime:
    return datetime.fromtimestamp(_checked(t), z)


def _offset(t: float, z: tzinfo) -> timedelta | None:
    return _local(t, z).utcoffset()


def _midnight(day: date, z: tzinfo) -> float:
    """The POSIX time of local 00:00 on ``day``. A midnight skipped by a clock change (a few zones change at 00:00)
    is read with fold=0, the offset before the change, which puts it at the change itself when the gap starts at
    midnight; a repeated midnight is its first occurrence."""
    return datetime(day.year, day.month, day.day, tzinfo=z).timestamp()


def _weekends(start: float, z: tzinfo) -> Iterator[tuple[float, float]]:
    """Weekends as (local Saturday 00:00, local Monday 00:00) in POSIX seconds, endlessly, from the one holding or
    following ``start``'s local day. Both ends are local midnights, so a weekend with a daylight saving change is 47
    or 49 real hours long."""
    day = _local(start, z).date()
    saturday = day + timedelta(days=5 - day.weekday() if day.weekday() <= 5 else -1)
    while True:
        yield _midnight(saturday, z), _midnight(saturday + timedelta(days=2), z)
        saturday += timedelta(days=7)


def counted(start: float, end: float, *, weekends: bool, tz: str = "UTC") -> float:
    """Seconds of [start, end) that count on a correspondence clock.

    With ``weekends`` the clock stands still from local Saturday 00:00 to local Monday 00:00 in ``tz``: players are
    not expected to move on their days off. The walk is one step per week, so long spans stay cheap.
    """
    z = zone(tz)
    _checked(start)
    _checked(end)
    if end <= start:
        return 0.0
    if not weekends:
        return end - start
    total, t = 0.0, start
    for saturday, monday in _weekends(start, z):
        if end <= saturday:
            break
        total += max(0.0, saturday - t)
        t = max(t, monday)
        if end <= t:
            return total
    return total + (end - t)


def advance(start: float, seconds: float, *, weekends: bool, tz: str = "UTC") -> float:
    """The earliest time t >= ``start`` with ``counted(start, t) == seconds``: when a clock with ``seconds`` left
    at ``start`` runs out.

    A deadline that would fall inside a weekend moves past it. Counting 0 seconds needs no time, so 0 gives
    ``start`` even in a weekend.
    """
    z = zone(tz)
    _checked(start)
    if not 0 <= seconds <= _LONGEST_SPAN:
        raise ValueError(f"a clock cannot run for {seconds!r} seconds")
    if not weekends or seconds == 0:
        return start + seconds
    left, t = seconds, start
    weeks = _weekends(start, z)
    while True:
        saturday, monday = next(weeks)
        if t < saturday:
            if left <= saturday - t:
                return t + left
            left -= saturday - t
        t = max(t, monday)


def _minute(hours: str, minutes: str | None) -> int:
    """The minute of the day at hours:minutes. Minutes past 59 are refused here, as 22:75 would pass for 23:15;
    hours past 23 land past the end of the day, which :class:`QuietHours` refuses."""
    if minutes is not None and int(minutes) > 59:
        raise ValueError(_QUIET_FORMAT)
    return int(hours) * 60 + int(minutes or 0)


def _clock(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


def _wall_seconds(t: float, z: tzinfo) -> float:
    """Seconds since local midnight on the wall clock at ``t``."""
    local = _local(t, z)
    return local.hour * HOUR + local.minute * 60 + local.second + local.microsecond / 1e6


def _transition(a: float, b: float, z: tzinfo) -> float:
    """The first whole second after ``a`` whose UTC offset differs from ``a``'s, knowing that ``b``'s does.

    Zones change offset on whole seconds, so halving finds the change in about 17 steps for a day-long gap. Only
    quiet stretches that hold a clock change get here.
    """
    before = _offset(a, z)
    lo, hi = math.floor(a), math.ceil(b)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _offset(mid, z) == before:
            lo = mid
        else:
            hi = mid
    return float(hi)


@dataclass(frozen=True)
class QuietHours:
    """A player's nightly quiet hours: pings that fall inside [start, end) of the local day in ``tz`` wait.

    ``start`` and ``end`` are minutes of the local day; ``start > end`` wraps midnight (22:00-08:00). Everything is
    judged on the wall clock, so on a daylight saving night the stretch is an hour shorter or longer in real time,
    and a boundary that falls in a skipped or repeated hour is met when the wall clock first reaches it.
    """

    start: int
    end: int
    tz: str

    def __post_init__(self) -> None:
        for minute in (self.start, self.end):
            if not isinstance(minute, int) or not 0 <= minute < 24 * 60:
                raise ValueError(_QUIET_FORMAT)
        if self.start == self.end:
            raise ValueError(_QUIET_DIFFER)
        zone(self.tz)

    @classmethod
    def parse(cls, text: str, tz: str = "UTC") -> QuietHours:
        """Quiet hours as a player types them: "22-08", "22:30-07:15", "0-6"."""
        match = _QUIET.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise ValueError(_QUIET_FORMAT)
        start_h, start_m, end_h, end_m = match.groups()
        return cls(_minute(start_h, start_m), _minute(end_h, end_m), tz)

    def __str__(self) -> str:
        return f"{_clock(self.start)}-{_clock(self.end)} {self.tz}"

    def contains(self, t: float) -> bool:
        """Is the local wall clock at ``t`` inside the quiet hours?"""
        local = _local(t, zone(self.tz))
        minute = local.hour * 60 + local.minute
        if self.start < self.end:
            return self.start <= minute < self.end
        return minute >= self.start or minute < self.end

    def ends_after(self, t: float) -> float:
        """When the quiet stretch holding ``t`` ends (the first moment after ``t`` outside it); ``t`` when outside.

        The end is where the wall clock reaches ``end`` at ``t``'s offset; if the offset changes before that, the
        stretch is followed from the change on instead (which may itself end it: a skipped hour can jump past the
        end, a repeated one can fall back before the start).
        """
        z = zone(self.tz)
        while self.contains(t):
            end = t + (self.end * 60 - _wall_seconds(t, z)) % DAY
            if _offset(end, z) == _offset(t, z):
                return end
            t = _transition(t, end, z)
        return t

    def starts_before(self, t: float) -> float:
        """When the quiet stretch holding ``t`` began (its first moment); ``t`` when outside. Mirrors
        :meth:`ends_after`, walking back."""
        z = zone(self.tz)
        while self.contains(t):
            start = t - (_wall_seconds(t, z) - self.start * 60) % DAY
            if _offset(start, z) == _offset(t, z):
                return start
            change = _transition(start, t, z)
            if not self.contains(change - 1):
                return change
            t = change - 1
        return t


def delivery_time(t: float, quiet: QuietHours | None) -> float:
    """When a ping planned for ``t`` is delivered: held to the end of the player's quiet stretch, if any."""
    return t if quiet is None else quiet.ends_after(t)


def warning_time(due: float, deadline: float, quiet: QuietHours | None) -> float:
    """When a clock warning planned for ``due`` is sent, its clock running out at ``deadline``.

    Inside quiet hours it waits for the end of the stretch, unless the deadline comes first (or at that very
    moment): a warning heard after losing is no warning, so it goes one minute before the stretch began instead.
    That is earlier than ``due`` and may be in the past; the caller sends such a warning at once.
    """
    if quiet is None or not quiet.contains(due):
        return due
    end = quiet.ends_after(due)
    if end < deadline:
        return end
    return quiet.starts_before(due) - 60


def _accrued(balance: float, as_of: float, until: float) -> float:
    """The bank at ``until`` with no vacation taken since ``as_of``. It grows to the cap; a bank already over it
    (granted by hand) keeps what it has."""
    gain = max(0.0, until - as_of) * VACATION_ACCRUAL
    return max(balance, min(VACATION_CAP, balance + gain))


def vacation_bank(balance: float, as_of: float, now: float, *, on_since: float | None) -> float:
    """The vacation bank at ``now``, given it held ``balance`` at ``as_of``.

    Off vacation it accrues. On vacation since ``on_since`` it accrues until then and drains one second per second
    after, down to 0. A vacation that began before ``as_of`` drains from ``as_of``: ``balance`` already paid for the
    time before.
    """
    if on_since is None:
        return _accrued(balance, as_of, now)
    since = max(as_of, on_since)
    bank = _accrued(balance, as_of, min(now, since))
    return max(0.0, bank - max(0.0, now - since))


def vacation_runs_out(balance: float, as_of: float, on_since: float) -> float:
    """When a vacation started at ``on_since`` ends by itself: the moment the bank is empty."""
    since = max(as_of, on_since)
    return since + max(0.0, _accrued(balance, as_of, since))


def format_left(seconds: float) -> str:
    """A duration for board headers and listings: two units at most, rounded down ("6d 23h", "4h", "12m"), after
    the fraction of a second is rounded up.

    Rounding down never promises a player time they do not have. The fraction goes up first because a clock is
    read a moment after the move that started it: a fresh 7-day clock read a few milliseconds later holds 6d 23h
    59m 59.99s, and is shown as the "7d" it is (to the second), not as "6d 23h".
    """
    if not math.isfinite(seconds):
        raise ValueError(f"a time left must be a finite number of seconds, not {seconds!r}")
    if seconds <= 0:
        return "no time"
    seconds = math.ceil(seconds)
    if seconds < 60:
        return "less than a minute"
    days, rest = divmod(seconds // 60, 24 * 60)
    hours, minutes = divmod(rest, 60)
    units = [(days, "d"), (hours, "h"), (minutes, "m")]
    first = next(i for i, (n, _) in enumerate(units) if n)
    return " ".join(f"{n}{unit}" for n, unit in units[first : first + 2] if n)


def format_local(t: float, tz: str) -> str:
    """``t`` on the wall clock of ``tz``, as "Sat 2026-11-28 08:00 Europe/Paris", for messages that say when a held
    ping or a vacation ends. Day names are fixed English, not the server's locale."""
    local = _local(t, zone(tz))
    return f"{_DAY_NAMES[local.weekday()]} {local:%Y-%m-%d %H:%M} {tz}"
