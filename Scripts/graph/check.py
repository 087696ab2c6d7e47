"""The fake Graph server checked with a real Graph client: msgraph-sdk (Microsoft's Python SDK,
pinned in requirements.txt) runs a sync client's operations against it and every answer must
deserialise into the SDK's models with nothing lost (etags, ids, recurrence fields, @removed).

    Scripts/graph/.venv/bin/python3 Scripts/graph/check.py CALGW_GRAPH_URL CALGW_GRAPH_TOKEN

Prints one line per check ("ok NAME" or "FAIL NAME: why") and a closing "N passed, N failed";
exits 0 only if all passed. The SDK is aimed at the fake as its own README allows: a
GraphRequestAdapter with `base_url` set and a bearer provider giving the fake's static token.
"""

import asyncio
import datetime as dt
import json
import sys
import traceback
import urllib.parse
import urllib.request

from kiota_abstractions.authentication import AccessTokenProvider, AllowedHostsValidator
from kiota_abstractions.authentication.base_bearer_token_authentication_provider import \
    BaseBearerTokenAuthenticationProvider
from kiota_abstractions.base_request_configuration import RequestConfiguration
from msgraph import GraphRequestAdapter, GraphServiceClient
from msgraph.generated.models.attendee import Attendee
from msgraph.generated.models.date_time_time_zone import DateTimeTimeZone
from msgraph.generated.models.email_address import EmailAddress
from msgraph.generated.models.event import Event
from msgraph.generated.models.event_type import EventType
from msgraph.generated.models.item_body import ItemBody
from msgraph.generated.models.location import Location
from msgraph.generated.models.o_data_errors.o_data_error import ODataError
from msgraph.generated.models.day_of_week import DayOfWeek
from msgraph.generated.models.patterned_recurrence import PatternedRecurrence
from msgraph.generated.models.recurrence_pattern import RecurrencePattern
from msgraph.generated.models.recurrence_pattern_type import RecurrencePatternType
from msgraph.generated.models.recurrence_range import RecurrenceRange
from msgraph.generated.models.recurrence_range_type import RecurrenceRangeType
from msgraph.generated.models.single_value_legacy_extended_property import SingleValueLegacyExtendedProperty
from msgraph.generated.users.item.calendars.item.calendar_view.delta.delta_request_builder import DeltaRequestBuilder
from msgraph.generated.users.item.calendars.item.events.events_request_builder import EventsRequestBuilder
from msgraph.generated.users.item.events.item.event_item_request_builder import EventItemRequestBuilder
from msgraph.generated.users.item.events.item.instances.instances_request_builder import InstancesRequestBuilder

PROP_ID = "String {66f5a359-4659-4830-9070-00040ec6ac6e} Name calgw-uid"
WINDOW = ("2026-03-01T00:00:00Z", "2026-05-01T00:00:00Z")


class StaticToken(AccessTokenProvider):
    """The fake's token, for loopback hosts only."""

    def __init__(self, token, host):
        self.token, self.validator = token, AllowedHostsValidator([host])

    async def get_authorization_token(self, uri, additional_authentication_context=None):
        return self.token if self.validator.is_url_host_valid(uri) else ""

    def get_allowed_hosts_validator(self):
        return self.validator


class Checks:
    def __init__(self, url, token):
        self.url, self.token = url, token
        self.root = url.rsplit("/v1.0", 1)[0]
        host = urllib.parse.urlsplit(url).netloc
        self.client = self._client(token, host)
        self.results = []
        self.ctx = {}

    def _client(self, token, host):
        adapter = GraphRequestAdapter(BaseBearerTokenAuthenticationProvider(StaticToken(token, host.split(":")[0])))
        adapter.base_url = self.url
        return GraphServiceClient(request_adapter=adapter)

    # --- helpers ----------------------------------------------------------------------------

    def control(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.root + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req) as answer:
            raw = answer.read()
            return json.loads(raw) if raw else None

    @staticmethod
    def config(query=None, **headers):
        conf = RequestConfiguration(query_parameters=query)
        for name, value in headers.items():
            conf.headers.add(name.replace("_", "-"), value)
        return conf

    def me(self):
        return self.client.me

    async def expect_error(self, coroutine, status, code):
        try:
            await coroutine
        except ODataError as error:
            got = (error.response_status_code, error.error.code if error.error else None)
            assert got == (status, code), f"expected {status} {code}, got {got}"
            return error
        raise AssertionError(f"expected {status} {code}, got success")

    async def run(self, name, check):
        try:
            await check()
            self.results.append(True)
            print(f"ok   {name}", flush=True)
        except Exception as error:  # every failure is reported, the run goes on
            self.results.append(False)
            detail = str(error) or type(error).__name__
            print(f"FAIL {name}: {detail}", flush=True)
            if "--verbose" in sys.argv:
                traceback.print_exc()


