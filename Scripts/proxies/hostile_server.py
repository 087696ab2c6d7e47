#!/usr/bin/env python3
"""A hostile CalDAV server for tests: a calendar collection at /cal/ whose PROPFIND and REPORT
answers are canned, some of them malicious.

    python3 Scripts/proxies/hostile_server.py --scenario-file FILE [--log FILE] [--port 0]

The scenario is read from FILE (one word) at every request, so a test can turn a hostile
server sane between two runs of `calgw sync`. Scenarios:

  sane            one event, /cal/good.ics
  dotdot          good.ics and /cal/../escape.ics
  encoded-dotdot  good.ics and /cal/%2e%2e/%2e%2e/escape.ics
  encoded-slash   good.ics and /cal/..%2F..%2Fescape.ics
  other-host      good.ics and http://evil.example/cal/escape.ics
  nul             good.ics and /cal/esc%00ape.ics
  nul-raw         good.ics and /cal/esc<NUL>ape.ics, a NUL byte in the XML itself
  long-name       good.ics and /cal/ + 10,000 characters + .ics
  xxe             a multistatus with a DTD declaring an external entity (file:///etc/passwd)
  bomb            a multistatus with an entity-expansion bomb, its DTD after 8 KB of comment
  big             a 300 KB multistatus (for a small max_response_size)
  bad-encoding    a multistatus declared Shift_JIS holding bytes that are not Shift_JIS

Only the bodies of PROPFIND Depth 1 (the listing) are hostile; PROPFIND Depth 0 describes the
collection (no sync-token, so clients list with PROPFIND), REPORT calendar-multiget returns the
events asked for that exist, PUT and DELETE succeed. An item is stored per scenario, so what a
client writes to a hostile server is not seen by a sane one. `--upstream` is accepted and
ignored (the test proxies' launcher passes it). Prints PROXY_URL=http://127.0.0.1:PORT/ once
listening; with --log, one JSON line per request.
"""

import argparse
import json
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CAL = "/cal/"


def event(uid, summary):
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calgw//hostile//EN\r\nBEGIN:VEVENT\r\n"
            f"UID:{uid}\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260310T100000Z\r\n"
            f"DTEND:20260310T110000Z\r\nSUMMARY:{summary}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")


GOOD = {"/cal/good.ics": ('"good-1"', event("good-1", "Good"))}

HOSTILE_HREFS = {
    "dotdot": "/cal/../escape.ics",
    "encoded-dotdot": "/cal/%2e%2e/%2e%2e/escape.ics",
    "encoded-slash": "/cal/..%2F..%2Fescape.ics",
    "other-host": "http://evil.example/cal/escape.ics",
    "nul": "/cal/esc%00ape.ics",
    "nul-raw": "/cal/esc\x00ape.ics",
    "long-name": "/cal/" + "n" * 10000 + ".ics",
}


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def response(href, etag):
    return (f"<d:response><d:href>{escape(href)}</d:href><d:propstat><d:prop>"
            f"<d:resourcetype/><d:getetag>{escape(etag)}</d:getetag></d:prop>"
            "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>")


def collection(scenario):
    # The ctag names the scenario, so a client lists again whenever the scenario changes.
    return ("<d:response><d:href>/cal/</d:href><d:propstat><d:prop>"
            "<d:resourcetype><d:collection/><c:calendar/></d:resourcetype>"
            f"<d:displayname>Hostile</d:displayname><cs:getctag>ctag-{scenario}</cs:getctag>"
            "<c:supported-calendar-component-set><c:comp name=\"VEVENT\"/></c:supported-calendar-component-set>"
            "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>")

OPEN = ('<?xml version="1.0" encoding="utf-8"?>\n'
        '<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" '
        'xmlns:cs="http://calendarserver.org/ns/">')
CLOSE = "</d:multistatus>"


