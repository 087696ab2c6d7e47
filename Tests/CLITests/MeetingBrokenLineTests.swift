import Foundation
import Testing
import CalgwTestSupport

/// An invitation whose lines are broken (written by hand or by another tool), in bob's vdir on
/// Cyrus: an answer is refused while his own ATTENDEE line holds no calendar address (a
/// server would take it for a third attendee), and a file that cannot be read is named, with
/// its line, by `invitations` and by `event reply`, instead of the meeting being left out; and
/// `sync` does not upload the file whose ATTENDEE line `lint` rejects, but names it at its line.
@Suite(.timeLimit(.minutes(10))) struct MeetingBrokenLineTests {
    static let cyrus = TestServers.selected.filter { $0 == "cyrus" }

    /// A meeting alice organizes with bob's ATTENDEE line written as `line`.
    static func meeting(_ uid: String, organizer: String, bobLine line: String) -> String {
        TestEvent.ics(
            uid: uid, summary: "Broken", start: "20270601T100000Z", end: "20270601T110000Z",
            extra: ["ORGANIZER:\(organizer)", "ATTENDEE;PARTSTAT=ACCEPTED:\(organizer)", line])
    }

    @Test(.enabled(if: !cyrus.isEmpty, "needs cyrus, which CALGW_TEST_SERVERS leaves out"), arguments: cyrus)
    func aBrokenAttendeeLineIsNamedAndTakesNoAnswer(server name: String) async throws {
        let meeting = try await MeetingFixture(on: name, prefix: "broken")
        defer { meeting.remove() }
        let bob = try meeting.attendeePair()
        let address = meeting.attendee.address
        let id = UUID().uuidString.prefix(8).lowercased()
        let spaced = "spaced-\(id)", quoted = "quoted-\(id)"
        try Data(
            Self.meeting(
                spaced, organizer: meeting.organizer,
                bobLine: "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE \(address)"
            ).utf8
        )
        .write(to: bob.vdir.appendingPathComponent("\(spaced).ics"))
        try Data(
            Self.meeting(
                quoted, organizer: meeting.organizer,
                bobLine: "ATTENDEE;CN=\"Bob;PARTSTAT=NEEDS-ACTION:\(address)"
            ).utf8
        )
        .write(to: bob.vdir.appendingPathComponent("\(quoted).ics"))

        let listed = try await meeting.bob(["invitations"])
        #expect(listed.status == 0, "\(listed.stderrText)")
        let quotedFile = bob.vdir.appendingPathComponent("\(quoted).ics").path
        #expect(listed.stderrText.contains("\(quotedFile):"), "\(listed.stderrText)")
        // The spaced line parses, as no address: named at its line, not dropped in silence.
        let spacedAt = bob.vdir.appendingPathComponent("\(spaced).ics").path + ":"
        #expect(
            listed.stderrText.contains(spacedAt) && listed.stderrText.contains("is no calendar address"),
            "\(listed.stderrText)")
        // `list` shows the meeting, names the line, and shows no answer read from the broken
        // line (it read as `[needs-action mailto]`).
        let shown = try await meeting.bob(["list", "--from", "2027-06-01", "--to", "2027-06-02"])
        #expect(shown.stdoutText.contains("Broken") && !shown.stdoutText.contains("mailto]"), "\(shown.stdoutText)")
        #expect(
            shown.stderrText.contains(spacedAt) && shown.stderrText.contains("is no calendar address"),
            "\(shown.stderrText)")

        let spacedBefore = try String(contentsOf: bob.vdir.appendingPathComponent("\(spaced).ics"), encoding: .utf8)
        let answer = try await meeting.bob(["event", "reply", spaced, "--accept", "--offline"])
        #expect(
            answer.status == 1 && answer.stderrText.contains("is not valid")
                && answer.stderrText.contains(bob.vdir.appendingPathComponent("\(spaced).ics").path),
            "\(answer.status) \(answer.stderrText)")
        #expect(
            try String(contentsOf: bob.vdir.appendingPathComponent("\(spaced).ics"), encoding: .utf8) == spacedBefore)

        let unreadable = try await meeting.bob(["event", "reply", quoted, "--accept", "--offline"])
        #expect(
            unreadable.status == 1 && unreadable.stderrText.contains("cannot be read: \(quotedFile):"),
            "\(unreadable.status) \(unreadable.stderrText)")

        let spacedFile = bob.vdir.appendingPathComponent("\(spaced).ics").path
        let synced = try await meeting.bob(["sync"])
        #expect(
            synced.status == 1 && synced.stderrText.contains("\(spacedFile):")
                && synced.stderrText.contains("is not a valid CAL-ADDRESS"),
            "\(synced.status) \(synced.stderrText)")
        #expect(try await meeting.stored(spaced, in: meeting.attendeeCalendar, as: meeting.attendee) == nil)
        #expect(try String(contentsOf: URL(fileURLWithPath: spacedFile), encoding: .utf8) == spacedBefore)
    }
}
