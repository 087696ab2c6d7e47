#!/usr/bin/env python3
"""Outside reference for calgw's recurrence tests, from python-dateutil and recurring-ical-events.

Input on stdin: one JSON object, answered on stdout as one JSON value.
  {"kind": "rules", "cases": [{"dtstart": "19970105T090000", "rrule": "FREQ=...", "limit": 60,
                               "before": "20010101T000000", "tzid": null | "UTC" | "Europe/Berlin",
                               "seconds": 1, "bounded": false}, ...]}
      -> for each case the instances dateutil's rrule yields (DTSTART not added): wall-clock
         "YYYYMMDDTHHMMSS" for floating cases, instants "YYYYMMDDTHHMMSSZ" when a tzid is given,
         at most `limit`, none after `before` (wall clock), [] when dateutil finds the rule has
         none ("generates an empty set"); {"timeout": seconds} when dateutil took longer than
         `seconds` (0.15), {"error": "Type: message"} when it raised anything else.
         With "bounded", a rule without UNTIL gets UNTIL at `before` (its COUNT dropped): a rule
         with no instance then ends there instead of making dateutil walk to year 9999 (the
         instances up to `before` are the same, but for COUNT's cut, which the caller uses
         only where it found none).
  {"kind": "calendars", "files": ["/path/a.ics", ...], "texts": ["BEGIN:VCALENDAR..."],
   "from": "1995-01-01", "to": "2036-01-01"}
      -> for each calendar, its occurrences from recurring_ical_events.of(cal).between(from, to),
         sorted: [{"uid", "recurrenceId", "start", "end", "summary"}], values as RFC 3339
         (aware times in UTC with Z, floating without offset, dates as YYYY-MM-DD); or {"error": text}.
"""
import datetime as dt
import json
import os
import signal
import sys
import time
import zoneinfo

from dateutil import rrule as du


class Timeout(BaseException):
    """A case past its time: a BaseException, so that no handler for dateutil's own errors
    takes it for one of them."""


# When the case being expanded must stop (time.monotonic()), None between cases, and whether
# the case was stopped already. A timer's signal can reach the handler late (after its case
# ended, while the next is set up, inside an except clause): it stops only the case whose time
# is up, and that case only once, and `rules` catches the stop wherever it lands.
deadline = None
fired = False


def on_alarm(signum, frame):
    global fired
    if deadline is not None and not fired and time.monotonic() >= deadline:
        fired = True
        raise Timeout()


def expand(rule, start, before, limit, seconds):
    """The rule's occurrences up to `before` (at most `limit`), or dateutil's verdict, within
    `seconds`."""
    global deadline, fired
    fired = False
    deadline = time.monotonic() + seconds
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        values = []
        for value in du.rrulestr(rule, dtstart=start):
            if value > before:
                break
            if value.tzinfo is not None:
                values.append(value.astimezone(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ"))
            else:
                values.append(value.strftime("%Y%m%dT%H%M%S"))
            if len(values) >= limit:
                break
        return values
    except ValueError as error:
        # dateutil's own verdict that the rule has no instance at all.
        return [] if "generates an empty set" in str(error) else {"error": f"ValueError: {error}"}
    except Exception as error:  # noqa: BLE001 - reported to the test
        return {"error": f"{type(error).__name__}: {error}"}
    finally:
        deadline = None
        signal.setitimer(signal.ITIMER_REAL, 0)


def rules(cases):
    signal.signal(signal.SIGALRM, on_alarm)
    # A test runner may start this script with SIGALRM blocked; the timer needs it.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGALRM])
    out = []
    debug = os.environ.get("CALGW_ORACLE_DEBUG")
    for case in cases:
        if debug:
            print(case, file=sys.stderr, flush=True)
        start = dt.datetime.strptime(case["dtstart"], "%Y%m%dT%H%M%S")
        before = dt.datetime.strptime(case["before"], "%Y%m%dT%H%M%S")
        tzid = case.get("tzid")
        if tzid:
            zone = dt.timezone.utc if tzid == "UTC" else zoneinfo.ZoneInfo(tzid)
            start = start.replace(tzinfo=zone)
            before = before.replace(tzinfo=zone)
        rule = case["rrule"]
        if case.get("bounded") and "UNTIL=" not in rule:
            parts = [p for p in rule.split(";") if not p.startswith("COUNT=")]
            until = before.astimezone(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ") if tzid else before.strftime("%Y%m%dT%H%M%S")
            rule = ";".join(parts + [f"UNTIL={until}"])
        seconds = case.get("seconds", 0.15)
        try:
            out.append(expand(rule, start, before, case.get("limit", 60), seconds))
        except Timeout:
            out.append({"timeout": seconds})
    return out


def iso(value):
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            return value.strftime("%Y-%m-%dT%H:%M:%S")
        return value.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return value.isoformat()


def calendars(req):
    import icalendar
    import recurring_ical_events

    start = dt.date.fromisoformat(req["from"])
    end = dt.date.fromisoformat(req["to"])
    texts = [open(path, "rb").read() for path in req.get("files", [])] + [t.encode() for t in req.get("texts", [])]
    out = []
    for raw in texts:
        try:
            if not raw.lstrip().upper().startswith(b"BEGIN:VCALENDAR"):
                # A bare VEVENT file: read it as the one event of a calendar.
                raw = b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + raw.strip() + b"\r\nEND:VCALENDAR\r\n"
            cal = icalendar.Calendar.from_ical(raw)
            # Events without DTSTART have no occurrences; recurring-ical-events raises on them.
            cal.subcomponents = [c for c in cal.subcomponents if not (c.name == "VEVENT" and "DTSTART" not in c)]
            items = []
            for ev in recurring_ical_events.of(cal).between(start, end):
                if ev.name != "VEVENT":
                    continue
                s = ev.get("DTSTART").dt if ev.get("DTSTART") else None
                e = ev.get("DTEND").dt if ev.get("DTEND") else None
                rid = ev.get("RECURRENCE-ID")
                items.append({
                    "uid": str(ev.get("UID", "")),
                    "recurrenceId": iso(rid.dt) if rid is not None else None,
                    "start": iso(s) if s is not None else None,
                    "end": iso(e) if e is not None else None,
                    "summary": str(ev.get("SUMMARY", "")),
                })
            items.sort(key=lambda x: (x["start"] or "", x["uid"], x["end"] or ""))
            out.append(items)
        except Exception as error:  # noqa: BLE001 - reported to the test
            out.append({"error": f"{type(error).__name__}: {error}"})
        finally:
            deadline = None
            signal.setitimer(signal.ITIMER_REAL, 0)
    return out


def main():
    req = json.load(sys.stdin)
    if req["kind"] == "rules":
        result = rules(req["cases"])
    elif req["kind"] == "calendars":
        result = calendars(req)
    else:
        raise SystemExit(f"unknown kind {req['kind']}")
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
