"""Events and calendars as JSON, the way Graph v1.0 writes them (docs: resources/event.md,
resources/calendar.md, api/event-get.md).

A `View` carries what the request asked for: the zone of `Prefer: outlook.timezone` (UTC by
default), the body type of `Prefer: outlook.body-content-type`, `$select` and `$expand`.
Times are written in that zone with seven fractional digits; an all-day event's are
midnights whatever the zone; `originalStart` is UTC.
"""

import datetime as dt
import html
import re

from . import events, zones
from .mailbox import Instance


class View:
    def __init__(self, zone_name="UTC", body_type="html", select=None, expand=None):
        self.zone_name = zone_name
        self.zone = zones.zone(zone_name)
        self.body_type = body_type
        self.select = select            # set of property names, or None
        self.expand = expand or {}      # name -> $filter text (or None)


def _when(value, all_day, day, view):
    if all_day:
        return {"dateTime": zones.graph_datetime(dt.datetime.combine(day, dt.time(0))), "timeZone": view.zone_name}
    return {"dateTime": zones.graph_datetime(value.astimezone(view.zone).replace(tzinfo=None)),
            "timeZone": view.zone_name}


def _body(body, view):
    body = body or {"contentType": "text", "content": ""}
    content, kind = body.get("content", ""), (body.get("contentType") or "text").lower()
    if view.body_type == "text":
        text = content if kind == "text" else html.unescape(re.sub(r"<[^>]+>", "", content)).strip()
        return {"contentType": "text", "content": text}
    if kind == "html":
        return {"contentType": "html", "content": content}
    escaped = html.escape(content).replace("\n", "<br>\r\n")
    return {"contentType": "html", "content": "<html>\r\n<head>\r\n<meta http-equiv=\"Content-Type\" "
            f"content=\"text/html; charset=utf-8\">\r\n</head>\r\n<body>\r\n{escaped}\r\n</body>\r\n</html>\r\n"}


def _preview(body):
    body = body or {}
    text = body.get("content", "")
    if (body.get("contentType") or "text").lower() == "html":
        text = html.unescape(re.sub(r"<[^>]+>", " ", text))
    return re.sub(r"\s+", " ", text).strip()[:255]


def _location(loc):
    loc = loc or {}
    return {"displayName": loc.get("displayName", ""), "locationType": loc.get("locationType", "default"),
            "uniqueIdType": loc.get("uniqueIdType", "unknown"), "address": loc.get("address", {}),
            "coordinates": loc.get("coordinates", {}), **({"uniqueId": loc["uniqueId"]} if "uniqueId" in loc else {})}


def event_json(mailbox, item, view, base_url):
    """The full JSON of an Event or an Instance, then trimmed to `$select`."""
    instance = item if isinstance(item, Instance) else None
    owner = instance.master if instance else item
    props = mailbox.instance_props(instance) if instance else owner.props
    start, end = events.span(props)
    all_day = bool(props.get("isAllDay"))
    start_day = zones.parse_local(props["start"]["dateTime"]).date()
    end_day = zones.parse_local(props["end"]["dateTime"]).date()
    kind = ("exception" if instance.override else "occurrence") if instance else \
        ("seriesMaster" if owner.is_series else "singleInstance")
    override = instance.override if instance else None
    out = {
        "@odata.etag": f'W/"{item.change_key}"', "id": item.id,
        "createdDateTime": zones.graph_timestamp(owner.created),
        "lastModifiedDateTime": zones.graph_timestamp(override.modified if override else owner.modified),
        "changeKey": item.change_key, "categories": list(props.get("categories") or []),
    }
    if owner.props.get("_transactionId"):
        out["transactionId"] = owner.props["_transactionId"]
    out.update({
        "originalStartTimeZone": zones.windows_name(props["start"]["timeZone"]),
        "originalEndTimeZone": zones.windows_name(props["end"]["timeZone"]),
        "iCalUId": events.instance_goid(owner.ical_uid, instance.date) if instance else owner.ical_uid,
        "reminderMinutesBeforeStart": props.get("reminderMinutesBeforeStart", 15),
        "isReminderOn": props.get("isReminderOn", True), "hasAttachments": False,
        "subject": props.get("subject", ""), "bodyPreview": _preview(props.get("body")),
        "importance": props.get("importance", "normal"), "sensitivity": props.get("sensitivity", "normal"),
        "isAllDay": all_day, "isCancelled": False, "isOrganizer": owner.is_organizer,
        "responseRequested": props.get("responseRequested", True),
        "seriesMasterId": owner.id if instance else None, "showAs": props.get("showAs", "busy"), "type": kind,
        "webLink": f"https://outlook.example.invalid/owa/?itemid={item.id}&exvsurl=1&path=/calendar/item",
        "onlineMeetingUrl": None, "isOnlineMeeting": bool(props.get("isOnlineMeeting", False)),
        "onlineMeetingProvider": props.get("onlineMeetingProvider", "unknown"),
        "allowNewTimeProposals": props.get("allowNewTimeProposals", True), "isDraft": bool(props.get("isDraft", False)),
        "hideAttendees": bool(props.get("hideAttendees", False)),
        "responseStatus": props.get("_response") or owner.response,
        "body": _body(props.get("body"), view),
        "start": _when(start, all_day, start_day, view), "end": _when(end, all_day, end_day, view),
        "location": _location(props.get("location")),
        "locations": [_location(l) for l in props.get("locations") or []],
        "recurrence": None if instance else props.get("recurrence"),
        "attendees": props.get("attendees") or [], "organizer": owner.organizer,
        "onlineMeeting": props.get("_onlineMeeting"),
    })
    if instance:
        out["originalStart"] = props["_originalStart"].strftime("%Y-%m-%dT%H:%M:%SZ")
    return _trim(mailbox, owner, out, view, base_url)


def _trim(mailbox, owner, out, view, base_url):
    is_master = out["type"] == "seriesMaster"
    if view.select is not None:
        keep = set(view.select) | {"id", "@odata.etag"}
        out = {k: v for k, v in out.items() if k in keep}
        if "cancelledOccurrences" in view.select and is_master:
            out["cancelledOccurrences"] = [f"OID.{owner.id}.{d.isoformat()}" for d in sorted(owner.cancelled)]
    if "exceptionOccurrences" in view.expand and is_master:
        inner = View(view.zone_name, view.body_type)
        out["exceptionOccurrences"] = [event_json(mailbox, Instance(owner, d), inner, base_url)
                                       for d in sorted(owner.exceptions)]
    if "singleValueExtendedProperties" in view.expand:
        wanted = view.expand["singleValueExtendedProperties"]
        found = [dict(p) for key, p in owner.extended.items() if wanted is None or key in wanted]
        if found:
            out["singleValueExtendedProperties"] = found
    return out


def calendar_json(cal):
    keys = ["id", "name", "color", "hexColor", "isDefaultCalendar", "changeKey", "canShare",
            "canViewPrivateItems", "canEdit", "isRemovable", "isTallyingResponses",
            "allowedOnlineMeetingProviders", "defaultOnlineMeetingProvider", "owner"]
    return {k: cal[k] for k in keys if k in cal}
