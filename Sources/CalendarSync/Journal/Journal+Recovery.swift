import Foundation
import GRDB

extension Journal {
    /// Opens the journal at `url`; one that is not a database, or that SQLite finds damaged
    /// (overwritten, truncated), is moved aside and a new one started, as if the journal were
    /// missing: the run then matches both sides by UID and content, and nothing is lost.
    ///
    /// The damaged file is kept as `<name>.sqlite.corrupt-<UTC time>` (its `-wal` file beside
    /// it), for a look at what happened.
    ///
    /// - Parameter dryRun: read a copy (``snapshot(at:)``), and for a damaged file leave it
    ///   where it is and start from an empty journal in memory (for `--dry-run` and `status`,
    ///   which change nothing).
    /// - Returns: the journal, and one line saying what was done about a damaged file (nil when
    ///   the file was sound).
    /// - Throws: `JournalError.storage` when the file cannot be read or moved aside, `.newerVersion`.
    static func openRecovering(at url: URL, dryRun: Bool = false, now: Date = Date()) throws -> (Journal, String?) {
        do {
            return (dryRun ? try snapshot(at: url) : try open(at: url), nil)
        } catch let error as JournalError where error.code == .corrupt {
            if dryRun {
                return (try inMemory(), "\(error.message); a sync will move it aside and match both sides again")
            }
            let moved = try moveAside(url, now: now)
            return (try open(at: url), "\(error.message); moved it aside to \(moved.path) and matched both sides again")
        }
    }

    /// Renames a damaged journal to `<name>.corrupt-<UTC time>` (and its `-wal` file alike; the
    /// `-shm` index is removed, SQLite rebuilds it).
    /// - Returns: where the file went.
    static func moveAside(_ url: URL, now: Date = Date()) throws -> URL {
        let stamp = iso8601(now).filter { $0 != "-" && $0 != ":" }
        var target = URL(fileURLWithPath: url.path + ".corrupt-" + stamp)
        var n = 2
        while FileManager.default.fileExists(atPath: target.path) {
            target = URL(fileURLWithPath: url.path + ".corrupt-\(stamp)-\(n)")
            n += 1
        }
        guard rename(url.path, target.path) == 0 else {
            throw JournalError(
                .storage, "cannot move the damaged journal \(url.path) aside: \(String(cString: strerror(errno)))",
                recovery: "move it away by hand; the next sync matches both sides again")
        }
        if rename(url.path + "-wal", target.path + "-wal") != 0 && errno != ENOENT {
            unlink(url.path + "-wal")
        }
        unlink(url.path + "-shm")
        return target
    }
}

extension JournalError {
    /// SQLite's verdict on a damaged journal file as a `corrupt` error.
    static func damaged(_ url: URL?, _ error: DatabaseError) -> JournalError {
        let path = url?.path ?? "in memory"
        let what =
            error.resultCode == .SQLITE_NOTADB ? "is not a database" : "is damaged (\(error.message ?? "\(error)"))"
        return JournalError(
            .corrupt, "the journal \(path) \(what)",
            recovery: "run calgw sync: it moves the journal aside and matches both sides again")
    }
}
