import CalgwTestSupport
import Foundation
import Testing

/// A meeting between someone whose server schedules (alice on Cyrus, set up as its admin sets
/// it up to mail people outside its users: `smtp_backend: host`) and someone whose server does
/// not (bob on Radicale), who takes part by mail alone. Cyrus mails alice's invitation, update
/// and cancellation itself; bob's answer goes by his `mail_command`; each message piped to
/// `calgw itip` brings the other's vdir to the same meeting, and nothing is mailed twice.
@Suite(.timeLimit(.minutes(10))) struct ITipCyrusMailLoopTests {
    static let servers = TestServers.selected.contains("cyrus") && TestServers.selected.contains("radicale")

    @Test(.enabled(if: servers, "needs cyrus and radicale, which CALGW_TEST_SERVERS leaves out"))
    func aMeetingFromAServerThatSchedulesGoesRoundByMail() async throws {
        let sink = try TestSMTPSink()
        defer { sink.stop() }
        let cyrus = try TestServers.start("cyrus", settings: ["CALGW_CYRUS_SMTP_HOST": "127.0.0.1:\(sink.port)"])
        defer { cyrus.stop() }
        let radicale = try TestServers.shared("radicale")
        let folder = try TemporaryFolder()
        defer { folder.remove() }

        let aliceAddress = try #require(cyrus.address).replacingOccurrences(of: "mailto:", with: "")
        let aliceCalendar = cyrus.newCollectionURL(prefix: "imip-alice")
        try await cyrus.makeCalendar(aliceCalendar)
        let alice = try ServerPair(folder, "alice", server: cyrus, collection: aliceCalendar)
        let bobCalendar = radicale.newCollectionURL(prefix: "imip-bob")
        try await radicale.makeCalendar(bobCalendar)
        let command = sink.configLine
        let bob = try ServerPair(
            folder, "bob", server: radicale, collection: bobCalendar,
            extra: ["addresses = [\"mailto:bob@example.net\"]", command])
        func itip(_ pair: ServerPair, _ password: String, _ message: TestSMTPSink.Message) async throws
            -> ProcessRunner.Result
        {
            try await CalgwBinary.run(
                ["itip", "--config", pair.config.path], stdin: message.data,
                environment: ["CALGW_TEST_PASSWORD": password])
        }
        // alice invites: Cyrus mails bob once, and calgw says the server sent it.
        let made = try await alice.run(
            "event", ["add", "--summary", "Planning", "--start", "2027-03-10T09:00", "--attendee", "bob@example.net"],
            password: cyrus.password)
        #expect(made.status == 0, "\(made.stderrText)")
        #expect(made.stderrText.contains("invitation sent to bob@example.net"), "\(made.stderrText)")
        let uid = made.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        func bobLine() throws -> String? {
            try ServerPair.lines(try alice.file(uid: uid)).first {
                $0.hasPrefix("ATTENDEE") && $0.hasSuffix("bob@example.net")
            }
        }
        var mails = try sink.messages()
        #expect(mails.map(\.to) == [["bob@example.net"]], "\(mails.map(\.to))")
        let invitation = try await ITipMailLoopTests.pythonReads(try #require(mails.first).data)
        #expect(invitation["method"] == "REQUEST" && invitation["uid"] == uid, "\(invitation)")

        // bob takes it in and accepts: his mail command sends one reply, to alice.
        var result = try await itip(bob, radicale.password, mails[0])
        #expect(result.status == 0 && result.stdoutText.hasPrefix("added"), "\(result.stdoutText) \(result.stderrText)")
        result = try await bob.run("event", ["reply", uid, "--accept"], password: radicale.password)
        #expect(
            result.status == 0 && result.stdoutText.contains("reply mailed to \(aliceAddress)"),
            "\(result.stdoutText) \(result.stderrText)")
        mails = try sink.messages()
        #expect(mails.count == 2 && mails.last?.to == [aliceAddress], "\(mails.map(\.to))")

        // alice records it: her copy and her server say bob accepted, and Cyrus mails nobody.
        result = try await itip(alice, cyrus.password, mails[1])
        #expect(
            result.status == 0 && result.stdoutText.hasPrefix("answer recorded"),
            "\(result.stdoutText) \(result.stderrText)")
        var line = try bobLine() ?? ""
        #expect(line.contains("PARTSTAT=ACCEPTED"), "\(line)")
        let texts = try sink.messages().dropFirst(2).map(\.text)
        #expect(texts.isEmpty, "\(texts)")
        #expect(try await alice.run("pull", password: cyrus.password).status == 0)
        line = try bobLine() ?? ""
        #expect(line.contains("PARTSTAT=ACCEPTED"), "after a pull: \(line)")

        // alice moves it: Cyrus mails bob one update, which asks him again.
        result = try await alice.run("event", ["edit", uid, "--start", "2027-03-10T10:00"], password: cyrus.password)
        #expect(result.status == 0, "\(result.stderrText)")
        mails = try sink.messages()
        #expect(mails.count == 3 && mails.last?.to == ["bob@example.net"], "\(mails.map(\.to))")
        result = try await itip(bob, radicale.password, mails[2])
        #expect(
            result.status == 0 && result.stdoutText.hasPrefix("updated"), "\(result.stdoutText) \(result.stderrText)")
        #expect(
            try ServerPair.lines(try bob.file(uid: uid)).contains {
                $0.hasPrefix("ATTENDEE") && $0.contains("NEEDS-ACTION") && $0.hasSuffix("bob@example.net")
            })

        // Both sync: nothing is mailed, and both vdirs hold the meeting at its new time.
        #expect(try await alice.run("sync", password: cyrus.password).status == 0)
        #expect(try await bob.run("sync", password: radicale.password).status == 0)
        #expect(try sink.messages().count == 3)
        let start = { (pair: ServerPair) in
            try ServerPair.lines(try pair.file(uid: uid)).first { $0.hasPrefix("DTSTART") }
        }
        let (aliceStart, bobStart) = (try start(alice), try start(bob))
        #expect(aliceStart != nil && aliceStart == bobStart, "\(aliceStart ?? "") \(bobStart ?? "")")

        // alice cancels: Cyrus mails one cancellation, which bob's vdir takes.
        result = try await alice.run("event", ["delete", uid], password: cyrus.password)
        #expect(result.status == 0, "\(result.stderrText)")
        mails = try sink.messages()
        #expect(mails.count == 4 && mails.last?.to == ["bob@example.net"], "\(mails.map(\.to))")
        #expect(try await ITipMailLoopTests.pythonReads(try #require(mails.last).data)["method"] == "CANCEL")
        result = try await itip(bob, radicale.password, mails[3])
        #expect(
            result.status == 0 && result.stdoutText.hasPrefix("cancelled"), "\(result.stdoutText) \(result.stderrText)")
        #expect(try ServerPair.lines(try bob.file(uid: uid)).contains("STATUS:CANCELLED"))
    }

    /// An invitation from outside (alice mails it from a server that does not schedule) taken
    /// into a Cyrus calendar and accepted there: where Cyrus has no way out (its SMTP relay
    /// refuses: SCHEDULE-STATUS 5.1 on the organizer) calgw mails the answer; where it has
    /// one, Cyrus mails it and calgw does not. Either way alice gets exactly one reply.
    @Test(
        .enabled(if: servers, "needs cyrus and radicale, which CALGW_TEST_SERVERS leaves out"),
        arguments: [false, true])
    func anAnswerToAnInvitationByMailReachesTheOrganizerOnce(cyrusMails: Bool) async throws {
        let sink = try TestSMTPSink()
        defer { sink.stop() }
        // Port 1 on loopback: nothing listens, as for a server whose admin set no relay up.
        let relay = cyrusMails ? "127.0.0.1:\(sink.port)" : "127.0.0.1:1"
        let cyrus = try TestServers.start("cyrus", settings: ["CALGW_CYRUS_SMTP_HOST": relay])
        defer { cyrus.stop() }
        let radicale = try TestServers.shared("radicale")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let command = sink.configLine
        let aliceCalendar = radicale.newCollectionURL(prefix: "imip-alice")
        try await radicale.makeCalendar(aliceCalendar)
        let alice = try ServerPair(
            folder, "alice", server: radicale, collection: aliceCalendar,
            extra: ["addresses = [\"mailto:alice@example.org\"]", command])
        let bobAddress = try #require(cyrus.address).replacingOccurrences(of: "mailto:", with: "")
        let bobCalendar = cyrus.newCollectionURL(prefix: "imip-bob")
        try await cyrus.makeCalendar(bobCalendar)
        let bob = try ServerPair(folder, "bob", server: cyrus, collection: bobCalendar, extra: [command])

        let made = try await alice.run(
            "event", ["add", "--summary", "Outside", "--start", "2027-04-01T15:00", "--attendee", bobAddress],
            password: radicale.password)
        #expect(made.status == 0, "\(made.stderrText)")
        let uid = made.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        var mails = try sink.messages()
        #expect(mails.map(\.to) == [[bobAddress]], "\(mails.map(\.to))")

        var result = try await CalgwBinary.run(
            ["itip", "--config", bob.config.path], stdin: try #require(mails.first).data,
            environment: ["CALGW_TEST_PASSWORD": cyrus.password])
        #expect(result.status == 0 && result.stdoutText.hasPrefix("added"), "\(result.stdoutText) \(result.stderrText)")
        #expect(try sink.messages().count == 1, "taking the invitation in mailed something")

        result = try await bob.run("event", ["reply", uid, "--accept", "--json"], password: cyrus.password)
        #expect(result.status == 0, "\(result.stdoutText) \(result.stderrText)")
        mails = try sink.messages()
        #expect(mails.count == 2 && mails.last?.to == ["alice@example.org"], "\(mails.map(\.to))")
        let reply = try await ITipMailLoopTests.pythonReads(try #require(mails.last).data)
        #expect(reply["method"] == "REPLY" && reply["uid"] == uid, "\(reply)")
        let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        let scheduling = json?["scheduling"] as? [String: Any]
        let organizer = (scheduling?["recipients"] as? [[String: Any]])?.first
        // What calgw says is what happened: Cyrus sent it, or calgw mailed it after Cyrus could not.
        #expect(organizer?["delivered"] as? Bool == true, "\(result.stdoutText)")
        #expect((organizer?["mailed"] as? Bool ?? false) == !cyrusMails, "\(result.stdoutText)")

        // alice takes the answer in: bob accepted, in her vdir.
        result = try await CalgwBinary.run(
            ["itip", "--config", alice.config.path], stdin: try #require(mails.last).data,
            environment: ["CALGW_TEST_PASSWORD": radicale.password])
        #expect(
            result.status == 0 && result.stdoutText.hasPrefix("answer recorded"),
            "\(result.stdoutText) \(result.stderrText)")
        #expect(try sink.messages().count == 2)
    }
}
