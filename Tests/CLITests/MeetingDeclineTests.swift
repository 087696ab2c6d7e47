import Foundation
import Testing
import CalgwTestSupport

/// bob declines a weekly meeting by deleting it, on DAViCal as its admin screen sets it up:
/// DAViCal fails the deletion's decline in its own code (500), as it fails every answer there.
/// calgw deletes his copy without scheduling and sends the decline through his schedule
/// Outbox: alice's Inbox gets one DECLINED REPLY, nothing is pending, and bob's later runs
/// exit 0.
@Suite(.timeLimit(.minutes(10))) struct MeetingDeclineTests {
    @Test(.enabled(if: TestServers.selected.contains("davical"), "needs davical, which CALGW_TEST_SERVERS leaves out"))
    func aDeclineByDeletionReachesTheOrganizerOnce() async throws {
        let server = try TestServers.start("davical")
        defer { server.stop() }
        let meeting = try await MeetingFixture(server: server, prefix: "decline")
        defer { meeting.remove() }
        let add = try await meeting.calgw([
            "event", "add", "--summary", "Weekly", "--start", "2027-06-07T09:00", "--rrule", "FREQ=WEEKLY;COUNT=4",
            "--attendee", meeting.attendee.address,
        ])
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(add.status == 0 && !uid.isEmpty, "\(add.stderrText)")
        let pulled = try await meeting.bob(["sync"])
        #expect(pulled.status == 0, "\(pulled.stdoutText)\(pulled.stderrText)")

        let delete = try await meeting.bob(["event", "delete", uid, "--json"])
        #expect(delete.status == 0, "\(delete.stdoutText)\(delete.stderrText)")
        #expect(
            !delete.stdoutText.contains("pending") && !delete.stderrText.contains("not told"),
            "\(delete.stdoutText)\(delete.stderrText)")
        let declines = try await meeting.organizerUser.inbox(on: meeting.name, mentioning: uid).filter {
            $0.contains("METHOD:REPLY") && $0.contains("PARTSTAT=DECLINED")
        }
        #expect(declines.count == 1, "\(declines)")
        let copy = try await meeting.stored(uid, in: meeting.attendeeCalendar, as: meeting.attendee)
        #expect(copy == nil, "bob's copy is still on the server: \(copy ?? "")")

        for _ in 0..<2 {
            let synced = try await meeting.bob(["sync", "--json"])
            #expect(
                synced.status == 0 && JSONCounts.writes(in: synced.stdoutText) == 0, "\(synced.stdoutText)")
        }
        #expect(try await meeting.inbox(mentioning: uid).isEmpty)
    }
}
