"""Stored events: what a POST or PATCH body becomes, and where a series' occurrences fall.

An `Event` is a single instance or a series master. A master keeps its exceptions (partial
property overrides, keyed by the occurrence's original date) and its cancelled dates; an
occurrence is never stored, it is computed from the master (docs: resources/event.md,
concepts/outlook-schedule-recurring-events.md). Ids are URL-safe base64 as Graph's REST ids;
an occurrence's id encodes its master's id and its original date, so it needs no table.
"""

import base64
import datetime as dt
import html
import os

from . import recurrence, zones
from .errors import bad_request

WRITABLE = {
    "subject", "body", "start", "end", "isAllDay", "location", "locations", "attendees", "categories",
    "importance", "sensitivity", "showAs", "isReminderOn", "reminderMinutesBeforeStart", "recurrence",
    "responseRequested", "allowNewTimeProposals", "hideAttendees", "isOnlineMeeting",
    "onlineMeetingProvider", "transactionId", "singleValueExtendedProperties", "isDraft",
}
# Read-only properties a client may echo back from a read; taken and ignored.
IGNORED = {
    "@odata.etag", "@odata.type", "@odata.context", "id", "changeKey", "createdDateTime",
    "lastModifiedDateTime", "iCalUId", "type", "seriesMasterId", "originalStart", "webLink",
    "bodyPreview", "hasAttachments", "isOrganizer", "organizer", "isCancelled", "originalStartTimeZone",
    "originalEndTimeZone", "onlineMeetingUrl", "onlineMeeting", "occurrenceId", "uid",
}
ENUMS = {
    "importance": {"low", "normal", "high"},
    "sensitivity": {"normal", "personal", "private", "confidential"},
    "showAs": {"free", "tentative", "busy", "oof", "workingElsewhere", "unknown"},
}
ATTENDEE_TYPES = {"required", "optional", "resource"}
GOID_CLASS = "040000008200E00074C5B7101A82E008"
NO_TIME = "0001-01-01T00:00:00Z"


def new_id():
    return "AAMkAGZha2U" + base64.urlsafe_b64encode(os.urandom(30)).decode() + "AAA="


def new_change_key():
    return base64.b64encode(os.urandom(21)).decode()


def new_goid():
    """The hex GlobalObjectId Graph shows as iCalUId, instance date zero (docs: event iCalUId)."""
    return GOID_CLASS + "00000000" + "0" * 32 + "10000000" + os.urandom(16).hex().upper()


def instance_goid(goid, date):
    """A series' GlobalObjectId with an occurrence's date in bytes 16-19, different per occurrence."""
    stamp = f"{date.year:04X}{date.month:02X}{date.day:02X}"
    return goid[:32] + stamp + goid[40:]


def occurrence_id(master_id, date):
    raw = f"occ\0{master_id}\0{date.isoformat()}".encode()
    return "AAMkAGZha2VPQ0M" + base64.urlsafe_b64encode(raw).decode()


def parse_occurrence_id(event_id):
    """(master id, date) for an occurrence id, else None."""
    if not event_id.startswith("AAMkAGZha2VPQ0M"):
        return None
    try:
        tag, master, date = base64.urlsafe_b64decode(event_id[15:]).decode().split("\0")
        return master, dt.date.fromisoformat(date)
    except (ValueError, UnicodeDecodeError):
        return None


class Override:
    """An exception: the properties changed on one occurrence, and its own change key."""

    def __init__(self, props, version, now):
        self.props = props
        self.change_key = new_change_key()
        self.version = version
        self.modified = now


class Event:
    """A single instance or a series master as stored."""

    def __init__(self, calendar_id, props, organizer, version, now):
        self.id = new_id()
        self.calendar_id = calendar_id
        self.props = props
        self.extended = {}          # lower-cased id -> {"id", "value"}
        self.change_key = new_change_key()
        self.ical_uid = new_goid()
        self.created = self.modified = now
        self.version = version
        self.organizer = organizer  # {"emailAddress": {...}}
        self.is_organizer = True
        self.response = {"response": "organizer", "time": NO_TIME}
        self.exceptions = {}        # date -> Override
        self.cancelled = set()      # dates

    @property
    def is_series(self):
        return bool(self.props.get("recurrence"))

    def touch(self, version, now):
        self.change_key = new_change_key()
        self.version = version
        self.modified = now


