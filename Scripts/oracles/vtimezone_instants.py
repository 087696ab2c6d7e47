#!/usr/bin/env python3
"""Outside reference for calgw's generated VTIMEZONEs: reads calendars with the python
`icalendar` library, turns each VTIMEZONE into a tzinfo (`Timezone.to_tz`, dateutil rules)
and gives the UTC instant of every VEVENT's DTSTART read in it, next to the instant the
system's zoneinfo database gives for the IANA zone named in the input.

Input on stdin: one JSON array of {"ics": calendar text, "zone": IANA zone}. The calendar's
TZIDs should be names python does not know, so that its VTIMEZONE is what is read.
Output on stdout: one JSON array per input of [uid, via_vtimezone, via_zoneinfo], instants
as YYYYMMDDTHHMMSSZ.
"""
import datetime
import json
import sys
import zoneinfo

import icalendar


def utc(dt):
    return dt.astimezone(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def main():
    out = []
    for case in json.load(sys.stdin):
        calendar = icalendar.Calendar.from_ical(case["ics"])
        zones = {str(tz["TZID"]): tz.to_tz() for tz in calendar.walk("VTIMEZONE")}
        system = zoneinfo.ZoneInfo(case["zone"])
        rows = []
        for event in calendar.walk("VEVENT"):
            start = event["DTSTART"]
            naive = start.dt.replace(tzinfo=None)
            tzid = str(start.params["TZID"])
            rows.append([str(event["UID"]), utc(naive.replace(tzinfo=zones[tzid])), utc(naive.replace(tzinfo=system))])
        out.append(rows)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