def when(local, zone="W. Europe Standard Time"):
    return DateTimeTimeZone(date_time=local, time_zone=zone)


def etag_of(event):
    return (event.additional_data or {}).get("@odata.etag")


# --- the checks, in order: later ones use what earlier ones made (self.ctx) ----------------------

async def unauthenticated(c):
    anonymous = Checks(c.url, "not-the-token")
    error = await c.expect_error(anonymous.me().calendars.get(), 401, "InvalidAuthenticationToken")
    assert error.error.inner_error is not None, "innerError not deserialised"


async def list_calendars(c):
    shared = c.control("POST", "/_fake/calendars", {"name": "Kids parties", "color": "lightYellow", "canEdit": False,
                                                    "owner": {"name": "Bob", "address": "bob@example.org"}})
    answer = await c.me().calendars.get()
    by_name = {cal.name: cal for cal in answer.value}
    default = by_name["Calendar"]
    assert default.is_default_calendar and default.can_edit and default.owner.address == "alice@example.org"
    assert default.change_key and default.hex_color == "" and default.color.value == "auto"
    ro = by_name["Kids parties"]
    assert ro.id == shared["id"] and ro.can_edit is False and ro.can_share is False
    assert ro.owner.address == "bob@example.org" and ro.color.value == "lightYellow"
    got = await c.me().calendars.by_calendar_id(default.id).get()
    assert got.id == default.id and got.name == "Calendar"
    c.ctx.update(calendar=default.id, shared=ro.id)


async def read_only_calendar_refuses_writes(c):
    event = Event(subject="x", start=when("2026-03-03T10:00:00"), end=when("2026-03-03T11:00:00"))
    await c.expect_error(c.me().calendars.by_calendar_id(c.ctx["shared"]).events.post(event), 403, "ErrorAccessDenied")


def single_event():
    return Event(
        subject="Dentist", body=ItemBody(content_type=None, content="Bring the card"),
        start=when("2026-03-10T14:00:00"), end=when("2026-03-10T15:00:00"),
        location=Location(display_name="Main Street 1"), transaction_id="calgw-7e163156",
        attendees=[Attendee(email_address=EmailAddress(address="bob@example.org", name="Bob"))],
        single_value_extended_properties=[SingleValueLegacyExtendedProperty(id=PROP_ID, value="uid-dentist@calgw")],
    )


async def create_single(c):
    created = await c.me().calendars.by_calendar_id(c.ctx["calendar"]).events.post(single_event())
    assert created.id and created.change_key and etag_of(created) == f'W/"{created.change_key}"', etag_of(created)
    assert created.i_cal_u_id.startswith("040000008200E00074C5B7101A82E008"), created.i_cal_u_id
    assert created.type == EventType.SingleInstance and created.transaction_id == "calgw-7e163156"
    assert created.start.date_time == "2026-03-10T13:00:00.0000000" and created.start.time_zone == "UTC", created.start
    assert created.original_start_time_zone == "W. Europe Standard Time"
    assert created.attendees[0].status.response.value == "none" and created.location.display_name == "Main Street 1"
    assert created.locations[0].display_name == "Main Street 1" and created.body.content_type.value == "html"
    c.ctx["single"] = created


