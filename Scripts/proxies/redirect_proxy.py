#!/usr/bin/env python3
"""A redirecting proxy for tests: answers requests under a path prefix with a redirect, and
forwards every other request to the upstream.

    python3 Scripts/proxies/redirect_proxy.py --upstream http://127.0.0.1:5232/ \\
        --from-prefix /old/ --to /alice/ [--status 301|302|307|308] [--relative] \\
        [--times N] [--log FILE] [--port 0]

A request for /old/REST is answered with `--status` (default 308) and
`Location: TO + REST`. TO may be
  - a path (`/alice/`): the same proxy, so the followed request is forwarded upstream;
    sent as an absolute URL on this proxy, or as the bare path with --relative;
  - an absolute URL on another host (`http://localhost:PORT/alice/`), e.g. another proxy
    whose log shows whether credentials were sent there;
  - an http:// URL while clients reach this proxy through tls_proxy.py: https → http.
A TO equal to the prefix makes a redirect loop. --times N redirects only the first N matching
requests. The log line of a redirected request has action "redirect" and its location.
Prints PROXY_URL=http://127.0.0.1:PORT/ once listening.
"""

import threading

import proxylib


class RedirectHandler(proxylib.ForwardingHandler):
    def handle_request(self):
        config = self.server.config
        if self.path.startswith(config.from_prefix) and self.server.take_redirect():
            rest = self.path[len(config.from_prefix):]
            target = config.to + rest
            if target.startswith("/") and not config.relative:
                target = self.server.public_base + target
            self.entry["action"] = "redirect"
            self.entry["location"] = target
            self.send_simple(config.status, [("Location", target)], b"moved\n")
        else:
            self.entry["action"] = "forward"
            self.send(self.forward())


class RedirectServer(proxylib.ProxyServer):
    def take_redirect(self):
        with self.count_lock:
            if self.config.times is not None and self.redirected >= self.config.times:
                return False
            self.redirected += 1
            return True


def main():
    parser = proxylib.common_arguments(__doc__.splitlines()[0])
    parser.add_argument("--from-prefix", default="/", help="path prefix that is redirected (default /)")
    parser.add_argument("--to", required=True, help="path or URL prefix the redirect points to")
    parser.add_argument("--status", type=int, choices=[301, 302, 303, 307, 308], default=308)
    parser.add_argument("--relative", action="store_true", help="send a path-only Location")
    parser.add_argument("--times", type=int, help="redirect only the first N matching requests")
    config = parser.parse_args()
    if not config.from_prefix.startswith("/"):
        proxylib.fail("--from-prefix must start with /")

    server = RedirectServer(("127.0.0.1", config.port), RedirectHandler,
                            proxylib.Upstream(config.upstream), config.log)
    server.config = config
    server.count_lock = threading.Lock()
    server.redirected = 0
    proxylib.serve(server)


if __name__ == "__main__":
    main()
