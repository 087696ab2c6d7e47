#!/usr/bin/env python3
"""A proxy in front of Radicale that answers as Google Calendar's CalDAV endpoint does where
Google's guide and its users' reports say it differs from the RFCs; each behaviour is off
unless its flag is given.

    python3 Scripts/proxies/google_proxy.py --upstream http://127.0.0.1:5232/ [--port 0] [--log FILE] \\
        [--no-mkcalendar] [--if-none-match honour|ignore|refuse] [--no-put-etag] \\
        [--phantom-collection PATH]... [--recurring-update-conflict] \\
        [--throttle 403|429 --throttle-count N [--throttle-methods PUT,REPORT]] [--no-vtodo] \\
        [--schedule-ledger FILE] [--defer-every N] [--defer-first N] [--defer-methods PUT] \\
        [--expired-token-status 410|507|...] [--no-initial-sync-collection] [--refuse-split-uids] \\
        [--recurring-guests-update-403] \\
        [--google-account EMAIL --upstream-home PATH --google-calendar ID=PATH... [--at-spelling encoded|mixed]]

Behaviours (what Google does, and where it is told):
  --no-mkcalendar   MKCALENDAR and MKCOL answer 405 (Google's CalDAV guide: "not supported";
                    calendars are made in Google Calendar itself).
  --if-none-match   what a request with `If-None-Match` meets (the guide: no `If*` header but
                    If-Match is supported): `honour` forwards it (the default), `ignore` drops
                    it before forwarding (a create over a taken name replaces it), `refuse`
                    answers 400 without forwarding.
  --no-put-etag     a PUT's answer carries no ETag (gggard/AndroidCaldavSyncAdapater #101).
  --phantom-collection PATH
                    listings of the collection PATH (PROPFIND Depth 1, a calendar-query, a
                    sync-collection REPORT without a token) carry two more hrefs, with an ETag
                    and no calendar data, `<id>_R<date>@google.com.ics`,
                    as Google lists the instances of a split or cancelled series; they answer
                    404 to GET and are missing from a calendar-multiget's answer (vdirsyncer
                    #1208, #1212).
  --recurring-update-conflict
                    a PUT with If-Match of an event with an RRULE answers 409 Conflict (a
                    recurring event's update; vdirsyncer #963, #613, #835; calcurse #470); a
                    new one is stored.
  --throttle STATUS with --throttle-count N: the next N requests (of --throttle-methods, or
                    any) answer STATUS: 403 with Google's `usageLimits`/`rateLimitExceeded`
                    JSON error, or 429 (Calendar API guide "Handle API errors"). No Retry-After.
  --no-vtodo        a PUT of a VTODO or VJOURNAL answers 400 (the guide: VTODO and VJOURNAL
                    are not supported).
  --schedule-ledger FILE
                    Google mails the attendees of a meeting written over CalDAV whatever the
                    client asks: it ignores SCHEDULE-AGENT=CLIENT (Outlook CalDAV Synchronizer
                    #183, its maintainer: "google doesn't honour the SCHEDULE-AGENT = CLIENT
                    setting abd always sends new meeting invites"; #116: "sending many
                    invitations to Outlook (50 this morning)"; #274). No source speaks of the
                    `Scheduling-Enabled: F` header; Google is not known to honour it either. Each PUT the upstream takes of
                    an object with attendees whose content changed (DTSTAMP, LAST-MODIFIED,
                    SEQUENCE, CREATED and line order aside) appends one JSON line per attendee
                    but the organizer, {"method": "REQUEST", "uid", "attendee", "path"}; each
                    DELETE of one, "CANCEL" lines. Marks and headers change nothing.
  --defer-every N, --defer-first N, --defer-methods M,...
                    Google's CalDAV defers requests with a 403 whose body is an empty
                    `<D:error xmlns:D="DAV:"/>`, neither JSON nor 429, in some syncs and partway
                    through bulk imports (Outlook CalDAV Synchronizer #303, "only 1/5 times", with
                    this very body, and #323; sabre-io/dav #1347; calcurse #174; Google's guide:
                    "the same quota limits as the Calendar API"): every Nth request of the methods (default PUT), and
                    the first N, answer so without being forwarded.
  --expired-token-status STATUS
                    after `POST /_google/expire-sync-tokens` (answered 204, never forwarded), the
                    next sync-collection REPORT with a token on each collection answers STATUS
                    once with `<D:error xmlns:D="DAV:"><D:valid-sync-token/></D:error>`. How
                    Google's CalDAV answers a forgotten token is undocumented: its REST API uses
                    410 (fullSyncRequired), other CalDAV servers 507 (python-caldav #340).
  --no-initial-sync-collection
                    a sync-collection REPORT without a token (or an empty one) answers 400:
                    Google's guide says to switch to sync-collection after the initial sync.
  --refuse-split-uids
                    a PUT of an object whose UID is one Google gives the part of a series it
                    split (`..._R20250105T090000@google.com`) answers 400 (vdirsyncer #1225,
                    khal #945: such an event copied into another Google calendar).
  --recurring-guests-update-403
                    a PUT with If-Match of an event with an RRULE and an attendee answers 403,
                    the empty DAV error of a deferral, on every try (Outlook CalDAV Synchronizer
                    #423: "Server returned '403' ('Forbidden') for update" for events with
                    guests; the report does not say they were recurring, nor its body).
  --google-account EMAIL with --upstream-home PATH and --google-calendar ID=PATH (repeatable)
                    serves Google's URL shape, `/caldav/v2/<id>/events/`, over the upstream's
                    paths: the principal `/caldav/v2/EMAIL/user`, the home `/caldav/v2/EMAIL/`
                    (PATH upstream) listing the calendars given, each ID's collection at the
                    upstream PATH; any other path answers 404. Hrefs in answers are rewritten,
                    `@` spelled as --at-spelling says (`encoded`: `%40`, the default; `mixed`:
                    `%40` and `@` by kind of answer and in turns, DAVx5 #2817). google_paths.py
                    tells the shape and what is assumed where Google's guide is silent.
                    --phantom-collection then names an upstream path.

Responses the proxy does not change are streamed as they arrive. Every request is logged to
--log as one JSON line (n, method, path, action, status, conditional headers).
Prints PROXY_URL=http://127.0.0.1:PORT/ once listening (loopback only).
"""

