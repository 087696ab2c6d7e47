import CalDAV
import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// Hand-edited vdir files synced with each real server (`TestServers.selected`: Radicale,
/// Xandikos, Cyrus, DAViCal); the server's copies are read by python icalendar, as any other
/// client would read them. Every UID is fresh per server and test (Cyrus refuses a UID used in
/// another calendar of the account), and every event has a DTEND (Cyrus refuses one without).
@Suite(.timeLimit(.minutes(10))) struct HandEditServerTests {
    struct Setup {
        let folder: TemporaryFolder
        let local: VDirStorage
        let remote: CalDAVStorage
        let journal: Journal

        let server: String

        init(_ server: String) async throws {
            self.server = server
            let s = try TestServers.shared(server)
            folder = try TemporaryFolder()
            local = VDirStorage(url: folder.file("vdir"))
            try local.directory.createIfMissing()
            let client = try CalDAVClient(
                configuration: .init(http: .init(authentication: .basic(username: s.username, password: s.password))))
            let url = s.newCollectionURL(prefix: "hand")
            try await client.makeCalendar(url)
            remote = CalDAVStorage(client: client, collection: url)
            journal = try Journal.open(at: folder.file("journal.sqlite"))
        }

        func sync() async throws -> SyncReport {
            try await SyncEngine(local: local, remote: remote, journal: journal).run()
        }

        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: local.directory.url.appendingPathComponent(name))
        }

        func read(_ name: String) throws -> Data {
            try Data(contentsOf: local.directory.url.appendingPathComponent(name))
        }

        /// UID → SUMMARY of every item on the server, as python icalendar reads them.
        func serverSummaries() async throws -> [String: String] {
            let items = try await remote.fetchAll().items
            var out: [String: String] = [:]
            for item in items {
                let script = """
                    import sys, icalendar
                    cal = icalendar.Calendar.from_ical(sys.stdin.buffer.read())
                    for ev in cal.walk('VEVENT'):
                        print(str(ev.get('UID')) + '\\t' + str(ev.get('SUMMARY')))
                    """
                let result = try await ProcessRunner.run("python3", ["-c", script], stdin: item.data)
                #expect(result.status == 0, "icalendar cannot read \(item.href): \(result.stderrText)")
                for line in result.stdoutText.split(separator: "\n") {
                    let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
                    if parts.count == 2 { out[parts[0]] = parts[1] }
                }
            }
            return out
        }
    }

    private static func bareLineFeeds(_ data: Data) -> Int {
        let b = [UInt8](data)
        return b.indices.filter { b[$0] == 0x0A && ($0 == 0 || b[$0 - 1] != 0x0D) }.count
    }

    @Test(arguments: TestServers.selected)
    func testPulledFilesHaveCRLFLineEnds(server: String) async throws {
        let s = try await Setup(server)
        let uid = "crlf-\(UUID().uuidString.lowercased())"
        _ = try await s.remote.create(
            Data(TestEvent.ics(uid: uid, summary: "From the server", end: "20260310T110000Z").utf8), suggestedName: uid)
        let report = try await s.sync()
        #expect(report.errors.isEmpty, "\(report.errors)")
        let names = try s.local.directory.scan().map(\.name)
        #expect(names.count == 1)
        for name in names {
            let data = try s.read(name)
            #expect(Self.bareLineFeeds(data) == 0, "\(name) has bare LFs")
            #expect(String(decoding: data, as: UTF8.self).contains("UID:\(uid)\r\n"))
        }
    }

    @Test(arguments: TestServers.selected)
    func testBrokenHandEditsAreReportedAtTheirLineAndLeftAloneOnBothSides(server: String) async throws {
        let s = try await Setup(server)
        let a = "a-\(UUID().uuidString.lowercased())", b = "b-\(UUID().uuidString.lowercased())"
        let c = "c-\(UUID().uuidString.lowercased())", d = "d-\(UUID().uuidString.lowercased())"
        let e = "e-\(UUID().uuidString.lowercased())"
        try s.write("a.ics", TestEvent.ics(uid: a, summary: "A one", end: "20260310T110000Z"))
        try s.write("b.ics", TestEvent.ics(uid: b, summary: "B one", end: "20260310T110000Z"))
        try s.write("d.ics", TestEvent.ics(uid: d, summary: "D one", end: "20260310T110000Z"))
        var report = try await s.sync()
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(try await s.serverSummaries() == [a: "A one", b: "B one", d: "D one"])

        // a: DTEND before DTSTART (line 8); d: an invalid RRULE (line 9); b: a good edit;
        // c: a new file with a line without a colon (line 9); e: unbalanced BEGIN/END.
        let brokenA = TestEvent.ics(uid: a, summary: "A two", end: "20260310T090000Z")
        let brokenD = TestEvent.ics(uid: d, summary: "D two", end: "20260310T110000Z")
            .replacingOccurrences(of: "SUMMARY:D two", with: "RRULE:FREQ=SOMETIMES\r\nSUMMARY:D two")
        let brokenC = TestEvent.ics(
            uid: c, summary: "C one",
            end: "20260310T110000Z"
        ).replacingOccurrences(of: "SUMMARY:C one", with: "this line has no colon")
        let brokenE = TestEvent.ics(uid: e, summary: "E one", end: "20260310T110000Z").replacingOccurrences(
            of: "END:VEVENT\r\n", with: "")
        try s.write("a.ics", brokenA)
        try s.write("d.ics", brokenD)
        try s.write("c.ics", brokenC)
        try s.write("e.ics", brokenE)
        try s.write("b.ics", TestEvent.ics(uid: b, summary: "B two", end: "20260310T110000Z"))
        report = try await s.sync()

        let vdir = s.local.directory.url.path
        #expect(report.errors.count == 4, "\(report.errors)")
        #expect(
            report.errors.lines.contains {
                $0.hasPrefix("\(vdir)/a.ics:8: DTEND") && $0.contains("before DTSTART") && $0.contains("hint:")
            },
            "\(report.errors)")
        #expect(report.errors.lines.contains { $0.hasPrefix("\(vdir)/d.ics:9: RRULE") }, "\(report.errors)")
        #expect(report.errors.lines.contains { $0.hasPrefix("\(vdir)/c.ics:") }, "\(report.errors)")
        #expect(report.errors.lines.contains { $0.hasPrefix("\(vdir)/e.ics:") }, "\(report.errors)")
        // The rest synced; the broken files' server copies are as they were, the files as written.
        #expect(try await s.serverSummaries() == [a: "A one", b: "B two", d: "D one"])
        #expect(try s.read("a.ics") == Data(brokenA.utf8))
        #expect(try s.read("c.ics") == Data(brokenC.utf8))
        #expect(try s.read("e.ics") == Data(brokenE.utf8))

        // status lists them too, without changing anything.
        let status = try await SyncSession.status(
            journalAt: s.folder.file("journal.sqlite"), local: s.local, remote: s.remote,
            policy: SyncPolicy())
        #expect(status.pending.errors.lines.contains { $0.hasPrefix("\(vdir)/a.ics:8:") }, "\(status.pending.errors)")
        #expect(status.pending.errors.count == 4, "\(status.pending.errors)")

        // Fixed: everything goes up.
        try s.write("a.ics", TestEvent.ics(uid: a, summary: "A two", end: "20260310T110000Z"))
        try s.write(
            "d.ics",
            TestEvent.ics(uid: d, summary: "D two", end: "20260310T110000Z", extra: ["RRULE:FREQ=WEEKLY;COUNT=3"]))
        try s.write("c.ics", TestEvent.ics(uid: c, summary: "C one", end: "20260310T110000Z"))
        try s.write("e.ics", TestEvent.ics(uid: e, summary: "E one", end: "20260310T110000Z"))
        report = try await s.sync()
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(try await s.serverSummaries() == [a: "A two", b: "B two", c: "C one", d: "D two", e: "E one"])
    }

    @Test(arguments: TestServers.selected)
    func testTwoFilesWithOneUIDAreReportedWithBothPathsAndNeitherIsSynced(server: String) async throws {
        let s = try await Setup(server)
        let a = "dup-\(UUID().uuidString.lowercased())"
        try s.write("a.ics", TestEvent.ics(uid: a, summary: "Original", end: "20260310T110000Z"))
        var report = try await s.sync()
        #expect(report.errors.isEmpty, "\(report.errors)")
        let other = "other-\(UUID().uuidString.lowercased())"
        try s.write("a.ics", TestEvent.ics(uid: a, summary: "Edited", end: "20260310T110000Z"))
        try s.write("copy of a.ics", TestEvent.ics(uid: a, summary: "The copy", end: "20260310T110000Z"))
        try s.write("other.ics", TestEvent.ics(uid: other, summary: "Other", end: "20260310T110000Z"))
        report = try await s.sync()
        let vdir = s.local.directory.url.path
        // An error of the run, naming both files; neither goes up, the rest does.
        let line = report.errors.lines.first { $0.contains("UID \(a)") }
        #expect(report.errors.count == 1, "\(report.errors)")
        #expect(line?.contains("\(vdir)/a.ics") == true, "\(report.errors)")
        #expect(line?.contains("\(vdir)/copy of a.ics") == true, "\(report.errors)")
        #expect(report.created.remote == 1, "the rest is synced: \(report)")
        #expect(try await s.serverSummaries() == [a: "Original", other: "Other"])
        #expect(try s.read("a.ics") == Data(TestEvent.ics(uid: a, summary: "Edited", end: "20260310T110000Z").utf8))
        #expect(
            try s.read("copy of a.ics")
                == Data(TestEvent.ics(uid: a, summary: "The copy", end: "20260310T110000Z").utf8))

        // Resolved by giving the copy a UID of its own: both go up, the original's edit too.
        let b = "copy-\(UUID().uuidString.lowercased())"
        try s.write("copy of a.ics", TestEvent.ics(uid: b, summary: "The copy", end: "20260310T110000Z"))
        report = try await s.sync()
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(try await s.serverSummaries() == [a: "Edited", b: "The copy", other: "Other"])
    }

    /// A file whose ORGANIZER holds no calendar address (`lint` rejects it) is not uploaded,
    /// and on a first sync the server's copy of its UID is not pulled over it either: both
    /// stay as they are until the line is fixed, and then nothing of either is lost.
    @Test(arguments: TestServers.selected)
    func testAFileWithoutACalendarAddressIsLeftAloneWithTheServersCopy(server: String) async throws {
        let s = try await Setup(server)
        let uid = "addr-\(UUID().uuidString.lowercased())"
        let theirs = TestEvent.ics(uid: uid, summary: "Theirs", end: "20260310T110000Z")
        _ = try await s.remote.create(Data(theirs.utf8), suggestedName: uid)
        let mine = TestEvent.ics(
            uid: uid, summary: "Mine", end: "20260310T110000Z", extra: ["ORGANIZER:alice@example.com"])
        try s.write("mine.ics", mine)

        var report = try await s.sync()
        #expect(report.errors.count == 1, "\(report)")
        #expect("\(report.errors)".contains("mine.ics:") && "\(report.errors)".contains("CAL-ADDRESS"), "\(report)")
        #expect(report.created.total + report.updated.total + report.deleted.total == 0, "\(report)")
        #expect(try s.read("mine.ics") == Data(mine.utf8))
        #expect(try s.local.directory.scan().map(\.name) == ["mine.ics"])
        #expect(try await s.serverSummaries() == [uid: "Theirs"])

        try s.write("mine.ics", mine.replacingOccurrences(of: "ORGANIZER:alice", with: "ORGANIZER:mailto:alice"))
        report = try await s.sync()
        #expect(report.errors.isEmpty, "\(report)")
        #expect(Set(try await s.serverSummaries().values) == ["Theirs", "Mine"], "\(report)")
    }

    @Test(arguments: TestServers.selected)
    func testEditorLeftoversAreNeverUploaded(server: String) async throws {
        let s = try await Setup(server)
        let uid = "left-\(UUID().uuidString.lowercased())"
        let event = TestEvent.ics(uid: uid, summary: "The real one", end: "20260310T110000Z")
        try s.write("x.ics", event)
        // What editors leave beside a file they edit: Vim's swap file and its write test,
        // backups, Emacs's autosave and its lock (a dangling symlink), temporary files.
        for name in [".x.ics.swp", ".x.ics.swx", "x.ics~", "#x.ics#", "4913", ".x.ics.12345.tmp", "x.ics.tmp"] {
            try s.write(
                name,
                TestEvent.ics(
                    uid: "\(uid)-\(name.filter(\.isLetter))", summary: "leftover \(name)", end: "20260310T110000Z"))
        }
        try FileManager.default.createSymbolicLink(
            atPath: s.local.directory.url.appendingPathComponent(".#x.ics").path,
            withDestinationPath: "person@host.4242:1700000000")
        var report = try await s.sync()
        #expect(report.errors.isEmpty && report.skipped.isEmpty, "\(report)")
        #expect(report.created.remote == 1)
        #expect(try await s.serverSummaries() == [uid: "The real one"])
        #expect(try s.local.directory.scan().map(\.name) == ["x.ics"])

        // The leftovers going away is no deletion either.
        for name in [".x.ics.swp", "x.ics~", "#x.ics#", ".#x.ics"] {
            try FileManager.default.removeItem(at: s.local.directory.url.appendingPathComponent(name))
        }
        report = try await s.sync()
        #expect(report.errors.isEmpty)
        #expect(report.created.total + report.updated.total + report.deleted.total == 0, "\(report)")
        #expect(try await s.serverSummaries() == [uid: "The real one"])
    }

    @Test(arguments: TestServers.selected)
    func testSaveByAtomicRenameIsAModification(server: String) async throws {
        let s = try await Setup(server)
        let uid = "rename-\(UUID().uuidString.lowercased())"
        try s.write("x.ics", TestEvent.ics(uid: uid, summary: "Before", end: "20260310T110000Z"))
        var report = try await s.sync()
        #expect(report.errors.isEmpty, "\(report.errors)")
        let hrefs = try await s.remote.fetchAll().items.map(\.href).sorted()
        #expect(hrefs.count == 1)

        // An editor's save: the new text in a temporary file, renamed over the old one (a new
        // inode under the same name).
        let url = s.local.directory.url.appendingPathComponent("x.ics")
        let inode = try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? UInt64
        let temporary = s.local.directory.url.appendingPathComponent(".x.ics.tmp")
        try Data(TestEvent.ics(uid: uid, summary: "After", end: "20260310T110000Z").utf8).write(to: temporary)
        #expect(rename(temporary.path, url.path) == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? UInt64 != inode)

        report = try await s.sync()
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.updated.remote == 1 && report.created.total == 0 && report.deleted.total == 0, "\(report)")
        #expect(try await s.remote.fetchAll().items.map(\.href).sorted() == hrefs, "the server item kept its href")
        #expect(try await s.serverSummaries() == [uid: "After"])
        let after = TestEvent.ics(uid: uid, summary: "After", end: "20260310T110000Z")
        let kept = String(decoding: try s.read("x.ics"), as: UTF8.self)
        #expect(Self.additions(server).isEmpty ? kept == after : Self.same(kept, after, server: server), "\(kept)")
    }

    /// What the server's facts say it adds to everything it stores (SOGo's `CLASS:PUBLIC`).
    static func additions(_ server: String) -> [String] { ServerFacts.named(server)?.addedProperties ?? [] }

    /// A calendar text's unfolded lines, whatever its line ends.
    static func lines(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n ", with: "")
            .split(separator: "\n").map(String.init)
    }

    /// Whether `kept` is `expected` with what `server` adds, in any order of lines.
    static func same(_ kept: String, _ expected: String, server: String) -> Bool {
        lines(kept).filter { !additions(server).contains($0) }.sorted() == lines(expected).sorted()
    }

    @Test(arguments: TestServers.selected)
    func testSloppyFileIsUploadedCanonicalWhileTheFileStaysAsWritten(server: String) async throws {
        let s = try await Setup(server)
        let uid = "sloppy-\(UUID().uuidString.lowercased())"
        let summary =
            "A very long summary, written by hand in an editor that never folds lines, ending in ünïcode: "
            + String(repeating: "x", count: 60)
        let sloppy =
            "BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VEVENT\nUID:\(uid)\nDTSTART:20260312T100000Z\n"
            + "DTEND:20260312T110000Z\nSUMMARY:\(summary)\nEND:VEVENT\nEND:VCALENDAR\n"
        try s.write("sloppy.ics", sloppy)
        var report = try await s.sync()
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.created.remote == 1)
        // A server that adds to what it stores (SOGo: CLASS:PUBLIC) has its version brought to
        // the file, once; elsewhere the file stays as written. SOGo also stores its own folding,
        // so what went up cannot be read back there.
        let additions = Self.additions(server)
        let kept = try s.read("sloppy.ics")
        if additions.isEmpty {
            #expect(kept == Data(sloppy.utf8), "the file was rewritten")
        } else {
            let text = String(decoding: kept, as: UTF8.self)
            let lines = Self.lines(text)
            // (Its summary as the server spells it: the comma escaped.)
            let summaryLine = "SUMMARY:" + summary.replacingOccurrences(of: ",", with: "\\,")
            #expect(additions.allSatisfy(lines.contains) && lines.contains(summaryLine), "\(text)")
        }

        let items = try await s.remote.fetchAll().items
        #expect(items.count == 1)
        for item in items {
            let lines = item.data.split(separator: 0x0A)
            #expect(!additions.isEmpty || lines.allSatisfy { $0.count <= 76 }, "a line longer than 75 octets went up")
            let script = """
                import sys, icalendar
                cal = icalendar.Calendar.from_ical(sys.stdin.buffer.read())
                ev = cal.walk('VEVENT')[0]
                print('PRODID' in cal, 'DTSTAMP' in ev, str(ev.get('SUMMARY')), sep='\\t')
                """
            let result = try await ProcessRunner.run("python3", ["-c", script], stdin: item.data)
            #expect(result.status == 0, "\(result.stderrText)")
            #expect(result.stdoutText == "True\tTrue\t\(summary)\n", "\(result.stdoutText)")
        }
        report = try await s.sync()
        #expect(report.errors.isEmpty)
        #expect(report.created.total == 0 && report.updated.total == 0, "the second run wrote again")
        #expect(try s.read("sloppy.ics") == kept)
    }

    @Test(arguments: TestServers.selected)
    func testNewFileWithoutUIDGetsOneWrittenBackBeforeUpload(server: String) async throws {
        let s = try await Setup(server)
        let written =
            "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//me//EN\nBEGIN:VEVENT\nDTSTAMP:20260101T000000Z\n"
            + "DTSTART:20260314T100000Z\nDTEND:20260314T110000Z\nSUMMARY:No UID\nBEGIN:VALARM\nACTION:DISPLAY\n"
            + "TRIGGER:-PT5M\nDESCRIPTION:x\nEND:VALARM\nEND:VEVENT\nEND:VCALENDAR\n"
        try s.write("nouid.ics", written)
        // A dry run writes nothing.
        _ = try await SyncEngine(local: s.local, remote: s.remote, journal: s.journal).run(dryRun: true)
        #expect(try s.read("nouid.ics") == Data(written.utf8))

        var report = try await s.sync()
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.created.remote == 1)
        let now = String(decoding: try s.read("nouid.ics"), as: UTF8.self)
        let uidLines = Self.lines(now).filter { $0.hasPrefix("UID:") }
        #expect(uidLines.count == 1, "\(now)")
        let uid = String(uidLines.first?.dropFirst(4) ?? "")
        #expect(!uid.isEmpty)
        // Only the UID line was added, right after BEGIN:VEVENT, with the file's LF endings.
        // (A server that adds to what it stores has its version brought to the file instead.)
        let expected = written.replacingOccurrences(of: "BEGIN:VEVENT\n", with: "BEGIN:VEVENT\nUID:\(uid)\n")
        #expect(Self.additions(server).isEmpty ? now == expected : Self.same(now, expected, server: server), "\(now)")
        #expect(try await s.serverSummaries() == [uid: "No UID"])

        report = try await s.sync()
        #expect(report.errors.isEmpty)
        #expect(report.created.total == 0 && report.updated.total == 0, "\(report)")
        #expect(try await s.serverSummaries() == [uid: "No UID"])
    }
}
