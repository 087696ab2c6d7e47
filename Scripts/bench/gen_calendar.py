#!/usr/bin/env python3
"""Writes a large, realistic calendar for benchmarks: N events with zoned, UTC and all-day
times, recurrence rules with EXDATEs, attendees, alarms, folded non-ASCII descriptions and
a few unknown properties. Deterministic (fixed seed).

usage: gen_calendar.py OUT.ics [N]
"""
import random
import sys

def fold(line: str) -> str:
    data = line.encode("utf-8")
    out, start, limit = [], 0, 75
    while start < len(data):
        end = min(start + limit, len(data))
        while end < len(data) and (data[end] & 0xC0) == 0x80:
            end -= 1
        out.append(data[start:end].decode("utf-8"))
        start, limit = end, 74
    return "\r\n ".join(out)

def main():
    out, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    rng = random.Random(20261122)
    words = "meeting review planning café Überblick 会议 résumé sprint demo retro lunch budget roadmap ✈ travel".split()
    zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney"]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calgw//bench//EN", "CALSCALE:GREGORIAN"]
    for i in range(n):
        day = 1 + i % 28
        month = 1 + (i // 28) % 12
        year = 2020 + (i // 336) % 10
        hour = 7 + i % 11
        lines += ["BEGIN:VEVENT", f"UID:bench-{i}@calgw.example", "DTSTAMP:20260101T000000Z",
                  f"SUMMARY:{' '.join(rng.choice(words) for _ in range(4))} #{i}"]
        kind = i % 5
        if kind == 0:
            lines += [f"DTSTART;VALUE=DATE:{year}{month:02d}{day:02d}", f"DTEND;VALUE=DATE:{year}{month:02d}{day:02d}"[:-2] + f"{min(day + 1, 28):02d}"]
        elif kind == 1:
            lines += [f"DTSTART:{year}{month:02d}{day:02d}T{hour:02d}0000Z", f"DURATION:PT{30 + i % 90}M"]
        else:
            z = zones[i % len(zones)]
            lines += [f"DTSTART;TZID={z}:{year}{month:02d}{day:02d}T{hour:02d}3000",
                      f"DTEND;TZID={z}:{year}{month:02d}{day:02d}T{hour + 1:02d}3000"]
        if i % 4 == 0:
            lines.append("RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=20" if i % 8 == 0 else "RRULE:FREQ=MONTHLY;BYMONTHDAY=1,-1;UNTIL=20301231T000000Z")
            lines.append(f"EXDATE:{year}{month:02d}{day:02d}T{hour:02d}0000Z")
        desc = " ".join(rng.choice(words) for _ in range(rng.randint(6, 18))).replace(",", "\\,")
        lines.append(fold(f"DESCRIPTION:{desc}\\nSecond line\\; with escapes"))
        lines.append(f"LOCATION:Room {i % 300}\\, Building {i % 7}")
        lines.append(fold(f'ORGANIZER;CN="Org {i % 50}":mailto:org{i % 50}@example.com'))
        for a in range(i % 3):
            lines.append(fold(f'ATTENDEE;CN="Person {a}";ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:p{a}-{i % 100}@example.com'))
        lines += ["CATEGORIES:work,bench", f"SEQUENCE:{i % 4}", "LAST-MODIFIED:20260101T000000Z", f"X-CALGW-BENCH;X-P=1:{i}"]
        if i % 3 == 0:
            lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER:-PT15M", "END:VALARM"]
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    with open(out, "w", encoding="utf-8", newline="") as f:
        f.write("\r\n".join(lines) + "\r\n")

if __name__ == "__main__":
    main()