import http.client
import json
import re
import threading

import google_paths
import proxylib

def rate_limit_body(code, message):
    """Google's JSON error for a rate limit (the Calendar API's "Handle API errors")."""
    errors = [{"domain": "usageLimits", "reason": "rateLimitExceeded", "message": message}]
    return json.dumps({"error": {"code": code, "message": message, "errors": errors}}, indent=1).encode() + b"\n"


BARE_DAV_ERROR = b'<?xml version="1.0" encoding="UTF-8"?>\n<D:error xmlns:D="DAV:"/>\n'
EXPIRED_TOKEN_ERROR = b'<?xml version="1.0" encoding="UTF-8"?>\n<D:error xmlns:D="DAV:"><D:valid-sync-token/></D:error>\n'
SPLIT_UID = re.compile(rb"\nUID:[^\r\n]*_R\d{8}(T\d{6}Z?)?@google\.com\r?\n", re.I)
STAMP_LINES = ("DTSTAMP", "LAST-MODIFIED", "SEQUENCE", "CREATED")


def unfolded_lines(data):
    text = data.decode("utf-8", "replace").replace("\r\n", "\n").replace("\n ", "").replace("\n\t", "")
    return [line for line in text.split("\n") if line]


def address(line):
    match = re.search(r"(?i)mailto:([^\";:\s]+)\s*$", line)
    return match.group(1).lower() if match else None


def meeting_content(data):
    """(uid, attendees but the organizer, lines that say what the meeting is) of `data`."""
    lines = unfolded_lines(data)
    uid = next((line.split(":", 1)[1] for line in lines if line.upper().startswith("UID:")), None)
    organizer = next((address(line) for line in lines if line.upper().startswith("ORGANIZER")), None)
    attendees = []
    for line in lines:
        if line.upper().startswith("ATTENDEE"):
            who = address(line)
            if who and who != organizer and who not in attendees:
                attendees.append(who)
    content = sorted(line for line in lines if line.split(":", 1)[0].split(";", 1)[0].upper() not in STAMP_LINES)
    return uid, attendees, content


