#!/usr/bin/env python3
"""Writes a vdir for the listing benchmark: N events, one .ics file each, spread over 2020-2029.

usage: gen_vdir.py OUT_FOLDER [N]

Nine in ten are single events (zoned, UTC, floating and all-day times, some with attendees and
an alarm); one in ten recurs, started between 2016 and 2029, as people's recurring events go:
yearly without end (a fifth: birthdays), weekly for a course (COUNT) or a project (UNTIL a year
or three on), monthly, daily for a trip; 28 in 100 of them never end. A fifth of the series
have an occurrence moved (and their second excluded, for the simplest rules). Fixed seed, so
two runs write the same files.
"""
import datetime
import os
import random
import sys

ZONES = [None, "UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney"]
WORDS = "standup review planning café Überblick 会议 dentist sprint demo retro lunch budget roadmap travel".split()
KINDS = [  # (rule, how it ends, weight), as people's recurring events go
    ("FREQ=YEARLY", "never", 20),  # birthdays, anniversaries
    ("FREQ=WEEKLY", "count", 20),  # a course
    ("FREQ=WEEKLY;INTERVAL=2", "count", 10),
    ("FREQ=WEEKLY;BYDAY=MO,WE", "count", 5),
    ("FREQ=WEEKLY", "until", 15),  # a project's meeting, for a year or three
    ("FREQ=WEEKLY", "never", 4),  # a team's meeting nobody ended
    ("FREQ=WEEKLY;INTERVAL=2", "never", 1),
    ("FREQ=MONTHLY", "count", 6),
    ("FREQ=MONTHLY;BYDAY=2TU", "count", 4),
    ("FREQ=MONTHLY;BYDAY=2TU", "never", 3),
    ("FREQ=DAILY", "count", 6),  # a trip, a conference
    ("FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", "count", 6),
]
COUNTS = {"WEEKLY": (4, 40), "MONTHLY": (6, 24), "DAILY": (2, 20)}


SECOND = {  # the second instance of the simplest rules, from the first
    "FREQ=WEEKLY": lambda d: d + datetime.timedelta(days=7),
    "FREQ=WEEKLY;INTERVAL=2": lambda d: d + datetime.timedelta(days=14),
    "FREQ=MONTHLY": lambda d: d.replace(year=d.year + d.month // 12, month=d.month % 12 + 1),
    "FREQ=YEARLY": lambda d: d.replace(year=d.year + 1),
    "FREQ=DAILY": lambda d: d + datetime.timedelta(days=1),
}


def stamp(y, mo, d, h, mi):
    return f"{y:04d}{mo:02d}{d:02d}T{h:02d}{mi:02d}00"


def event(i, rng):
    uid = f"bench-{i}@calgw.example"
    zone = rng.choice(ZONES)
    recurring = i % 10 == 0
    y = (2016 + rng.randrange(0, 14)) if recurring else (2020 + rng.randrange(0, 10))
    mo, d, h, mi = rng.randrange(1, 13), rng.randrange(1, 29), rng.randrange(7, 20), rng.choice([0, 15, 30, 45])
    summary = " ".join(rng.choice(WORDS) for _ in range(3)) + f" #{i}"
    head = ["BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20260101T000000Z", f"SUMMARY:{summary}"]
    all_day = not recurring and rng.random() < 0.15
    if all_day:
        times = [f"DTSTART;VALUE=DATE:{y:04d}{mo:02d}{d:02d}", f"DTEND;VALUE=DATE:{y:04d}{mo:02d}{d + 1:02d}"]
        prefix, suffix = ";VALUE=DATE", ""
    else:
        prefix = "" if zone in (None, "UTC") else f";TZID={zone}"
        suffix = "Z" if zone == "UTC" else ""
        times = [f"DTSTART{prefix}:{stamp(y, mo, d, h, mi)}{suffix}", f"DURATION:PT{rng.choice([30, 45, 60, 90])}M"]
    body = head + times
    overrides = []
    if recurring:
        rule, ending, _ = rng.choices(KINDS, weights=[w for _, _, w in KINDS])[0]
        if ending == "count":
            low, high = COUNTS[rule.split(";")[0].split("=")[1]]
            rule += f";COUNT={rng.randrange(low, high + 1)}"
        elif ending == "until":
            rule += f";UNTIL={y + rng.randrange(1, 4)}{mo:02d}{d:02d}T235959Z"
        body.append(f"RRULE:{rule}")
        if rng.random() < 0.2:
            # The second instance excluded (where the rule makes it plain which that is), and
            # the first moved two hours later by an override.
            second = SECOND.get(rule.split(";COUNT")[0].split(";UNTIL")[0])
            if second and not all_day:
                nd = second(datetime.date(y, mo, d))
                body.append(f"EXDATE{prefix}:{stamp(nd.year, nd.month, nd.day, h, mi)}{suffix}")
            overrides.append(["BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20260101T000000Z",
                              f"RECURRENCE-ID{prefix}:{stamp(y, mo, d, h, mi)}{suffix}",
                              f"DTSTART{prefix}:{stamp(y, mo, d, min(h + 2, 23), mi)}{suffix}",
                              "DURATION:PT1H", f"SUMMARY:{summary} (moved)", "END:VEVENT"])
    else:
        body.append(f"LOCATION:Room {i % 300}\\, Building {i % 7}")
        if i % 3 == 0:
            body.append(f"ORGANIZER;CN=Org {i % 50}:mailto:org{i % 50}@example.com")
            for a in range(1 + i % 3):
                body.append(f"ATTENDEE;CN=Person {a};PARTSTAT=NEEDS-ACTION:mailto:p{a}-{i % 100}@example.com")
        if i % 4 == 0:
            body += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER:-PT15M", "END:VALARM"]
    body.append("END:VEVENT")
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calgw//bench//EN"] + body
    for o in overrides:
        lines += o
    lines.append("END:VCALENDAR")
    return uid, "\r\n".join(lines) + "\r\n"


def main():
    out, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    os.makedirs(out, exist_ok=True)
    rng = random.Random(20260329)
    for i in range(n):
        uid, text = event(i, rng)
        with open(os.path.join(out, uid + ".ics"), "w", encoding="utf-8", newline="") as f:
            f.write(text)


if __name__ == "__main__":
    main()
