import Foundation
import Testing
import CalgwTestSupport

/// Meetings copied by a sync invite nobody. On Cyrus and DAViCal, which schedule implicitly, a
/// vdir holding meetings the account organizes (another tool filled it, or it comes from the
/// old server) is pushed, edited and pruned by `calgw sync`: the attendee's schedule Inbox
/// gets no invitation, update or cancellation, and the server keeps no SCHEDULE-STATUS.
@Suite(.timeLimit(.minutes(10))) struct MeetingCopyTests {
    /// The servers that schedule, of those selected.
    static let scheduling = TestServers.selected.filter { TestServer.scheduling.contains($0) }

    /// A meeting `organizer` organizes, with `attendee` invited, in March 2027.
    static func meeting(_ uid: String, summary: String, organizer: String, attendee: String, day: Int = 1) -> String {
        let date = String(format: "202703%02d", day)
        return TestEvent.ics(
            uid: uid, summary: summary, start: "\(date)T100000Z", end: "\(date)T110000Z",
            extra: [
                "ORGANIZER:\(organizer)", "ATTENDEE;PARTSTAT=ACCEPTED:\(organizer)",
                "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:\(attendee)",
            ])
    }

    @Test(
        .enabled(
            if: !scheduling.isEmpty,
            "needs a server that schedules (cyrus, davical, sabre), which CALGW_TEST_SERVERS leaves out"),
        arguments: scheduling)
    func aFirstPushEditsAndDeletionsOfMeetingsInviteNobody(server name: String) async throws {
        let meeting = try await MeetingFixture(on: name, prefix: "meet")
        defer { meeting.remove() }
        let (server, attendee, collection, pair) = (meeting.server, meeting.attendee, meeting.collection, meeting.pair)
        let organizer = try #require(server.address, "the \(name) script printed no address")
        let id = UUID().uuidString.prefix(8).lowercased()
        let uids = (0..<3).map { "meeting\($0)-\(id)" }
        for (i, uid) in uids.enumerated() {
            try Data(
                Self.meeting(
                    uid, summary: "Planning \(i)", organizer: organizer, attendee: attendee.address, day: i + 1
                ).utf8
            )
            .write(to: pair.vdir.appendingPathComponent("\(uid).ics"))
        }

        let pushed = try await pair.run("sync", password: server.password)
        #expect(
            pushed.status == 0 && pushed.stdoutText.contains("remote: 3 created"),
            "\(pushed.stdoutText)\(pushed.stderrText)")
        #expect(
            try await attendee.inbox(on: name, mentioning: id).isEmpty, "\(name): the first push invited the attendee")
        // Stored as sent: no SCHEDULE-STATUS, nothing rewritten for scheduling.
        let stored = try await ProcessRunner.run(
            "curl",
            [
                "-s", "-u", "\(server.username):\(server.password)",
                collection.appendingPathComponent("\(uids[0]).ics").absoluteString,
            ]
        ).stdoutText
        #expect(stored.contains("SUMMARY:Planning 0") && !stored.contains("SCHEDULE-STATUS"), "\(name): \(stored)")

        // An edit (a new time and title) and a deletion, synced: no update, no cancellation.
        try Data(Self.meeting(uids[1], summary: "Moved", organizer: organizer, attendee: attendee.address, day: 9).utf8)
            .write(to: try pair.file(uid: uids[1]))
        try FileManager.default.removeItem(at: try pair.file(uid: uids[2]))
        let changed = try await pair.run("sync", password: server.password)
        #expect(
            changed.status == 0 && changed.stdoutText.contains("remote: 0 created, 1 updated, 1 deleted"),
            "\(changed.stdoutText)\(changed.stderrText)")
        let messages = try await attendee.inbox(on: name, mentioning: id)
        #expect(messages.isEmpty, "\(name): \(messages.count) scheduling messages: \(messages.first ?? "")")
        // sabre/dav mails (iMIP) what it schedules, into its mail drop: none of these meetings.
        let drop = server.stateFolder.appendingPathComponent("mail")
        let mailed = ((try? FileManager.default.contentsOfDirectory(atPath: drop.path)) ?? []).filter {
            (try? String(contentsOf: drop.appendingPathComponent($0), encoding: .utf8))?.contains(id) == true
        }
        #expect(mailed.isEmpty, "\(name): \(mailed.count) mails sent by the server")
        // The vdir still holds what was written there, and one more sync has nothing to do.
        #expect(try !String(contentsOf: try pair.file(uid: uids[0]), encoding: .utf8).contains("SCHEDULE-"))
        let quiet = try await pair.run("sync", ["--json"], password: server.password)
        #expect(quiet.status == 0 && JSONCounts.writes(in: quiet.stdoutText) == 0, "\(name): \(quiet.stdoutText)")
    }

    /// A meeting the person made with `event add --attendee` (stored unmarked: the server
    /// scheduled it) and later deleted by hand is deleted by the sync as a copy: the attendee
    /// gets no cancellation. On DAViCal, which schedules a deletion by what it stores, calgw
    /// marks the stored meeting `SCHEDULE-AGENT=CLIENT` before deleting it.
    @Test(
        .enabled(
            if: !scheduling.isEmpty,
            "needs a server that schedules (cyrus, davical, sabre), which CALGW_TEST_SERVERS leaves out"),
        arguments: scheduling)
    func aMeetingDeletedByHandCancelsNothing(server name: String) async throws {
        let meeting = try await MeetingFixture(on: name, prefix: "handdel")
        defer { meeting.remove() }
        let (server, attendee, collection, pair) = (meeting.server, meeting.attendee, meeting.collection, meeting.pair)
        let add = try await CalgwBinary.run(
            [
                "event", "add", "--summary", "Made, then removed by hand", "--start", "2027-03-20T10:00",
                "--attendee", attendee.address, "--config", pair.config.path,
            ],
            environment: ["CALGW_TEST_PASSWORD": server.password, "TZ": "UTC"])
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(add.status == 0 && !uid.isEmpty, "\(name): \(add.stderrText)")
        #expect(try await attendee.inbox(on: name, mentioning: uid).count == 1, "\(name): bob was not invited")

        try FileManager.default.removeItem(at: try pair.file(uid: uid))
        let synced = try await pair.run("sync", password: server.password)
        #expect(
            synced.status == 0 && synced.stdoutText.contains("remote: 0 created, 0 updated, 1 deleted"),
            "\(name): \(synced.stdoutText)\(synced.stderrText)")
        // Nobody is told, and calgw says so (it said nothing).
        #expect(
            synced.stdoutText.contains("\(uid): a meeting whose file was deleted")
                && synced.stdoutText.contains("nobody was told"),
            "\(name): \(synced.stdoutText)")
        let gone = try await ProcessRunner.run(
            "curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "\(server.username):\(server.password)",
                collection.appendingPathComponent("\(uid).ics").absoluteString,
            ])
        #expect(gone.stdoutText == "404", "\(name): still on the server: \(gone.stdoutText)")
        let messages = try await attendee.inbox(on: name, mentioning: uid)
        #expect(
            messages.count == 1 && !messages.contains { $0.contains("METHOD:CANCEL") },
            "\(name): \(messages.count) messages")
    }

    /// An invitation from someone else written into the vdir by hand (bob organizes, the
    /// account attends, already accepted) is a copy like any other: synced to the server, it
    /// sends bob no reply, and the account's answer stays as written.
    @Test(
        .enabled(
            if: !scheduling.isEmpty,
            "needs a server that schedules (cyrus, davical, sabre), which CALGW_TEST_SERVERS leaves out"),
        arguments: scheduling)
    func anInvitationWrittenByHandSendsNoReply(server name: String) async throws {
        let meeting = try await MeetingFixture(on: name, prefix: "byhand")
        defer { meeting.remove() }
        let (server, bob, account, collection, pair) = (
            meeting.server, meeting.attendee, meeting.organizer, meeting.collection, meeting.pair
        )
        let uid = "from-bob-\(UUID().uuidString.prefix(8).lowercased())"
        let text = Self.meeting(uid, summary: "Bob's review", organizer: bob.address, attendee: account)
            .replacingOccurrences(
                of: "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:\(account)", with: "ATTENDEE;PARTSTAT=ACCEPTED:\(account)"
            )
        try Data(text.utf8).write(to: pair.vdir.appendingPathComponent("\(uid).ics"))
        let bobsInbox = TestServer.Attendee(
            username: bob.username, password: bob.password, home: bob.home, address: bob.address)
        let synced = try await pair.run("sync", password: server.password)
        #expect(
            synced.status == 0 && synced.stdoutText.contains("remote: 1 created"),
            "\(name): \(synced.stdoutText)\(synced.stderrText)")
        #expect(try await bobsInbox.inbox(on: name, mentioning: uid).isEmpty, "\(name): bob got a reply")
        let stored = try await ProcessRunner.run(
            "curl",
            [
                "-s", "-u", "\(server.username):\(server.password)",
                collection.appendingPathComponent("\(uid).ics").absoluteString,
            ]
        ).stdoutText
            .replacingOccurrences(of: "\r\n ", with: "")
        #expect(stored.contains("SUMMARY:Bob's review") && stored.contains("PARTSTAT=ACCEPTED"), "\(name): \(stored)")
    }
}
