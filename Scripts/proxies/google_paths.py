"""Google's CalDAV URL shape over Radicale's paths, for google_proxy.py: which Google path names
which upstream path, the principal's answer the proxy makes itself, and hrefs rewritten both
ways, with `@` written as Google writes it in each kind of answer.

Google's shape (research/google-and-oauth.md §A2; the rest is assumed, see below):

    /caldav/v2/                           a root that names the principal (assumed)
    /caldav/v2/<account>/user             the principal (DAVx5's start URL)
    /caldav/v2/<account>/                 the calendar home (assumed)
    /caldav/v2/<calendar id>/events/      each calendar; the primary one's id is the account's
                                          e-mail address, others look like
                                          `abc123@group.calendar.google.com`
    /caldav/v2/<calendar id>/events/<n>   its items

Assumptions where the research is silent:
  - `current-user-principal` is `/caldav/v2/<account>/user` and `calendar-home-set` is
    `/caldav/v2/<account>/`; both are answered on the root and on the principal, Depth 0.
  - A PROPFIND Depth 1 of the home lists the home and every calendar of the account, each at
    `/caldav/v2/<id>/events/`: a calendar other than the primary one is listed by the home
    though its path is not inside the home's.
  - `/.well-known/caldav` answers 404 (vdirsyncer #1059: discovery there does not work).
  - The primary calendar's display name is the account's address.

How `@` is written (DAVx5 #2817: `%40` in some answers, `@` in others for the same
collection or item); `encoded`: `%40` in every href the proxy writes; `mixed`: `%40` in
PROPFIND answers and calendar-queries, `@` in a calendar-multiget's, and in a sync-collection
answer `%40` and `@` by turns, response by response (the principal's own answer writes the
principal with `@` and the home with `%40`). Hrefs a client sends are taken either way.
"""

import re
import urllib.parse

ROOT = "/caldav/v2/"
HREF = re.compile(rb"(<(?:[\w-]+:)?href>)([^<]*)(</(?:[\w-]+:)?href>)")
RESPONSE_OPEN = re.compile(rb"<(?:[\w-]+:)?response[\s>]")
RESPONSE_CLOSE = re.compile(rb"</(?:[\w-]+:)?response>")


def encode(path, at_encoded):
    """`path` (decoded) as an href, `@` as `%40` when `at_encoded`."""
    safe = "/:!$&'()*+,;=" + ("" if at_encoded else "@")
    return urllib.parse.quote(path, safe=safe)


def decoded(path):
    return urllib.parse.unquote(path)


class GooglePaths:
    """The account, its calendars (Google id → upstream collection path) and the upstream home."""

    def __init__(self, account, calendars, upstream_home, spelling):
        self.account = account
        self.calendars = dict(calendars)
        self.upstream_home = upstream_home if upstream_home.endswith("/") else upstream_home + "/"
        self.spelling = spelling

    @property
    def principal(self):
        return f"{ROOT}{self.account}/user"

    @property
    def home(self):
        return f"{ROOT}{self.account}/"

    # -- client → upstream ----------------------------------------------------------------

    def upstream_path(self, path):
        """The upstream path of a Google path (decoded or not), or None for none."""
        path = decoded(path.split("?")[0])
        if not path.startswith(ROOT):
            return None
        rest = path[len(ROOT):]
        calendar_id, _, tail = rest.partition("/")
        if rest == self.account + "/":
            return self.upstream_home
        if calendar_id in self.calendars and (tail == "events" or tail.startswith("events/")):
            return self.calendars[calendar_id] + tail[len("events/"):]
        return None

    def is_principal(self, path):
        path = decoded(path.split("?")[0])
        return path in (ROOT, ROOT.rstrip("/"), self.principal, self.principal + "/")

    def request_body(self, body):
        """A request's hrefs (a calendar-multiget's) on the upstream."""
        def swap(match):
            upstream = self.upstream_path(match.group(2).decode())
            if upstream is None:
                return match.group(0)
            return match.group(1) + encode(upstream, False).encode() + match.group(3)
        return HREF.sub(swap, body)

    # -- upstream → client ----------------------------------------------------------------

    def google_path(self, upstream):
        """The Google path (decoded) of an upstream path, or None for a path of no calendar
        of the account."""
        upstream = decoded(upstream)
        for calendar_id, prefix in self.calendars.items():
            if upstream.startswith(prefix) or upstream + "/" == prefix:
                return f"{ROOT}{calendar_id}/events/" + upstream[len(prefix):]
        if upstream == self.upstream_home or upstream + "/" == self.upstream_home:
            return self.home
        return None

    def response_body(self, body, kind):
        """An upstream multistatus in Google's shape: hrefs rewritten and spelled for `kind`
        (`propfind`, `query`, `multiget`, `sync`), responses about no calendar of the account
        (another collection in the upstream home) left out."""
        pieces, last, index = [], 0, 0
        for opened in RESPONSE_OPEN.finditer(body):
            if opened.start() < last:
                continue
            closed = RESPONSE_CLOSE.search(body, opened.end())
            end = closed.end() if closed else len(body)
            pieces.append(body[last:opened.start()])
            response = body[opened.start():end]
            first = HREF.search(response)
            if first is not None and self.google_path(first.group(2).decode()) is not None:
                pieces.append(self.rewrite_hrefs(response, self.at_encoded(kind, index)))
                index += 1
            last = end
        pieces.append(self.rewrite_hrefs(body[last:], self.at_encoded(kind, 0)))
        return b"".join(pieces)

    def at_encoded(self, kind, index):
        if self.spelling == "encoded":
            return True
        if kind == "multiget":
            return False
        if kind == "sync":
            return index % 2 == 0
        return True

    def rewrite_hrefs(self, text, at_encoded):
        def swap(match):
            google = self.google_path(match.group(2).decode())
            if google is None:
                return match.group(0)
            return match.group(1) + encode(google, at_encoded).encode() + match.group(3)
        return HREF.sub(swap, text)

    def principal_answer(self, path):
        """The multistatus a PROPFIND Depth 0 of the root or the principal gets."""
        plain = self.spelling == "mixed"
        is_root = decoded(path.split("?")[0]).rstrip("/") == ROOT.rstrip("/")
        kind = "<D:collection/>" if is_root else "<D:principal/>"
        return (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:response>'
            f"<D:href>{encode(decoded(path.split('?')[0]), not plain)}</D:href><D:propstat><D:prop>"
            f"<D:resourcetype>{kind}</D:resourcetype>"
            f"<D:displayname>{self.account}</D:displayname>"
            f"<D:current-user-principal><D:href>{encode(self.principal, not plain)}</D:href>"
            "</D:current-user-principal>"
            f"<C:calendar-home-set><D:href>{encode(self.home, True)}</D:href></C:calendar-home-set>"
            f"<D:principal-URL><D:href>{encode(self.principal, not plain)}</D:href></D:principal-URL>"
            "</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>\n"
        ).encode()


def answer_kind(method, body):
    """Which kind of answer a request gets, for the spelling of its hrefs."""
    if method == "REPORT" and b"sync-collection" in body:
        return "sync"
    if method == "REPORT" and b"calendar-multiget" in body:
        return "multiget"
    if method == "REPORT":
        return "query"
    return "propfind"


def parse_calendar(value):
    """`ID=UPSTREAM_PATH` of --google-calendar."""
    calendar_id, sep, path = value.partition("=")
    if not sep or not path.startswith("/"):
        raise SystemExit(f"--google-calendar wants ID=/upstream/path/, got {value!r}")
    return calendar_id, path if path.endswith("/") else path + "/"
