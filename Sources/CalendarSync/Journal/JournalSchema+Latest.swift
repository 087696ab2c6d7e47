import GRDB

extension JournalSchema {
    /// Makes a new journal's tables as the migrations leave them, in one transaction, and
    /// marks every migration applied, as ``DatabaseMigrator`` marks what it ran.
    ///
    /// A new journal ran the whole timeline: eight transactions, two of them rebuilding tables
    /// that were still empty, each read of the schema made again after each. That was 19.5 M
    /// instructions of a first pull of 10,000 items (about 2,000 an item) and the same for each
    /// pair a test made. The migrations stay the one truth for journals written before:
    /// `JournalSchemaTests` checks that both ways make the same tables, indexes and checks.
    ///
    /// - Parameter migrations: the identifiers to mark applied (``migrator``'s, in order).
    static func createLatest(_ db: Database, marking migrations: [String]) throws {
        try db.execute(
            sql: """
                CREATE TABLE collection (
                    side TEXT PRIMARY KEY NOT NULL CHECK (side IN ('local', 'remote')),
                    token TEXT,
                    displayName TEXT,
                    color TEXT
                );
                CREATE TABLE meta (name TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
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
                CREATE TABLE intent (
                    id INTEGER PRIMARY KEY,
                    key TEXT NOT NULL,
                    operation TEXT NOT NULL,
                    side TEXT NOT NULL CHECK (side IN ('local', 'remote')),
                    href TEXT,
                    ifMatch TEXT,
                    newHash TEXT,
                    state TEXT NOT NULL CHECK (state = 'pending' OR state = 'done' OR state = 'failed' OR state = 'recovered'),
                    outcome TEXT,
                    createdAt TEXT NOT NULL,
                    members BLOB
                );
                CREATE TABLE item (
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
                    syncedAt TEXT NOT NULL,
                    basePack INTEGER
                );
                CREATE UNIQUE INDEX itemKey ON item(key);
                CREATE UNIQUE INDEX itemLocalHref ON item(localHref);
                CREATE UNIQUE INDEX itemRemoteHref ON item(remoteHref);
                CREATE TABLE basePack (id INTEGER PRIMARY KEY AUTOINCREMENT, data BLOB NOT NULL);
                CREATE INDEX itemBasePack ON item(basePack) WHERE basePack IS NOT NULL;
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                """)
        let mark = try db.makeStatement(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)")
        for identifier in migrations { try mark.execute(arguments: [identifier]) }
    }

    /// Whether the database holds nothing yet: no table, index or view.
    static func isBlank(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM sqlite_master)") ?? false
    }
}
