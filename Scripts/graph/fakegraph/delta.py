"""calendarView delta rounds (docs: api/event-delta.md, concepts/delta-query-events.md,
concepts/delta-query-overview.md).

A round starts from a window (startDateTime, endDateTime; required, at most 1825 days) or from
a delta token, and is computed whole when it starts: everything in the window on an initial
round; on a following one, what is new or has a new change key since the token, and an
`@removed: {"reason": "deleted"}` entry for each instance that left the window or was
deleted, and for each event of the calendar changed or deleted outside the window since.
Series masters never appear: single instances, occurrences and exceptions do.
Pages of `Prefer: odata.maxpagesize` (default 10, at most 1,000) link with `$skiptoken`; the last page gives a
`$deltatoken` link. Tokens are opaque (base64 of the window and a server-side key), bound to
the calendar and window; the state they name lives in memory until /_fake/delta/expire (or a
fault) forgets it, after which the token answers 410 syncStateNotFound with a Location of the
initial query. Tokens may be replayed.
"""

import base64
import datetime as dt
import json
import os
import threading
import urllib.parse

from . import events, render, zones
from .errors import GraphError, bad_request

DEFAULT_PAGE = 10
MAX_PAGE = 1000     # as a listing's (api.MAX_PAGE): a larger odata.maxpagesize is cut to it
MAX_DAYS = 1825
UNSUPPORTED = ("$select", "$expand", "$filter", "$orderby", "$search", "$top", "$skip", "$count")


def encode(data):
    return base64.urlsafe_b64encode(json.dumps(data, separators=(",", ":")).encode()).decode().rstrip("=")


def decode(token):
    try:
        return json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
    except ValueError:
        return None


def window(params):
    """The (start, end) UTC window of a request, checked as Graph checks it."""
    start, end = params.get("startdatetime"), params.get("enddatetime")
    if not start or not end:
        raise bad_request("This request requires a time window specified by the query string parameters "
                          "StartDateTime and EndDateTime.", "ErrorInvalidParameter")
    try:
        start, end = zones.parse_window_bound(start), zones.parse_window_bound(end)
    except (ValueError, AttributeError):
        raise bad_request("StartDateTime and EndDateTime must be ISO 8601 date-times.", "ErrorInvalidParameter")
    if end <= start:
        raise bad_request("The value of EndDateTime must be later than StartDateTime.", "ErrorInvalidParameter")
    if end - start > dt.timedelta(days=MAX_DAYS):
        raise bad_request("The time range for the calendar view is too large. Maximum number of days: 1825",
                          "ErrorInvalidRequest")
    return start, end


