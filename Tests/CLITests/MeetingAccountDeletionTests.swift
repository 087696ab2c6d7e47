import Foundation
import Testing
import CalgwTestSupport

/// An attendee's deletion of a meeting on a whole-account pair that DAViCal fails to schedule
/// (500 on the DELETE: it cannot send the decline, as it cannot for every attendee when the
/// organizer's Inbox is of the calendar type) is made as a copy, and the decline is sent by POST
/// to the attendee's schedule Outbox: the organizer's Inbox gets one REPLY, and no note says
/// that she was not told.
@Suite(.timeLimit(.minutes(10))) struct MeetingAccountDeletionTests {
    @Test(.enabled(if: TestServers.selected.contains("davical"), "needs davical, which CALGW_TEST_SERVERS leaves out"))
    func anAttendeesDeclineTheServerFailsToSendGoesByTheOutbox() async throws {
        let own = try AttendeeServer("davical")
        defer { own.release() }
        let meeting = try await MeetingFixture(server: own.server, prefix: "acctdel")
        defer { meeting.remove() }
        let add = try await meeting.calgw([
            "event", "add", "--summary", "Planning", "--start", "2027-05-03T10:00", "--attendee",
            meeting.attendee.address,
        ])
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(add.status == 0 && !uid.isEmpty, "\(add.stderrText)")

        // bob's whole account, through a proxy that answers his second DELETE as DAViCal does
        // when it cannot send the decline (his first sync's first removes the invitation his
        // schedule inbox held, once it is in his calendar).
        let proxy = try TestProxies.fault(upstream: meeting.server.url, script: "ok,500", onlyMethods: "DELETE")
        defer { proxy.stop() }
        var bob = meeting.server
        (bob.username, bob.password, bob.home, bob.address) = (
            meeting.attendee.username, meeting.attendee.password, meeting.attendee.home, meeting.attendee.address
        )
        let account = try AccountFixture(server: bob, remote: proxy.proxied(bob.home), collections: "[\"calendar\"]")
        defer { account.remove() }
        let pulled = try await account.calgw(["sync"])
        #expect(pulled.status == 0, "\(pulled.stdoutText)\(pulled.stderrText)")

        let delete = try await account.calgw(["event", "delete", uid, "--offline"])
        #expect(delete.status == 0, "\(delete.stdoutText)\(delete.stderrText)")
        let synced = try await account.calgw(["sync", "--json"])
        #expect(synced.status == 0, "\(synced.stdoutText)\(synced.stderrText)")
        let json = (try? JSONSerialization.jsonObject(with: synced.stdout) as? [String: Any]) ?? [:]
        let notes = (json["notes"] as? [String]) ?? []
        #expect(!notes.contains { $0.contains("was not told") }, "\(synced.stdoutText)")
        let declines = try await meeting.organizerUser.inbox(on: meeting.name, mentioning: uid).filter {
            $0.contains("METHOD:REPLY") && $0.contains("PARTSTAT=DECLINED")
        }
        #expect(declines.count == 1, "\(declines)")
        let gone = try await meeting.stored(uid, in: meeting.attendeeCalendar, as: meeting.attendee)
        #expect(gone == nil, "bob's copy is still on the server")
    }
}

/// Addresses as notes print them.
enum CalendarUserText {
    /// `mailto:a@b` as `a@b`, lower-cased.
    static func bare(_ address: String) -> String {
        address.lowercased().replacingOccurrences(of: "mailto:", with: "")
    }
}
