"""One mailbox's calendars and events, and every write Graph allows on them.

All state sits behind one lock. A version counter goes up by one on every write and is
stamped on what changed (an event, an exception, a deletion), so delta rounds can tell what
happened since a token was given out. Mails Graph would have sent go to `ledger` (see
ledger.py); the rules for which write sends which mail are in README.md.
"""

import base64
import datetime as dt
import os
import re
import threading

from . import events, recurrence, zones
from .errors import access_denied, bad_request, not_found, stale_change_key
from .ledger import Ledger

EXTENDED_ID = re.compile(r"^(String|Integer|Boolean|SystemTime|Binary|Long|Double|Float|Currency|CLSID|Short)"
                         r"\s+(\{[0-9a-fA-F-]{36}\}\s+(Name\s+\S.*|Id\s+0x[0-9a-fA-F]+)|0x[0-9a-fA-F]+)$")
TIME_FIELDS = ("start", "end", "isAllDay", "recurrence")
CALENDAR_DEFAULTS = {
    "color": "auto", "hexColor": "", "isDefaultCalendar": False, "canShare": True,
    "canViewPrivateItems": True, "canEdit": True, "isRemovable": True, "isTallyingResponses": True,
    "allowedOnlineMeetingProviders": ["teamsForBusiness"], "defaultOnlineMeetingProvider": "teamsForBusiness",
}


def _calendar_id():
    return "AAMkAGZha2VDQUw" + base64.urlsafe_b64encode(os.urandom(24)).decode() + "AAA="


class Instance:
    """An occurrence or exception of a series: its master and its original date."""

    def __init__(self, master, date):
        self.master = master
        self.date = date
        self.id = events.occurrence_id(master.id, date)

    @property
    def override(self):
        return self.master.exceptions.get(self.date)

    @property
    def change_key(self):
        return self.override.change_key if self.override else self.master.change_key


