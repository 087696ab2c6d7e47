"""Shared parts of the test proxies: a threaded HTTP server that forwards every method, with
its body and headers, to one upstream server, and a JSON-lines request log.

Each proxy subclasses `ForwardingHandler` and overrides `handle_request` (decide what to do
with one request) or the `upstream_headers` / `rewrite_response` hooks. `forward` reads the
upstream's answer whole, for a proxy that changes it; `stream` (and `relay`, for a handler of
its own) passes it on as it arrives. Paths are forwarded
unchanged, so hrefs in bodies stay valid; only a Location header that points at the upstream
is rewritten to point at the proxy.
"""

import argparse
import http.client
import json
import socket
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# Headers that describe one connection, never forwarded (RFC 9110 section 7.6.1).
HOP_BY_HOP = {
    "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection",
    "te", "trailer", "transfer-encoding", "upgrade",
}

# Request headers logged (under "headers") when present: what a write is conditioned on, and
# what it asks of a server that schedules meetings.
CONDITION_HEADERS = ("If-Match", "If-None-Match", "If-Schedule-Tag-Match", "Scheduling-Enabled", "Schedule-Reply")


class Upstream:
    """Where requests go: scheme, host and port of a URL (its path is not used)."""

    def __init__(self, url):
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise SystemExit(f"--upstream must be an http(s) URL, got {url!r}")
        self.scheme = parts.scheme
        self.host = parts.hostname
        self.port = parts.port or (443 if parts.scheme == "https" else 80)
        self.base = f"{self.scheme}://{parts.netloc}"

    def connect(self, timeout=60):
        if self.scheme == "https":
            import ssl
            return http.client.HTTPSConnection(self.host, self.port, timeout=timeout,
                                               context=ssl._create_unverified_context())
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout)


class RequestLog:
    """One JSON object per line, flushed at once so a test can read it while the proxy runs."""

    def __init__(self, path):
        self._file = open(path, "a", encoding="utf-8") if path else None
        self._lock = threading.Lock()
        self._count = 0

    def next_number(self):
        with self._lock:
            self._count += 1
            return self._count

    def write(self, entry):
        if self._file is None:
            return
        with self._lock:
            self._file.write(json.dumps(entry, sort_keys=True) + "\n")
            self._file.flush()


class Response:
    """A response read in full from the upstream (or made by the proxy)."""

    def __init__(self, status, reason, headers, body):
        self.status = status
        self.reason = reason
        self.headers = headers  # list of (name, value), hop-by-hop removed
        self.body = body

    def header(self, name):
        for key, value in self.headers:
            if key.lower() == name.lower():
                return value
        return None

    def set_header(self, name, value):
        self.headers = [(k, v) for k, v in self.headers if k.lower() != name.lower()]
        if value is not None:
            self.headers.append((name, value))


