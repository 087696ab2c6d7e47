import Foundation
import Testing
import CalgwTestSupport

/// A server that refuses the write of a meeting the person means to schedule (403 without the
/// privilege, 409): `event add --attendee` keeps the meeting in the vdir, says why it is not on
/// the server, and exits 0, since running it again would make a second meeting; nobody is
/// invited yet. The journal keeps it as the person's action, so the next `calgw push` sends it
/// as such, and the attendee gets exactly one invitation. A 412 ("taken") on the create is
/// settled within the run.
@Suite(.timeLimit(.minutes(10))) struct MeetingWriteRefusalTests {
    static let cases = MeetingCopyTests.scheduling.flatMap { server in ["403", "409", "412"].map { (server, $0) } }

    @Test(
        .enabled(
            if: !cases.isEmpty,
            "needs a server that schedules (cyrus, davical, sabre), which CALGW_TEST_SERVERS leaves out"),
        arguments: cases)
    func aRefusedInvitationIsKeptAndSentOnceLater(server name: String, status: String) async throws {
        let own = try AttendeeServer(name)
        defer { own.release() }
        let proxy = try TestProxies.fault(upstream: own.server.url, script: status, onlyMethods: "PUT")
        defer { proxy.stop() }
        let meeting = try await MeetingFixture(server: own.server, prefix: "refused", through: proxy)
        defer { meeting.remove() }
        let (attendee, pair, calgw) = (meeting.attendee, meeting.pair, meeting.calgw)

        let add = try await calgw([
            "event", "add", "--summary", "Refused \(status)", "--start", "2027-06-07T10:00", "--attendee",
            attendee.address,
        ])
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(add.status == 0 && !uid.isEmpty, "\(name) \(status): \(add.stdoutText)\(add.stderrText)")
        if status == "412" {
            // "Taken" on a create: calgw looks at what holds the name (nothing), creates it
            // again in the same run, and the attendee is invited once.
            #expect(
                add.stderrText.split(separator: "\n").allSatisfy { $0.hasPrefix("invitation sent to") },
                "\(name) 412: \(add.stderrText)")
            #expect(try await attendee.inbox(on: name, mentioning: uid).count == 1, "\(name) 412: not invited once")
            let push = try await calgw(["push", "--json"])
            #expect(push.status == 0 && JSONCounts.writes(in: push.stdoutText) == 0, "\(name) 412: \(push.stdoutText)")
            #expect(try await attendee.inbox(on: name, mentioning: uid).count == 1, "\(name) 412: invited again")
            return
        }
        #expect(
            add.stderrText.contains("saved in the vdir but not on the server"), "\(name) \(status): \(add.stderrText)")
        #expect(
            FileManager.default.fileExists(atPath: try pair.file(uid: uid).path),
            "\(name) \(status): the meeting is gone")
        #expect(try await attendee.inbox(on: name, mentioning: uid).isEmpty, "\(name) \(status): bob was invited")

        let push = try await calgw(["push"])
        #expect(push.status == 0, "\(name) \(status): \(push.stdoutText)\(push.stderrText)")
        let invited = try await attendee.inbox(on: name, mentioning: uid)
        #expect(
            invited.count == 1 && invited.first?.contains("METHOD:REQUEST") == true,
            "\(name) \(status): \(invited.count) invitations")
        let again = try await calgw(["push"])
        let total = try await attendee.inbox(on: name, mentioning: uid).count
        #expect(again.status == 0 && total == 1, "\(name) \(status): \(total) invitations after a second push")
    }

    /// A meeting made `--offline` invites once the next push sends it (the journal kept it as
    /// the person's action), and only then.
    @Test(
        .enabled(
            if: !MeetingCopyTests.scheduling.isEmpty,
            "needs a server that schedules (cyrus, davical, sabre), which CALGW_TEST_SERVERS leaves out"),
        arguments: MeetingCopyTests.scheduling)
    func aMeetingMadeOfflineInvitesWhenPushed(server name: String) async throws {
        let meeting = try await MeetingFixture(on: name, prefix: "offline")
        defer { meeting.remove() }
        let (attendee, organizer, pair, calgw) = (meeting.attendee, meeting.organizer, meeting.pair, meeting.calgw)
        let add = try await calgw([
            "event", "add", "--summary", "Planned offline", "--start", "2027-06-08T10:00", "--attendee",
            attendee.address,
            "--address", organizer, "--offline",
        ])
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(add.status == 0 && !uid.isEmpty, "\(name): \(add.stderrText)")
        #expect(try await attendee.inbox(on: name, mentioning: uid).isEmpty, "\(name): invited while offline")
        let push = try await calgw(["push"])
        #expect(push.status == 0, "\(name): \(push.stdoutText)\(push.stderrText)")
        let invited = try await attendee.inbox(on: name, mentioning: uid)
        #expect(
            invited.count == 1 && invited.first?.contains("METHOD:REQUEST") == true,
            "\(name): \(invited.count) invitations")
        // Later writes of it are copies again: a hand edit synced sends no update.
        let file = try pair.file(uid: uid)
        let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(
            of: "Planned offline", with: "Planned, edited by hand")
        try Data(text.utf8).write(to: file)
        let sync = try await calgw(["sync"])
        #expect(sync.status == 0, "\(name): \(sync.stderrText)")
        let after = try await attendee.inbox(on: name, mentioning: uid)
        #expect(
            after.count == 1 && !after.contains { $0.contains("edited by hand") },
            "\(name): a hand edit sent \(after.count - 1) messages")
    }
}
