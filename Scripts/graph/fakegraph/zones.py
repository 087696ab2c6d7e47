"""Time zones as Graph names them, and its date-time text.

Graph takes a `timeZone` as a Windows name ("Pacific Standard Time") or an IANA name, and
writes `originalStartTimeZone` as a Windows name (docs: resources/datetimetimezone.md). The
Windows-to-IANA table is CLDR's windowsZones (territory 001), read at run time from the
project's generated Sources/ICalendar/TimeZones/WindowsZones.swift; a small subset is built in
for a checkout without it. Date-times go out as Graph writes them: no offset, seven
fractional digits ("2019-03-15T12:00:00.0000000").
"""

import datetime as dt
import os
import re
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

UTC = dt.timezone.utc

FALLBACK_WINDOWS = {
    "UTC": "Etc/UTC", "GMT Standard Time": "Europe/London", "W. Europe Standard Time": "Europe/Berlin",
    "Romance Standard Time": "Europe/Paris", "Eastern Standard Time": "America/New_York",
    "Central Standard Time": "America/Chicago", "Mountain Standard Time": "America/Denver",
    "Pacific Standard Time": "America/Los_Angeles", "India Standard Time": "Asia/Calcutta",
    "Tokyo Standard Time": "Asia/Tokyo", "AUS Eastern Standard Time": "Australia/Sydney",
}


class ZoneError(ValueError):
    """A time-zone name Graph would not take."""


def _load_windows_table():
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
    path = os.path.join(root, "Sources", "ICalendar", "TimeZones", "WindowsZones.swift")
    try:
        text = open(path, encoding="utf-8").read()
    except OSError:
        return dict(FALLBACK_WINDOWS)
    table = dict(re.findall(r'"([^"]+)": "([^"]+)"', text))
    table.setdefault("UTC", "Etc/UTC")
    return table or dict(FALLBACK_WINDOWS)


IANA_BY_WINDOWS = _load_windows_table()
WINDOWS_BY_IANA = {}
for _win, _iana in sorted(IANA_BY_WINDOWS.items()):
    WINDOWS_BY_IANA.setdefault(_iana, _win)
WINDOWS_BY_IANA.update({"Etc/UTC": "UTC", "UTC": "UTC"})


def zone(name):
    """The tzinfo for a Graph time-zone name (Windows or IANA); ZoneError if unknown."""
    if not name or not isinstance(name, str):
        raise ZoneError(name)
    if name in ("UTC", "Etc/UTC", "GMT", "Etc/GMT", "tzone://Microsoft/Utc"):
        return UTC
    iana = IANA_BY_WINDOWS.get(name, name)
    if "/" not in iana and iana not in IANA_BY_WINDOWS.values():
        raise ZoneError(name)
    try:
        return ZoneInfo(iana)
    except (ZoneInfoNotFoundError, ValueError):
        raise ZoneError(name)


def windows_name(name):
    """The Windows name Graph reports for a zone written as `name` (kept if already Windows)."""
    if name in IANA_BY_WINDOWS or name == "UTC":
        return name
    return WINDOWS_BY_IANA.get(name, name)


def parse_local(text):
    """A naive datetime from Graph's `dateTime` text (any fraction, no offset expected)."""
    if not isinstance(text, str):
        raise ValueError(text)
    text = text.strip()
    match = re.fullmatch(r"(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}(?::\d{2})?)(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?", text)
    if not match:
        raise ValueError(text)
    date, time, fraction, offset = match.groups()
    value = dt.datetime.fromisoformat(f"{date}T{time or '00:00:00'}")
    if fraction:
        value = value.replace(microsecond=int((fraction[1:] + "000000")[:6]))
    if offset:
        aware = value.replace(tzinfo=UTC if offset == "Z" else dt.datetime.strptime(offset.replace(":", ""), "%z").tzinfo)
        value = aware.astimezone(UTC).replace(tzinfo=None)
    return value


def to_utc(local, tz):
    """An aware UTC datetime for the wall time `local` in `tz`."""
    return local.replace(tzinfo=tz).astimezone(UTC)


def parse_window_bound(text):
    """A query's startDateTime/endDateTime: an offset is honoured, none means UTC."""
    text = text.strip().replace(" ", "+")
    match = re.fullmatch(r"(.*?)(Z|[+-]\d{2}:?\d{2})?", text)
    body, offset = match.groups()
    value = parse_local(body)
    if offset and offset != "Z":
        tz = dt.datetime.strptime(offset.replace(":", ""), "%z").tzinfo
        return value.replace(tzinfo=tz).astimezone(UTC)
    return value.replace(tzinfo=UTC)


def graph_datetime(value):
    """Graph's dateTime text for a naive or aware datetime (its wall time as given)."""
    return value.strftime("%Y-%m-%dT%H:%M:%S") + f".{value.microsecond:06d}0"


def graph_timestamp(value):
    """A DateTimeOffset in UTC as Graph writes `createdDateTime`: 7 digits and Z."""
    return graph_datetime(value.astimezone(UTC)) + "Z"
