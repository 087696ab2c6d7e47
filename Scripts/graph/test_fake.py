"""Unit tests of the fake Graph server's recurrence expansion and delta bookkeeping, without
HTTP, and of its HTTP side (one answer per request) on a loopback port (stdlib unittest):
python3 Scripts/graph/test_fake.py
Expected dates are worked out by hand from the rules in fakegraph/recurrence.py."""

import datetime as dt
import json
import os
import socket
import sys
import threading
import unittest
import urllib.parse
from http.server import ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fakegraph import api, delta, faults, mailbox, recurrence, render, server  # noqa: E402
from fakegraph.errors import GraphError  # noqa: E402

D = dt.date


def expand(pattern, rng, until=None):
    rec = recurrence.normalize({"pattern": pattern, "range": rng}, D.fromisoformat(rng["startDate"]), "UTC")
    return list(recurrence.dates(rec, until))


class RecurrenceTests(unittest.TestCase):
    def test_daily_numbered(self):
        got = expand({"type": "daily", "interval": 3}, {"type": "numbered", "startDate": "2026-01-30", "numberOfOccurrences": 3})
        self.assertEqual(got, [D(2026, 1, 30), D(2026, 2, 2), D(2026, 2, 5)])

    def test_weekly_first_day_of_week_decides_the_weeks(self):
        rng = {"type": "endDate", "startDate": "2026-03-01", "endDate": "2026-03-16"}
        sunday = expand({"type": "weekly", "interval": 2, "daysOfWeek": ["sunday", "monday"]}, rng)
        monday = expand({"type": "weekly", "interval": 2, "daysOfWeek": ["sunday", "monday"], "firstDayOfWeek": "monday"}, rng)
        self.assertEqual(sunday, [D(2026, 3, 1), D(2026, 3, 2), D(2026, 3, 15), D(2026, 3, 16)])
        self.assertEqual(monday, [D(2026, 3, 1), D(2026, 3, 9), D(2026, 3, 15)])

    def test_first_occurrence_is_the_first_fit_not_the_start(self):
        got = expand({"type": "weekly", "interval": 1, "daysOfWeek": ["friday"]},
                     {"type": "numbered", "startDate": "2026-03-02", "numberOfOccurrences": 2})
        self.assertEqual(got, [D(2026, 3, 6), D(2026, 3, 13)])

    def test_absolute_monthly_31st_falls_on_the_last_day(self):
        got = expand({"type": "absoluteMonthly", "interval": 1, "dayOfMonth": 31},
                     {"type": "numbered", "startDate": "2026-01-31", "numberOfOccurrences": 4})
        self.assertEqual(got, [D(2026, 1, 31), D(2026, 2, 28), D(2026, 3, 31), D(2026, 4, 30)])

    def test_relative_monthly_last_weekday_of_a_set(self):
        got = expand({"type": "relativeMonthly", "interval": 1, "index": "last",
                      "daysOfWeek": ["monday", "tuesday", "wednesday", "thursday", "friday"]},
                     {"type": "endDate", "startDate": "2026-01-30", "endDate": "2026-05-31"})
        self.assertEqual(got, [D(2026, 1, 30), D(2026, 2, 27), D(2026, 3, 31), D(2026, 4, 30), D(2026, 5, 29)])

    def test_relative_monthly_first_thursday_every_two_months(self):
        got = expand({"type": "relativeMonthly", "interval": 2, "daysOfWeek": ["thursday"]},
                     {"type": "noEnd", "startDate": "2017-08-29"}, until=D(2018, 1, 31))
        self.assertEqual(got, [D(2017, 10, 5), D(2017, 12, 7)])

    def test_yearly(self):
        absolute = expand({"type": "absoluteYearly", "interval": 1, "month": 2, "dayOfMonth": 29},
                          {"type": "numbered", "startDate": "2024-02-29", "numberOfOccurrences": 2})
        relative = expand({"type": "relativeYearly", "interval": 1, "month": 11, "index": "fourth", "daysOfWeek": ["thursday"]},
                          {"type": "numbered", "startDate": "2026-01-01", "numberOfOccurrences": 2})
        self.assertEqual(absolute, [D(2024, 2, 29), D(2025, 2, 28)])
        self.assertEqual(relative, [D(2026, 11, 26), D(2027, 11, 25)])

    def test_refusals(self):
        bad = [({"type": "weekly", "interval": 1}, "requires daysOfWeek"),
               ({"type": "daily", "interval": 1, "index": "fifth"}, "index"),
               ({"type": "hourly", "interval": 1}, "not supported")]
        for pattern, words in bad:
            with self.assertRaisesRegex(recurrence.RecurrenceError, words):
                expand(pattern, {"type": "noEnd", "startDate": "2026-01-01"})
        with self.assertRaisesRegex(recurrence.RecurrenceError, "date of the event's start"):
            recurrence.normalize({"pattern": {"type": "daily", "interval": 1},
                                  "range": {"type": "noEnd", "startDate": "2026-01-02"}}, D(2026, 1, 1), "UTC")


