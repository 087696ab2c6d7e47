"""The Graph v1.0 calendar routes: a request in, (status, headers, JSON body) out.

`dispatch` knows nothing of sockets, so `$batch` runs its sub-requests through it too.
Paths are under /v1.0/me (and /v1.0/users/{the mailbox's id or address}, the same mailbox);
/me/calendar names the default calendar. Query option names are case-insensitive, as
Graph's are. What each route does is in README.md, with the documentation page it follows.
"""

import datetime as dt
import re
import urllib.parse

from . import render, zones
from .delta import window
from .errors import GraphError, bad_request, not_found
from .mailbox import Instance

PAGE = 10
# The most events a page holds, whatever `$top` or `Prefer: odata.maxpagesize` asks: Outlook's
# limit on a listing (1,000, as Exchange's FindItem policy limit); more is cut to it.
MAX_PAGE = 1000
RESPONSES = ("accept", "tentativelyAccept", "decline")


class Request:
    def __init__(self, method, target, headers, body, base_url):
        parts = urllib.parse.urlsplit(target)
        self.method = method.upper()
        self.path = parts.path
        self.params = {k.lower(): v for k, v in urllib.parse.parse_qsl(parts.query, keep_blank_values=True)}
        self.headers = {k.lower(): v for k, v in headers.items()}
        self.body = body
        self.base_url = base_url
        self.prefer = parse_prefer(self.headers.get("prefer", ""))

    def header(self, name):
        return self.headers.get(name.lower())


def parse_prefer(text):
    """Prefer preferences, names lower-cased, quotes dropped (RFC 7240)."""
    out = {}
    for name, value in re.findall(r'([\w.-]+)\s*=\s*("[^"]*"|[^,;\s]+)', text):
        out[name.lower()] = value.strip('"')
    return out


def split_top(text):
    """Comma-separated items, commas inside parentheses kept."""
    items, depth, current = [], 0, ""
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            items.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        items.append(current.strip())
    return items


def parse_expand(text):
    out = {}
    for item in split_top(text or ""):
        # An extended property's $filter names one id, or several joined by `or` (as DavMail's
        # GraphRequestBuilder asks for its properties in one request).
        match = re.fullmatch(r"(\w+)(?:\(\$filter=\s*(id\s+eq\s+'[^']*'(?:\s+or\s+id\s+eq\s+'[^']*')*)\s*\))?", item)
        if not match:
            raise bad_request(f"The $expand option '{item}' is not supported.", "ErrorInvalidUrlQuery")
        name, filt = match.groups()
        if name == "singleValueExtendedProperties" and filt is None:
            raise bad_request("Expanding singleValueExtendedProperties requires $filter=id eq '...'.",
                              "ErrorInvalidUrlQuery")
        out[name] = {v.strip().lower() for v in re.findall(r"'([^']*)'", filt)} if filt else None
    return out


COMMIT_STAMP = "SystemTime 0x670A"


