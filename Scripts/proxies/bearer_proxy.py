#!/usr/bin/env python3
"""A bearer-token gate for tests: takes `Authorization: Bearer TOKEN` issued by the test
authorization server (Scripts/oauth/server), checks it at the server's introspection endpoint
(RFC 7662), and forwards valid requests to a CalDAV server with Basic credentials (or, with
--upstream-bearer, to the Graph fake with its own token, keeping the client's Host so that the
links the fake writes lead back through the gate).

    python3 Scripts/proxies/bearer_proxy.py --upstream http://127.0.0.1:5232/ \\
        --introspection-endpoint URL --client-id ID --client-secret SECRET \\
        (--upstream-user calgw --upstream-password SECRET | --upstream-bearer TOKEN) \\
        [--scope calendar]... [--user alice] [--cache-seconds 5] [--port 0] [--log FILE]

Prints PROXY_URL=http://127.0.0.1:PORT/ once listening. Answers (RFC 6750 section 3):
- no bearer token: 401, `WWW-Authenticate: Bearer realm="calgw-caldav"`;
- a token the server calls inactive (unknown, expired, revoked): 401 with error="invalid_token";
- an active token without any --scope (default: calendar or Google's calendar scope), or of
  another user than --user: 403 with error="insufficient_scope";
- the introspection endpoint unreachable: 503.
An answer of the introspection endpoint is kept --cache-seconds (never past the token's
expiry): a revoked token may pass that long; 0 asks every time. Bodies are streamed both ways,
every method is forwarded (PROPFIND, REPORT, ...). Tokens are never logged.
"""

import base64
import hashlib
import http.client
import json
import threading
import time
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler

import proxylib

REALM = "calgw-caldav"
CHUNK = 64 * 1024
DEFAULT_SCOPES = ["calendar", "https://www.googleapis.com/auth/calendar"]


class Introspection:
    """Asks the authorization server about tokens, with a short cache keyed by the token's hash."""

    def __init__(self, config):
        self.config = config
        self.cache = {}
        self.lock = threading.Lock()

    def check(self, token):
        """The introspection answer for `token` (a dict with "active"), or None if unreachable."""
        key = hashlib.sha256(token.encode()).hexdigest()
        now = time.time()
        with self.lock:
            hit = self.cache.get(key)
            if hit and hit[0] > now:
                return hit[1]
        pair = f"{self.config.client_id}:{self.config.client_secret}".encode()
        request = urllib.request.Request(
            self.config.introspection_endpoint, data=urllib.parse.urlencode({"token": token}).encode(),
            headers={"Authorization": "Basic " + base64.b64encode(pair).decode()})
        try:
            with urllib.request.urlopen(request, timeout=10) as r:
                answer = json.loads(r.read())
        except (OSError, ValueError):
            return None
        until = now + self.config.cache_seconds
        if answer.get("active") and "exp" in answer:
            until = min(until, answer["exp"])
        with self.lock:
            self.cache[key] = (until, answer)
        return answer


class BearerHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "calgw-bearer-gate"

    def __getattr__(self, name):
        if name.startswith("do_"):  # every method
            return self.handle_one
        raise AttributeError(name)

    def log_message(self, format, *args):  # the JSON log replaces the stderr access log
        pass

    def handle_one(self):
        self.entry = {"n": self.server.log.next_number(), "method": self.command, "path": self.path}
        try:
            verdict, user = self.check()
            self.entry.update(auth=verdict, user=user)
            if verdict == "ok":
                self.forward()
            else:
                self.refuse(verdict)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        finally:
            self.server.log.write(self.entry)

    def check(self):
        scheme, _, token = self.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return "missing", None
        answer = self.server.introspection.check(token.strip())
        if answer is None:
            return "unreachable", None
        if not answer.get("active"):
            return "invalid", None
        user, scopes, config = answer.get("username"), set(answer.get("scope", "").split()), self.server.config
        if not scopes & set(config.scope or DEFAULT_SCOPES) or (config.user and user != config.user):
            return "insufficient", user
        return "ok", user

    def refuse(self, verdict):
        self.drain_body()
        status, challenge = {
            "missing": (401, f'Bearer realm="{REALM}"'),
            "invalid": (401, f'Bearer realm="{REALM}", error="invalid_token"'),
            "insufficient": (403, f'Bearer realm="{REALM}", error="insufficient_scope", '
                                  f'scope="{" ".join(self.server.config.scope or DEFAULT_SCOPES[:1])}"'),
            "unreachable": (503, None),
        }[verdict]
        body = f"{verdict}\n".encode()
        self.entry["status"] = status
        self.send_response(status)
        if challenge:
            self.send_header("WWW-Authenticate", challenge)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    # -- forwarding, streamed --------------------------------------------------------------

    def body_length(self):
        return int(self.headers.get("Content-Length") or 0)

    def is_chunked(self):
        return "chunked" in self.headers.get("Transfer-Encoding", "").lower()

    def drain_body(self):
        """Reads a refused request's body so the connection can serve the next request."""
        if self.is_chunked() or self.body_length() > 16 * 1024 * 1024:
            self.close_connection = True
            return
        remaining = self.body_length()
        while remaining > 0:
            data = self.rfile.read(min(CHUNK, remaining))
            if not data:
                break
            remaining -= len(data)

    def read_chunked(self):
        chunks = []
        while True:
            size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
            if size == 0:
                while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                    pass
                return b"".join(chunks)
            chunks.append(self.rfile.read(size))
            self.rfile.readline()

    def forward(self):
        upstream, config = self.server.upstream, self.server.config
        conn = upstream.connect(timeout=120)
        try:
            conn.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
            for key, value in self.headers.items():
                if key.lower() not in proxylib.HOP_BY_HOP | {"host", "authorization", "content-length"}:
                    conn.putheader(key, value)
            if config.upstream_bearer:
                conn.putheader("Host", self.headers.get("Host", f"{upstream.host}:{upstream.port}"))
                conn.putheader("Authorization", "Bearer " + config.upstream_bearer)
            else:
                conn.putheader("Host", f"{upstream.host}:{upstream.port}")
                pair = f"{config.upstream_user}:{config.upstream_password}".encode()
                conn.putheader("Authorization", "Basic " + base64.b64encode(pair).decode())
            # A chunked request body is gathered first (the CalDAV servers want a length);
            # a body with a length is streamed as it arrives.
            body = self.read_chunked() if self.is_chunked() else None
            length = len(body) if body is not None else self.body_length()
            if length or self.command in ("PUT", "POST", "PROPFIND", "REPORT", "PROPPATCH", "MKCALENDAR", "MKCOL"):
                conn.putheader("Content-Length", str(length))
            conn.endheaders()
            if body is not None:
                conn.send(body)
            else:
                remaining = length
                while remaining > 0:
                    data = self.rfile.read(min(CHUNK, remaining))
                    if not data:
                        raise ConnectionResetError("the client's body ended early")
                    conn.send(data)
                    remaining -= len(data)
            reply = conn.getresponse()
            proxylib.relay(self, reply)
        except (OSError, http.client.HTTPException) as error:
            # The upstream failed: 502 if nothing was sent yet, else the connection is cut.
            self.entry["error"] = str(error)
            self.close_connection = True
            if "status" not in self.entry:
                self.entry["status"] = 502
                self.send_response(502)
                self.send_header("Content-Length", "0")
                self.end_headers()
        finally:
            conn.close()


def main():
    parser = proxylib.common_arguments(__doc__.splitlines()[0])
    parser.add_argument("--introspection-endpoint", required=True)
    parser.add_argument("--client-id", required=True, help="the gate's client at the authorization server")
    parser.add_argument("--client-secret", required=True)
    parser.add_argument("--upstream-user", help="Basic credentials sent upstream")
    parser.add_argument("--upstream-password")
    parser.add_argument("--upstream-bearer", help="a bearer token sent upstream instead (the Graph fake's)")
    parser.add_argument("--scope", action="append", help="a scope that grants access (repeatable)")
    parser.add_argument("--user", help="accept only tokens of this user")
    parser.add_argument("--cache-seconds", type=float, default=5)
    config = parser.parse_args()
    if not config.upstream_bearer and (config.upstream_user is None or config.upstream_password is None):
        parser.error("give --upstream-user and --upstream-password, or --upstream-bearer")
    server = proxylib.ProxyServer(("127.0.0.1", config.port), BearerHandler,
                                  proxylib.Upstream(config.upstream), config.log)
    server.config = config
    server.introspection = Introspection(config)
    proxylib.serve(server)


if __name__ == "__main__":
    main()