def listing(scenario, items):
    members = "".join(response(href, etag) for href, (etag, _) in items.items())
    if scenario in HOSTILE_HREFS:
        return OPEN + collection(scenario) + members + response(HOSTILE_HREFS[scenario], '"evil-1"') + CLOSE
    if scenario == "xxe":
        return ('<?xml version="1.0"?>\n<!DOCTYPE d:multistatus [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>\n'
                + OPEN[OPEN.index("<d:multistatus"):] + collection(scenario)
                + "<d:response><d:href>/cal/&xxe;.ics</d:href><d:propstat><d:prop><d:getetag>&xxe;</d:getetag>"
                  "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>" + CLOSE)
    if scenario == "bomb":
        entities = ['<!ENTITY l0 "lol">'] + [f'<!ENTITY l{i} "{("&l%d;" % (i - 1)) * 10}">' for i in range(1, 10)]
        return ('<?xml version="1.0"?>\n<!--' + " " * 8192 + '-->\n<!DOCTYPE d:multistatus [ '
                + " ".join(entities) + ' ]>\n' + OPEN[OPEN.index("<d:multistatus"):] + collection(scenario)
                + "<d:response><d:href>/cal/bomb.ics</d:href><d:propstat><d:prop><d:getetag>&l9;</d:getetag>"
                  "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>" + CLOSE)
    if scenario == "bad-encoding":
        body = OPEN.replace('encoding="utf-8"', 'encoding="Shift_JIS"') + collection(scenario) + members + CLOSE
        return body.encode().replace(b"</d:multistatus>", response("/cal/x.ics", '"x"').encode().replace(b"x.ics", b"\x80\xff\xfe.ics") + b"</d:multistatus>")
    if scenario == "big":
        padding = "".join(response(f"/cal/filler-{i}.ics", f'"f{i}"') for i in range(2500))
        return OPEN + collection(scenario) + members + padding + CLOSE
    return OPEN + collection(scenario) + members + CLOSE


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def scenario(self):
        with open(self.server.scenario_file) as f:
            return f.read().strip() or "sane"

    def items(self, scenario):
        with self.server.lock:
            return self.server.stores.setdefault(scenario, dict(GOOD))

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def reply(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def multistatus(self, text):
        body = text if isinstance(text, bytes) else text.encode()
        self.reply(207, body, [("Content-Type", "application/xml; charset=utf-8")])

    def handle_one(self):
        scenario = self.scenario()
        request = self.body()
        items = self.items(scenario)
        path = self.path.split("?", 1)[0]
        entry = {"method": self.command, "path": path[:200], "scenario": scenario}
        if self.server.log:
            with self.server.lock, open(self.server.log, "a") as f:
                f.write(json.dumps(entry) + "\n")
        if self.command == "OPTIONS":
            return self.reply(200, headers=[("DAV", "1, 2, 3, calendar-access")])
        if self.command == "PROPFIND":
            if path.rstrip("/") + "/" != CAL:
                return self.reply(404)
            if self.headers.get("Depth", "0") == "0":
                return self.multistatus(OPEN + collection(scenario) + CLOSE)
            return self.multistatus(listing(scenario, items))
        if self.command == "REPORT":
            wanted = re.findall(rb"<d:href>([^<]*)</d:href>", request)
            if not wanted and b"calendar-query" in request:
                # Everything with its data (a first pull), or the scenario's hostile answer.
                if scenario != "sane":
                    return self.multistatus(listing(scenario, items))
                wanted = [href.encode() for href in items]
            parts = []
            for raw in wanted:
                href = raw.decode()
                if href in items:
                    etag, data = items[href]
                    parts.append(f"<d:response><d:href>{escape(href)}</d:href><d:propstat><d:prop>"
                                 f"<d:getetag>{escape(etag)}</d:getetag><c:calendar-data>{escape(data)}</c:calendar-data>"
                                 "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>")
                else:
                    parts.append(f"<d:response><d:href>{escape(href)}</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>")
            return self.multistatus(OPEN + "".join(parts) + CLOSE)
        if self.command == "GET":
            if path in items:
                etag, data = items[path]
                return self.reply(200, data.encode(), [("ETag", etag), ("Content-Type", "text/calendar")])
            return self.reply(404)
        if self.command == "PUT":
            with self.server.lock:
                self.server.counter += 1
                etag = f'"put-{self.server.counter}"'
                items[path] = (etag, request.decode("utf-8", "replace"))
            return self.reply(201, headers=[("ETag", etag)])
        if self.command == "DELETE":
            with self.server.lock:
                items.pop(path, None)
            return self.reply(204)
        return self.reply(405)

    do_OPTIONS = do_PROPFIND = do_REPORT = do_GET = do_PUT = do_DELETE = handle_one


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenario-file", required=True)
    parser.add_argument("--log")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--upstream", help="ignored")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.scenario_file = args.scenario_file
    server.log = args.log
    server.lock = threading.Lock()
    server.stores = {}
    server.counter = 0
    print(f"PROXY_URL=http://127.0.0.1:{server.server_address[1]}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()
