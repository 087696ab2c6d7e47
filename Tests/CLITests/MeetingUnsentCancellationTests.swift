import Foundation
import Testing
import CalgwTestSupport

/// DAViCal fails an organizer's deletion of a meeting in its own code (500, `stdClass::dav_name()`)
/// while an attendee's Inbox still holds the invitation; calgw then deletes the meeting as a
/// copy, and nobody is told. The command's words say so once, the same way in the line and the
/// note: the cancellation was not sent; `--json` carries the note and the failure per attendee.
@Suite(.timeLimit(.minutes(10))) struct MeetingUnsentCancellationTests {
    @Test(.enabled(if: TestServers.selected.contains("davical"), "needs davical, which CALGW_TEST_SERVERS leaves out"))
    func aCancellationTheServerFailedToSendIsSaidNotSent() async throws {
        let own = try AttendeeServer("davical")
        defer { own.release() }
        let meeting = try await MeetingFixture(server: own.server, prefix: "unsent")
        defer { meeting.remove() }
        let add = try await meeting.calgw([
            "event", "add", "--summary", "Kickoff", "--start", "2027-11-08T10:00", "--attendee",
            meeting.attendee.address,
        ])
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(add.status == 0 && !uid.isEmpty, "\(add.stderrText)")
        #expect(try await meeting.inbox(mentioning: uid).count == 1, "bob was not invited")

        // alice's whole account, this calendar only; bob has not synced, so his Inbox keeps
        // the invitation and DAViCal fails the deletion.
        let account = try AccountFixture(
            server: meeting.server, collections: "[\"\(meeting.collection.lastPathComponent)\"]")
        defer { account.remove() }
        let pulled = try await account.calgw(["sync"])
        #expect(pulled.status == 0, "\(pulled.stdoutText)\(pulled.stderrText)")
        let delete = try await account.calgw(["event", "delete", uid, "--json"])
        #expect(delete.status == 0, "\(delete.stdoutText)\(delete.stderrText)")
        let json = (try? JSONSerialization.jsonObject(with: delete.stdout) as? [String: Any]) ?? [:]
        let notes = (json["notes"] as? [String]) ?? []
        #expect(notes.contains { $0.contains("failed to send the meeting's cancellation") }, "\(delete.stdoutText)")
        let recipients =
            ((json["scheduling"] as? [String: Any])?["recipients"] as? [[String: Any]]) ?? []
        let bob = recipients.first { ($0["address"] as? String)?.lowercased().contains("bob@") == true }
        #expect(bob?["delivered"] as? Bool == false && bob?["failure"] != nil, "\(delete.stdoutText)")

        // In words: the line says what the note says.
        let again = try await meeting.calgw([
            "event", "add", "--summary", "Review", "--start", "2027-11-10T10:00", "--attendee",
            meeting.attendee.address,
        ])
        let second = again.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let synced = try await account.calgw(["sync"])
        #expect(synced.status == 0, "\(synced.stdoutText)\(synced.stderrText)")
        let text = try await account.calgw(["event", "delete", second])
        #expect(text.status == 0, "\(text.stdoutText)\(text.stderrText)")
        let bare = meeting.attendee.address.replacingOccurrences(of: "mailto:", with: "")
        #expect(text.stdoutText.contains("cancellation to \(bare) not sent"), "\(text.stdoutText)")
        #expect(!text.stdoutText.contains("asked of the server"), "\(text.stdoutText)")
        #expect(text.stderrText.contains("failed to send the meeting's cancellation"), "\(text.stderrText)")
        #expect(try await meeting.inbox(mentioning: second).filter { $0.contains("METHOD:CANCEL") }.isEmpty)
    }
}

/// A change of a meeting's file synced to DAViCal goes as a copy, which marks its attendees
/// `SCHEDULE-AGENT=CLIENT` on the server so that DAViCal sends nothing for it. The organizer's
/// later `event delete` is then sent to nobody: the command says so instead of "asked of the
/// server", and bob's Inbox gets no cancellation.
extension MeetingUnsentCancellationTests {
    @Test(.enabled(if: TestServers.selected.contains("davical"), "needs davical, which CALGW_TEST_SERVERS leaves out"))
    func aDeletionAfterAHandEditSaysTheServerSentNothing() async throws {
        let own = try AttendeeServer("davical")
        defer { own.release() }
        let meeting = try await MeetingFixture(server: own.server, prefix: "handthen")
        defer { meeting.remove() }
        let add = try await meeting.calgw([
            "event", "add", "--summary", "Sync-up", "--start", "2027-11-15T10:00", "--attendee",
            meeting.attendee.address,
        ])
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(add.status == 0 && !uid.isEmpty, "\(add.stderrText)")
        let pulled = try await meeting.bob(["sync"])
        #expect(pulled.status == 0, "\(pulled.stdoutText)\(pulled.stderrText)")
        #expect(try await meeting.inbox(mentioning: uid).isEmpty)

        let file = try meeting.pair.file(uid: uid)
        let text = try String(contentsOf: file, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "SUMMARY:Sync-up", with: "SUMMARY:Sync-up (room 2)").utf8).write(
            to: file)
        let synced = try await meeting.calgw(["sync"])
        #expect(synced.status == 0, "\(synced.stdoutText)\(synced.stderrText)")
        #expect(try await meeting.inbox(mentioning: uid).isEmpty, "the hand edit was sent to bob")

        let delete = try await meeting.calgw(["event", "delete", uid])
        #expect(delete.status == 0, "\(delete.stdoutText)\(delete.stderrText)")
        let bare = meeting.attendee.address.replacingOccurrences(of: "mailto:", with: "")
        #expect(delete.stdoutText.contains("cancellation to \(bare) not sent"), "\(delete.stdoutText)")
        let cancels = try await meeting.inbox(mentioning: uid).filter { $0.contains("METHOD:CANCEL") }
        #expect(cancels.isEmpty, "\(cancels)")
    }
}