def body(start, end, zone="UTC", **extra):
    return {"subject": "x", "start": {"dateTime": start, "timeZone": zone}, "end": {"dateTime": end, "timeZone": zone}, **extra}


class MailboxTests(unittest.TestCase):
    def setUp(self):
        self.box = mailbox.Mailbox()
        self.cal = self.box.calendar(None)["id"]
        self.delta = delta.DeltaService(self.box)

    def round(self, params):
        items, page = [], self.delta.get(self.cal, params, render.View(), 100, "http://x/v1.0/me/calendarView/delta")
        items += page["value"]
        return items, page["@odata.deltaLink"].split("$deltatoken=")[1]

    def test_delta_reports_only_changes_and_removals(self):
        a, _ = self.box.create(self.cal, body("2026-03-02T10:00:00", "2026-03-02T11:00:00"))
        b, _ = self.box.create(self.cal, body("2026-03-03T10:00:00", "2026-03-03T11:00:00"))
        items, token = self.round({"startdatetime": "2026-03-01T00:00:00Z", "enddatetime": "2026-04-01T00:00:00Z"})
        self.assertEqual({i["id"] for i in items}, {a.id, b.id})
        self.box.delete(a.id)
        self.box.patch(b.id, {"start": {"dateTime": "2026-05-01T10:00:00", "timeZone": "UTC"},
                              "end": {"dateTime": "2026-05-01T11:00:00", "timeZone": "UTC"}})
        outside, _ = self.box.create(self.cal, body("2027-01-01T10:00:00", "2027-01-01T11:00:00"))
        items, _ = self.round({"$deltatoken": token})
        self.assertEqual(sorted((i["id"], i.get("@removed", {}).get("reason")) for i in items),
                         sorted([(a.id, "deleted"), (b.id, "deleted"), (outside.id, "deleted")]))

    def test_delta_after_cancelling_and_excepting_occurrences(self):
        series = body("2026-03-02T09:00:00", "2026-03-02T10:00:00", "W. Europe Standard Time",
                      recurrence={"pattern": {"type": "daily", "interval": 1},
                                  "range": {"type": "numbered", "startDate": "2026-03-02", "numberOfOccurrences": 3}})
        master, _ = self.box.create(self.cal, series)
        items, token = self.round({"startdatetime": "2026-03-01T00:00:00Z", "enddatetime": "2026-04-01T00:00:00Z"})
        first, second, third = [i["id"] for i in items]
        self.assertEqual([i["type"] for i in items], ["occurrence"] * 3)
        self.box.delete(second)
        self.box.patch(third, {"subject": "moved"})
        items, _ = self.round({"$deltatoken": token})
        shown = {i["id"]: i.get("type") or i["@removed"]["reason"] for i in items}
        # Only the exception: the deleted occurrence leaves no trace (docs PR #4501), and a plain
        # occurrence, a stub, is not listed again for its master's new change key.
        self.assertEqual(shown, {third: "exception"})
        self.assertNotIn(first, shown)
        self.assertNotIn(second, shown)

    def test_a_master_patched_with_its_times_mails_once_per_exception(self):
        series = body("2026-03-02T09:00:00", "2026-03-02T10:00:00", attendees=[{"emailAddress": {"address": "b@x"}}],
                      recurrence={"pattern": {"type": "daily", "interval": 1},
                                  "range": {"type": "numbered", "startDate": "2026-03-02", "numberOfOccurrences": 3}})
        master, _ = self.box.create(self.cal, series)
        items, _ = self.round({"startdatetime": "2026-03-01T00:00:00Z", "enddatetime": "2026-04-01T00:00:00Z"})
        self.box.patch(items[1]["id"], {"subject": "second"})
        self.box.patch(items[2]["id"], {"subject": "third"})
        self.box.ledger.read(clear=True)
        self.box.patch(master.id, {"subject": "renamed"})
        self.assertEqual(self.box.ledger.read(), [])
        self.box.patch(master.id, {"start": series["start"], "end": series["end"]})
        self.assertEqual([(m["kind"], m["occurrence"]) for m in self.box.ledger.read()],
                         [("update", "2026-03-03"), ("update", "2026-03-04")])

    def test_a_body_written_over_a_teams_meeting_drops_its_join_block(self):
        made, _ = self.box.create(self.cal, body("2026-03-02T10:00:00", "2026-03-02T11:00:00", isOnlineMeeting=True,
                                                 onlineMeetingProvider="teamsForBusiness",
                                                 body={"contentType": "text", "content": "Agenda"}))
        url = made.props["_onlineMeeting"]["joinUrl"]
        self.assertIn(url, made.props["body"]["content"])
        self.box.patch(made.id, {"subject": "renamed"})
        self.assertTrue(made.props["isOnlineMeeting"])
        self.box.patch(made.id, {"body": {"contentType": "text", "content": "Agenda, and more"}})
        self.assertEqual((made.props["isOnlineMeeting"], made.props.get("_onlineMeeting")), (False, None))

    def test_ledger_mails_for_a_meeting(self):
        meeting, _ = self.box.create(self.cal, body("2026-03-02T10:00:00", "2026-03-02T11:00:00",
                                                    attendees=[{"emailAddress": {"address": "bob@example.org"}}]))
        self.box.patch(meeting.id, {"subject": "renamed"})
        self.box.patch(meeting.id, {"attendees": [{"emailAddress": {"address": "carol@example.org"}}]})
        self.box.patch(meeting.id, {"start": {"dateTime": "2026-03-02T12:00:00", "timeZone": "UTC"},
                                    "end": {"dateTime": "2026-03-02T13:00:00", "timeZone": "UTC"}})
        self.box.delete(meeting.id)
        self.assertEqual([(m["kind"], m["to"]) for m in self.box.ledger.read()], [
            ("invitation", ["bob@example.org"]), ("invitation", ["carol@example.org"]),
            ("cancellation", ["bob@example.org"]), ("update", ["carol@example.org"]),
            ("cancellation", ["carol@example.org"])])

    def test_transaction_id_dedups_creates(self):
        first, made = self.box.create(self.cal, body("2026-03-02T10:00:00", "2026-03-02T11:00:00", transactionId="t"))
        again, made_again = self.box.create(self.cal, body("2026-03-09T10:00:00", "2026-03-09T11:00:00", transactionId="t"))
        self.assertEqual((first.id, made, made_again), (again.id, True, False))

    def test_stale_change_key_is_412(self):
        event, _ = self.box.create(self.cal, body("2026-03-02T10:00:00", "2026-03-02T11:00:00"))
        old = f'W/"{event.change_key}"'
        self.box.patch(event.id, {"subject": "y"}, old)
        with self.assertRaises(GraphError) as caught:
            self.box.patch(event.id, {"subject": "z"}, old)
        self.assertEqual((caught.exception.status, caught.exception.code), (412, "ErrorIrresolvableConflict"))

    def test_all_day_needs_midnights(self):
        with self.assertRaises(GraphError):
            self.box.create(self.cal, body("2026-03-02T10:00:00", "2026-03-03T00:00:00", isAllDay=True))
        event, _ = self.box.create(self.cal, body("2026-03-02T00:00:00", "2026-03-03T00:00:00", "Tokyo Standard Time", isAllDay=True))
        shown = render.event_json(self.box, event, render.View("Pacific Standard Time"), "")
        self.assertEqual(shown["start"], {"dateTime": "2026-03-02T00:00:00.0000000", "timeZone": "Pacific Standard Time"})

    def test_unknown_zone_is_refused(self):
        with self.assertRaises(GraphError) as caught:
            self.box.create(self.cal, body("2026-03-02T10:00:00", "2026-03-02T11:00:00", "Mars Standard Time"))
        self.assertEqual(caught.exception.code, "TimeZoneNotSupportedException")


