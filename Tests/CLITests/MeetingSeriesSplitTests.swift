import Foundation
import Testing
import CalgwTestSupport

/// alice moves a weekly meeting bob accepted from one occurrence on (`event edit --occurrence
/// … --span future`): the old series is cut short and a new one starts. The occurrences before
/// the split did not change, so bob's answer to them stands in both calendars: Cyrus's REQUEST
/// for the shortened series asks him again (`PARTSTAT=NEEDS-ACTION` in his copy), and his
/// calgw keeps his answer, on the server too, without a message to alice.
@Suite(.timeLimit(.minutes(10))) struct MeetingSeriesSplitTests {
    static let cyrus = TestServers.selected.filter { $0 == "cyrus" }

    @Test(.enabled(if: !cyrus.isEmpty, "needs cyrus, which CALGW_TEST_SERVERS leaves out"), arguments: cyrus)
    func aSeriesCutShortKeepsTheAnswerToItsEarlierOccurrences(server name: String) async throws {
        let own = try AttendeeServer(name)
        defer { own.release() }
        let meeting = try await MeetingFixture(server: own.server, prefix: "split")
        defer { meeting.remove() }
        let add = try await meeting.calgw([
            "event", "add", "--summary", "Weekly", "--start", "2027-06-07T09:00", "--rrule", "FREQ=WEEKLY;COUNT=6",
            "--attendee", meeting.attendee.address,
        ])
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(add.status == 0 && !uid.isEmpty, "\(add.stderrText)")
        let pulled = try await meeting.bob(["sync"])
        #expect(pulled.status == 0, "\(pulled.stdoutText)\(pulled.stderrText)")
        let accepted = try await meeting.bob(["event", "reply", uid, "--accept"])
        #expect(accepted.status == 0, "\(accepted.stderrText)")
        let synced = try await meeting.calgw(["sync"])
        #expect(synced.status == 0, "\(synced.stdoutText)\(synced.stderrText)")
        let organizers = try #require(try await meeting.stored(uid, in: meeting.collection, as: meeting.organizerUser))
        #expect(
            Self.bobsLines(organizers, bob: meeting.attendee.address).allSatisfy { $0.contains("PARTSTAT=ACCEPTED") })

        let split = try await meeting.calgw([
            "event", "edit", uid, "--occurrence", "2027-06-21T09:00", "--span", "future", "--start", "2027-06-21T11:00",
        ])
        #expect(split.status == 0, "\(split.stdoutText)\(split.stderrText)")
        let alicesInbox = try await meeting.organizerUser.inbox(on: name, mentioning: uid).count

        let again = try await meeting.bob(["sync"])
        #expect(
            again.status == 0 && again.stdoutText.contains("\(uid): the organizer only cut the series short"),
            "\(again.stdoutText)\(again.stderrText)")
        let file = try String(contentsOf: try meeting.attendeePair().file(uid: uid), encoding: .utf8)
            .replacingOccurrences(of: "\r\n ", with: "")
        #expect(file.contains("RRULE:FREQ=WEEKLY;UNTIL=") || file.contains("COUNT=2"), "not cut short: \(file)")
        let bobs = Self.bobsLines(file, bob: meeting.attendee.address)
        #expect(!bobs.isEmpty && bobs.allSatisfy { $0.contains("PARTSTAT=ACCEPTED") }, "bob's vdir: \(bobs)")
        let server = try await meeting.stored(uid, in: meeting.attendeeCalendar, as: meeting.attendee) ?? ""
        let stored = Self.bobsLines(server, bob: meeting.attendee.address)
        #expect(
            !stored.isEmpty && stored.allSatisfy { $0.contains("PARTSTAT=ACCEPTED") }, "bob's server copy: \(stored)")

        // Not offered again; the new series, a move, is.
        let rows = try await meeting.bob(["invitations", "--json"])
        let waiting = ((try? JSONSerialization.jsonObject(with: rows.stdout) as? [[String: Any]]) ?? []).compactMap {
            $0["uid"] as? String
        }
        #expect(rows.status == 0 && !waiting.contains(uid), "\(rows.stdoutText)")
        // Keeping the answer told alice nothing: her copy says so already.
        let after = try await meeting.organizerUser.inbox(on: name, mentioning: uid).count
        #expect(after == alicesInbox, "\(after - alicesInbox) messages to alice")
        // And it is done: the next sync writes nothing, and both copies stay as they are.
        let quiet = try await meeting.bob(["sync", "--json"])
        #expect(quiet.status == 0 && JSONCounts.writes(in: quiet.stdoutText) == 0, "\(quiet.stdoutText)")
        let unchanged = try String(contentsOf: try meeting.attendeePair().file(uid: uid), encoding: .utf8)
            .replacingOccurrences(of: "\r\n ", with: "")
        #expect(unchanged == file, "\(unchanged)")
        let still = try await meeting.stored(uid, in: meeting.attendeeCalendar, as: meeting.attendee)
        #expect(still == server, "\(still ?? "no copy")")
    }

    /// bob's ATTENDEE lines in `text` (unfolded).
    static func bobsLines(_ text: String, bob: String) -> [String] {
        text.components(separatedBy: .newlines).map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            $0.hasPrefix("ATTENDEE") && $0.lowercased().contains(bob.lowercased())
        }
    }
}