class Api:
    def __init__(self, mailbox, delta):
        self.mailbox = mailbox
        self.delta = delta

    # --- entry ---------------------------------------------------------------------------

    def dispatch(self, req):
        """(status, headers, body) for one request; GraphError for an error answer."""
        path = re.sub(r"^/v1\.0", "", req.path)
        path = self._me(path)
        # The SDKs call functions with OData's parentheses ("calendarView/delta()"), as Graph allows.
        segments = [re.sub(r"\(\)$", "", urllib.parse.unquote(s)) for s in path.strip("/").split("/") if s]
        applied, view = self._view(req)
        status, headers, body = self._route(req, segments, view)
        if (applied or headers.get("_applied")) and body is not None:
            headers = dict(headers)
            headers["Preference-Applied"] = ", ".join(applied + headers.get("_applied", []))
        headers.pop("_applied", None)
        return status, headers, body

    def _me(self, path):
        match = re.match(r"^/users/([^/]+)(/.*)?$", path)
        if match:
            who = urllib.parse.unquote(match.group(1)).lower()
            if who not in (self.mailbox.user_id, self.mailbox.owner["address"].lower()):
                raise not_found(f"User '{who}' was not found.")
            return "/me" + (match.group(2) or "")
        return path

    def _view(self, req):
        applied = []
        zone_name = req.prefer.get("outlook.timezone")
        try:
            zones.zone(zone_name) if zone_name else None
        except zones.ZoneError:
            zone_name = None
        if zone_name:
            applied.append(f'outlook.timezone="{zone_name}"')
        body_type = req.prefer.get("outlook.body-content-type", "html").lower()
        if "outlook.body-content-type" in req.prefer:
            applied.append(f'outlook.body-content-type="{body_type}"')
        if req.prefer.get("idtype", "").lower() == "immutableid":
            applied.append('IdType="ImmutableId"')
        select = set(s.strip() for s in req.params["$select"].split(",")) if "$select" in req.params else None
        return applied, render.View(zone_name or "UTC", body_type, select, parse_expand(req.params.get("$expand")))

    # --- routing -------------------------------------------------------------------------

    def _route(self, req, seg, view):
        m = req.method
        if seg == ["$batch"] and m == "POST":
            raise GraphError(500, "InternalError", "$batch is handled by the server")
        if not seg or seg[0] != "me":
            raise bad_request(f"Resource not found for the segment '{seg[0] if seg else ''}'.", "BadRequest")
        rest = seg[1:]
        if not rest and m == "GET":
            return 200, {}, self._me_json(req)
        if rest[:1] == ["calendars"] and len(rest) == 1:
            if m == "GET":
                cals = [render.calendar_json(c) for c in self.mailbox.calendars.values()]
                return 200, {}, {"@odata.context": f"{req.base_url}/$metadata#me/calendars", "value": cals}
            if m == "POST":
                made = render.calendar_json(self.mailbox.add_calendar(self._calendar_spec(req.body)))
                if getattr(req, "calendar_id_changes", lambda: False)():
                    made["id"] = self.mailbox.alias_calendar(made["id"])
                return 201, {}, made
        if rest in (["calendar", "getSchedule"], ["calendar", "getschedule"]) and m == "POST":
            return 200, {}, self._get_schedule(req)
        cal_id, rest = self._calendar_prefix(rest)
        if cal_id is not None and not rest and m == "GET":
            return 200, {}, self._calendar(req, cal_id, view)
        if cal_id is not None and not rest and m == "DELETE" and seg[1:2] == ["calendars"]:
            self.mailbox.delete_calendar(cal_id)
            return 204, {}, None
        if rest[:1] == ["calendarView"]:
            return self._calendar_view(req, cal_id, rest[1:], view)
        if rest[:1] == ["events"]:
            return self._events(req, cal_id, rest[1:], view)
        raise bad_request(f"Resource not found for the segment '{'/'.join(seg)}'.", "BadRequest")

    def _get_schedule(self, req):
        """POST /me/calendar/getSchedule (docs: api/calendar-getschedule.md): for each address of
        `schedules`, its scheduleItems overlapping [startTime, endTime) with their status
        (free, tentative, busy, oof, workingElsewhere), in the request's startTime zone (UTC
        here), and an availabilityView of one digit per `availabilityViewInterval` minutes
        (0 free, 1 tentative, 2 busy, 3 oof, 4 working elsewhere). The people of other
        mailboxes are those /_fake/schedules set; anyone else is answered, in the same list,
        with an `error` (freeBusyError: message, responseCode 5009) instead of items, as Graph
        answers an address it cannot resolve (microsoft-graph-docs #11225). Parameter names are
        taken in any case: users send `Schedules`, `StartTime` (microsoft-graph-docs #4494,
        msgraph-sdk-javascript #215), and so does msgraph-sdk-python."""
        # Action parameters are read whatever their case: msgraph-sdk-python sends `Schedules`,
        # `StartTime` (its generated request body), and Graph takes them.
        body = {str(k).lower(): v for k, v in req.body.items()} if isinstance(req.body, dict) else {}
        people = body.get("schedules")
        if not isinstance(people, list) or not people:
            raise bad_request("The schedules property must name at least one address.", "ErrorInvalidParameter")
        if len(people) > 100:
            raise bad_request("At most 100 schedules may be asked at once.", "ErrorInvalidParameter")
        try:
            start = dt.datetime.fromisoformat(body["starttime"]["dateTime"][:19]).replace(tzinfo=dt.timezone.utc)
            end = dt.datetime.fromisoformat(body["endtime"]["dateTime"][:19]).replace(tzinfo=dt.timezone.utc)
        except (KeyError, TypeError, ValueError):
            raise bad_request("startTime and endTime need a dateTime and a timeZone.", "ErrorInvalidParameter")
        interval = int(body.get("availabilityviewinterval") or 30)
        codes = {"free": "0", "tentative": "1", "busy": "2", "oof": "3", "workingElsewhere": "4"}
        out = []
        for address in people:
            items = self.mailbox.schedules.get(str(address).lower())
            if items is None:
                # As a user reports it (microsoft-graph-docs #11225): status 200, the address
                # with an error of its own and nothing else.
                out.append({"scheduleId": address, "error": {
                    "message": f"Unable to resolve e-mail address {address} to an Active Directory object.",
                    "responseCode": "5009"}})
                continue
            chosen = []
            for item in items:
                a = dt.datetime.fromisoformat(item["start"]).replace(tzinfo=dt.timezone.utc)
                b = dt.datetime.fromisoformat(item["end"]).replace(tzinfo=dt.timezone.utc)
                if b > start and a < end:
                    chosen.append((a, b, item.get("status", "busy")))
            view, t = "", start
            while t < end:
                u = t + dt.timedelta(minutes=interval)
                states = [codes.get(s, "2") for a, b, s in chosen if b > t and a < u]
                view += max(states) if states else "0"
                t = u
            out.append({"scheduleId": address, "availabilityView": view, "scheduleItems": [
                {"isPrivate": False, "status": s,
                 "start": {"dateTime": a.strftime("%Y-%m-%dT%H:%M:%S.0000000"), "timeZone": "UTC"},
                 "end": {"dateTime": b.strftime("%Y-%m-%dT%H:%M:%S.0000000"), "timeZone": "UTC"}}
                for a, b, s in chosen], "workingHours": {}})
        return {"@odata.context": f"{req.base_url}/$metadata#Collection(microsoft.graph.scheduleInformation)",
                "value": out}

    def _calendar(self, req, cal_id, view):
        """A calendar, with the folder's MAPI properties asked by `$expand=singleValueExtendedProperties(…)`:
        only `SystemTime 0x670A` (PR_LOCAL_COMMIT_TIME_MAX, when anything in the folder was last
        written; DavMail reads it as a ctag) is held, unless the commitStamp setting is 0."""
        out = render.calendar_json(self.mailbox.calendar(cal_id))
        wanted = view.expand.get("singleValueExtendedProperties", set()) if "singleValueExtendedProperties" in view.expand \
            else set()
        if COMMIT_STAMP.lower() in (wanted or set()) and getattr(req, "commit_stamp", True):
            out["singleValueExtendedProperties"] = [{"id": COMMIT_STAMP, "value": self.mailbox.commit_stamp(cal_id)}]
        return out

    def _calendar_prefix(self, rest):
        """(calendar id or None for 'all of the mailbox', the segments after it)."""
        if rest[:1] == ["calendar"]:
            return self.mailbox.calendar(None)["id"], rest[1:]
        if rest[:1] == ["calendars"] and len(rest) >= 2:
            return self.mailbox.calendar(rest[1])["id"], rest[2:]
        return None, rest

    def _me_json(self, req):
        owner = self.mailbox.owner
        return {"@odata.context": f"{req.base_url}/$metadata#users/$entity", "id": self.mailbox.user_id,
                "displayName": owner["name"], "mail": owner["address"], "userPrincipalName": owner["address"]}

    @staticmethod
    def _calendar_spec(body):
        if not isinstance(body, dict) or not body.get("name"):
            raise bad_request("A calendar needs a name.")
        return {k: v for k, v in body.items() if k in ("name", "color")}

    # --- calendarView ---------------------------------------------------------------------

    def _calendar_view(self, req, cal_id, rest, view):
        cal_id = cal_id or self.mailbox.calendar(None)["id"]
        if req.method != "GET":
            raise GraphError(405, "ErrorInvalidRequest", "The method is not allowed on calendarView.")
        link_base = req.base_url + re.sub(r"^/v1\.0", "", req.path)
        size = self._page_size(req)
        if rest == ["delta"]:
            endless = getattr(req, "endless_page", lambda: None)()
            body = self.delta.get(cal_id, req.params, view, size, link_base, repeat=self._repeat(req),
                                  endless=endless)
            return 200, {"_applied": [f"odata.maxpagesize={min(size, MAX_PAGE)}"] if size else []}, body
        if rest:
            raise bad_request("Resource not found for the segment.", "BadRequest")
        start, end = window(req.params)
        items = self.mailbox.view(cal_id, start, end)
        return self._page(req, items, view, link_base)

    def _repeat(self, req):
        return "$skiptoken" in req.params and getattr(req, "repeat_page", lambda: False)()

    @staticmethod
    def _page_size(req):
        value = req.prefer.get("odata.maxpagesize")
        return int(value) if value and value.isdigit() and int(value) > 0 else None

    def _page(self, req, items, view, link_base):
        """A page of `items`: `$top` long (else `Prefer: odata.maxpagesize`, else 10), at most
        1,000; the next page's link carries `$skip` and the other options verbatim."""
        asked = req.params.get("$top")
        if asked is not None and not (asked.isdigit() and int(asked) > 0):
            raise bad_request(f"The value '{asked}' of $top is not valid.", "ErrorInvalidUrlQuery")
        top = min(int(asked) if asked else self._page_size(req) or PAGE, MAX_PAGE)
        skip = int(req.params.get("$skip", 0))
        with self.mailbox.lock:
            value = [render.event_json(self.mailbox, item, view, req.base_url) for item in items[skip:skip + top]]
        body = {"@odata.context": f"{req.base_url}/$metadata#Collection(event)", "value": value}
        if skip + top < len(items):
            params = dict(req.params)
            params["$skip"] = str(skip + top)
            body["@odata.nextLink"] = f"{link_base}?{urllib.parse.urlencode(params, safe='$:,')}"
        applied = [f"odata.maxpagesize={top}"] if not asked and self._page_size(req) else []
        return 200, {"_applied": applied}, body

    # --- events ---------------------------------------------------------------------------

    def _events(self, req, cal_id, rest, view):
        m = req.method
        if not rest:
            if m == "POST":
                return self._create(req, cal_id, view)
            if m == "GET":
                return self._list(req, cal_id, view)
        event_id = rest[0]
        if len(rest) == 1:
            if m == "GET":
                with self.mailbox.lock:
                    item = self.mailbox.find(event_id, cal_id)
                    return 200, {}, render.event_json(self.mailbox, item, view, req.base_url)
            if m == "PATCH":
                body = self._json_object(req)
                with self.mailbox.lock:
                    item = self.mailbox.patch(event_id, body, self._if_match(req), cal_id)
                    return 200, {}, render.event_json(self.mailbox, item, view, req.base_url)
            if m == "DELETE":
                self.mailbox.delete(event_id, self._if_match(req), cal_id)
                return 204, {}, None
        action = rest[1] if len(rest) == 2 else None
        if action == "instances" and m == "GET":
            return self._instances(req, event_id, cal_id, view)
        if action == "exceptionOccurrences" and m == "GET":
            return self._exceptions(req, event_id, cal_id, view)
        if action in RESPONSES and m == "POST":
            self.mailbox.respond(event_id, action, self._json_object(req), cal_id)
            return 202, {}, None
        if action == "cancel" and m == "POST":
            self.mailbox.cancel(event_id, self._json_object(req).get("comment"), cal_id)
            return 202, {}, None
        raise bad_request("Resource not found for the segment.", "BadRequest")

    @staticmethod
    def _if_match(req):
        """The request's If-Match; none when the fake is set to ignore it (`honoursIfMatch: 0`:
        whether Graph honours it on events is not documented)."""
        return req.header("If-Match") if getattr(req, "honours_if_match", True) else None

    @staticmethod
    def _json_object(req):
        if not isinstance(req.body, dict):
            raise bad_request("The request body must be a JSON object.", "BadRequest")
        return req.body

    def _create(self, req, cal_id, view):
        body = self._json_object(req)
        event, _ = self.mailbox.create(cal_id, body)
        with self.mailbox.lock:
            return 201, {}, render.event_json(self.mailbox, event, view, req.base_url)

    def _list(self, req, cal_id, view):
        wanted = self._extended_filter(req.params.get("$filter"))
        cal_id = cal_id or self.mailbox.calendar(None)["id"]   # /me/events: the default calendar's
        with self.mailbox.lock:
            items = [e for e in self.mailbox.events.values() if e.calendar_id == cal_id and wanted(e)]
        items.sort(key=lambda e: e.created)
        link_base = req.base_url + re.sub(r"^/v1\.0", "", req.path)
        return self._page(req, items, view, link_base)

    @staticmethod
    def _extended_filter(text):
        """The one $filter Graph clients use on events here: an extended property's id and value."""
        if not text:
            return lambda e: True
        match = re.fullmatch(r"\s*singleValueExtendedProperties/Any\(\s*(\w+)\s*:\s*\1/id\s+eq\s+'([^']*)'"
                             r"(?:\s+and\s+\1/value\s+eq\s+'((?:[^']|'')*)')?\s*\)\s*", text)
        if not match:
            raise bad_request(f"The $filter '{text}' is not supported by this server.", "ErrorInvalidUrlQueryFilter")
        prop_id, value = match.group(2).strip().lower(), match.group(3)
        value = value.replace("''", "'") if value is not None else None

        def wanted(event):
            prop = event.extended.get(prop_id)
            return prop is not None and (value is None or prop["value"] == value)
        return wanted

    def _instances(self, req, event_id, cal_id, view):
        start, end = window(req.params)
        with self.mailbox.lock:
            master = self.mailbox.find(event_id, cal_id)
            if isinstance(master, Instance) or not master.is_series:
                items = []
            else:
                items = self.mailbox.instances(master, start, end)
        link_base = req.base_url + re.sub(r"^/v1\.0", "", req.path)
        return self._page(req, items, view, link_base)

    def _exceptions(self, req, event_id, cal_id, view):
        """A master's exceptionOccurrences, the navigation property listed on its own."""
        with self.mailbox.lock:
            master = self.mailbox.find(event_id, cal_id)
            items = [] if isinstance(master, Instance) else [Instance(master, d) for d in sorted(master.exceptions)]
        link_base = req.base_url + re.sub(r"^/v1\.0", "", req.path)
        return self._page(req, items, view, link_base)
