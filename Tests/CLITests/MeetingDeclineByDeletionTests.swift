import Foundation
import Testing
import CalgwTestSupport

/// An attendee's `event delete` of a meeting declines it. Cyrus sends the REPLY for a DELETE
/// without a word (a plain 204), so calgw writes the decline first and reads back what Cyrus
/// marked on the organizer, then deletes the copy without a second reply: the command says
/// the reply was sent because the server says so, and alice gets one REPLY.
@Suite(.timeLimit(.minutes(10))) struct MeetingDeclineByDeletionTests {
    @Test(.enabled(if: TestServers.selected.contains("cyrus"), "needs cyrus, which CALGW_TEST_SERVERS leaves out"))
    func aDeclineByDeletionSaysWhatTheServerSent() async throws {
        let own = try AttendeeServer("cyrus")
        defer { own.release() }
        let meeting = try await MeetingFixture(server: own.server, prefix: "declined")
        defer { meeting.remove() }
        let add = try await meeting.calgw([
            "event", "add", "--summary", "Standup", "--start", "2027-10-04T09:00", "--attendee",
            meeting.attendee.address,
        ])
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(add.status == 0 && !uid.isEmpty, "\(add.stderrText)")
        let pulled = try await meeting.bob(["sync"])
        #expect(pulled.status == 0, "\(pulled.stdoutText)\(pulled.stderrText)")

        let delete = try await meeting.bob(["event", "delete", uid])
        #expect(delete.status == 0, "\(delete.stdoutText)\(delete.stderrText)")
        let organizer = meeting.organizer.replacingOccurrences(of: "mailto:", with: "")
        #expect(delete.stdoutText.contains("reply sent to \(organizer)"), "\(delete.stdoutText)")
        #expect(!delete.stderrText.contains("warning"), "\(delete.stderrText)")

        // One REPLY, declining; alice's copy shows it; bob's copy is gone.
        let replies = try await meeting.organizerUser.inbox(on: "cyrus", mentioning: uid).filter {
            $0.contains("METHOD:REPLY")
        }
        #expect(replies.count == 1 && replies.first?.contains("PARTSTAT=DECLINED") == true, "\(replies)")
        let copy = try await meeting.stored(uid, in: meeting.collection, as: meeting.organizerUser) ?? ""
        let bobLine = copy.split(whereSeparator: \.isNewline).first {
            $0.hasPrefix("ATTENDEE") && $0.lowercased().contains("bob@")
        }
        #expect(bobLine?.contains("PARTSTAT=DECLINED") == true, "\(copy)")
        #expect(try await meeting.stored(uid, in: meeting.attendeeCalendar, as: meeting.attendee) == nil)
        let quiet = try await meeting.bob(["sync"])
        #expect(quiet.status == 0, "\(quiet.stdoutText)\(quiet.stderrText)")
    }
}
