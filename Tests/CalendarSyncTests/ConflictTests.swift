import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync

@Suite struct ConflictTests {
    /// Synced `v1`, then local changes the summary and remote the location.
    func conflict() async throws -> SyncHarness {
        let h = try SyncHarness()
        h.local.put(
            "a.ics",
            TestEvent.data(
                uid: "a", summary: "v1", duration: "PT1H", location: "Room 1", extra: ["ATTENDEE:mailto:x@example.com"])
        )
        try await h.sync()
        h.local.put(
            "a.ics",
            TestEvent.data(
                uid: "a", summary: "local title", duration: "PT1H", lastModified: "20260102T000000Z",
                location: "Room 1",
                extra: ["ATTENDEE:mailto:x@example.com", "ATTENDEE:mailto:l@example.com"]))
        h.remote.put(
            "a.ics",
            TestEvent.data(
                uid: "a", summary: "v1", duration: "PT1H", lastModified: "20260101T000000Z", location: "Room 2",
                extra: ["ATTENDEE:mailto:x@example.com", "ATTENDEE:mailto:r@example.com"]))
        return h
    }

    func text(_ h: SyncHarness, _ side: Side) -> String {
        String(decoding: h.items(side)["a"] ?? Data(), as: UTF8.self)
    }

    @Test func mergeKeepsEditsToDifferentPropertiesAndUnionsAttendees() async throws {
        let h = try await conflict()
        let report = try await h.sync(SyncPolicy(conflict: .merge))
        #expect(report.conflicts == [.init(uid: "a", resolution: .resolved(.merge))])
        let merged = text(h, .local)
        #expect(merged.contains("SUMMARY:local title"))
        #expect(merged.contains("LOCATION:Room 2"))
        for person in ["x", "l", "r"] { #expect(merged.contains("mailto:\(person)@example.com")) }
        #expect(merged.components(separatedBy: "mailto:x@").count == 2, "x once")
        #expect(h.converged())
        #expect(try await h.sync() == SyncReport())
    }

    @Test func mergeClashFallsBackToNewest() async throws {
        let h = try SyncHarness()
        h.local.put("a.ics", TestEvent.data(uid: "a", summary: "v1", duration: "PT1H"))
        try await h.sync()
        h.local.put(
            "a.ics", TestEvent.data(uid: "a", summary: "older", duration: "PT1H", lastModified: "20260101T000000Z"))
        h.remote.put(
            "a.ics", TestEvent.data(uid: "a", summary: "newer", duration: "PT1H", lastModified: "20260105T000000Z"))
        try await h.sync()
        #expect(h.summaries(.local)["a"] == "newer")
        #expect(h.converged())
    }

    @Test func newestUsesSequenceWhenLastModifiedTies() async throws {
        let h = try SyncHarness()
        h.local.put("a.ics", TestEvent.data(uid: "a", summary: "v1", duration: "PT1H"))
        try await h.sync()
        h.local.put("a.ics", TestEvent.data(uid: "a", summary: "seq 3", duration: "PT1H", extra: ["SEQUENCE:3"]))
        h.remote.put("a.ics", TestEvent.data(uid: "a", summary: "seq 2", duration: "PT1H", extra: ["SEQUENCE:2"]))
        let report = try await h.sync(SyncPolicy(conflict: .newest))
        #expect(report.conflicts.first?.resolution == .resolved(.newest))
        #expect(h.summaries(.remote)["a"] == "seq 3")
    }

    @Test(arguments: [(ConflictStrategy.localWins, "local title"), (.remoteWins, "v1")])
    func sideWins(strategy: ConflictStrategy, summary: String) async throws {
        let h = try await conflict()
        let report = try await h.sync(SyncPolicy(conflict: strategy))
        #expect(report.conflicts == [.init(uid: "a", resolution: ConflictOutcome(strategy))])
        #expect(h.summaries(.local)["a"] == summary)
        #expect(h.converged())
    }

    @Test func keepBothKeepsBothVersions() async throws {
        let h = try await conflict()
        try await h.sync(SyncPolicy(conflict: .keepBoth))
        let local = h.summaries(.local)
        #expect(local.count == 2)
        #expect(local["a"] == "v1")
        #expect(local.values.contains("local title"))
        #expect(h.converged())
        #expect(try await h.sync(SyncPolicy(conflict: .keepBoth)) == SyncReport())
    }

    @Test func askWithoutATerminalLeavesItUnresolved() async throws {
        let h = try await conflict()
        let before = (h.items(.local), h.items(.remote))
        let report = try await h.sync(SyncPolicy(conflict: .ask))
        #expect(report.unresolvedConflicts == 1)
        #expect(h.items(.local) == before.0 && h.items(.remote) == before.1)
        // Answered on a terminal: the chosen strategy applies.
        let answered = try await h.engine(SyncPolicy(conflict: .ask), prompt: { _ in .remoteWins }).run()
        #expect(answered.conflicts == [.init(uid: "a", resolution: .resolved(.remoteWins))])
        #expect(h.summaries(.local)["a"] == "v1")
    }

    /// No journal row, so no base: the times cannot say which copy is an edit of the other.
    @Test func bothNewWithDifferentContentKeepsBoth() async throws {
        let h = try SyncHarness()
        h.local.put(
            "a.ics", TestEvent.data(uid: "a", summary: "mine", duration: "PT1H", lastModified: "20260301T000000Z"))
        h.remote.put(
            "a.ics", TestEvent.data(uid: "a", summary: "theirs", duration: "PT1H", lastModified: "20260101T000000Z"))
        let report = try await h.sync()
        #expect(report.conflicts.first?.resolution == .resolved(.keepBoth))
        #expect(h.summaries(.local)["a"] == "theirs")
        #expect(h.summaries(.local).values.sorted() == ["mine", "theirs"] && h.converged())
    }

    @Test func mergeOfRecurringOverrides() {
        let base = """
            BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:r\r\nDTSTART:20260101T100000Z\r\nRRULE:FREQ=DAILY\r\nSUMMARY:series\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """
        let local = """
            BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:r\r\nDTSTART:20260101T100000Z\r\nRRULE:FREQ=DAILY\r\nSUMMARY:series renamed\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """
        let remote = """
            BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:r\r\nDTSTART:20260101T100000Z\r\nRRULE:FREQ=DAILY\r\nSUMMARY:series\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:r\r\nRECURRENCE-ID:20260103T100000Z\r\nDTSTART:20260103T120000Z\r\nSUMMARY:moved\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """
        let merged = String(
            decoding: ThreeWayMerge.merge(base: Data(base.utf8), local: Data(local.utf8), remote: Data(remote.utf8))!,
            as: UTF8.self)
        #expect(merged.contains("SUMMARY:series renamed"))
        #expect(merged.contains("RECURRENCE-ID:20260103T100000Z"))
        #expect(merged.components(separatedBy: "BEGIN:VEVENT").count == 3)
    }

    @Test func attendeesAndOtherListsMergeAsSetsAgainstTheBase() {
        func event(_ lines: [String]) -> Data {
            TestEvent.data(uid: "m", summary: "standup", start: "20260101T100000Z", extra: ["RRULE:FREQ=DAILY"] + lines)
        }
        let base = event(["ATTENDEE;CN=X:mailto:x@example.com", "ATTENDEE:mailto:y@example.com", "CATEGORIES:work"])
        // Local removes y and adds a second category line; remote adds z, an exception date and
        // changes x's participation.
        let local = event([
            "ATTENDEE;CN=X:mailto:x@example.com", "CATEGORIES:work", "CATEGORIES:daily", "EXDATE:20260103T100000Z",
        ])
        let remote = event([
            "ATTENDEE;CN=X;PARTSTAT=ACCEPTED:mailto:x@example.com", "ATTENDEE:mailto:y@example.com",
            "ATTENDEE:mailto:z@example.com", "CATEGORIES:work", "EXDATE:20260105T100000Z",
        ])
        for (l, r) in [(local, remote), (remote, local)] {
            let merged = String(decoding: ThreeWayMerge.merge(base: base, local: l, remote: r)!, as: UTF8.self)
            #expect(!merged.contains("mailto:y@example.com"), "the removal of y came back: \(merged)")
            #expect(merged.contains("mailto:z@example.com"), "the addition of z was lost: \(merged)")
            #expect(merged.components(separatedBy: "mailto:x@example.com").count == 2, "x once: \(merged)")
            #expect(merged.contains("PARTSTAT=ACCEPTED"), "x's change was lost: \(merged)")
            #expect(merged.contains("CATEGORIES:daily") && merged.contains("CATEGORIES:work"), "\(merged)")
            #expect(
                merged.contains("20260103T100000Z") && merged.contains("20260105T100000Z"),
                "an exception date was lost: \(merged)")
        }
        // Both removing the same person, and one side removing one the other changed.
        let bothRemove = String(
            decoding: ThreeWayMerge.merge(
                base: base, local: event(["ATTENDEE;CN=X:mailto:x@example.com"]),
                remote: event([
                    "ATTENDEE;CN=X:mailto:x@example.com", "CATEGORIES:work",
                    "ATTENDEE:mailto:w@example.com",
                ]))!, as: UTF8.self)
        #expect(
            !bothRemove.contains("mailto:y@") && bothRemove.contains("mailto:w@") && !bothRemove.contains("CATEGORIES"),
            "\(bothRemove)")
    }
}