def _check_time(value, field, all_day):
    if not isinstance(value, dict) or "dateTime" not in value:
        raise bad_request(f"Property {field} requires a dateTime and a timeZone.")
    name = value.get("timeZone") or "UTC"
    try:
        tz = zones.zone(name)
        local = zones.parse_local(value["dateTime"])
    except zones.ZoneError:
        raise bad_request(f"A valid TimeZone value must be specified. The following TimeZone value is not supported: '{name}'.",
                          "TimeZoneNotSupportedException")
    except ValueError:
        raise bad_request(f"Cannot convert the literal '{value['dateTime']}' to the expected type 'Edm.DateTime'.")
    if all_day and local.time() != dt.time(0):
        raise bad_request("The start and end of an all-day event must be set to midnight.")
    return {"dateTime": local.isoformat(), "timeZone": name}, tz


def _check_enums(props):
    for field, allowed in ENUMS.items():
        if field in props and props[field] not in allowed:
            raise bad_request(f"The value '{props[field]}' is not valid for property '{field}'.", "RequestBodyRead")
    for attendee in props.get("attendees") or []:
        if not isinstance(attendee, dict) or not (attendee.get("emailAddress") or {}).get("address"):
            raise bad_request("An attendee needs an emailAddress with an address.")
        if attendee.get("type", "required") not in ATTENDEE_TYPES:
            raise bad_request(f"The value '{attendee.get('type')}' is not valid for attendee type.", "RequestBodyRead")


def _locations(props, changes):
    """`location` replaces `locations` and the reverse (docs: event-update.md)."""
    if "location" in changes:
        loc = changes["location"] or {}
        props["locations"] = [loc] if loc.get("displayName") else []
    elif "locations" in changes:
        names = [l.get("displayName", "") for l in changes["locations"] or []]
        props["location"] = {"displayName": "; ".join(n for n in names if n)} if names else {}


def _attendees(attendees, previous):
    """Attendees as stored: each with a status, kept from before for the same address."""
    known = {a["emailAddress"]["address"].lower(): a.get("status") for a in previous or []}
    out = []
    for attendee in attendees or []:
        address = attendee["emailAddress"]["address"]
        status = known.get(address.lower()) or {"response": "none", "time": NO_TIME}
        out.append({"type": attendee.get("type", "required"), "status": status,
                    "emailAddress": {"name": attendee["emailAddress"].get("name", address), "address": address}})
    return out


def merge(previous, changes, allow_recurrence=True):
    """The stored properties after a POST (previous = {}) or a PATCH: a partial merge, checked
    as Graph checks it. BadRequest (GraphError 400) if Graph would refuse it."""
    unknown = [k for k in changes if k not in WRITABLE and k not in IGNORED and k != "responseStatus"]
    if unknown:
        raise bad_request(f"The property '{unknown[0]}' does not exist on type 'microsoft.graph.event'. "
                          "Make sure to only use property names that are defined by the type.", "RequestBodyRead")
    if "responseStatus" in changes:
        raise bad_request("responseStatus is read-only: answer with accept, tentativelyAccept or decline.",
                          "ErrorInvalidPropertyUpdate")
    if "recurrence" in changes and changes["recurrence"] and not allow_recurrence:
        raise bad_request("An occurrence or exception cannot have a recurrence.")
    props = dict(previous)
    for key, value in changes.items():
        if key in WRITABLE and key not in ("singleValueExtendedProperties", "transactionId"):
            props[key] = value
    _check_enums(props)
    all_day = bool(props.get("isAllDay"))
    if "start" not in props or "end" not in props:
        raise bad_request("An event needs a start and an end.")
    props["start"], start_tz = _check_time(props["start"], "start", all_day)
    props["end"], end_tz = _check_time(props["end"], "end", all_day)
    start, end = zones.to_utc(zones.parse_local(props["start"]["dateTime"]), start_tz), \
        zones.to_utc(zones.parse_local(props["end"]["dateTime"]), end_tz)
    if end < start:
        raise bad_request("The end of an event must not be before its start.")
    if all_day and (props["start"]["timeZone"] != props["end"]["timeZone"] or end == start):
        raise bad_request("The start and end of an all-day event must be midnights in the same time zone, a day or more apart.")
    if "attendees" in changes:
        props["attendees"] = _attendees(changes["attendees"], previous.get("attendees"))
    _locations(props, changes)
    if props.get("recurrence"):
        start_date = zones.parse_local(props["start"]["dateTime"]).date()
        try:
            props["recurrence"] = recurrence.normalize(props["recurrence"], start_date, props["start"]["timeZone"])
            zones.zone(props["recurrence"]["range"]["recurrenceTimeZone"])
        except recurrence.RecurrenceError as error:
            raise bad_request(str(error))
        except zones.ZoneError:
            raise bad_request("The recurrence time zone is not supported.", "TimeZoneNotSupportedException")
    return props