async def transaction_id_dedup(c):
    again = await c.me().calendars.by_calendar_id(c.ctx["calendar"]).events.post(single_event())
    assert again.id == c.ctx["single"].id, "a second event was made"
    state = c.control("GET", "/_fake/state")
    assert sum(1 for e in state["events"] if e["props"].get("subject") == "Dentist") == 1


async def get_with_extended_property(c):
    query = EventItemRequestBuilder.EventItemRequestBuilderGetQueryParameters(
        expand=[f"singleValueExtendedProperties($filter=id eq '{PROP_ID}')"])
    got = await c.me().events.by_event_id(c.ctx["single"].id).get(c.config(query))
    assert got.change_key == c.ctx["single"].change_key and got.subject == "Dentist"
    props = got.single_value_extended_properties or []
    assert [(p.id, p.value) for p in props] == [(PROP_ID, "uid-dentist@calgw")], props
    plain = await c.me().events.by_event_id(c.ctx["single"].id).get()
    assert plain.single_value_extended_properties is None, "extended properties returned unasked"


async def prefer_time_zone(c):
    got = await c.me().events.by_event_id(c.ctx["single"].id).get(
        c.config(Prefer='outlook.timezone="Pacific Standard Time"'))
    assert got.start.time_zone == "Pacific Standard Time" and got.start.date_time == "2026-03-10T06:00:00.0000000", got.start


async def patch_with_if_match(c):
    single = c.ctx["single"]
    patched = await c.me().events.by_event_id(single.id).patch(Event(subject="Dentist (moved)"),
                                                             c.config(If_Match=etag_of(single)))
    assert patched.subject == "Dentist (moved)" and patched.change_key != single.change_key
    assert patched.location.display_name == "Main Street 1" and patched.start.date_time == single.start.date_time
    c.ctx["patched"] = patched


async def stale_if_match(c):
    error = await c.expect_error(
        c.me().events.by_event_id(c.ctx["single"].id).patch(Event(subject="lost"), c.config(If_Match=etag_of(c.ctx["single"]))),
        412, "ErrorIrresolvableConflict")
    assert "change key" in error.error.message
    await c.expect_error(c.me().events.by_event_id(c.ctx["single"].id).delete(c.config(If_Match=etag_of(c.ctx["single"]))),
                         412, "ErrorIrresolvableConflict")


def weekly_series():
    pattern = RecurrencePattern(type=RecurrencePatternType.Weekly, interval=1,
                                days_of_week=[DayOfWeek.Monday, DayOfWeek.Thursday])
    rng = RecurrenceRange(type=RecurrenceRangeType.Numbered, start_date=dt.date(2026, 3, 23), number_of_occurrences=6)
    return Event(subject="Stand-up", start=when("2026-03-23T09:00:00"), end=when("2026-03-23T09:15:00"),
                 recurrence=PatternedRecurrence(pattern=pattern, range=rng), transaction_id="calgw-series-1")


async def create_recurring(c):
    master = await c.me().calendars.by_calendar_id(c.ctx["calendar"]).events.post(weekly_series())
    pattern, rng = master.recurrence.pattern, master.recurrence.range
    assert master.type == EventType.SeriesMaster
    assert pattern.type == RecurrencePatternType.Weekly and pattern.interval == 1
    assert pattern.days_of_week == [DayOfWeek.Monday, DayOfWeek.Thursday], pattern.days_of_week
    assert pattern.first_day_of_week == DayOfWeek.Sunday and pattern.index.value == "first"
    assert rng.type == RecurrenceRangeType.Numbered and rng.number_of_occurrences == 6
    assert rng.start_date == dt.date(2026, 3, 23) and rng.recurrence_time_zone == "W. Europe Standard Time"
    c.ctx["master"] = master


