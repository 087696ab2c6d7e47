import Foundation
import Testing
@testable import CalendarSync

@Suite struct StorageValueTests {
    @Test func itemVersionSurvivesTheJournalEncoding() throws {
        let version = ItemVersion(href: "a%20b.ics", etag: "W/\"17\"")
        let decoded = try JSONDecoder().decode(ItemVersion.self, from: JSONEncoder().encode(version))
        #expect(decoded == version)
        #expect(StoredItem(version: version, data: Data()).href == "a%20b.ics")
    }
}
