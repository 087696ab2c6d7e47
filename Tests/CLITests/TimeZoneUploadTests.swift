import Foundation
import Testing
import CalgwTestSupport
import CalgwTestTraits

/// vdir files that name a zone in TZID without a VTIMEZONE (as `event add --tz` writes them,
/// and Outlook with Windows names) go up to Radicale complete: the server copy has the IANA
/// name and a VTIMEZONE, the file keeps its bytes, and later runs find nothing to do.
@Suite(.serialized, .timeLimit(.minutes(10))) struct TimeZoneUploadTests {
    static func zoned(_ uid: String, tzid: String) -> Data {
        Data(
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//calgw//tests//EN", "BEGIN:VEVENT", "UID:\(uid)",
                "DTSTAMP:20260101T000000Z", "DTSTART;TZID=\(tzid):20260710T100000",
                "DTEND;TZID=\(tzid):20260710T110000",
                "RRULE:FREQ=WEEKLY;COUNT=4", "EXDATE;TZID=\(tzid):20260717T100000",
                "SUMMARY:zoned", "END:VEVENT", "END:VCALENDAR", "",
            ].joined(separator: "\r\n").utf8)
    }

    func counts(_ result: ProcessRunner.Result) throws -> [String: [String: Int]] {
        let json = try #require(
            try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(result.stdoutText)")
        #expect((json["conflicts"] as? [Any])?.isEmpty == true, "\(result.stdoutText)")
        #expect((json["errors"] as? [Any])?.isEmpty == true, "\(result.stdoutText)")
        var out: [String: [String: Int]] = [:]
        for key in ["created", "updated", "deleted"] { out[key] = json[key] as? [String: Int] }
        return out
    }

    static let nothing = [
        "created": ["local": 0, "remote": 0], "updated": ["local": 0, "remote": 0],
        "deleted": ["local": 0, "remote": 0],
    ]

    @Test func windowsAndIANANamesWithoutAVTimeZoneAreUploadedComplete() async throws {
        let server = try TestServers.shared(TestServers.any())
        let collection = server.newCollectionURL(prefix: "tz")
        let auth = "\(server.username):\(server.password)"
        try await server.makeCalendar(collection)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = try ServerPair(folder, "tz", server: server, collection: collection)
        let id = UUID().uuidString.prefix(8).lowercased()
        let windows = Self.zoned("win-\(id)", tzid: "W. Europe Standard Time"),
            iana = Self.zoned("iana-\(id)", tzid: "Europe/Berlin")
        let windowsFile = pair.vdir.appendingPathComponent("win.ics"),
            ianaFile = pair.vdir.appendingPathComponent("iana.ics")
        try windows.write(to: windowsFile)
        try iana.write(to: ianaFile)

        let lint = try await CalgwBinary.run(["lint", windowsFile.path, ianaFile.path])
        #expect(lint.status == 0, "\(lint.stdoutText)\(lint.stderrText)")
        #expect(
            lint.stdoutText.contains(
                "\(windowsFile.path):7: warning: TZID \"W. Europe Standard Time\" has no VTIMEZONE"),
            "\(lint.stdoutText)")
        #expect(
            lint.stdoutText.contains("\(ianaFile.path):7: warning: TZID \"Europe/Berlin\" has no VTIMEZONE"),
            "\(lint.stdoutText)")

        let first = try await pair.run("sync", ["--json"], password: server.password)
        #expect(first.status == 0, "\(first.stdoutText)\(first.stderrText)")
        #expect(try counts(first)["created"] == ["local": 0, "remote": 2])

        // The server copies: IANA names, each with its VTIMEZONE.
        let listing = try await ProcessRunner.run(
            "curl", ["-s", "-u", auth, "-X", "PROPFIND", "-H", "Depth: 1", collection.absoluteString])
        let hrefs = listing.stdoutText.components(separatedBy: "<").compactMap { part -> String? in
            guard let close = part.firstIndex(of: ">"), part[..<close].hasSuffix("href") else { return nil }
            let href = String(part[part.index(after: close)...])
            return href.hasSuffix(".ics") ? href : nil
        }
        #expect(hrefs.count == 2, "\(listing.stdoutText)")
        for href in hrefs {
            let url = URL(string: href, relativeTo: collection)!.absoluteURL
            let copy = try await ProcessRunner.run("curl", ["-s", "-u", auth, url.absoluteString]).stdoutText
                .replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n ", with: "")
            #expect(copy.contains("BEGIN:VTIMEZONE\nTZID:Europe/Berlin\n"), "\(copy)")
            #expect(
                copy.contains("DTSTART;TZID=Europe/Berlin:20260710T100000")
                    && copy.contains("EXDATE;TZID=Europe/Berlin:20260717T100000"), "\(copy)")
            #expect(copy.contains("BYMONTH=10;BYDAY=-1SU") && copy.contains("TZOFFSETTO:+0200"), "\(copy)")
            #expect(!copy.contains("Standard Time"), "\(copy)")
        }
        // The files keep their bytes.
        #expect(try Data(contentsOf: windowsFile) == windows)
        #expect(try Data(contentsOf: ianaFile) == iana)

        // Nothing to do next time; nor after the files are touched, nor with the journal lost
        // (both copies are then compared by content).
        let second = try await pair.run("sync", ["--json"], password: server.password)
        #expect(second.status == 0, "\(second.stderrText)")
        #expect(try counts(second) == Self.nothing, "\(second.stdoutText)")
        let later = Date().addingTimeInterval(5)
        for file in [windowsFile, ianaFile] {
            try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: file.path)
        }
        let touched = try await pair.run("sync", ["--json"], password: server.password)
        #expect(touched.status == 0, "\(touched.stderrText)")
        #expect(try counts(touched) == Self.nothing, "\(touched.stdoutText)")
        try FileManager.default.removeItem(at: folder.file("tz.sqlite"))
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(at: folder.file("tz.sqlite" + suffix)) }
        let fresh = try await pair.run("sync", ["--json"], password: server.password)
        #expect(fresh.status == 0, "\(fresh.stderrText)")
        #expect(try counts(fresh) == Self.nothing, "\(fresh.stdoutText)")
        #expect(try Data(contentsOf: windowsFile) == windows)
        #expect(try Data(contentsOf: ianaFile) == iana)
    }

    /// A custom TZID calgw cannot define goes as written; Radicale refuses the series with 400,
    /// and the run names the file, the status and the server's answer once: the file stays as
    /// it is, and is not sent again until it changes.
    @Test(.needsServer("radicale")) func aZoneNobodyKnowsIsRefusedWithTheServersAnswer() async throws {
        let server = try TestServers.shared("radicale")
        let collection = server.newCollectionURL(prefix: "tzbad")
        try await server.makeCalendar(collection)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pair = try ServerPair(folder, "tzbad", server: server, collection: collection)
        let id = UUID().uuidString.prefix(8).lowercased()
        let unknown = Self.zoned("nowhere-\(id)", tzid: "Nowhere Standard")
        try unknown.write(to: pair.vdir.appendingPathComponent("nowhere.ics"))
        let run = try await pair.run("sync", password: server.password)
        let said = run.stdoutText + run.stderrText
        #expect(run.status == 0 && said.contains("the server refused it (400: Bad Request"), "\(said)")
        #expect(try Data(contentsOf: pair.vdir.appendingPathComponent("nowhere.ics")) == unknown)
        let again = try await pair.run("sync", password: server.password)
        #expect(again.status == 0 && !(again.stdoutText + again.stderrText).contains("refused"), "\(again.stderrText)")
    }
}