async def instances_across_dst(c):
    query = InstancesRequestBuilder.InstancesRequestBuilderGetQueryParameters(start_date_time=WINDOW[0], end_date_time=WINDOW[1])
    answer = await c.me().events.by_event_id(c.ctx["master"].id).instances.get(c.config(query))
    starts = [e.start.date_time for e in answer.value]
    # 09:00 in Berlin: 08:00Z before the change to summer time on 2026-03-29, 07:00Z after.
    assert starts == ["2026-03-23T08:00:00.0000000", "2026-03-26T08:00:00.0000000", "2026-03-30T07:00:00.0000000",
                      "2026-04-02T07:00:00.0000000", "2026-04-06T07:00:00.0000000", "2026-04-09T07:00:00.0000000"], starts
    assert all(e.type == EventType.Occurrence and e.series_master_id == c.ctx["master"].id for e in answer.value)
    assert answer.value[2].original_start == dt.datetime(2026, 3, 30, 7, tzinfo=dt.timezone.utc)
    assert len({e.i_cal_u_id for e in answer.value}) == 6, "iCalUId not different per occurrence"
    c.ctx["instances"] = answer.value


async def delete_occurrence(c):
    victim = c.ctx["instances"][1]
    await c.me().events.by_event_id(victim.id).delete()
    query = InstancesRequestBuilder.InstancesRequestBuilderGetQueryParameters(start_date_time=WINDOW[0], end_date_time=WINDOW[1])
    answer = await c.me().events.by_event_id(c.ctx["master"].id).instances.get(c.config(query))
    assert victim.id not in [e.id for e in answer.value] and len(answer.value) == 5
    query = EventItemRequestBuilder.EventItemRequestBuilderGetQueryParameters(select=["subject", "cancelledOccurrences"])
    master = await c.me().events.by_event_id(c.ctx["master"].id).get(c.config(query))
    assert master.cancelled_occurrences == [f"OID.{master.id}.2026-03-26"], master.cancelled_occurrences


async def patch_occurrence(c):
    target = c.ctx["instances"][2]
    moved = await c.me().events.by_event_id(target.id).patch(
        Event(subject="Stand-up (late)", start=when("2026-03-30T11:00:00"), end=when("2026-03-30T11:15:00")))
    assert moved.type == EventType.Exception and moved.id == target.id and moved.subject == "Stand-up (late)"
    assert moved.start.date_time == "2026-03-30T09:00:00.0000000", moved.start
    query = EventItemRequestBuilder.EventItemRequestBuilderGetQueryParameters(
        select=["subject", "exceptionOccurrences", "cancelledOccurrences"], expand=["exceptionOccurrences"])
    master = await c.me().events.by_event_id(c.ctx["master"].id).get(c.config(query))
    assert [e.id for e in master.exception_occurrences] == [target.id], master.exception_occurrences
    assert master.exception_occurrences[0].original_start == dt.datetime(2026, 3, 30, 7, tzinfo=dt.timezone.utc)
    c.ctx["exception"] = moved


async def list_events_in_pages(c):
    """The calendar's singles and masters, a page of one at a time, each whole as selected and
    expanded (as calgw's first sync reads them, 1,000 a page); `$top` past 1,000 is cut to it."""
    events = c.me().calendars.by_calendar_id(c.ctx["calendar"]).events
    query = EventsRequestBuilder.EventsRequestBuilderGetQueryParameters(
        top=1, select=["subject", "changeKey", "type", "recurrence", "cancelledOccurrences"],
        expand=["exceptionOccurrences", f"singleValueExtendedProperties($filter=id eq '{PROP_ID}')"])
    page = await events.get(c.config(query))
    found, pages = list(page.value), 1
    while page.odata_next_link:
        page = await events.with_url(page.odata_next_link).get()
        found += page.value
        pages += 1
    assert pages == len(found) >= 2, (pages, len(found))
    by_id = {e.id: e for e in found}
    single, master = by_id[c.ctx["single"].id], by_id[c.ctx["master"].id]
    assert [(p.id, p.value) for p in single.single_value_extended_properties] == [(PROP_ID, "uid-dentist@calgw")]
    assert master.type == EventType.SeriesMaster and master.recurrence is not None
    assert [e.id for e in master.exception_occurrences] == [c.ctx["exception"].id], master.exception_occurrences
    assert master.cancelled_occurrences == [f"OID.{master.id}.2026-03-26"], master.cancelled_occurrences
    whole = await events.get(c.config(EventsRequestBuilder.EventsRequestBuilderGetQueryParameters(top=5000)))
    assert whole.odata_next_link is None and len(whole.value) == len(found)


