"""Graph's patternedRecurrence: checking one as Graph would, writing it back in full, and
expanding it into occurrence dates.

Docs: resources/recurrencepattern.md, resources/recurrencerange.md,
concepts/outlook-schedule-recurring-events.md. Rules followed:
- pattern types daily, weekly, absoluteMonthly, relativeMonthly, absoluteYearly,
  relativeYearly, each with its required fields; a value out of its set is refused even in a
  field the type ignores;
- weeks start on `firstDayOfWeek` (default sunday): a weekly series with interval n takes the
  listed days of every n-th week counted from the week holding `range.startDate`;
- relative patterns pick the `index`-th (first..fourth, last) of the month's days that fall on
  any of `daysOfWeek` (BYDAY set with BYSETPOS);
- the first occurrence is the first date on or after `range.startDate` that fits the pattern
  (`startDate` itself counts only if it fits);
- `endDate` is inclusive; `numbered` counts occurrences from that first one.
A dayOfMonth past the month's end falls on its last day (a choice, see README).
"""

import calendar
import datetime as dt

WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
INDEXES = ["first", "second", "third", "fourth", "last"]
PATTERN_TYPES = ["daily", "weekly", "absoluteMonthly", "relativeMonthly", "absoluteYearly", "relativeYearly"]
RANGE_TYPES = ["endDate", "noEnd", "numbered"]
REQUIRED = {
    "daily": ["interval"],
    "weekly": ["interval", "daysOfWeek"],
    "absoluteMonthly": ["interval", "dayOfMonth"],
    "relativeMonthly": ["interval", "daysOfWeek"],
    "absoluteYearly": ["interval", "dayOfMonth", "month"],
    "relativeYearly": ["interval", "daysOfWeek", "month"],
}
NO_DATE = "0001-01-01"


class RecurrenceError(ValueError):
    """A recurrence Graph would refuse (400 ErrorInvalidRequest / ErrorPropertyValidationFailure)."""


def _date(text, field):
    try:
        return dt.date.fromisoformat(text)
    except (TypeError, ValueError):
        raise RecurrenceError(f"recurrence range {field} '{text}' is not a date")


def _check_pattern(pattern):
    kind = pattern.get("type")
    if kind not in PATTERN_TYPES:
        raise RecurrenceError(f"recurrence pattern type '{kind}' is not supported")
    for field in REQUIRED[kind]:
        if pattern.get(field) in (None, [], 0):
            raise RecurrenceError(f"recurrence pattern of type {kind} requires {field}")
    interval = pattern.get("interval")
    if not isinstance(interval, int) or not 1 <= interval <= 999:
        raise RecurrenceError("recurrence pattern interval must be an integer from 1 to 999")
    days = pattern.get("daysOfWeek") or []
    if not isinstance(days, list) or any(d not in WEEKDAYS for d in days):
        raise RecurrenceError(f"recurrence pattern daysOfWeek {days!r} has an unknown day")
    if pattern.get("firstDayOfWeek") not in (None, *WEEKDAYS):
        raise RecurrenceError("recurrence pattern firstDayOfWeek is not a day of the week")
    if pattern.get("index") not in (None, *INDEXES):
        raise RecurrenceError(f"recurrence pattern index '{pattern.get('index')}' is not supported")
    if pattern.get("month") not in (None, 0) and pattern.get("month") not in range(1, 13):
        raise RecurrenceError("recurrence pattern month must be from 1 to 12")
    if pattern.get("dayOfMonth") not in (None, 0) and pattern.get("dayOfMonth") not in range(1, 32):
        raise RecurrenceError("recurrence pattern dayOfMonth must be from 1 to 31")


def _check_range(rng):
    kind = rng.get("type")
    if kind not in RANGE_TYPES:
        raise RecurrenceError(f"recurrence range type '{kind}' is not supported")
    start = _date(rng.get("startDate"), "startDate")
    if kind == "endDate":
        end = _date(rng.get("endDate"), "endDate")
        if end < start:
            raise RecurrenceError("recurrence range endDate is before its startDate")
    count = rng.get("numberOfOccurrences")
    if kind == "numbered" and (not isinstance(count, int) or count < 1):
        raise RecurrenceError("recurrence range of type numbered requires numberOfOccurrences >= 1")


