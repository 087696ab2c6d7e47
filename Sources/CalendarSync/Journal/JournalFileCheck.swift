import Foundation
import GRDB

/// Tells a damaged journal file from a sound one without slowing down every run: the 100-byte
/// SQLite header is read on each open (one `pread`), and SQLite's `PRAGMA quick_check` runs
/// only when that header looks wrong or SQLite fails to open the file.
///
/// A file that fails only for reasons outside it (permissions, a full disk, a lock) is never
/// called damaged: only SQLite's own verdicts (`SQLITE_NOTADB`, `SQLITE_CORRUPT`, a
/// `quick_check` finding) are.
enum JournalFileCheck {
    /// What the header says.
    enum Header: Equatable {
        /// Missing or empty: a new journal.
        case empty
        /// A SQLite header whose page size and page count fit the file's size.
        case sound
        /// No SQLite header: something else overwrote the file, or it never was a database.
        case notSQLite
        /// A SQLite header that does not fit the file (a truncated or partly overwritten file).
        case suspect(String)
    }

    /// Reads the file's header and compares it with the file's size.
    static func header(at url: URL) -> Header {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .empty }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0 else { return .empty }
        var bytes = [UInt8](repeating: 0, count: 100)
        let n = pread(fd, &bytes, 100, 0)
        return judge(header: Array(bytes.prefix(max(0, n))), fileSize: Int64(info.st_size))
    }

    /// The verdict on a header (the file's first 100 bytes, fewer if it is shorter) and the file's size.
    static func judge(header bytes: [UInt8], fileSize: Int64) -> Header {
        guard fileSize > 0 else { return .empty }
        guard bytes.count == 100, bytes.starts(with: Array("SQLite format 3\0".utf8)) else {
            return .notSQLite
        }
        func be32(_ at: Int) -> Int64 { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int64($1) } }
        let rawPageSize = Int64(bytes[16]) << 8 | Int64(bytes[17])
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else {
            return .suspect("its header names no valid page size")
        }
        guard fileSize % pageSize == 0 else { return .suspect("it ends in the middle of a page") }
        // The page count is valid when its "version valid for" matches the change counter.
        if be32(92) == be32(24), be32(28) * pageSize > fileSize {
            return .suspect("it holds fewer pages than its header says")
        }
        return .sound
    }

    /// Asks SQLite whether the file is damaged.
    /// - Returns: why it is damaged, or nil when SQLite finds nothing wrong.
    /// - Throws: errors that say nothing about the file's content (it cannot be read, say).
    static func damage(at url: URL) throws -> String? {
        do {
            let queue = try DatabaseQueue(path: url.path)
            let findings = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
            try queue.close()
            return findings == ["ok"] ? nil : findings.prefix(3).joined(separator: "; ")
        } catch let error as DatabaseError where isDamage(error) {
            return error.message ?? "\(error)"
        }
    }

    /// True for SQLite's verdicts on a file's content, as opposed to failures to reach it.
    static func isDamage(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT
    }
}
