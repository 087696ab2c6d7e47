import Foundation
import Testing
import CalgwTestSupport

/// A cancellation of a meeting the attendee's calendar no longer holds is moot: DAViCal
/// removes the attendee's copy itself and files the CANCEL in his schedule Inbox, where no
/// client would ever apply it. bob's calgw removes it once the meeting has left his calendar,
/// and says so; a cancellation of a meeting still in his calendar is applied as before.
@Suite(.timeLimit(.minutes(10))) struct MeetingCancelledInboxTests {
    @Test(.enabled(if: TestServers.selected.contains("davical"), "needs davical, which CALGW_TEST_SERVERS leaves out"))
    func aCancellationOfAMeetingNoLongerInTheCalendarLeavesTheInbox() async throws {
        let own = try AttendeeServer("davical")
        defer { own.release() }
        let meeting = try await MeetingFixture(server: own.server, prefix: "gone")
        defer { meeting.remove() }
        let add = try await meeting.calgw([
            "event", "add", "--summary", "Offsite", "--start", "2027-08-02T10:00", "--attendee",
            meeting.attendee.address,
        ])
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(add.status == 0 && !uid.isEmpty, "\(add.stderrText)")
        let pulled = try await meeting.bob(["sync"])
        #expect(pulled.status == 0, "\(pulled.stdoutText)\(pulled.stderrText)")
        #expect(try await meeting.inbox(mentioning: uid).isEmpty, "the invitation stayed in bob's Inbox")

        // alice deletes it: DAViCal removes bob's copy and files one CANCEL in his Inbox.
        let deleted = try await meeting.calgw(["event", "delete", uid])
        #expect(deleted.status == 0, "\(deleted.stdoutText)\(deleted.stderrText)")
        let cancels = try await meeting.inbox(mentioning: uid)
        #expect(cancels.count == 1 && cancels.first?.contains("METHOD:CANCEL") == true, "\(cancels)")
        let copy = try await meeting.stored(uid, in: meeting.attendeeCalendar, as: meeting.attendee)
        #expect(copy == nil, "bob's copy is still there: \(copy ?? "")")

        // bob's sync takes the meeting out of his vdir, and the cancellation out of his Inbox.
        let synced = try await meeting.bob(["sync", "--json"])
        #expect(synced.status == 0, "\(synced.stdoutText)\(synced.stderrText)")
        #expect((try? meeting.attendeePair().file(uid: uid)) == nil, "the meeting is still in bob's vdir")
        let left = try await meeting.inbox(mentioning: uid)
        #expect(left.isEmpty, "\(left.count) messages left in bob's Inbox")
        let notes =
            ((try? JSONSerialization.jsonObject(with: synced.stdout) as? [String: Any])?["notes"] as? [String]) ?? []
        #expect(
            notes.contains("removed 1 cancellation of a meeting no longer in the calendar from the schedule inbox"),
            "\(synced.stdoutText)")
    }
}