class DeltaService:
    def __init__(self, mailbox):
        self.mailbox = mailbox
        self.lock = threading.Lock()
        self.states = {}    # key -> {"cal", "version", "snapshot": {id: changeKey}}
        self.rounds = {}    # key -> {"items": [...], "state": key, "page": n}
        # How an expired link is refused: Graph writes it 410 syncStateNotFound, 410
        # SyncStateNotFound or 400 fullSyncRequired (event-delta.md; delta-query-overview.md).
        self.gone_answer = (410, "syncStateNotFound")

    def expire(self, answer=None):
        """Forgets every delta state; `answer` ({"status", "code"}) sets how the expired links
        are refused from now on."""
        with self.lock:
            self.states.clear()
            self.rounds.clear()
            if isinstance(answer, dict) and answer:
                self.gone_answer = (int(answer.get("status", 410)), str(answer.get("code", "syncStateNotFound")))

    def _gone(self, link_base, data):
        headers = {}
        if data and "s" in data:
            query = urllib.parse.urlencode({"startDateTime": data["s"], "endDateTime": data["e"]})
            headers["Location"] = f"{link_base}?{query}"
        status, code = self.gone_answer
        return GraphError(status, code,
                          "The sync state was not found or has expired. Start a new synchronization "
                          "without a token.", headers)

    def get(self, cal_id, params, view, page_size, link_base, repeat=False, endless=None):
        """One page of a round: (JSON body, page size applied or None). `endless` (a fault
        rule) makes the page link on to itself under a new link, as Graph does on some
        mailboxes: the round never ends."""
        skip, delta = params.get("$skiptoken"), params.get("$deltatoken")
        unsupported = [p for p in params if p in UNSUPPORTED]
        if unsupported:
            raise bad_request(f"The query parameter '{unsupported[0]}' is not supported with delta.",
                              "ErrorInvalidParameter")
        if (skip or delta) and ("startdatetime" in params or "enddatetime" in params):
            raise bad_request("A state token already holds the window: follow the link as given.",
                              "ErrorInvalidParameter")
        if skip:
            return self._page(cal_id, skip, page_size, link_base, repeat, endless)
        if delta:
            data = decode(delta)
            with self.lock:
                state = self.states.get(data.get("k")) if data else None
            if state is None or state["cal"] != cal_id:
                raise self._gone(link_base, data)
            start, end = zones.parse_window_bound(data["s"]), zones.parse_window_bound(data["e"])
            key = self._start_round(cal_id, start, end, data["s"], data["e"], view, state)
        else:
            start, end = window(params)
            key = self._start_round(cal_id, start, end, params["startdatetime"], params["enddatetime"], view, None)
        with self.lock:
            first = self.rounds[key]
        return self._page(cal_id, encode({"r": key, "o": 0, "s": first["s"], "e": first["e"]}), page_size, link_base,
                          False, endless)

    def _start_round(self, cal_id, start, end, start_text, end_text, view, previous):
        mailbox = self.mailbox
        with mailbox.lock:
            current = {item.id: item for item in mailbox.view(cal_id, start, end)}
            snapshot = {i: _mark(item) for i, item in current.items()}
            seen = previous["snapshot"] if previous else {}
            items = [_entry(render.event_json(mailbox, item, view, ""), item) for i, item in current.items()
                     if seen.get(i) != snapshot[i]]
            # An occurrence deleted in Outlook leaves no trace in delta while its series lives
            # (docs PR #4501): only the master's change key says so.
            removed = [i for i in seen if i not in current 
                       and not _occurrence_of_live_series(mailbox, i)]
            if previous:
                removed += self._changed_outside(cal_id, previous["version"], current, seen)
            version = mailbox.version
        items += [{"@odata.type": "#microsoft.graph.event", "id": i, "@removed": {"reason": "deleted"}}
                  for i in removed]
        for item in items:
            item.setdefault("@odata.type", "#microsoft.graph.event")
        state_key, round_key = os.urandom(12).hex(), os.urandom(12).hex()
        with self.lock:
            self.states[state_key] = {"cal": cal_id, "version": version, "snapshot": snapshot,
                                      "s": start_text, "e": end_text}
            self.rounds[round_key] = {"items": items, "state": state_key, "s": start_text, "e": end_text}
        return round_key

    def _changed_outside(self, cal_id, since, current, seen):
        """Events of the calendar written or deleted since `since` that show nowhere in the
        window (a series none of whose instances does): Graph reports them as removed too
        (event-delta.md)."""
        mailbox = self.mailbox
        shown = set(current) | {getattr(item, "master", item).id for item in current.values()}
        out = [e.id for e in mailbox.events.values()
               if e.calendar_id == cal_id and e.version > since and e.id not in shown and e.id not in seen]
        out += [i for i, (version, cal) in mailbox.deleted.items()
                if cal == cal_id and version > since and i not in seen]
        # Moved to another calendar: gone from this one's view, wherever it was.
        out += [i for i, (version, cal) in mailbox.moved.items()
                if cal == cal_id and version > since and i not in seen and i not in current and i not in out]
        return out

    def _page(self, cal_id, skip, page_size, link_base, repeat, endless=None):
        data = decode(skip)
        with self.lock:
            round_ = self.rounds.get(data.get("r")) if data else None
        if round_ is None or self.states.get(round_["state"], {}).get("cal") != cal_id:
            raise self._gone(link_base, round_ or data)
        size = min(page_size or DEFAULT_PAGE, MAX_PAGE)
        offset = data["o"]
        page = round_["items"][offset:offset + size]
        if endless and endless.get("empty"):
            page = []
        body = {"@odata.context": f"{link_base.split('/me/')[0]}/$metadata#Collection(event)", "value": page}
        if endless:
            token = encode({"r": data["r"], "o": offset, "s": round_["s"], "e": round_["e"], "n": os.urandom(6).hex()})
            body["@odata.nextLink"] = f"{link_base}?$skiptoken={token}"
        elif repeat:
            body["@odata.nextLink"] = f"{link_base}?$skiptoken={skip}"
        elif offset + size < len(round_["items"]):
            token = encode({"r": data["r"], "o": offset + size, "s": round_["s"], "e": round_["e"]})
            body["@odata.nextLink"] = f"{link_base}?$skiptoken={token}"
        else:
            token = encode({"k": round_["state"], "s": round_["s"], "e": round_["e"]})
            body["@odata.deltaLink"] = f"{link_base}?$deltatoken={token}"
        return body


def _plain_occurrence(item):
    """Whether `item` is an occurrence of a series that nobody changed (not an exception)."""
    return getattr(item, "master", None) is not None and getattr(item, "override", None) is None


def _mark(item):
    """What tells a delta round that `item` changed: its change key; for a plain occurrence,
    which Graph lists as a stub, its times alone (a change to the master elsewhere does not
    list its occurrences again)."""
    if _plain_occurrence(item):
        start, end = events.occurrence_span(item.master, item.date)
        return f"occurrence:{start.isoformat()}|{end.isoformat()}"
    return item.change_key


def _entry(full, item):
    """A delta entry: an occurrence is a stub of `@odata.etag`, `id`, `type`, `seriesMasterId`,
    `start` and `end` (docs-contrib #5602); anything else whole."""
    if not _plain_occurrence(item):
        return full
    return {k: full[k] for k in ("@odata.etag", "id", "type", "seriesMasterId", "start", "end") if k in full}


def _occurrence_of_live_series(mailbox, event_id):
    """Whether `event_id` is an occurrence deleted (cancelled) in a series that lives on."""
    parsed = events.parse_occurrence_id(event_id)
    master = mailbox.events.get(parsed[0]) if parsed else None
    return master is not None and parsed[1] in getattr(master, "cancelled", ())
