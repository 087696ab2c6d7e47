import Foundation
import Testing
import CalgwTestSupport

/// What the organizer's changes to a meeting carry to its attendees, counted in bob's schedule
/// Inbox on Cyrus: each change reaches him exactly once, the first one too (Cyrus delivers a
/// meeting stored at `SEQUENCE:0` as sequence 1, and takes no update that is not newer), and a
/// meeting moved in time asks every attendee again.
@Suite(.timeLimit(.minutes(10))) struct MeetingOrganizerChangeTests {
    static let cyrus = TestServers.selected.filter { $0 == "cyrus" }

    /// The unfolded lines of the vdir's file holding `uid`.
    static func lines(of uid: String, in pair: ServerPair) throws -> [String] {
        try ServerPair.lines(try pair.file(uid: uid))
    }

    /// The ATTENDEE line naming `address`.
    static func attendeeLine(_ address: String, in lines: [String]) -> String? {
        lines.first { $0.hasPrefix("ATTENDEE") && $0.lowercased().hasSuffix(address.lowercased()) }
    }

    @Test(.enabled(if: !cyrus.isEmpty, "needs cyrus, which CALGW_TEST_SERVERS leaves out"), arguments: cyrus)
    func everyChangeOfTheOrganizerReachesTheAttendeeOnce(server name: String) async throws {
        let meeting = try await MeetingFixture(on: name, prefix: "seq")
        defer { meeting.remove() }
        let bare = meeting.attendee.address.replacingOccurrences(of: "mailto:", with: "")
        let add = try await meeting.calgw([
            "event", "add", "--summary", "Planning", "--start", "2027-03-05T10:00", "--attendee", bare,
        ])
        #expect(add.status == 0, "\(add.stderrText)")
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await meeting.inbox(mentioning: uid).count == 1)

        // The first change, then a second: one update each.
        let place = try await meeting.calgw(["event", "edit", uid, "--location", "Room 4"])
        #expect(place.status == 0, "\(place.stderrText)")
        let afterPlace = try await meeting.inbox(mentioning: uid)
        #expect(
            afterPlace.count == 2 && afterPlace.contains { $0.contains("LOCATION:Room 4") },
            "\(afterPlace.count) messages")
        #expect(try Self.lines(of: uid, in: meeting.pair).contains("SEQUENCE:2"))
        let title = try await meeting.calgw(["event", "edit", uid, "--summary", "Planning, again"])
        #expect(title.status == 0, "\(title.stderrText)")
        #expect(try await meeting.inbox(mentioning: uid).count == 3)

        // A new series' first change (one occurrence deleted) reaches bob too.
        let series = try await meeting.calgw([
            "event", "add", "--summary", "Standup", "--start", "2027-03-08T09:00",
            "--rrule", "FREQ=DAILY;COUNT=3", "--attendee", bare,
        ])
        let seriesUID = series.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(series.status == 0, "\(series.stderrText)")
        #expect(try await meeting.inbox(mentioning: seriesUID).count == 1)
        let cut = try await meeting.calgw(["event", "delete", seriesUID, "--occurrence", "2027-03-09T09:00"])
        #expect(cut.status == 0, "\(cut.stderrText)")
        #expect(try await meeting.inbox(mentioning: seriesUID).count == 2)
    }

    @Test(.enabled(if: !cyrus.isEmpty, "needs cyrus, which CALGW_TEST_SERVERS leaves out"), arguments: cyrus)
    func aMeetingMovedInTimeAsksTheAttendeesAgain(server name: String) async throws {
        let meeting = try await MeetingFixture(on: name, prefix: "resched")
        defer { meeting.remove() }
        let bob = meeting.attendee.address
        let add = try await meeting.calgw([
            "event", "add", "--summary", "Review", "--start", "2027-03-10T10:00", "--attendee", bob,
        ])
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(add.status == 0, "\(add.stderrText)")

        // bob accepts with his own calgw; alice's sync brings his answer into her copy.
        let pulled = try await meeting.bob(["sync"])
        #expect(pulled.status == 0, "\(pulled.stdoutText)\(pulled.stderrText)")
        let accepted = try await meeting.bob(["event", "reply", uid, "--accept"])
        #expect(accepted.status == 0, "\(accepted.stderrText)")
        let synced = try await meeting.pair.run("sync", password: meeting.server.password)
        #expect(synced.status == 0, "\(synced.stdoutText)\(synced.stderrText)")
        #expect(
            Self.attendeeLine(bob, in: try Self.lines(of: uid, in: meeting.pair))?.contains("PARTSTAT=ACCEPTED") == true
        )

        // A new place keeps his answer; a new time asks him again, in her copy and in his.
        let place = try await meeting.calgw(["event", "edit", uid, "--location", "Room 2"])
        #expect(place.status == 0, "\(place.stderrText)")
        #expect(
            Self.attendeeLine(bob, in: try Self.lines(of: uid, in: meeting.pair))?.contains("PARTSTAT=ACCEPTED") == true
        )
        let moved = try await meeting.calgw(["event", "edit", uid, "--start", "2027-03-11T15:00"])
        #expect(moved.status == 0, "\(moved.stderrText)")
        let lines = try Self.lines(of: uid, in: meeting.pair)
        let bobLine = Self.attendeeLine(bob, in: lines) ?? ""
        #expect(bobLine.contains("PARTSTAT=NEEDS-ACTION") && bobLine.contains("RSVP=TRUE"), "\(bobLine)")
        #expect(Self.attendeeLine(meeting.organizer, in: lines)?.contains("PARTSTAT=ACCEPTED") == true, "\(lines)")
        let update = try await meeting.inbox(mentioning: uid).last { $0.contains("DTSTART:20270311T150000Z") } ?? ""
        let delivered = update.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
        #expect(Self.attendeeLine(bob, in: delivered)?.contains("PARTSTAT=NEEDS-ACTION") == true, "\(update)")
        let his = try await meeting.stored(uid, in: meeting.attendeeCalendar, as: meeting.attendee) ?? ""
        #expect(
            Self.attendeeLine(bob, in: his.components(separatedBy: "\r\n"))?.contains("PARTSTAT=NEEDS-ACTION") == true,
            "\(his)")
    }
}
