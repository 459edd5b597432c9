"""The correspondence clock as a pure state machine: allowances, refills, -total, pauses, warnings, notes."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.correspondence.clock import Clock
from bot.correspondence.options import TimeRules, parse_time_rules, split_options
from rules.base import OptionError

DAY = 86400.0
HOUR = 3600.0
T0 = datetime(2026, 12, 1, 9, tzinfo=UTC).timestamp()  # a Tuesday


def started(rules: TimeRules, player: str = "alice", at: float = T0) -> Clock:
    clock = Clock(rules)
    clock.next_turn(player, at, "UTC", paused=False)
    return clock


def test_a_turn_counts_down_from_the_days_per_move_and_a_move_refills_it() -> None:
    clock = started(TimeRules(days=3))
    assert clock.left(T0 + DAY, "UTC") == 2 * DAY
    assert clock.deadline("UTC") == T0 + 3 * DAY
    clock.next_turn("bob", T0 + DAY, "UTC", paused=False)
    assert clock.used == {"alice": DAY}
    assert clock.left(T0 + DAY, "UTC") == 3 * DAY  # bob starts full
    clock.next_turn("alice", T0 + 2 * DAY, "UTC", paused=False)
    assert clock.left(T0 + 2 * DAY, "UTC") == 3 * DAY  # no bank: alice's unused two days are gone


def test_total_caps_the_allowance_by_what_is_left_of_the_game() -> None:
    clock = started(TimeRules(days=5, total=6))
    clock.next_turn("bob", T0 + 4 * DAY, "UTC", paused=False)
    clock.next_turn("alice", T0 + 5 * DAY, "UTC", paused=False)
    assert clock.allowance("alice") == 2 * DAY and clock.allowance("bob") == 5 * DAY
    assert clock.deadline("UTC") == T0 + 7 * DAY
    assert clock.notes(["alice", "bob"], T0 + 5 * DAY, "UTC") == {"alice": "2d left", "bob": "5d per move"}
    clock.next_turn("bob", T0 + 7 * DAY - 1, "UTC", paused=False)
    assert clock.notes(["alice", "bob"], T0 + 7 * DAY, "UTC")["alice"] == "less than a minute left in all"


def test_a_pause_stops_the_clock_and_a_resume_starts_it_where_it_stopped() -> None:
    clock = started(TimeRules(days=2))
    assert clock.pause(T0 + HOUR, "UTC") and not clock.pause(T0 + 2 * HOUR, "UTC")
    assert clock.deadline("UTC") is None and clock.left(T0 + 10 * DAY, "UTC") == 2 * DAY - HOUR
    assert clock.notes(["alice"], T0 + 10 * DAY, "UTC") == {"alice": "paused (vacation)"}
    assert clock.resume(T0 + 10 * DAY) and not clock.resume(T0 + 10 * DAY)
    assert clock.deadline("UTC") == T0 + 10 * DAY + 2 * DAY - HOUR
    novacation = started(TimeRules(days=2, novacation=True))
    assert not novacation.pause(T0 + HOUR, "UTC") and novacation.deadline("UTC") == T0 + 2 * DAY


def test_a_turn_that_starts_during_a_vacation_starts_paused_unless_novacation() -> None:
    assert Clock(TimeRules()).deadline("UTC") is None
    clock = Clock(TimeRules(days=1))
    clock.next_turn("bob", T0, "UTC", paused=True)
    assert clock.paused and clock.deadline("UTC") is None
    clock = Clock(TimeRules(days=1, novacation=True))
    clock.next_turn("bob", T0, "UTC", paused=True)
    assert not clock.paused and clock.deadline("UTC") == T0 + DAY


@pytest.mark.parametrize(
    ("days", "expected"),
    [
        (7, [("half", 3.5 * DAY), ("day", 6 * DAY), ("hour", 7 * DAY - HOUR)]),
        (2, [("half", DAY), ("hour", 2 * DAY - HOUR)]),  # half gone is a day left: said once
        (1, [("half", 12 * HOUR), ("hour", DAY - HOUR)]),  # a day left is the turn's start: not said
    ],
)
def test_warnings_fall_at_half_a_day_and_an_hour_and_never_say_the_same_twice(
    days: int, expected: list[tuple[str, float]]
) -> None:
    clock = started(TimeRules(days=days))
    assert [(w.name, w.due - T0) for w in clock.pending_warnings("UTC")] == expected
    clock.mark_warned(["half"])
    assert [w.name for w in clock.pending_warnings("UTC")] == [name for name, _ in expected[1:]]
    clock.next_turn("bob", T0 + HOUR, "UTC", paused=False)
    assert [w.name for w in clock.pending_warnings("UTC")] == [name for name, _ in expected]  # a new turn


def test_weekends_move_deadlines_and_warnings_past_saturday_and_sunday() -> None:
    friday = T0 + 3 * DAY  # Fri 2026-12-04 09:00 UTC
    clock = started(TimeRules(days=1, weekends=True), at=friday)
    assert clock.deadline("UTC") == friday + 3 * DAY  # Monday 09:00
    assert clock.left(friday + 2 * DAY, "UTC") == DAY - 15 * HOUR  # Friday's 15 hours counted, not the weekend
    assert clock.deadline("Asia/Tokyo") == friday + 3 * DAY  # 18:00 Fri in Tokyo: 6 hours, weekend, 18 hours


def test_the_stored_form_round_trips_and_old_games_are_untimed() -> None:
    clock = started(TimeRules(days=4, total=20, weekends=True, noundo=True))
    clock.next_turn("bob", T0 + HOUR, "UTC", paused=True)
    clock.mark_warned(["half"])
    assert Clock.from_json(clock.to_json()) == clock
    old = Clock.from_json(None)
    assert not old.timed and old.deadline("UTC") is None and old.notes(["a"], T0, "UTC") == {}
    assert old.seconds_left(["a"], T0, "UTC") == {} and not old.rules.noundo


def test_the_options_of_every_game_are_told_apart_from_the_games_own() -> None:
    game, server = split_options(["-size=8", "-days=3", "-hex", "-WEEKENDS", "-noundo"])
    assert game == ["-size=8", "-hex"] and server == ["-days=3", "-WEEKENDS", "-noundo"]
    rules = parse_time_rules(server)
    assert rules == TimeRules(days=3, weekends=True, noundo=True)
    assert rules.describe() == "3 days per move, weekends free, no takebacks"
    assert rules.words() == "-days=3 -weekends -noundo"
    assert TimeRules(untimed=True).describe() == "untimed"
    with pytest.raises(OptionError, match="cannot be used together"):
        parse_time_rules(["-untimed", "-weekends"])
    with pytest.raises(OptionError, match="out of range"):
        parse_time_rules(["-days=0"])
