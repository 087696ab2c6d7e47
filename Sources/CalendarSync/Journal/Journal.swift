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
/// ## Topics
/// - ``open(at:)`` ``inMemory()``
/// - ``items()`` ``base(for:)`` ``apply(_:)``
/// - ``record(_:)`` ``complete(_:change:)`` ``pendingIntents()``
/// - ``beginBulkLoad()`` ``endBulkLoad()``
public final class Journal: Sendable {
    let writer: any DatabaseWriter
    public let url: URL?
    /// What goes away with the journal (the folder of a snapshot's copy).
    private let scratch: ScratchFolder?
    /// True between `beginBulkLoad()` and `endBulkLoad()`: item rows are appended, not upserted.
    let bulkLoading = Mutex(false)

    init(writer: any DatabaseWriter, url: URL?, scratch: ScratchFolder? = nil) throws {
        self.writer = writer
        self.url = url
        self.scratch = scratch
        do {
            let migrator = JournalSchema.migrator
            if try writer.read({ try migrator.hasBeenSuperseded($0) }) {
                throw JournalError(.newerVersion, "the journal \(url?.path ?? "") was written by a newer calgw",
                                   recovery: "use that calgw, or move the journal away to start over (the next sync then matches items by UID)")
            }
            try migrator.migrate(writer)
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

    /// Opens (or creates, mode 0600) the journal file at `url`, in WAL mode.
    /// - Throws: `JournalError.corrupt` when the file is not a database or SQLite finds it
    ///   damaged (see ``openRecovering(at:dryRun:now:)``); `JournalError.storage`, `.newerVersion`.
    static func open(at url: URL) throws -> Journal {
        let fm = FileManager.default
        try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                               attributes: [.posixPermissions: 0o700])
        if !fm.fileExists(atPath: url.path) {
            let fd = Foundation.open(url.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            if fd >= 0 { close(fd) }
        }
        chmod(url.path, 0o600)
        let header = JournalFileCheck.header(at: url)
        if header != .sound && header != .empty, let found = try? JournalFileCheck.damage(at: url) {
            let what = if case .suspect(let why) = header { "is damaged: \(why) (\(found))" } else { "is not a database" }
            throw JournalError(.corrupt, "the journal \(url.path) \(what)",
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
            throw JournalError(.storage, "cannot open the journal \(url.path): \(error)",
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
            try fm.createDirectory(at: scratch.url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try fm.copyItem(at: url, to: file)
            if fm.fileExists(atPath: url.path + "-wal") { try fm.copyItem(atPath: url.path + "-wal", toPath: file.path + "-wal") }
            let copy = try open(at: file)
            return try Journal(writer: copy.writer, url: url, scratch: scratch)
        } catch let error as JournalError where error.code == .corrupt || error.code == .newerVersion {
            throw JournalError(error.code, error.message.replacingOccurrences(of: file.path, with: url.path),
                               recovery: error.recovery, cause: error.cause)
        } catch {
            throw JournalError(.storage, "cannot read the journal \(url.path): \(error)",
                               recovery: "check the file's permissions and the free space in \(fm.temporaryDirectory.path)", cause: error)
        }
    }

    /// A journal in memory, for tests.
    static func inMemory() throws -> Journal {
        try Journal(writer: try DatabaseQueue(), url: nil)
    }

    // MARK: items

    /// Every item the journal knows (without their base content).
    public func items() throws -> [JournalItem] {
        try fetchItems(where: "", arguments: [])
    }

    func fetchItems(where condition: String, arguments: StatementArguments) throws -> [JournalItem] {
        try writer.read { db in
            // A cursor, not `fetchAll`: each row becomes an item as it is stepped, so a journal of
            // 100,000 items is never also held as 100,000 database rows. Columns by position.
            let rows = try Row.fetchCursor(db, sql: "SELECT key, localHref, localEtag, localHash, remoteHref, remoteEtag, remoteHash, lastModified, sequence, spanStart, spanEnd FROM item " + condition,
                                           arguments: arguments)
            var items: [JournalItem] = []
            if condition.isEmpty { items.reserveCapacity(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? 0) }
            while let row = try rows.next() {
                items.append(JournalItem(key: ItemKey(row[0]),
                                         local: SideRecord(href: row[1], etag: row[2], hash: ContentHash(row[3])),
                                         remote: SideRecord(href: row[4], etag: row[5], hash: ContentHash(row[6])),
                                         lastModified: row[7], sequence: row[8],
                                         span: TimeSpan(start: row[9], end: row[10])))
            }
            return items
        }
    }

    /// Each item's href and etag on `side`, as the journal last saw them.
    public func versions(_ side: Side) throws -> [ItemVersion] {
        let columns = side == .local ? "localHref, localEtag" : "remoteHref, remoteEtag"
        return try writer.read { db in
            try Array(Row.fetchCursor(db, sql: "SELECT \(columns) FROM item").map { ItemVersion(href: $0[0], etag: $0[1]) })
        }
    }

    /// Calls `body` with each item's href and etag on `side`, in the byte order of the hrefs
    /// (SQLite's BINARY collation: `memcmp`, a prefix first), read through a cursor so that a
    /// journal of a million rows is never held as one array.
    public func forEachVersion(_ side: Side, _ body: (_ href: String, _ etag: String) throws -> Void) throws {
        try writer.read { db in try Self.forEachVersion(side, in: db, body) }
    }

    /// `forEachVersion` inside a transaction already open (a migration's).
    static func forEachVersion(_ side: Side, in db: Database, _ body: (_ href: String, _ etag: String) throws -> Void) throws {
        let columns = side == .local ? "localHref, localEtag" : "remoteHref, remoteEtag"
        let order = side == .local ? "localHref" : "remoteHref"
        let rows = try Row.fetchCursor(db, sql: "SELECT \(columns) FROM item ORDER BY \(order)")
        while let row = try rows.next() { try body(row[0], row[1]) }
    }

    /// True when the journal knows no item (a pair's first sync).
    /// How many items the journal knows, without reading them.
    public func itemCount() throws -> Int {
        try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? 0 }
    }

    public func isEmpty() throws -> Bool {
        try writer.read { db in try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM item)") ?? true }
    }

    /// The journal's rows for these keys.
    public func items(keys: [ItemKey]) throws -> [JournalItem] {
        try items(matching: keys.map(\.value), column: "key")
    }

    /// The journal's rows whose href on `side` is one of `hrefs`.
    public func items(hrefs: [String], on side: Side) throws -> [JournalItem] {
        try items(matching: hrefs, column: side == .local ? "localHref" : "remoteHref")
    }

    /// The rows whose `column` holds one of `values`, asked in chunks that stay far below
    /// SQLite's limit on bound values.
    private func items(matching values: [String], column: String) throws -> [JournalItem] {
        var found: [JournalItem] = []
        var start = 0
        while start < values.count {
            let chunk = Array(values[start..<min(start + 500, values.count)])
            start += chunk.count
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            found += try fetchItems(where: "WHERE \(column) IN (\(marks))", arguments: StatementArguments(chunk))
        }
        return found
    }

    /// The content both sides agreed on at the last sync of `key` (the merge base).
    public func base(for key: ItemKey) throws -> Data? {
        try writer.read { db in try Data.fetchOne(db, sql: "SELECT base FROM item WHERE key = ?", arguments: [key.value]) }
    }

    /// Applies an item change in its own transaction.
    func apply(_ change: JournalChange) throws {
        let bulk = isBulkLoading
        try writer.write { db in
            var rows = ItemRowStatements()
            try Self.apply(change, db, at: Self.now(), bulk: bulk, rows: &rows)
        }
    }

    /// Applies item changes in one transaction.
    func applyAll(_ changes: [JournalChange]) throws {
        let bulk = isBulkLoading
        try writer.write { db in
            let now = Self.now()
            var rows = ItemRowStatements()
            for change in changes { try Self.apply(change, db, at: now, bulk: bulk, rows: &rows) }
        }
    }

    /// - Parameter bulk: rows are being loaded into an empty journal without its indexes: a
    ///   new row is appended (`endBulkLoad()` keeps the last row of a key or href).
    /// - Parameter rows: the transaction's item-row statements, prepared on first use.
    static func apply(_ change: JournalChange, _ db: Database, at now: String, bulk: Bool = false,
                      rows: inout ItemRowStatements) throws {
        switch change {
        case .none: break
        case .remove(let key):
            try db.execute(sql: "DELETE FROM item WHERE key = ?", arguments: [key.value])
        case .upsert(let item, let base) where bulk:
            try append(item, base: base, db, at: now, into: &rows.append)
        case .upsert(let item, let base):
            do {
                try upsert(item, base: base, db, at: now, into: &rows.upsert)
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                // An href belongs to one item: the rows that claimed these hrefs under another
                // key are dropped, and the row written again. Looked for only when the
                // write failed (the unique hrefs say so): a batch of new rows needs no search.
                try db.cachedStatement(sql: "DELETE FROM item WHERE key <> ? AND (localHref = ? OR remoteHref = ?)")
                    .execute(arguments: [item.key.value, item.local.href, item.remote.href])
                try upsert(item, base: base, db, at: now, into: &rows.upsert)
            }
        }
    }

    /// Inserts or updates the row of `item`'s key.
    /// - Throws: `SQLITE_CONSTRAINT_UNIQUE` when another key's row holds one of its hrefs.
    private static func upsert(_ item: JournalItem, base: Data?, _ db: Database, at now: String, into statement: inout RowStatement?) throws {
        var insert = try statement ?? RowStatement(db, sql: """
            INSERT INTO item (key, localHref, localEtag, localHash, remoteHref, remoteEtag, remoteHash, lastModified, sequence, spanStart, spanEnd, base, syncedAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, COALESCE(?, X''), ?)
            ON CONFLICT(key) DO UPDATE SET localHref = excluded.localHref, localEtag = excluded.localEtag,
                localHash = excluded.localHash, remoteHref = excluded.remoteHref, remoteEtag = excluded.remoteEtag,
                remoteHash = excluded.remoteHash, lastModified = excluded.lastModified, sequence = excluded.sequence,
                spanStart = excluded.spanStart, spanEnd = excluded.spanEnd,
                base = CASE WHEN ? IS NULL THEN item.base ELSE excluded.base END, syncedAt = excluded.syncedAt
            """)
        bindRow(item, base: base, now: now, into: &insert)
        insert.bind(base.map { _ in 1 } as Int?)  // whether a base was given: NULL keeps the row's
        defer { statement = insert }
        try insert.run()
    }

    /// Appends a row for `item` (a bulk load: no index to consult or keep). Without a base, the
    /// base of the key's last row is kept, as an upsert keeps it.
    private static func append(_ item: JournalItem, base: Data?, _ db: Database, at now: String, into statement: inout RowStatement?) throws {
        var insert = try statement ?? RowStatement(db, sql: """
            INSERT INTO item (key, localHref, localEtag, localHash, remoteHref, remoteEtag, remoteHash, lastModified, sequence, spanStart, spanEnd, base, syncedAt)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,
                CASE WHEN ?12 IS NOT NULL THEN ?12
                     ELSE COALESCE((SELECT base FROM item WHERE key = ?1 ORDER BY rowid DESC LIMIT 1), X'') END, ?13)
            """)
        bindRow(item, base: base, now: now, into: &insert)
        defer { statement = insert }
        try insert.run()
    }

    /// Binds an item row's thirteen values, in the order of the item table's columns.
    private static func bindRow(_ item: JournalItem, base: Data?, now: String, into insert: inout RowStatement) {
        for text in [item.key.value, item.local.href, item.local.etag, item.local.hash.value,
                     item.remote.href, item.remote.etag, item.remote.hash.value, item.lastModified] { insert.bind(text) }
        insert.bind(item.sequence)
        insert.bind(item.span.start)
        insert.bind(item.span.end)
        insert.bind(base)
        insert.bind(now)
    }

    // MARK: intents

    /// Commits an intent before its write is made.
    /// - Returns: the intent with its id.
    @discardableResult
    func record(_ intent: Intent) throws -> Intent {
        var copy = intent
        // The row's columns have no room for a source: an intent with one is stored packed, a batch of one.
        let members = intent.source == nil ? nil : IntentBatch.pack([intent])
        copy.id = try writer.write { db in try Self.insertIntentRow(intent, members: members, db) }
        return copy
    }

    /// Commits several intents in one transaction, as one row (``IntentBatch``): they share
    /// its id, and it stays pending until each of them has an outcome.
    /// - Returns: the intents with their id, in order.
    func recordAll(_ intents: [Intent]) throws -> [Intent] {
        guard let first = intents.first else { return [] }
        guard intents.count > 1 else { return [try record(first)] }
        let id = try writer.write { db in try Self.insertIntentRow(first, members: IntentBatch.pack(intents), db) }
        return intents.map { intent in
            var copy = intent
            copy.id = id
            return copy
        }
    }

    /// Inserts a pending intent row: `intent`'s columns, and the packed intents of a batch.
    /// - Returns: the row's id.
    private static func insertIntentRow(_ intent: Intent, members: Data?, _ db: Database) throws -> Int64 {
        try db.execute(sql: """
            INSERT INTO intent (key, operation, side, href, ifMatch, newHash, state, createdAt, members)
            VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)
            """, arguments: [intent.key.value, intent.operation.rawValue, intent.side.rawValue, intent.href,
                             intent.ifMatch, intent.newHash?.value, now(), members])
        return db.lastInsertedRowID
    }

    /// Records several outcomes and their item changes in one transaction. A row of intents
    /// recorded together is settled once all of them are among `completions`: `done` when any
    /// of them landed, its outcome naming those that failed.
    func completeAll(_ completions: [(Intent, IntentOutcome, JournalChange)]) throws {
        let bulk = isBulkLoading
        try writer.write { db in
            let now = Self.now()
            var statements = ItemRowStatements()
            for i in completions.indices { try Self.apply(completions[i].2, db, at: now, bulk: bulk, rows: &statements) }
            // Each row's outcomes; a batch's row is settled once every one of its intents has one.
            var rows: [Int64] = []
            var byID: [Int64: [IntentOutcome]] = [:]
            for i in completions.indices {  // by index: a tuple taken apart is a copy of each intent
                guard let id = completions[i].0.id else { continue }
                if byID[id] == nil { rows.append(id) }
                byID[id, default: []].append(completions[i].1)
            }
            let members = try db.cachedStatement(sql: "SELECT members FROM intent WHERE id = ?")
            let update = try db.cachedStatement(sql: "UPDATE intent SET state = ?, outcome = ? WHERE id = ?")
            for id in rows {
                let outcomes = byID[id]!
                if let packed = try Data.fetchOne(members, arguments: [id]), outcomes.count != IntentBatch.count(of: packed) {
                    continue  // some still in flight
                }
                let outcome = Self.outcome(ofBatch: outcomes)
                try update.execute(arguments: [outcome.state, outcome.text, id])
            }
        }
    }

    /// The outcome of a row of intents (one or a batch): unknown when any is (the row stays
    /// pending for recovery), done when any landed (the failures counted, the first one's
    /// reason given), failed with the first reason when none did.
    static func outcome(ofBatch outcomes: [IntentOutcome]) -> IntentOutcome {
        for case .unknown(let reason) in outcomes { return .unknown(reason) }
        let reasons = outcomes.compactMap { if case .failed(let reason) = $0 { reason } else { nil } }
        guard let reason = reasons.first else { return .done }
        guard reasons.count < outcomes.count else { return .failed(reason) }
        return .doneExcept(failed: reasons.count, of: outcomes.count, firstReason: reason)
    }

    /// Records that an intent's write landed and the item change it brings, in one transaction.
    func complete(_ intent: Intent, change: JournalChange) throws {
        try completeAll([(intent, .done, change)])
    }

    /// Records that an intent's write failed (nothing was changed on that side).
    func fail(_ intent: Intent, reason: String) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE intent SET state = 'failed', outcome = ? WHERE id = ?", arguments: [reason, intent.id])
        }
    }

    /// Intents of an interrupted run, oldest first (those recorded together share their id).
    public func pendingIntents() throws -> [Intent] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM intent WHERE state = 'pending' ORDER BY id").flatMap { row -> [Intent] in
                let operation: String = row["operation"], side: String = row["side"]
                let unreadable = JournalError(.storage, "the journal \(url?.path ?? "") holds an intent calgw cannot read (\(operation) on \(side))",
                                              recovery: "move the journal away; the next sync then matches both sides again")
                if let packed = row["members"] as Data? {
                    guard let members = IntentBatch.unpack(packed, id: row["id"]) else { throw unreadable }
                    return members
                }
                guard let op = Intent.Operation(rawValue: operation), let written = Side(rawValue: side) else { throw unreadable }
                return [Intent(id: row["id"], key: ItemKey(row["key"]), operation: op, side: written, href: row["href"],
                               ifMatch: row["ifMatch"], newHash: (row["newHash"] as String?).map(ContentHash.init))]
            }
        }
    }

    /// Marks an interrupted intent as looked at by a later run, with what was found (for intents
    /// recorded together: what was found of all of them), and records in the same transaction
    /// the item changes of the writes found landed: an interruption then leaves the journal as
    /// if the run had finished those items.
    func markRecovered(_ intent: Intent, outcome: String, changes: [JournalChange] = []) throws {
        let bulk = isBulkLoading
        try writer.write { db in
            let now = Self.now()
            var rows = ItemRowStatements()
            for change in changes { try Self.apply(change, db, at: now, bulk: bulk, rows: &rows) }
            try db.execute(sql: "UPDATE intent SET state = 'recovered', outcome = ? WHERE id = ?", arguments: [outcome, intent.id])
        }
    }

    /// Drops finished intents older than the last `keep` (the log stays small).
    func pruneIntents(keep: Int = 1000) throws {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM intent WHERE state <> 'pending' AND id <= (SELECT MAX(id) FROM intent) - ?", arguments: [keep])
        }
    }

    // MARK: items outside the sync window

    /// True when an earlier run with a sync window left items outside it that no row holds:
    /// a run without that window must plan them, even when neither side changed.
    public func hasOutsideItems() throws -> Bool {
        try writer.read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM outsideItem)") ?? false }
    }

    /// Items of `side` last seen outside the sync window and in no journal row: kept so that
    /// they are not read again while unchanged, and are noticed when the window reaches them.
    public func outsideItems(_ side: Side) throws -> [SideItem] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM outsideItem WHERE side = ?", arguments: [side.rawValue]).map { row in
                SideItem(key: ItemKey(row["key"]), href: row["href"], etag: row["etag"], hash: ContentHash(row["hash"]),
                         lastModified: row["lastModified"], sequence: row["sequence"],
                         span: TimeSpan(start: row["spanStart"], end: row["spanEnd"]))
            }
        }
    }

    /// Replaces the outside-window items of `side`.
    func replaceOutsideItems(_ side: Side, with items: [SideItem]) throws {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM outsideItem WHERE side = ?", arguments: [side.rawValue])
            for item in items {
                try db.execute(sql: """
                    INSERT OR REPLACE INTO outsideItem (side, href, etag, key, hash, lastModified, sequence, spanStart, spanEnd)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [side.rawValue, item.href, item.etag, item.key.value, item.hash.value, item.lastModified,
                                     item.sequence, item.span.start, item.span.end])
            }
        }
    }

    // MARK: collections and metadata

    public func collection(_ side: Side) throws -> CollectionState {
        try writer.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM collection WHERE side = ?", arguments: [side.rawValue]) else {
                return CollectionState()
            }
            return CollectionState(token: (row["token"] as String?).map(ChangeToken.init), displayName: row["displayName"], color: row["color"])
        }
    }

    /// Drops both sides' change tokens, keeping their metadata: the next run lists both sides in
    /// full. Done before a run's first write, so that a run that ends early (stopped, killed, an
    /// error) leaves no token older than rows it recorded: a server's changes since such a
    /// token can leave out an item created after it and deleted since (Xandikos diffs two
    /// states), and the copy the run made would stay behind.
    func forgetTokens() throws {
        try writer.write { db in try db.execute(sql: "UPDATE collection SET token = NULL WHERE token IS NOT NULL") }
    }

    func setCollection(_ side: Side, _ state: CollectionState) throws {
        try writer.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO collection (side, token, displayName, color) VALUES (?, ?, ?, ?)",
                           arguments: [side.rawValue, state.token?.value, state.displayName, state.color])
        }
    }

    /// When the last complete sync ended (ISO 8601), nil before the first.
    public func lastSync() throws -> String? {
        try writer.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'lastSync'") }
    }

    /// A yes/no the journal keeps for its pair (false when never set).
    func flag(_ name: String) throws -> Bool {
        try writer.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = ?", arguments: [name]) == "1" }
    }

    func setFlag(_ name: String, _ value: Bool) throws {
        try writer.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO meta (name, value) VALUES (?, ?)", arguments: [name, value ? "1" : "0"])
        }
    }

    func setLastSync(_ date: Date = Date()) throws {
        try writer.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO meta (name, value) VALUES ('lastSync', ?)",
                           arguments: [Self.iso8601(date)])
        }
    }

    /// The current time as ISO 8601 UTC (`2026-03-01T10:00:00Z`), without a formatter object.
    static func now() -> String { iso8601(Date()) }

    static func iso8601(_ date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&t, &parts)
        func pad(_ n: Int32, _ width: Int = 2) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))T\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))Z"
    }
}

/// A temporary folder removed when the last reference to it goes.
final class ScratchFolder: Sendable {
    let url: URL
    init(_ url: URL) { self.url = url }
    deinit { try? FileManager.default.removeItem(at: url) }
}
