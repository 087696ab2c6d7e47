// The listing index's own file against the same entries in SQLite through GRDB: what a warm
// `calgw list` pays to load the index and find, for every file, whether it can be passed over;
// and what writing it costs. Files are made up (no file is stat'ed or read): 100,000 by
// default, each with a key like a vdir's, a stamp, and one span (nine in ten) or eight (one in
// ten, as a recurring series). Run by `swift run -c release calgw-bench-listing-index [FILES]`.
import CalendarSync
import Foundation
import GRDB

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 100_000 : 100_000
let day: Int64 = 86_400
let base: Int64 = 1_767_225_600  // 2026-01-01
let root = "/calendars/bench"
let stamped: Int64 = 1_700_000_000_000_000_000

func spans(of i: Int) -> [ClosedRange<Int64>] {
    let start = base + Int64(i % 3650) * day - 5 * 365 * day
    if i % 10 == 0 {
        return (0..<8).map { k in (start + Int64(k) * 30 * day)...(start + Int64(k) * 30 * day + 4 * day) }
    }
    return [start...(start + 4 * day)]
}

var listing = ListedFiles(root: root, folders: [ListedFiles.Folder(path: root, relative: "", calendar: nil)])
for i in 0..<count {
    listing.append(
        folder: 0, name: "bench-\(i)@calgw.example.ics",
        stamp: FileStamp(device: 2049, inode: UInt64(1_000 + i), size: 600, modified: stamped, changed: stamped))
}
let fingerprint = ZoneDataFingerprint(digest: Array(repeating: 1, count: 32))
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("calgw-bench-index-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let from = base + 59 * day, to = base + 90 * day  // March 2026

func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    let result = try body()
    return (result, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}

func best(_ runs: Int = 5, _ body: () throws -> Int) rethrows -> (Int, Double) {
    var fastest = Double.infinity, result = 0
    for _ in 0..<runs {
        let (r, t) = try time(body)
        result = r
        fastest = min(fastest, t)
    }
    return (result, fastest)
}

// The index's file.
let (_, fileWrite) = time {
    let index = ListingIndex(listing: listing, cacheFolder: folder, fingerprint: fingerprint)
    for i in 0..<count { index.record(i, spans: spans(of: i)) }
    index.save()
}
let indexFile = ListingIndex(listing: listing, cacheFolder: folder, fingerprint: fingerprint).file!
let fileSize = (try FileManager.default.attributesOfItem(atPath: indexFile.path)[.size] as? Int) ?? 0
let (filePassed, fileLoad) = best {
    let index = ListingIndex(listing: listing, cacheFolder: folder, fingerprint: fingerprint)
    return (0..<count).filter { index.canPassOver($0, from: from, to: to) }.count
}

// The same entries in SQLite: one row per file, its spans as a blob, read in key order.
let database = folder.appendingPathComponent("index.sqlite").path
let queue = try DatabaseQueue(path: database)
let (_, sqliteWrite) = try time {
    try queue.write { db in
        try db.execute(
            sql: """
                CREATE TABLE entry (key TEXT PRIMARY KEY, device INTEGER NOT NULL, inode INTEGER NOT NULL,
                  size INTEGER NOT NULL, modified INTEGER NOT NULL, changed INTEGER NOT NULL,
                  flags INTEGER NOT NULL, spans BLOB NOT NULL) WITHOUT ROWID
                """)
        let insert = try db.makeStatement(sql: "INSERT INTO entry VALUES (?, ?, ?, ?, ?, ?, 0, ?)")
        for i in 0..<count {
            let s = listing.stamps[i]!
            var blob = Data()
            for span in spans(of: i) {
                withUnsafeBytes(of: span.lowerBound.littleEndian) { blob.append(contentsOf: $0) }
                withUnsafeBytes(of: span.upperBound.littleEndian) { blob.append(contentsOf: $0) }
            }
            try insert.execute(arguments: [
                listing.name(of: i), Int64(bitPattern: s.device), Int64(bitPattern: s.inode), s.size, s.modified,
                s.changed, blob,
            ])
        }
    }
}
let sqliteSize = (try? FileManager.default.attributesOfItem(atPath: database)[.size] as? Int) ?? 0
let (sqlitePassed, sqliteLoad) = try best {
    let queue = try DatabaseQueue(path: database)
    return try queue.read { db in
        var byKey: [String: (FileStamp, [ClosedRange<Int64>])] = [:]
        byKey.reserveCapacity(count)
        let rows = try Row.fetchCursor(db, sql: "SELECT * FROM entry")
        while let row = try rows.next() {
            let blob: Data = row[7]
            var spans: [ClosedRange<Int64>] = []
            blob.withUnsafeBytes { raw in
                for at in stride(from: 0, to: raw.count, by: 16) {
                    spans.append(
                        Int64(
                            littleEndian: raw.loadUnaligned(fromByteOffset: at, as: Int64.self))...Int64(
                                littleEndian: raw.loadUnaligned(fromByteOffset: at + 8, as: Int64.self)))
                }
            }
            let stamp = FileStamp(
                device: UInt64(bitPattern: row[1]), inode: UInt64(bitPattern: row[2]), size: row[3], modified: row[4],
                changed: row[5])
            byKey[row[0]] = (stamp, spans)
        }
        var passed = 0
        for i in 0..<count {
            guard let (stamp, spans) = byKey[listing.name(of: i)], stamp == listing.stamps[i] else { continue }
            if !spans.contains(where: { $0.lowerBound < to && $0.upperBound >= from }) { passed += 1 }
        }
        return passed
    }
}

// SQLite as a store that needs no full read when nothing changed: the listing's stamps hashed
// and compared with a stored hash (not timed: the index file could do the same), then one
// query for the files whose spans touch the window, the others passed over.
try queue.write { db in
    try db.execute(sql: "CREATE TABLE span (key TEXT NOT NULL, low INTEGER NOT NULL, high INTEGER NOT NULL)")
    let insert = try db.makeStatement(sql: "INSERT INTO span VALUES (?, ?, ?)")
    for i in 0..<count {
        for span in spans(of: i) {
            try insert.execute(arguments: [listing.name(of: i), span.lowerBound, span.upperBound])
        }
    }
    try db.execute(sql: "CREATE INDEX span_low ON span (low)")
}
let (queried, sqliteQuery) = try best {
    let queue = try DatabaseQueue(path: database)
    return try queue.read { db in
        try String.fetchSet(db, sql: "SELECT key FROM span WHERE low < ? AND high >= ?", arguments: [to, from]).count
    }
}

guard filePassed == sqlitePassed, count - queried == filePassed else {
    fatalError("the stores disagree: \(filePassed), \(sqlitePassed) and \(count - queried)")
}
print("\(count) files, \(filePassed) passed over for March 2026")
print(
    String(
        format: "index file     load and check %7.1f ms   write %7.1f ms   %6.1f MB", fileLoad * 1000, fileWrite * 1000,
        Double(fileSize) / 1e6))
print(
    String(
        format: "SQLite (GRDB)  load and check %7.1f ms   write %7.1f ms   %6.1f MB", sqliteLoad * 1000,
        sqliteWrite * 1000, Double(sqliteSize) / 1e6))
print(String(format: "SQLite (GRDB)  window query only (nothing changed) %7.1f ms", sqliteQuery * 1000))
