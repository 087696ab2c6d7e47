#!/usr/bin/env python3
"""An iCalendar feed server for tests and benchmarks: serves the files of a folder over HTTP
as a subscription's publisher would.

    python3 Scripts/proxies/feed_server.py --root DIR [--no-validators] [--log FILE] [--port 0]

GET /NAME serves DIR/NAME (text/calendar for .ics, text/html for .html, else text/plain),
read again at every request, so a test changes the feed by rewriting the file.

  - Validators (unless --no-validators): ETag is a digest of the file's bytes, Last-Modified
    its mtime; If-None-Match (or, without it, If-Modified-Since) that still holds is answered
    304 with no body. With --no-validators every answer is a full 200 without either header,
    as from a publisher that ignores conditional requests.
  - gzip: a request with Accept-Encoding: gzip gets the body gzip-compressed
    (Content-Encoding: gzip), unless --no-gzip.
  - /redirect/NAME answers 302 with Location /NAME; /redirect-abs/NAME the same with an
    absolute URL.
  - /cut/NAME sends a Content-Length of the whole file, half the bytes, then closes: a
    transfer broken midway. /short/NAME sends the first half of the file as a complete
    response: a body cut short that HTTP cannot tell from a whole one.
  - A missing file is a 404 with an HTML page.

`--upstream` is accepted and ignored (the test proxies' launcher passes it). Prints
PROXY_URL=http://127.0.0.1:PORT/ once listening; with --log, one JSON line per request:
{"method", "path", "status", "ifNoneMatch", "ifModifiedSince", "acceptEncoding", "bytes"},
written before the answer is sent: a client that has its answer finds the line in the log.
"""

import argparse
import email.utils
import gzip
import hashlib
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FeedHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # the JSON log replaces the access log
        pass

    def log(self, status, sent):
        server = self.server
        if not server.log_path:
            return
        entry = {"method": self.command, "path": self.path, "status": status,
                 "ifNoneMatch": self.headers.get("If-None-Match"),
                 "ifModifiedSince": self.headers.get("If-Modified-Since"),
                 "acceptEncoding": self.headers.get("Accept-Encoding"), "bytes": sent}
        with server.log_lock, open(server.log_path, "a") as log:
            log.write(json.dumps(entry) + "\n")

    def simple(self, status, headers=(), body=b""):
        self.log(status, len(body))
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        for prefix, absolute in (("/redirect/", False), ("/redirect-abs/", True)):
            if path.startswith(prefix):
                target = "/" + path[len(prefix):]
                if absolute:
                    target = f"http://127.0.0.1:{self.server.server_address[1]}{target}"
                self.simple(302, [("Location", target)], b"moved\n")
                return
        mode = None
        for prefix in ("/cut/", "/short/"):
            if path.startswith(prefix):
                mode = prefix.strip("/")
                path = "/" + path[len(prefix):]
        name = os.path.normpath(path.lstrip("/"))
        file = os.path.join(self.server.root, name)
        if name.startswith("..") or not os.path.isfile(file):
            self.simple(404, [("Content-Type", "text/html")], b"<!DOCTYPE html><html><body>Not Found</body></html>\n")
            return
        with open(file, "rb") as f:
            body = f.read()
        mtime = os.stat(file).st_mtime
        content_type = ("text/calendar; charset=utf-8" if name.endswith(".ics")
                        else "text/html; charset=utf-8" if name.endswith(".html") else "text/plain")
        headers = [("Content-Type", content_type)]
        if self.server.validators:
            etag = '"' + hashlib.sha256(body).hexdigest()[:24] + '"'
            last_modified = email.utils.formatdate(mtime, usegmt=True)
            headers += [("ETag", etag), ("Last-Modified", last_modified)]
            inm = self.headers.get("If-None-Match")
            ims = self.headers.get("If-Modified-Since")
            fresh = False
            if inm is not None:
                fresh = etag in [t.strip() for t in inm.split(",")] or inm.strip() == "*"
            elif ims is not None:
                try:
                    fresh = int(mtime) <= email.utils.parsedate_to_datetime(ims).timestamp()
                except (TypeError, ValueError):
                    fresh = False
            if fresh:
                self.log(304, 0)
                self.send_response(304)
                for h in headers[1:]:
                    self.send_header(*h)
                self.end_headers()
                return
        if mode == "short":
            body = body[: len(body) // 2]
        if self.server.gzip and "gzip" in (self.headers.get("Accept-Encoding") or ""):
            body = gzip.compress(body, compresslevel=6)
            headers.append(("Content-Encoding", "gzip"))
        self.log(200, 0 if self.command == "HEAD" else len(body) // 2 if mode == "cut" else len(body))
        self.send_response(200)
        for h in headers:
            self.send_header(*h)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command == "HEAD":
            return
        if mode == "cut":
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.wfile.write(body)


def main():
    parser = argparse.ArgumentParser(description="serves a folder of .ics feeds")
    parser.add_argument("--root", required=True)
    parser.add_argument("--no-validators", action="store_true")
    parser.add_argument("--no-gzip", action="store_true")
    parser.add_argument("--log")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--upstream")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), FeedHandler)
    server.daemon_threads = True
    server.root = os.path.abspath(args.root)
    server.validators = not args.no_validators
    server.gzip = not args.no_gzip
    server.log_path = args.log
    server.log_lock = threading.Lock()
    print(f"PROXY_URL=http://127.0.0.1:{server.server_address[1]}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == "__main__":
    main()
