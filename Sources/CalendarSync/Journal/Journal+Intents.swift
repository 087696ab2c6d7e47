import Foundation
import GRDB
import Synchronization

/// The intent log: each write recorded before it is made, and its outcome after.
extension Journal {
    /// Commits an intent before its write is made.
    /// - Returns: the intent with its id.
    @discardableResult
    func record(_ intent: Intent) throws -> Intent {
        var copy = intent
        // The row's columns have no room for a source: an intent with one is stored packed, a batch of one.
        let members = intent.source == nil ? nil : IntentBatch.pack([intent])
        copy.id = try writing { db in try Self.insertIntentRow(intent, members: members, db) }
        return copy
    }

    /// Commits several intents in one transaction, as one row (``IntentBatch``): they share
    /// its id, and it stays pending until each of them has an outcome.
    /// - Returns: the intents with their id, in order.
    func recordAll(_ intents: [Intent]) throws -> [Intent] {
        guard let first = intents.first else { return [] }
        guard intents.count > 1 else { return [try record(first)] }
        let id = try writing { db in try Self.insertIntentRow(first, members: IntentBatch.pack(intents), db) }
        return intents.map { intent in
            var copy = intent
            copy.id = id
            return copy
        }
    }

    /// Inserts a pending intent row: `intent`'s columns, and the packed intents of a batch.
    /// - Returns: the row's id.
    private static func insertIntentRow(_ intent: Intent, members: Data?, _ db: Database) throws -> Int64 {
        try db.execute(
            sql: """
                INSERT INTO intent (key, operation, side, href, ifMatch, newHash, state, createdAt, members)
                VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)
                """,
            arguments: [
                intent.key.value, intent.operation.rawValue, intent.side.rawValue, intent.href,
                intent.ifMatch, intent.newHash?.value, now(), members,
            ])
        return db.lastInsertedRowID
    }

    /// Records several outcomes and their item changes in one transaction. A row of intents
    /// recorded together is settled once all of them are among `completions`: `done` when any
    /// of them landed, its outcome naming those that failed.
    func completeAll(_ completions: [(Intent, IntentOutcome, JournalChange)]) throws {
        let bulk = isBulkLoading
        try writing { db in
            let now = Self.now()
            // Each part read in place through its own address: taken as `completions[i].2`, from
            // the array or its buffer, each element was copied whole (its intent, its change and
            // their strings retained) three times, some 2,300 instructions a completion.
            var rows: [Int64] = []
            var byID: [Int64: [IntentOutcome]] = [:]
            try completions.withUnsafeBufferPointer { completions in
                guard let first = completions.baseAddress else { return }
                let bases =
                    bulk
                    ? completions.indices.compactMap {
                        ItemRowStatements.packedBase((first + $0).pointer(to: \.2)!.pointee)
                    } : []
                var statements = try ItemRowStatements(bases: bases, db)
                for i in completions.indices {
                    try Self.apply((first + i).pointer(to: \.2)!.pointee, db, at: now, bulk: bulk, rows: &statements)
                }
                if !bulk { try BasePack.releaseUnused(db) }
                // Each row's outcomes; a batch's row is settled once every one of its intents has one.
                for i in completions.indices {
                    guard let id = (first + i).pointer(to: \.0.id)!.pointee else { continue }
                    if byID[id] == nil { rows.append(id) }
                    byID[id, default: []].append((first + i).pointer(to: \.1)!.pointee)
                }
            }
            let members = try db.cachedStatement(sql: "SELECT members FROM intent WHERE id = ?")
            // A settled row's members are dropped: only a pending row's (one with a write of
            // unknown fate among them) are ever read again.
            let update = try db.cachedStatement(
                sql:
                    "UPDATE intent SET state = ?1, outcome = ?2, members = CASE WHEN ?1 = 'pending' THEN members END WHERE id = ?3"
            )
            for id in rows {
                let outcomes = byID[id]!
                if let packed = try Data.fetchOne(members, arguments: [id]),
                    outcomes.count != IntentBatch.count(of: packed)
                {
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
        try writing { db in
            try db.execute(
                sql: "UPDATE intent SET state = 'failed', outcome = ?, members = NULL WHERE id = ?",
                arguments: [reason, intent.id])
        }
    }

    /// Intents of an interrupted run, oldest first (those recorded together share their id).
    public func pendingIntents() throws -> [Intent] {
        try reading { db in
            try Row.fetchAll(db, sql: "SELECT * FROM intent WHERE state = 'pending' ORDER BY id").flatMap {
                row -> [Intent] in
                let operation: String = row["operation"], side: String = row["side"]
                let unreadable = JournalError(
                    .storage,
                    "the journal \(url?.path ?? "") holds an intent calgw cannot read (\(operation) on \(side))",
                    recovery: "move the journal away; the next sync then matches both sides again")
                if let packed = row["members"] as Data? {
                    guard let members = IntentBatch.unpack(packed, id: row["id"]) else { throw unreadable }
                    return members
                }
                guard let op = Intent.Operation(rawValue: operation), let written = Side(rawValue: side) else {
                    throw unreadable
                }
                return [
                    Intent(
                        id: row["id"], key: ItemKey(row["key"]), operation: op, side: written, href: row["href"],
                        ifMatch: row["ifMatch"], newHash: (row["newHash"] as String?).map(ContentHash.init))
                ]
            }
        }
    }

    /// Marks an interrupted intent as looked at by a later run, with what was found (for intents
    /// recorded together: what was found of all of them), and records in the same transaction
    /// the item changes of the writes found landed: an interruption then leaves the journal as
    /// if the run had finished those items.
    func markRecovered(_ intent: Intent, outcome: String, changes: [JournalChange] = []) throws {
        let bulk = isBulkLoading
        try writing { db in
            let now = Self.now()
            var rows = try ItemRowStatements(changes, bulk: bulk, db)
            for change in changes { try Self.apply(change, db, at: now, bulk: bulk, rows: &rows) }
            if !bulk { try BasePack.releaseUnused(db) }
            try db.execute(
                sql: "UPDATE intent SET state = 'recovered', outcome = ?, members = NULL WHERE id = ?",
                arguments: [outcome, intent.id])
        }
    }

    /// Drops finished intents older than the last `keep` (the log stays small).
    func pruneIntents(keep: Int = 1000) throws {
        try writing { db in
            try db.execute(
                sql: "DELETE FROM intent WHERE state <> 'pending' AND id <= (SELECT MAX(id) FROM intent) - ?",
                arguments: [keep])
        }
    }
}
