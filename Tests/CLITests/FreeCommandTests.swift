import CalgwTestSupport
import Foundation
import Testing

/// `calgw free`: the user's busy time from their vdirs (free, cancelled and declined events
/// leaving it free), other people's asked of real servers (a VFREEBUSY request to the schedule
/// Outbox of Cyrus and DAViCal), and the slots free for all.
@Suite(.timeLimit(.minutes(10))) struct FreeCommandTests {
    static let asking = ["cyrus", "davical"].filter(TestServers.runs)

    static func event(_ uid: String, _ start: String, _ end: String, _ extra: [String] = []) -> Data {
        TestEvent.data(uid: uid, summary: uid, start: start, end: end, extra: extra)
    }

    static func json(_ result: ProcessRunner.Result) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any],
            "\(result.stdoutText) \(result.stderrText)")
    }

    static func slots(_ json: [String: Any]) -> [String] {
        ((json["free"] as? [[String: Any]]) ?? []).map {
            "\($0["start"] as? String ?? "")..\($0["end"] as? String ?? "")"
        }
    }

    @Test func theUsersOwnBusyTimeLeavesTheRestFree() async throws {
        let server = try TestServers.shared(TestServers.any())
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let collection = server.newCollectionURL(prefix: "free")
        try await server.makeCalendar(collection)
        let pair = try ServerPair(
            folder, "me", server: server, collection: collection, extra: ["addresses = [\"mailto:me@example.org\"]"])
        let events = [
            Self.event("standup", "20270310T090000Z", "20270310T100000Z"),
            Self.event("reading", "20270310T110000Z", "20270310T120000Z", ["TRANSP:TRANSPARENT"]),
            Self.event(
                "offsite", "20270310T130000Z", "20270310T140000Z",
                [
                    "ORGANIZER:mailto:boss@example.org", "ATTENDEE;PARTSTAT=DECLINED:mailto:me@example.org",
                ]),
            Self.event("review", "20270310T143000Z", "20270310T153000Z", ["STATUS:CONFIRMED"]),
            Self.event("cancelled", "20270310T160000Z", "20270310T163000Z", ["STATUS:CANCELLED"]),
        ]
        for (i, data) in events.enumerated() { try data.write(to: pair.vdir.appendingPathComponent("e\(i).ics")) }
        let result = try await CalgwBinary.run(
            [
                "free", "--config", pair.config.path, "--from", "2027-03-10", "--to", "2027-03-11", "--duration", "1h",
                "--hours", "09:00-17:00", "--json",
            ], environment: ["TZ": "UTC"])
        #expect(result.status == 0, "\(result.stderrText)")
        let json = try Self.json(result)
        #expect(
            Self.slots(json) == [
                "2027-03-10T10:00:00Z..2027-03-10T14:30:00Z", "2027-03-10T15:30:00Z..2027-03-10T17:00:00Z",
            ],
            "\(result.stdoutText)")
        #expect(((json["busy"] as? [String: Any])?["me"] as? [Any])?.count == 2, "\(result.stdoutText)")

        let ics = try await CalgwBinary.run(
            ["free", "--config", pair.config.path, "--from", "2027-03-10", "--to", "2027-03-11", "--ics"],
            environment: ["TZ": "UTC"])
        #expect(
            ics.stdoutText.contains("BEGIN:VFREEBUSY")
                && ics.stdoutText.replacingOccurrences(of: "\r\n ", with: "").contains(
                    "FREEBUSY;FBTYPE=BUSY:20270310T090000Z/20270310T100000Z,20270310T143000Z/20270310T153000Z"),
            "\(ics.stdoutText)")
    }

    /// bob's busy time, asked of the server he shares with alice; someone the server does not
    /// know is named, and does not stop the rest.
    @Test(.enabled(if: !asking.isEmpty, "needs cyrus or davical"), arguments: asking)
    func othersBusyTimeIsAskedOfTheirServer(server name: String) async throws {
        let server = try TestServers.shared(name)
        let bobUser = try #require(server.attendee, "the \(name) script printed no second user")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var bobServer = server
        (bobServer.username, bobServer.password, bobServer.home) = (bobUser.username, bobUser.password, bobUser.home)
        let bob = try ServerPair(
            folder, "bob", server: bobServer, collection: MeetingReplyTests.defaultCalendar(of: bobUser, on: name))
        try Self.event("bobs-\(UUID().uuidString.prefix(6))", "20270310T100000Z", "20270310T110000Z")
            .write(to: bob.vdir.appendingPathComponent("busy.ics"))
        #expect(try await bob.run("sync", password: bobServer.password).status == 0)
        let collection = server.newCollectionURL(prefix: "free")
        try await server.makeCalendar(collection)
        let alice = try ServerPair(folder, "alice", server: server, collection: collection)
        let result = try await alice.run(
            "free",
            [
                "--from", "2027-03-10T09:00Z", "--to", "2027-03-10T12:00Z", "--attendee", bobUser.address,
                "--attendee", "nobody@nowhere.example", "--attendee", bobUser.address, "--json",
            ], password: server.password)
        #expect(result.status == 0, "\(result.stderrText)")
        let json = try Self.json(result)
        let busy = json["busy"] as? [String: [[String: Any]]]
        let bobs =
            busy?.first { $0.key.contains(bobUser.address.replacingOccurrences(of: "mailto:", with: "")) }?.value ?? []
        #expect(bobs.contains { ($0["start"] as? String)?.contains("10:00") == true }, "\(result.stdoutText)")
        #expect(
            !Self.slots(json).contains { $0.contains("T10:00:00") && $0.hasPrefix("2027-03-10T10") },
            "\(result.stdoutText)")
        let unknown = (json["unknown"] as? [[String: Any]]) ?? []
        #expect(unknown.contains { ($0["address"] as? String) == "nobody@nowhere.example" }, "\(result.stdoutText)")
    }

    /// On a server that answers no free-busy request (Radicale and Xandikos have no Outbox;
    /// sabre/dav's stock ACLs refuse one for another user; SOGo), each person is named with
    /// the reason, and the user's own free time is still found.
    @Test(arguments: ["radicale", "xandikos", "sabre", "sogo"].filter(TestServers.runs))
    func aServerThatDoesNotAnswerNamesEachPerson(server name: String) async throws {
        let server = try TestServers.shared(name)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let collection = server.newCollectionURL(prefix: "free")
        try await server.makeCalendar(collection)
        let me = try ServerPair(folder, "me", server: server, collection: collection)
        let result = try await me.run(
            "free",
            ["--from", "2027-03-10T09:00Z", "--to", "2027-03-10T12:00Z", "--attendee", "carol@example.org", "--json"],
            password: server.password)
        #expect(result.status == 0, "\(result.stderrText)")
        let json = try Self.json(result)
        let unknown = (json["unknown"] as? [[String: Any]]) ?? []
        #expect(
            unknown.count == 1 && unknown.first?["address"] as? String == "carol@example.org"
                && !((unknown.first?["reason"] as? String) ?? "").isEmpty, "\(result.stdoutText)")
        #expect(Self.slots(json) == ["2027-03-10T09:00:00Z..2027-03-10T12:00:00Z"], "\(result.stdoutText)")
    }

    /// On an Outlook pair, others' busy time is Graph's getSchedule (the fake answers as the
    /// docs describe): bob's meeting leaves its hour busy; an address Graph has no schedule of
    /// is named with Graph's error.
    @Test func outlookIsAskedThroughGetSchedule() async throws {
        let pair = try await GraphPairTests.CalendarPair(environment: ["TZ": "UTC"])
        defer { pair.remove() }
        try await pair.graph.control(
            "POST", "schedules",
            json: [
                "bob@example.org": [["start": "2027-03-10T10:00:00", "end": "2027-03-10T11:00:00", "status": "busy"]]
            ])
        let result = try await pair.calgw([
            "free", "--from", "2027-03-10T09:00Z", "--to", "2027-03-10T12:00Z", "--attendee", "bob@example.org",
            "--attendee", "nobody@example.org", "--json",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let json = try Self.json(result)
        #expect(
            Self.slots(json) == [
                "2027-03-10T09:00:00Z..2027-03-10T10:00:00Z", "2027-03-10T11:00:00Z..2027-03-10T12:00:00Z",
            ],
            "\(result.stdoutText)")
        let unknown = (json["unknown"] as? [[String: Any]]) ?? []
        #expect(
            unknown.first?["address"] as? String == "nobody@example.org"
                && (unknown.first?["reason"] as? String)?.contains("Unable to resolve e-mail address") == true,
            "\(result.stdoutText)")
    }
}
