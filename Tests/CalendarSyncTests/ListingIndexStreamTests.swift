import CalgwTestSupport
import Foundation
import Testing
@testable import CalendarSync

/// An index to which files are recorded is written as they are recorded: each recorded entry
/// goes to a new file at once, after the kept stored entries of the files before it, and the
/// file replaces the index only when saved whole.
@Suite struct ListingIndexStreamTests {
    typealias Base = ListingIndexTests
    static let day = Base.day

    /// The files of the index folder of `kind` in `cache`, temporary ones included.
    static func files(in cache: URL, kind: String = "list") -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent(kind).path))?.sorted() ?? []
    }

    /// Recorded entries between stored ones that are kept: the new index holds both, each
    /// with its own spans, and nothing else is left in the folder.
    @Test func recordedEntriesGoBetweenTheStoredOnesKept() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        _ = Base.saved(Base.listing(names: ["a.ics", "c.ics", "e.ics"]), in: cache.url)
        let names = ["a.ics", "b.ics", "c.ics", "d.ics", "e.ics"]
        let listing = Base.listing(names: names)
        let index = ListingIndex(listing: listing, cacheFolder: cache.url, fingerprint: Base.fingerprint)
        #expect(index.isFresh(0) && !index.isFresh(1) && index.isFresh(2) && !index.isFresh(3))
        index.record(1, spans: [(30 * Self.day)...(31 * Self.day)])
        index.record(3, spans: [(40 * Self.day)...(41 * Self.day)])
        #expect(Self.files(in: cache.url).count == 2)  // the index and the new one being written
        index.save()
        #expect(Self.files(in: cache.url).count == 1)

        let again = ListingIndex(listing: listing, cacheFolder: cache.url, fingerprint: Base.fingerprint)
        #expect(again.discarded == nil)
        #expect((0..<5).allSatisfy(again.isFresh))
        #expect(!again.needsWriting)
        // a: days 10–11, b: 30–31, c: 20–21, d: 40–41, e: read every time.
        #expect(again.canPassOver(0, from: 12 * Self.day, to: 13 * Self.day))
        #expect(!again.canPassOver(2, from: 20 * Self.day, to: 20 * Self.day + 1))
        #expect(!again.canPassOver(4, from: 12 * Self.day, to: 13 * Self.day))
        #expect(!again.canPassOver(1, from: 30 * Self.day, to: 30 * Self.day + 1))
        #expect(again.canPassOver(1, from: 12 * Self.day, to: 13 * Self.day))
        #expect(!again.canPassOver(3, from: 41 * Self.day, to: 42 * Self.day))
        #expect(again.canPassOver(3, from: 42 * Self.day, to: 43 * Self.day))
    }

    /// A listing that ends without saving (a reader stopped by an error) leaves the index as
    /// it was and no temporary file.
    @Test func anIndexNotSavedLeavesNoFileBehind() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let file = Base.saved(Base.listing(), in: cache.url).file!
        let before = try Data(contentsOf: file)
        do {
            let index = ListingIndex(
                listing: Base.listing(names: ["a.ics", "b.ics", "c.ics", "new.ics"]), cacheFolder: cache.url,
                fingerprint: Base.fingerprint)
            index.record(3, spans: [])
            #expect(Self.files(in: cache.url).count == 2)
        }
        #expect(Self.files(in: cache.url) == [file.lastPathComponent])
        #expect(try Data(contentsOf: file) == before)
    }

    /// Files recorded out of listing order are not kept: the index stays as it was.
    @Test func filesRecordedOutOfOrderLeaveTheIndexAsItWas() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let listing = Base.listing()
        let first = ListingIndex(listing: listing, cacheFolder: cache.url, fingerprint: Base.fingerprint)
        first.record(1, spans: nil)
        first.record(0, spans: nil)
        first.save()
        #expect(Self.files(in: cache.url).isEmpty)
        let again = ListingIndex(listing: listing, cacheFolder: cache.url, fingerprint: Base.fingerprint)
        #expect(!(0..<3).contains(where: again.isFresh))
    }
}
