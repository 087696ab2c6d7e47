import Foundation
import Testing
import CalgwTestSupport

/// An answer's comment reaches the organizer on DAViCal whichever Inbox she has. With one as
/// DAViCal makes it on first delivery (not a calendar), DAViCal's own reply code takes bob's
/// answer and sends a REPLY without his COMMENT; calgw sends an answer with a comment itself,
/// through his schedule Outbox, so that what it says was sent is what arrives.
@Suite(.timeLimit(.minutes(10))) struct MeetingReplyCommentTests {
    @Test(.enabled(if: TestServers.selected.contains("davical"), "needs davical, which CALGW_TEST_SERVERS leaves out"))
    func aCommentReachesTheOrganizer() async throws {
        let own = try AttendeeServer("davical")
        defer { own.release() }
        try own.server.makeScheduleInboxPlain(of: own.server.username)
        let meeting = try await MeetingFixture(server: own.server, prefix: "comment")
        defer { meeting.remove() }
        let add = try await meeting.calgw([
            "event", "add", "--summary", "Review", "--start", "2027-08-09T10:00", "--attendee",
            meeting.attendee.address,
        ])
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(add.status == 0 && !uid.isEmpty, "\(add.stderrText)")
        let pulled = try await meeting.bob(["sync"])
        #expect(pulled.status == 0, "\(pulled.stdoutText)\(pulled.stderrText)")

        let before = try await meeting.organizerUser.inbox(on: meeting.name, mentioning: uid).count
        let reply = try await meeting.bob(["event", "reply", uid, "--accept", "--comment", "Glad to"])
        let said = reply.stdoutText + reply.stderrText
        #expect(reply.status == 0, "\(said)")
        let replies = try await meeting.organizerUser.inbox(on: meeting.name, mentioning: uid).map {
            $0.replacingOccurrences(of: "\r\n ", with: "")
        }
        #expect(replies.count == before + 1, "\(replies.count - before) replies: \(replies)")
        let commented = replies.filter { $0.contains("METHOD:REPLY") && $0.contains("COMMENT:Glad to") }
        #expect(commented.count == 1, "calgw said: \(said); alice's Inbox: \(replies)")
        #expect(said.contains("reply sent to"), "\(said)")
    }
}
