import CalgwTestSupport
import Foundation
import Testing

/// Meetings by mail walked as people use them, each step on real parts (Radicale and Xandikos,
/// msmtp to an SMTP sink, the mails read back by Python's email and icalendar): what a server
/// that schedules nothing leaves to calgw's mail, and what a mail may change.
@Suite(.timeLimit(.minutes(10))) struct MeetingMailWalkTests {
    static let radicale = TestServers.selected.filter { $0 == "radicale" }
    static let xandikos = TestServers.selected.filter { $0 == "xandikos" }

    /// What Python reads in a mail: the calendar part's METHOD, and each VEVENT's
    /// RECURRENCE-ID, the first ATTENDEE's PARTSTAT and the COMMENT.
    static func reads(_ mail: Data) async throws -> [String: String] {
        let script = """
            import email, email.policy, icalendar, json, sys
            m = email.message_from_bytes(sys.stdin.buffer.read(), policy=email.policy.default)
            part = next(p for p in m.walk() if p.get_content_type() == 'text/calendar')
            cal = icalendar.Calendar.from_ical(part.get_payload(decode=True))
            event = next(c for c in cal.walk() if c.name == 'VEVENT')
            attendee = event.get('ATTENDEE')
            attendee = attendee[0] if isinstance(attendee, list) else attendee
            rid = event.get('RECURRENCE-ID')
            print(json.dumps({'method': str(cal['METHOD']), 'subject': str(m['Subject']),
                              'rid': rid.to_ical().decode() if rid else '',
                              'partstat': str(attendee.params.get('PARTSTAT', '')) if attendee else '',
                              'comment': str(event.get('COMMENT', ''))}))
            """
        let result = try await ProcessRunner.run(
            "/usr/bin/env", ["python3", "-c", script], stdin: mail, environment: TestPaths.childEnvironment,
            deadline: 300)
        guard result.status == 0, let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: String]
        else { throw FixtureFailure("python could not read the mail: \(result.stderrText)") }
        return json
    }

    /// alice (organizer) and bob on `server`, each with a calendar of their own, mailing
    /// through `sink`.
    static func people(on server: TestServer, in folder: TemporaryFolder, sink: TestSMTPSink) async throws -> (
        alice: ServerPair, bob: ServerPair
    ) {
        (
            try await ITipMailLoopTests.person("alice", "alice@example.org", on: server, in: folder, mailingTo: sink),
            try await ITipMailLoopTests.person("bob", "bob@example.net", on: server, in: folder, mailingTo: sink)
        )
    }

    /// alice and bob on the server `name`, mailing through a sink of their own, with bob holding
    /// alice's invitation to a review (unless not `applied`: then only mailed to him): its UID
    /// and the mail that brought it.
    struct Invited {
        let server: TestServer, sink: TestSMTPSink, folder: TemporaryFolder, alice: ServerPair, bob: ServerPair
        let uid: String, invitation: TestSMTPSink.Message

        init(on name: String, applied: Bool = true) async throws {
            server = try TestServers.shared(name)
            sink = try TestSMTPSink()
            folder = try TemporaryFolder()
            (alice, bob) = try await MeetingMailWalkTests.people(on: server, in: folder, sink: sink)
            let made = try await alice.run(
                "event",
                ["add", "--summary", "Review", "--start", "2027-03-10T09:00", "--attendee", "bob@example.net"],
                password: server.password)
            uid = made.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
            invitation = try #require(try sink.messages().first, "\(made.stderrText)")
            guard applied else { return }
            #expect(try await MeetingMailWalkTests.itip(bob, invitation.data, server.password).status == 0)
        }

        func finish() {
            sink.stop()
            folder.remove()
        }
    }

    static func itip(_ pair: ServerPair, _ mail: Data, _ password: String) async throws -> ProcessRunner.Result {
        try await CalgwBinary.run(
            ["itip", "--config", pair.config.path], stdin: mail, environment: ["CALGW_TEST_PASSWORD": password])
    }

    /// Xandikos advertises calendar-auto-schedule and sends nothing: known by its answers, its
    /// pair mails the invitation, and nothing claims the server was asked.
    @Test(.enabled(if: !xandikos.isEmpty, "needs xandikos, which CALGW_TEST_SERVERS leaves out"), arguments: xandikos)
    func xandikosInvitationsAreMailed(server name: String) async throws {
        let server = try TestServers.shared(name)
        let sink = try TestSMTPSink()
        defer { sink.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let alice = try await ITipMailLoopTests.person(
            "alice", "alice@example.org", on: server, in: folder, mailingTo: sink)
        let made = try await alice.run(
            "event", ["add", "--summary", "Review", "--start", "2027-03-10T09:00", "--attendee", "bob@example.net"],
            password: server.password)
        #expect(
            made.status == 0 && made.stderrText.contains("invitation mailed to bob@example.net")
                && !made.stderrText.contains("asked of the server"), "\(made.stderrText)")
        #expect(try sink.messages().map(\.to) == [["bob@example.net"]])
    }

    /// A Radicale run without sign-in, as people run one of their own (`[auth] type = none`:
    /// any name and password are taken; the pair names one): it schedules nothing, so the
    /// invitation is mailed, and neither `event add` nor `discover` says the server was asked.
    @Test(.enabled(if: !radicale.isEmpty, "needs radicale, which CALGW_TEST_SERVERS leaves out"), arguments: radicale)
    func radicaleWithoutSignInMailsInvitations(server name: String) async throws {
        var server = try TestServers.start(name, settings: ["CALGW_RADICALE_AUTH": "none"])
        defer { server.stop() }
        #expect(server.username.isEmpty, "the script signs no one in without sign-in")
        server.username = "alice"
        server.password = "anything at all"
        server.home = server.url.appendingPathComponent("alice/")
        let sink = try TestSMTPSink()
        defer { sink.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let alice = try await ITipMailLoopTests.person(
            "alice", "alice@example.org", on: server, in: folder, mailingTo: sink)
        let found = try await alice.run("discover", password: server.password)
        #expect(!found.stdoutText.contains("the server schedules meetings"), "\(found.stdoutText)")
        let made = try await alice.run(
            "event", ["add", "--summary", "Review", "--start", "2027-03-10T09:00", "--attendee", "bob@example.net"],
            password: server.password)
        #expect(
            made.status == 0 && made.stderrText.contains("invitation mailed to bob@example.net")
                && !made.stderrText.contains("asked of the server"), "\(made.stderrText)")
        #expect(try sink.messages().map(\.to) == [["bob@example.net"]])
    }

    /// bob answers one occurrence of a weekly meeting: the mail is that occurrence's REPLY (its
    /// RECURRENCE-ID, its PARTSTAT, the comment). Then he deletes the invitation: a DECLINED
    /// REPLY for the series, not his old answer. alice records both; the comment is kept in her
    /// copy, marked with bob's address.
    @Test(.enabled(if: !radicale.isEmpty, "needs radicale, which CALGW_TEST_SERVERS leaves out"), arguments: radicale)
    func answersByMailSayWhatWasAnswered(server name: String) async throws {
        let server = try TestServers.shared(name)
        let sink = try TestSMTPSink()
        defer { sink.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (alice, bob) = try await Self.people(on: server, in: folder, sink: sink)
        let made = try await alice.run(
            "event",
            [
                "add", "--summary", "Weekly sync", "--start", "2027-01-11T09:30", "--rrule", "FREQ=WEEKLY;COUNT=6",
                "--attendee", "bob@example.net",
            ], password: server.password)
        #expect(made.status == 0, "\(made.stderrText)")
        let uid = made.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        var mails = try sink.messages()
        try #require(mails.count == 1, "\(mails.map(\.to))")
        var result = try await Self.itip(bob, mails[0].data, server.password)
        #expect(result.status == 0, "\(result.stdoutText) \(result.stderrText)")

        result = try await bob.run(
            "event", ["reply", uid, "--accept", "--occurrence", "2027-01-25T09:30", "--comment", "This one works"],
            password: server.password)
        #expect(result.status == 0, "\(result.stdoutText) \(result.stderrText)")
        mails = try sink.messages()
        try #require(mails.count == 2, "\(mails.map(\.to))")
        let one = try await Self.reads(mails[1].data)
        #expect(
            one["method"] == "REPLY" && one["rid"]?.hasPrefix("20270125T093000") == true
                && one["partstat"] == "ACCEPTED"
                && one["comment"] == "This one works", "\(one)")
        result = try await Self.itip(alice, mails[1].data, server.password)
        #expect(result.status == 0 && result.stdoutText.hasPrefix("answer recorded"), "\(result.stdoutText)")
        let kept = try ServerPair.lines(try alice.file(uid: uid))
        #expect(
            kept.contains { $0 == "COMMENT;X-CALGW-ATTENDEE=\"mailto:bob@example.net\":This one works" },
            "\(kept)")
        // alice sees it: `list --json` gives that occurrence bob's answer and comment.
        let listed = try await alice.run(
            "list", ["--json", "--from", "2027-01-25", "--to", "2027-01-26"], password: server.password)
        let rows = try #require(try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]])
        let bobs = (rows.first?["attendees"] as? [[String: Any]])?.first {
            ($0["address"] as? String)?.contains("bob") == true
        }
        #expect(
            bobs?["participationStatus"] as? String == "ACCEPTED" && bobs?["comment"] as? String == "This one works",
            "\(listed.stdoutText)")

        result = try await bob.run("event", ["delete", uid], password: server.password)
        #expect(result.status == 0, "\(result.stdoutText) \(result.stderrText)")
        mails = try sink.messages()
        try #require(mails.count == 3, "\(mails.map(\.to))")
        let decline = try await Self.reads(mails[2].data)
        #expect(
            decline["method"] == "REPLY" && decline["partstat"] == "DECLINED" && decline["rid"] == ""
                && decline["subject"]?.hasPrefix("Declined") == true, "\(decline)")
    }

    /// A mail the mail command does not take is kept: the command exits 1 naming bob, `status`
    /// lists it, and once the command works the pair's next sync mails it, once.
    @Test(.enabled(if: !radicale.isEmpty, "needs radicale, which CALGW_TEST_SERVERS leaves out"), arguments: radicale)
    func aMailTheCommandRefusedIsKeptAndSentByTheNextRun(server name: String) async throws {
        let server = try TestServers.shared(name)
        let sink = try TestSMTPSink()
        defer { sink.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let alice = try await ITipMailLoopTests.person(
            "alice", "alice@example.org", on: server, in: folder, mailingTo: sink)
        let working = try String(contentsOf: alice.config, encoding: .utf8)
        try working.replacingOccurrences(of: sink.configLine, with: "mail_command = [\"false\"]")
            .write(to: alice.config, atomically: true, encoding: .utf8)
        let made = try await alice.run(
            "event", ["add", "--summary", "Review", "--start", "2027-03-10T09:00", "--attendee", "bob@example.net"],
            password: server.password)
        #expect(made.status == 1, "\(made.stdoutText) \(made.stderrText)")
        #expect(made.stderrText.contains("bob@example.net") && made.stderrText.contains("kept"), "\(made.stderrText)")
        let status = try await alice.run("status", password: server.password)
        #expect(status.stdoutText.contains("waiting to be mailed") && status.stdoutText.contains("bob@example.net"))
        #expect(try sink.messages().isEmpty)

        try working.write(to: alice.config, atomically: true, encoding: .utf8)
        let sync = try await alice.run("sync", password: server.password)
        #expect(
            sync.status == 0 && sync.stdoutText.contains("mailed, at last"), "\(sync.stdoutText) \(sync.stderrText)")
        #expect(try sink.messages().map(\.to) == [["bob@example.net"]])
        let again = try await alice.run("sync", password: server.password)
        #expect(again.status == 0 && !again.stdoutText.contains("mailed"))
        #expect(try sink.messages().count == 1)
    }

    /// A mail that would change a meeting bob holds, from someone who is not its organizer, is
    /// refused and changes nothing; so is an answer whose From names two people.
    @Test(.enabled(if: !radicale.isEmpty, "needs radicale, which CALGW_TEST_SERVERS leaves out"), arguments: radicale)
    func aStrangerCannotMoveAHeldMeeting(server name: String) async throws {
        let walk = try await Invited(on: name)
        defer { walk.finish() }
        let (server, sink, alice, bob, uid, invitation) = (
            walk.server, walk.sink, walk.alice, walk.bob, walk.uid, walk.invitation
        )
        let held = try Data(contentsOf: try bob.file(uid: uid))

        let forged = invitation.text.replacingOccurrences(of: "From: ", with: "From: mallory@evil.example\r\nX-Was: ")
            .replacingOccurrences(of: "DTSTART:20270310T090000", with: "DTSTART:20270311T090000")
            .replacingOccurrences(of: "SEQUENCE:0", with: "SEQUENCE:5")
        let result = try await Self.itip(bob, Data(forged.utf8), server.password)
        #expect(result.status == 1 && result.stdoutText.contains("mallory@evil.example"), "\(result.stdoutText)")
        #expect(try Data(contentsOf: try bob.file(uid: uid)) == held, "the held meeting changed")

        let answer = try await bob.run("event", ["reply", uid, "--accept"], password: server.password)
        #expect(answer.status == 0, "\(answer.stderrText)")
        let reply = try #require(try sink.messages().last)
        let twoSenders = reply.text.replacingOccurrences(
            of: "From: ", with: "From: carol@example.com, ")
        let taken = try await Self.itip(alice, Data(twoSenders.utf8), server.password)
        #expect(taken.status == 1, "\(taken.stdoutText) \(taken.stderrText)")
    }

    /// `list` marks a meeting awaiting the person's answer on a server that names no address
    /// (Radicale), from the pair's `addresses`.
    @Test(.enabled(if: !radicale.isEmpty, "needs radicale, which CALGW_TEST_SERVERS leaves out"), arguments: radicale)
    func listMarksWhatAwaitsAnAnswerFromTheConfigsAddresses(server name: String) async throws {
        let walk = try await Invited(on: name)
        defer { walk.finish() }
        let (server, bob) = (walk.server, walk.bob)
        let list = try await bob.run("list", ["--from", "2027-03-01", "--to", "2027-03-31"], password: server.password)
        #expect(list.stdoutText.contains("[to answer]"), "\(list.stdoutText) \(list.stderrText)")
    }

    /// A stranger's invitation to a series every second is held: nothing written, the reason
    /// said; `--take-large` takes it.
    @Test(.enabled(if: !radicale.isEmpty, "needs radicale, which CALGW_TEST_SERVERS leaves out"), arguments: radicale)
    func anInvitationOutOfProportionIsHeld(server name: String) async throws {
        let server = try TestServers.shared(name)
        let sink = try TestSMTPSink()
        defer { sink.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bob = try await ITipMailLoopTests.person("bob", "bob@example.net", on: server, in: folder, mailingTo: sink)
        let uid = "flood-\(UUID().uuidString.prefix(6))"
        let request =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//EN\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\n"
            + "DTSTAMP:20270101T000000Z\r\nDTSTART:20270310T090000Z\r\nDURATION:PT1S\r\n"
            + "RRULE:FREQ=SECONDLY;COUNT=2000000000\r\nSUMMARY:Flood\r\nORGANIZER:mailto:mallory@evil.example\r\n"
            + "ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:bob@example.net\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let held = try await Self.itip(bob, Data(request.utf8), server.password)
        #expect(held.status == 1 && held.stdoutText.contains("secondly"), "\(held.stdoutText) \(held.stderrText)")
        #expect(throws: ServerPair.NoSuchItem.self) { try bob.file(uid: uid) }
        let taken = try await CalgwBinary.run(
            ["itip", "--config", bob.config.path, "--take-large", "--offline"], stdin: Data(request.utf8),
            environment: ["CALGW_TEST_PASSWORD": server.password])
        #expect(taken.status == 0 && taken.stdoutText.hasPrefix("added"), "\(taken.stdoutText) \(taken.stderrText)")
    }

    /// `itip --show` of every scheduling mail in the corpus (Outlook, Teams, Gmail, Thunderbird,
    /// RFC 6047's): what it is and when, in words, and the file's own SUMMARY; no config needed
    /// for the reading, nothing written. An update against the held copy says what moved, and a
    /// clash with the reader's own event is named.
    @Test(.enabled(if: !radicale.isEmpty, "needs radicale, which CALGW_TEST_SERVERS leaves out"), arguments: radicale)
    func everyInvitationReadsAsAPersonReadsIt(server name: String) async throws {
        let walk = try await Invited(on: name)
        defer { walk.finish() }
        let corpus = TestPaths.fixtures.appendingPathComponent("itip")
        let mails = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter {
            $0.hasSuffix(".eml") && !$0.contains("non-invite") && !$0.contains("rfc6047-2.5")
        }
        #expect(mails.count >= 15)
        for mail in mails {
            let shown = try await CalgwBinary.run(
                ["itip", "--show", "--config", walk.bob.config.path, corpus.appendingPathComponent(mail).path],
                environment: ["TZ": "Europe/Berlin"])
            let lines = shown.stdoutText.split(separator: "\n")
            #expect(shown.status == 0, "\(mail): \(shown.stderrText)")
            let title = lines.first.map(String.init) ?? ""
            #expect(
                ["Invitation", "Updated", "Cancelled", "Answer", "Event"].contains(where: title.hasPrefix),
                "\(mail): \(shown.stdoutText)")
            // An invitation or update says when (a cancellation may carry no time of its own).
            #expect(
                title.hasPrefix("Cancelled") || lines.contains { $0.hasPrefix("When:") }, "\(mail): \(shown.stdoutText)"
            )
        }
        // bob holds alice's review; she moves it, and he has a dentist at the new time.
        try TestEvent.data(uid: "dentist", summary: "Dentist", start: "20270311T090000Z", duration: "PT1H")
            .write(to: walk.bob.vdir.appendingPathComponent("dentist.ics"))
        let moved = walk.invitation.text.replacingOccurrences(
            of: "DTSTART:20270310T090000Z", with: "DTSTART:20270311T090000Z"
        )
        .replacingOccurrences(of: "DTEND:20270310T100000Z", with: "DTEND:20270311T100000Z")
        .replacingOccurrences(of: "SEQUENCE:0", with: "SEQUENCE:1")
        let shown = try await CalgwBinary.run(
            ["itip", "--show", "--config", walk.bob.config.path], stdin: Data(moved.utf8),
            environment: ["TZ": "Europe/Berlin"])
        #expect(
            shown.stdoutText.hasPrefix("Updated invitation: Review")
                && shown.stdoutText.contains("moved from Wed 2027-03-10")
                && shown.stdoutText.contains("Dentist") && shown.stdoutText.contains("calgw event reply \(walk.uid)"),
            "\(shown.stdoutText) \(shown.stderrText)")
        #expect(shown.stdoutText.contains("yours: Thu 2027-03-11 10:00–11:00 Europe/Berlin"), "\(shown.stdoutText)")
    }

    /// A series taken anyway that recurs every minute: `list` prints at most 10,000 of its
    /// occurrences and says so.
    @Test func listBoundsASeriesOutOfProportion() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let vdir = folder.file("cal")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        try Data(
            ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//EN\r\nBEGIN:VEVENT\r\nUID:flood\r\n"
                + "DTSTAMP:20270101T000000Z\r\nDTSTART:20270310T000000Z\r\nDURATION:PT30S\r\n"
                + "RRULE:FREQ=MINUTELY\r\nSUMMARY:Flood\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").utf8
        ).write(to: vdir.appendingPathComponent("flood.ics"))
        let list = try await CalgwBinary.run([
            "list", "--local", vdir.path, "--from", "2027-03-10", "--to", "2027-03-20", "--tz", "UTC",
        ])
        #expect(list.status == 0, "\(list.stderrText)")
        let rows = list.stdoutText.split(separator: "\n").filter { $0.contains("Flood") }
        #expect(rows.count == 10_000, "\(rows.count)")
        #expect(
            list.stderrText.contains("14400 occurrences in the window; the first 10000 are listed"),
            "\(list.stderrText)")
    }

    /// Thunderbird's test mails reuse one UID for a single event and for a series: an update of
    /// one occurrence of the series, piped after the single event, changes nothing, and says why.
    @Test func anOccurrenceUpdateDoesNotAttachToASingleEvent() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let vdir = folder.file("vdir")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        let config = folder.file("config.toml")
        try """
        [pair.p]
        local = "\(vdir.path)"
        remote = "http://127.0.0.1:9/cal/"
        journal = "\(folder.file("journal.sqlite").path)"
        addresses = ["mailto:receiver@example.com"]

        """.write(to: config, atomically: true, encoding: .utf8)
        let corpus = TestPaths.fixtures.appendingPathComponent("itip")
        func itip(_ name: String) async throws -> ProcessRunner.Result {
            try await CalgwBinary.run(
                ["itip", "--config", config.path, "--offline", corpus.appendingPathComponent(name).path])
        }
        let single = try await itip("thunderbird-single-event.eml")
        #expect(single.status == 0 && single.stdoutText.hasPrefix("added"), "\(single.stdoutText) \(single.stderrText)")
        let held = try FileManager.default.contentsOfDirectory(atPath: vdir.path).filter { $0.hasSuffix(".ics") }
        let before = try Data(contentsOf: vdir.appendingPathComponent(try #require(held.first)))
        let occurrence = try await itip("thunderbird-exception-minor.eml")
        #expect(
            occurrence.status == 0 && occurrence.stdoutText.hasPrefix("unchanged")
                && occurrence.stdoutText.contains("not a series"), "\(occurrence.stdoutText) \(occurrence.stderrText)")
        #expect(try Data(contentsOf: vdir.appendingPathComponent(held[0])) == before)
    }

    /// `itip` of a file that is not there: the JSON still, with nulls, and exit 2.
    @Test func itipOfAMissingFileAnswersInJSON() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try await CalgwBinary.run(["itip", folder.file("nonexistent.eml").path, "--json"])
        #expect(result.status == 2, "\(result.stderrText)")
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(
            json["action"] as? String == "unreadable" && json["uid"] is NSNull && json["reason"] is String, "\(json)")
        #expect(result.stderrText.contains("no such file") && !result.stderrText.contains("NSCocoaErrorDomain"))
    }
}
