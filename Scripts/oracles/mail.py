#!/usr/bin/env python3
"""Outside reference for calgw's mail tests, from Python's email package and icalendar.

Input on stdin: one JSON object, answered on stdout as one JSON list, one entry per input.
  {"files": ["/path/a.eml", ...], "messages": ["<base64 of a whole message>", ...]}
      -> for each file, then each message: {"from": address or null, "to": [addresses of To
         and Cc], "subject", "calendars": [{"method": Content-Type's method= upper-cased or
         null, "attachment": bool, "text": the part decoded}], "chosen": index of the calendar
         part to apply (the first inline one, else the first attachment) or null, "uid",
         "objectMethod", "dtstart", "tzid": what icalendar reads from the chosen part's first
         VEVENT or VTODO (dtstart as its iCalendar text, tzid its TZID parameter or null),
         "instant": DTSTART as seconds since the epoch where icalendar places it in time (a
         date-time with a zone or in UTC) or null, "attendees": that event's ATTENDEE
         addresses, lower-cased, without mailto:, "organizer": its ORGANIZER likewise or null}
         or {"error": text} when either package raises.
A bare iCalendar object (starting with BEGIN:VCALENDAR after a byte order mark and whitespace)
is one inline calendar part without method= and without headers.
"""
import base64
import datetime
import email
import email.policy
import email.utils
import json
import re
import sys

import icalendar

CALENDAR_TYPES = ("text/calendar", "application/ics")


def read(data):
    stripped = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    stripped = stripped.lstrip(b" \t\r\n")
    if stripped[:15].upper() == b"BEGIN:VCALENDAR":
        result = {"from": None, "to": [], "subject": None,
                  "calendars": [{"method": None, "attachment": False, "text": stripped.decode("utf-8", "replace")}]}
    else:
        message = email.message_from_bytes(data, policy=email.policy.compat32)
        senders = email.utils.getaddresses(message.get_all("From", []))
        recipients = email.utils.getaddresses(message.get_all("To", []) + message.get_all("Cc", []))
        subject = message.get("Subject")
        if subject is not None:
            subject = str(email.header.make_header(email.header.decode_header(subject)))
        calendars = []
        for part in message.walk():
            if part.is_multipart() or part.get_content_type() not in CALENDAR_TYPES:
                continue
            charset = part.get_content_charset() or "utf-8"
            payload = part.get_payload(decode=True)
            disposition = (part.get("Content-Disposition") or "").split(";")[0].strip().lower()
            method = part.get_param("method")
            calendars.append({
                "method": method.upper() if method else None,
                "attachment": disposition == "attachment" or part.get_filename() is not None,
                "text": payload.decode(charset, "replace"),
            })
        result = {"from": senders[0][1] if senders and senders[0][1] else None,
                  "to": [address for _, address in recipients if address],
                  "subject": subject, "calendars": calendars}
    inline = [i for i, c in enumerate(result["calendars"]) if not c["attachment"]]
    chosen = inline[0] if inline else (0 if result["calendars"] else None)
    result.update({"chosen": chosen, "uid": None, "objectMethod": None, "dtstart": None, "tzid": None,
                   "instant": None, "attendees": [], "organizer": None})
    if chosen is None:
        return result
    calendar = icalendar.Calendar.from_ical(result["calendars"][chosen]["text"])
    result["objectMethod"] = str(calendar["METHOD"]) if "METHOD" in calendar else None
    for component in calendar.walk():
        if component.name in ("VEVENT", "VTODO"):
            result["uid"] = str(component.get("UID")) if "UID" in component else None
            start = component.get("DTSTART")
            if start is not None:
                result["dtstart"] = start.to_ical().decode()
                result["tzid"] = start.params.get("TZID")
                when = start.dt
                if isinstance(when, datetime.datetime) and when.tzinfo is not None:
                    result["instant"] = int(when.timestamp())
            attendees = component.get("ATTENDEE", [])
            attendees = attendees if isinstance(attendees, list) else [attendees]
            result["attendees"] = [re.sub(r"(?i)^mailto:", "", str(a)).lower() for a in attendees]
            if "ORGANIZER" in component:
                result["organizer"] = re.sub(r"(?i)^mailto:", "", str(component["ORGANIZER"])).lower()
            break
    return result


def main():
    request = json.load(sys.stdin)
    inputs = [open(path, "rb").read() for path in request.get("files", [])]
    inputs += [base64.b64decode(text) for text in request.get("messages", [])]
    answers = []
    for data in inputs:
        try:
            answers.append(read(data))
        except Exception as error:  # the answer says what failed, for the test to show
            answers.append({"error": f"{type(error).__name__}: {error}"})
    json.dump(answers, sys.stdout)


if __name__ == "__main__":
    main()
