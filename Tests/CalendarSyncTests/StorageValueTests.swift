import Foundation
import Testing
import Crypto
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
}
