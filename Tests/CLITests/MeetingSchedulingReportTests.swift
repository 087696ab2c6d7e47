import Foundation
import Testing
import CalgwTestSupport

/// What the person and their scripts are told was sent, on Cyrus: `event add`, `edit`,
/// `reply` and `delete` of a meeting say per person what the server was asked to send and what
/// it marked (`SCHEDULE-STATUS`) in the version it stored, in words and in `--json`
/// (`scheduling`); an answer the server marks as sent nowhere is warned of.
@Suite(.timeLimit(.minutes(10))) struct MeetingSchedulingReportTests {
    static let cyrus = TestServers.selected.filter { $0 == "cyrus" }

    /// The `scheduling` object of a command's `--json`.
    static func scheduling(_ result: ProcessRunner.Result) -> [String: Any] {
        ((try? JSONSerialization.jsonObject(with: result.stdout)) as? [String: Any])?["scheduling"] as? [String: Any]
            ?? [:]
    }

    static func recipients(_ scheduling: [String: Any]) -> [[String: Any]] {
        scheduling["recipients"] as? [[String: Any]] ?? []
    }

    @Test(.enabled(if: !cyrus.isEmpty, "needs cyrus, which CALGW_TEST_SERVERS leaves out"), arguments: cyrus)
    func eachActionSaysWhatWasSentToWhom(server name: String) async throws {
        let meeting = try await MeetingFixture(on: name, prefix: "sent")
        defer { meeting.remove() }
        let bob = meeting.attendee.address.replacingOccurrences(of: "mailto:", with: "")
        let alice = meeting.organizer.replacingOccurrences(of: "mailto:", with: "")

        let add = try await meeting.calgw([
            "event", "add", "--summary", "Sync-up", "--start", "2027-05-10T10:00", "--attendee", bob, "--json",
        ])
        #expect(add.status == 0, "\(add.stderrText)")
        let uid = ((try? JSONSerialization.jsonObject(with: add.stdout)) as? [String: Any])?["uid"] as? String ?? ""
        let invited = Self.scheduling(add)
        #expect(invited["message"] as? String == "invitation" && invited["asked"] as? Bool == true, "\(add.stdoutText)")
        #expect(Self.recipients(invited).count == 1, "\(add.stdoutText)")
        #expect(Self.recipients(invited).first?["address"] as? String == "mailto:\(bob)", "\(add.stdoutText)")
        #expect(Self.recipients(invited).first?["delivered"] as? Bool == true, "\(add.stdoutText)")
        let plainAdd = try await meeting.calgw([
            "event", "add", "--summary", "Second", "--start", "2027-05-11T10:00", "--attendee", bob,
        ])
        #expect(plainAdd.stderrText.contains("invitation sent to \(bob)"), "\(plainAdd.stderrText)")

        let edit = try await meeting.calgw(["event", "edit", uid, "--location", "Room 9"])
        #expect(
            edit.status == 0 && edit.stdoutText.contains("update sent to \(bob)"),
            "\(edit.stdoutText)\(edit.stderrText)")

        #expect(try await meeting.bob(["sync"]).status == 0)
        let reply = try await meeting.bob(["event", "reply", uid, "--accept", "--json"])
        let replied = Self.scheduling(reply)
        #expect(reply.status == 0 && replied["message"] as? String == "reply", "\(reply.stdoutText)\(reply.stderrText)")
        #expect(Self.recipients(replied).first?["address"] as? String == meeting.organizer, "\(reply.stdoutText)")
        #expect(Self.recipients(replied).first?["delivered"] as? Bool == true, "\(reply.stdoutText)")
        let again = try await meeting.bob(["event", "reply", uid, "--tentative"])
        #expect(
            again.status == 0 && again.stdoutText.contains("reply sent to \(alice)") && again.stderrText.isEmpty,
            "\(again.stdoutText)\(again.stderrText)")

        // (alice takes bob's answers first: a deletion of a copy the server changed meanwhile waits for a sync.)
        #expect(try await meeting.pair.run("sync", password: meeting.server.password).status == 0)
        let delete = try await meeting.calgw(["event", "delete", uid, "--json"])
        let cancelled = Self.scheduling(delete)
        #expect(
            delete.status == 0 && cancelled["message"] as? String == "cancellation"
                && cancelled["asked"] as? Bool == true,
            "\(delete.stdoutText)\(delete.stderrText)")
        #expect(Self.recipients(cancelled).first?["address"] as? String == "mailto:\(bob)", "\(delete.stdoutText)")

        // One occurrence deleted: the server sends the series' update (Cyrus: a REQUEST with the
        // EXDATE), and calgw says so, not "cancellation sent".
        let series = try await meeting.calgw([
            "event", "add", "--summary", "Weekly", "--start", "2027-06-07T10:00", "--rrule", "FREQ=WEEKLY;COUNT=3",
            "--attendee", bob, "--json",
        ])
        let weekly = ((try? JSONSerialization.jsonObject(with: series.stdout)) as? [String: Any])?["uid"] as? String
        let seriesUID = try #require(weekly, "\(series.stdoutText)\(series.stderrText)")
        let one = try await meeting.calgw(["event", "delete", seriesUID, "--occurrence", "2027-06-14T10:00", "--json"])
        let told = Self.scheduling(one)
        #expect(one.status == 0 && told["message"] as? String == "update", "\(one.stdoutText)\(one.stderrText)")
        let delivered = try await meeting.inbox(mentioning: seriesUID)
        #expect(
            delivered.last.map { $0.contains("METHOD:REQUEST") && $0.contains("EXDATE") } == true,
            "\(delivered.last ?? "none")")
    }

    @Test(.enabled(if: !cyrus.isEmpty, "needs cyrus, which CALGW_TEST_SERVERS leaves out"), arguments: cyrus)
    func anAnswerForAnAddressTheServerDoesNotKnowIsWarnedOf(server name: String) async throws {
        let meeting = try await MeetingFixture(on: name, prefix: "nosched")
        defer { meeting.remove() }
        let bob = try meeting.attendeePair()
        let uid = "robert-\(UUID().uuidString.prefix(8).lowercased())"
        try Data(
            MeetingCopyTests.meeting(
                uid, summary: "For robert", organizer: meeting.organizer, attendee: "mailto:robert@internal"
            ).utf8
        )
        .write(to: bob.vdir.appendingPathComponent("\(uid).ics"))
        #expect(try await meeting.bob(["sync"]).status == 0)
        let before = try await meeting.organizerUser.inbox(on: name, mentioning: uid).count
        let reply = try await meeting.bob(["event", "reply", uid, "--accept", "--address", "mailto:robert@internal"])
        #expect(reply.status == 0, "\(reply.stderrText)")
        #expect(
            reply.stderrText.contains("warning: the server stored your answer but marks no reply"),
            "\(reply.stderrText)")
        #expect(try await meeting.organizerUser.inbox(on: name, mentioning: uid).count == before)
    }
}
