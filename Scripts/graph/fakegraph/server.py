"""The HTTP side of the fake: bearer check, concurrency limit, injected faults, `$batch`, the
control API under /_fake/, and a JSON-lines request log.

    python3 -m fakegraph.server --port 0 --token TOKEN [--state DIR]

Prints CALGW_GRAPH_URL=http://127.0.0.1:PORT/v1.0 and CALGW_GRAPH_TOKEN=TOKEN once listening
(loopback only). Graph's error envelope carries innerError date, request-id and
client-request-id (docs: concepts/errors.md); every answer has request-id and
client-request-id headers.
"""

import argparse
import datetime as dt
import json
import os
import signal
import sys
import threading
import time
import urllib.parse
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from . import api, control, delta, faults, mailbox
from .errors import GraphError, bad_request

JSON_TYPE = "application/json;odata.metadata=minimal;odata.streaming=true;IEEE754Compatible=false;charset=utf-8"
WWW_AUTHENTICATE = ('Bearer realm="", authorization_uri="https://login.microsoftonline.com/common/oauth2/authorize", '
                    'client_id="00000003-0000-0000-c000-000000000000"')
MAX_BATCH = 20


class Fake:
    """Everything one running fake holds; `reset` starts over with an empty mailbox."""

    def __init__(self, token, state_dir=None):
        self.token = token
        self.state_dir = state_dir
        self.faults = faults.Faults()
        self.settings = {"maxConcurrent": 4, "delayMs": 0, "honoursIfMatch": 1, "commitStamp": 1}
        self.in_flight = 0
        self.flight_lock = threading.Lock()
        self.log_lock = threading.Lock()
        self.requests = []
        self.reset()

    def reset(self):
        self.mailbox = mailbox.Mailbox()
        self.delta = delta.DeltaService(self.mailbox)
        self.api = api.Api(self.mailbox, self.delta)

    def log(self, entry):
        with self.log_lock:
            self.requests.append(entry)
            if self.state_dir:
                with open(os.path.join(self.state_dir, "requests.jsonl"), "a", encoding="utf-8") as f:
                    f.write(json.dumps(entry, sort_keys=True) + "\n")

    def enter(self):
        with self.flight_lock:
            self.in_flight += 1
            return self.in_flight <= self.settings["maxConcurrent"]

    def leave(self):
        with self.flight_lock:
            self.in_flight -= 1

    def handle_graph(self, req):
        """One Graph request, after authentication: faults, then the route (or $batch)."""
        req.repeat_page = lambda: self.faults.take("repeatPage", req.method, req.path) is not None
        req.endless_page = lambda: self.faults.take("endlessPages", req.method, req.path)
        req.calendar_id_changes = lambda: self.faults.take("calendarIdChanges", req.method, req.path) is not None
        req.honours_if_match = bool(self.settings.get("honoursIfMatch", 1))
        req.commit_stamp = bool(self.settings.get("commitStamp", 1))
        edit = self.faults.take("editFirst", req.method, req.path)
        edited = edit and (edit.get("id") or (req.path.split("/events/", 1)[1].split("/")[0].split("?")[0]
                                                if "/events/" in req.path else None))
        if edited and not edit.get("after"):
            self.mailbox.patch(urllib.parse.unquote(edited), edit.get("body") or {})
        if edited and edit.get("after"):
            # Another client's edit lands just after this request was answered.
            answer = self._answer(req)
            self.mailbox.patch(urllib.parse.unquote(edited), edit.get("body") or {})
            return answer
        return self._answer(req)

    def _answer(self, req):
        """`req` answered, after the status faults and expired tokens that apply to it."""
        rule = self.faults.take("status", req.method, req.path)
        if rule:
            status, code, message, headers = faults.error_for(rule)
            if rule.get("after"):
                self.route(req)  # done, and its answer lost
            raise GraphError(status, code, message, headers)
        if "delta" in req.path and ("$deltatoken" in req.params or "$skiptoken" in req.params) \
                and self.faults.take("syncStateNotFound", req.method, req.path):
            self.delta.expire()
        return self.route(req)

    def route(self, req):
        """The answer to `req`: a `$batch`, or a Graph route."""
        if req.path.rstrip("/") in ("/v1.0/$batch", "/$batch") and req.method == "POST":
            return self.batch(req)
        return self.api.dispatch(req)

    def batch(self, req):
        """JSON batching (docs: concepts/json-batching.md, known-issues.md): at most 20
        requests, run in order; a request whose dependency failed answers 424."""
        requests = (req.body or {}).get("requests") if isinstance(req.body, dict) else None
        if not isinstance(requests, list) or not requests:
            raise bad_request("A batch needs a non-empty 'requests' array.", "BadRequest")
        if len(requests) > MAX_BATCH:
            raise bad_request("The number of batch requests exceeds the limit of 20.", "BadRequest")
        ids = [str(r.get("id")) for r in requests]
        if len(set(ids)) != len(ids):
            raise bad_request("Batch request ids must be unique.", "BadRequest")
        results, responses = {}, []
        for sub in requests:
            sub_id = str(sub.get("id"))
            depends = [str(d) for d in sub.get("dependsOn") or []]
            if any(d not in results for d in depends):
                raise bad_request(f"Request {sub_id} depends on a request that is not before it.", "BadRequest")
            if any(results[d] >= 400 for d in depends):
                status, headers, body = 424, {}, envelope("FailedDependency", "A request this one depends on failed.", {})
            else:
                status, headers, body = self.sub_request(req, sub)
            results[sub_id] = status
            answer = {"id": sub_id, "status": status, "headers": {"Content-Type": JSON_TYPE, **headers}}
            if body is not None:
                answer["body"] = body
            responses.append(answer)
        return 200, {}, {"responses": responses}

    def sub_request(self, outer, sub):
        url = str(sub.get("url", ""))
        # Documented URLs are relative; msgraph-sdk-python sends absolute ones under the base.
        if url.startswith(outer.base_url + "/"):
            url = url[len(outer.base_url):]
        if not url.startswith("/"):
            url = "/" + url
        headers = {**{k: v for k, v in outer.headers.items() if k in ("authorization", "prefer")},
                   **(sub.get("headers") or {})}
        req = api.Request(str(sub.get("method", "GET")), "/v1.0" + url, headers, sub.get("body"), outer.base_url)
        try:
            status, headers, body = self.handle_graph(req)
        except GraphError as error:
            return error.status, dict(error.headers), envelope(error.code, error.message, req.headers)
        return status, headers, body


