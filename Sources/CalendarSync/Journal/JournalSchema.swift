import GRDB

/// The journal's migrations: a frozen timeline, literal names, never edited once shipped.
/// A new journal is not made by them but in one step (``createLatest(_:marking:)``): a
/// migration added here changes that too, or `JournalSchemaTests` fails.
enum JournalSchema {
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1", migrate: createFirstTables)
        m.registerMigration("v2: items outside the sync window") { db in
            try db.execute(
                sql: """
                    CREATE TABLE outsideItem (
                        side TEXT NOT NULL CHECK (side IN ('local', 'remote')),
                        href TEXT NOT NULL,
                        etag TEXT NOT NULL,
                        key TEXT NOT NULL,
                        hash TEXT NOT NULL,
                        lastModified TEXT,
                        sequence INTEGER NOT NULL DEFAULT 0,
                        spanStart INTEGER,
                        spanEnd INTEGER,
                        PRIMARY KEY (side, href)
                    );
                    """)
        }
        m.registerMigration("v3: vdir etags in their short form") { db in
            try ShortEtagMigration.migrate(db)
        }
        // A first pull writes an intent row per item, then its outcome. The v1 table made
        // each of those writes pay for more than the row: SQLite checks `state IN (four
        // values)` by building a temporary index per statement, AUTOINCREMENT writes
        // `sqlite_sequence` per row, and the partial index of pending intents gains and loses an
        // entry per intent. The same table without them: the check compares, ids still grow
        // (the newest row is never pruned), and the few rows a run starts with are scanned.
        m.registerMigration("v4: intents without a list check, a sequence or an index", migrate: rebuildIntents)
        // A first pull writes a row per item, and UIDs (so keys and hrefs) come in no order: with
        // the three unique constraints inline, each batch's commit rewrote nearly every leaf of
        // their indexes (600 MB into the log for a 122 MB journal at 100,000 items). The same
        // table with those constraints as named indexes, which a first pull drops while it loads
        // an empty journal and builds once at its end (`Journal.beginBulkLoad()`).
        m.registerMigration("v5: item constraints as named indexes", migrate: nameItemConstraints)
        // A batch's intents in one row (`IntentBatch`): a first pull wrote, settled and pruned
        // an intent row per item, about a third of its journal's cost.
        m.registerMigration("v6: a batch of intents in one row") { db in
            try db.execute(sql: "ALTER TABLE intent ADD COLUMN members BLOB")
        }
        // A journal took about 2 KB an item: hashes as 64 hex digits twice, the merge base as
        // it came, and each settled batch's members kept until pruned. Hashes as their bytes
        // (`ContentHash+Journal`), bases compressed (`StoredBase`), members dropped on settling.
        m.registerMigration(StoredFormMigration.identifier) { db in
            try StoredFormMigration.migrate(db)
        }
        // A first pull compressed each item's base alone, about a sixth of its own work; a
        // batch's bases compressed together cost 40 % of that and keep 40 % of the bytes
        // (`BasePack`). The rows keep their bases; those written from now on by a first pull
        // are members of packs. `AUTOINCREMENT`: a pack's id is never given again, so a pack
        // read once may be kept by its id.
        m.registerMigration("v8: a first pull's bases packed together") { db in
            try db.execute(
                sql: """
                    CREATE TABLE basePack (id INTEGER PRIMARY KEY AUTOINCREMENT, data BLOB NOT NULL);
                    ALTER TABLE item ADD COLUMN basePack INTEGER;
                    CREATE INDEX itemBasePack ON item(basePack) WHERE basePack IS NOT NULL;
                    """)
        }
        // A first pull into an empty folder records pending hashes (`ContentHash.pending(for:)`),
        // stored as 33 bytes after a `p`, which a calgw before them would take for another hash.
        // No table changes: the migration marks the journal as one such a calgw must not open.
        m.registerMigration("v9: pending hashes") { _ in }
        return m
    }

    /// v1: the tables of the first shipped journal.
    private static func createFirstTables(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE item (
                    key TEXT PRIMARY KEY NOT NULL,
                    localHref TEXT NOT NULL UNIQUE,
                    localEtag TEXT NOT NULL,
                    localHash TEXT NOT NULL,
                    remoteHref TEXT NOT NULL UNIQUE,
                    remoteEtag TEXT NOT NULL,
                    remoteHash TEXT NOT NULL,
                    lastModified TEXT,
                    sequence INTEGER NOT NULL DEFAULT 0,
                    spanStart INTEGER,
                    spanEnd INTEGER,
                    base BLOB NOT NULL,
                    syncedAt TEXT NOT NULL
                );
                CREATE TABLE collection (
                    side TEXT PRIMARY KEY NOT NULL CHECK (side IN ('local', 'remote')),
                    token TEXT,
                    displayName TEXT,
                    color TEXT
                );
                CREATE TABLE intent (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    key TEXT NOT NULL,
                    operation TEXT NOT NULL,
                    side TEXT NOT NULL CHECK (side IN ('local', 'remote')),
                    href TEXT,
                    ifMatch TEXT,
                    newHash TEXT,
                    state TEXT NOT NULL CHECK (state IN ('pending', 'done', 'failed', 'recovered')),
                    outcome TEXT,
                    createdAt TEXT NOT NULL
                );
                CREATE INDEX intentPending ON intent(state) WHERE state = 'pending';
                CREATE TABLE meta (
                    name TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                );
                """)
    }

    /// v4: the intent table rebuilt without a list check, a sequence or an index.
    private static func rebuildIntents(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE intentV4 (
                    id INTEGER PRIMARY KEY,
                    key TEXT NOT NULL,
                    operation TEXT NOT NULL,
                    side TEXT NOT NULL CHECK (side IN ('local', 'remote')),
                    href TEXT,
                    ifMatch TEXT,
                    newHash TEXT,
                    state TEXT NOT NULL CHECK (state = 'pending' OR state = 'done' OR state = 'failed' OR state = 'recovered'),
                    outcome TEXT,
                    createdAt TEXT NOT NULL
                );
                INSERT INTO intentV4 (id, key, operation, side, href, ifMatch, newHash, state, outcome, createdAt)
                    SELECT id, key, operation, side, href, ifMatch, newHash, state, outcome, createdAt FROM intent;
                DROP TABLE intent;
                ALTER TABLE intentV4 RENAME TO intent;
                DELETE FROM sqlite_sequence WHERE name = 'intent';
                """)
    }

    /// v5: the item table's constraints as named indexes.
    private static func nameItemConstraints(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE itemV5 (
                    key TEXT NOT NULL,
                    localHref TEXT NOT NULL,
                    localEtag TEXT NOT NULL,
                    localHash TEXT NOT NULL,
                    remoteHref TEXT NOT NULL,
                    remoteEtag TEXT NOT NULL,
                    remoteHash TEXT NOT NULL,
                    lastModified TEXT,
                    sequence INTEGER NOT NULL DEFAULT 0,
                    spanStart INTEGER,
                    spanEnd INTEGER,
                    base BLOB NOT NULL,
                    syncedAt TEXT NOT NULL
                );
                INSERT INTO itemV5 (key, localHref, localEtag, localHash, remoteHref, remoteEtag, remoteHash, lastModified, sequence, spanStart, spanEnd, base, syncedAt)
                    SELECT key, localHref, localEtag, localHash, remoteHref, remoteEtag, remoteHash, lastModified, sequence, spanStart, spanEnd, base, syncedAt FROM item;
                DROP TABLE item;
                ALTER TABLE itemV5 RENAME TO item;
                CREATE UNIQUE INDEX itemKey ON item(key);
                CREATE UNIQUE INDEX itemLocalHref ON item(localHref);
                CREATE UNIQUE INDEX itemRemoteHref ON item(remoteHref);
                """)
    }
}
