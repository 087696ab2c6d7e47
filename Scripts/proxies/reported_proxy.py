#!/usr/bin/env python3
"""A proxy in front of a real CalDAV server that answers as servers no test can run (iCloud,
mailbox.org's Open-Xchange, Zimbra, Synology) are reported to, where they depart from RFC 4791;
each behaviour is off unless its flag is given.

    python3 Scripts/proxies/reported_proxy.py --upstream http://127.0.0.1:5232/ [--port 0] [--log FILE] \\
        [--vcalendar-query-empty] [--query-window-days N] \\
        [--refuse-components VTODO,VJOURNAL [--refuse-status 403]] [--app-password PASSWORD]

Behaviours (who does it, and where it is told):
  --vcalendar-query-empty
                    a calendar-query whose filter names no component inside VCALENDAR answers
                    an empty 207 (iCloud: calcurse PR #60, "a REPORT needs a VEVENT filter";
                    python-caldav's compatibility hints, `search.comp-type.optional`, list it
                    for most servers; SOGo 5.8 does the same, measured here).
  --query-window-days N
                    a calendar-query without a time-range answers only the objects whose
                    DTSTART (or DUE) is within N days of now (Open-Xchange, mailbox.org's server:
                    python-caldav's hints, `search.unlimited-time-range: broken`, "only objects
                    within about a year of now"). Objects without either are kept.
  --refuse-components LIST with --refuse-status S
                    a PUT of an object holding one of the components LIST answers S, without
                    being forwarded (iCloud takes no tasks over CalDAV since Reminders moved to
                    CloudKit, answering 403; Zimbra and Open-Xchange take tasks only in task
                    lists and no journal entries: python-caldav's hints,
                    `save-load.todo.mixed-calendar`, `save-load.journal`).
  --app-password PASSWORD
                    a request whose Basic password is not PASSWORD answers 401 without being
                    forwarded; one that gives it is forwarded with the client's user name and
                    --upstream-password (iCloud signs in third-party clients only with an
                    app-specific password, not the Apple ID's own).
"""

import base64
import datetime
import re

import proxylib


class ReportedHandler(proxylib.ForwardingHandler):
    def handle_request(self):
        config = self.server.config
        if config.app_password is not None and not self.signed_in():
            self.entry["refused"] = "password"
            self.send_simple(401, [("WWW-Authenticate", 'Basic realm="reported"')], b"app-specific password needed\n")
            return
        if self.command == "PUT" and self.refused_component():
            self.entry["refused"] = "component"
            self.send_simple(config.refuse_status, (), b"component not supported here\n")
            return
        self.send(self.forward())

    def signed_in(self):
        header = self.headers.get("Authorization", "")
        if not header.startswith("Basic "):
            return False
        try:
            user, _, password = base64.b64decode(header[6:]).decode().partition(":")
        except (ValueError, UnicodeDecodeError):
            return False
        self.user = user
        return password == self.server.config.app_password

    def upstream_headers(self):
        # Answers are read and changed here: asked for uncompressed.
        headers = [(k, v) for k, v in super().upstream_headers() if k.lower() != "accept-encoding"]
        if self.server.config.app_password is None:
            return headers
        token = base64.b64encode(f"{self.user}:{self.server.config.upstream_password}".encode()).decode()
        return [(k, v) for k, v in headers if k.lower() != "authorization"] + [("Authorization", "Basic " + token)]

    def refused_component(self):
        names = self.server.config.refuse_components
        return any(re.search(rb"^BEGIN:" + name.encode() + rb"\r?$", self.body, re.M) for name in names)

    def is_query(self):
        return self.command == "REPORT" and b"calendar-query" in self.body

    def rewrite_response(self, response):
        config = self.server.config
        if response.status != 207 or not self.is_query():
            return response
        if config.vcalendar_query_empty and not re.search(rb"comp-filter[^>]*name=\"V(?!CALENDAR)", self.body):
            response.body = re.sub(rb"<(\w+:)?response\b.*?</(\w+:)?response>", b"", response.body, flags=re.S)
        elif config.query_window_days and b"time-range" not in self.body:
            response.body = re.sub(rb"<(\w+:)?response\b.*?</(\w+:)?response>", self.within_window, response.body,
                                   flags=re.S)
        return response

    def within_window(self, match):
        """The response as it is when its object starts within the window (or says no start),
        else nothing."""
        found = re.search(rb"^(?:DTSTART|DUE)[^:\r\n]*:(\d{8})", match.group(0), re.M)
        if not found:
            return match.group(0)
        start = datetime.datetime.strptime(found.group(1).decode(), "%Y%m%d").date()
        days = abs((start - datetime.date.today()).days)
        return match.group(0) if days <= self.server.config.query_window_days else b""


def main():
    parser = proxylib.common_arguments(__doc__.splitlines()[0])
    parser.add_argument("--vcalendar-query-empty", action="store_true")
    parser.add_argument("--query-window-days", type=int, default=0)
    parser.add_argument("--refuse-components", default="", help="comma-separated components refused on PUT")
    parser.add_argument("--refuse-status", type=int, default=403)
    parser.add_argument("--app-password", help="the only password taken (Basic)")
    parser.add_argument("--upstream-password", default="", help="the password sent upstream with --app-password")
    config = parser.parse_args()
    config.refuse_components = [c.strip().upper() for c in config.refuse_components.split(",") if c.strip()]
    server = proxylib.ProxyServer(("127.0.0.1", config.port), ReportedHandler,
                                  proxylib.Upstream(config.upstream), config.log)
    server.config = config
    proxylib.serve(server)


if __name__ == "__main__":
    main()
