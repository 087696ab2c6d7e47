import CalgwTestSupport
import Foundation
import Testing

/// A meeting between two people whose server schedules nothing (Radicale), entirely by mail:
/// each action mails exactly one message per person it is for, through msmtp to an SMTP sink,
/// and each message piped to `calgw itip` brings the other's vdir to the same meeting.
@Suite(.timeLimit(.minutes(10))) struct ITipMailLoopTests {
    static let radicale = TestServers.selected.filter { $0 == "radicale" }

    /// What Python's `email` and `icalendar` read in a mail calgw sent: its recipients, the
    /// calendar part's method and the object's METHOD and UID.
    static func pythonReads(_ mail: Data) async throws -> [String: String] {
        let script = """
            import email, email.policy, icalendar, json, sys
            m = email.message_from_bytes(sys.stdin.buffer.read(), policy=email.policy.default)
            part = next(p for p in m.walk() if p.get_content_type() == 'text/calendar')
            cal = icalendar.Calendar.from_ical(part.get_payload(decode=True))
            event = next(c for c in cal.walk() if c.name == 'VEVENT')
            print(json.dumps({'to': str(m['To']), 'from': str(m['From']), 'param': part.get_param('method') or '',
                              'method': str(cal['METHOD']), 'uid': str(event['UID'])}))
            """
        let result = try await ProcessRunner.run(
            "/usr/bin/env", ["python3", "-c", script], stdin: mail, environment: TestPaths.childEnvironment,
            deadline: 300)
        guard result.status == 0,
            let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: String]
        else { throw FixtureFailure("python could not read the mail: \(result.stderrText)") }
        return json
    }

    /// A pair of its own calendar on `server` for the person at `address`, who mails through `sink`.
    static func person(
        _ name: String, _ address: String, on server: TestServer, in folder: TemporaryFolder,
        mailingTo sink: TestSMTPSink
    ) async throws -> ServerPair {
        let collection = server.newCollectionURL(prefix: "mail-\(name)")
        try await server.makeCalendar(collection)
        return try ServerPair(
            folder, name, server: server, collection: collection,
            extra: ["addresses = [\"mailto:\(address)\"]", sink.configLine])
    }

    @Test(.enabled(if: !radicale.isEmpty, "needs radicale, which CALGW_TEST_SERVERS leaves out"), arguments: radicale)
    func aMeetingGoesRoundByMailAndBothVdirsAgree(server name: String) async throws {
        let server = try TestServers.shared(name)
        let sink = try TestSMTPSink()
        defer { sink.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        func person(_ name: String, _ address: String) async throws -> ServerPair {
            try await Self.person(name, address, on: server, in: folder, mailingTo: sink)
        }
        let alice = try await person("alice", "alice@example.org")
        let bob = try await person("bob", "bob@example.net")
        func itip(_ pair: ServerPair, _ message: TestSMTPSink.Message) async throws -> ProcessRunner.Result {
            try await CalgwBinary.run(
                ["itip", "--config", pair.config.path], stdin: message.data,
                environment: ["CALGW_TEST_PASSWORD": server.password])
        }

        // alice invites: one mail, to bob.
        let made = try await alice.run(
            "event", ["add", "--summary", "Planning", "--start", "2027-03-10T09:00", "--attendee", "bob@example.net"],
            password: server.password)
        #expect(
            made.status == 0 && made.stderrText.contains("invitation mailed to bob@example.net"), "\(made.stderrText)")
        let uid = made.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        var mails = try sink.messages()
        #expect(mails.count == 1 && mails.first?.to == ["bob@example.net"], "\(mails.map(\.to))")
        let invitation = try await Self.pythonReads(try #require(mails.first).data)
        #expect(invitation["method"] == "REQUEST" && invitation["param"] == "REQUEST" && invitation["uid"] == uid)
        #expect(invitation["from"]?.contains("alice@example.org") == true, "\(invitation)")

        // bob takes it in and accepts: one mail, to alice.
        var result = try await itip(bob, mails[0])
        #expect(result.status == 0 && result.stdoutText.hasPrefix("added"), "\(result.stdoutText) \(result.stderrText)")
        result = try await bob.run(
            "event", ["reply", uid, "--accept", "--comment", "Gladly"], password: server.password)
        #expect(
            result.status == 0 && result.stdoutText.contains("reply mailed to alice@example.org"),
            "\(result.stdoutText) \(result.stderrText)")
        mails = try sink.messages()
        #expect(mails.count == 2 && mails.last?.to == ["alice@example.org"])
        let reply = try await Self.pythonReads(try #require(mails.last).data)
        #expect(reply["method"] == "REPLY" && reply["uid"] == uid && reply["from"]?.contains("bob@example.net") == true)

        // alice records it: bob accepted in her copy, and her server has it.
        result = try await itip(alice, mails[1])
        #expect(
            result.status == 0 && result.stdoutText.hasPrefix("answer recorded"),
            "\(result.stdoutText) \(result.stderrText)")
        #expect(
            try ServerPair.lines(try alice.file(uid: uid)).contains {
                $0.hasPrefix("ATTENDEE") && $0.contains("PARTSTAT=ACCEPTED") && $0.hasSuffix("bob@example.net")
            })

        // alice moves it: one update, to bob, who is asked again.
        result = try await alice.run("event", ["edit", uid, "--start", "2027-03-10T10:00"], password: server.password)
        #expect(result.status == 0, "\(result.stderrText)")
        mails = try sink.messages()
        #expect(mails.count == 3 && mails.last?.to == ["bob@example.net"], "\(mails.map(\.to))")
        result = try await itip(bob, mails[2])
        #expect(
            result.status == 0 && result.stdoutText.hasPrefix("updated"), "\(result.stdoutText) \(result.stderrText)")
        #expect(
            try ServerPair.lines(try bob.file(uid: uid)).contains {
                $0.hasPrefix("ATTENDEE") && $0.contains("NEEDS-ACTION") && $0.hasSuffix("bob@example.net")
            })

        // Syncing mails nothing (copies never mail), and both vdirs hold the same meeting.
        #expect(try await alice.run("sync", password: server.password).status == 0)
        #expect(try await bob.run("sync", password: server.password).status == 0)
        #expect(try sink.messages().count == 3)
        let start = { (pair: ServerPair) in
            try ServerPair.lines(try pair.file(uid: uid)).first { $0.hasPrefix("DTSTART") }
        }
        let (aliceStart, bobStart) = (try start(alice), try start(bob))
        #expect(aliceStart != nil && aliceStart == bobStart, "\(aliceStart ?? "") \(bobStart ?? "")")

        // alice cancels: one cancellation, to bob.
        result = try await alice.run("event", ["delete", uid], password: server.password)
        #expect(result.status == 0, "\(result.stderrText)")
        mails = try sink.messages()
        #expect(mails.count == 4 && mails.last?.to == ["bob@example.net"])
        #expect(try await Self.pythonReads(try #require(mails.last).data)["method"] == "CANCEL")
        result = try await itip(bob, mails[3])
        #expect(
            result.status == 0 && result.stdoutText.hasPrefix("cancelled"), "\(result.stdoutText) \(result.stderrText)")
        #expect(try ServerPair.lines(try bob.file(uid: uid)).contains("STATUS:CANCELLED"))
    }

    /// alice takes carol off a meeting by editing its file (`event open`): bob is mailed the
    /// update, carol a cancellation of her own (the update's sequence, only her ATTENDEE), which
    /// her vdir takes; exactly one mail each, as a scheduling server would send.
    @Test(.enabled(if: !radicale.isEmpty, "needs radicale, which CALGW_TEST_SERVERS leaves out"), arguments: radicale)
    func anAttendeeTakenOffAMeetingIsMailedItsCancellation(server name: String) async throws {
        let server = try TestServers.shared(name)
        let sink = try TestSMTPSink()
        defer { sink.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        func person(_ name: String, _ address: String) async throws -> ServerPair {
            try await Self.person(name, address, on: server, in: folder, mailingTo: sink)
        }
        let alice = try await person("alice", "alice@example.org")
        let carol = try await person("carol", "carol@example.com")
        let made = try await alice.run(
            "event",
            [
                "add", "--summary", "Planning", "--start", "2027-03-10T09:00", "--attendee", "bob@example.net",
                "--attendee", "carol@example.com",
            ], password: server.password)
        #expect(made.status == 0, "\(made.stderrText)")
        let uid = made.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        var mails = try sink.messages()
        #expect(mails.count == 2, "\(mails.map(\.to))")
        let invitation = try #require(mails.first { $0.to == ["carol@example.com"] })
        var result = try await CalgwBinary.run(
            ["itip", "--config", carol.config.path], stdin: invitation.data,
            environment: ["CALGW_TEST_PASSWORD": server.password])
        #expect(result.status == 0 && result.stdoutText.hasPrefix("added"), "\(result.stdoutText) \(result.stderrText)")

        // The editor takes carol's ATTENDEE line out of the file.
        let editor = folder.file("take-carol-off")
        try """
        #!/usr/bin/env python3
        import sys
        path = sys.argv[1]
        text = open(path, newline="").read().replace("\\r\\n ", "")
        lines = [l for l in text.split("\\r\\n") if not (l.startswith("ATTENDEE") and "carol@" in l)]
        open(path, "w", newline="").write("\\r\\n".join(lines))
        """.write(to: editor, atomically: true, encoding: .utf8)
        result = try await CalgwBinary.run(
            ["event", "open", uid, "--config", alice.config.path],
            environment: [
                "CALGW_TEST_PASSWORD": server.password, "TZ": "UTC", "VISUAL": "/usr/bin/env python3 \(editor.path)",
            ])
        #expect(result.status == 0, "\(result.stdoutText) \(result.stderrText)")
        #expect(
            result.stdoutText.contains("cancellation mailed to carol@example.com")
                && result.stdoutText.contains("update mailed to bob@example.net"), "\(result.stdoutText)")
        mails = try sink.messages()
        #expect(mails.count == 4, "\(mails.map(\.to))")
        let toCarol = try #require(mails.dropFirst(2).first { $0.to == ["carol@example.com"] })
        #expect(try await Self.pythonReads(toCarol.data)["method"] == "CANCEL")
        #expect(!toCarol.text.contains("bob@example.net"), "the cancellation names the others: \(toCarol.text)")
        let toBob = try #require(mails.dropFirst(2).first { $0.to == ["bob@example.net"] })
        #expect(try await Self.pythonReads(toBob.data)["method"] == "REQUEST")
        #expect(!toBob.text.contains("carol@example.com"), "the update still names carol: \(toBob.text)")

        // carol's vdir takes it: the meeting is cancelled for her.
        result = try await CalgwBinary.run(
            ["itip", "--config", carol.config.path], stdin: toCarol.data,
            environment: ["CALGW_TEST_PASSWORD": server.password])
        #expect(
            result.status == 0 && result.stdoutText.hasPrefix("cancelled"), "\(result.stdoutText) \(result.stderrText)")
        #expect(try ServerPair.lines(try carol.file(uid: uid)).contains("STATUS:CANCELLED"))
    }
}
