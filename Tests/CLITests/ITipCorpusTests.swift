import CalgwTestSupport
import Foundation
import Testing

/// Every real invitation in Fixtures/itip (Outlook, Teams, Gmail, Google Meet, Thunderbird,
/// RFC 6047's own: see its README) piped to `calgw itip` as its attendee's mail program would,
/// then listed by `calgw invitations`: the listing names the UID and the start that Python's
/// email package and icalendar read in the mail (Scripts/oracles/mail.py), and the invitation
/// reaches the server. What servers refuse is mended on the way in and said (Thunderbird's both
/// DTEND and DURATION; RFC 5546's ATTENDEE without a scheme); RFC 6047 §2.5's example, whose
/// quoted-printable garbles a parameter name as the RFC prints it, is refused with nothing written.
@Suite(.timeLimit(.minutes(10))) struct ITipCorpusTests {
    static let radicale = TestServers.selected.filter { $0 == "radicale" }

    struct Reading: Decodable {
        var error: String?
        var to: [String]?
        var from: String?
        var uid: String?
        var objectMethod: String?
        var calendars: [Calendar]?
        var chosen: Int?
        var dtstart: String?
        var instant: Int64?
        var attendees: [String]?
        var organizer: String?
        struct Calendar: Decodable { var method: String? }
    }

    struct Request: Encodable { var files: [String] }

    struct Row: Decodable {
        var uid: String
        var start: String?
        /// The start as seconds since the epoch, where it has an offset.
        var instant: Int64? {
            start.flatMap { ISO8601DateFormatter().date(from: $0) }.map { Int64($0.timeIntervalSince1970) }
        }
    }

    /// Mails whose calendar part is broken as its source prints it.
    static let garbled: Set<String> = ["rfc6047-2.5-request.eml"]

    @Test(.enabled(if: !radicale.isEmpty, "needs radicale, which CALGW_TEST_SERVERS leaves out"), arguments: radicale)
    func everyInvitationInTheCorpusIsListedAsPythonReadsIt(server name: String) async throws {
        let server = try TestServers.shared(name)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let corpus = TestPaths.fixtures.appendingPathComponent("itip")
        let files = try FileManager.default.contentsOfDirectory(atPath: corpus.path)
            .filter { $0.hasSuffix(".eml") || $0.hasSuffix(".ics") }.sorted()
            .map { corpus.appendingPathComponent($0) }
        let readings = try await ProcessRunner.python(
            TestPaths.packageRoot.appendingPathComponent("Scripts/oracles/mail.py"),
            input: Request(files: files.map(\.path)), as: [Reading].self)
        try #require(readings.count == files.count)

        var listed = 0
        for (index, (file, python)) in zip(files, readings).enumerated() {
            let name = file.lastPathComponent
            #expect(python.error == nil, "python could not read \(name): \(python.error ?? "")")
            // An invitation: a REQUEST (by the object's METHOD, else the part's method=) naming attendees.
            let method = python.objectMethod ?? python.chosen.flatMap { python.calendars?[$0].method }
            let attendees = python.attendees ?? []
            guard method == "REQUEST", let uid = python.uid, !attendees.isEmpty else { continue }
            // The person it reached: an addressee the meeting invites, else an attendee but the organizer.
            let me =
                (python.to ?? []).map { $0.lowercased() }.first(where: attendees.contains)
                ?? attendees.first { $0 != python.organizer } ?? attendees[0]

            let collection = server.newCollectionURL(prefix: "corpus")
            try await server.makeCalendar(collection)
            let pair = try ServerPair(
                folder, "p\(index)", server: server, collection: collection, extra: ["addresses = [\"mailto:\(me)\"]"])
            let taken = try await CalgwBinary.run(
                ["itip", "--config", pair.config.path, file.path],
                environment: ["CALGW_TEST_PASSWORD": server.password, "TZ": "UTC"])
            if Self.garbled.contains(name) {
                #expect(
                    taken.status == 1 && taken.stdoutText.contains("servers refuse it"),
                    "\(name): \(taken.stdoutText) \(taken.stderrText)")
                let written = try FileManager.default.contentsOfDirectory(atPath: pair.vdir.path)
                #expect(!written.contains { $0.hasSuffix(".ics") }, "\(name): \(written)")
                continue
            }
            #expect(taken.status == 0, "\(name): \(taken.stdoutText) \(taken.stderrText)")
            #expect(taken.stdoutText.hasPrefix("added"), "\(name): \(taken.stdoutText)")
            #expect(!taken.stderrText.contains("server does not have"), "\(name): \(taken.stderrText)")

            let result = try await CalgwBinary.run(
                ["invitations", "--json", "--config", pair.config.path],
                environment: ["CALGW_TEST_PASSWORD": server.password, "TZ": "UTC"])
            #expect(result.status == 0, "\(name): \(result.stderrText)")
            let rows = (try? JSONDecoder().decode([Row].self, from: result.stdout)) ?? []
            let row = rows.first { $0.uid == uid }
            #expect(row != nil, "\(name): \(uid) is not listed: \(result.stdoutText) \(result.stderrText)")
            if let instant = python.instant {
                #expect(
                    rows.contains { $0.uid == uid && $0.instant == instant },
                    "\(name): icalendar reads \(python.dtstart ?? "") as \(instant); calgw lists \(rows.compactMap(\.start))"
                )
            } else {
                // A floating time: the same wall-clock time, in the listing's RFC 3339 form.
                let wall = python.dtstart.map { text in
                    text.count >= 15
                        ? "\(text.prefix(4))-\(text.dropFirst(4).prefix(2))-\(text.dropFirst(6).prefix(2))T"
                            + "\(text.dropFirst(9).prefix(2)):\(text.dropFirst(11).prefix(2)):\(text.dropFirst(13).prefix(2))"
                        : "\(text.prefix(4))-\(text.dropFirst(4).prefix(2))-\(text.dropFirst(6).prefix(2))"
                }
                #expect(
                    rows.contains { $0.uid == uid && $0.start?.hasPrefix(wall ?? "?") == true },
                    "\(name): icalendar reads \(python.dtstart ?? ""); calgw lists \(rows.compactMap(\.start))")
            }
            // On the server too: a pull into a second vdir brings the same meeting.
            let second = try ServerPair(folder, "p\(index)b", server: server, collection: collection)
            #expect(try await second.run("pull", password: server.password).status == 0)
            #expect((try? second.file(uid: uid)) != nil, "\(name): not on the server: \(taken.stdoutText)")
            listed += 1
        }
        // Outlook, Teams, Gmail, Google Meet, RFC 6047 and Thunderbird's series and updates.
        #expect(listed >= 12, "only \(listed) invitations in the corpus")
    }
}
