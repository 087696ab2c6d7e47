#!/usr/bin/env python3
"""Fills a CalDAV collection with N generated events by PUT, on a few kept-alive connections.

    fill_caldav.py URL USER PASSWORD COUNT [--start K] [--threads 4] [--random-uids] [--varied]

Events are bench-K@calgw.example … bench-(K+COUNT-1)@calgw.example, one per resource, the
same shape as Scripts/bench/pull writes into Radicale's storage. With --random-uids each event's
UID and resource name is a version-4 UUID instead (drawn from a generator seeded with K, so a
fill is reproducible), as most clients make them: the journal's indexes then grow in random
order. With --varied the events are as varied as real calendars are (see `varied_event`):
timed in four zones with their VTIMEZONEs, all day, weekly and monthly series, long
descriptions with escapes, meetings, alarms; drawn from a generator seeded with each event's
number, so a fill is reproducible and event K is the same in any fill. Prints the rate at the end.
"""
import argparse
import base64
import http.client
import sys
import threading
import random
import time
import urllib.parse
import uuid


def event(i, uid=None):
    day = 1 + i % 28
    month = 1 + (i // 28) % 12
    year = 2020 + (i // 336) % 10
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calgw//bench//EN\r\nBEGIN:VEVENT\r\n"
            f"UID:{uid or f'bench-{i}@calgw.example'}\r\nDTSTAMP:20260101T000000Z\r\n"
            f"DTSTART:{year}{month:02d}{day:02d}T{8 + i % 10:02d}0000Z\r\nDURATION:PT1H\r\n"
            f"SUMMARY:Event {i}: planning review café\r\nLOCATION:Room {i % 40}\r\n"
            f"DESCRIPTION:Generated for the sync benchmark\\, event {i}.\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")


# The four zones of --varied, each with a VTIMEZONE as clients write them (standard and
# daylight rules by RRULE; Tokyo has no daylight time).
ZONES = {
    "Europe/Berlin": ("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n"
                      "BEGIN:DAYLIGHT\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nTZNAME:CEST\r\n"
                      "DTSTART:19700329T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nEND:DAYLIGHT\r\n"
                      "BEGIN:STANDARD\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nTZNAME:CET\r\n"
                      "DTSTART:19701025T030000\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nEND:STANDARD\r\n"
                      "END:VTIMEZONE\r\n"),
    "America/New_York": ("BEGIN:VTIMEZONE\r\nTZID:America/New_York\r\n"
                         "BEGIN:DAYLIGHT\r\nTZOFFSETFROM:-0500\r\nTZOFFSETTO:-0400\r\nTZNAME:EDT\r\n"
                         "DTSTART:20070311T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU\r\nEND:DAYLIGHT\r\n"
                         "BEGIN:STANDARD\r\nTZOFFSETFROM:-0400\r\nTZOFFSETTO:-0500\r\nTZNAME:EST\r\n"
                         "DTSTART:20071104T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU\r\nEND:STANDARD\r\n"
                         "END:VTIMEZONE\r\n"),
    "Asia/Tokyo": ("BEGIN:VTIMEZONE\r\nTZID:Asia/Tokyo\r\n"
                   "BEGIN:STANDARD\r\nTZOFFSETFROM:+0900\r\nTZOFFSETTO:+0900\r\nTZNAME:JST\r\n"
                   "DTSTART:19700101T000000\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"),
    "Australia/Sydney": ("BEGIN:VTIMEZONE\r\nTZID:Australia/Sydney\r\n"
                         "BEGIN:STANDARD\r\nTZOFFSETFROM:+1100\r\nTZOFFSETTO:+1000\r\nTZNAME:AEST\r\n"
                         "DTSTART:19700405T030000\r\nRRULE:FREQ=YEARLY;BYMONTH=4;BYDAY=1SU\r\nEND:STANDARD\r\n"
                         "BEGIN:DAYLIGHT\r\nTZOFFSETFROM:+1000\r\nTZOFFSETTO:+1100\r\nTZNAME:AEDT\r\n"
                         "DTSTART:19701004T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=1SU\r\nEND:DAYLIGHT\r\n"
                         "END:VTIMEZONE\r\n"),
}
WORDS = ("agenda budget review quarterly roadmap café Zürich naïve team launch notes follow-up "
         "design hiring offsite planning retro demo customer contract draft slides").split()
PEOPLE = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra", "Barbara Liskov",
          "Donald Knuth", "Frances Allen", "Ken Thompson", "Margaret Hamilton", "John McCarthy",
          "Radia Perlman", "Leslie Lamport"]


def fold(line):
    """The line folded at 75 octets (RFC 5545 §3.1), never inside a UTF-8 sequence."""
    data = line.encode()
    out, start, limit = [], 0, 75
    while len(data) - start > limit:
        end = start + limit
        while data[end] & 0xC0 == 0x80:
            end -= 1
        out.append(data[start:end])
        start, limit = end, 74
    out.append(data[start:])
    return b"\r\n ".join(out).decode() + "\r\n"


