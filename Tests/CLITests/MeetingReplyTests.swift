import Foundation
import Testing
import CalgwTestSupport

/// Answering an invitation from the command line, on the servers that schedule: the
/// organizer's client invites bob; bob's calgw pulls the invitation into his vdir and runs
/// `calgw event reply UID --accept`; the server delivers exactly one reply, and the
/// organizer's copy shows bob's answer. `calgw invitations` lists it until it is answered.
@Suite(.timeLimit(.minutes(10))) struct MeetingReplyTests {
    static let scheduling = MeetingCopyTests.scheduling

    /// bob's default calendar, where the server files the invitations it delivers to him.
    static func defaultCalendar(of attendee: TestServer.Attendee, on server: String) -> URL {
        attendee.home.appendingPathComponent(server == "cyrus" ? "Default/" : "calendar/", isDirectory: true)
    }

    @Test(.enabled(if: !scheduling.isEmpty, "needs cyrus or davical, which CALGW_TEST_SERVERS leaves out"), arguments: scheduling)
    func anInvitationIsAnsweredWithOneReply(server name: String) throws {
        let server = try TestServers.shared(name)
        let attendee = try #require(server.attendee, "the \(name) script printed no second user")
        let organizer = try #require(server.address)
        let id = UUID().uuidString.prefix(8).lowercased()
        let uid = "invite-\(id)"

        // The organizer's own client stores the meeting: the server invites bob.
        let calendar = server.newCollectionURL(prefix: "org")
        try server.makeCalendar(calendar)
        let meeting = MeetingCopyTests.meeting(uid, summary: "Review", organizer: organizer, attendee: attendee.address)
        let file = try TemporaryFolder()
        defer { file.remove() }
        try Data(meeting.utf8).write(to: file.file("m.ics"))
        let put = try ProcessRunner.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "\(server.username):\(server.password)",
                                                 "-T", file.file("m.ics").path, "-H", "Expect:", "-H", "Content-Type: text/calendar",
                                                 calendar.appendingPathComponent("\(uid).ics").absoluteString])
        #expect(["201", "204"].contains(put.stdoutText), "\(name): \(put.stdoutText)")
        #expect(try MeetingCopyTests.inbox(attendee, on: name, mentioning: uid).count == 1, "\(name): bob was not invited")

        // bob's calgw: his default calendar into a vdir.
        var bob = server
        bob.username = attendee.username
        bob.password = attendee.password
        bob.home = attendee.home
        let pair = try SyncServerScenarioTests().makePair(file, "bob", server: bob, collection: Self.defaultCalendar(of: attendee, on: name))
        let pulled = try pair.run("sync", password: bob.password)
        #expect(pulled.status == 0, "\(name): \(pulled.stdoutText)\(pulled.stderrText)")
        let invitation = try String(contentsOf: try pair.file(uid: uid), encoding: .utf8)
        #expect(invitation.contains("PARTSTAT=NEEDS-ACTION"), "\(name): \(invitation)")

        // It awaits bob's answer, with the command that gives it.
        let waiting = try CalgwBinary.run(["invitations", "--json", "--config", pair.config.path], environment: ["CALGW_TEST_PASSWORD": bob.password])
        let rows = (try? JSONSerialization.jsonObject(with: waiting.stdout) as? [[String: Any]]) ?? []
        #expect(waiting.status == 0 && rows.count == 1, "\(name): \(waiting.stdoutText)\(waiting.stderrText)")
        #expect((rows.first?["answer"] as? String) == "calgw event reply \(uid) --accept", "\(name): \(waiting.stdoutText)")
        #expect(((rows.first?["invitation"] as? [String: Any])?["summary"] as? String) == "Review", "\(name): \(waiting.stdoutText)")

        let organizerInbox = TestServer.Attendee(username: server.username, password: server.password, home: server.home, address: organizer)
        let before = try MeetingCopyTests.inbox(organizerInbox, on: name, mentioning: uid).count
        let reply = try CalgwBinary.run(["event", "reply", uid, "--accept", "--comment", "Glad to", "--config", pair.config.path],
                                        environment: ["CALGW_TEST_PASSWORD": bob.password])
        #expect(reply.status == 0, "\(name): \(reply.stdoutText)\(reply.stderrText)")
        let answered = try String(contentsOf: try pair.file(uid: uid), encoding: .utf8).replacingOccurrences(of: "\r\n ", with: "")
        #expect(answered.contains("PARTSTAT=ACCEPTED") && answered.contains("COMMENT:Glad to"), "\(name): \(answered)")

        let after = try CalgwBinary.run(["invitations", "--config", pair.config.path], environment: ["CALGW_TEST_PASSWORD": bob.password])
        #expect(after.status == 0 && after.stdoutText.contains("no invitations await your answer"), "\(name): \(after.stdoutText)")

        // Exactly one reply reached the organizer, and the organizer's copy has bob's answer.
        let replies = try MeetingCopyTests.inbox(organizerInbox, on: name, mentioning: uid)
        #expect(replies.count == before + 1, "\(name): \(replies.count - before) replies")
        #expect(replies.last?.contains("METHOD:REPLY") == true, "\(name): \(replies.last ?? "none")")
        let copy = try ProcessRunner.run("curl", ["-s", "-u", "\(server.username):\(server.password)",
                                                  calendar.appendingPathComponent("\(uid).ics").absoluteString]).stdoutText
            .replacingOccurrences(of: "\r\n ", with: "")
        let bobLine = copy.components(separatedBy: "\r\n").first { $0.hasPrefix("ATTENDEE") && $0.lowercased().contains(attendee.address.lowercased()) }
        #expect(bobLine?.contains("PARTSTAT=ACCEPTED") == true, "\(name): \(copy)")

        // Answering a meeting one organizes, or one where one is not invited, is refused.
        let organizes = try CalgwBinary.run(["event", "reply", uid, "--decline", "--address", attendee.address.replacingOccurrences(of: "bob", with: "nobody"),
                                             "--offline", "--config", pair.config.path])
        #expect(organizes.status == 1 && organizes.stderrText.contains("you are not invited"), "\(name): \(organizes.stderrText)")
    }
}
