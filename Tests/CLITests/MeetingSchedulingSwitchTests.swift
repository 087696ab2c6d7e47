import Foundation
import Testing
import CalgwTestSupport

/// A pair's `scheduling = "never"` turns the person's actions into copies too: a meeting made
/// with `event add --attendee` invites nobody, and the command says so. The account's
/// addresses, asked of the server once, are cached beside the journal, so a later `event`
/// command needs neither the server nor `--address`.
@Suite(.timeLimit(.minutes(10))) struct MeetingSchedulingSwitchTests {
    static let scheduling = MeetingCopyTests.scheduling

    @Test(
        .enabled(
            if: !scheduling.isEmpty,
            "needs a server that schedules (cyrus, davical, sabre), which CALGW_TEST_SERVERS leaves out"),
        arguments: scheduling)
    func schedulingOffSendsNothingAndTheAccountIsCached(server name: String) async throws {
        let meeting = try await MeetingFixture(on: name, prefix: "quiet")
        defer { meeting.remove() }
        let (server, attendee, organizer, collection, folder, pair, calgw) = (
            meeting.server, meeting.attendee, meeting.organizer,
            meeting.collection, meeting.folder, meeting.pair, meeting.calgw
        )
        let handle = try FileHandle(forWritingTo: pair.config)
        handle.seekToEndOfFile()
        handle.write(Data("scheduling = \"never\"\n".utf8))
        try handle.close()

        let add = try await calgw([
            "event", "add", "--summary", "Quiet", "--start", "2027-04-05T10:00", "--attendee", attendee.address,
        ])
        #expect(
            add.status == 0 && add.stderrText.contains("scheduling is off for pair alice"), "\(name): \(add.stderrText)"
        )
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await attendee.inbox(on: name, mentioning: uid).isEmpty, "\(name): bob was invited")
        let stored = try await ProcessRunner.run(
            "curl",
            [
                "-s", "-u", "\(server.username):\(server.password)",
                collection.appendingPathComponent("\(uid).ics").absoluteString,
            ]
        ).stdoutText
        #expect(stored.contains("SUMMARY:Quiet") && !stored.contains("SCHEDULE-STATUS"), "\(name): \(stored)")

        // The organizer came from the server, which is now remembered: offline, without
        // --address, the next meeting still gets the account's address.
        let cache = folder.file("alice.account.json")
        let cached = try String(contentsOf: cache, encoding: .utf8)
        #expect(cached.contains(organizer.replacingOccurrences(of: "mailto:", with: "")), "\(name): \(cached)")
        let offline = try await calgw([
            "event", "add", "--summary", "Later", "--start", "2027-04-06T10:00", "--attendee", attendee.address,
            "--offline",
        ])
        #expect(offline.status == 0, "\(name): \(offline.stderrText)")
        let later = offline.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let file = try String(contentsOf: try pair.file(uid: later), encoding: .utf8)
        #expect(file.contains("ORGANIZER:\(organizer)"), "\(name): \(file)")
    }
}