def escape(text):
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def varied_event(i, uid=None):
    """Event i of the varied corpus: its kind drawn from a generator seeded with i.

    A tenth all day, the rest timed in one of four zones (a fifth of those in UTC); a sixth a
    weekly series, a tenth a monthly one, some with an EXDATE; descriptions of 0–600
    characters with newlines, commas and semicolons; a third meetings of one organizer and up
    to six attendees; half with one or two alarms.
    """
    r = random.Random(i)
    uid = uid or f"bench-{i}@calgw.example"
    year, month, day = 2020 + r.randrange(8), 1 + r.randrange(12), 1 + r.randrange(28)
    hour, minute = 7 + r.randrange(12), r.choice((0, 15, 30, 45))
    zone = None
    lines = [f"UID:{uid}", "DTSTAMP:20260101T000000Z", f"CREATED:{year - 1}0601T120000Z",
             f"LAST-MODIFIED:{year - 1}0602T120000Z", f"SEQUENCE:{r.randrange(4)}"]
    kind = r.random()
    if kind < 0.1:
        lines += [f"DTSTART;VALUE=DATE:{year}{month:02d}{day:02d}",
                  f"DTEND;VALUE=DATE:{year}{month:02d}{day + 1:02d}", "TRANSP:TRANSPARENT"]
    elif kind < 0.28:
        lines += [f"DTSTART:{year}{month:02d}{day:02d}T{hour:02d}{minute:02d}00Z", f"DURATION:PT{r.choice((30, 45, 60, 90))}M"]
    else:
        zone = r.choice(list(ZONES))
        lines += [f"DTSTART;TZID={zone}:{year}{month:02d}{day:02d}T{hour:02d}{minute:02d}00",
                  f"DTEND;TZID={zone}:{year}{month:02d}{day:02d}T{hour + 1:02d}{minute:02d}00"]
    series = r.random()
    if series < 1 / 6:
        lines.append(f"RRULE:FREQ=WEEKLY;BYDAY={r.choice(('MO', 'TU', 'WE', 'TH', 'FR'))};COUNT={4 + r.randrange(40)}")
    elif series < 1 / 6 + 0.1:
        lines.append(f"RRULE:FREQ=MONTHLY;BYMONTHDAY={day};UNTIL={year + 1}1231T235959Z")
    if series < 1 / 6 + 0.1 and r.random() < 0.4 and kind >= 0.1:
        skipped = f"{year}{month % 12 + 1:02d}{day:02d}T{hour:02d}{minute:02d}00"
        lines.append(f"EXDATE;TZID={zone}:{skipped}" if zone else f"EXDATE:{skipped}Z")
    lines.append(f"SUMMARY:{escape(' '.join(r.choice(WORDS) for _ in range(2 + r.randrange(5))).capitalize())} {i}")
    if r.random() < 0.5:
        lines.append(f"LOCATION:{escape(f'Room {r.randrange(40)}, building {r.choice(WORDS)}; floor {r.randrange(9)}')}")
    length = r.choice((0, 40, 120, 300, 600))
    if length:
        text = ""
        while len(text) < length:
            text += r.choice(WORDS) + r.choice((" ", " ", " ", ", ", "; ", ".\n", "\\", ": "))
        lines.append(f"DESCRIPTION:{escape(text[:length])}")
    if r.random() < 1 / 3:
        people = r.sample(PEOPLE, 1 + r.randrange(7))
        organizer, attendees = people[0], people[1:]
        address = lambda name: f"mailto:{name.split()[0].lower()}@calgw.example"
        lines.append(f'ORGANIZER;CN="{organizer}":{address(organizer)}')
        for name in attendees or [organizer]:
            partstat = r.choice(("NEEDS-ACTION", "ACCEPTED", "DECLINED", "TENTATIVE"))
            lines.append(f'ATTENDEE;CN="{name}";ROLE=REQ-PARTICIPANT;PARTSTAT={partstat};RSVP=TRUE:{address(name)}')
    alarms = []
    for _ in range(r.choice((0, 0, 1, 2))):
        alarms += ["BEGIN:VALARM", "ACTION:DISPLAY", f"TRIGGER:-PT{r.choice((5, 10, 15, 30, 60))}M",
                   "DESCRIPTION:Reminder", "END:VALARM"]
    body = "".join(fold(line) for line in ["BEGIN:VEVENT"] + lines + alarms + ["END:VEVENT"])
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calgw//bench varied//EN\r\n"
            + (ZONES[zone] if zone else "") + body + "END:VCALENDAR\r\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("user")
    parser.add_argument("password")
    parser.add_argument("count", type=int)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--random-uids", action="store_true")
    parser.add_argument("--varied", action="store_true")
    args = parser.parse_args()
    generator = random.Random(args.start)
    uids = [str(uuid.UUID(int=generator.getrandbits(128), version=4)) for _ in range(args.count)] if args.random_uids else None
    url = urllib.parse.urlsplit(args.url if args.url.endswith("/") else args.url + "/")
    auth = "Basic " + base64.b64encode(f"{args.user}:{args.password}".encode()).decode()
    failures = []
    indices = iter(range(args.start, args.start + args.count))
    lock = threading.Lock()

    def work():
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
        while True:
            with lock:
                i = next(indices, None)
            if i is None:
                break
            uid = uids[i - args.start] if uids else None
            body = (varied_event if args.varied else event)(i, uid).encode()
            conn.request("PUT", f"{url.path}{uid or f'bench-{i}'}.ics", body=body,
                         headers={"Authorization": auth, "Content-Type": "text/calendar; charset=utf-8",
                                  "If-None-Match": "*"})
            response = conn.getresponse()
            response.read()
            if response.status not in (200, 201, 204):
                failures.append((i, response.status))
                if len(failures) > 10:
                    break

    started = time.time()
    threads = [threading.Thread(target=work) for _ in range(args.threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.time() - started
    print(f"filled {args.count} events in {seconds:.1f} s ({args.count / seconds:.0f}/s)", file=sys.stderr)
    if failures:
        print(f"failures: {failures[:10]}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
