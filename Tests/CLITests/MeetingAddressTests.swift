import Foundation
import Testing
import CalgwTestSupport

/// The addresses of a meeting's people as they are typed and as they are found, on Cyrus:
/// `--attendee` takes the form mail programs write and invites each person once, an invitation
/// to an address the account's do not include is mentioned with the way to claim it, and an
/// answer to an event that is no meeting is refused as such.
@Suite(.timeLimit(.minutes(10))) struct MeetingAddressTests {
    static let cyrus = TestServers.selected.filter { $0 == "cyrus" }

    @Test(.enabled(if: !cyrus.isEmpty, "needs cyrus, which CALGW_TEST_SERVERS leaves out"), arguments: cyrus)
    func eachPersonIsInvitedOnceByTheAddressGiven(server name: String) async throws {
        let meeting = try await MeetingFixture(on: name, prefix: "addr")
        defer { meeting.remove() }
        let bob = meeting.attendee.address.replacingOccurrences(of: "mailto:", with: "")
        let own = meeting.organizer.replacingOccurrences(of: "mailto:", with: "")
        let add = try await meeting.calgw([
            "event", "add", "--summary", "Trio", "--start", "2027-05-03T10:00",
            "--attendee", "Bob Lee <\(bob)>", "--attendee", bob.uppercased(), "--attendee", own,
        ])
        #expect(add.status == 0, "\(add.stderrText)")
        let uid = add.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let lines = try ServerPair.lines(try meeting.pair.file(uid: uid)).filter { $0.hasPrefix("ATTENDEE") }
        let bobs = lines.filter { $0.lowercased().hasSuffix(bob.lowercased()) }
        #expect(bobs.count == 1 && bobs.first?.contains("CN=Bob Lee") == true, "\(lines)")
        #expect(lines.filter { $0.lowercased().hasSuffix(own.lowercased()) }.count == 1, "\(lines)")
        let invited = try await meeting.inbox(mentioning: uid)
        let delivered = invited.first?.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n") ?? []
        #expect(
            invited.count == 1
                && delivered.filter { $0.hasPrefix("ATTENDEE") && $0.lowercased().hasSuffix(bob.lowercased()) }.count
                    == 1,
            "\(invited)")
    }

    @Test(.enabled(if: !cyrus.isEmpty, "needs cyrus, which CALGW_TEST_SERVERS leaves out"), arguments: cyrus)
    func aMeetingForAnotherAddressIsMentionedAndAPlainEventTakesNoAnswer(server name: String) async throws {
        let meeting = try await MeetingFixture(on: name, prefix: "alias")
        defer { meeting.remove() }
        let bob = try meeting.attendeePair()
        let uid = "alias-\(UUID().uuidString.prefix(8).lowercased())"
        try Data(
            MeetingCopyTests.meeting(
                uid, summary: "For robert", organizer: meeting.organizer, attendee: "mailto:robert@internal"
            ).utf8
        )
        .write(to: bob.vdir.appendingPathComponent("\(uid).ics"))
        let listed = try await meeting.bob(["invitations"])
        #expect(listed.status == 0 && !listed.stdoutText.contains(uid), "\(listed.stdoutText)")
        #expect(
            listed.stderrText.contains("none of your addresses") && listed.stderrText.contains(uid)
                && listed.stderrText.contains("--address"), "\(listed.stderrText)")

        // --address adds to the account's addresses: bob's own invitation is still listed,
        // nothing is said of it, and the printed answer carries the address and works as printed.
        let own = "own-\(UUID().uuidString.prefix(8).lowercased())"
        try Data(
            MeetingCopyTests.meeting(
                own, summary: "For bob", organizer: meeting.organizer, attendee: meeting.attendee.address, day: 2
            ).utf8
        )
        .write(to: bob.vdir.appendingPathComponent("\(own).ics"))
        let both = try await meeting.bob(["invitations", "--address", "mailto:robert@internal"])
        #expect(both.status == 0 && both.stdoutText.contains("For robert"), "\(both.stdoutText) \(both.stderrText)")
        #expect(both.stdoutText.contains("For bob"), "bob's own addresses were dropped: \(both.stdoutText)")
        #expect(!both.stderrText.contains("none of your addresses"), "\(both.stderrText)")
        let printed = try #require(
            both.stdoutText.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .first { $0.hasPrefix("calgw event reply \(uid) ") }, "\(both.stdoutText)")
        #expect(printed.contains("--address mailto:robert@internal"), "\(printed)")
        let answered = try await meeting.bob(printed.split(separator: " ").dropFirst().map(String.init) + ["--offline"])
        #expect(answered.status == 0, "\(printed): \(answered.stderrText)")
        #expect(
            try ServerPair.lines(bob.vdir.appendingPathComponent("\(uid).ics")).contains {
                $0.hasPrefix("ATTENDEE") && $0.contains("PARTSTAT=ACCEPTED") && $0.hasSuffix("robert@internal")
            }, "the printed answer did not answer")

        let plain = try await meeting.bob([
            "event", "add", "--summary", "Dentist", "--start", "2027-05-04T09:00", "--offline",
        ])
        let plainUID = plain.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let reply = try await meeting.bob(["event", "reply", plainUID, "--accept", "--offline"])
        #expect(reply.status == 1 && reply.stderrText.contains("\(plainUID) is not a meeting"), "\(reply.stderrText)")
    }

    static let radicale = TestServers.selected.filter { $0 == "radicale" }

    /// Radicale gives the principal's path (`/calgw/`) as the account's calendar address: no
    /// address, so `event add --attendee` asks for `--address` instead of writing the path as
    /// ORGANIZER, and takes the one given.
    @Test(.enabled(if: !radicale.isEmpty, "needs radicale, which CALGW_TEST_SERVERS leaves out"), arguments: radicale)
    func aPathIsNeverWrittenAsTheOrganizer(server name: String) async throws {
        let server = try TestServers.shared(name)
        let collection = server.newCollectionURL(prefix: "path")
        try await server.makeCalendar(collection)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = try ServerPair(folder, "own", server: server, collection: collection)
        let refused = try await pair.run(
            "event", ["add", "--summary", "Lunch", "--start", "2027-05-20T12:00", "--attendee", "bob@example.org"],
            password: server.password)
        #expect(
            refused.status == 1 && refused.stderrText.contains("--address mailto:"),
            "\(refused.status) \(refused.stderrText)")
        #expect(try pair.summaries().isEmpty, "an event was written")
        let given = try await pair.run(
            "event",
            [
                "add", "--summary", "Lunch", "--start", "2027-05-20T12:00", "--attendee", "bob@example.org",
                "--address", "calgw@example.org",
            ], password: server.password)
        let uid = given.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(given.status == 0, "\(given.stderrText)")
        let lines = try ServerPair.lines(try pair.file(uid: uid))
        #expect(
            lines.contains("ORGANIZER:mailto:calgw@example.org") && !lines.contains { $0.contains(":/") }, "\(lines)")
        // Radicale schedules nothing, and calgw knows it from the account it asked: it does not
        // say the invitation was asked of the server (it said "asked", `"asked": true`).
        #expect(!given.stderrText.contains("asked of the server"), "\(given.stderrText)")
        let json = try await pair.run(
            "event",
            [
                "add", "--summary", "Lunch 2", "--start", "2027-05-21T12:00", "--attendee", "bob@example.org",
                "--address", "calgw@example.org", "--json",
            ], password: server.password)
        let record = try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any]
        let scheduling = record?["scheduling"] as? [String: Any]
        #expect(scheduling?["asked"] as? Bool == false, "\(json.stdoutText)")
        #expect((scheduling?["reason"] as? String)?.contains("does not schedule") == true, "\(json.stdoutText)")
    }
}
