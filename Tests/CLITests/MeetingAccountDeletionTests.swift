import Foundation
import Testing
import CalgwTestSupport

/// An attendee's deletion of a meeting on a whole-account pair that DAViCal fails to schedule
/// (500 on the DELETE: it cannot send the decline) is made as a copy, and the note saying who
/// was not told reaches the person: in the account's report (text and `--json`), naming the
/// organizer, since it is the organizer who got no decline.
@Suite(.timeLimit(.minutes(10))) struct MeetingAccountDeletionTests {
    @Test(.enabled(if: TestServers.selected.contains("davical"), "needs davical, which CALGW_TEST_SERVERS leaves out"))
    func anAttendeesDeletionTheServerFailsToScheduleIsNotedByRole() async throws {
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
        let note = notes.first { $0.contains("failed") } ?? ""
        #expect(note.hasPrefix("calendar: "), "no note in the account's report: \(synced.stdoutText)")
        #expect(
            note.contains("its organizer was not told") && note.contains(CalendarUserText.bare(meeting.organizer))
                && !note.contains("its attendees were not told"),
            "\(note)")
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