def normalize(recurrence, start_date, default_zone):
    """The recurrence as Graph stores and returns it, every field present; RecurrenceError if
    Graph would refuse it. `start_date` is the series start's date in the series zone."""
    if not isinstance(recurrence, dict) or not isinstance(recurrence.get("pattern"), dict) \
            or not isinstance(recurrence.get("range"), dict):
        raise RecurrenceError("recurrence needs a pattern and a range")
    pattern, rng = recurrence["pattern"], recurrence["range"]
    _check_pattern(pattern)
    _check_range(rng)
    if _date(rng["startDate"], "startDate") != start_date:
        raise RecurrenceError("recurrence range startDate must be the date of the event's start")
    kind = pattern["type"]
    out_pattern = {
        "type": kind, "interval": pattern["interval"],
        "month": pattern.get("month") or 0, "dayOfMonth": pattern.get("dayOfMonth") or 0,
        "daysOfWeek": list(pattern.get("daysOfWeek") or []),
        "firstDayOfWeek": pattern.get("firstDayOfWeek") or "sunday",
        "index": pattern.get("index") or "first",
    }
    out_range = {
        "type": rng["type"], "startDate": rng["startDate"],
        "endDate": rng.get("endDate") if rng["type"] == "endDate" else NO_DATE,
        "recurrenceTimeZone": rng.get("recurrenceTimeZone") or default_zone,
        "numberOfOccurrences": rng.get("numberOfOccurrences") if rng["type"] == "numbered" else 0,
    }
    return {"pattern": out_pattern, "range": out_range}


def _clamped(year, month, day):
    return dt.date(year, month, min(day, calendar.monthrange(year, month)[1]))


def _relative(year, month, days, index):
    """The index-th day of the month that falls on one of `days` (None if there is none)."""
    wanted = {WEEKDAYS.index(d) for d in days}
    fits = [dt.date(year, month, d) for d in range(1, calendar.monthrange(year, month)[1] + 1)
            if dt.date(year, month, d).weekday() in wanted]
    if index == "last":
        return fits[-1] if fits else None
    n = INDEXES.index(index)
    return fits[n] if n < len(fits) else None


def _month_steps(start, interval):
    k = 0
    while True:
        months = start.year * 12 + start.month - 1 + k * interval
        yield months // 12, months % 12 + 1
        k += 1


def _candidates(pattern, start):
    """Pattern dates in ascending order from the period holding `start` (some before it)."""
    kind, interval = pattern["type"], pattern["interval"]
    if kind == "daily":
        day = start
        while True:
            yield day
            day += dt.timedelta(days=interval)
    elif kind == "weekly":
        first = WEEKDAYS.index(pattern["firstDayOfWeek"])
        week = start - dt.timedelta(days=(start.weekday() - first) % 7)
        offsets = sorted((WEEKDAYS.index(d) - first) % 7 for d in pattern["daysOfWeek"])
        while True:
            for offset in offsets:
                yield week + dt.timedelta(days=offset)
            week += dt.timedelta(weeks=interval)
    elif kind in ("absoluteMonthly", "relativeMonthly"):
        for year, month in _month_steps(start, interval):
            if kind == "absoluteMonthly":
                yield _clamped(year, month, pattern["dayOfMonth"])
            else:
                day = _relative(year, month, pattern["daysOfWeek"], pattern["index"])
                if day:
                    yield day
    else:
        year = start.year
        while True:
            if kind == "absoluteYearly":
                yield _clamped(year, pattern["month"], pattern["dayOfMonth"])
            else:
                day = _relative(year, pattern["month"], pattern["daysOfWeek"], pattern["index"])
                if day:
                    yield day
            year += interval


def dates(recurrence, until=None):
    """Occurrence dates of a normalized recurrence, ascending; endless series stop after `until`
    (a date) or after 5,000 dates, the most any caller of the fake needs."""
    pattern, rng = recurrence["pattern"], recurrence["range"]
    start = dt.date.fromisoformat(rng["startDate"])
    end = dt.date.fromisoformat(rng["endDate"]) if rng["type"] == "endDate" else None
    left = rng["numberOfOccurrences"] if rng["type"] == "numbered" else None
    produced = 0
    for day in _candidates(pattern, start):
        if day < start:
            continue
        if (end and day > end) or (left is not None and produced >= left) \
                or (until and day > until) or produced >= 5000:
            return
        produced += 1
        yield day