class ForwardingHandler(BaseHTTPRequestHandler):
    """Forwards any method to `server.upstream`; subclasses decide per request."""

    protocol_version = "HTTP/1.1"
    server_version = "calgw-test-proxy"

    def __getattr__(self, name):
        # BaseHTTPRequestHandler dispatches to do_<METHOD>: accept every method.
        if name.startswith("do_"):
            return self._dispatch
        raise AttributeError(name)

    def log_message(self, format, *args):  # the JSON log replaces the stderr access log
        pass

    # -- request side -------------------------------------------------------------------

    def read_body(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            return b"".join(chunks)
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _dispatch(self):
        self.body = self.read_body()
        self.entry = {
            "n": self.server.log.next_number(),
            "method": self.command,
            "path": self.path,
            "authorization": self.headers.get("Authorization", "").split(" ")[0] or None,
        }
        # The request's conditions and scheduling switches, for tests that check what was asked.
        asked = {name: self.headers[name] for name in CONDITION_HEADERS if self.headers.get(name) is not None}
        if asked:
            self.entry["headers"] = asked
        self._logged = False
        try:
            self.handle_request()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        finally:
            self.commit_log()

    def commit_log(self):
        """Writes this request's log line (once), before the client can see the outcome, so a
        test that reads the log after its request finds the line there."""
        if not self._logged:
            self._logged = True
            self.server.log.write(self.entry)

    def handle_request(self):
        """Default: forward as is."""
        self.send(self.forward())

    def upstream_headers(self):
        """Headers sent upstream: the client's, minus hop-by-hop ones, with the upstream's Host."""
        headers = [(k, v) for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP and k.lower() != "host"]
        headers.append(("Host", f"{self.server.upstream.host}:{self.server.upstream.port}"))
        return headers

    def forward(self):
        """Sends this request upstream and reads the whole response."""
        upstream = self.server.upstream
        headers = [(k, v) for k, v in self.upstream_headers() if k.lower() != "content-length"]
        if self.body or self.command in ("PUT", "POST", "PROPFIND", "REPORT", "PROPPATCH", "MKCALENDAR", "MKCOL"):
            headers.append(("Content-Length", str(len(self.body))))
        for attempt in range(2):
            conn = self._upstream_connection()
            try:
                conn.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
                for key, value in headers:
                    conn.putheader(key, value)
                conn.endheaders(self.body or None)
                reply = conn.getresponse()
                body = reply.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # A kept-alive upstream connection that the server closed: retry once, fresh.
                self._drop_upstream_connection()
                if attempt == 1:
                    raise
        if reply.will_close:
            self._drop_upstream_connection()
        response = Response(reply.status, reply.reason,
                            [(k, v) for k, v in reply.getheaders() if k.lower() not in HOP_BY_HOP],
                            body)
        location = response.header("Location")
        if location and location.startswith(upstream.base):
            response.set_header("Location", self.server.public_base + location[len(upstream.base):])
        return self.rewrite_response(response)

    def stream(self):
        """Forwards this request and relays the answer as it arrives (`relay`), for a proxy
        that leaves the answer as it is; a fresh upstream connection each time."""
        conn = self.server.upstream.connect(timeout=120)
        try:
            conn.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
            for key, value in self.upstream_headers():
                if key.lower() != "content-length":
                    conn.putheader(key, value)
            if self.body or self.command in ("PUT", "POST", "PROPFIND", "REPORT", "PROPPATCH"):
                conn.putheader("Content-Length", str(len(self.body)))
            conn.endheaders(self.body or None)
            relay(self, conn.getresponse())
        except (OSError, http.client.HTTPException) as error:
            # The upstream failed: 502 if nothing was sent yet, else the connection is cut.
            self.entry["error"] = str(error)
            self.close_connection = True
            if "status" not in self.entry:
                self.send_simple(502, (), b"upstream failed\n")
        finally:
            conn.close()

    def rewrite_response(self, response):
        """Hook: change a forwarded response before it is sent."""
        return response

    def _upstream_connection(self):
        local = self.server.local
        if getattr(local, "conn", None) is None:
            local.conn = self.server.upstream.connect()
        return local.conn

    def _drop_upstream_connection(self):
        conn = getattr(self.server.local, "conn", None)
        if conn is not None:
            conn.close()
        self.server.local.conn = None

    # -- response side ------------------------------------------------------------------

    def send(self, response, body=None):
        """Sends `response` (its body, or `body` when given) with a correct Content-Length."""
        payload = response.body if body is None else body
        self.entry["status"] = response.status
        self.commit_log()
        self.send_response(response.status, response.reason)
        for key, value in response.headers:
            if key.lower() not in ("content-length", "date", "server"):
                self.send_header(key, value)
        if self.command != "HEAD" or payload:
            self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(payload)
        self.wfile.flush()

    def send_simple(self, status, headers=(), body=b""):
        """Sends a response made by the proxy itself."""
        self.send(Response(status, None, list(headers) + [("Content-Type", "text/plain; charset=utf-8")], body))


class ProxyServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address, handler, upstream, log_path, scheme="http"):
        super().__init__(address, handler)
        self.upstream = upstream
        self.log = RequestLog(log_path)
        self.local = threading.local()
        self.scheme = scheme
        self.public_base = f"{scheme}://127.0.0.1:{self.server_address[1]}"


def common_arguments(description):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--upstream", required=True, help="the server to forward to, e.g. http://127.0.0.1:5232/")
    parser.add_argument("--port", type=int, default=0, help="port to listen on (0: a free one)")
    parser.add_argument("--log", help="append one JSON line per request to this file")
    return parser


def serve(server, extra_values=()):
    """Prints the KEY=VALUE lines (PROXY_URL last) and serves until killed."""
    for key, value in extra_values:
        print(f"{key}={value}")
    print(f"PROXY_URL={server.public_base}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


def relay(handler, reply, chunk=64 * 1024):
    """Sends an upstream's answer (an http.client response) on as it arrives: with its length
    when it had one, chunked otherwise; a Location on the upstream points at the proxy. The
    handler's log entry gets the status (and is written first when the handler logs so)."""
    handler.entry["status"] = reply.status
    if hasattr(handler, "commit_log"):
        handler.commit_log()
    handler.send_response(reply.status, reply.reason)
    length = reply.getheader("Content-Length")
    upstream = handler.server.upstream
    for key, value in reply.getheaders():
        if key.lower() in HOP_BY_HOP | {"content-length", "date", "server"}:
            continue
        if key.lower() == "location" and value.startswith(upstream.base):
            value = handler.server.public_base + value[len(upstream.base):]
        handler.send_header(key, value)
    bodiless = handler.command == "HEAD" or reply.status in (204, 304) or 100 <= reply.status < 200
    chunked = length is None and not bodiless
    if length is not None:
        handler.send_header("Content-Length", length)
    elif chunked:
        handler.send_header("Transfer-Encoding", "chunked")
    handler.end_headers()
    if bodiless:
        return
    while True:
        data = reply.read1(chunk) if hasattr(reply, "read1") else reply.read(chunk)
        if not data:
            break
        handler.wfile.write(b"%x\r\n%s\r\n" % (len(data), data) if chunked else data)
    if chunked:
        handler.wfile.write(b"0\r\n\r\n")
    handler.wfile.flush()


def abort_connection(handler):
    """Closes the client connection with a TCP reset (SO_LINGER 0)."""
    import struct
    handler.commit_log()
    sock = handler.connection
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    handler.close_connection = True
    try:
        sock.close()
    except OSError:
        pass


def fail(message):
    print(message, file=sys.stderr)
    raise SystemExit(2)