class Ledger:
    """The mails Google would send, one JSON line each, appended under a lock."""

    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()

    def add(self, method, uid, attendees, path):
        with self.lock, open(self.path, "a", encoding="utf-8") as file:
            for attendee in attendees:
                file.write(json.dumps({"method": method, "uid": uid, "attendee": attendee, "path": path}) + "\n")
            file.flush()


class Counter:
    """Counts requests thread-safely."""

    def __init__(self):
        self.lock = threading.Lock()
        self.count = 0

    def next(self):
        with self.lock:
            self.count += 1
            return self.count


PHANTOM_NAMES = ("phantom7c2e_R20250124T170000@google.com.ics", "phantom91ab_R20250301T090000@google.com.ics")


class Throttle:
    """The requests still to be answered with a rate-limit error, counted thread-safely."""

    def __init__(self, count):
        self.lock = threading.Lock()
        self.left = count

    def take(self):
        with self.lock:
            if self.left <= 0:
                return False
            self.left -= 1
            return True


class GoogleHandler(proxylib.ForwardingHandler):
    def upstream_headers(self):
        """The client's headers without Accept-Encoding: a listing the proxy adds hrefs to
        must come uncompressed."""
        return [(k, v) for k, v in super().upstream_headers() if k.lower() != "accept-encoding"]

    def handle_request(self):
        config = self.server.config
        method = self.command.upper()
        self.entry["action"] = "ok"
        if self.path.split("?")[0] == "/_google/expire-sync-tokens" and method == "POST":
            self.entry["action"] = "expire-control"
            with self.server.expiry_lock:
                self.server.expired_pending = True
                self.server.expired_answered = set()
            return self.send_simple(204)
        if self.path.split("?")[0] == "/calendar/v3/freeBusy" and method == "POST":
            self.entry["action"] = "freebusy"
            return self.free_busy()
        paths = self.server.google_paths
        if paths is not None:
            if paths.is_principal(self.path):
                self.entry["action"] = "principal"
                if method != "PROPFIND":
                    return self.send_simple(405, (), b"Method Not Allowed\n")
                return self.send(proxylib.Response(207, None, [("Content-Type", "application/xml; charset=utf-8")],
                                                   paths.principal_answer(self.path)))
            upstream = paths.upstream_path(self.path)
            if upstream is None:
                self.entry["action"] = "no-such-path"
                return self.send_simple(404, (), b"Not Found\n")
            self.path = google_paths.encode(upstream, False)
            self.body = paths.request_body(self.body)
        if config.throttle and (not config.throttle_methods or method in config.throttle_methods) \
                and self.server.throttle.take():
            self.entry["action"] = "throttle"
            body = rate_limit_body(config.throttle,
                                   "Rate Limit Exceeded" if config.throttle == 403 else "Too Many Requests")
            return self.send(proxylib.Response(config.throttle, None,
                                               [("Content-Type", "application/json; charset=UTF-8")], body))
        if self.google_refusal(method):
            return
        if config.no_mkcalendar and method in ("MKCALENDAR", "MKCOL"):
            self.entry["action"] = "no-mkcalendar"
            return self.send_simple(405, [("Allow", "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, REPORT")],
                                    b"Method Not Allowed\n")
        if self.headers.get("If-None-Match") is not None:
            if config.if_none_match == "refuse":
                self.entry["action"] = "refuse-if-none-match"
                return self.send_simple(400, (), b"Bad Request: unsupported precondition header\n")
            if config.if_none_match == "ignore":
                self.entry["action"] = "ignore-if-none-match"
                del self.headers["If-None-Match"]
        if method == "PUT" and config.no_vtodo and re.search(rb"BEGIN:V(TODO|JOURNAL)", self.body):
            self.entry["action"] = "no-vtodo"
            return self.send_simple(400, (), b"Bad Request: unsupported component\n")
        if method == "PUT" and config.recurring_update_conflict and self.headers.get("If-Match") \
                and b"\nRRULE" in self.body:
            self.entry["action"] = "recurring-conflict"
            return self.send_simple(409, (), b"Conflict\n")
        if self.phantom_path() is not None and method in ("GET", "HEAD", "DELETE", "PUT"):
            self.entry["action"] = "phantom"
            return self.send_simple(404, (), b"Not Found\n")
        if config.schedule_ledger and method in ("PUT", "DELETE"):
            return self.scheduling(method)
        if method == "PUT" and config.no_put_etag:
            response = self.forward()
            response.set_header("ETag", None)
            self.entry["action"] = "no-put-etag"
            return self.send(response)
        if self.lists_phantoms():
            response = self.forward()
            if response.status == 207:
                self.entry["action"] = "phantoms-listed"
                response.body = self.with_phantoms(response.body)
            return self.send(response)
        if method == "REPORT" and self.phantom_collection() and b"calendar-multiget" in self.body:
            response = self.forward()
            if response.status == 207:
                response.body = self.without_phantoms(response.body)
            return self.send(response)
        if paths is not None:
            return self.send(self.forward())
        self.stream()

    def free_busy(self):
        """Calendar API `freeBusy.query` (developers.google.com/calendar/api/v3/reference/freebusy/query),
        which Google serves beside CalDAV: `{timeMin, timeMax, items: [{id}]}` in, each id's
        `busy` periods within the window out. A calendar Google does not show the account (an
        address outside the domain whose free/busy is not shared, or no such calendar) is
        answered in the same object with `errors: [{domain: global, reason: notFound}]` and no
        busy time, with status 200, not an HTTP error, as its users report
        (hkjarral/AVA-AI-Voice-Agent-for-Asterisk #355, activepieces #13929)."""
        try:
            request = json.loads(self.body or b"{}")
            low, high = request["timeMin"], request["timeMax"]
            ids = [item["id"] for item in request.get("items", [])]
        except (ValueError, KeyError, TypeError):
            body = json.dumps({"error": {"code": 400, "message": "Bad Request",
                                         "errors": [{"domain": "global", "reason": "badRequest"}]}}).encode()
            return self.send_simple(400, [("Content-Type", "application/json; charset=UTF-8")], body)
        calendars = {}
        for calendar in ids:
            known = self.server.config.free_busy.get(calendar.lower())
            if known is None:
                calendars[calendar] = {"errors": [{"domain": "global", "reason": "notFound"}], "busy": []}
                continue
            busy = [{"start": a, "end": b} for a, b in known if b > low and a < high]
            calendars[calendar] = {"busy": busy}
        body = json.dumps({"kind": "calendar#freeBusy", "timeMin": low, "timeMax": high,
                           "calendars": calendars}).encode()
        return self.send_simple(200, [("Content-Type", "application/json; charset=UTF-8")], body)

    def google_refusal(self, method):
        """Sends the answer of a deferral, a forgotten token, a refused first sync-collection,
        a split series' UID or a recurring meeting's update when one is due, and says whether
        it did (the request is then not forwarded)."""
        config = self.server.config
        xml = [("Content-Type", "text/xml; charset=UTF-8")]
        if (config.defer_every or config.defer_first) and method in config.defer_methods:
            n = self.server.deferrals.next()
            if n <= config.defer_first or (config.defer_every and n % config.defer_every == 0):
                self.entry["action"] = "defer"
                self.send(proxylib.Response(403, None, xml, BARE_DAV_ERROR))
                return True
        if method == "REPORT" and b"sync-collection" in self.body:
            token = re.search(rb"<[^>]*sync-token[^>]*>\s*([^<\s][^<]*)<", self.body)
            if token is None and config.no_initial_sync_collection:
                self.entry["action"] = "refuse-initial-sync"
                self.send_simple(400, (), b"Bad Request: sync-collection needs a sync token\n")
                return True
            if token is not None and config.expired_token_status and self.expiry_due():
                self.entry["action"] = "expired"
                self.send(proxylib.Response(config.expired_token_status, None, xml, EXPIRED_TOKEN_ERROR))
                return True
        if method == "PUT" and config.refuse_split_uids and SPLIT_UID.search(self.body):
            self.entry["action"] = "refuse-split-uid"
            self.send_simple(400, (), b"Bad Request\n")
            return True
        if method == "PUT" and config.recurring_guests_update_403 and self.headers.get("If-Match") \
                and b"\nRRULE" in self.body and b"\nATTENDEE" in self.body:
            self.entry["action"] = "recurring-guests"
            self.send(proxylib.Response(403, None, xml, BARE_DAV_ERROR))
            return True
        return False

    def expiry_due(self):
        """Whether this collection's next sync-collection with a token is to meet an expired
        token (once per collection after each `POST /_google/expire-sync-tokens`)."""
        path = self.path.split("?")[0]
        with self.server.expiry_lock:
            due = self.server.expired_pending and path not in self.server.expired_answered
            if due:
                self.server.expired_answered.add(path)
            return due

    def upstream_get(self, path):
        """What the upstream holds at `path`, or None."""
        conn = self.server.upstream.connect()
        try:
            headers = {k: v for k, v in self.upstream_headers() if k.lower() in ("authorization", "host")}
            conn.request("GET", path, headers=headers)
            reply = conn.getresponse()
            body = reply.read()
            return body if reply.status == 200 else None
        except (OSError, http.client.HTTPException):
            return None
        finally:
            conn.close()

    def scheduling(self, method):
        """Forwards a PUT or DELETE, and notes in the ledger the mails Google would send."""
        before = self.upstream_get(self.path)
        response = self.forward()
        if 200 <= response.status < 300:
            if method == "PUT":
                uid, attendees, content = meeting_content(self.body)
                old = meeting_content(before)[2] if before else None
                if attendees and content != old:
                    self.entry["action"] = "mailed"
                    self.server.ledger.add("REQUEST", uid, attendees, self.path)
                if self.server.config.no_put_etag:
                    response.set_header("ETag", None)
            elif before:
                uid, attendees, _ = meeting_content(before)
                if attendees:
                    self.entry["action"] = "mailed"
                    self.server.ledger.add("CANCEL", uid, attendees, self.path)
        return self.send(response)

    def rewrite_response(self, response):
        """In Google's shape, a multistatus's hrefs in Google's paths and spelling."""
        paths = self.server.google_paths
        if paths is None:
            return response
        if response.status == 207:
            response.body = paths.response_body(response.body, google_paths.answer_kind(self.command.upper(),
                                                                                          self.body))
        location = response.header("Location")
        if location:
            base = self.server.public_base
            path = location[len(base):] if location.startswith(base) else location
            google = paths.google_path(path)
            if google is not None:
                response.set_header("Location", base + google_paths.encode(google, True))
        return response

    # -- phantom hrefs --------------------------------------------------------------------

    def phantom_collection(self):
        """The configured collection this request is on or in, or None."""
        path = self.path.split("?")[0]
        for collection in self.server.config.phantom_collection:
            if path.startswith(collection):
                return collection
        return None

    def phantom_path(self):
        collection = self.phantom_collection()
        if collection is None:
            return None
        name = self.path.split("?")[0][len(collection):]
        return name if name in PHANTOM_NAMES or name.replace("%40", "@") in PHANTOM_NAMES else None

    def lists_phantoms(self):
        """A listing of a phantom collection: PROPFIND Depth 1, or a first sync-collection."""
        if self.phantom_collection() is None or self.path.split("?")[0] not in self.server.config.phantom_collection:
            return False
        if self.command.upper() == "PROPFIND":
            return self.headers.get("Depth", "") == "1" and b"getetag" in self.body
        if self.command.upper() == "REPORT" and b"sync-collection" in self.body:
            return re.search(rb"<[^>]*sync-token[^>]*>\s*\S", self.body) is None
        return self.command.upper() == "REPORT" and b"calendar-query" in self.body

    def with_phantoms(self, body):
        collection = self.phantom_collection()
        extra = b"".join(
            b'<D:response xmlns:D="DAV:"><D:href>%s%s</D:href><D:propstat><D:prop>'
            b'<D:getetag>"%d"</D:getetag><D:resourcetype/></D:prop><D:status>HTTP/1.1 200 OK</D:status>'
            b'</D:propstat></D:response>' % (collection.encode(), name.encode(), 63900000000 + i)
            for i, name in enumerate(PHANTOM_NAMES))
        end = body.rfind(b"</")
        return body[:end] + extra + body[end:] if end >= 0 else body

    def without_phantoms(self, body):
        """A multiget's answer with no response for a phantom href (Google leaves them out)."""
        for name in PHANTOM_NAMES:
            escaped = re.escape(name.encode()).replace(b"@", b"(?:@|%40)")
            body = re.sub(rb"<(\w+:)?response(?:\s[^>]*)?>(?:(?!</(?:\w+:)?response>).)*?" + escaped
                          + rb".*?</(?:\w+:)?response>", b"", body, flags=re.S)
        return body



