import Foundation
import Testing
import CalgwTestSupport

@Suite(.timeLimit(.minutes(10))) struct FmtCommandTests {
    let sloppy =
        "BEGIN:VCALENDAR\nversion:2.0\nBEGIN:VEVENT\nUID:1\nSUMMARY:Lunch, then a walk along the river that is long enough to need folding at 75\nEND:VEVENT\nEND:VCALENDAR\n"

    @Test func rewritesInCanonicalFormAndIsIdempotent() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("a.ics")
        try Data(sloppy.utf8).write(to: file)
        let first = try await CalgwBinary.run(["fmt", file.path])
        #expect(first.status == 0, "\(first.stderrText)")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
        #expect(text.contains("SUMMARY:Lunch\\, then"))
        #expect(text.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 })
        let check = try await CalgwBinary.run(["fmt", "--check", file.path])
        #expect(check.status == 0 && check.stdoutText.isEmpty)
    }

    @Test func checkReportsAndChangesNothing() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("a.ics")
        try Data(sloppy.utf8).write(to: file)
        let result = try await CalgwBinary.run(["fmt", "--check", file.path])
        #expect(result.status == 1)
        #expect(result.stdoutText == file.path + "\n")
        #expect(try Data(contentsOf: file) == Data(sloppy.utf8))
    }

    /// A folder stands for every .ics file under it (a vdir, a folder of vdirs), for `fmt`
    /// and `lint` alike; what is not .ics is left alone.
    @Test func aFolderStandsForItsIcsFiles() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let vdir = folder.file("calendars/work")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        try Data(
            "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:x\nBEGIN:VEVENT\nUID:a\nDTSTAMP:20260101T000000Z\nDTSTART:20260301T100000Z\nSUMMARY:a\nEND:VEVENT\nEND:VCALENDAR\n"
                .utf8
        )
        .write(to: vdir.appendingPathComponent("a.ics"))
        try Data("not a calendar".utf8).write(to: vdir.appendingPathComponent("notes.txt"))
        let check = try await CalgwBinary.run(["fmt", "--check", folder.file("calendars").path])
        #expect(
            check.status == 1 && check.stdoutText.contains("a.ics") && !check.stdoutText.contains("notes"),
            "\(check.stdoutText) \(check.stderrText)")
        let lint = try await CalgwBinary.run(["lint", folder.file("calendars").path])
        #expect(
            !lint.stderrText.contains("Is a directory") && !lint.stdoutText.contains("notes"),
            "\(lint.stdoutText) \(lint.stderrText)")
    }

    /// A shell's `*.ics` of a large vdir: every file is checked and named, in the order given.
    @Test func thousandsOfFilesOnTheCommandLineAreEachChecked() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let files = (0..<2_500).map { folder.file("e\($0).ics") }
        for file in files { try Data(sloppy.utf8).write(to: file) }
        let check = try await CalgwBinary.run(["fmt", "--check"] + files.map(\.path))
        #expect(check.status == 1, "\(check.stderrText)")
        let listed = check.stdoutText.split(separator: "\n").map(String.init)
        #expect(listed.count == files.count && listed.first == files[0].path && listed.last == files.last?.path)
        let fixed = try await CalgwBinary.run(["fmt"] + files.map(\.path) + ["-q"])
        #expect(fixed.status == 0, "\(fixed.stderrText)")
        let again = try await CalgwBinary.run(["fmt", "--check"] + files.map(\.path))
        #expect(again.status == 0 && again.stdoutText.isEmpty, "\(again.stdoutText)")
        // Checked on every core, reported in the order given: each file's lines together.
        let lint = try await CalgwBinary.run(["lint"] + files.reversed().map(\.path))
        var named: [String] = []
        for line in lint.stdoutText.split(separator: "\n") {
            let file = String(line.prefix { $0 != ":" })
            if named.last != file { named.append(file) }
        }
        #expect(named == files.reversed().map(\.path), "\(lint.stdoutText.prefix(500))")
    }

    @Test func neverRewritesAFileItCannotParse() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let broken = folder.file("broken.ics"), good = folder.file("good.ics")
        let brokenText = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY\r\nEND:VEVENT\r\n"
        try Data(brokenText.utf8).write(to: broken)
        try Data(sloppy.utf8).write(to: good)
        let result = try await CalgwBinary.run(["fmt", broken.path, good.path])
        #expect(result.status == 1)
        #expect(result.stderrText.contains("broken.ics: line 3"))
        #expect(try Data(contentsOf: broken) == Data(brokenText.utf8))
        #expect(try Data(contentsOf: good) != Data(sloppy.utf8), "the good file is still formatted")
    }

    @Test func keepsTheFilesPermissions() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("private.ics")
        try Data(sloppy.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        #expect(try await CalgwBinary.run(["fmt", file.path]).status == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(leftovers == ["private.ics"])
    }

    @Test func usageErrorsExitWith2() async throws {
        #expect(try await CalgwBinary.run(["fmt"]).status == 2)
        #expect(try await CalgwBinary.run(["no-such-command"]).status == 2)
        #expect(try await CalgwBinary.run(["--version"]).status == 0)
    }
}

