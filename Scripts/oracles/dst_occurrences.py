#!/usr/bin/env python3
"""Outside reference for calgw's expansion across DST gaps and overlaps (RFC 5545 §3.3.5,
§3.3.6, §3.8.5.3), from python-dateutil's rrule and the zone's own offsets.

Input on stdin: one JSON array of cases
  {"dtstart": "20270313T233000", "rrule": "FREQ=HOURLY;COUNT=6", "zone": "America/New_York",
   "vtimezone": null | "BEGIN:VCALENDAR...",  (a calendar whose VTIMEZONE, TZID = zone, is used)
   "dtend": "20270314T000000" | null,  "days": 0, "seconds": 3600}  (DURATION when dtend is null)
Output on stdout: one JSON array per case of [start, end] pairs, instants as YYYYMMDDTHHMMSSZ,
sorted, or {"error": text}.

What the reference does, step by step:
  1. dateutil's rrule yields the instances as wall-clock times (DTSTART first, as RFC 5545
     counts it); for an IANA zone it is given DTSTART with its zoneinfo, for a VTIMEZONE the
     naive time (the rule counts in wall-clock time either way).
  2. Each wall-clock time becomes an instant as RFC 5545 §3.3.5 says, by a search that uses the
     zone only to turn instants into wall-clock times (always unambiguous): the instants whose
     wall-clock time it is, the earliest of them in an overlap; in a gap, the time read with
     the offset in force before the gap. For IANA zones this must equal zoneinfo's PEP 495
     reading with fold=0 (checked: a mismatch is an error). A VTIMEZONE is read with python
     icalendar's `to_tz` (dateutil's tzical), whose own reading of gap times takes the offset
     after the gap, so only its instant-to-wall-clock conversion is used.
  3. Instances at the same instant count once (§3.8.5.3: the recurrence set has no duplicates).
  4. The end: with DTEND, the start plus the exact duration DTEND − DTSTART between the two
     instants of the first instance (§3.8.5.3); with DURATION, the days added on the wall
     clock of the instance's (resolved) start and read again as in step 2, then the seconds
     added as elapsed time (§3.3.6).
"""
import datetime as dt
import json
import sys
import zoneinfo

from dateutil import rrule as du

UTC = dt.timezone.utc
STEP = dt.timedelta(minutes=5)


def parse(text):
    return dt.datetime.strptime(text, "%Y%m%dT%H%M%S")


def wall(instant, zone):
    """The wall-clock time (naive) at an aware instant."""
    return instant.astimezone(zone).replace(tzinfo=None, fold=0)


def offset(instant, zone):
    return instant.astimezone(zone).utcoffset()


def resolve(naive, zone):
    """The instant of a wall-clock time by RFC 5545 §3.3.5, using only instant → wall clock."""
    as_utc = naive.replace(tzinfo=UTC)
    offsets = set()
    u = as_utc - dt.timedelta(days=2)
    while u <= as_utc + dt.timedelta(days=2):
        offsets.add(offset(u, zone))
        u += STEP
    matches = sorted(as_utc - o for o in offsets if wall(as_utc - o, zone) == naive)
    if matches:
        return matches[0]
    # In a gap: the offset in force at the last instant whose wall-clock time is before it.
    u = as_utc - dt.timedelta(days=2)
    before = offset(u, zone)
    while u <= as_utc + dt.timedelta(days=2) and wall(u, zone) < naive:
        before = offset(u, zone)
        u += STEP
    return as_utc - before


def utc_text(instant):
    return instant.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def zone_of(case):
    if case.get("vtimezone"):
        import icalendar

        calendar = icalendar.Calendar.from_ical(case["vtimezone"])
        for vtz in calendar.walk("VTIMEZONE"):
            if str(vtz["TZID"]) == case["zone"]:
                return vtz.to_tz(lookup_tzid=False), False
        raise ValueError(f"no VTIMEZONE {case['zone']}")
    return zoneinfo.ZoneInfo(case["zone"]), True


def occurrences(case):
    zone, is_iana = zone_of(case)
    start = parse(case["dtstart"])
    if is_iana:
        walls = []
        for value in du.rrulestr(case["rrule"], dtstart=start.replace(tzinfo=zone)):
            naive = value.replace(tzinfo=None)
            pep495 = value.replace(fold=0).astimezone(UTC)
            if resolve(naive, zone) != pep495:
                raise ValueError(f"search and zoneinfo disagree on {naive} in {case['zone']}")
            walls.append(naive)
    else:
        walls = list(du.rrulestr(case["rrule"], dtstart=start))
    starts = sorted({resolve(w, zone) for w in walls})
    if case.get("dtend"):
        exact = resolve(parse(case["dtend"]), zone) - resolve(start, zone)
        ends = [s + exact for s in starts]
    else:
        days = dt.timedelta(days=case.get("days", 0))
        seconds = dt.timedelta(seconds=case.get("seconds", 0))
        ends = [resolve(wall(s, zone) + days, zone) + seconds for s in starts]
    return [[utc_text(s), utc_text(e)] for s, e in zip(starts, ends)]


def main():
    out = []
    for case in json.load(sys.stdin):
        try:
            out.append(occurrences(case))
        except Exception as error:  # noqa: BLE001 - reported to the test
            out.append({"error": f"{type(error).__name__}: {error}"})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
