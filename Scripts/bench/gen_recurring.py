#!/usr/bin/env python3
"""Writes a calendar of recurring events for the expansion benchmark.

usage: gen_recurring.py OUT.ics [EVENTS]
Mixed rules (daily, weekly with BYDAY, monthly by day and by weekday, yearly, hourly with
BYHOUR), several zones (UTC, Europe/Berlin, America/New_York, Asia/Tokyo, floating), 20% of
the series with EXDATEs and overrides (one moved, one cancelled). Fixed seed.
"""
import random
import sys

out = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
rng = random.Random(2026)
zones = [None, "UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo"]
rules = [
    "FREQ=DAILY", "FREQ=DAILY;INTERVAL=2", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU",
    "FREQ=MONTHLY;BYMONTHDAY=1,15", "FREQ=MONTHLY;BYDAY=-1FR", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
    "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "FREQ=YEARLY", "FREQ=DAILY;BYHOUR=9,13,17",
]
lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calgw//bench//EN"]


def stamp(y, mo, d, h, mi):
    return f"{y:04d}{mo:02d}{d:02d}T{h:02d}{mi:02d}00"


for i in range(count):
    zone = rng.choice(zones)
    y, mo, d = 2016 + rng.randrange(0, 3), rng.randrange(1, 13), rng.randrange(1, 29)
    h, mi = rng.randrange(7, 20), rng.choice([0, 15, 30, 45])
    rule = rng.choices(rules, weights=[1, 1, 3, 3, 3, 4, 3, 2, 4, 1])[0]
    if rng.random() < 0.3:
        rule += f";COUNT={rng.randrange(50, 400)}"
    elif rng.random() < 0.3:
        rule += f";UNTIL={2020 + rng.randrange(0, 8)}1231T235959Z"
    prefix = "" if zone in (None, "UTC") else f";TZID={zone}"
    suffix = "Z" if zone == "UTC" else ""
    start = stamp(y, mo, d, h, mi)
    uid = f"bench-{i}@calgw.test"
    lines += ["BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20260101T000000Z", f"DTSTART{prefix}:{start}{suffix}",
              "DURATION:PT1H", f"RRULE:{rule}", f"SUMMARY:Event {i}"]
    overrides = []
    if rng.random() < 0.2:
        ex = stamp(y, mo, d + 1 if d < 28 else d, h, mi)
        lines.append(f"EXDATE{prefix}:{ex}{suffix}")
        overrides = [(stamp(y, mo, d, h, mi), False)]
    lines.append("END:VEVENT")
    for rid, cancelled in overrides:
        lines += ["BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20260101T000000Z", f"RECURRENCE-ID{prefix}:{rid}{suffix}",
                  f"DTSTART{prefix}:{stamp(y, mo, d, (h + 2) % 24, mi)}{suffix}", "DURATION:PT1H",
                  f"SUMMARY:Event {i} (moved)", "END:VEVENT"]
lines.append("END:VCALENDAR")
with open(out, "w", newline="") as f:
    f.write("\r\n".join(lines) + "\r\n")
