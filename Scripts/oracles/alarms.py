#!/usr/bin/env python3
"""Outside reference for calgw's alarm tests, from recurring-ical-events.

Input on stdin: one JSON object, answered on stdout as one JSON value.
  {"files": ["/path/a.ics", ...], "texts": ["BEGIN:VCALENDAR..."], "from": "1995-01-01T00:00:00Z",
   "to": "2036-01-01T00:00:00Z"}
      -> (the window's ends as instants; a date alone is midnight in each event's own zone, as
         recurring-ical-events reads it) for each calendar, the alarms recurring_ical_events.of(cal, components=["VALARM"])
         finds between from and to: [{"uid", "recurrenceId", "trigger", "start", "action",
         "description", "acknowledged"}] (acknowledged: when python's icalendar says the alarm
         was last acknowledged, which recurring-ical-events does not look at: the VALARM's RFC
         9074 ACKNOWLEDGED, for an event Thunderbird wrote the later of it and X-MOZ-LASTACK, and
         none while X-MOZ-SNOOZE-TIME is later still, as icalendar.alarms reads them; its reading
         of DTSTAMP as Google's acknowledgement is left out), sorted; times as RFC 3339 (aware times in UTC with Z, floating
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


def acknowledged(parent, alarm):
    """When `alarm` (of the occurrence `parent`) counts as last acknowledged, in RFC 3339; None."""
    ack = alarm.ACKNOWLEDGED
    if parent.is_thunderbird():
        last = parent.X_MOZ_LASTACK
        if last is not None and (ack is None or last > ack):
            ack = last
        snoozed = parent.X_MOZ_SNOOZE_TIME
        if ack is not None and snoozed is not None and snoozed > ack:
            ack = None
    return iso(ack) if ack is not None else None


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
                    "acknowledged": acknowledged(parent, alarm),
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