class ApiTests(unittest.TestCase):
    """Routes through Api.dispatch, as the HTTP layer calls it."""

    def setUp(self):
        self.box = mailbox.Mailbox()
        self.api = api.Api(self.box, delta.DeltaService(self.box))

    def call(self, method, target, body=None, **headers):
        req = api.Request(method, "/v1.0" + target, {k.replace("_", "-"): v for k, v in headers.items()}, body, "http://x/v1.0")
        try:
            return self.api.dispatch(req)
        except GraphError as error:
            return error.status, error.headers, {"error": {"code": error.code}}

    def test_primary_calendar_view_and_delta(self):
        self.call("POST", "/me/events", body("2026-03-02T10:00:00", "2026-03-02T11:00:00"))
        status, _, page = self.call("GET", "/me/calendarView?startDateTime=2026-03-01T00:00:00Z&endDateTime=2026-03-31T00:00:00Z")
        self.assertEqual((status, len(page["value"])), (200, 1))
        status, headers, page = self.call("GET", "/me/calendarView/delta?startdatetime=2026-03-01T00:00:00Z&enddatetime=2026-03-31T00:00:00Z",
                                          Prefer='outlook.timezone="Tokyo Standard Time"')
        self.assertEqual(page["value"][0]["start"], {"dateTime": "2026-03-02T19:00:00.0000000", "timeZone": "Tokyo Standard Time"})
        self.assertEqual(headers["Preference-Applied"], 'outlook.timezone="Tokyo Standard Time"')
        self.assertIn("/me/calendarView/delta?$deltatoken=", page["@odata.deltaLink"])
        status, _, answer = self.call("GET", "/me/calendarView/delta?$select=subject&startDateTime=2026-03-01T00:00:00Z&endDateTime=2026-03-31T00:00:00Z")
        self.assertEqual((status, answer["error"]["code"]), (400, "ErrorInvalidParameter"))

    def test_forgotten_tokens_are_gone_with_the_initial_query(self):
        for day in ("02", "03"):
            self.call("POST", "/me/events", body(f"2026-03-{day}T10:00:00", f"2026-03-{day}T11:00:00"))
        _, _, page = self.call("GET", "/me/calendarView/delta?startDateTime=2026-03-01T00:00:00Z&endDateTime=2026-03-31T00:00:00Z",
                               Prefer="odata.maxpagesize=1")
        self.api.delta.expire()
        status, headers, answer = self.call("GET", page["@odata.nextLink"].removeprefix("http://x/v1.0"))
        self.assertEqual((status, answer["error"]["code"]), (410, "syncStateNotFound"))
        self.assertIn("/me/calendarView/delta?startDateTime=2026-03-01T00%3A00%3A00Z", headers["Location"])

    def test_extended_property_filter_lists_matching_events(self):
        prop = "String {66f5a359-4659-4830-9070-00040ec6ac6e} Name uid"
        for value in ("a@x", "b@x"):
            self.call("POST", "/me/events", body("2026-03-02T10:00:00", "2026-03-02T11:00:00", subject=value,
                                                 singleValueExtendedProperties=[{"id": prop, "value": value}]))
        flt = urllib.parse.quote(f"singleValueExtendedProperties/Any(ep: ep/id eq '{prop}' and ep/value eq 'b@x')")
        _, _, page = self.call("GET", f"/me/calendar/events?$filter={flt}")
        self.assertEqual([e["subject"] for e in page["value"]], ["b@x"])

    def test_attendee_answers_and_organizer_cancel(self):
        invite = self.box.deliver(None, body("2026-03-02T10:00:00", "2026-03-02T11:00:00"), {"name": "C", "address": "c@x"})
        status, _, _ = self.call("POST", f"/me/events/{invite.id}/decline", {"comment": "no", "sendResponse": True})
        self.assertEqual(status, 202)
        self.assertEqual(self.call("GET", f"/me/events/{invite.id}")[0], 404)
        _, _, mine = self.call("POST", "/me/events", body("2026-03-03T10:00:00", "2026-03-03T11:00:00",
                                                          attendees=[{"emailAddress": {"address": "d@x"}}]))
        self.assertEqual(self.call("POST", f"/me/events/{mine['id']}/accept", {})[0], 400)
        self.assertEqual(self.call("POST", f"/me/events/{mine['id']}/cancel", {"comment": "off"})[0], 202)
        self.assertEqual([(m["kind"], m["to"]) for m in self.box.ledger.read()],
                         [("response", ["c@x"]), ("invitation", ["d@x"]), ("cancellation", ["d@x"])])

    def test_event_listing_pages_at_most_a_thousand_with_what_was_expanded(self):
        prop = "String {66f5a359-4659-4830-9070-00040ec6ac6e} Name uid"
        for i in range(1002):
            extra = {"singleValueExtendedProperties": [{"id": prop, "value": f"u{i}"}]} if i == 0 else {}
            self.box.create(None, body("2026-03-02T10:00:00", "2026-03-02T11:00:00", subject=f"e{i}", **extra))
        expand = urllib.parse.quote(f"singleValueExtendedProperties($filter=id eq '{prop}')")
        status, _, page = self.call("GET", f"/me/calendar/events?$select=subject&$expand={expand}&$top=5000")
        self.assertEqual((status, len(page["value"])), (200, 1000))
        self.assertEqual(page["value"][0]["singleValueExtendedProperties"][0]["value"], "u0")
        self.assertEqual(set(page["value"][1]), {"@odata.etag", "id", "subject"})
        status, _, rest = self.call("GET", page["@odata.nextLink"].removeprefix("http://x/v1.0"))
        self.assertEqual([e["subject"] for e in rest["value"]], ["e1000", "e1001"])
        self.assertNotIn("@odata.nextLink", rest)
        _, headers, page = self.call("GET", "/me/calendar/events", Prefer="odata.maxpagesize=2000")
        self.assertEqual((len(page["value"]), headers["Preference-Applied"]), (1000, "odata.maxpagesize=1000"))
        self.assertEqual(len(self.call("GET", "/me/calendar/events")[2]["value"]), 10)

    def test_a_calendars_commit_stamp_moves_with_every_write_in_it_alone(self):
        stamp_of = lambda cal: self.call(
            "GET", f"/me/calendars/{cal}?$expand=" + urllib.parse.quote("singleValueExtendedProperties($filter=id eq 'SystemTime 0x670A')")
        )[2]["singleValueExtendedProperties"][0]["value"]
        main = self.box.calendar(None)["id"]
        other = self.box.add_calendar({"name": "Other"})["id"]
        self.assertNotIn("singleValueExtendedProperties", self.call("GET", f"/me/calendars/{main}")[2])
        stamps = [stamp_of(main)]
        series, _ = self.box.create(None, body("2026-03-02T10:00:00", "2026-03-02T11:00:00", recurrence={
            "pattern": {"type": "daily", "interval": 1},
            "range": {"type": "numbered", "startDate": "2026-03-02", "numberOfOccurrences": 3}}))
        stamps.append(stamp_of(main))
        before_other = stamp_of(other)
        self.box.create(other, body("2026-03-02T10:00:00", "2026-03-02T11:00:00"))
        self.assertEqual(stamp_of(main), stamps[-1])            # a write elsewhere leaves it
        self.assertNotEqual(stamp_of(other), before_other)
        # An occurrence deleted (no trace in delta) moves it, as the master's change does.
        occurrence = self.box.instances(series, dt.datetime(2026, 3, 1, tzinfo=dt.timezone.utc),
                                        dt.datetime(2026, 3, 9, tzinfo=dt.timezone.utc))[1]
        self.assertEqual(self.call("DELETE", f"/me/events/{occurrence.id}")[0], 204)
        stamps.append(stamp_of(main))
        self.box.move(series.id, other)
        stamps.append(stamp_of(main))
        self.assertEqual(len(set(stamps)), len(stamps), stamps)
        self.assertEqual(sorted(stamps), stamps)

    def test_users_path_is_the_mailbox(self):
        self.assertEqual(self.call("GET", "/users/alice@example.org/calendars")[0], 200)
        self.assertEqual(self.call("GET", "/users/someone@else/calendars")[0], 404)