@Suite(.timeLimit(.minutes(10))) struct LintCommandTests {
    @Test func printsFileLineProblemAndExits1OnErrors() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("e.ics")
        try Data(
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260102T100000Z\r\nDTEND:20260102T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
                .utf8
        ).write(to: file)
        let result = try await CalgwBinary.run(["lint", file.path])
        #expect(result.status == 1)
        #expect(
            result.stdoutText == "\(file.path):8: error: DTEND 20260102T090000Z is before DTSTART 20260102T100000Z: "
                + "calgw shows the event from the earlier time to the later, as recurring-ical-events does\n")
    }

    @Test func aMissingFileIsNamedWithoutALineNumber() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let missing = folder.file("nonexistent.ics")
        let result = try await CalgwBinary.run(["lint", missing.path])
        #expect(result.status == 1)
        let said = result.stdoutText + result.stderrText
        #expect(said.contains("\(missing.path): no such file"), "\(said)")
        #expect(!said.contains(":0:") && !said.contains("could not be completed"), "\(said)")
    }

    /// The series checks run too: a change to an older version of a series, left out by
    /// `expand` and `list`, is a warning at its RECURRENCE-ID.
    @Test func aChangeToAnOlderVersionOfASeriesIsNamed() async throws {
        let fixture = TestPaths.fixtures.appendingPathComponent("readings/outdated-overrides.ics")
        let result = try await CalgwBinary.run(["lint", fixture.path])
        #expect(result.status == 0, "\(result.stdoutText)")
        let named = result.stdoutText.split(separator: "\n").filter { $0.contains("older version of the series") }
        #expect(
            named.map { String($0.prefix(fixture.path.count + 13)) } == [
                "\(fixture.path):27: warning:", "\(fixture.path):63: warning:",
            ], "\(result.stdoutText)")
    }

    @Test func everyStructuralErrorOfAFileIsReported() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("broken.ics")
        try Data(
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VEVENT", "UID:1", "DTSTAMP:20260101T000000Z",
                "DTSTART:20260102T100000Z", "this line has no colon", "END:VEVENT", "BEGIN:VEVENT", "UID:2",
                "DTSTART:20260103T100000Z", "END:VTODO", "END:VEVENT", "END:VCALENDAR", "",
            ].joined(separator: "\r\n").utf8
        ).write(to: file)
        let result = try await CalgwBinary.run(["lint", file.path])
        #expect(result.status == 1)
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("\(file.path):8: error:") }, "\(result.stdoutText)")
        #expect(
            lines.contains { $0.hasPrefix("\(file.path):13: error:") && $0.contains("END:VTODO") },
            "\(result.stdoutText)")
    }

    @Test func jsonAndWarningsOnlyExit0() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("w.ics")
        try Data(
            "BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VEVENT\nUID:1\nDTSTART:20260102T100000Z\nEND:VEVENT\nEND:VCALENDAR\n"
                .utf8
        ).write(to: file)
        let result = try await CalgwBinary.run(["lint", "--json", file.path])
        #expect(result.status == 0)
        let problems = try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]]
        #expect(problems?.isEmpty == false)
        #expect(
            problems?.allSatisfy { $0["severity"] as? String == "warning" && $0["file"] as? String == file.path }
                == true)
    }

    @Test func theCorpusLintsWithoutCrashingAndBrokenFilesAreErrors() async throws {
        let files = CorpusFiles.icsFiles()
        #expect(files.count > 100)
        let result = try await CalgwBinary.run(["lint", "--json"] + files.map(\.path))
        #expect(result.status == 1)
        let problems = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
        let errored = Set(problems.filter { $0["severity"] as? String == "error" }.compactMap { $0["file"] as? String })
        #expect(errored.contains { $0.hasSuffix("big_bad_calendar.ics") })
        #expect(errored.contains { $0.hasSuffix("timezone_same_start_and_offset.ics") })
    }
}
