import Foundation
import Testing
import CalgwTestSupport

/// Google's writes: `If-None-Match` unsupported, a PUT answered without an ETag, 409 on a
/// recurring event's update, no VTODO.
extension GoogleCalDAVTests {
    /// Creates stay safe whether the server honours `If-None-Match: *`, ignores it or refuses
    /// it (the guide: no `If*` header but If-Match): each item lands once, and an item the
    /// server already holds under the name a create would take is not replaced.
    @Test(arguments: ["honour", "ignore", "refuse"]) func createsStaySafeWhateverIfNoneMatchDoes(_ mode: String)
        async throws
    {
        let s = try await Setup("inm-\(mode)") { behaviours, _ in behaviours.ifNoneMatch = mode }
        defer { s.remove() }
        // Another client's event under the name calgw would give the new one (its UID's).
        try await s.putOnServer(
            TestEvent.data(uid: "theirs", summary: "Their event", end: "20260310T110000Z"), name: "mine.ics")
        try s.write("mine", TestEvent.data(uid: "mine", summary: "My event", end: "20260311T110000Z"))
        try s.write("second", TestEvent.data(uid: "second", summary: "Second", end: "20260312T110000Z"))
        var r = try await s.sync()
        #expect(r.status == 0, "\(Self.said(r))")
        r = try await s.sync()
        #expect(r.status == 0, "\(Self.said(r))")
        #expect(Self.changedNothing(r), "a second run changed something: \(r.stdoutText)")
        await #expect(try s.serverSummaries() == ["theirs": "Their event", "mine": "My event", "second": "Second"])
        #expect(try s.pair.summaries() == ["theirs": "Their event", "mine": "My event", "second": "Second"])
        #expect(try s.icsFiles().count == 3)
        // Refused once a run at most: later creates of the run go without it.
        if mode == "refuse" { #expect(s.count("refuse-if-none-match") <= 2, "asked again after a refusal") }
    }

    /// A PUT answered without an ETag (gggard/AndroidCaldavSyncAdapater #101): the version is
    /// read back, so a later edit goes up with If-Match and nothing is taken for a conflict.
    @Test func aPutWithoutAnETagIsReadBack() async throws {
        let s = try await Setup("noetag") { behaviours, _ in behaviours.noPutETag = true }
        defer { s.remove() }
        try s.write("e1", TestEvent.data(uid: "e1", summary: "v1", end: "20260310T110000Z"))
        var r = try await s.sync()
        #expect(r.status == 0, "\(Self.said(r))")
        #expect(s.count("no-put-etag") == 1)
        try s.write("e1", TestEvent.data(uid: "e1", summary: "v2", end: "20260310T110000Z"))
        r = try await s.sync()
        #expect(r.status == 0, "\(Self.said(r))")
        #expect(r.stdoutText.contains("remote: 0 created, 1 updated"), "\(r.stdoutText)")
        r = try await s.sync()
        #expect(r.status == 0 && Self.changedNothing(r), "\(Self.said(r))")
        await #expect(try s.serverSummaries() == ["e1": "v2"])
        #expect(try s.icsFiles() == ["e1.ics"])
    }

    /// 409 Conflict on the update of a recurring event (vdirsyncer #963): the run says which
    /// item and why, the other changes go up, and the change stays in the vdir.
    @Test func aRecurringUpdateRefusedWith409NamesTheItem() async throws {
        let s = try await Setup("rec409") { behaviours, _ in behaviours.recurringUpdateConflict = true }
        defer { s.remove() }
        /// A weekly event and a single one, both with SUMMARY `summary`.
        func writeBoth(_ summary: String) throws {
            let weekly = TestEvent.data(
                uid: "weekly", summary: summary, end: "20260310T110000Z", extra: ["RRULE:FREQ=WEEKLY;COUNT=10"])
            try s.write("weekly", weekly)
            try s.write("single", TestEvent.data(uid: "single", summary: summary, end: "20260311T110000Z"))
        }
        try writeBoth("v1")
        var r = try await s.sync()
        #expect(r.status == 0, "\(Self.said(r))")
        try writeBoth("v2")
        r = try await s.sync()
        #expect(r.status == 1, "\(Self.said(r))")
        #expect(s.count("recurring-conflict") >= 1)
        #expect(r.stderrText.contains("weekly"), "the item is not named: \(r.stderrText)")
        #expect(r.stderrText.contains("409"), "\(r.stderrText)")
        #expect(r.stderrText.contains("recurring"), "no word on why: \(r.stderrText)")
        await #expect(try s.serverSummaries() == ["weekly": "v1", "single": "v2"])
        #expect(try s.pair.summaries() == ["weekly": "v2", "single": "v2"])
        // Nothing is lost or doubled on the next run either.
        r = try await s.sync()
        #expect(try s.pair.summaries() == ["weekly": "v2", "single": "v2"])
        #expect(try s.icsFiles().count == 2)
    }

    /// No VTODO (the guide): a task in the vdir stays there, said once, not on every run; the
    /// events beside it go up.
    @Test func aTaskStaysLocalSaidOnce() async throws {
        let s = try await Setup("notodo") { behaviours, _ in behaviours.noVTODO = true }
        defer { s.remove() }
        try s.write("e1", TestEvent.data(uid: "e1", summary: "Event", end: "20260310T110000Z"))
        try Data(AccountFixture.todo("t1", "Task").utf8).write(to: s.pair.vdir.appendingPathComponent("t1.ics"))
        var r = try await s.sync()
        #expect(r.status == 0, "\(Self.said(r))")
        #expect(Self.said(r).contains("t1"), "the task is not mentioned: \(Self.said(r))")
        #expect(Self.said(r).contains("task"), "\(Self.said(r))")
        let sent = s.count("no-vtodo")
        r = try await s.sync()
        #expect(r.status == 0, "\(Self.said(r))")
        #expect(!Self.said(r).contains("t1"), "said again: \(Self.said(r))")
        await #expect(try s.serverSummaries() == ["e1": "Event"])
        #expect(try s.icsFiles() == ["e1.ics", "t1.ics"])
        #expect(s.count("no-vtodo") == sent, "the task was sent again")
    }
}
