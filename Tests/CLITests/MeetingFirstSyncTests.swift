import Foundation
import Testing
import CalgwTestSupport

/// A meeting made `--offline` before a pair's first sync is the person's action whichever run
/// first sends it: the first sync (a streamed first pull, on a calendar or on an account's
/// new calendar) invites its attendee once, with the meeting as last edited, and later runs
/// send nothing more.
@Suite(.timeLimit(.minutes(10))) struct MeetingFirstSyncTests {
    /// Adds a meeting with bob `--offline`; its UID.
    static func addOffline(
        _ calgw: (([String]) async throws -> ProcessRunner.Result), summary: String, attendee: String,
        organizer: String,
        extra: [String] = []
    ) async throws -> String {
        let add = try await calgw(
            [
                "event", "add", "--summary", summary, "--start", "2027-05-03T10:00", "--duration", "1h",
                "--attendee", attendee, "--address", organizer, "--offline",
            ] + extra)
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard add.status == 0, !uid.isEmpty else {
            throw FixtureFailure("event add --offline: \(add.status) \(add.stderrText)")
        }
        return uid
    }

    @Test(
        .enabled(
            if: !MeetingCopyTests.scheduling.isEmpty,
            "needs a server that schedules (cyrus, davical, sabre), which CALGW_TEST_SERVERS leaves out"),
        arguments: MeetingCopyTests.scheduling)
    func aMeetingAddedOfflineBeforeTheFirstSyncInvitesOnce(server name: String) async throws {
        let meeting = try await MeetingFixture(on: name, prefix: "firstsync")
        defer { meeting.remove() }
        let uid = try await Self.addOffline(
            meeting.calgw, summary: "Kickoff", attendee: meeting.attendee.address, organizer: meeting.organizer)
        #expect(try await meeting.inbox(mentioning: uid).isEmpty, "\(name): invited while offline")

        let first = try await meeting.calgw(["sync"])
        #expect(first.status == 0, "\(name): \(first.stdoutText)\(first.stderrText)")
        let invited = try await meeting.inbox(mentioning: uid)
        #expect(
            invited.count == 1 && invited.first?.contains("METHOD:REQUEST") == true,
            "\(name): \(invited.count) invitations after the first sync")
        let again = try await meeting.calgw(["sync"])
        #expect(again.status == 0, "\(name): \(again.stderrText)")
        #expect(try await meeting.inbox(mentioning: uid).count == 1, "\(name): the second sync sent the meeting again")
    }

    @Test(
        .enabled(
            if: !MeetingCopyTests.scheduling.isEmpty,
            "needs a server that schedules (cyrus, davical, sabre), which CALGW_TEST_SERVERS leaves out"),
        arguments: MeetingCopyTests.scheduling)
    func aMeetingAddedAndEditedOfflineInvitesOnceWithTheEdit(server name: String) async throws {
        let meeting = try await MeetingFixture(on: name, prefix: "firstedit")
        defer { meeting.remove() }
        let uid = try await Self.addOffline(
            meeting.calgw, summary: "Kickoff", attendee: meeting.attendee.address, organizer: meeting.organizer)
        let edit = try await meeting.calgw(["event", "edit", uid, "--location", "Room 4", "--offline"])
        #expect(edit.status == 0, "\(name): \(edit.stderrText)")

        let first = try await meeting.calgw(["sync"])
        #expect(first.status == 0, "\(name): \(first.stdoutText)\(first.stderrText)")
        let invited = try await meeting.inbox(mentioning: uid)
        #expect(invited.count == 1, "\(name): \(invited.count) messages after the first sync")
        #expect(
            invited.first?.contains("LOCATION:Room 4") == true,
            "\(name): the invitation lacks the edit: \(invited.first ?? "none")")
        #expect(try await meeting.calgw(["sync"]).status == 0)
        #expect(try await meeting.inbox(mentioning: uid).count == 1, "\(name): the second sync sent the meeting again")
    }

    /// On an account pair, in a calendar the person made as a folder: the account's run makes
    /// the calendar, and its first sync sends the meeting as the person's action.
    @Test(
        .enabled(
            if: !MeetingCopyTests.scheduling.isEmpty,
            "needs a server that schedules (cyrus, davical, sabre), which CALGW_TEST_SERVERS leaves out"),
        arguments: MeetingCopyTests.scheduling)
    func aMeetingAddedOfflineInANewCalendarOfAnAccountInvitesOnce(server name: String) async throws {
        let own = try AttendeeServer(name)
        defer { own.release() }
        let server = own.server
        let attendee = try #require(server.attendee, "the \(name) script printed no second user")
        let organizer = try #require(server.address, "no address of the account on \(name)")
        let segment = "acct" + UUID().uuidString.prefix(8).lowercased()
        let account = try AccountFixture(server: server, collections: "[\"\(segment)\"]")
        defer { account.remove() }
        try FileManager.default.createDirectory(
            at: account.local.appendingPathComponent(segment), withIntermediateDirectories: true)
        let uid = try await Self.addOffline(
            account.calgw, summary: "Kickoff", attendee: attendee.address, organizer: organizer,
            extra: ["--collection", segment])
        #expect(try await attendee.inbox(on: name, mentioning: uid).isEmpty, "\(name): invited while offline")

        let first = try await account.calgw(["sync"])
        #expect(first.status == 0, "\(name): \(first.stdoutText)\(first.stderrText)")
        #expect(account.mapping()[segment] != nil, "\(name): no calendar made: \(account.mapping())")
        let invited = try await attendee.inbox(on: name, mentioning: uid)
        #expect(
            invited.count == 1 && invited.first?.contains("METHOD:REQUEST") == true,
            "\(name): \(invited.count) invitations after the account's sync")
        #expect(try await account.calgw(["sync"]).status == 0)
        #expect(
            try await attendee.inbox(on: name, mentioning: uid).count == 1,
            "\(name): the second sync sent the meeting again")
    }
}
