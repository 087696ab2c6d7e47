import Foundation
import Testing
import Crypto
import CalgwTestSupport
@testable import CalendarSync

@Suite struct StorageValueTests {
    @Test func itemVersionSurvivesTheJournalEncoding() throws {
        let version = ItemVersion(href: "a%20b.ics", etag: "W/\"17\"")
        let decoded = try JSONDecoder().decode(ItemVersion.self, from: JSONEncoder().encode(version))
        #expect(decoded == version)
        #expect(StoredItem(version: version, data: Data()).href == "a%20b.ics")
    }

    /// A listing's token is SHA-256 over its `href<TAB>etag` lines, however many lines the
    /// hasher is handed at once: a listing several times the buffer's size hashes as one piece.
    @Test func aListingsTokenIsTheHashOfItsLines() {
        let versions = (0..<9_000).map {
            ItemVersion(href: ItemHref(String(format: "item-%05d.ics", $0)), etag: "e\($0 * 7919)")
        }
        let lines = versions.map { "\($0.href)\t\($0.etag)\n" }.joined()
        let expected = "vdir:" + SHA256.hash(data: Data(lines.utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(lines.utf8.count > 3 * 65_536)
        #expect(VDirStorage.token(for: versions).value == expected)
        #expect(VDirStorage.token(for: versions.reversed()).value == expected)
        #expect(VDirStorage.token(for: Array(versions.dropLast())).value != expected)
    }

    /// A folder read as a stream (a `file://` remote's first pull) hands over every file in the
    /// listing's order, in batches, and ends with the token a listing of it gives.
    @Test func aStreamedFolderEndsWithItsListingsToken() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let storage = VDirStorage(url: folder.file("vdir"))
        try storage.directory.createIfMissing()
        for i in 0..<300 {
            let text = TestEvent.ics(
                uid: "u\(i)", summary: "event \(i)", start: "20260301T090000Z", end: "20260301T100000Z")
            try Data(text.utf8).write(to: folder.file("vdir/u\(i).ics"))
        }
        var streamed: [ItemHref] = []
        var batches = 0
        let token = try await storage.fetchAll(batchSize: 64) { batch in
            streamed += batch.map(\.href)
            batches += 1
        }
        guard case .full(let versions, let listed) = try await storage.changes(since: nil) else {
            Issue.record("a first listing is full")
            return
        }
        #expect(token == listed)
        #expect(streamed == versions.map(\.href) && streamed.count == 300)
        #expect(batches == 5)
    }

    /// A span's open bound is nil however it was made, and its JSON is as before: the bounds
    /// present, an open one left out.
    @Test func aSpanKeepsItsBoundsAndItsJSON() throws {
        let closed = TimeSpan(start: -86_400, end: 1_773_046_800)
        #expect(closed.start == -86_400 && closed.end == 1_773_046_800)
        var open = TimeSpan(start: 5, end: nil)
        #expect(open.start == 5 && open.end == nil && open != closed)
        open.end = 9
        open.start = nil
        #expect(
            open == TimeSpan(start: nil, end: 9) && TimeSpan.unbounded.start == nil && TimeSpan.unbounded.end == nil)
        let json = String(decoding: try JSONEncoder().encode(TimeSpan(start: 7, end: nil)), as: UTF8.self)
        #expect(json == #"{"start":7}"#)
        for span in [closed, open, TimeSpan.unbounded] {
            #expect(try JSONDecoder().decode(TimeSpan.self, from: JSONEncoder().encode(span)) == span)
        }
    }

    /// A digest stands for its string as `String`'s equality sees it: the same text (also when
    /// built another way, or canonically equivalent) has one digest, and 200,000 UUID-named
    /// hrefs that differ in one character at most have 200,000.
    @Test func aDigestTellsStringsApartAsTheirEqualityDoes() {
        #expect(StringDigest("event.ics") == StringDigest(String("event.ics".reversed().reversed())))
        #expect(StringDigest("caf\u{E9}") == StringDigest("cafe\u{301}"))
        #expect(StringDigest("a") != StringDigest("b"))
        #expect(StringDigest("") != StringDigest(" "))
        var random = SeededRandom(seed: 21)
        var digests = Set<StringDigest>()
        for _ in 0..<100_000 {
            let uuid = UUID(
                uuid: (0..<16).reduce(into: [UInt8]()) { bytes, _ in
                    bytes.append(UInt8.random(in: 0...255, using: &random))
                }
                .withUnsafeBytes { $0.load(as: uuid_t.self) }
            ).uuidString
            let href = "/dav/calendars/user/alice/work/\(uuid).ics"
            digests.insert(StringDigest(href))
            digests.insert(StringDigest(href.dropLast(4) + ".icS"))
        }
        #expect(digests.count == 200_000)
    }
}
