import Foundation
import Testing
import CalgwTestSupport

/// Cyrus applies every scheduling message it delivers to the copy of the meeting and keeps the
/// message in the schedule Inbox besides, for the client to remove (RFC 6638 §4.1). Each
/// person's calgw removes those its copies show, and those of meetings none of its calendars
/// holds, in the run that brings the change: the Inboxes stay empty instead of piling up.
@Suite(.timeLimit(.minutes(10))) struct MeetingAppliedInboxTests {
    /// Every message in `user`'s Inbox, whatever meeting it is about.
    static func everything(_ user: TestServer.Attendee) async throws -> [String] {
        try await user.inbox(on: "cyrus", mentioning: "METHOD:")
    }

    @Test(.enabled(if: TestServers.selected.contains("cyrus"), "needs cyrus, which CALGW_TEST_SERVERS leaves out"))
    func theMessagesTheServerAppliedLeaveBothInboxes() async throws {
        let own = try AttendeeServer("cyrus")
        defer { own.release() }
        let meeting = try await MeetingFixture(server: own.server, prefix: "applied")
        defer { meeting.remove() }
        let (bob, alice) = (meeting.attendee, meeting.organizerUser)
        let add = try await meeting.calgw([
            "event", "add", "--summary", "Budget", "--start", "2027-09-06T10:00", "--attendee", bob.address,
        ])
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(add.status == 0 && !uid.isEmpty, "\(add.stderrText)")
        #expect(try await Self.everything(bob).count == 1, "the invitation did not reach bob")

        // bob's sync brings the invitation Cyrus filed in his calendar, and removes its message.
        let pulled = try await meeting.bob(["sync"])
        #expect(pulled.status == 0, "\(pulled.stdoutText)\(pulled.stderrText)")
        #expect(try meeting.attendeePair().file(uid: uid).path.hasSuffix(".ics"))
        #expect(try await Self.everything(bob).isEmpty, "the invitation stayed in bob's Inbox")

        // His answer reaches alice's Inbox once; her sync brings it and removes the message.
        let reply = try await meeting.bob(["event", "reply", uid, "--accept"])
        #expect(reply.status == 0, "\(reply.stdoutText)\(reply.stderrText)")
        let answer = try await Self.everything(alice)
        #expect(answer.count == 1, "\(answer)")
        let answered = try await meeting.calgw(["sync"])
        #expect(answered.status == 0, "\(answered.stdoutText)\(answered.stderrText)")
        let file = try String(contentsOf: try meeting.pair.file(uid: uid), encoding: .utf8)
        #expect(file.replacingOccurrences(of: "\r\n ", with: "").contains("PARTSTAT=ACCEPTED"), "\(file)")
        #expect(try await Self.everything(alice).isEmpty, "bob's answer stayed in alice's Inbox")

        // A move, then a cancellation: each reaches bob once and leaves with his next sync.
        let move = try await meeting.calgw(["event", "edit", uid, "--start", "2027-09-06T14:00"])
        #expect(move.status == 0, "\(move.stdoutText)\(move.stderrText)")
        #expect(try await Self.everything(bob).count == 1, "the update did not reach bob once")
        let moved = try await meeting.bob(["sync"])
        #expect(moved.status == 0, "\(moved.stdoutText)\(moved.stderrText)")
        let copy = try String(contentsOf: try meeting.attendeePair().file(uid: uid), encoding: .utf8)
        #expect(copy.contains("T140000"), "bob's vdir keeps the old time: \(copy)")
        #expect(try await Self.everything(bob).isEmpty, "the update stayed in bob's Inbox")

        let cancel = try await meeting.calgw(["event", "delete", uid])
        #expect(cancel.status == 0, "\(cancel.stdoutText)\(cancel.stderrText)")
        #expect(try await Self.everything(bob).count == 1, "the cancellation did not reach bob once")
        let cancelled = try await meeting.bob(["sync"])
        #expect(cancelled.status == 0, "\(cancelled.stdoutText)\(cancelled.stderrText)")
        #expect(try await Self.everything(bob).isEmpty, "the cancellation stayed in bob's Inbox")
    }

    /// A message for a meeting bob's calendars no longer hold goes with the run that brings
    /// him the change: alice moved the meeting, then another client of bob's removed it
    /// without answering (Cyrus files no message then), so the update is for nothing.
    @Test(.enabled(if: TestServers.selected.contains("cyrus"), "needs cyrus, which CALGW_TEST_SERVERS leaves out"))
    func aMessageOfAMeetingNoLongerInTheCalendarLeavesTheInbox() async throws {
        let own = try AttendeeServer("cyrus")
        defer { own.release() }
        let meeting = try await MeetingFixture(server: own.server, prefix: "moot")
        defer { meeting.remove() }
        let bob = meeting.attendee
        func invite(_ summary: String, at start: String) async throws -> String {
            let add = try await meeting.calgw([
                "event", "add", "--summary", summary, "--start", start, "--attendee", bob.address,
            ])
            #expect(add.status == 0, "\(add.stderrText)")
            return add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let uid = try await invite("Retro", at: "2027-09-13T10:00")
        let pulled = try await meeting.bob(["sync"])
        #expect(pulled.status == 0, "\(pulled.stdoutText)\(pulled.stderrText)")
        let move = try await meeting.calgw(["event", "edit", uid, "--start", "2027-09-13T15:00"])
        #expect(move.status == 0, "\(move.stdoutText)\(move.stderrText)")
        let copy = try meeting.attendeePair().file(uid: uid).lastPathComponent
        let dropped = try await ProcessRunner.run(
            "curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "\(bob.username):\(bob.password)", "-X", "DELETE",
                "-H", "Schedule-Reply: F", meeting.attendeeCalendar.appendingPathComponent(copy).absoluteString,
            ])
        #expect(dropped.stdoutText == "204", "\(dropped.stdoutText)")
        let moot = try await Self.everything(bob)
        #expect(moot.count == 1 && moot.first?.contains(uid) == true, "\(moot)")

        let synced = try await meeting.bob(["sync"])
        #expect(synced.status == 0, "\(synced.stdoutText)\(synced.stderrText)")
        #expect((try? meeting.attendeePair().file(uid: uid)) == nil, "the meeting is still in bob's vdir")
        let left = try await Self.everything(bob)
        #expect(left.isEmpty, "\(left.count) messages left in bob's Inbox: \(left)")
    }
}
