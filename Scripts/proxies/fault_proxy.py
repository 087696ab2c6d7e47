#!/usr/bin/env python3
"""A fault-injecting proxy for tests: forwards requests, but answers some with a failure.

    python3 Scripts/proxies/fault_proxy.py --upstream http://127.0.0.1:5232/ \\
        --script "503,ok,429,reset,truncate,slow" [--repeat] [--log FILE] [--port 0]
    python3 Scripts/proxies/fault_proxy.py --upstream URL --rate 0.1 --seed 7 \\
        [--faults 503,502,429,reset,truncate,slow]

With --script, the Nth request (counted over all connections, in arrival order) gets the Nth
action; once the script is used up every request is forwarded (or the script starts again
with --repeat). With --rate, each request gets a fault with that probability, chosen by a
random generator seeded with --seed, so a run can be repeated. --only-methods limits faults
to some methods (others are always forwarded and do not use up the script).

Actions:
  ok        forward unchanged
  503       answer 503 with Retry-After (--retry-after seconds), not forwarded
  502       answer 502 Bad Gateway, not forwarded
  504       answer 504 Gateway Timeout, not forwarded
  507       answer 507 Insufficient Storage (a full account), not forwarded
  500       answer 500 with a PHP fatal error and its stack trace, as DAViCal 1.1.12's scheduling
            code fails an attendee's answer, not forwarded
  403       answer 403 Forbidden with a WebDAV need-privileges error, not forwarded
  409       answer 409 Conflict, not forwarded
  412       answer 412 Precondition Failed, not forwarded
  429       answer 429 with Retry-After, not forwarded
  reset     read the request, then close the connection with a TCP reset, not forwarded
  truncate  forward, then send the headers and only half the body and close the connection
  lose      forward (the server does the request), then close the connection with a TCP reset
            before any of the answer: a lost answer, as a dropped mobile link or a proxy's idle
            timeout leaves a client that cannot tell whether its write was done
  slow      wait --slow-seconds, then forward

Every request is logged to --log as one JSON line: n, method, path, action, status, and the
conditional and scheduling headers it had (headers).
Prints PROXY_URL=http://127.0.0.1:PORT/ once listening.
"""

import random
import threading
import time

import proxylib

ACTIONS = ("ok", "500", "503", "502", "504", "507", "403", "409", "412", "429", "reset", "truncate", "lose",
           "slow")


PHP_FATAL = (
    b"<br />\n<b>Fatal error</b>:  Uncaught Error: Call to a member function dav_name() on null in "
    b"/usr/share/davical/inc/caldav-PUT-functions.php:455\nStack trace:\n"
    b"#0 /usr/share/davical/inc/caldav-PUT-functions.php(511): do_scheduling_reply()\n"
    b"#1 /usr/share/davical/inc/caldav-PUT-functions.php(1619): do_scheduling_requests()\n"
    b"#2 /usr/share/davical/inc/caldav-PUT.php(75): write_resource()\n#3 {main}\n  thrown in "
    b"<b>/usr/share/davical/inc/caldav-PUT-functions.php</b> on line <b>455</b><br />\n"
)


class FaultPlan:
    """Decides the action for each request, thread-safely and reproducibly."""

    def __init__(self, script, repeat, rate, seed, faults):
        self.lock = threading.Lock()
        self.script = script
        self.repeat = repeat
        self.rate = rate
        self.random = random.Random(seed)
        self.faults = faults
        self.index = 0

    def next_action(self):
        with self.lock:
            if self.script:
                if self.index >= len(self.script):
                    if not self.repeat:
                        return "ok"
                    self.index = 0
                action = self.script[self.index]
                self.index += 1
                return action
            if self.rate > 0 and self.random.random() < self.rate:
                return self.random.choice(self.faults)
            return "ok"


class FaultHandler(proxylib.ForwardingHandler):
    def handle_request(self):
        config = self.server.config
        if config.only_methods and self.command.upper() not in config.only_methods:
            action = "ok"
        else:
            action = self.server.plan.next_action()
        self.entry["action"] = action
        retry_after = [("Retry-After", str(config.retry_after))]
        if action == "ok":
            self.send(self.forward())
        elif action == "503":
            self.send_simple(503, retry_after, b"injected: service unavailable\n")
        elif action == "429":
            self.send_simple(429, retry_after, b"injected: too many requests\n")
        elif action == "502":
            self.send_simple(502, (), b"injected: bad gateway\n")
        elif action == "504":
            self.send_simple(504, (), b"injected: gateway timeout\n")
        elif action == "500":
            self.send_simple(500, (), PHP_FATAL)
        elif action == "507":
            self.send_simple(507, (), b"injected: quota exceeded\n")
        elif action == "403":
            self.send_simple(403, [("Content-Type", "application/xml; charset=utf-8")],
                             b'<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="DAV:"><D:need-privileges/></D:error>\n')
        elif action == "409":
            self.send_simple(409, (), b"injected: conflict\n")
        elif action == "412":
            self.send_simple(412, (), b"injected: precondition failed\n")
        elif action == "reset":
            self.entry["status"] = None
            proxylib.abort_connection(self)
        elif action == "truncate":
            response = self.forward()
            self.entry["status"] = response.status
            self.entry["sent_bytes"] = len(response.body) // 2
            self.commit_log()
            self.send_response(response.status, response.reason)
            for key, value in response.headers:
                if key.lower() not in ("content-length", "date", "server"):
                    self.send_header(key, value)
            self.send_header("Content-Length", str(len(response.body)))
            self.end_headers()
            self.wfile.write(response.body[: len(response.body) // 2])
            self.wfile.flush()
            proxylib.abort_connection(self)
        elif action == "lose":
            response = self.forward()
            self.entry["status"] = response.status
            self.entry["sent_bytes"] = 0
            self.commit_log()
            proxylib.abort_connection(self)
        elif action == "slow":
            time.sleep(config.slow_seconds)
            self.send(self.forward())


def parse_actions(text, option):
    actions = [a.strip().lower() for a in text.split(",") if a.strip()]
    unknown = [a for a in actions if a not in ACTIONS]
    if unknown:
        proxylib.fail(f"{option}: unknown action(s) {', '.join(unknown)}; known: {', '.join(ACTIONS)}")
    return actions


def main():
    parser = proxylib.common_arguments(__doc__.splitlines()[0])
    parser.add_argument("--script", help="comma-separated actions, one per request in order")
    parser.add_argument("--repeat", action="store_true", help="start the script again when used up")
    parser.add_argument("--rate", type=float, default=0.0, help="probability of a fault per request")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random generator for --rate")
    parser.add_argument("--faults", default="503,502,429,reset,truncate,slow",
                        help="the faults --rate chooses from")
    parser.add_argument("--only-methods", default="", help="comma-separated methods that may get a fault")
    parser.add_argument("--retry-after", type=int, default=1, help="seconds in Retry-After (default 1)")
    parser.add_argument("--slow-seconds", type=float, default=2.0, help="delay of a slow response")
    config = parser.parse_args()
    script = parse_actions(config.script, "--script") if config.script else []
    faults = parse_actions(config.faults, "--faults")
    if not script and not 0 <= config.rate <= 1:
        proxylib.fail("--rate must be between 0 and 1")
    config.only_methods = {m.strip().upper() for m in config.only_methods.split(",") if m.strip()}

    server = proxylib.ProxyServer(("127.0.0.1", config.port), FaultHandler,
                                  proxylib.Upstream(config.upstream), config.log)
    server.config = config
    server.plan = FaultPlan(script, config.repeat, config.rate, config.seed, faults)
    proxylib.serve(server)


if __name__ == "__main__":
    main()