async def crossing_boundary(c):
    target = c.ctx["instances"][3]   # 2026-04-02, between 03-30 and 04-06
    await c.expect_error(c.me().events.by_event_id(target.id).patch(
        Event(start=when("2026-04-06T10:00:00"), end=when("2026-04-06T10:15:00"))), 400, "ErrorOccurrenceCrossingBoundary")


async def delta_round(c, link=None, **headers):
    """All pages of one round: (events, deltaLink, number of pages)."""
    builder = c.me().calendars.by_calendar_id(c.ctx["calendar"]).calendar_view.delta
    headers = {"Prefer": "odata.maxpagesize=3", **headers}
    if link:
        page = await builder.with_url(link).get(c.config(**headers))
    else:
        query = DeltaRequestBuilder.DeltaRequestBuilderGetQueryParameters(start_date_time=WINDOW[0], end_date_time=WINDOW[1])
        page = await builder.get(c.config(query, **headers))
    items, pages = list(page.value), 1
    while page.odata_next_link:
        assert pages < 50, "nextLink loop"
        page = await builder.with_url(page.odata_next_link).get(c.config(**headers))
        items += page.value
        pages += 1
    return items, page.odata_delta_link, pages


async def delta_initial(c):
    items, link, pages = await delta_round(c)
    kinds = sorted(e.type.value for e in items)
    assert kinds == ["exception"] + ["occurrence"] * 4 + ["singleInstance"], kinds
    assert pages == 2 and link and "$deltatoken=" in link, (pages, link)
    # Occurrences are stubs (@odata.etag, id, type, seriesMasterId, start, end: docs-contrib #5602).
    assert all(etag_of(e) == f'W/"{e.change_key}"' for e in items if e.type.value != "occurrence")
    assert all(e.subject is None and e.change_key is None and e.series_master_id
               for e in items if e.type.value == "occurrence")
    c.ctx["deltaLink"] = link


async def delta_follow_up(c):
    await c.me().events.by_event_id(c.ctx["single"].id).delete()
    extra = await c.me().calendars.by_calendar_id(c.ctx["calendar"]).events.post(
        Event(subject="Lunch", start=when("2026-04-20T12:00:00"), end=when("2026-04-20T13:00:00")))
    items, link, _ = await delta_round(c, c.ctx["deltaLink"])
    removed = [e for e in items if (e.additional_data or {}).get("@removed")]
    assert [(e.id, e.additional_data["@removed"]) for e in removed] == [(c.ctx["single"].id, {"reason": "deleted"})], removed
    assert [e.id for e in items if not (e.additional_data or {}).get("@removed")] == [extra.id]
    assert link and link != c.ctx["deltaLink"]
    again, _, _ = await delta_round(c, link)
    assert again == [], f"{len(again)} changes after no change"
    c.ctx["deltaLink"] = link


async def delta_master_moves_out(c):
    await c.me().events.by_event_id(c.ctx["master"].id).patch(Event(
        start=when("2026-06-01T09:00:00"), end=when("2026-06-01T09:15:00"),
        recurrence=PatternedRecurrence(
            pattern=RecurrencePattern(type=RecurrencePatternType.Daily, interval=1),
            range=RecurrenceRange(type=RecurrenceRangeType.EndDate, start_date=dt.date(2026, 6, 1), end_date=dt.date(2026, 6, 5)))))
    items, link, _ = await delta_round(c, c.ctx["deltaLink"])
    removed = {e.id for e in items if (e.additional_data or {}).get("@removed")}
    shown = {i.id for i in c.ctx["instances"]} - {c.ctx["instances"][1].id}
    assert shown <= removed, "occurrences that left the window were not removed"
    c.ctx["deltaLink"] = link


async def expired_delta_token(c):
    c.control("POST", "/_fake/delta/expire")
    builder = c.me().calendars.by_calendar_id(c.ctx["calendar"]).calendar_view.delta
    await c.expect_error(builder.with_url(c.ctx["deltaLink"]).get(), 410, "syncStateNotFound")


