import Foundation
import GRDB
import Synchronization

/// A pair's memory between runs, in SQLite: what each item looked like on both sides at the
/// last sync (with the content as merge base), each side's change token and metadata, and
/// the intent log of writes in flight.
///
/// One file per pair, WAL mode, mode 0600. Writes are short transactions; no network or disk
/// write ever happens inside one.
///
/// Opening a journal and writing to it belong to the library's runs (``PairRun``); what is
/// public reads it.
///
/// ## Topics
/// - ``url`` ``summary(at:)``
/// - ``items()`` ``items(keys:)`` ``items(hrefs:on:)`` ``itemCount()`` ``isEmpty()`` ``base(for:)``
/// - ``versions(_:)`` ``forEachVersion(_:_:)``
/// - ``collection(_:)`` ``lastSync()`` ``pendingIntents()``
/// - ``hasOutsideItems()`` ``outsideItems(_:)``
public final class Journal: Sendable {
    let writer: any DatabaseWriter
    /// The journal's file; nil for one in memory.
    public let url: URL?
    /// What goes away with the journal (the folder of a snapshot's copy).
    private let scratch: ScratchFolder?
    /// True between `beginBulkLoad()` and `endBulkLoad()`: item rows are appended, not upserted.
    let bulkLoading = Mutex(false)
    /// The packs of merge bases read (``BasePack``).
    let packs = Mutex(PackCache())

    init(writer: any DatabaseWriter, url: URL?, scratch: ScratchFolder? = nil) throws {
        self.writer = writer
        self.url = url
        self.scratch = scratch
        do {
            let migrator = JournalSchema.migrator
            if try writer.read({ try migrator.hasBeenSuperseded($0) }) {
                throw JournalError(
                    .newerVersion, "the journal \(url?.path ?? "") was written by a newer calgw",
                    recovery:
                        "use that calgw, or move the journal away to start over (the next sync then matches items by UID)"
                )
            }
            let applied = try writer.read(migrator.appliedIdentifiers)
            if applied.isEmpty, try writer.read(JournalSchema.isBlank) {
                try writer.write { try JournalSchema.createLatest($0, marking: migrator.migrations) }
            } else {
                try migrator.migrate(writer)
            }
            // The rows v7 rewrote gave up about half their pages: given back to the disk once.
            if !applied.isEmpty, !applied.contains(StoredFormMigration.identifier), try writer.read(Self.holdsItems) {
                try writer.vacuum()
            }
            // A run cut short while it loaded rows without the item indexes left them missing.
            if try !writer.read(Self.missingItemIndexes).isEmpty { try restoreItemIndexes() }
        } catch let error as JournalError {
            throw error
        } catch let error as DatabaseError where JournalFileCheck.isDamage(error) {
            throw JournalError.damaged(url, error)
        } catch {
            throw JournalError(.storage, "cannot open the journal \(url?.path ?? ""): \(error)")
        }
    }

    private static func holdsItems(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM item)") ?? false
    }

    /// Opens (or creates, mode 0600) the journal file at `url`, in WAL mode.
    /// - Throws: `JournalError.corrupt` when the file is not a database or SQLite finds it
    ///   damaged (see ``openRecovering(at:dryRun:now:)``); `JournalError.storage`, `.newerVersion`.
    package static func open(at url: URL) throws -> Journal {
        let fm = FileManager.default
        try fm.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        if !fm.fileExists(atPath: url.path) {
            let fd = Foundation.open(url.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            if fd >= 0 { close(fd) }
        }
        chmod(url.path, 0o600)
        let header = JournalFileCheck.header(at: url)
        if header != .sound && header != .empty, let found = try? JournalFileCheck.damage(at: url) {
            let what =
                if case .suspect(let why) = header { "is damaged: \(why) (\(found))" } else { "is not a database" }
            throw JournalError(
                .corrupt, "the journal \(url.path) \(what)",
                recovery: "run calgw sync: it moves the journal aside and matches both sides again")
        }
        var config = Configuration()
        config.busyMode = .timeout(10)
        // WAL is asked for here, not through GRDB's `.wal`, which also commits a schema change
        // (a table made and dropped) at every open so that a DatabasePool's readers find a log;
        // a queue has no such readers, and a run with nothing to do then writes only its time.
        // In WAL mode, NORMAL keeps every commit across a killed process (only a power cut
        // may lose the last commits, and then the next run re-derives them from both sides).
        config.prepareDatabase { db in
            // A new journal's pages are 16 KB (SQLite's default is 4): an item row takes about
            // 700 bytes, so a first pull of 100,000 items writes a quarter as many pages to the
            // log and the file, in a quarter as many calls (2-3 % of its time on tmpfs). A
            // journal made before keeps its page size: it cannot change in WAL mode.
            try db.execute(sql: "PRAGMA page_size = 16384")
            guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                throw DatabaseError(message: "the journal cannot use a write-ahead log")
            }
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            return try Journal(writer: try DatabaseQueue(path: url.path, configuration: config), url: url)
        } catch let error as JournalError {
            throw error
        } catch let error as DatabaseError where JournalFileCheck.isDamage(error) {
            throw JournalError.damaged(url, error)
        } catch {
            throw JournalError(
                .storage, "cannot open the journal \(url.path): \(error)",
                recovery: "check the folder's permissions and free space", cause: error)
        }
    }

    /// A copy of the journal at `url`, as it is now (empty when there is none): what `status`
    /// and dry runs plan from, so that they cannot change the file.
    ///
    /// The file and its write-ahead log are copied to a temporary folder (removed with the
    /// journal) and opened there: SQLite checkpoints a log into its database when the last
    /// connection closes, even a read-only one, so reading the journal in place could rewrite
    /// it. The copy stays on disk, so a journal of a million items costs no memory for it.
    static func snapshot(at url: URL) throws -> Journal {
        let fm = FileManager.default
        guard fm.fileExists(atPath: url.path) else { return try inMemory() }
        let scratch = ScratchFolder(fm.temporaryDirectory.appendingPathComponent("calgw-journal-\(UUID().uuidString)"))
        let file = scratch.url.appendingPathComponent("journal.sqlite")
        do {
            try fm.createDirectory(
                at: scratch.url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try fm.copyItem(at: url, to: file)
            if fm.fileExists(atPath: url.path + "-wal") {
                try fm.copyItem(atPath: url.path + "-wal", toPath: file.path + "-wal")
            }
            let copy = try open(at: file)
            return try Journal(writer: copy.writer, url: url, scratch: scratch)
        } catch let error as JournalError where error.code == .corrupt || error.code == .newerVersion {
            throw JournalError(
                error.code, error.message.replacingOccurrences(of: file.path, with: url.path),
                recovery: error.recovery, cause: error.cause)
        } catch {
            throw JournalError(
                .storage, "cannot read the journal \(url.path): \(error)",
                recovery: "check the file's permissions and the free space in \(fm.temporaryDirectory.path)",
                cause: error)
        }
    }

    /// A journal in memory, for tests (package-visible for the package's test support).
    package static func inMemory() throws -> Journal {
        try Journal(writer: try DatabaseQueue(), url: nil)
    }
}

/// A temporary folder removed when the last reference to it goes.
final class ScratchFolder: Sendable {
    let url: URL
    init(_ url: URL) { self.url = url }
    deinit { try? FileManager.default.removeItem(at: url) }
}
