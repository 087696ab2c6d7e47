"""The mails Graph would have sent: invitations, updates, cancellations and attendees'
answers, one entry each, for a test to read through GET /_fake/ledger.

Graph sends them on its own when a meeting (an event with attendees) is created, retimed,
re-invited or deleted by its organizer, and when an attendee answers with sendResponse
(docs: calendar-post-events.md, event-update.md, event-delete.md, event-cancel.md,
event-accept.md; no switch turns them off: msgraph-sdk-dotnet #1549).
"""

import threading

from . import zones


class Ledger:
    def __init__(self):
        self.lock = threading.Lock()
        self.entries = []

    def mail(self, kind, event, recipients, now, occurrence=None, comment=None, response=None, sender=None):
        """Records one mail: kind is invitation, update, cancellation or response."""
        entry = {
            "kind": kind, "eventId": event.id, "iCalUId": event.ical_uid,
            "subject": event.props.get("subject", ""),
            "from": sender or event.organizer["emailAddress"]["address"],
            "to": list(recipients), "time": zones.graph_timestamp(now),
        }
        if occurrence is not None:
            entry["occurrence"] = occurrence.isoformat()
        if comment is not None:
            entry["comment"] = comment
        if response is not None:
            entry["response"] = response
        with self.lock:
            entry["n"] = len(self.entries) + 1
            self.entries.append(entry)

    def read(self, clear=False):
        with self.lock:
            out = list(self.entries)
            if clear:
                self.entries.clear()
            return out
