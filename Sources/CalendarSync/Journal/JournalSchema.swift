import GRDB

/// The journal's migrations: a frozen timeline, literal names, never edited once shipped.
enum JournalSchema {
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1") { db in
            try db.execute(sql: """
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
        m.registerMigration("v2: items outside the sync window") { db in
            try db.execute(sql: """
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
        return m
    }
}
