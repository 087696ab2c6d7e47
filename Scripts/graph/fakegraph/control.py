"""The control API under /_fake/, for tests to read and steer the fake (no token needed).
README.md lists every route with an example."""

import urllib.parse

from . import render, zones
from .errors import GraphError, bad_request
from .faults import FaultError


def handle(fake, method, target, body):
    """(status, headers, body) for a /_fake/ request."""
    parts = urllib.parse.urlsplit(target)
    route = parts.path.rstrip("/")
    params = dict(urllib.parse.parse_qsl(parts.query))
    routes = {
        ("GET", "/_fake/ledger"): lambda: _ledger(fake, params.get("clear") in ("1", "true")),
        ("DELETE", "/_fake/ledger"): lambda: _ledger(fake, True),
        ("GET", "/_fake/faults"): lambda: (200, {}, {"value": fake.faults.list()}),
        ("POST", "/_fake/faults"): lambda: _add_faults(fake, body),
        ("DELETE", "/_fake/faults"): lambda: (fake.faults.clear(), (204, {}, None))[1],
        ("POST", "/_fake/calendars"): lambda: _add_calendar(fake, body),
        ("POST", "/_fake/invitations"): lambda: _deliver(fake, body),
        ("POST", "/_fake/delta/expire"): lambda: (fake.delta.expire(body), (204, {}, None))[1],
        ("POST", "/_fake/clock"): lambda: _clock(fake, body),
        ("POST", "/_fake/move"): lambda: _move(fake, body),
        ("GET", "/_fake/settings"): lambda: (200, {}, dict(fake.settings)),
        ("POST", "/_fake/settings"): lambda: _settings(fake, body),
        ("GET", "/_fake/state"): lambda: (200, {}, state(fake)),
        ("GET", "/_fake/requests"): lambda: (200, {}, {"value": list(fake.requests)}),
        ("POST", "/_fake/reset"): lambda: (fake.reset(), (204, {}, None))[1],
        ("POST", "/_fake/schedules"): lambda: _schedules(fake, body),
    }
    action = routes.get((method.upper(), route))
    if action is None:
        raise GraphError(404, "NotFound", f"no control route {method} {route}")
    try:
        return action()
    except (FaultError, ValueError, KeyError, TypeError) as error:
        raise bad_request(f"control: {error}", "BadRequest")


def _schedules(fake, body):
    """Other mailboxes' busy time for getSchedule: {address: [{"start", "end", "status"}]}
    (times UTC, ISO 8601)."""
    for address, items in (body or {}).items():
        fake.mailbox.schedules[address.lower()] = list(items)
    return 204, {}, None


def _ledger(fake, clear):
    return 200, {}, {"value": fake.mailbox.ledger.read(clear)}


def _add_faults(fake, body):
    rules = body.get("faults", [body]) if isinstance(body, dict) else body
    return 201, {}, {"value": [fake.faults.add(rule) for rule in rules]}


def _add_calendar(fake, body):
    allowed = {"name", "color", "hexColor", "canEdit", "canShare", "canViewPrivateItems", "owner",
               "isRemovable", "isTallyingResponses"}
    spec = {k: v for k, v in (body or {}).items() if k in allowed}
    if not spec.get("name"):
        raise ValueError("a calendar needs a name")
    return 201, {}, render.calendar_json(fake.mailbox.add_calendar(spec))


def _deliver(fake, body):
    organizer = body["organizer"]
    cal_id = body.get("calendarId")
    event = fake.mailbox.deliver(cal_id, body["event"], {"name": organizer.get("name", organizer["address"]),
                                                         "address": organizer["address"]})
    with fake.mailbox.lock:
        return 201, {}, render.event_json(fake.mailbox, event, render.View(), "")


def _clock(fake, body):
    now = (body or {}).get("now")
    fake.mailbox.clock = zones.parse_window_bound(now) if now else None
    return 200, {}, {"now": zones.graph_timestamp(fake.mailbox.now())}


def _settings(fake, body):
    for key in ("maxConcurrent", "delayMs", "honoursIfMatch", "commitStamp"):
        if key in (body or {}):
            fake.settings[key] = int(body[key])
    return 200, {}, dict(fake.settings)


def state(fake):
    """Everything stored, raw: calendars, events with their exceptions and cancelled dates."""
    box = fake.mailbox
    with box.lock:
        return {
            "version": box.version,
            "calendars": [render.calendar_json(c) for c in box.calendars.values()],
            "events": [{
                "id": e.id, "calendarId": e.calendar_id, "changeKey": e.change_key, "iCalUId": e.ical_uid,
                "version": e.version, "isOrganizer": e.is_organizer,
                "props": {k: v for k, v in e.props.items()},
                "extended": list(e.extended.values()),
                "exceptions": {d.isoformat(): o.props for d, o in e.exceptions.items()},
                "cancelled": sorted(d.isoformat() for d in e.cancelled),
            } for e in box.events.values()],
            "deleted": sorted(box.deleted),
        }


def _move(fake, body):
    """Outlook moves an event to another calendar: `{"id": …, "calendarId": …}`."""
    if not isinstance(body, dict) or not body.get("id") or not body.get("calendarId"):
        return 400, {}, {"error": "give the event's id and the calendarId to move it to"}
    event = fake.mailbox.move(str(body["id"]), str(body["calendarId"]))
    return 200, {}, {"id": event.id, "calendarId": event.calendar_id}
