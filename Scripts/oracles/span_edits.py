#!/usr/bin/env python3
"""Outside reference for calgw's span-edit tests, from python-dateutil and recurring-ical-events.

Input on stdin: one JSON array of requests, answered in order on stdout as one JSON array.
  {"kind": "instances", "dtstart": "20260105T100000", "tzid": "Europe/Berlin" | null,
   "rrule": "FREQ=WEEKLY;COUNT=10", "limit": 500}
      -> the RRULE's instance starts (DTSTART first), as iCalendar text in DTSTART's form
         ("20260105T100000", "20260105T090000Z" when dtstart ends in Z, "20260105" for dates)
  {"kind": "roundtrip", "calendars": [...], "collection": "http://127.0.0.1:5232/u/c/", "username": .., "password": ..}
      -> each calendar PUT into the collection (as NAME.ics) and fetched back, as the server serves it
  {"kind": "occurrences", "calendars": ["BEGIN:VCALENDAR...", ...], "from": "2020-01-01", "to": "2040-01-01"}
      -> every occurrence of every calendar in [from, to), sorted:
         [{"uid": .., "start": ISO 8601 with offset (or a date), "end": .., "summary": ..}]
"""
import datetime as dt
import json
import sys
import zoneinfo

import icalendar
import recurring_ical_events
from dateutil import rrule as du


def parse_start(text, tzid):
    if len(text) == 8:
        return dt.datetime.strptime(text, "%Y%m%d"), "date"
    if text.endswith("Z"):
        return dt.datetime.strptime(text[:-1], "%Y%m%dT%H%M%S").replace(tzinfo=dt.timezone.utc), "utc"
    value = dt.datetime.strptime(text, "%Y%m%dT%H%M%S")
    if tzid:
        return value.replace(tzinfo=zoneinfo.ZoneInfo(tzid)), "zoned"
    return value, "floating"


def instances(req):
    start, form = parse_start(req["dtstart"], req.get("tzid"))
    rule_text = req["rrule"]
    if form == "zoned":
        # dateutil needs UNTIL in the zone of an aware DTSTART; compare in UTC.
        parts = dict(p.split("=", 1) for p in rule_text.split(";"))
        if "UNTIL" in parts and parts["UNTIL"].endswith("Z"):
            until = dt.datetime.strptime(parts["UNTIL"][:-1], "%Y%m%dT%H%M%S").replace(tzinfo=dt.timezone.utc)
            parts["UNTIL"] = until.astimezone(start.tzinfo).strftime("%Y%m%dT%H%M%S")
            rule_text = ";".join(f"{k}={v}" for k, v in parts.items())
            naive = du.rrulestr(rule_text, dtstart=start.replace(tzinfo=None))
            out = []
            for value in naive:
                out.append(value.strftime("%Y%m%dT%H%M%S"))
                if len(out) >= req.get("limit", 500):
                    break
            return out
    # A UTC DTSTART stays aware (its UNTIL is UTC too); a zoned one is expanded in wall-clock time.
    rule = du.rrulestr(rule_text, dtstart=start.replace(tzinfo=None) if form == "zoned" else start)
    out = []
    for value in rule:
        if form == "date":
            out.append(value.strftime("%Y%m%d"))
        elif form == "utc":
            out.append(value.strftime("%Y%m%dT%H%M%SZ"))
        else:
            out.append(value.strftime("%Y%m%dT%H%M%S"))
        if len(out) >= req.get("limit", 500):
            break
    return out


def occurrences(req):
    start = dt.date.fromisoformat(req["from"])
    end = dt.date.fromisoformat(req["to"])
    out = []
    for text in req["calendars"]:
        calendar = icalendar.Calendar.from_ical(text)
        for event in recurring_ical_events.of(calendar).between(start, end):
            s = event["DTSTART"].dt
            e = event["DTEND"].dt if "DTEND" in event else None
            out.append({"uid": str(event["UID"]), "start": s.isoformat(),
                        "end": e.isoformat() if e is not None else None,
                        "summary": str(event.get("SUMMARY", ""))})
    out.sort(key=lambda o: (o["start"], o["uid"]))
    return out


def roundtrip(req):
    import base64
    import urllib.request
    token = base64.b64encode(f"{req['username']}:{req['password']}".encode()).decode()
    out = []
    for i, text in enumerate(req["calendars"]):
        # One href per UID: later versions of a resource replace earlier ones, as edits do.
        import hashlib
        uid = next((line[4:].strip() for line in text.splitlines() if line.startswith("UID:")), str(i))
        url = f"{req['collection'].rstrip('/')}/{hashlib.sha1(uid.encode()).hexdigest()}.ics"
        put = urllib.request.Request(url, data=text.encode(), method="PUT",
                                     headers={"Content-Type": "text/calendar", "Authorization": "Basic " + token})
        urllib.request.urlopen(put, timeout=30).read()
        get = urllib.request.Request(url, headers={"Authorization": "Basic " + token})
        out.append(urllib.request.urlopen(get, timeout=30).read().decode())
    return out


def main():
    requests = json.load(sys.stdin)
    answers = []
    for req in requests:
        kind = req["kind"]
        answers.append(instances(req) if kind == "instances" else roundtrip(req) if kind == "roundtrip" else occurrences(req))
    json.dump(answers, sys.stdout)


if __name__ == "__main__":
    main()
