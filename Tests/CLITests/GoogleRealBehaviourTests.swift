import Foundation
import Testing
import CalgwTestSupport

/// What real Google does that Radicale never did (issue trackers' reports, in
/// `Scripts/proxies/google_proxy.py`): it mails the attendees of every meeting written over
/// CalDAV whatever the client asks, defers requests with a bare 403,
/// refuses a first sync-collection without a token and the UIDs of series it split.
/// The pair names Google with `api = "google"`, as a proxy or test server in front of it must.
extension GoogleCalDAVTests {
    /// A meeting alice organizes with bob and carol, as an export or another client leaves it.
    static func meeting(_ uid: String, summary: String, day: Int) -> Data {
        TestEvent.data(
            uid: uid, summary: summary, start: String(format: "202706%02dT100000Z", day),
            end: String(format: "202706%02dT110000Z", day),
            extra: [
                "ORGANIZER;CN=Alice:mailto:alice@example.org",
                "ATTENDEE;CN=Bob;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:bob@example.org",
                "ATTENDEE;CN=Carol;PARTSTAT=ACCEPTED:mailto:carol@example.org",
            ])
    }

    /// A first sync of 50 meetings into Google mails nobody: each stays in the vdir, said once;
    /// a plain event goes. A meeting's file deleted sends no cancellation. `event add
    /// --attendee`, the person's own action, invites each attendee exactly once.
    @Test func copiesOfMeetingsMailNobodyWhileThePersonsOwnMeetingInvitesOnce() async throws {
        let ledger = try TemporaryFolder()
        defer { ledger.remove() }
        let mails = ledger.file("mails.jsonl")
        let s = try await Setup("gmail", extra: ["api = \"google\""]) { behaviours, _ in
            behaviours.scheduleLedger = mails
        }
        defer { s.remove() }
        let uids = (0..<50).map { _ in TestEvent.uniqueUID("meet") }
        for (i, uid) in uids.enumerated() {
            try s.write(uid, Self.meeting(uid, summary: "Meeting \(i)", day: 1 + i % 28))
        }
        let plain = TestEvent.uniqueUID("plain")
        try s.write(plain, TestEvent.data(uid: plain, summary: "Dentist", start: "20270602T090000Z"))

        let first = try await s.sync()
        #expect(first.status == 0, "\(Self.said(first))")
        let mailed = try TestProxies.googleMails(in: mails)
        #expect(mailed.isEmpty, "mailed: \(mailed)")
        let notes = Self.said(first).split(separator: "\n").filter { $0.contains("not sent to Google") }
        #expect(notes.count == 50, "\(Self.said(first))")
        #expect(try await s.serverSummaries().keys.sorted() == [plain], "only the plain event is on the server")

        let second = try await s.sync()
        #expect(second.status == 0 && !Self.said(second).contains("not sent to Google"), "\(Self.said(second))")
        #expect(Self.changedNothing(second), "\(Self.said(second))")

        let add = try await s.pair.run(
            "event",
            [
                "add", "--summary", "Planning", "--start", "2027-06-20T10:00", "--attendee", "bob@example.org",
                "--attendee", "carol@example.org", "--address", "alice@example.org",
            ], password: s.server.password)
        #expect(add.status == 0, "\(Self.said(add))")
        let invited = try TestProxies.googleMails(in: mails)
        #expect(invited.map(\.method) == ["REQUEST", "REQUEST"], "\(invited)")
        #expect(Set(invited.map(\.attendee)) == ["bob@example.org", "carol@example.org"], "\(invited)")

        // A meeting pulled from Google, then its file deleted: no cancellation goes.
        let theirs = TestEvent.uniqueUID("theirs")
        try await s.putOnServer(Self.meeting(theirs, summary: "Theirs", day: 15), name: "\(theirs).ics")
        #expect(try await s.sync().status == 0)
        try FileManager.default.removeItem(at: try s.pair.file(uid: theirs))
        let deletion = try await s.sync()
        #expect(
            deletion.status == 0 && Self.said(deletion).contains("deletion is not sent to Google"),
            "\(Self.said(deletion))")
        let afterDeletion = try TestProxies.googleMails(in: mails)
        #expect(afterDeletion.count == 2, "\(afterDeletion)")
        #expect(try await s.serverSummaries()[theirs] == "Theirs", "the meeting was deleted on Google")
    }

    /// Busy blocks projected into Google from a plain vdir pair: each is uploaded (it names
    /// no one, so Google has no one to mail), with the title alone. The meeting is three months
    /// past the default horizon of 180 days: the projection's `horizon` takes it in.
    @Test func busyBlocksGoUpToGoogleAndMailNobody() async throws {
        let ledger = try TemporaryFolder()
        defer { ledger.remove() }
        let mails = ledger.file("mails.jsonl")
        let s = try await Setup("gmail", extra: ["api = \"google\""]) { behaviours, _ in
            behaviours.scheduleLedger = mails
        }
        defer { s.remove() }
        let work = s.folder.file("work"), remote = s.folder.file("work-remote")
        for vdir in [work, remote] {
            try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        }
        let config =
            try String(contentsOf: s.pair.config, encoding: .utf8) + "\n"
            + TestPairConfig(name: "work", local: work, remote: remote, journal: s.folder.file("work.sqlite")).toml
            + "\n[busy.work-to-google]\nfrom = [\"work\"]\nto = \"google\"\nhorizon = \"-1d..+365d\"\n"
        try Data(config.utf8).write(to: s.pair.config)
        try Self.meeting("m1", summary: "Board meeting", day: 3).write(to: work.appendingPathComponent("m1.ics"))
        let result = try await CalgwBinary.run(
            ["sync", "--all", "--config", s.pair.config.path], environment: ["CALGW_TEST_PASSWORD": s.server.password])
        #expect(result.status == 0 && result.stdoutText.contains("busy work-to-google: 1 made"), "\(Self.said(result))")
        #expect(Array(try await s.serverSummaries().values) == ["Busy"], "the block is on Google")
        #expect(try TestProxies.googleMails(in: mails).isEmpty, "a block mails no one")
    }

    /// `calgw free` on a Google pair asks the Calendar API's freeBusy.query: bob's meeting
    /// leaves its hour busy; an address Google shows nothing of is named with Google's reason.
    @Test func freeAsksGooglesFreeBusyQuery() async throws {
        let s = try await Setup("gmail", extra: ["api = \"google\""]) { behaviours, _ in
            behaviours.freeBusy = ["bob@example.org": ["2027-03-10T10:00:00Z/2027-03-10T11:00:00Z"]]
        }
        defer { s.remove() }
        let result = try await s.pair.run(
            "free",
            [
                "--from", "2027-03-10T09:00Z", "--to", "2027-03-10T12:00Z", "--attendee", "bob@example.org",
                "--attendee", "nobody@example.org", "--json",
            ], password: s.server.password)
        #expect(result.status == 0, "\(Self.said(result))")
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let free = ((json["free"] as? [[String: Any]]) ?? []).map { "\($0["start"] ?? "")..\($0["end"] ?? "")" }
        #expect(
            free == ["2027-03-10T09:00:00Z..2027-03-10T10:00:00Z", "2027-03-10T11:00:00Z..2027-03-10T12:00:00Z"],
            "\(result.stdoutText)")
        let unknown = (json["unknown"] as? [[String: Any]]) ?? []
        #expect(
            unknown.first?["address"] as? String == "nobody@example.org"
                && (unknown.first?["reason"] as? String)?.contains("notFound") == true, "\(result.stdoutText)")
    }

    /// A migration of 50 meetings from another server into Google (a pair of two servers)
    /// mails nobody: each stays where it is, said once; a plain event moves.
    @Test func aMigrationOfMeetingsIntoGoogleMailsNobody() async throws {
        let ledger = try TemporaryFolder()
        defer { ledger.remove() }
        let mails = ledger.file("mails.jsonl")
        let s = try await Setup("gmigrate") { behaviours, _ in behaviours.scheduleLedger = mails }
        defer { s.remove() }
        let source = s.server.newCollectionURL(prefix: "gsource")
        try await s.server.makeCalendar(source)
        for i in 0..<50 {
            let uid = TestEvent.uniqueUID("mig")
            try await s.putOnServer(
                Self.meeting(uid, summary: "Meeting \(i)", day: 1 + i % 28), name: "\(uid).ics", in: source)
        }
        let plain = TestEvent.uniqueUID("plain")
        try await s.putOnServer(
            TestEvent.data(uid: plain, summary: "Plain", start: "20270602T090000Z"), name: "\(plain).ics", in: source)
        let config = s.folder.file("migrate.toml")
        try TestPairConfig(
            name: "migrate", local: source, collection: s.proxy.proxied(s.collection),
            journal: s.folder.file("migrate.sqlite"), server: s.server,
            extra: [
                "api = \"google\"", "local_username = \"\(s.server.username)\"",
                "local_password_env = \"CALGW_TEST_PASSWORD\"",
            ]
        ).write(to: config)
        let run = {
            try await CalgwBinary.run(
                ["sync", "--config", config.path], environment: ["CALGW_TEST_PASSWORD": s.server.password])
        }
        let first = try await run()
        #expect(first.status == 0, "\(Self.said(first))")
        #expect(Self.said(first).components(separatedBy: "not sent to Google").count - 1 == 50, "\(Self.said(first))")
        let mailed = try TestProxies.googleMails(in: mails)
        #expect(mailed.isEmpty, "mailed: \(mailed)")
        #expect(try await s.serverSummaries() == [plain: "Plain"])
        let second = try await run()
        #expect(
            second.status == 0 && Self.changedNothing(second) && !second.stderrText.contains("Google"),
            "\(Self.said(second))")
    }

    /// A takeover: the vdir and Google hold the same 50 meetings (a vdir another program kept
    /// in sync), and calgw's first sync of the pair mails nobody and writes nothing; a meeting
    /// then changed in its file stays in the vdir, said once.
    @Test func aTakeoverOfMeetingsOnGoogleMailsNobody() async throws {
        let ledger = try TemporaryFolder()
        defer { ledger.remove() }
        let mails = ledger.file("mails.jsonl")
        let s = try await Setup("gtakeover", extra: ["api = \"google\""]) { behaviours, _ in
            behaviours.scheduleLedger = mails
        }
        defer { s.remove() }
        var uids: [String] = []
        for i in 0..<50 {
            let uid = TestEvent.uniqueUID("take")
            uids.append(uid)
            let meeting = Self.meeting(uid, summary: "Meeting \(i)", day: 1 + i % 28)
            try await s.putOnServer(meeting, name: "\(uid).ics")
            try s.write(uid, meeting)
        }
        let first = try await s.sync()
        #expect(first.status == 0 && Self.changedNothing(first), "\(Self.said(first))")
        let mailed = try TestProxies.googleMails(in: mails)
        #expect(mailed.isEmpty, "mailed: \(mailed)")

        let file = s.pair.vdir.appendingPathComponent("\(uids[0]).ics")
        let edited = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(
            of: "SUMMARY:Meeting 0", with: "SUMMARY:Meeting 0 moved")
        try Data(edited.utf8).write(to: file)
        let second = try await s.sync()
        #expect(second.status == 0 && Self.said(second).contains("not sent to Google"), "\(Self.said(second))")
        #expect(try TestProxies.googleMails(in: mails).isEmpty)
        #expect(try await s.serverSummaries()[uids[0]] == "Meeting 0", "the copy reached Google")
    }

    /// A 120-event first upload with every fourth PUT deferred (403, an empty DAV error) ends
    /// within three runs with every event on the server and none reported refused.
    @Test func aFirstUploadWithDeferredPutsConvergesAndRefusesNothing() async throws {
        let s = try await Setup("gdefer", extra: ["api = \"google\""]) { behaviours, _ in
            behaviours.deferEvery = 4
        }
        defer { s.remove() }
        var uids: Set<String> = []
        for i in 0..<120 {
            let uid = TestEvent.uniqueUID("bulk")
            uids.insert(uid)
            try s.write(
                uid,
                TestEvent.data(uid: uid, summary: "Bulk \(i)", start: "20270701T\(String(format: "%02d", i % 24))0000Z")
            )
        }
        var runs: [ProcessRunner.Result] = []
        for _ in 0..<3 {
            let run = try await s.sync()
            runs.append(run)
            if run.status == 0 { break }
        }
        let said = runs.map(Self.said).joined(separator: "\n---\n")
        #expect(runs.last?.status == 0, "\(said)")
        #expect(!said.contains("refused") && !said.contains("rejected"), "\(said)")
        let held = Set(try await s.serverSummaries().keys)
        #expect(held == uids, "\(uids.subtracting(held).count) missing, \(held.subtracting(uids).count) more: \(said)")
        #expect(s.count("defer") > 0, "the proxy deferred nothing")
    }

    /// A sync token Google forgot (410 as its REST API answers, or 507 as python-caldav #340
    /// saw) relists the calendar with nothing lost: what changed meanwhile on both sides
    /// arrives, the rest stays, and the next run has nothing to do.
    @Test(arguments: [410, 507]) func anExpiredSyncTokenRelistsWithoutLoss(status: Int) async throws {
        let s = try await Setup("gexpire\(status)", extra: ["api = \"google\""]) { behaviours, _ in
            behaviours.expiredTokenStatus = status
        }
        defer { s.remove() }
        let kept = TestEvent.uniqueUID("kept")
        try s.write(kept, TestEvent.data(uid: kept, summary: "Kept", start: "20270801T090000Z"))
        #expect(try await s.sync().status == 0)
        // A run that writes nothing keeps the calendar's sync token for the next one.
        #expect(try await s.sync().status == 0)
        let theirs = TestEvent.uniqueUID("theirs")
        try await s.putOnServer(
            TestEvent.data(uid: theirs, summary: "Theirs", start: "20270802T090000Z"), name: "\(theirs).ics")
        let mine = TestEvent.uniqueUID("mine")
        try s.write(mine, TestEvent.data(uid: mine, summary: "Mine", start: "20270803T090000Z"))
        try await s.proxy.expireGoogleSyncTokens()

        let relist = try await s.sync()
        #expect(relist.status == 0, "\(Self.said(relist))")
        #expect(s.count("expired") == 1, "the proxy answered no expired token")
        #expect(try s.pair.summaries() == [kept: "Kept", theirs: "Theirs", mine: "Mine"], "\(Self.said(relist))")
        #expect(try await s.serverSummaries() == [kept: "Kept", theirs: "Theirs", mine: "Mine"])
        let again = try await s.sync()
        #expect(again.status == 0 && Self.changedNothing(again), "\(Self.said(again))")
    }

    /// Google refuses some updates of a recurring meeting with guests with a bare 403, on
    /// every try (Outlook CalDAV Synchronizer #423). The person's `event edit` of alice's
    /// weekly meeting stays in the vdir and says why; the push after it fails (exit 1) with
    /// the hint to make the change in Google Calendar; nothing is deleted or made again on
    /// the server.
    @Test func aRecurringMeetingsRefusedUpdateIsKeptAndNeverRemade() async throws {
        let s = try await Setup(
            "grecur", extra: ["api = \"google\""]
        ) { behaviours, _ in
            behaviours.recurringGuestsUpdate403 = true
        }
        defer { s.remove() }
        let uid = TestEvent.uniqueUID("weekly")
        let weekly = Self.meeting(uid, summary: "Weekly", day: 7)
        try await s.putOnServer(
            Data(
                String(decoding: weekly, as: UTF8.self).replacingOccurrences(
                    of: "SUMMARY:Weekly", with: "SUMMARY:Weekly\r\nRRULE:FREQ=WEEKLY;COUNT=10"
                ).utf8),
            name: "\(uid).ics")
        #expect(try await s.sync().status == 0)
        let edit = try await s.pair.run(
            "event", ["edit", uid, "--summary", "Weekly review"], password: s.server.password)
        #expect(edit.status == 0, "\(Self.said(edit))")
        #expect(
            edit.stderrText.contains("saved in the vdir but not on the server")
                && edit.stderrText.contains("Google refused this change of a recurring meeting"), "\(Self.said(edit))")
        let push = try await s.pair.run("push", password: s.server.password)
        #expect(push.status == 1, "\(Self.said(push))")
        #expect(Self.said(push).contains("make it in Google Calendar"), "\(Self.said(push))")
        #expect(!Self.said(push).contains("refused:"), "\(Self.said(push))")
        #expect(try s.pair.summaries()[uid] == "Weekly review", "the change left the vdir")
        #expect(try await s.serverSummaries()[uid] == "Weekly", "the server's meeting changed")
        let methods = s.proxy.logEntries().compactMap { $0["method"] as? String }
        #expect(!methods.contains("DELETE"), "\(methods)")
        #expect(s.count("recurring-guests") >= 2, "the update was not retried")
    }

    /// Google answers 400 to a sync-collection without a token: the calendar syncs whole all
    /// the same, the first time and after a run that wrote.
    @Test func aFirstSyncCollectionRefusedListsInstead() async throws {
        let s = try await Setup("ginitial", extra: ["api = \"google\""]) { behaviours, _ in
            behaviours.noInitialSyncCollection = true
        }
        defer { s.remove() }
        let theirs = TestEvent.uniqueUID("theirs")
        try await s.putOnServer(
            TestEvent.data(uid: theirs, summary: "Theirs", start: "20270802T090000Z"), name: "\(theirs).ics")
        let first = try await s.sync()
        #expect(first.status == 0, "\(Self.said(first))")
        #expect(try s.pair.summaries() == [theirs: "Theirs"])
        let later = TestEvent.uniqueUID("later")
        try await s.putOnServer(
            TestEvent.data(uid: later, summary: "Later", start: "20270803T090000Z"), name: "\(later).ics")
        let second = try await s.sync()
        let summaries = try s.pair.summaries()
        #expect(second.status == 0 && summaries[later] == "Later", "\(Self.said(second))")
    }

    /// An event whose UID names a series Google split (`…_R<date>@google.com`), copied from
    /// another calendar: Google answers 400; the run says so once, goes on with the rest and
    /// exits 0; the next run says nothing.
    @Test func aSplitSeriesUIDIsSaidOnceAndTheRunGoesOn() async throws {
        let s = try await Setup("gsplit", extra: ["api = \"google\""]) { behaviours, _ in
            behaviours.refuseSplitUIDs = true
        }
        defer { s.remove() }
        let split = "\(UUID().uuidString.lowercased())_R20270105T090000@google.com"
        try s.write("split", TestEvent.data(uid: split, summary: "Split part", start: "20270105T090000Z"))
        let plain = TestEvent.uniqueUID("plain")
        try s.write(plain, TestEvent.data(uid: plain, summary: "Plain", start: "20270106T090000Z"))
        let first = try await s.sync()
        #expect(first.status == 0, "\(Self.said(first))")
        #expect(Self.said(first).contains("Google answers 400 to its UID"), "\(Self.said(first))")
        #expect(try await s.serverSummaries() == [plain: "Plain"])
        let second = try await s.sync()
        #expect(second.status == 0 && !Self.said(second).contains("400"), "\(Self.said(second))")
        #expect(FileManager.default.fileExists(atPath: s.pair.vdir.appendingPathComponent("split.ics").path))
    }
}