class Mailbox:
    def __init__(self, owner_name="Alice Example", owner_address="alice@example.org"):
        self.lock = threading.RLock()
        self.owner = {"name": owner_name, "address": owner_address}
        self.user_id = "6e7b768e-07e2-4810-8459-485f84f8f204"
        self.version = 0
        self.clock = None              # a fixed "now" set through /_fake/clock, else real time
        self.calendars = {}
        self.events = {}
        self.deleted = {}              # event id -> (version of its deletion, calendar id)
        self.transactions = set()     # every transactionId used in the mailbox, deleted events' too
        self.moved = {}                # event id -> (version of its move, the calendar it left)
        self.calendar_aliases = {}     # an id POST /me/calendars answered -> the id the calendar lists with
        self.committed = {}            # version -> when it was committed (strictly increasing)
        self.ledger = Ledger()
        self.schedules = {}            # another mailbox's address -> [{"start", "end", "status"}] (getSchedule)
        self.add_calendar({"name": "Calendar", "isDefaultCalendar": True, "isRemovable": False})

    # --- time and versions ---------------------------------------------------------------

    def now(self):
        return self.clock or dt.datetime.now(dt.timezone.utc)

    def bump(self):
        self.version += 1
        last = self.committed.get(self.version - 1)
        now = self.now()
        # Commit times only grow, even under a fixed clock: a folder's stamp moves with each write.
        self.committed[self.version] = max(now, last + dt.timedelta(microseconds=1)) if last else now
        return self.version

    def commit_stamp(self, cal_id):
        """The calendar folder's PR_LOCAL_COMMIT_TIME_MAX (`SystemTime 0x670A`): when anything
        in it was last written (an event made, changed, deleted, moved in or out, an occurrence
        changed or cancelled). DavMail reads it as the folder's ctag (GraphField.java,
        GraphExchangeSession.java buildFolder)."""
        with self.lock:
            versions = [0]
            for event in self.events.values():
                if event.calendar_id == cal_id:
                    versions.append(event.version)
                    versions += [o.version for o in event.exceptions.values()]
            versions += [v for v, cal in self.deleted.values() if cal == cal_id]
            versions += [v for v, cal in self.moved.values() if cal == cal_id]
            latest = max(versions)
            when = self.committed.get(latest) or self.calendars[cal_id].get("_created") or self.now()
            return when.strftime("%Y-%m-%dT%H:%M:%S.%fZ")

    # --- calendars -----------------------------------------------------------------------

    def add_calendar(self, spec):
        with self.lock:
            cal = dict(CALENDAR_DEFAULTS)
            cal.update({"id": _calendar_id(), "name": "Calendar", "owner": dict(self.owner)})
            cal.update({k: v for k, v in spec.items() if k != "id"})
            if not cal.get("canEdit", True):      # shared read-only: a sharee cannot share it on
                cal["canShare"] = spec.get("canShare", False)
            cal["changeKey"] = events.new_change_key()
            cal["_created"] = self.now()
            self.calendars[cal["id"]] = cal
            return cal

    def alias_calendar(self, cal_id):
        """Another id for calendar `cal_id`, which requests take as well, while the calendar
        lists under its own: Graph answers a calendar's creation with an id other than the one
        it lists the calendar by later (microsoft-graph-docs #5580, #4007)."""
        with self.lock:
            alias = cal_id[:-4] + "AQ" + cal_id[-2:] + "=="
            self.calendar_aliases[alias] = cal_id
            return alias

    def delete_calendar(self, cal_id):
        """DELETE /me/calendars/{id} (docs: calendar-delete.md): the calendar and its events go;
        the default one (isRemovable false) cannot. Meetings the owner organizes mail their
        attendees a cancellation, as deleting each would (not documented either way: assumed)."""
        with self.lock:
            cal = self.calendar(cal_id)
            if not cal.get("isRemovable", True):
                raise bad_request("The default calendar cannot be deleted.", "ErrorInvalidRequest")
            self._writable(cal_id)
            for event in [e for e in self.events.values() if e.calendar_id == cal_id]:
                if event.is_organizer and event.props.get("attendees"):
                    self.ledger.mail("cancellation", event, self._addresses(event.props["attendees"]), self.now())
                del self.events[event.id]
                self.deleted[event.id] = (self.bump(), cal_id)
            del self.calendars[cal_id]

    def calendar(self, cal_id):
        if cal_id is None:
            return next(c for c in self.calendars.values() if c.get("isDefaultCalendar"))
        cal = self.calendars.get(self.calendar_aliases.get(cal_id, cal_id))
        if cal is None:
            raise not_found("The specified object was not found in the store.")
        return cal

    def _writable(self, cal_id):
        if not self.calendar(cal_id).get("canEdit", True):
            raise access_denied()

    # --- finding ---------------------------------------------------------------------------

    def find(self, event_id, cal_id=None):
        """The Event or Instance with this id (404 if none, or not in calendar cal_id)."""
        found = self.events.get(event_id)
        if found is None:
            occ = events.parse_occurrence_id(event_id)
            master = self.events.get(occ[0]) if occ else None
            if master is None or not master.is_series or occ[1] in master.cancelled \
                    or occ[1] not in set(recurrence.dates(master.props["recurrence"], until=occ[1])):
                raise not_found()
            found = Instance(master, occ[1])
        owner = found.master if isinstance(found, Instance) else found
        if cal_id is not None and owner.calendar_id != cal_id:
            raise not_found()
        return found

    def by_transaction(self, transaction_id):
        return next((e for e in self.events.values() if e.props.get("_transactionId") == transaction_id), None)

    def _reused_transaction(self, cal_id, transaction_id):
        """The event a create with an already used `transactionId` answers, or the refusal.
        The id is mailbox-wide and single-use: a create sent again to the calendar holding the
        event it made answers that event (201, nothing made: blog.rykoma.net 2020/10/05); one to
        another calendar, or after that event was deleted, is refused 400
        `ErrorDuplicateTransactionId` (corso #2490)."""
        if transaction_id not in self.transactions:
            return None
        event = self.by_transaction(transaction_id)
        if event is not None and event.calendar_id == cal_id:
            return event
        raise bad_request("The transaction id has already been used for another item in the mailbox.",
                          "ErrorDuplicateTransactionId")

    # --- create ---------------------------------------------------------------------------

    def create(self, cal_id, body):
        """(event, created): a repeated transactionId gives the first event back, nothing made."""
        with self.lock:
            cal = self.calendar(cal_id)
            self._writable(cal["id"])
            transaction_id = body.get("transactionId")
            if transaction_id:
                reused = self._reused_transaction(cal["id"], transaction_id)
                if reused is not None:
                    return reused, False
            props = events.merge({}, body)
            extended = self._extended(body.get("singleValueExtendedProperties"))
            event = events.Event(cal["id"], props, {"emailAddress": dict(self.owner)}, self.bump(), self.now())
            if transaction_id:
                props["_transactionId"] = transaction_id
                self.transactions.add(transaction_id)
            events.join_online_meeting(event)
            event.extended.update(extended)
            self.events[event.id] = event
            if props.get("attendees"):
                self.ledger.mail("invitation", event, self._addresses(props["attendees"]), self.now())
            return event, True

    def move(self, event_id, cal_id):
        """Outlook moves the event (a single or a whole series) to calendar `cal_id`: it keeps
        its id (ImmutableId), gets a new change key, and the calendar it left reports it
        `@removed` in its next delta round (outlook-immutable-id.md; event-delta.md)."""
        with self.lock:
            event = self.events.get(event_id)
            if event is None:
                raise not_found()
            self.calendar(cal_id)
            self._writable(cal_id)
            left = event.calendar_id
            if left == cal_id:
                return event
            event.calendar_id = cal_id
            version = self.bump()
            event.touch(version, self.now())
            self.moved[event_id] = (version, left)
            return event

    def deliver(self, cal_id, body, organizer):
        """An invitation from someone else, put in the calendar as Exchange would (control API)."""
        with self.lock:
            cal = self.calendar(cal_id)
            props = events.merge({}, body)
            event = events.Event(cal["id"], props, {"emailAddress": organizer}, self.bump(), self.now())
            event.is_organizer = False
            event.response = {"response": "notResponded", "time": events.NO_TIME}
            events.join_online_meeting(event)
            self.events[event.id] = event
            return event

    def _extended(self, values):
        out = {}
        for prop in values or []:
            pid = (prop or {}).get("id", "")
            if not EXTENDED_ID.match(pid.strip()) or not isinstance(prop.get("value"), str):
                raise bad_request(f"The extended property id '{pid}' is not valid.", "ErrorInvalidProperty")
            out[pid.strip().lower()] = {"id": pid.strip(), "value": prop["value"]}
        return out

    @staticmethod
    def _addresses(attendees):
        return [a["emailAddress"]["address"] for a in attendees or []]

    # --- update ---------------------------------------------------------------------------

    @staticmethod
    def _check_etag(if_match, change_key):
        if if_match is None or if_match.strip() == "*":
            return
        tags = [t.strip() for t in if_match.split(",")]
        if not any(t in (f'W/"{change_key}"', f'"{change_key}"', change_key) for t in tags):
            raise stale_change_key()

    def patch(self, event_id, body, if_match=None, cal_id=None):
        with self.lock:
            found = self.find(event_id, cal_id)
            owner = found.master if isinstance(found, Instance) else found
            self._writable(owner.calendar_id)
            self._check_etag(if_match, found.change_key)
            tid = body.get("transactionId")
            if tid is not None and tid != owner.props.get("_transactionId"):
                raise bad_request("transactionId cannot be changed.", "ErrorInvalidPropertyUpdate")
            if isinstance(found, Instance):
                return self._patch_instance(found, body)
            return self._patch_event(found, body)

    def _patch_event(self, event, body):
        before = event.props
        after = events.merge(before, body)
        extended = self._extended(body.get("singleValueExtendedProperties"))
        retimed = any(after.get(k) != before.get(k) for k in TIME_FIELDS)
        # A master PATCHed with its attendees or times, changed or not, mails its attendees an
        # update once per exception (event-update.md, as issue 64 of the project reads it).
        carried = any(k in body for k in ("attendees", "start", "end", "recurrence"))
        if carried and event.is_series and event.is_organizer and after.get("attendees"):
            for day in sorted(event.exceptions):
                self.ledger.mail("update", event, self._addresses(after["attendees"]), self.now(), occurrence=day)
        # A body written over an online meeting's replaces its join block: the meeting is no
        # longer online unless the new body carries the block (event-update.md).
        events.keep_or_drop_online_meeting(before, after, body)
        if retimed and event.is_series:
            event.exceptions.clear()
            event.cancelled.clear()
        event.props = after
        event.extended.update(extended)
        event.touch(self.bump(), self.now())
        if event.is_organizer:
            self._mail_changes(event, before, after, retimed)
        return event

    def _mail_changes(self, event, before, after, retimed, occurrence=None):
        old = {a.lower() for a in self._addresses(before.get("attendees"))}
        new = self._addresses(after.get("attendees"))
        added = [a for a in new if a.lower() not in old]
        removed = [a for a in self._addresses(before.get("attendees")) if a.lower() not in {n.lower() for n in new}]
        now = self.now()
        if retimed and new:
            self.ledger.mail("update", event, new, now, occurrence=occurrence)
        elif added:
            self.ledger.mail("invitation", event, added, now, occurrence=occurrence)
        if removed:
            self.ledger.mail("cancellation", event, removed, now, occurrence=occurrence)

    def instance_props(self, instance):
        """The properties an occurrence shows: its master's, its own times, its overrides."""
        master = instance.master
        props = {k: v for k, v in master.props.items() if k != "recurrence"}
        start, end = events.occurrence_span(master, instance.date)
        for key, value in (("start", start), ("end", end)):
            name = master.props[key]["timeZone"]
            local = value.astimezone(zones.zone(name)).replace(tzinfo=None)
            props[key] = {"dateTime": local.isoformat(), "timeZone": name}
        props["_originalStart"] = start
        if instance.override:
            props.update(instance.override.props)
        return props

    def _patch_instance(self, instance, body):
        master = instance.master
        before = self.instance_props(instance)
        after = events.merge({k: v for k, v in before.items() if not k.startswith("_")}, body, allow_recurrence=False)
        self._check_crossing(instance, after)
        changed = {k: v for k, v in after.items() if v != master.props.get(k)}
        changed.update({"start": after["start"], "end": after["end"]})
        override = events.Override(changed, self.bump(), self.now())
        master.exceptions[instance.date] = override
        master.touch(override.version, self.now())
        retimed = any(after.get(k) != before.get(k) for k in ("start", "end"))
        if master.is_organizer:
            self._mail_changes(master, before, after, retimed, occurrence=instance.date)
        return instance

    def _check_crossing(self, instance, props):
        """An exception may not move onto or past a neighbour occurrence's day (event-update.md)."""
        master = instance.master
        tz = zones.zone(master.props["recurrence"]["range"]["recurrenceTimeZone"])
        new_day = events.span(props)[0].astimezone(tz).date()
        days = list(recurrence.dates(master.props["recurrence"], until=instance.date + dt.timedelta(days=3660)))
        i = days.index(instance.date)
        if (i > 0 and new_day <= days[i - 1]) or (i + 1 < len(days) and new_day >= days[i + 1]):
            raise bad_request("Cannot move an occurrence onto or past the day of a neighbouring occurrence.",
                              "ErrorOccurrenceCrossingBoundary")

    # --- delete, cancel, answers ----------------------------------------------------------

    def delete(self, event_id, if_match=None, cal_id=None, comment=None, mail=True):
        with self.lock:
            found = self.find(event_id, cal_id)
            owner = found.master if isinstance(found, Instance) else found
            self._writable(owner.calendar_id)
            self._check_etag(if_match, found.change_key)
            props = self.instance_props(found) if isinstance(found, Instance) else owner.props
            if mail and owner.is_organizer and props.get("attendees"):
                self.ledger.mail("cancellation", owner, self._addresses(props["attendees"]), self.now(),
                                 occurrence=getattr(found, "date", None), comment=comment)
            if isinstance(found, Instance):
                owner.exceptions.pop(found.date, None)
                owner.cancelled.add(found.date)
                owner.touch(self.bump(), self.now())
            else:
                del self.events[owner.id]
                self.deleted[owner.id] = (self.bump(), owner.calendar_id)

    def cancel(self, event_id, comment, cal_id=None):
        with self.lock:
            found = self.find(event_id, cal_id)
            owner = found.master if isinstance(found, Instance) else found
            if not owner.is_organizer:
                raise bad_request("Your request can't be completed. You need to be an organizer to cancel a meeting.")
            self.delete(event_id, cal_id=cal_id, comment=comment)

    def respond(self, event_id, answer, body, cal_id=None):
        """accept / tentativelyAccept / decline as an attendee (docs: event-accept.md etc.)."""
        with self.lock:
            found = self.find(event_id, cal_id)
            owner = found.master if isinstance(found, Instance) else found
            if owner.is_organizer:
                raise bad_request("Your request can't be completed. You can't respond to this meeting because you're the meeting organizer.")
            response = {"accept": "accepted", "tentativelyAccept": "tentativelyAccepted", "decline": "declined"}[answer]
            send = body.get("sendResponse", True)
            # An organizer who asked for no answers gets none: sendResponse true is refused;
            # a comment goes only with an answer sent (issue 64 of the project: client reports).
            if send and owner.props.get("responseRequested", True) is False:
                raise bad_request("The organizer did not request a response for this meeting.", "ErrorInvalidRequest")
            if not send and body.get("comment"):
                raise bad_request("A comment can't be sent without a response.", "ErrorInvalidRequest")
            if send:
                self.ledger.mail("response", owner, [owner.organizer["emailAddress"]["address"]], self.now(),
                                 occurrence=getattr(found, "date", None), comment=body.get("comment"), response=response,
                                 sender=self.owner["address"])
            if answer == "decline":
                return self.delete(event_id, cal_id=cal_id, mail=False)
            stamp = {"response": response, "time": zones.graph_timestamp(self.now())}
            if isinstance(found, Instance):
                override = found.override or events.Override({}, 0, self.now())
                override.props["_response"] = stamp
                override.version = self.bump()
                override.change_key = events.new_change_key()
                owner.exceptions[found.date] = override
            else:
                owner.response = stamp
                owner.touch(self.bump(), self.now())

    # --- views ----------------------------------------------------------------------------

    def instances(self, master, start, end):
        """Occurrences and exceptions of a series overlapping [start, end), not cancelled ones."""
        out = []
        until = (end + dt.timedelta(days=2)).date()
        past = 0
        first = start.date() - dt.timedelta(days=3 + (events.span(master.props)[1] - events.span(master.props)[0]).days)
        for day in recurrence.dates(master.props["recurrence"], until=until + dt.timedelta(days=400)):
            if day < first and day not in master.exceptions:
                continue
            past += day > until
            if past > 1:
                break
            if day in master.cancelled:
                continue
            instance = Instance(master, day)
            s, e = events.span(self.instance_props(instance))
            if overlaps(s, e, start, end):
                out.append(instance)
        return out

    def view(self, cal_id, start, end):
        """Everything calendarView shows for a window: single instances, occurrences, exceptions."""
        out = []
        for event in self.events.values():
            if event.calendar_id != cal_id:
                continue
            if event.is_series:
                out.extend(self.instances(event, start, end))
            elif overlaps(*events.span(event.props), start, end):
                out.append(event)
        return sorted(out, key=lambda item: (self.start_of(item), item.id))

    def start_of(self, item):
        props = self.instance_props(item) if isinstance(item, Instance) else item.props
        return events.span(props)[0]


def overlaps(start, end, window_start, window_end):
    if start == end:
        return window_start <= start < window_end
    return start < window_end and end > window_start