async def window_required(c):
    builder = c.me().calendars.by_calendar_id(c.ctx["calendar"]).calendar_view.delta
    await c.expect_error(builder.get(), 400, "ErrorInvalidParameter")
    query = DeltaRequestBuilder.DeltaRequestBuilderGetQueryParameters(start_date_time="2020-01-01T00:00:00Z",
                                                                       end_date_time="2026-01-01T00:00:00Z")
    await c.expect_error(builder.get(c.config(query)), 400, "ErrorInvalidRequest")


async def throttled_then_retried(c):
    c.control("POST", "/_fake/faults", {"status": 429, "retryAfter": 1, "count": 1, "path": "/me/calendars"})
    before = len(c.control("GET", "/_fake/requests")["value"])
    answer = await c.me().calendars.get()
    statuses = [r["status"] for r in c.control("GET", "/_fake/requests")["value"][before:]]
    assert answer.value and statuses == [429, 200], statuses


async def concurrency_limit(c):
    c.control("POST", "/_fake/settings", {"delayMs": 400})
    try:
        before = len(c.control("GET", "/_fake/requests")["value"])
        results = await asyncio.gather(*[c.me().calendars.get() for _ in range(6)], return_exceptions=True)
    finally:
        c.control("POST", "/_fake/settings", {"delayMs": 0})
    statuses = [r["status"] for r in c.control("GET", "/_fake/requests")["value"][before:]]
    assert all(not isinstance(r, Exception) for r in results), results
    assert 429 in statuses, f"6 at once were never throttled: {statuses}"


async def mails_in_ledger(c):
    ledger = c.control("GET", "/_fake/ledger")["value"]
    kinds = [(m["kind"], m["to"]) for m in ledger]
    assert kinds == [("invitation", ["bob@example.org"]), ("cancellation", ["bob@example.org"])], kinds


async def answer_invitation(c):
    invite = c.control("POST", "/_fake/invitations", {
        "organizer": {"name": "Carol", "address": "carol@example.org"},
        "event": {"subject": "Review", "start": {"dateTime": "2026-04-21T10:00:00", "timeZone": "UTC"},
                  "end": {"dateTime": "2026-04-21T11:00:00", "timeZone": "UTC"},
                  "attendees": [{"emailAddress": {"address": "alice@example.org"}}]}})
    from msgraph.generated.users.item.events.item.accept.accept_post_request_body import AcceptPostRequestBody
    await c.me().events.by_event_id(invite["id"]).accept.post(AcceptPostRequestBody(comment="See you", send_response=True))
    got = await c.me().events.by_event_id(invite["id"]).get()
    assert got.is_organizer is False and got.response_status.response.value == "accepted"
    last = c.control("GET", "/_fake/ledger")["value"][-1]
    assert (last["kind"], last["to"], last["response"]) == ("response", ["carol@example.org"], "accepted"), last


async def get_schedule(c):
    from msgraph.generated.users.item.calendar.get_schedule.get_schedule_post_request_body import \
        GetSchedulePostRequestBody
    c.control("POST", "/_fake/schedules", {"bob@example.org": [
        {"start": "2027-03-10T10:00:00", "end": "2027-03-10T11:00:00", "status": "busy"}]})
    body = GetSchedulePostRequestBody(
        schedules=["bob@example.org", "nobody@example.org"],
        start_time=DateTimeTimeZone(date_time="2027-03-10T09:00:00", time_zone="UTC"),
        end_time=DateTimeTimeZone(date_time="2027-03-10T12:00:00", time_zone="UTC"), availability_view_interval=60)
    answer = await c.me().calendar.get_schedule.post(body)
    bob, nobody = answer.value
    assert (bob.schedule_id, bob.availability_view) == ("bob@example.org", "020"), bob.availability_view
    assert [(i.status.value, i.start.date_time[:19]) for i in bob.schedule_items] == [("busy", "2027-03-10T10:00:00")]
    assert nobody.error is not None and nobody.error.response_code == "5009", nobody.error


