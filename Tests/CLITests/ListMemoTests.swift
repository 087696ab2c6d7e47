import CalgwTestSupport
import Foundation
import Testing

/// `list` prints again what it printed for the same request when no file it lists changed
/// since (`ListingMemo`), and reads the files again the moment one did: every answer is
/// compared with a full expansion (`CALGW_LIST_INDEX=off`), whether the memo served it or
/// not. `ListIndexConsistencyTests` repeats listings through random changes as well.
@Suite struct ListMemoTests {
    /// A vdir of weekly series and single events in early 2026, its cache folder, and how to list it.
    struct Calendar {
        let folder: TemporaryFolder
        var vdir: URL { folder.file("vdir") }
        var environment: [String: String] { ["XDG_CACHE_HOME": folder.file("cache").path] }
        var memos: URL { folder.file("cache/calgw/memo") }

        init() throws {
            folder = try TemporaryFolder()
            try FileManager.default.createDirectory(at: folder.file("vdir"), withIntermediateDirectories: true)
            for k in 0..<30 {
                let day = String(format: "%02d", k % 28 + 1)
                let extra = k % 3 == 0 ? ["RRULE:FREQ=WEEKLY;COUNT=\(k + 2)"] : []
                try write(
                    TestEvent.ics(
                        uid: "event-\(k)", summary: "Event \(k)", start: "202601\(day)T0\(k % 10)0000Z", extra: extra),
                    to: "event-\(k).ics")
            }
        }

        func write(_ text: String, to name: String) throws {
            try Data(text.utf8).write(to: vdir.appendingPathComponent(name))
        }

        /// `list` of the vdir over `window` with `options`, with `-v`; whether the memo served it;
        /// and the same listing without an index (so without a memo).
        func list(_ window: [String], _ options: [String] = []) async throws
            -> (listed: ProcessRunner.Result, recalled: Bool, full: ProcessRunner.Result)
        {
            let arguments = ["list", "--local", vdir.path] + window + options
            let listed = try await CalgwBinary.run(arguments + ["-v"], environment: environment)
            let full = try await CalgwBinary.run(
                arguments, environment: environment.merging(["CALGW_LIST_INDEX": "off"]) { $1 })
            let recalled = listed.stderrText.contains("no file changed: printed as kept in")
            #expect(listed.status == full.status, "\(arguments)\n\(listed.stderrText)")
            #expect(listed.stdoutText == full.stdoutText, "\(arguments)")
            let said = listed.stderrText.split(separator: "\n").filter {
                !$0.contains("passed over by the index") && !$0.hasSuffix(" occurrences")
                    && !$0.contains("no file changed")
            }
            #expect(said.joined(separator: "\n") == full.stderrText.trimmingCharacters(in: .newlines), "\(arguments)")
            return (listed, recalled, full)
        }
    }

    static let january = ["--from", "2026-01-01", "--to", "2026-02-01"]

    @Test func theSameListingOfUnchangedFilesIsPrintedAgainAndAChangeIsReadAtOnce() async throws {
        let calendar = try Calendar()
        defer { calendar.folder.remove() }
        // Files changed within the racy margin of a listing are read again by the next: older ones are vouched for.
        try await Task.sleep(for: .seconds(2.1))
        let first = try await calendar.list(Self.january)
        #expect(!first.recalled)
        #expect(first.listed.stdoutText.contains("Event 0"))
        let again = try await calendar.list(Self.january)
        #expect(again.recalled, "\(again.listed.stderrText)")
        // Another form, zone or window is another request, kept apart.
        #expect(try await !calendar.list(Self.january, ["--json"]).recalled)
        #expect(try await calendar.list(Self.january, ["--json"]).recalled)
        #expect(try await !calendar.list(Self.january, ["--tz", "Asia/Kathmandu"]).recalled)
        #expect(try await calendar.list(Self.january).recalled)

        // A file edited: read again at once, the memo not recalled, and the edit shown.
        try calendar.write(
            TestEvent.ics(uid: "event-1", summary: "Moved", start: "20260115T120000Z"), to: "event-1.ics")
        let edited = try await calendar.list(Self.january)
        #expect(!edited.recalled)
        #expect(edited.listed.stdoutText.contains("Moved"))
        // Within the racy margin of the edit the file is read every time.
        #expect(try await !calendar.list(Self.january).recalled)

        // A file added, and one that cannot be read: the problem is said again when recalled.
        try calendar.write("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:broken\r\nEND:VCALENDAR\r\n", to: "broken.ics")
        try await Task.sleep(for: .seconds(2.1))
        let broken = try await calendar.list(Self.january)
        #expect(!broken.recalled)
        #expect(broken.listed.status != 0)
        let brokenAgain = try await calendar.list(Self.january)
        #expect(brokenAgain.recalled)
        #expect(brokenAgain.listed.stderrText.contains("broken.ics"))

        // A file removed is seen too.
        try FileManager.default.removeItem(at: calendar.vdir.appendingPathComponent("broken.ics"))
        let removed = try await calendar.list(Self.january)
        #expect(!removed.recalled)
        #expect(removed.listed.status == 0)
    }

    @Test func aTornMemoIsNotRecalledAndOnlyTheNewestAreKept() async throws {
        let calendar = try Calendar()
        defer { calendar.folder.remove() }
        try await Task.sleep(for: .seconds(2.1))
        _ = try await calendar.list(Self.january)
        let memos = try FileManager.default.contentsOfDirectory(at: calendar.memos, includingPropertiesForKeys: nil)
        #expect(memos.count == 1)
        // Cut short, or one byte changed: not recalled, and kept again whole.
        let whole = try Data(contentsOf: memos[0])
        try whole.prefix(whole.count - 5).write(to: memos[0])
        #expect(try await !calendar.list(Self.january).recalled)
        var flipped = try Data(contentsOf: memos[0])
        #expect(flipped == whole)
        flipped[flipped.count / 2] ^= 0x20
        try flipped.write(to: memos[0])
        #expect(try await !calendar.list(Self.january).recalled)
        #expect(try await calendar.list(Self.january).recalled)
        // Twelve windows listed: the eight newest memos are kept.
        for day in 1...12 {
            let from = String(format: "2026-01-%02d", day)
            _ = try await calendar.list(["--from", from, "--to", "2026-02-01"])
        }
        let kept = try FileManager.default.contentsOfDirectory(atPath: calendar.memos.path).filter {
            $0.hasSuffix(".memo")
        }
        #expect(kept.count == 8)
        #expect(try await calendar.list(["--from", "2026-01-12", "--to", "2026-02-01"]).recalled)
    }
}