def main():
    parser = proxylib.common_arguments(__doc__.splitlines()[0])
    parser.add_argument("--no-mkcalendar", action="store_true")
    parser.add_argument("--if-none-match", choices=("honour", "ignore", "refuse"), default="honour")
    parser.add_argument("--no-put-etag", action="store_true")
    parser.add_argument("--phantom-collection", action="append", default=[],
                        help="a collection's path whose listings carry phantom hrefs (repeatable)")
    parser.add_argument("--recurring-update-conflict", action="store_true")
    parser.add_argument("--throttle", type=int, choices=(403, 429))
    parser.add_argument("--throttle-count", type=int, default=1)
    parser.add_argument("--throttle-methods", default="", help="comma-separated methods throttled (default any)")
    parser.add_argument("--no-vtodo", action="store_true")
    parser.add_argument("--schedule-ledger", help="a file of the mails Google would send, one JSON line each")
    parser.add_argument("--defer-every", type=int, default=0)
    parser.add_argument("--defer-first", type=int, default=0)
    parser.add_argument("--defer-methods", default="PUT", help="comma-separated methods deferred (default PUT)")
    parser.add_argument("--expired-token-status", type=int, default=0)
    parser.add_argument("--no-initial-sync-collection", action="store_true")
    parser.add_argument("--refuse-split-uids", action="store_true")
    parser.add_argument("--recurring-guests-update-403", action="store_true")
    parser.add_argument("--google-account", help="serve Google's URL shape for this account (its e-mail address)")
    parser.add_argument("--upstream-home", default="/", help="the upstream path of the account's calendar home")
    parser.add_argument("--google-calendar", action="append", default=[], type=google_paths.parse_calendar,
                        help="ID=PATH: the calendar ID's collection is the upstream PATH (repeatable)")
    parser.add_argument("--at-spelling", choices=("encoded", "mixed"), default="encoded")
    parser.add_argument("--free-busy", action="append", default=[], dest="free_busy_list",
                        help="ADDRESS=START/END[,START/END]: another person's busy time for freeBusy.query "
                             "(RFC 3339 UTC, repeatable)")
    config = parser.parse_args()
    config.free_busy = {}
    for entry in config.free_busy_list:
        who, periods = entry.split("=", 1)
        config.free_busy[who.lower()] = [tuple(p.split("/")) for p in periods.split(",") if p]
    config.throttle_methods = {m.strip().upper() for m in config.throttle_methods.split(",") if m.strip()}
    server = proxylib.ProxyServer(("127.0.0.1", config.port), GoogleHandler,
                                  proxylib.Upstream(config.upstream), config.log)
    config.defer_methods = {m.strip().upper() for m in config.defer_methods.split(",") if m.strip()}
    server.config = config
    server.ledger = Ledger(config.schedule_ledger) if config.schedule_ledger else None
    server.deferrals = Counter()
    server.expiry_lock = threading.Lock()
    server.expired_pending = False
    server.expired_answered = set()
    server.throttle = Throttle(config.throttle_count if config.throttle else 0)
    server.google_paths = google_paths.GooglePaths(config.google_account, config.google_calendar,
                                                   config.upstream_home, config.at_spelling) \
        if config.google_account else None
    proxylib.serve(server)


if __name__ == "__main__":
    main()