async def batch(c):
    from msgraph_core.requests.batch_request_content import BatchRequestContent
    from msgraph_core.requests.batch_request_item import BatchRequestItem
    create = c.me().calendars.by_calendar_id(c.ctx["calendar"]).events.to_post_request_information(
        Event(subject="Batched", start=when("2026-04-22T10:00:00"), end=when("2026-04-22T11:00:00")))
    listing = c.me().calendars.to_get_request_information()
    content = BatchRequestContent({"1": BatchRequestItem(create, id="1"), "2": BatchRequestItem(listing, id="2")})
    answer = await c.client.batch.post(content)
    assert answer.get_response_status_codes() == {"1": 201, "2": 200}, answer.get_response_status_codes()
    assert any(e["props"].get("subject") == "Batched" for e in c.control("GET", "/_fake/state")["events"])
    # msgraph-core 1.5.2 writes "depends_on" where Graph reads "dependsOn": a failed
    # dependency is checked with the documented JSON.
    raw = {"requests": [{"id": "1", "method": "PATCH", "url": "/me/events/AAMkAGZha2Vnone", "body": {"subject": "x"},
                         "headers": {"Content-Type": "application/json"}},
                        {"id": "2", "method": "GET", "url": "/me/calendars", "dependsOn": ["1"]}]}
    request = urllib.request.Request(c.url + "/$batch", data=json.dumps(raw).encode(), method="POST",
                                     headers={"Authorization": f"Bearer {c.token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request) as reply:
        statuses = [r["status"] for r in json.load(reply)["responses"]]
    assert statuses == [404, 424], statuses


async def delta_faults(c):
    c.control("POST", "/_fake/faults", {"status": 503, "retryAfter": 1, "path": "/calendarView/delta"})
    items, link, _ = await delta_round(c)          # the SDK retries the 503 by itself
    assert link and items
    c.control("POST", "/_fake/faults", {"kind": "repeatPage", "count": 2})
    builder = c.me().calendars.by_calendar_id(c.ctx["calendar"]).calendar_view.delta
    query = DeltaRequestBuilder.DeltaRequestBuilderGetQueryParameters(start_date_time=WINDOW[0], end_date_time=WINDOW[1])
    first = await builder.get(c.config(query, Prefer="odata.maxpagesize=1"))
    second = await builder.with_url(first.odata_next_link).get(c.config(Prefer="odata.maxpagesize=1"))
    assert second.odata_next_link == first.odata_next_link, "the repeated page did not link to itself"
    c.control("DELETE", "/_fake/faults")


async def body_as_text(c):
    event = await c.me().calendars.by_calendar_id(c.ctx["calendar"]).events.post(Event(
        subject="Notes", body=ItemBody(content="line one\nline <two>"), start=when("2026-04-23T10:00:00"),
        end=when("2026-04-23T11:00:00")))
    assert event.body.content_type.value == "html" and "line &lt;two&gt;" in event.body.content
    text = await c.me().events.by_event_id(event.id).get(c.config(Prefer='outlook.body-content-type="text"'))
    assert text.body.content_type.value == "text" and text.body.content == "line one\nline <two>", text.body.content


CHECKS = [unauthenticated, list_calendars, read_only_calendar_refuses_writes, create_single, transaction_id_dedup,
          get_with_extended_property, prefer_time_zone, patch_with_if_match, stale_if_match, create_recurring,
          instances_across_dst, delete_occurrence, patch_occurrence, list_events_in_pages, crossing_boundary,
          delta_initial,
          delta_follow_up, delta_master_moves_out, expired_delta_token, window_required, throttled_then_retried,
          concurrency_limit, mails_in_ledger, answer_invitation, get_schedule, batch, delta_faults, body_as_text]


async def main():
    url, token = sys.argv[1], sys.argv[2]
    checks = Checks(url, token)
    for check in CHECKS:
        await checks.run(check.__name__.replace("_", " "), lambda check=check: check(checks))
    passed = sum(checks.results)
    print(f"graph: {passed} passed, {len(checks.results) - passed} failed")
    return 0 if all(checks.results) else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
