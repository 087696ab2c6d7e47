import Foundation
import Testing
import CalgwTestSupport

/// A meeting in a calendar bob shares with the account read-only, on Cyrus: the account is
/// invited to it, but an answer cannot be stored there, so `invitations` does not offer it
/// (it says why) and `event reply` refuses (exit 1) instead of promising a push.
@Suite(.timeLimit(.minutes(10))) struct MeetingReadOnlyCalendarTests {
    static let cyrus = TestServers.selected.filter { $0 == "cyrus" }

    @Test(.enabled(if: !cyrus.isEmpty, "needs cyrus, which CALGW_TEST_SERVERS leaves out"), arguments: cyrus)
    func aMeetingInACalendarSharedReadOnlyTakesNoAnswer(server name: String) async throws {
        let server = try TestServers.shared(name)
        let bob = try #require(server.attendee, "the \(name) script printed no second user")
        let organizer = try #require(server.address)
        let id = UUID().uuidString.prefix(8).lowercased()
        let uid = "romeet-\(id)"
        let calendar = try await SharedReadOnlyCalendarTests.bobsCalendar(bob, "romeet-\(id)", events: [])
        try await SharedReadOnlyCalendarTests.put(
            bob, MeetingCopyTests.meeting(uid, summary: "Shared planning", organizer: bob.address, attendee: organizer),
            uid: uid, in: calendar)
        try await SharedReadOnlyCalendarTests.share(server, bob, calendar: "romeet-\(id)", writable: false)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = try await ServerPair(
            folder, "ro", server: server, collection: try SharedReadOnlyCalendarTests.sharedURL(server, calendar))
        let pulled = try await pair.run("sync", password: server.password)
        #expect(pulled.status == 0 && (try? pair.file(uid: uid)) != nil, "\(pulled.stdoutText)\(pulled.stderrText)")

        let listed = try await pair.run("invitations", password: server.password)
        #expect(
            listed.status == 0 && !listed.stdoutText.contains(uid) && listed.stderrText.contains("read-only"),
            "\(listed.stdoutText)\(listed.stderrText)")
        let before = try String(contentsOf: try pair.file(uid: uid), encoding: .utf8)
        let reply = try await pair.run("event", ["reply", uid, "--accept"], password: server.password)
        #expect(
            reply.status == 1 && reply.stderrText.contains("read-only"),
            "\(reply.status) \(reply.stdoutText)\(reply.stderrText)")
        #expect(try String(contentsOf: try pair.file(uid: uid), encoding: .utf8) == before)
    }
}
