#!/usr/bin/env python3
"""What a server takes to hand over a whole collection, asked two ways a first pull can ask:

  query  one calendar-query carrying every item's data (calgw's first pull), and
  pages  the listing (PROPFIND Depth 1, getetag) and then calendar-multigets of 100 hrefs,
         four at a time (calgw's first pull in pages).

    first_pull_pages.py URL USER PASSWORD [--rounds 3] [--pid PID]

Prints the best of --rounds for each way, in seconds, with the bytes received; with --pid,
also the server process's peak RSS (VmHWM) after each way, which shows a server that builds
its answer whole.
"""
import argparse
import base64
import concurrent.futures
import http.client
import re
import time
import urllib.parse

QUERY = ('<c:calendar-query xmlns="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><prop><getetag/><c:calendar-data/></prop>'
         '<c:filter><c:comp-filter name="VCALENDAR"/></c:filter></c:calendar-query>')
LISTING = '<propfind xmlns="DAV:"><prop><getetag/><resourcetype/></prop></propfind>'


def multiget(hrefs):
    body = "".join(f"<href>{h}</href>" for h in hrefs)
    return ('<c:calendar-multiget xmlns="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><prop><getetag/><c:calendar-data/></prop>'
            f'{body}</c:calendar-multiget>')


class Client:
    def __init__(self, url, user, password):
        self.url = urllib.parse.urlsplit(url if url.endswith("/") else url + "/")
        self.auth = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()

    def request(self, method, body, depth="1"):
        connection = http.client.HTTPConnection(self.url.hostname, self.url.port, timeout=600)
        connection.request(method, self.url.path, body=body.encode(),
                           headers={"Authorization": self.auth, "Depth": depth, "Content-Type": "application/xml"})
        response = connection.getresponse()
        data = response.read()
        connection.close()
        if response.status != 207:
            raise SystemExit(f"{method} answered {response.status}")
        return data


def query(client):
    return len(client.request("REPORT", QUERY))


def pages(client):
    listing = client.request("PROPFIND", LISTING).decode()
    hrefs = [h for h in re.findall(r"<(?:\w+:)?href>([^<]+)</(?:\w+:)?href>", listing) if h.rstrip("/") != client.url.path.rstrip("/")]
    batches = [hrefs[i:i + 100] for i in range(0, len(hrefs), 100)]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        sizes = list(pool.map(lambda b: len(client.request("REPORT", multiget(b))), batches))
    return len(listing) + sum(sizes)


def peak_rss(pid):
    if not pid:
        return ""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return f"\tpeak RSS {int(line.split()[1]) // 1024} MB"
    return ""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("user")
    parser.add_argument("password")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pid", type=int, default=0)
    args = parser.parse_args()
    client = Client(args.url, args.user, args.password)
    for name, way in (("pages", pages), ("query", query)):
        best, received = None, 0
        for _ in range(args.rounds):
            start = time.monotonic()
            received = way(client)
            took = time.monotonic() - start
            best = took if best is None else min(best, took)
        print(f"{name}\t{best:.3f} s\t{received} bytes{peak_rss(args.pid)}", flush=True)


if __name__ == "__main__":
    main()
