import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// A journal file that is not a database, or that was cut short, is moved aside and replaced
/// by a new one; a sound journal, or one that cannot be reached, is never called damaged.
@Suite struct JournalRecoveryTests {
    func item(_ key: String) -> JournalItem {
        JournalItem(
            key: ItemKey(key), local: SideRecord(href: "\(key).ics", etag: "l", hash: ContentHash("h")),
            remote: SideRecord(href: "/cal/\(key).ics", etag: "r", hash: ContentHash("h")))
    }

    /// A journal of `count` items with 1 KiB bases (several dozen pages), closed.
    func writeJournal(at url: URL, count: Int = 200) throws {
        let journal = try Journal.open(at: url)
        for i in 0..<count { try journal.apply(.upsert(item("k\(i)"), base: Data(repeating: 65, count: 1024))) }
    }

    func corruptError(_ body: () throws -> Void) -> JournalError? {
        do { try body() } catch let error as JournalError { return error } catch { return nil }
        return nil
    }

    @Test func garbageIsMovedAsideAndANewJournalStarts() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("work.sqlite")
        let garbage = Data((0..<9000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: url)
        let error = corruptError { _ = try Journal.open(at: url) }
        #expect(error?.code == .corrupt, "\(String(describing: error))")
        #expect(error?.message == "the journal \(url.path) is not a database", "\(String(describing: error?.message))")

        let now = Date(timeIntervalSince1970: 1_795_601_700)  // 2026-11-25T10:15:00Z
        let (journal, notice) = try Journal.openRecovering(at: url, now: now)
        let moved = folder.file("work.sqlite.corrupt-20261125T101500Z")
        #expect(try Data(contentsOf: moved) == garbage)
        #expect(try journal.isEmpty())
        #expect(notice?.contains("moved it aside to \(moved.path)") == true, "\(notice ?? "nil")")
        #expect(notice?.contains("matched both sides again") == true)
        try journal.apply(.upsert(item("a"), base: nil))
        #expect(try Journal.open(at: url).items().map(\.key) == [ItemKey("a")])
    }

    @Test func aJournalCutMidPageIsMovedAside() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("work.sqlite")
        try writeJournal(at: url)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        #expect(size > 16 * 4096, "the journal is too small to be cut: \(size)")
        #expect(truncate(url.path, off_t(size / 2 + 1000)) == 0)
        #expect(JournalFileCheck.header(at: url) != .sound)
        let error = corruptError { _ = try Journal.open(at: url) }
        #expect(error?.code == .corrupt, "\(String(describing: error))")

        let (journal, notice) = try Journal.openRecovering(at: url)
        #expect(notice != nil)
        #expect(try journal.isEmpty())
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter {
            $0.hasPrefix("work.sqlite.corrupt-")
        }
        #expect(aside.count == 1, "\(aside)")
    }

    @Test func aDryRunLeavesTheDamagedFileWhereItIs() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("work.sqlite")
        try Data("not a database at all, not even close to one; just some words in a file".utf8).write(to: url)
        let (journal, notice) = try Journal.openRecovering(at: url, dryRun: true)
        #expect(journal.url == nil)
        #expect(notice?.contains("a sync will move it aside") == true, "\(notice ?? "nil")")
        #expect(try String(contentsOf: url, encoding: .utf8).hasPrefix("not a database"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains("corrupt") }
                .isEmpty)
    }

    @Test func aSoundJournalIsKept() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("work.sqlite")
        try writeJournal(at: url)
        #expect(JournalFileCheck.header(at: url) == .sound)
        let (journal, notice) = try Journal.openRecovering(at: url)
        #expect(notice == nil)
        #expect(try journal.items().count == 200)
    }

    @Test func aJournalThatCannotBeOpenedIsNotCalledDamaged() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A folder where the file should be: SQLite cannot open it, but that says nothing of a journal's content.
        let url = folder.file("work.sqlite")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let error = corruptError { _ = try Journal.openRecovering(at: url) }
        #expect(error?.code == .storage, "\(String(describing: error))")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue)
    }

    @Test func headerVerdicts() {
        var header = [UInt8]("SQLite format 3\0".utf8) + [UInt8](repeating: 0, count: 84)
        header[16] = 0x10; header[17] = 0x00  // 4096-byte pages
        header[27] = 1; header[95] = 1  // change counter 1, valid for 1
        header[31] = 3  // 3 pages
        #expect(JournalFileCheck.judge(header: header, fileSize: 3 * 4096) == .sound)
        #expect(JournalFileCheck.judge(header: header, fileSize: 0) == .empty)
        #expect(
            JournalFileCheck.judge(header: header, fileSize: 3 * 4096 - 100)
                == .suspect("it ends in the middle of a page"))
        #expect(
            JournalFileCheck.judge(header: header, fileSize: 2 * 4096)
                == .suspect("it holds fewer pages than its header says"))
        #expect(JournalFileCheck.judge(header: Array(header.prefix(40)), fileSize: 40) == .notSQLite)
        var garbage = header
        garbage[0] = 0x00
        #expect(JournalFileCheck.judge(header: garbage, fileSize: 3 * 4096) == .notSQLite)
        var badPageSize = header
        badPageSize[17] = 0x01
        #expect(
            JournalFileCheck.judge(header: badPageSize, fileSize: 3 * 4096)
                == .suspect("its header names no valid page size"))
    }
}
