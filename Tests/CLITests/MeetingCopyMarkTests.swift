import Foundation
import Testing
import CalgwTestSupport

/// The marks calgw puts on a copy for DAViCal (`SCHEDULE-AGENT=CLIENT` on the organizer and
/// attendees, so that the copy invites nobody) are the server's alone: a second device that
/// syncs the copy gets a file without them, and the person's later `event edit` of that meeting
/// updates the attendee once, as any edit of a meeting the person organizes does. Each test has
/// a DAViCal of its own: another test's run of bob's calgw on a shared one could take the
/// message counted here out of his Inbox first.
@Suite(.timeLimit(.minutes(10))) struct MeetingCopyMarkTests {
    @Test(.enabled(if: TestServers.selected.contains("davical"), "needs davical, which CALGW_TEST_SERVERS leaves out"))
    func aCopysMarksStayOffTheFilesAndOffThePersonsEdit() async throws {
        let meeting = try await MeetingFixture(on: "davical", prefix: "marks", alone: true)
        defer { meeting.remove() }
        let (server, bob, pair) = (meeting.server, meeting.attendee, meeting.pair)
        let uid = "marked-\(UUID().uuidString.prefix(8).lowercased())"

        // A first device copies a meeting up: DAViCal stores it marked, and invites nobody.
        let phone = try ServerPair(meeting.folder, "phone", server: server, collection: meeting.collection)
        try Data(
            MeetingCopyTests.meeting(uid, summary: "Copied", organizer: meeting.organizer, attendee: bob.address).utf8
        )
        .write(to: phone.vdir.appendingPathComponent("\(uid).ics"))
        let copied = try await phone.run("sync", password: server.password)
        #expect(copied.status == 0, "\(copied.stdoutText)\(copied.stderrText)")
        let stored = try await meeting.stored(uid, in: meeting.collection, as: meeting.organizerUser) ?? ""
        #expect(stored.contains("SCHEDULE-AGENT=CLIENT"), "the copy is not marked: \(stored)")
        #expect(try await meeting.inbox(mentioning: uid).isEmpty, "the copy invited bob")

        // The second device (alice's pair) pulls it: the file carries no mark.
        let pulled = try await pair.run("sync", password: server.password)
        #expect(pulled.status == 0, "\(pulled.stdoutText)\(pulled.stderrText)")
        let file = try String(contentsOf: try pair.file(uid: uid), encoding: .utf8)
        #expect(!file.contains("SCHEDULE-AGENT"), "the vdir holds the server's mark: \(file)")
        let quiet = try await pair.run("sync", ["--json"], password: server.password)
        #expect(quiet.status == 0 && JSONCounts.writes(in: quiet.stdoutText) == 0, "\(quiet.stdoutText)")

        // Her edit of the meeting is her action: it goes without the marks, and bob hears of it.
        let edit = try await meeting.calgw(["event", "edit", uid, "--summary", "Copied and renamed"])
        #expect(edit.status == 0, "\(edit.stdoutText)\(edit.stderrText)")
        let after = try await meeting.stored(uid, in: meeting.collection, as: meeting.organizerUser) ?? ""
        #expect(after.contains("SUMMARY:Copied and renamed"), "the edit did not reach the server: \(after)")
        #expect(!after.contains("SCHEDULE-AGENT=CLIENT"), "the edit went with the marks: \(after)")
        let messages = try await meeting.inbox(mentioning: uid)
        #expect(
            messages.count == 1 && messages.first?.contains("SUMMARY:Copied and renamed") == true,
            "bob got \(messages.count) messages: \(messages.first ?? "")")
    }

    /// A file that already holds the marks (pulled before they were taken off) does not make
    /// the person's edit a copy: the marks are taken off what the edit sends.
    @Test(.enabled(if: TestServers.selected.contains("davical"), "needs davical, which CALGW_TEST_SERVERS leaves out"))
    func aPersonsEditOfAMarkedFileGoesWithoutTheMarks() async throws {
        let meeting = try await MeetingFixture(on: "davical", prefix: "marked", alone: true)
        defer { meeting.remove() }
        let (server, bob, pair) = (meeting.server, meeting.attendee, meeting.pair)
        let uid = "markedfile-\(UUID().uuidString.prefix(8).lowercased())"
        let marked = MeetingCopyTests.meeting(
            uid, summary: "Marked", organizer: meeting.organizer, attendee: bob.address
        )
        .replacingOccurrences(of: "ORGANIZER:", with: "ORGANIZER;SCHEDULE-AGENT=CLIENT:")
        .replacingOccurrences(of: "ATTENDEE;", with: "ATTENDEE;SCHEDULE-AGENT=CLIENT;")
        try Data(marked.utf8).write(to: pair.vdir.appendingPathComponent("\(uid).ics"))
        let synced = try await pair.run("sync", password: server.password)
        #expect(synced.status == 0 && synced.stdoutText.contains("remote: 1 created"), "\(synced.stdoutText)")
        #expect(try await meeting.inbox(mentioning: uid).isEmpty, "the copy invited bob")

        let edit = try await meeting.calgw(["event", "edit", uid, "--summary", "Marked, then renamed"])
        #expect(edit.status == 0, "\(edit.stdoutText)\(edit.stderrText)")
        let messages = try await meeting.inbox(mentioning: uid)
        #expect(messages.count == 1, "bob got \(messages.count) messages for the edit")
    }
}