def span(props):
    """(start, end) as aware UTC datetimes; an all-day event's midnights in its own zone."""
    start = zones.to_utc(zones.parse_local(props["start"]["dateTime"]), zones.zone(props["start"]["timeZone"]))
    end = zones.to_utc(zones.parse_local(props["end"]["dateTime"]), zones.zone(props["end"]["timeZone"]))
    return start, end


def occurrence_span(master, day):
    """(start UTC, end UTC) of the occurrence of a series on its original date `day`: the
    start's wall time in the series zone (kept across DST), the master's duration."""
    props = master.props
    series_tz = zones.zone(props["recurrence"]["range"]["recurrenceTimeZone"])
    start, end = span(props)
    if props.get("isAllDay"):
        days = round((end - start).total_seconds() / 86400)
        tz = zones.zone(props["start"]["timeZone"])
        return (zones.to_utc(dt.datetime.combine(day, dt.time(0)), tz),
                zones.to_utc(dt.datetime.combine(day + dt.timedelta(days=days), dt.time(0)), tz))
    wall = start.astimezone(series_tz).time().replace(tzinfo=None)
    begin = zones.to_utc(dt.datetime.combine(day, wall), series_tz)
    return begin, begin + (end - start)


def occurrences(master, until=None):
    """(original date, start UTC, end UTC) of every occurrence the pattern makes, cancelled ones
    included, ascending, up to `until` for an endless series."""
    for day in recurrence.dates(master.props["recurrence"], until):
        yield (day, *occurrence_span(master, day))


TEAMS = "teamsForBusiness"


def join_online_meeting(event):
    """A Teams meeting made (`isOnlineMeeting` with `onlineMeetingProvider: teamsForBusiness`)
    gets its join link (`onlineMeeting.joinUrl`) and the join block Outlook appends to its
    body, as HTML (resources/onlinemeetinginfo.md; event-update.md calls it the meeting blob)."""
    props = event.props
    if not props.get("isOnlineMeeting") or props.get("onlineMeetingProvider") != TEAMS:
        return
    url = f"https://teams.microsoft.com/l/meetup-join/19%3ameeting_{event.id[-16:]}%40thread.v2/0"
    props["_onlineMeeting"] = {"joinUrl": url}
    body = props.get("body") or {"contentType": "text", "content": ""}
    content = body.get("content", "")
    if (body.get("contentType") or "text").lower() != "html":
        content = html.escape(content).replace("\n", "<br>\r\n")
    props["body"] = {"contentType": "html", "content": content + online_meeting_block(url)}


def online_meeting_block(url):
    """The join block of a Teams meeting's body."""
    return ("<div style=\"width:100%\"><span style=\"white-space:nowrap\">________________</span></div>"
            "<div><b>Microsoft Teams meeting</b></div>"
            f"<div>Join: <a href=\"{url}\" id=\"meeting_join\">Click here to join the meeting</a></div>")


def keep_or_drop_online_meeting(before, after, changes):
    """After a PATCH carrying `body`: an online meeting whose new body lacks its join block (an
    HTML body holding the block's link; a text body never does) is no longer online
    (event-update.md: removing the meeting blob disables the online meeting)."""
    meeting = before.get("_onlineMeeting")
    if not meeting or "body" not in changes:
        return
    body = after.get("body") or {}
    if (body.get("contentType") or "text").lower() == "html" and \
            f'href="{meeting["joinUrl"]}"' in (body.get("content") or ""):
        return
    after.pop("_onlineMeeting", None)
    after["isOnlineMeeting"] = False
    after["onlineMeetingProvider"] = "unknown"
