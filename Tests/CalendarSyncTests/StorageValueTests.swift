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
        let versions = (0..<9_000).map { ItemVersion(href: String(format: "item-%05d.ics", $0), etag: "e\($0 * 7919)") }
        let lines = versions.map { "\($0.href)\t\($0.etag)\n" }.joined()
        let expected = "vdir:" + SHA256.hash(data: Data(lines.utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(lines.utf8.count > 3 * 65_536)
        #expect(VDirStorage.token(for: versions).value == expected)
        #expect(VDirStorage.token(for: versions.reversed()).value == expected)
        #expect(VDirStorage.token(for: Array(versions.dropLast())).value != expected)
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
            let uuid = UUID(uuid: (0..<16).reduce(into: [UInt8]()) { bytes, _ in bytes.append(UInt8.random(in: 0...255, using: &random)) }
                .withUnsafeBytes { $0.load(as: uuid_t.self) }).uuidString
            let href = "/dav/calendars/user/alice/work/\(uuid).ics"
            digests.insert(StringDigest(href))
            digests.insert(StringDigest(href.dropLast(4) + ".icS"))
        }
        #expect(digests.count == 200_000)
    }
}
