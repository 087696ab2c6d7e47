import Foundation
import Testing
import CalgwTestSupport

/// An organizer's changes that DAViCal delivers to the attendee's schedule Inbox only reach the
/// attendee's vdir: bob's sync applies them to his copy on the server, brings them down and
/// removes the messages; Cyrus, which applies them itself, has its Inbox left alone.
@Suite(.timeLimit(.minutes(10))) struct MeetingInboxTests {
    /// bob's calgw takes what is in his Inbox: the test has a DAViCal of its own, so no other
    /// test's messages meet it.
    @Test(.enabled(if: TestServers.selected.contains("davical"), "needs davical, which CALGW_TEST_SERVERS leaves out"))
    func theOrganizersChangesReachTheAttendeesVdir() async throws {
        let server = try TestServers.start("davical")
        defer { server.stop() }
        let meeting = try await MeetingFixture(server: server, prefix: "inbox")
        defer { meeting.remove() }
        let add = try await meeting.calgw([
            "event", "add", "--summary", "Standup", "--start", "2027-06-07T09:00", "--rrule", "FREQ=DAILY;COUNT=4",
            "--attendee", meeting.attendee.address,
        ])
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(add.status == 0 && !uid.isEmpty, "\(add.stderrText)")
        #expect(try await meeting.inbox(mentioning: uid).count == 1)

        // The invitation is in his calendar already: his sync brings it and removes the message.
        let first = try await meeting.bob(["sync"])
        #expect(first.status == 0, "\(first.stdoutText)\(first.stderrText)")
        #expect(try bobsFile(uid, meeting).contains("DTSTART:20270607T090000Z"))
        #expect(try await meeting.inbox(mentioning: uid).isEmpty, "the invitation stayed in bob's Inbox")

        // The organizer moves the series twice: DAViCal updates bob's copy for a meeting with no
        // message in his Inbox, and only rewrites the message in place for one with a message.
        let moved = try await meeting.calgw(["event", "edit", uid, "--start", "2027-06-07T11:00"])
        #expect(moved.status == 0, "\(moved.stderrText)")
        let again = try await meeting.calgw(["event", "edit", uid, "--start", "2027-06-07T13:00"])
        #expect(again.status == 0, "\(again.stderrText)")
        #expect(try await meeting.inbox(mentioning: uid).count == 1)
        let stored = try await meeting.stored(uid, in: meeting.attendeeCalendar, as: meeting.attendee) ?? ""
        #expect(stored.contains("DTSTART:20270607T110000Z"), "DAViCal applied the second update itself: \(stored)")
        let synced = try await meeting.bob(["sync", "--json"])
        #expect(synced.status == 0, "\(synced.stdoutText)\(synced.stderrText)")
        let notes =
            ((try? JSONSerialization.jsonObject(with: synced.stdout) as? [String: Any])?["notes"] as? [String]) ?? []
        #expect(notes.contains("applied 1 organizer update from the schedule inbox"), "\(synced.stdoutText)")
        let file = try bobsFile(uid, meeting)
        #expect(file.contains("DTSTART:20270607T130000Z") && !file.contains("SCHEDULE-AGENT"), "\(file)")
        // bob's line keeps his address as the server names him, though his copy there spells
        // its domain otherwise (so that DAViCal sends no reply for it).
        #expect(file.contains(meeting.attendee.address) && !file.contains("EXAMPLE.NET"), "\(file)")
        #expect(try await meeting.inbox(mentioning: uid).isEmpty, "the update stayed in bob's Inbox")

        // A second sync finds nothing more to do.
        let quiet = try await meeting.bob(["sync", "--json"])
        #expect(quiet.status == 0 && JSONCounts.writes(in: quiet.stdoutText) == 0, "\(quiet.stdoutText)")

        // DAViCal takes every write of an attendee's copy as a reply to send, and fails it (500)
        // with an Inbox of the calendar type, as its admin screen makes them: calgw's copy names
        // bob in another letter case, so it is stored, sends alice nothing, and leaves her copy
        // (and bob's line in it) as she wrote it.
        let organizers = try await meeting.stored(uid, in: meeting.collection, as: meeting.organizerUser) ?? ""
        let bobsLine =
            organizers.split(whereSeparator: \.isNewline).first { $0.contains(meeting.attendee.address) } ?? ""
        #expect(!bobsLine.contains("SCHEDULE-AGENT") && !bobsLine.contains("SCHEDULE-STATUS=2.0"), "\(organizers)")
        let replies = try await meeting.organizerUser.inbox(on: meeting.name, mentioning: uid)
        #expect(replies.isEmpty, "\(replies)")

        // The organizer deletes the meeting: the cancellation reaches bob.
        // bob's Inbox holds no message calgw applied, so DAViCal finds his copy, removes it and
        // sends one cancellation (with a leftover message there it fails, 500).
        let deleted = try await meeting.calgw(["event", "delete", uid])
        #expect(deleted.status == 0 && !deleted.stderrText.contains("failed"), "\(deleted.stderrText)")
        let removed = try await meeting.stored(uid, in: meeting.attendeeCalendar, as: meeting.attendee)
        #expect(removed == nil, "DAViCal left bob's copy: \(removed ?? "")")
        let cancel = try await meeting.inbox(mentioning: uid)
        #expect(cancel.count == 1 && cancel.allSatisfy { $0.contains("METHOD:CANCEL") }, "\(cancel)")
        let last = try await meeting.bob(["sync"])
        #expect(last.status == 0, "\(last.stdoutText)\(last.stderrText)")
        let gone = (try? bobsFile(uid, meeting)).map { $0.contains("STATUS:CANCELLED") } ?? true
        #expect(gone, "bob's vdir still shows the deleted meeting")
    }

    /// bob's answer, which calgw sends through his schedule Outbox where DAViCal's reply code
    /// fails, lands in alice's Inbox and leaves her copy as it was: alice's sync, once it brings
    /// a change of her calendar's, applies it to her copy (inviting nobody), brings it into her
    /// vdir and removes it.
    @Test(.enabled(if: TestServers.selected.contains("davical"), "needs davical, which CALGW_TEST_SERVERS leaves out"))
    func anAttendeesAnswerReachesTheOrganizersVdir() async throws {
        let server = try TestServers.start("davical")
        defer { server.stop() }
        let meeting = try await MeetingFixture(server: server, prefix: "answer")
        defer { meeting.remove() }
        let add = try await meeting.calgw([
            "event", "add", "--summary", "Review", "--start", "2027-06-08T09:00", "--attendee",
            meeting.attendee.address,
        ])
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(add.status == 0 && !uid.isEmpty, "\(add.stderrText)")
        let pulled = try await meeting.bob(["sync"])
        #expect(pulled.status == 0, "\(pulled.stdoutText)\(pulled.stderrText)")
        let reply = try await meeting.bob(["event", "reply", uid, "--accept"])
        #expect(reply.status == 0, "\(reply.stdoutText)\(reply.stderrText)")
        #expect(try await meeting.organizerUser.inbox(on: meeting.name, mentioning: uid).count == 1)
        func bobsLine(_ text: String) -> String {
            text.split(whereSeparator: \.isNewline).map(String.init).first {
                $0.hasPrefix("ATTENDEE") && $0.lowercased().contains(meeting.attendee.address.lowercased())
            } ?? ""
        }
        let untouched = try await meeting.stored(uid, in: meeting.collection, as: meeting.organizerUser) ?? ""
        #expect(bobsLine(untouched).contains("PARTSTAT=NEEDS-ACTION"), "\(untouched)")

        // Another device of alice's adds an event: her next sync brings it, and reads her Inbox.
        let other = try TemporaryFolder()
        defer { other.remove() }
        try Data(TestEvent.ics(uid: "other-\(uid)", summary: "Lunch", start: "20270608T120000Z").utf8)
            .write(to: other.file("other.ics"))
        let put = try await ProcessRunner.run(
            "curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "\(server.username):\(server.password)",
                "-T", other.file("other.ics").path, "-H", "Expect:", "-H", "Content-Type: text/calendar",
                meeting.collection.appendingPathComponent("other-\(uid).ics").absoluteString,
            ])
        #expect(["201", "204"].contains(put.stdoutText), "\(put.stdoutText)")
        let synced = try await meeting.calgw(["sync", "--json"])
        #expect(synced.status == 0, "\(synced.stdoutText)\(synced.stderrText)")
        let notes =
            ((try? JSONSerialization.jsonObject(with: synced.stdout) as? [String: Any])?["notes"] as? [String]) ?? []
        #expect(notes.contains("applied 1 attendee answer from the schedule inbox"), "\(synced.stdoutText)")
        let file = try String(contentsOf: try meeting.pair.file(uid: uid), encoding: .utf8).replacingOccurrences(
            of: "\r\n ", with: "")
        #expect(bobsLine(file).contains("PARTSTAT=ACCEPTED") && !file.contains("SCHEDULE-AGENT"), "\(file)")
        let stored = try await meeting.stored(uid, in: meeting.collection, as: meeting.organizerUser) ?? ""
        #expect(bobsLine(stored).contains("PARTSTAT=ACCEPTED"), "\(stored)")
        // The REPLY is removed; applying it sent bob nothing.
        #expect(try await meeting.organizerUser.inbox(on: meeting.name, mentioning: uid).isEmpty)
        let bobs = try await meeting.inbox(mentioning: uid)
        #expect(bobs.isEmpty, "bob got \(bobs)")
        let quiet = try await meeting.calgw(["sync", "--json"])
        #expect(quiet.status == 0 && JSONCounts.writes(in: quiet.stdoutText) == 0, "\(quiet.stdoutText)")
    }

    /// Cyrus applies the organizer's messages to bob's calendar itself and keeps them in his
    /// Inbox besides: bob's sync applies none (no note says so), and removes those his
    /// calendar shows (see ``MeetingAppliedInboxTests``).
    @Test(.enabled(if: TestServers.selected.contains("cyrus"), "needs cyrus, which CALGW_TEST_SERVERS leaves out"))
    func cyrusInboxIsNotAppliedAgain() async throws {
        let meeting = try await MeetingFixture(on: "cyrus", prefix: "inboxleft")
        defer { meeting.remove() }
        let add = try await meeting.calgw([
            "event", "add", "--summary", "Review", "--start", "2027-06-09T10:00", "--attendee",
            meeting.attendee.address,
        ])
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(add.status == 0 && !uid.isEmpty, "\(add.stderrText)")
        let moved = try await meeting.calgw(["event", "edit", uid, "--start", "2027-06-09T12:00"])
        #expect(moved.status == 0, "\(moved.stderrText)")
        let before = try await meeting.inbox(mentioning: uid)
        #expect(before.count == 2)
        let synced = try await meeting.bob(["sync", "--json"])
        #expect(synced.status == 0, "\(synced.stdoutText)\(synced.stderrText)")
        #expect(!synced.stdoutText.contains("schedule inbox"), "\(synced.stdoutText)")
        #expect(try bobsFile(uid, meeting).contains("T120000"))
        #expect(try await meeting.inbox(mentioning: uid).isEmpty, "bob's sync left his Inbox as it was")
    }

    /// The text of bob's vdir file holding `uid` (lines unfolded).
    private func bobsFile(_ uid: String, _ meeting: MeetingFixture) throws -> String {
        let text = try String(contentsOf: try meeting.attendeePair().file(uid: uid), encoding: .utf8)
        return text.replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\n ", with: "")
    }
}
