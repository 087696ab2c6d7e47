import Foundation
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// The token of a vdir's versions as the journal keeps them (`VDirStorage.token(forJournal:)`,
/// read as SQLite's bytes) is the token of the same versions listed (`token(for:)`): a quiet
/// run compares one with the other, so any difference would make every run read the folder.
@Suite struct JournalListingTokenTests {
    @Test func theJournalsTokenIsTheTokenOfItsVersionsListed() async throws {
        let journal = try Journal.inMemory()
        // Hrefs out of order, one a prefix of another, one not ASCII; etags with quotes and colons.
        let names = ["b.ics", "a.ics", "ab.ics", "Zürich-ß.ics", "a.ics.ics", "0.ics"]
        try journal.applyAll(
            names.enumerated().map { i, name in
                .upsert(
                    JournalItem(
                        key: ItemKey("k\(i)"),
                        local: SideRecord(
                            href: ItemHref(name), etag: "\"\(i)\":1:\(i * 7)", hash: ContentHash("h\(i)")),
                        remote: SideRecord(
                            href: ItemHref("/cal/\(names[names.count - 1 - i])"), etag: "r\(i)",
                            hash: ContentHash("h\(i)"))),
                    base: nil)
            })
        let storage = VDirStorage(url: URL(fileURLWithPath: "/nonexistent"))
        for side in [Side.local, .remote] {
            let fromJournal = try await storage.token(forJournal: journal, side: side)
            let listed = VDirStorage.token(for: try journal.versions(side))
            #expect(fromJournal == listed, "\(side)")
        }
        // Another etag is another token.
        let before = try await storage.token(forJournal: journal, side: .local)
        try journal.apply(
            .upsert(
                JournalItem(
                    key: ItemKey("k0"),
                    local: SideRecord(href: ItemHref("b.ics"), etag: "other", hash: ContentHash("h0")),
                    remote: SideRecord(href: ItemHref("/cal/0.ics"), etag: "r0", hash: ContentHash("h0"))),
                base: nil))
        #expect(try await storage.token(forJournal: journal, side: .local) != before)
    }
}
