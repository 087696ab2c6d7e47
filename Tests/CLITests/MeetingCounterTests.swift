import CalgwTestSupport
import Foundation
import Testing

/// Another time proposed by mail (COUNTER, RFC 5546 §3.2.7) and refused (DECLINECOUNTER,
/// §3.2.8), walked on Radicale with msmtp to an SMTP sink: the organizer is told what is
/// proposed and given the command that takes it; taking it mails the update to everyone; a
/// proposal in anyone else's name is refused; the attendee is told of a refusal.
@Suite(.timeLimit(.minutes(10))) struct MeetingCounterTests {
    static let radicale = MeetingMailWalkTests.radicale

    /// A proposal as Thunderbird mails one: `method` COUNTER or DECLINECOUNTER, from `from`,
    /// for the review `uid`, at `start`–`end` (UTC, `20270311T140000Z`).
    static func proposal(
        _ method: String, uid: String, from: String, attendee: String = "bob@example.net",
        start: String = "20270311T140000Z", end: String = "20270311T150000Z", comment: String? = nil
    ) -> Data {
        let lines = [
            "From: \(from)", "To: alice@example.org", "Subject: \(method): Review", "MIME-Version: 1.0",
            "Content-Type: text/calendar; method=\(method); charset=UTF-8", "",
            "BEGIN:VCALENDAR", "PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN", "VERSION:2.0",
            "METHOD:\(method)", "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20270301T120000Z", "DTSTART:\(start)",
            "DTEND:\(end)", "SUMMARY:Review", "ORGANIZER:mailto:alice@example.org",
            "ATTENDEE;PARTSTAT=TENTATIVE:mailto:\(attendee)",
        ]
        return Data(
            (lines + (comment.map { ["COMMENT:\($0)"] } ?? []) + ["SEQUENCE:0", "END:VEVENT", "END:VCALENDAR", ""])
                .joined(separator: "\r\n").utf8)
    }

    /// The start of the first VEVENT of the calendar part of `mail`, as a UTC instant, read by
    /// Python's icalendar.
    static func start(of mail: Data) async throws -> String {
        let script = """
            import datetime, email, email.policy, icalendar, sys
            m = email.message_from_bytes(sys.stdin.buffer.read(), policy=email.policy.default)
            part = next(p for p in m.walk() if p.get_content_type() == 'text/calendar')
            cal = icalendar.Calendar.from_ical(part.get_payload(decode=True))
            event = next(c for c in cal.walk() if c.name == 'VEVENT')
            print(event.decoded('DTSTART').astimezone(datetime.timezone.utc).strftime('%Y%m%dT%H%M%SZ'), cal['METHOD'])
            """
        let result = try await ProcessRunner.run(
            "/usr/bin/env", ["python3", "-c", script], stdin: mail, environment: TestPaths.childEnvironment,
            deadline: 300)
        guard result.status == 0 else { throw FixtureFailure("python could not read the mail: \(result.stderrText)") }
        return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// bob proposes Thursday afternoon: alice's `itip` changes nothing, says what is proposed
    /// against the time now, with his comment, and prints the command that takes it; run, it
    /// moves the meeting and mails bob the update at the proposed time.
    @Test(.enabled(if: !radicale.isEmpty, "needs radicale, which CALGW_TEST_SERVERS leaves out"), arguments: radicale)
    func theOrganizerIsGivenTheCommandThatTakesAProposal(server name: String) async throws {
        let walk = try await MeetingMailWalkTests.Invited(on: name)
        defer { walk.finish() }
        let mails = try walk.sink.messages().count
        let counter = Self.proposal(
            "COUNTER", uid: walk.uid, from: "bob@example.net", comment: "Wednesday is full; Thursday afternoon?")
        let before = try Data(contentsOf: try walk.alice.file(uid: walk.uid))

        let shown = try await CalgwBinary.run(
            ["itip", "--show", "--config", walk.alice.config.path], stdin: counter, environment: ["TZ": "UTC"])
        #expect(
            shown.stdoutText.hasPrefix("Another time proposed: Review")
                && shown.stdoutText.contains("When:      Thu 2027-03-11 14:00–15:00 UTC")
                && shown.stdoutText.contains("Now:       Wed 2027-03-10 09:00–10:00")
                && shown.stdoutText.contains("Wednesday is full")
                && shown.stdoutText.contains("calgw event edit \(walk.uid) --start 2027-03-11T14:00Z"),
            "\(shown.stdoutText)")

        let json = try await CalgwBinary.run(
            ["itip", "--json", "--config", walk.alice.config.path], stdin: counter,
            environment: ["CALGW_TEST_PASSWORD": walk.server.password, "TZ": "UTC"])
        let report = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(json.status == 0 && report["action"] as? String == "unchanged", "\(json.stdoutText)")
        #expect(
            (report["reason"] as? String)?.contains(
                "bob@example.net proposes Thu 2027-03-11 14:00–15:00 UTC instead of Wed 2027-03-10 09:00–10:00 UTC")
                == true, "\(json.stdoutText)")
        let take = try #require(report["answer"] as? String)
        #expect(
            take == "calgw event edit \(walk.uid) --start 2027-03-11T14:00Z --end 2027-03-11T15:00Z", "\(take)")
        #expect(try Data(contentsOf: try walk.alice.file(uid: walk.uid)) == before, "a proposal changes nothing")
        #expect(try walk.sink.messages().count == mails, "a proposal mails nothing")

        // alice takes it: the command as printed, run with her config.
        let words = take.split(separator: " ").map(String.init)
        let taken = try await walk.alice.run(
            words[1], Array(words.dropFirst(2)), password: walk.server.password)
        #expect(taken.status == 0, "\(taken.stderrText)")
        let update = try #require(try walk.sink.messages().dropFirst(mails).first, "\(taken.stderrText)")
        #expect(update.to == ["bob@example.net"])
        #expect(try await Self.start(of: update.data) == "20270311T140000Z REQUEST")
    }

    /// A proposal is an answer's kind of message: one in bob's name from mallory, or from bob
    /// for someone not invited, is refused and changes nothing.
    @Test(.enabled(if: !radicale.isEmpty, "needs radicale, which CALGW_TEST_SERVERS leaves out"), arguments: radicale)
    func aProposalInSomeoneElsesNameIsRefused(server name: String) async throws {
        let walk = try await MeetingMailWalkTests.Invited(on: name)
        defer { walk.finish() }
        for (from, attendee) in [
            ("mallory@evil.example", "bob@example.net"), ("carol@example.com", "carol@example.com"),
        ] {
            let result = try await MeetingMailWalkTests.itip(
                walk.alice, Self.proposal("COUNTER", uid: walk.uid, from: from, attendee: attendee),
                walk.server.password)
            #expect(result.status == 1 && result.stdoutText.hasPrefix("refused"), "\(from): \(result.stdoutText)")
        }
    }

    /// alice declines bob's proposal: bob is told the meeting stays where it was; the same
    /// from mallory is refused.
    @Test(.enabled(if: !radicale.isEmpty, "needs radicale, which CALGW_TEST_SERVERS leaves out"), arguments: radicale)
    func theAttendeeIsToldOfADeclinedProposal(server name: String) async throws {
        let walk = try await MeetingMailWalkTests.Invited(on: name)
        defer { walk.finish() }
        let declined = try await CalgwBinary.run(
            ["itip", "--config", walk.bob.config.path],
            stdin: Self.proposal("DECLINECOUNTER", uid: walk.uid, from: "alice@example.org"),
            environment: ["CALGW_TEST_PASSWORD": walk.server.password, "TZ": "UTC"])
        #expect(
            declined.status == 0
                && declined.stdoutText.contains(
                    "alice@example.org declines your proposal of another time for \(walk.uid): the meeting stays at "
                        + "Wed 2027-03-10 09:00–10:00 UTC"),
            "\(declined.stdoutText)")
        let forged = try await MeetingMailWalkTests.itip(
            walk.bob, Self.proposal("DECLINECOUNTER", uid: walk.uid, from: "mallory@evil.example"),
            walk.server.password)
        #expect(forged.status == 1 && forged.stdoutText.contains("mallory@evil.example"), "\(forged.stdoutText)")
    }
}
