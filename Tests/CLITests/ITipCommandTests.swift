import CalgwTestSupport
import Foundation
import Testing

/// `calgw itip` on a server that schedules nothing (Radicale): invitations, updates,
/// cancellations and answers that came by mail reach the vdir and the server, in order, and
/// what a mail's sender may not change is refused with nothing written.
@Suite(.timeLimit(.minutes(10))) struct ITipCommandTests {
    static let radicale = TestServers.selected.filter { $0 == "radicale" }

    /// A mail from `from` carrying `calendar` as Gmail sends one: multipart/alternative, the
    /// calendar part base64 with `method=` on its Content-Type.
    static func mail(from: String, to: String, method: String, calendar: String) -> Data {
        let encoded = Data(calendar.utf8).base64EncodedString(options: [
            .lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed,
        ])
        return Data(
            ([
                "From: \(from)", "To: \(to)", "Subject: Invitation: Planning", "MIME-Version: 1.0",
                "Content-Type: multipart/alternative; boundary=\"b1\"", "", "--b1",
                "Content-Type: text/plain; charset=UTF-8", "", "You are invited.", "--b1",
                "Content-Type: text/calendar; charset=UTF-8; method=\(method)", "Content-Transfer-Encoding: base64", "",
                encoded, "--b1--", "",
            ]).joined(separator: "\r\n").utf8)
    }

    /// Meeting `uid` as alice's mail program sends it with `method`.
    static func meeting(
        _ method: String, uid: String, sequence: Int = 0, start: String = "20270310T090000Z",
        organizer: String = "alice@example.org",
        attendee: String = "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:bob@example.net",
        extra: [String] = []
    ) -> String {
        ([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Google Inc//Google Calendar 70.9054//EN", "METHOD:\(method)",
            "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20270301T120000Z", "SEQUENCE:\(sequence)", "DTSTART:\(start)",
            "DURATION:PT1H", "SUMMARY:Planning", "ORGANIZER;CN=Alice:mailto:\(organizer)",
            "ATTENDEE;PARTSTAT=ACCEPTED:mailto:\(organizer)", attendee,
        ] + extra + ["END:VEVENT", "END:VCALENDAR", ""]).joined(separator: "\r\n")
    }

    /// The test server `name`, a new calendar on it, and the test's folder.
    static func calendar(on name: String) async throws -> (TestServer, URL, TemporaryFolder) {
        let server = try TestServers.shared(name)
        let collection = server.newCollectionURL(prefix: "itip")
        try await server.makeCalendar(collection)
        return (server, collection, try TemporaryFolder())
    }

    struct Bob {
        let pair: ServerPair
        let password: String

        func itip(_ mail: Data, _ extra: [String] = []) async throws -> ProcessRunner.Result {
            try await CalgwBinary.run(
                ["itip", "--config", pair.config.path, "--address", "mailto:bob@example.net"] + extra, stdin: mail,
                environment: ["CALGW_TEST_PASSWORD": password])
        }

        func text(_ uid: String) throws -> String { try String(contentsOf: try pair.file(uid: uid), encoding: .utf8) }
    }

    @Test(.enabled(if: !radicale.isEmpty, "needs radicale, which CALGW_TEST_SERVERS leaves out"), arguments: radicale)
    func anInvitationByMailIsAddedAnsweredUpdatedAndCancelledInOrder(server name: String) async throws {
        let (server, collection, folder) = try await Self.calendar(on: name)
        defer { folder.remove() }
        let bob = Bob(
            pair: try ServerPair(folder, "bob", server: server, collection: collection), password: server.password)
        let uid = "itip-\(UUID().uuidString.lowercased())@google.com"
        let invite = Self.mail(
            from: "Alice <alice@example.org>", to: "bob@example.net", method: "REQUEST",
            calendar: Self.meeting("REQUEST", uid: uid))
        var result = try await bob.itip(invite, ["--json"])
        #expect(result.status == 0, "\(result.stderrText)")
        var json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        #expect(
            json?["action"] as? String == "added" && json?["uid"] as? String == uid && json?["pushed"] as? Bool == true,
            "\(result.stdoutText)")
        #expect(!(try bob.text(uid)).contains("METHOD:"))
        let listed = try await CalgwBinary.run(
            ["invitations", "--config", bob.pair.config.path, "--address", "mailto:bob@example.net", "--json"],
            environment: ["CALGW_TEST_PASSWORD": server.password])
        #expect(listed.stdoutText.contains(uid), "\(listed.stdoutText) \(listed.stderrText)")
        // The server has it: a second client of the calendar pulls it.
        let other = try ServerPair(folder, "other", server: server, collection: collection)
        #expect(try await other.run("sync", password: server.password).status == 0)
        #expect(try other.summaries()[uid] == "Planning")

        let answer = try await bob.pair.run(
            "event", ["reply", uid, "--accept", "--address", "mailto:bob@example.net"], password: server.password)
        #expect(answer.status == 0, "\(answer.stderrText)")
        // A newer REQUEST that only moves the room keeps the answer; the same mail again changes nothing.
        let room = Self.mail(
            from: "alice@example.org", to: "bob@example.net", method: "REQUEST",
            calendar: Self.meeting("REQUEST", uid: uid, sequence: 1, extra: ["LOCATION:Room 2"]))
        result = try await bob.itip(room)
        #expect(
            result.status == 0 && result.stdoutText.hasPrefix("updated"), "\(result.stdoutText) \(result.stderrText)")
        #expect(try bob.text(uid).contains("PARTSTAT=ACCEPTED:mailto:bob@example.net"))
        result = try await bob.itip(room)
        #expect(result.status == 0 && result.stdoutText.hasPrefix("unchanged"), "\(result.stdoutText)")
        // Moved: asked again.
        result = try await bob.itip(
            Self.mail(
                from: "alice@example.org", to: "bob@example.net", method: "REQUEST",
                calendar: Self.meeting(
                    "REQUEST", uid: uid, sequence: 2, start: "20270310T100000Z", extra: ["LOCATION:Room 2"])))
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(try bob.text(uid).contains("PARTSTAT=NEEDS-ACTION"))

        // Someone else's REQUEST for the same UID is refused, nothing written.
        let before = try bob.text(uid)
        result = try await bob.itip(
            Self.mail(
                from: "mallory@evil.example", to: "bob@example.net", method: "REQUEST",
                calendar: Self.meeting("REQUEST", uid: uid, sequence: 9, organizer: "mallory@evil.example")), ["--json"]
        )
        json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        #expect(result.status == 1 && json?["action"] as? String == "refused", "\(result.stdoutText)")
        #expect((json?["reason"] as? String)?.contains("from alice@example.org") == true)
        #expect(try bob.text(uid) == before)

        result = try await bob.itip(
            Self.mail(
                from: "alice@example.org", to: "bob@example.net", method: "CANCEL",
                calendar: Self.meeting("CANCEL", uid: uid, sequence: 3)))
        #expect(
            result.status == 0 && result.stdoutText.hasPrefix("cancelled"), "\(result.stdoutText) \(result.stderrText)")
        #expect(try bob.text(uid).contains("STATUS:CANCELLED"))
        #expect(try await other.run("sync", password: server.password).status == 0)
        #expect(try String(contentsOf: try other.file(uid: uid), encoding: .utf8).contains("STATUS:CANCELLED"))
    }

    @Test(.enabled(if: !radicale.isEmpty, "needs radicale, which CALGW_TEST_SERVERS leaves out"), arguments: radicale)
    func aReplyByMailIsRecordedOnlyFromTheAttendeeItAnswersFor(server name: String) async throws {
        let (server, collection, folder) = try await Self.calendar(on: name)
        defer { folder.remove() }
        let alice = try ServerPair(folder, "alice", server: server, collection: collection)
        let made = try await alice.run(
            "event",
            [
                "add", "--summary", "Planning", "--start", "2027-03-10T09:00", "--attendee", "bob@example.net",
                "--address", "alice@example.org",
            ], password: server.password)
        #expect(made.status == 0, "\(made.stderrText)")
        let uid = made.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        func itip(_ mail: Data) async throws -> ProcessRunner.Result {
            try await CalgwBinary.run(
                ["itip", "--config", alice.config.path, "--address", "mailto:alice@example.org", "--json"], stdin: mail,
                environment: ["CALGW_TEST_PASSWORD": server.password])
        }
        let accepted = Self.meeting("REPLY", uid: uid, attendee: "ATTENDEE;PARTSTAT=ACCEPTED:mailto:bob@example.net")
            .replacingOccurrences(of: "ATTENDEE;PARTSTAT=ACCEPTED:mailto:alice@example.org\r\n", with: "")
        let forged = try await itip(
            Self.mail(from: "mallory@evil.example", to: "alice@example.org", method: "REPLY", calendar: accepted))
        let refusal = try JSONSerialization.jsonObject(with: forged.stdout) as? [String: Any]
        #expect(forged.status == 1 && refusal?["action"] as? String == "refused", "\(forged.stdoutText)")
        #expect(
            !(try String(contentsOf: try alice.file(uid: uid), encoding: .utf8)).contains(
                "PARTSTAT=ACCEPTED:mailto:bob"))
        let real = try await itip(
            Self.mail(from: "Bob <bob@example.net>", to: "alice@example.org", method: "REPLY", calendar: accepted))
        let record = try JSONSerialization.jsonObject(with: real.stdout) as? [String: Any]
        #expect(
            real.status == 0 && record?["action"] as? String == "answer recorded",
            "\(real.stdoutText) \(real.stderrText)")
        #expect(
            try ServerPair.lines(try alice.file(uid: uid)).contains {
                $0.hasPrefix("ATTENDEE;") && $0.contains("PARTSTAT=ACCEPTED") && $0.hasSuffix("bob@example.net")
            })
        let again = try await itip(
            Self.mail(from: "bob@example.net", to: "alice@example.org", method: "REPLY", calendar: accepted))
        #expect(again.status == 0 && again.stdoutText.contains("\"unchanged\""), "\(again.stdoutText)")
    }

    @Test func aMailWithoutACalendarPartIsAUsageErrorWithItsJSON() async throws {
        let plain = Data("From: a@example.org\r\nSubject: hi\r\n\r\nJust text.\r\n".utf8)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = folder.file("c.toml")
        try Data("[pair.p]\nlocal = \"\(folder.file("v").path)\"\nremote = \"file://\(folder.file("r").path)\"\n".utf8)
            .write(to: config)
        let result = try await CalgwBinary.run(["itip", "--config", config.path, "--json"], stdin: plain)
        let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        #expect(
            result.status == 2 && json?["action"] as? String == "unreadable",
            "\(result.stdoutText) \(result.stderrText)")
        #expect(result.stderrText.contains("no calendar part"), "\(result.stderrText)")
    }
}