def envelope(code, message, headers):
    request_id = str(uuid.uuid4())
    return {"error": {"code": code, "message": message, "innerError": {
        "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S"),
        "request-id": request_id, "client-request-id": headers.get("client-request-id", request_id)}}}


class Handler(BaseHTTPRequestHandler):
    # Headers and body go out in two writes: without TCP_NODELAY each answer on a kept-alive
    # connection waits for the client's delayed ACK (about 40 ms).
    disable_nagle_algorithm = True
    protocol_version = "HTTP/1.1"
    server_version = "Microsoft-IIS/10.0"
    sys_version = ""

    def log_message(self, fmt, *args):
        pass

    def _read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if not raw:
            return None
        try:
            return json.loads(raw)
        except ValueError:
            raise bad_request("The request body is not valid JSON.", "BadRequest")

    def _handle(self):
        fake = self.server.fake
        started = time.monotonic()
        request_id = str(uuid.uuid4())
        client_id = self.headers.get("client-request-id", request_id)
        status, headers, body = 500, {}, None
        counted = False
        fields = None
        try:
            if self.path.startswith("/_fake/"):
                status, headers, body = control.handle(fake, self.command, self.path, self._read_body())
            else:
                base = f"http://{self.headers.get('Host', '127.0.0.1')}/v1.0"
                req = api.Request(self.command, self.path, dict(self.headers.items()), self._read_body(), base)
                if isinstance(req.body, dict) and self.command in ("POST", "PATCH"):
                    fields = sorted(req.body)
                self._authenticate(fake)
                counted = True
                if not fake.enter():
                    raise GraphError(429, "ApplicationThrottled", "Application is over its MailboxConcurrency limit.",
                                     {"Retry-After": "1"})
                if fake.settings["delayMs"]:
                    time.sleep(fake.settings["delayMs"] / 1000)
                status, headers, body = fake.handle_graph(req)
        except GraphError as error:
            status, headers = error.status, dict(error.headers)
            body = envelope(error.code, error.message, {"client-request-id": client_id})
        except Exception as error:  # a bug in the fake: answer 500 and say so in the log
            status, body = 500, envelope("InternalServerError", f"{type(error).__name__}: {error}", {})
            print(f"fake graph: {self.command} {self.path}: {error!r}", file=sys.stderr, flush=True)
            import traceback
            traceback.print_exc()
        finally:
            if counted:
                fake.leave()
        self._send(status, headers, body, request_id, client_id)
        if not self.path.startswith("/_fake/"):
            fake.log({"method": self.command, "path": self.path, "status": status,
                      "ifMatch": self.headers.get("If-Match"), "prefer": self.headers.get("Prefer"),
                      "ms": round((time.monotonic() - started) * 1000),
                      **({"fields": fields} if fields is not None else {})})

    def _authenticate(self, fake):
        auth = self.headers.get("Authorization", "")
        if not auth:
            raise GraphError(401, "InvalidAuthenticationToken", "Access token is empty.",
                             {"WWW-Authenticate": WWW_AUTHENTICATE})
        if auth != f"Bearer {fake.token}":
            raise GraphError(401, "InvalidAuthenticationToken", "Access token validation failure. Invalid audience.",
                             {"WWW-Authenticate": WWW_AUTHENTICATE})

    def _send(self, status, headers, body, request_id, client_id):
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        if body is not None:
            self.send_header("Content-Type", JSON_TYPE)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("request-id", request_id)
        self.send_header("client-request-id", client_id)
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        if data and self.command != "HEAD":
            self.wfile.write(data)

    do_GET = do_POST = do_PATCH = do_DELETE = do_PUT = _handle


def _stop(server, state_dir):
    """On SIGTERM (`server stop`): the state, as GET /_fake/state gives it, to STATE_DIR/state.json."""
    if state_dir:
        with open(os.path.join(state_dir, "state.json"), "w", encoding="utf-8") as f:
            json.dump(control.state(server.fake), f, indent=1, sort_keys=True)
    os._exit(0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--token", required=True)
    parser.add_argument("--state")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.fake = Fake(args.token, args.state)
    signal.signal(signal.SIGTERM, lambda *_: _stop(server, args.state))
    port = server.server_address[1]
    print(f"CALGW_GRAPH_URL=http://127.0.0.1:{port}/v1.0", flush=True)
    print(f"CALGW_GRAPH_TOKEN={args.token}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
