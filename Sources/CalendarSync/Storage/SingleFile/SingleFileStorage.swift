import Foundation
import ICalendar
import VDir

/// One `.ics` file holding many calendar objects (a Thunderbird or Google export, a calendar
/// a program keeps in one file) as a `CalendarStorage`: its items are the file's UIDs.
///
/// The file is split into items by UID (a series' master with its overrides, and the
/// VTIMEZONEs they use; see ``SingleFileCalendar``): hrefs are `<uid>.ics`, etags a hash of
/// the item's bytes, and the change token the file's stat signature, so a run with nothing
/// changed reads nothing but one `stat`.
///
/// Cost is linear in the file. vdirsyncer's singlefile storage rewrites the file for every item
/// it writes (quadratic: its issue #818); here writes go to the file as read, in memory, and
/// ``flush()`` (which the executor calls once per batch, before the journal records the batch)
/// writes it once: a temporary file in the same folder, fsynced, renamed over the file, the
/// folder fsynced. A reader, or a crash at any instant, sees the old file or the new one.
///
/// Another program may edit the file between runs (its changes are synced like any other) or
/// during one: each write, and the flush, first checks the file's signature, and when it moved
/// the file is read again and the run's writes are checked against it. A write whose item the
/// other program changed fails with `StorageError.preconditionFailed` (the executor reads
/// both sides again and merges), so the other program's edit is never overwritten; one the
/// re-read makes impossible after it was accepted fails the flush (``SingleFileFailure/changedMeanwhile``)
/// and nothing is written: the next run starts from the file as it is.
///
/// A file that does not split (an unbalanced BEGIN/END, a line without `:`) fails every read
/// with `path:line: problem`; an item changed since the last run (one the scan fetches) with an
/// end before its start or an invalid RRULE fails its fetch likewise, at the file's line. Either
/// way the scan fails, so a run stops before it writes anything on either side.
///
/// ```swift
/// let storage = SingleFileStorage(url: URL(fileURLWithPath: "/home/alice/calendar.ics"))
/// let listing = try await storage.changes(since: nil)
/// ```
public actor SingleFileStorage: CalendarStorage, FlushingStorage {
    /// The file is written once per batch, on `flush()`, vouches for its listing, and is a
    /// person's: an event without a UID may get one.
    public nonisolated var capabilities: StorageCapabilities {
        StorageCapabilities(flushing: self, listingToken: self, takesAssignedUIDs: true)
    }

    /// The file.
    public nonisolated let url: URL
    /// The file's path, as messages name it.
    nonisolated var path: String { url.path }

    /// The file as last read, with this run's writes applied.
    private var calendar: SingleFileCalendar?
    /// The file's signature when it was read or written (nil: there was no file).
    private var signature: FileSignature?
    /// The writes not yet in the file, in order.
    private var pending: [Write] = []
    /// Set when the file changed under writes already accepted: every write and the flush fail.
    private var conflict: SingleFileError?

    /// A write held until the flush, kept so it can be checked again against a re-read file.
    private enum Write: Sendable {
        /// Creates (`ifMatch` nil) or replaces `href` with `item`.
        case put(SingleFileCalendar.Item, href: ItemHref, ifMatch: ItemETag?)
        case remove(href: ItemHref, ifMatch: ItemETag)
    }

    /// A storage for the file at `url` (which need not exist yet: it is made, with its
    /// folder, on the first write). A symbolic link is followed once, here, so the rewrite
    /// replaces the file it points to and the link stays a link.
    public init(url: URL) {
        self.url = url.standardizedFileURL.resolvingSymlinksInPath()
    }

    // MARK: Reading

    /// `.unchanged` after one `stat` when the file's signature is the token; otherwise every item
    /// the file holds.
    public func changes(since token: ChangeToken?) async throws -> StorageChanges {
        try await flush()
        // An unchanged file is not read at all: its signature is the token.
        if let token, pending.isEmpty, case let now = Self.token(of: try stat()), now == token {
            return .unchanged(now)
        }
        try refresh()
        let current = currentToken
        if let token, token == current { return .unchanged(current) }
        return .full(calendar!.listing, token: current)
    }

    /// The items' views. Each is checked as a hand edit of a vdir file is (only items whose
    /// etag moved are fetched, so an unchanged file is never linted).
    /// - Throws: ``SingleFileError`` (`.invalid`, `path:line: problem`) for an end before its
    ///   start or an invalid RRULE, at the line of the file.
    public func fetch(_ hrefs: [ItemHref], for intent: WriteIntent) async throws -> [StoredItem] {
        try refresh()
        let calendar = calendar!
        return try hrefs.compactMap { href in
            guard let item = calendar.items[href] else { return nil }
            let view = calendar.view(of: item)
            if item.lines.contains(where: { $0 > 0 }), let problem = Self.blockingProblem(in: view) {
                let line = calendar.fileLine(ofViewLine: problem.line, in: item) ?? item.lines.first { $0 > 0 } ?? 1
                throw SingleFileError(
                    .invalid, "\(path):\(line): \(problem.message)",
                    recovery:
                        "fix that line (calgw lint \(path) shows every problem); until then nothing is synced either way"
                )
            }
            return StoredItem(version: ItemVersion(href: href, etag: item.etag), data: view)
        }
    }

    /// The token of the file as read: its stat signature.
    private var currentToken: ChangeToken { Self.token(of: signature) }

    /// The token of a file with `signature` (nil: no file).
    private static func token(of signature: FileSignature?) -> ChangeToken {
        ChangeToken("singlefile:" + (signature?.etag ?? "none"))
    }

    /// The file's signature now; nil when there is no file.
    /// - Throws: ``SingleFileError`` when the path names something other than a regular file.
    private func stat() throws -> FileSignature? {
        if let signature = FileSignature.of(path: path) { return signature }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            throw SingleFileError(
                .notAFile, "\(path) is not a file",
                recovery: "point local at a .ics file (or a path where one may be made)")
        }
        return nil
    }

    /// Reads the file again when it changed since it was read (or was never read), applying
    /// this run's pending writes to the new content.
    private func refresh() throws {
        let now = try stat()
        if calendar != nil, now == signature { return }
        try read(at: now)
    }

    /// Reads and splits the file; replays the pending writes on it. The first read also
    /// removes what a rewrite killed before its rename left (see ``removeLeftovers()``).
    private func read(at now: FileSignature?) throws {
        if calendar == nil { removeLeftovers() }
        var fresh = SingleFileCalendar()
        var readSignature = now
        if now != nil {
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                // Removed since the stat: an empty calendar, as a file never made.
                if try stat() == nil { return try read(at: nil) }
                throw SingleFileError(.io, "cannot read \(path): \(error.localizedDescription)")
            }
            // The signature of what was read: taken again, in case the file moved meanwhile.
            readSignature = FileSignature.of(path: path)
            fresh = try SingleFileCalendar(try SingleFileSplitter(path: path).split(data), path: path)
        }
        for write in pending {
            if let failure = Self.apply(write, to: &fresh) {
                conflict = SingleFileError(
                    .changedMeanwhile,
                    "\(path) changed during the sync: another program changed \(failure) too; nothing was written",
                    recovery: "run calgw sync again: it merges the two")
                break
            }
        }
        calendar = fresh
        signature = readSignature
    }

    /// Replays `write` on `calendar`; the href whose precondition no longer holds, if any.
    private static func apply(_ write: Write, to calendar: inout SingleFileCalendar) -> ItemHref? {
        switch write {
        case .put(let item, let href, let ifMatch):
            let existing = calendar.items[href]
            if let ifMatch {
                guard existing?.etag == ifMatch else { return href }
            } else if let existing, existing.etag != item.etag {
                return href
            }
            if href != item.href { calendar.remove(href) }
            calendar.put(item)
        case .remove(let href, let ifMatch):
            guard let existing = calendar.items[href] else { return nil }
            guard existing.etag == ifMatch else { return href }
            calendar.remove(href)
        }
        return nil
    }

    /// A mistake of a hand edit that the parser reads but that must not be synced: an end
    /// before its start, an invalid RRULE or EXRULE (as ``HandEditCheck`` blocks a vdir file).
    static func blockingProblem(in data: Data) -> LintProblem? {
        Linter().lint(data).first { problem in
            problem.severity == .error && (problem.kind == .endBeforeStart || problem.kind == .invalidValue(.recur))
        }
    }

    /// Removes the temporary files of rewrites whose process is gone: `.NAME.PID.RANDOM.tmp`
    /// beside the file (`AtomicFileWriter`'s names), left by a run killed between writing the
    /// new file and renaming it. The file itself was never touched by such a run.
    private func removeLeftovers() {
        let folder = url.deletingLastPathComponent().path
        let prefix = "." + url.lastPathComponent + "."
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let fields = name.dropFirst(prefix.count).dropLast(4).split(separator: ".")
            guard fields.count == 2, let pid = Int32(fields[0]), UInt32(fields[1]) != nil else { continue }
            if pid != getpid(), kill(pid, 0) != 0, errno == ESRCH { unlink(folder + "/" + name) }
        }
    }

    // MARK: Writing

    /// Adds the item to the file as read, for ``flush()`` to write; a UID the file holds already is
    /// `.alreadyExists`.
    public func create(_ data: Data, suggestedName: String, as intent: WriteIntent) async throws -> ItemVersion {
        try prepareWrite()
        let item = try calendar!.item(from: data, path: path)
        if calendar!.items[item.href] != nil { throw StorageError.alreadyExists(href: item.href) }
        return accept(.put(item, href: item.href, ifMatch: nil), item)
    }

    /// Replaces the item in the file as read, for ``flush()`` to write, if its etag is still
    /// `etag`.
    public func update(href: ItemHref, data: Data, ifMatch etag: ItemETag, as intent: WriteIntent) async throws
        -> ItemVersion
    {
        try prepareWrite()
        guard let existing = calendar!.items[href], existing.etag == etag else {
            throw StorageError.preconditionFailed(href: href)
        }
        let item = try calendar!.item(from: data, path: path)
        if item.href != href, calendar!.items[item.href] != nil { throw StorageError.alreadyExists(href: item.href) }
        return accept(.put(item, href: href, ifMatch: etag), item)
    }

    /// Removes the item from the file as read, for ``flush()`` to write, if its etag is still
    /// `etag`; an item already gone is not an error.
    public func delete(href: ItemHref, ifMatch etag: ItemETag, as intent: WriteIntent) async throws {
        try prepareWrite()
        guard let existing = calendar!.items[href] else { return }
        guard existing.etag == etag else { throw StorageError.preconditionFailed(href: href) }
        _ = Self.apply(.remove(href: href, ifMatch: etag), to: &calendar!)
        pending.append(.remove(href: href, ifMatch: etag))
    }

    /// Brings the file as read up to date before a write, so the write's precondition is
    /// checked against what the file holds now.
    private func prepareWrite() throws {
        if let conflict { throw conflict }
        try refresh()
        if let conflict { throw conflict }
    }

    private func accept(_ write: Write, _ item: SingleFileCalendar.Item) -> ItemVersion {
        _ = Self.apply(write, to: &calendar!)
        pending.append(write)
        return ItemVersion(href: item.href, etag: item.etag)
    }

    /// Writes the pending writes into the file at once: joined, written to a temporary file
    /// beside it, fsynced, renamed over it, the folder fsynced. When the file changed since it
    /// was read, it is read again first and the writes checked against it.
    /// - Throws: ``SingleFileError`` (`.changedMeanwhile`) when a write no longer applies;
    ///   nothing is written then.
    public func flush() async throws {
        guard !pending.isEmpty else { return }
        if let conflict { throw failed(conflict) }
        for _ in 0..<3 {
            try refresh()
            if let conflict { throw failed(conflict) }
            let bytes = calendar!.joined()
            let folder = url.deletingLastPathComponent()
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let writer: AtomicFileWriter
            do { writer = try AtomicFileWriter(replacing: url) } catch { throw SingleFileError(.io, "\(error)") }
            do {
                try bytes.withUnsafeBytes { try writer.write($0.bindMemory(to: UInt8.self)) }
                // Another program's write since the read: read again and start over.
                guard try stat() == signature else {
                    writer.discard()
                    continue
                }
                try writer.commit()
            } catch {
                writer.discard()
                throw SingleFileError(.io, "\(error)")
            }
            signature = try stat()
            pending = []
            return
        }
        throw failed(
            SingleFileError(
                .changedMeanwhile, "\(path) kept changing during the sync; nothing was written",
                recovery: "run calgw sync again"))
    }

    /// Drops the writes that cannot be made, so the next read starts from the file; returns `error`.
    private func failed(_ error: SingleFileError) -> SingleFileError {
        pending = []
        conflict = nil
        calendar = nil
        return error
    }
}

extension SingleFileStorage: ListingTokenStorage {
    /// The file's token when it holds exactly `versions` as last written (no write pending,
    /// nobody else's write since): a run that wrote the file keeps that token, so the next run
    /// with nothing changed reads nothing.
    public func token(forListing versions: [ItemVersion]) async throws -> ChangeToken? {
        guard pending.isEmpty, let calendar, try stat() == signature, versions.count == calendar.items.count else {
            return nil
        }
        for version in versions where calendar.items[version.href]?.etag != version.etag { return nil }
        return currentToken
    }
}
