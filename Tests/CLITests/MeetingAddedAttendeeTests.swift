import Foundation
import Testing
import CalgwTestSupport

/// alice adds carol to a meeting bob is invited to by editing its file (`event open`): what
/// calgw says was sent to each is what the server sent, counted in bob's schedule Inbox on
/// Cyrus. A SCHEDULE-STATUS the file kept from an earlier message is no word of this one.
@Suite(.timeLimit(.minutes(10))) struct MeetingAddedAttendeeTests {
    static let cyrus = TestServers.selected.filter { $0 == "cyrus" }

    @Test(.enabled(if: !cyrus.isEmpty, "needs cyrus, which CALGW_TEST_SERVERS leaves out"), arguments: cyrus)
    func anAttendeeAddedInTheFileIsReportedAsTheServerSentIt(server name: String) async throws {
        let own = try AttendeeServer(name)
        defer { own.release() }
        let meeting = try await MeetingFixture(server: own.server, prefix: "carol")
        defer { meeting.remove() }
        let bob = meeting.attendee.address.replacingOccurrences(of: "mailto:", with: "").lowercased()
        let add = try await meeting.calgw([
            "event", "add", "--summary", "Review", "--start", "2027-07-05T10:00", "--attendee", bob,
        ])
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(add.status == 0 && !uid.isEmpty, "\(add.stderrText)")
        let invited = try await meeting.inbox(mentioning: uid).count
        #expect(invited == 1, "\(invited) messages to bob")
        let file = try String(contentsOf: try meeting.pair.file(uid: uid), encoding: .utf8)
        #expect(file.replacingOccurrences(of: "\r\n ", with: "").contains("SCHEDULE-STATUS"), "\(file)")

        let carol = try MeetingAttendeeTests.editor(
            in: meeting, "carol", perl: "s/END:VEVENT/ATTENDEE;RSVP=TRUE:mailto:carol\\@example.net\\r\\nEND:VEVENT/")
        let opened = try await CalgwBinary.run(
            ["event", "open", uid, "--config", meeting.pair.config.path],
            environment: [
                "CALGW_TEST_PASSWORD": meeting.server.password, "TZ": "UTC", "VISUAL": "/bin/sh \(carol.path)",
            ])
        let said = opened.stdoutText + opened.stderrText
        #expect(opened.status == 0, "\(said)")
        let stored = try await meeting.stored(uid, in: meeting.collection, as: meeting.organizerUser) ?? ""
        #expect(stored.contains("mailto:carol@example.net"), "carol was not added: \(stored)")

        // What bob got, and what calgw said of him, agree.
        let toBob = try await meeting.inbox(mentioning: uid).count - invited
        let saidSent = said.contains("update sent to \(bob)")
        #expect(saidSent == (toBob == 1), "bob got \(toBob) messages; calgw said: \(said)")
        #expect(
            toBob > 0 || said.contains("update to \(bob) not sent"), "bob got \(toBob) messages; calgw said: \(said)")
    }
}