class FaultTests(unittest.TestCase):
    def test_every_nth_match_answers_until_spent(self):
        rules = faults.Faults()
        rules.add({"status": 429, "every": 3, "count": 2, "method": "GET"})
        hits = [i for i in range(1, 13) if rules.take("status", "GET", "/v1.0/me/events")]
        self.assertEqual(hits, [3, 6])
        self.assertIsNone(rules.take("status", "POST", "/v1.0/me/events"))


class OneAnswerTests(unittest.TestCase):
    """Every request gets one answer and only one, whatever answers it: the route, a fault, a
    refusal of the fake's own (no token, the concurrency limit), a `$batch`, the control API.
    A stand-in that answered twice (or answered and also did the request's work again, its
    second answer read as the next request's) would make a correct client look wrong. Each
    request is sent on a kept-alive connection with the next one right behind it, and the
    answers read back must be two, each naming its own request (`client-request-id`)."""

    TOKEN = "calgw-graph-test"

    @classmethod
    def setUpClass(cls):
        cls.http = ThreadingHTTPServer(("127.0.0.1", 0), server.Handler)
        cls.http.daemon_threads = True
        cls.http.fake = server.Fake(cls.TOKEN)
        threading.Thread(target=cls.http.serve_forever, daemon=True).start()

    @classmethod
    def tearDownClass(cls):
        cls.http.shutdown()
        cls.http.server_close()

    def setUp(self):
        self.http.fake.reset()
        self.http.fake.faults.clear()
        self.http.fake.settings.update({"maxConcurrent": 4, "honoursIfMatch": 1})
        self.n = 0

    @staticmethod
    def request(method, path, mark, body=None, token=TOKEN, **headers):
        data = b"" if body is None else json.dumps(body).encode()
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"client-request-id: {mark}",
                 f"Content-Length: {len(data)}", "Content-Type: application/json"]
        if token:
            lines.append(f"Authorization: Bearer {token}")
        lines += [f"{k.replace('_', '-')}: {v}" for k, v in headers.items()]
        return ("\r\n".join(lines) + "\r\n\r\n").encode() + data

    @staticmethod
    def answers(stream, count):
        """`count` answers read from `stream`: (status, client-request-id, JSON body or None)."""
        out = []
        for _ in range(count):
            status = int(stream.readline().split()[1])
            headers = {}
            while (line := stream.readline().decode().strip()):
                name, value = line.split(":", 1)
                headers[name.lower()] = value.strip()
            raw = stream.read(int(headers.get("content-length", 0)))
            out.append((status, headers.get("client-request-id"), json.loads(raw) if raw else None))
        return out

    def one(self, method, path, body=None, **headers):
        """The answers to the request and to a plain one right behind it, on one connection."""
        self.n += 1
        mark, after = f"asked-{self.n}", f"after-{self.n}"
        with socket.create_connection(self.http.server_address) as conn:
            conn.sendall(self.request(method, path, mark, body, **headers)
                         + self.request("GET", "/_fake/settings", after, token=None))
            found = self.answers(conn.makefile("rb"), 2)
        self.assertEqual([a[1] for a in found], [mark, after], f"{method} {path}: {found}")
        self.assertEqual(found[1][0], 200)
        return found[0]

    def made(self, subject="x"):
        status, _, event = self.one("POST", "/v1.0/me/events", body("2026-03-02T10:00:00", "2026-03-02T11:00:00",
                                                                      subject=subject))
        self.assertEqual(status, 201)
        return event

    def test_a_route_and_the_fakes_own_refusals_answer_once(self):
        self.assertEqual(self.one("GET", "/v1.0/me")[0], 200)
        self.assertEqual(self.one("GET", "/v1.0/me", token=None)[0], 401)
        self.assertEqual(self.one("GET", "/v1.0/me/events/nothing")[0], 404)
        self.assertEqual(self.one("GET", "/_fake/nothing")[0], 404)
        self.http.fake.settings["maxConcurrent"] = 0
        self.assertEqual(self.one("GET", "/v1.0/me")[0], 429)

    def test_faults_answer_once_also_when_the_request_was_done(self):
        self.http.fake.faults.add({"status": 503, "method": "GET"})
        self.assertEqual(self.one("GET", "/v1.0/me/calendars")[0], 503)
        self.http.fake.faults.add({"status": 504, "after": True, "method": "POST", "path": "/events"})
        status, _, _ = self.one("POST", "/v1.0/me/events", body("2026-03-02T10:00:00", "2026-03-02T11:00:00"))
        self.assertEqual(status, 504)
        self.assertEqual(len(self.http.fake.mailbox.events), 1, "the lost answer's create was not made once")
        event = self.made()
        self.http.fake.faults.add({"kind": "editFirst", "after": True, "id": event["id"],
                                   "body": {"subject": "edited"}})
        self.assertEqual(self.one("GET", f"/v1.0/me/events/{event['id']}")[2]["subject"], "x")
        self.assertEqual(self.http.fake.mailbox.events[event["id"]].props["subject"], "edited")

    def test_a_batch_and_a_refused_write_answer_once(self):
        event = self.made()
        status, _, answer = self.one("POST", "/v1.0/$batch", {"requests": [
            {"id": "1", "method": "GET", "url": f"/me/events/{event['id']}"},
            {"id": "2", "method": "GET", "url": "/me/events/nothing"}]})
        self.assertEqual((status, [r["status"] for r in answer["responses"]]), (200, [200, 404]))
        self.assertEqual(self.one("PATCH", f"/v1.0/me/events/{event['id']}", {"subject": "y"},
                                  If_Match='W/"stale"')[0], 412)
        self.http.fake.settings["honoursIfMatch"] = 0
        self.assertEqual(self.one("PATCH", f"/v1.0/me/events/{event['id']}", {"subject": "y"},
                                  If_Match='W/"stale"')[0], 200)


if __name__ == "__main__":
    unittest.main()
