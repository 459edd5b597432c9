"""The time rules of correspondence play (bot/correspondence/periods.py): weekend clocks, quiet hours, vacation.

Hand-made cases pin exact numbers, worked out in the comments; hypothesis checks the properties the rest of the bot
leans on (advance inverts counted, quiet stretches end outside and begin inside) over random times and zones,
daylight saving changes included. 2026 calendar used below: Fri 27 Mar, Sun 29 Mar (Europe spring forward), Sun 8 Mar
(US spring forward), Sun 25 Oct (Europe fall back), Sun 1 Nov (US fall back), Fri 27 Nov, Sat 28 Nov.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.correspondence.periods import (
    DAY,
    HOUR,
    VACATION_CAP,
    VACATION_START,
    QuietHours,
    advance,
    counted,
    delivery_time,
    format_left,
    format_local,
    vacation_bank,
    vacation_runs_out,
    warning_time,
    zone,
)

ZONES = ["UTC", "Europe/Paris", "America/New_York", "Pacific/Auckland", "Asia/Kolkata"]
MINUTE = 60.0
FAST = settings(max_examples=150, derandomize=True, deadline=None)

times = st.floats(min_value=1577836800.0, max_value=1924992000.0)  # 2020-01-01 to 2031-01-01 UTC
spans = st.floats(min_value=0, max_value=60 * DAY)
zones = st.sampled_from(ZONES)


def utc(y: int, mo: int, d: int, h: int = 0, mi: int = 0) -> float:
    return datetime(y, mo, d, h, mi, tzinfo=UTC).timestamp()


# --- zone -----------------------------------------------------------------------------------------------------


def test_zone_reads_iana_names_and_caches_them():
    assert zone("UTC") is zone("UTC")
    assert str(zone("Europe/Paris")) == "Europe/Paris"
    assert str(zone("America/Argentina/ComodRivadavia")) == "America/Argentina/ComodRivadavia"


def test_bad_zone_name_gives_the_one_line_message():
    with pytest.raises(ValueError) as caught:
        zone("Europe/Pari")
    assert str(caught.value) == (
        "unknown time zone 'Europe/Pari': use an IANA name like Europe/Paris or America/New_York"
    )


@pytest.mark.parametrize(
    "name",
    [
        "",
        "../x",
        "../../etc/passwd",
        "/etc/localtime",
        "Europe",  # a directory of zones
        "Europe/",
        "zone.tab",
        "leapseconds",  # a file beside the zones, not one
        "Europe/Paris\n",
        "Europe/Paris\x00",
        "europe/paris",
        "x" * 1000,
        None,
        5,
        ["UTC"],
        b"UTC",
    ],
)
def test_any_bad_zone_is_a_value_error_of_one_line(name):
    with pytest.raises(ValueError, match=r"^unknown time zone '.*': use an IANA name like Europe/Paris") as caught:
        zone(name)
    message = str(caught.value)
    assert "\n" not in message
    assert len(message) <= len("unknown time zone '': use an IANA name like Europe/Paris or America/New_York") + 40


def test_a_long_bad_name_is_echoed_cut_to_40_characters():
    with pytest.raises(ValueError) as caught:
        zone("Nowhere/" + "y" * 100)
    assert str(caught.value).startswith("unknown time zone 'Nowhere/" + "y" * 32 + "': ")


# --- counted --------------------------------------------------------------------------------------------------

FRI_18 = utc(2026, 11, 27, 18)  # Friday 27 Nov 2026 18:00 UTC
MON_09 = utc(2026, 11, 30, 9)  # Monday 30 Nov 2026 09:00 UTC


def test_friday_evening_to_monday_morning_in_utc():
    # Fri 18:00 -> Sat 00:00 counts 6h, the weekend stands still, Mon 00:00 -> 09:00 counts 9h.
    assert counted(FRI_18, MON_09, weekends=True) == 15 * HOUR
    assert counted(FRI_18, MON_09, weekends=False) == 63 * HOUR


def test_the_same_instants_in_auckland():
    # Late November Auckland is on NZDT, UTC+13: Fri 18:00 UTC is Sat 07:00 local, already the weekend, and Mon 09:00
    # UTC is Mon 22:00 local. The weekend ends Mon 00:00 NZDT = Sun 29 Nov 11:00 UTC; from there to Mon 09:00 UTC
    # is 22h.
    assert counted(FRI_18, MON_09, weekends=True, tz="Pacific/Auckland") == 22 * HOUR


def test_the_same_instants_in_kolkata():
    # IST is UTC+5:30: Fri 18:00 UTC = Fri 23:30 local, 30 minutes to the weekend (Sat 00:00 IST = Fri 18:30 UTC).
    # Mon 00:00 IST = Sun 18:30 UTC, and on to Mon 09:00 UTC is 14h30. Total 15h, as in UTC: a fixed offset moves
    # the weekend but not its length.
    assert counted(FRI_18, MON_09, weekends=True, tz="Asia/Kolkata") == 15 * HOUR


def test_the_same_instants_in_new_york():
    # EST is UTC-5: Fri 18:00 UTC = Fri 13:00 local, 11h to Sat 00:00 EST (Sat 05:00 UTC); the weekend ends Mon
    # 00:00 EST = Mon 05:00 UTC, 4h before Mon 09:00 UTC. 11h + 4h.
    assert counted(FRI_18, MON_09, weekends=True, tz="America/New_York") == 15 * HOUR


def test_empty_and_backwards_spans_count_nothing():
    assert counted(MON_09, MON_09, weekends=True) == 0
    assert counted(MON_09, FRI_18, weekends=True) == 0
    assert counted(MON_09, FRI_18, weekends=False) == 0


def test_a_span_inside_one_weekend_counts_nothing():
    assert counted(utc(2026, 11, 28, 1), utc(2026, 11, 29, 23), weekends=True) == 0
    assert counted(utc(2026, 11, 28), utc(2026, 11, 30), weekends=True) == 0


def test_a_span_starting_in_a_weekend_counts_from_monday():
    # Sun 28 Nov 12:00 UTC to Mon 30 Nov 01:30 UTC: only Monday's 1h30 counts.
    assert counted(utc(2026, 11, 29, 12), utc(2026, 11, 30, 1, 30), weekends=True) == 1.5 * HOUR


def test_ten_years_of_whole_weeks():
    # Monday 5 Jan 2026 00:00 UTC plus 522 whole weeks: five counted days a week.
    start = utc(2026, 1, 5)
    assert counted(start, start + 522 * 7 * DAY, weekends=True) == 522 * 5 * DAY


def test_a_spring_forward_week_in_paris():
    # Mon 23 Mar 00:00 CET (Sun 22 Mar 23:00 UTC) to Mon 30 Mar 00:00 CEST (Sun 29 Mar 22:00 UTC) is 167 real hours.
    # The weekend, Sat 28 00:00 CET (Fri 23:00 UTC) to Mon 30 00:00 CEST (Sun 22:00 UTC), is 47 of them: 120h count.
    start, end = utc(2026, 3, 22, 23), utc(2026, 3, 29, 22)
    assert end - start == 167 * HOUR
    assert counted(start, end, weekends=True, tz="Europe/Paris") == 120 * HOUR
    assert counted(utc(2026, 3, 27, 23), end, weekends=False) == 47 * HOUR


def test_a_fall_back_week_in_paris():
    # Mon 19 Oct 00:00 CEST (Sun 18 Oct 22:00 UTC) to Mon 26 Oct 00:00 CET (Sun 25 Oct 23:00 UTC): 169 real hours,
    # of which the weekend (Fri 23 22:00 UTC to Sun 25 23:00 UTC) is 49. 120h count.
    start, end = utc(2026, 10, 18, 22), utc(2026, 10, 25, 23)
    assert counted(start, end, weekends=True, tz="Europe/Paris") == 120 * HOUR


def test_a_spring_forward_weekend_in_new_york():
    # Fri 6 Mar 12:00 EST (17:00 UTC) to Mon 9 Mar 12:00 EDT (16:00 UTC): 12h on Friday, 12h on Monday.
    assert counted(utc(2026, 3, 6, 17), utc(2026, 3, 9, 16), weekends=True, tz="America/New_York") == 24 * HOUR


def test_bad_inputs_to_counted():
    with pytest.raises(ValueError, match="unknown time zone"):
        counted(0, 1, weekends=True, tz="Mars/Olympus")
    for bad in (float("inf"), float("nan"), 1e300):
        with pytest.raises(ValueError, match="out of range"):
            counted(FRI_18, bad, weekends=True)


@FAST
@given(start=times, first=spans, second=spans, tz=zones)
def test_counted_adds_up_over_a_split(start, first, second, tz):
    middle, end = start + first, start + first + second
    whole = counted(start, end, weekends=True, tz=tz)
    assert whole == pytest.approx(
        counted(start, middle, weekends=True, tz=tz) + counted(middle, end, weekends=True, tz=tz), abs=1e-6
    )
    # At least five days out of any seven count (47h weekends leave 121h), and never more than the span.
    assert whole <= first + second + 1e-6
    assert whole >= (first + second) * 5 / 7 - 2 * DAY - HOUR


# --- advance --------------------------------------------------------------------------------------------------


def test_advance_over_a_weekend_in_utc():
    # Fri 27 Nov 12:00 UTC + 13h: 12h to Saturday, then 1h on Monday.
    assert advance(utc(2026, 11, 27, 12), 13 * HOUR, weekends=True) == utc(2026, 11, 30, 1)
    assert advance(utc(2026, 11, 27, 12), 13 * HOUR, weekends=False) == utc(2026, 11, 28, 1)


def test_advance_across_the_paris_spring_forward():
    # Fri 27 Mar 12:00 CET (11:00 UTC) + 24h: 12h to Sat 00:00 CET (Fri 23:00 UTC), the weekend to Mon 00:00 CEST
    # (Sun 22:00 UTC), then 12h: Mon 30 Mar 12:00 CEST = 10:00 UTC.
    assert advance(utc(2026, 3, 27, 11), 24 * HOUR, weekends=True, tz="Europe/Paris") == utc(2026, 3, 30, 10)


def test_advance_lands_exactly_at_saturday_midnight_at_the_earliest():
    # 12h from Fri 12:00 is Sat 00:00: the earliest moment the clock has used 12h.
    assert advance(utc(2026, 11, 27, 12), 12 * HOUR, weekends=True) == utc(2026, 11, 28)
    assert advance(utc(2026, 11, 27, 12), 12 * HOUR + 1, weekends=True) == utc(2026, 11, 30) + 1


def test_advance_zero_is_start_even_in_a_weekend():
    sunday = utc(2026, 11, 29, 15)
    assert advance(sunday, 0, weekends=True) == sunday
    assert advance(sunday, 1, weekends=True) == utc(2026, 11, 30) + 1


def test_advance_refuses_negative_or_endless_spans():
    for bad in (-1.0, float("inf"), float("nan")):
        with pytest.raises(ValueError, match="a clock cannot run for"):
            advance(FRI_18, bad, weekends=True)


@FAST
@given(start=times, seconds=spans, tz=zones, weekends=st.booleans())
def test_advance_inverts_counted(start, seconds, tz, weekends):
    end = advance(start, seconds, weekends=weekends, tz=tz)
    assert end >= start
    assert counted(start, end, weekends=weekends, tz=tz) == pytest.approx(seconds, abs=1e-6)


@FAST
@given(start=times, a=spans, b=spans, tz=zones)
def test_advance_is_monotonic_and_earliest(start, a, b, tz):
    low, high = sorted((a, b))
    assert advance(start, low, weekends=True, tz=tz) <= advance(start, high, weekends=True, tz=tz)
    end = advance(start, high, weekends=True, tz=tz)
    if high > 1:  # a second earlier the clock had not yet used it all
        assert counted(start, end - 1, weekends=True, tz=tz) < high


@settings(max_examples=60, derandomize=True, deadline=None)
@given(
    start=st.floats(min_value=utc(2026, 3, 1), max_value=utc(2026, 4, 6)),
    seconds=st.floats(min_value=0, max_value=10 * DAY),
    tz=st.sampled_from(["Europe/Paris", "America/New_York", "Pacific/Auckland"]),
)
def test_advance_inverts_counted_around_march_changes(start, seconds, tz):
    # March 2026 holds New York's spring forward (8 Mar), Paris's (29 Mar) and Auckland's fall back (5 Apr).
    end = advance(start, seconds, weekends=True, tz=tz)
    assert counted(start, end, weekends=True, tz=tz) == pytest.approx(seconds, abs=1e-6)


# --- quiet hours ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("22-08", 22 * 60, 8 * 60),
        ("22:30-07:15", 22 * 60 + 30, 7 * 60 + 15),
        ("0-6", 0, 6 * 60),
        ("23-7", 23 * 60, 7 * 60),
        (" 23:59 - 00:00 ", 23 * 60 + 59, 0),
    ],
)
def test_parse_quiet_hours(text, start, end):
    assert QuietHours.parse(text, "Europe/Paris") == QuietHours(start, end, "Europe/Paris")


def test_quiet_hours_print_as_clock_times_and_zone():
    assert str(QuietHours.parse("22-08", "Europe/Paris")) == "22:00-08:00 Europe/Paris"
    assert str(QuietHours.parse("0:05-6")) == "00:05-06:00 UTC"


@pytest.mark.parametrize("text", ["22-22", "08:00-8", "0-00:00"])
def test_quiet_hours_that_start_where_they_end_are_refused(text):
    with pytest.raises(ValueError) as caught:
        QuietHours.parse(text)
    assert str(caught.value) == "quiet hours need a start and an end that differ, like 22-08"


@pytest.mark.parametrize(
    "text",
    ["", "22", "22-", "-08", "24-08", "22-24", "22-8:60", "22:5-08", "22:-08", "abc", "22-08-09", "2200-0800",
     "22h-08h", "22 08", "-1-8", "２２-08", None, 22],
)  # fmt: skip
def test_bad_quiet_specs_give_the_format_message(text):
    with pytest.raises(ValueError) as caught:
        QuietHours.parse(text)
    assert str(caught.value) == "write quiet hours as start-end in 24-hour time, like 22-08 or 22:30-07:00"


def test_quiet_hours_check_their_zone_and_fields():
    with pytest.raises(ValueError, match="unknown time zone 'Europe/Pari'"):
        QuietHours.parse("22-08", "Europe/Pari")
    with pytest.raises(ValueError, match="write quiet hours"):
        QuietHours(0, 1440, "UTC")
    with pytest.raises(ValueError, match="differ"):
        QuietHours(60, 60, "UTC")


def test_quiet_hours_wrapping_midnight():
    quiet = QuietHours.parse("22-08")
    assert quiet.contains(utc(2026, 11, 27, 22))
    assert quiet.contains(utc(2026, 11, 27, 23, 59))
    assert quiet.contains(utc(2026, 11, 28, 0))
    assert quiet.contains(utc(2026, 11, 28, 7, 59))
    assert not quiet.contains(utc(2026, 11, 28, 8))
    assert not quiet.contains(utc(2026, 11, 27, 21, 59))
    # Friday 23:00 and Saturday 03:00 belong to the same stretch: Fri 22:00 to Sat 08:00.
    assert quiet.ends_after(utc(2026, 11, 27, 23)) == utc(2026, 11, 28, 8)
    assert quiet.ends_after(utc(2026, 11, 28, 3)) == utc(2026, 11, 28, 8)
    assert quiet.starts_before(utc(2026, 11, 28, 3)) == utc(2026, 11, 27, 22)
    assert quiet.starts_before(utc(2026, 11, 27, 22)) == utc(2026, 11, 27, 22)
    noon = utc(2026, 11, 28, 12)
    assert quiet.ends_after(noon) == noon
    assert quiet.starts_before(noon) == noon


def test_quiet_hours_not_wrapping():
    quiet = QuietHours.parse("0-6:30")
    assert quiet.contains(utc(2026, 11, 28, 0))
    assert quiet.contains(utc(2026, 11, 28, 6, 29))
    assert not quiet.contains(utc(2026, 11, 28, 6, 30))
    assert not quiet.contains(utc(2026, 11, 27, 23, 59))
    assert quiet.ends_after(utc(2026, 11, 28, 2, 10)) == utc(2026, 11, 28, 6, 30)
    assert quiet.starts_before(utc(2026, 11, 28, 2, 10)) == utc(2026, 11, 28)


def test_quiet_hours_read_the_local_clock():
    # 22-08 in Paris, late November (CET, UTC+1) is 21:00-07:00 UTC.
    quiet = QuietHours.parse("22-08", "Europe/Paris")
    assert quiet.contains(utc(2026, 11, 27, 21))
    assert not quiet.contains(utc(2026, 11, 27, 20, 59))
    assert quiet.ends_after(utc(2026, 11, 28, 3)) == utc(2026, 11, 28, 7)


def test_a_quiet_night_across_the_paris_spring_forward():
    # Sat 28 Mar 22:00 CET = 21:00 UTC to Sun 29 Mar 08:00 CEST = 06:00 UTC: nine real hours, not ten.
    quiet = QuietHours.parse("22-08", "Europe/Paris")
    assert quiet.ends_after(utc(2026, 3, 28, 22)) == utc(2026, 3, 29, 6)
    assert quiet.starts_before(utc(2026, 3, 29, 5)) == utc(2026, 3, 28, 21)
    assert quiet.contains(utc(2026, 3, 29, 1))  # the jump itself, 02:00 CET -> 03:00 CEST


def test_a_quiet_night_across_the_paris_fall_back():
    # Sat 24 Oct 22:00 CEST = 20:00 UTC to Sun 25 Oct 08:00 CET = 07:00 UTC: eleven real hours.
    quiet = QuietHours.parse("22-08", "Europe/Paris")
    assert quiet.ends_after(utc(2026, 10, 24, 21)) == utc(2026, 10, 25, 7)
    assert quiet.starts_before(utc(2026, 10, 25, 6)) == utc(2026, 10, 24, 20)


def test_a_quiet_boundary_in_the_skipped_hour():
    # Sun 29 Mar the Paris wall clock jumps from 02:00 CET to 03:00 CEST at 01:00 UTC; 02:30 never shows.
    # Quiet ending 02:30 ends at the jump, when the clock first shows a time past 02:30 (03:00).
    ends = QuietHours.parse("22-02:30", "Europe/Paris")
    assert ends.ends_after(utc(2026, 3, 29, 0, 50)) == utc(2026, 3, 29, 1)  # from 01:50 CET
    assert not ends.contains(utc(2026, 3, 29, 1))
    # Quiet starting 02:30 starts at the jump too.
    starts = QuietHours.parse("02:30-07", "Europe/Paris")
    assert not starts.contains(utc(2026, 3, 29, 0, 59))
    assert starts.starts_before(utc(2026, 3, 29, 2)) == utc(2026, 3, 29, 1)  # from 04:00 CEST
    assert starts.ends_after(utc(2026, 3, 29, 2)) == utc(2026, 3, 29, 5)  # 07:00 CEST


def test_a_quiet_boundary_in_the_repeated_hour():
    # Sun 25 Oct the Paris wall clock runs 02:00-03:00 CEST (00:00-01:00 UTC), then 02:00-03:00 CET (01:00-02:00
    # UTC). Quiet 02:30-07:00 holds 02:30-03:00 CEST, lets go at 02:00 CET, and holds again from 02:30 CET.
    quiet = QuietHours.parse("02:30-07", "Europe/Paris")
    assert quiet.starts_before(utc(2026, 10, 25, 0, 45)) == utc(2026, 10, 25, 0, 30)
    assert quiet.ends_after(utc(2026, 10, 25, 0, 45)) == utc(2026, 10, 25, 1)
    assert not quiet.contains(utc(2026, 10, 25, 1, 15))
    assert quiet.starts_before(utc(2026, 10, 25, 3)) == utc(2026, 10, 25, 1, 30)
    assert quiet.ends_after(utc(2026, 10, 25, 3)) == utc(2026, 10, 25, 6)  # 07:00 CET
    # Quiet 22-02:30 lets go at the first 02:30 (CEST, 00:30 UTC) and holds again through 02:00-02:30 CET.
    night = QuietHours.parse("22-02:30", "Europe/Paris")
    assert night.ends_after(utc(2026, 10, 24, 21)) == utc(2026, 10, 25, 0, 30)
    assert night.starts_before(utc(2026, 10, 25, 1, 10)) == utc(2026, 10, 25, 1)
    assert night.ends_after(utc(2026, 10, 25, 1, 10)) == utc(2026, 10, 25, 1, 30)


quiet_specs = st.builds(
    lambda start, length, tz: QuietHours(start, (start + length) % 1440, tz),
    st.integers(0, 1439),
    st.integers(1, 1439),
    zones,
)


@FAST
@given(quiet=quiet_specs, t=times)
def test_quiet_stretches_begin_inside_and_end_outside(quiet, t):
    end, start = quiet.ends_after(t), quiet.starts_before(t)
    if not quiet.contains(t):
        assert end == start == t
        return
    assert start <= t < end
    assert end - start <= DAY + HOUR
    assert not quiet.contains(end)
    assert quiet.contains(end - 1)
    assert quiet.contains(start)
    assert not quiet.contains(start - 1)
    assert all(quiet.contains(start + (end - start) * k / 16) for k in range(16))


@settings(max_examples=80, derandomize=True, deadline=None)
@given(
    quiet=st.builds(
        lambda start, length: QuietHours(start, (start + length) % 1440, "Europe/Paris"),
        st.integers(0, 1439),
        st.integers(1, 1439),
    ),
    t=st.one_of(
        st.floats(min_value=utc(2026, 3, 28, 12), max_value=utc(2026, 3, 29, 12)),
        st.floats(min_value=utc(2026, 10, 24, 12), max_value=utc(2026, 10, 25, 12)),
    ),
)
def test_quiet_stretches_on_paris_change_nights(quiet, t):
    if quiet.contains(t):
        end, start = quiet.ends_after(t), quiet.starts_before(t)
        assert not quiet.contains(end) and quiet.contains(end - 1)
        assert quiet.contains(start) and not quiet.contains(start - 1)
        assert all(quiet.contains(start + (end - start) * k / 16) for k in range(16))


# --- delivery and warnings ------------------------------------------------------------------------------------

QUIET = QuietHours.parse("22-08", "Europe/Paris")  # 21:00-07:00 UTC in late November


def test_delivery_time():
    assert delivery_time(utc(2026, 11, 27, 23), None) == utc(2026, 11, 27, 23)
    assert delivery_time(utc(2026, 11, 27, 23), QUIET) == utc(2026, 11, 28, 7)
    assert delivery_time(utc(2026, 11, 28, 12), QUIET) == utc(2026, 11, 28, 12)


def test_warning_outside_quiet_hours_goes_when_due():
    due = utc(2026, 11, 28, 12)
    assert warning_time(due, due + HOUR, QUIET) == due
    assert warning_time(utc(2026, 11, 27, 23), utc(2026, 11, 28), None) == utc(2026, 11, 27, 23)


def test_warning_inside_quiet_hours_waits_when_the_deadline_is_later():
    # Due Fri 23:00 UTC, deadline Sat 10:00 UTC, the stretch ends Sat 07:00 UTC: 3h to spare after waking.
    assert warning_time(utc(2026, 11, 27, 23), utc(2026, 11, 28, 10), QUIET) == utc(2026, 11, 28, 7)


def test_warning_inside_quiet_hours_goes_early_when_the_deadline_comes_first():
    # Due Sat 02:00 UTC, deadline 03:00 UTC, before the stretch ends at 07:00: one minute before it began
    # (Fri 21:00 UTC).
    assert warning_time(utc(2026, 11, 28, 2), utc(2026, 11, 28, 3), QUIET) == utc(2026, 11, 27, 21) - MINUTE
    # A deadline at the very end of the stretch is no better: the player would wake up having lost.
    assert warning_time(utc(2026, 11, 28, 2), utc(2026, 11, 28, 7), QUIET) == utc(2026, 11, 27, 21) - MINUTE


# --- vacation -------------------------------------------------------------------------------------------------

T0 = utc(2026, 1, 1)


def test_vacation_accrues_a_day_a_week():
    assert vacation_bank(VACATION_START, T0, T0 + 70 * DAY, on_since=None) == pytest.approx(24 * DAY)
    assert vacation_bank(VACATION_START, T0, T0, on_since=None) == VACATION_START


def test_vacation_accrual_stops_at_the_cap():
    assert vacation_bank(VACATION_START, T0, T0 + 365 * DAY, on_since=None) == VACATION_CAP
    assert vacation_bank(VACATION_START, T0, T0 + 112 * DAY, on_since=None) == VACATION_CAP  # 14 + 16 exactly


def test_a_bank_over_the_cap_is_kept_not_cut():
    assert vacation_bank(40 * DAY, T0, T0 + 70 * DAY, on_since=None) == 40 * DAY


def test_a_clock_running_backwards_gives_no_accrual():
    assert vacation_bank(10 * DAY, T0, T0 - 70 * DAY, on_since=None) == 10 * DAY


def test_vacation_drains_a_second_per_second():
    # 10 days at T0, 7 days of accrual (+1 day) until the vacation starts, then 3 days away: 11 - 3 = 8 days.
    assert vacation_bank(10 * DAY, T0, T0 + 10 * DAY, on_since=T0 + 7 * DAY) == pytest.approx(8 * DAY)
    # Looking before the vacation starts: accrual only.
    assert vacation_bank(10 * DAY, T0, T0 + 3.5 * DAY, on_since=T0 + 7 * DAY) == pytest.approx(10.5 * DAY)


def test_vacation_bank_never_goes_negative():
    assert vacation_bank(2 * DAY, T0, T0 + 100 * DAY, on_since=T0) == 0


def test_a_vacation_older_than_the_balance_drains_from_the_balance():
    # The balance at T0 already paid for the vacation before T0.
    assert vacation_bank(5 * DAY, T0, T0 + 2 * DAY, on_since=T0 - 9 * DAY) == 3 * DAY


def test_vacation_runs_out_when_the_bank_is_empty():
    ends = vacation_runs_out(10 * DAY, T0, T0 + 7 * DAY)
    assert ends == pytest.approx(T0 + 18 * DAY)  # 11 days banked when it starts on day 7
    assert vacation_bank(10 * DAY, T0, ends, on_since=T0 + 7 * DAY) == pytest.approx(0, abs=1e-6)
    assert vacation_bank(10 * DAY, T0, ends - HOUR, on_since=T0 + 7 * DAY) == pytest.approx(HOUR)
    assert vacation_runs_out(0, T0, T0) == T0


# --- formatting -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (7 * DAY - 1, "6d 23h"),
        (7 * DAY, "7d"),
        (DAY, "1d"),
        (DAY + 59 * MINUTE, "1d"),
        (DAY + HOUR + 59 * MINUTE, "1d 1h"),
        (DAY - 1, "23h 59m"),
        (4 * HOUR, "4h"),
        (4 * HOUR + 59, "4h"),
        (4 * HOUR + 60, "4h 1m"),
        (12 * MINUTE, "12m"),
        (13 * MINUTE - 1, "12m"),
        (13 * MINUTE - 0.001, "13m"),  # a fraction of a second is rounded up first
        (7 * DAY - 0.004, "7d"),  # a fresh clock read a few milliseconds after the move
        (60, "1m"),
        (59.999, "1m"),
        (59, "less than a minute"),
        (0.001, "less than a minute"),
        (0, "no time"),
        (-5, "no time"),
        (45 * DAY + 3 * HOUR, "45d 3h"),
    ],
)
def test_format_left(seconds, shown):
    assert format_left(seconds) == shown


def test_format_left_refuses_endless_times():
    for bad in (float("inf"), float("nan")):
        with pytest.raises(ValueError, match="finite"):
            format_left(bad)


def test_format_local():
    assert format_local(utc(2026, 11, 28, 7), "Europe/Paris") == "Sat 2026-11-28 08:00 Europe/Paris"
    assert format_local(utc(2026, 3, 29, 1), "Europe/Paris") == "Sun 2026-03-29 03:00 Europe/Paris"
    assert format_local(utc(2026, 11, 28, 7), "UTC") == "Sat 2026-11-28 07:00 UTC"
    assert format_local(utc(2026, 11, 28, 7), "Asia/Kolkata") == "Sat 2026-11-28 12:30 Asia/Kolkata"
    with pytest.raises(ValueError, match="unknown time zone"):
        format_local(0, "Paris")
