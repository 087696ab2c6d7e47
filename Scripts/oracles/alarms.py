#!/usr/bin/env python3
"""Outside reference for calgw's alarm tests, from recurring-ical-events.

Input on stdin: one JSON object, answered on stdout as one JSON value.
  {"files": ["/path/a.ics", ...], "texts": ["BEGIN:VCALENDAR..."], "from": "1995-01-01T00:00:00Z",
   "to": "2036-01-01T00:00:00Z"}
      -> (the window's ends as instants; a date alone is midnight in each event's own zone, as
         recurring-ical-events reads it) for each calendar, the alarms recurring_ical_events.of(cal, components=["VALARM"])
         finds between from and to: [{"uid", "recurrenceId", "trigger", "start", "action",
         "description", "acknowledged"}] (acknowledged: the VALARM's RFC 9074 ACKNOWLEDGED as
         python's icalendar reads it, which recurring-ical-events does not look at), sorted; times as RFC 3339 (aware times in UTC with Z, floating
         without offset, dates as YYYY-MM-DD); or {"error": text} when it raises.
"""
import datetime as dt
import json
import sys


def iso(value):
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            return value.strftime("%Y-%m-%dT%H:%M:%S")
        return value.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return value.isoformat()


def moment(text):
    if "T" in text:
        return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    return dt.date.fromisoformat(text)


def alarms(req):
    import icalendar
    import recurring_ical_events

    start, end = moment(req["from"]), moment(req["to"])
    texts = [open(path, "rb").read() for path in req.get("files", [])] + [t.encode() for t in req.get("texts", [])]
    out = []
    for raw in texts:
        try:
            if not raw.lstrip().upper().startswith(b"BEGIN:VCALENDAR"):
                # A bare VEVENT (or VALARM) file: read it as the one component of a calendar.
                raw = b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + raw.strip() + b"\r\nEND:VCALENDAR\r\n"
            cal = icalendar.Calendar.from_ical(raw)
            items = []
            for parent in recurring_ical_events.of(cal, components=["VALARM"]).between(start, end):
                alarm = parent.subcomponents[0]
                rid = parent.get("RECURRENCE-ID")
                s = parent.get("DTSTART")
                items.append({
                    "uid": str(parent.get("UID", "")),
                    "recurrenceId": iso(rid.dt) if rid is not None else None,
                    "trigger": iso(alarm.get("TRIGGER").dt),
                    "start": iso(s.dt) if s is not None else None,
                    "action": str(alarm.get("ACTION")) if alarm.get("ACTION") is not None else None,
                    "description": str(alarm.get("DESCRIPTION")) if alarm.get("DESCRIPTION") is not None else None,
                    "acknowledged": iso(alarm.ACKNOWLEDGED) if alarm.ACKNOWLEDGED is not None else None,
                })
            items.sort(key=lambda x: (x["trigger"], x["uid"], x["action"] or "", x["description"] or ""))
            out.append(items)
        except Exception as error:  # noqa: BLE001 - reported to the test
            out.append({"error": f"{type(error).__name__}: {error}"})
    return out


def main():
    json.dump(alarms(json.load(sys.stdin)), sys.stdout)


if __name__ == "__main__":
    main()
