#!/usr/bin/env python3
"""Fills a CalDAV collection with N generated events by PUT, on a few kept-alive connections.

    fill_caldav.py URL USER PASSWORD COUNT [--start K] [--threads 4] [--random-uids]

Events are bench-K@calgw.example … bench-(K+COUNT-1)@calgw.example, one per resource, the
same shape as Scripts/bench/pull writes into Radicale's storage. With --random-uids each event's
UID and resource name is a version-4 UUID instead (drawn from a generator seeded with K, so a
fill is reproducible), as most clients make them: the journal's indexes then grow in random
order. Prints the rate at the end.
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("user")
    parser.add_argument("password")
    parser.add_argument("count", type=int)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--random-uids", action="store_true")
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
            body = event(i, uid).encode()
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
