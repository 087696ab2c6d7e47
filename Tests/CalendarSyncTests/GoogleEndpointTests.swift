import Foundation
import Testing
@testable import CalendarSync

/// Google Calendar's CalDAV endpoint, told apart by its address: its calendars named by their
/// id, and none made there.
@Suite struct GoogleEndpointTests {
    /// `/caldav/v2/<calendar id>/events/`: every last segment is `events`, so the id names the
    /// folder (vdirsyncer's `_get_collection_from_url` does the same).
    @Test func googleCalendarsAreNamedByTheirId() {
        let home = "/caldav/v2/"
        let primary: CollectionHref = "/caldav/v2/alice%40gmail.com/events/"
        let team: CollectionHref = "/caldav/v2/c_9f3b2a%40group.calendar.google.com/events/"
        let plan = CollectionPlan.plan(mapping: .init(), remote: [primary, team], local: [], home: home)
        let names = Dictionary(uniqueKeysWithValues: plan.newLocal.map { ($0.href, $0.name) })
        #expect(names[primary]?.hasPrefix("alice") == true, "\(names)")
        #expect(names[team]?.hasPrefix("c_9f3b2a") == true, "\(names)")
        #expect(!names.values.contains { $0.hasPrefix("events") })
    }

    /// Elsewhere a calendar called `events` keeps its name.
    @Test func aCalendarCalledEventsElsewhereKeepsItsName() {
        let plan = CollectionPlan.plan(
            mapping: .init(), remote: ["/dav/calendars/alice/events/"], local: [], home: "/dav/calendars/alice/")
        #expect(plan.newLocal.map(\.name) == ["events"])
    }

    @Test func googlesEndpointIsKnownByItsAddress() {
        #expect(GoogleCalDAV.recognises(URL(string: "https://apidata.googleusercontent.com/caldav/v2/a%40b.c/user")!))
        #expect(GoogleCalDAV.recognises(URL(string: "http://127.0.0.1:8080/caldav/v2/a%40b.c/events/")!))
        #expect(!GoogleCalDAV.recognises(URL(string: "https://dav.example.com/calendars/alice/")!))
    }

    /// `@` and `%40` name one calendar (DAVx5 #2817): a mapping kept with one spelling matches
    /// a listing with the other, so the calendar keeps its folder and is not copied again.
    @Test func aCalendarIsOneWhicheverWayItsAtIsWritten() {
        #expect(CollectionHref("/caldav/v2/a%40b.c/events/") == CollectionHref("/caldav/v2/a@b.c/events/"))
        #expect(CollectionHref("/caldav/v2/a%40b.c/events/").path == "/caldav/v2/a@b.c/events/")
        let kept = CollectionMapping(entries: [
            .init(name: "alice@gmail.com", href: "/caldav/v2/alice%40gmail.com/events/")
        ])
        let plan = CollectionPlan.plan(
            mapping: kept, remote: ["/caldav/v2/alice@gmail.com/events/"], local: ["alice@gmail.com"],
            home: "/caldav/v2/alice@gmail.com/")
        #expect(plan.sync.map(\.name) == ["alice@gmail.com"])
        #expect(plan.newLocal.isEmpty && plan.newRemote.isEmpty && plan.goneRemote.isEmpty && plan.goneLocal.isEmpty)
        // A path with an invalid escape is kept as written.
        #expect(CollectionHref("/cal/100%zz/").path == "/cal/100%zz/")
    }
}
