import CalgwTestSupport
import Foundation
import Testing
@testable import CalendarSync

/// The listing index is written again only when that is worth what it costs: a few changed
/// files are read again by the next run rather than the whole index copied for them, and a
/// file changed within the racy margin, which the next run reads anyway, is never a reason.
@Suite struct ListingIndexWorthTests {
    typealias Base = ListingIndexTests
    static let names = (0..<3_000).map { String(format: "f%05d.ics", $0) }

    /// A cache folder holding an index of 3,000 files, each with its occurrences on day 10.
    struct Saved {
        let cache: TemporaryFolder
        let listing: ListedFiles
        /// The index file, and its bytes as saved.
        let file: URL
        let stored: Data

        init() throws {
            cache = try TemporaryFolder()
            listing = Base.listing(names: ListingIndexWorthTests.names)
            let index = ListingIndex(listing: listing, cacheFolder: cache.url, fingerprint: Base.fingerprint)
            for i in 0..<listing.count { index.record(i, spans: [(10 * Base.day)...(10 * Base.day + 60)]) }
            index.save()
            file = ListingIndex.location(of: listing.root, in: cache.url)
            stored = try Data(contentsOf: file)
        }

        /// Whether the index file holds what was saved.
        var isAsSaved: Bool { (try? Data(contentsOf: file)) == stored }
    }

    /// `listing` with the files at `indexes` changed: a second after the others, or within the
    /// racy margin of the listing.
    static func changed(_ listing: ListedFiles, _ indexes: [Int], racy: Bool = false) -> ListedFiles {
        indexes.reduce(listing) { listing, i in
            Base.restamped(listing, i) {
                $0.changed = racy ? listing.startedAt - 1_000_000 : $0.changed + 1_000_000_000
            }
        }
    }

    /// Runs a listing of `listing` that reads and records each file the index does not vouch
    /// for, and saves; how many files it read.
    static func run(_ listing: ListedFiles, in cache: URL) -> Int {
        let index = ListingIndex(listing: listing, cacheFolder: cache, fingerprint: Base.fingerprint)
        let read = (0..<listing.count).filter { !index.isFresh($0) }
        for i in read { index.record(i, spans: [(10 * Base.day)...(10 * Base.day + 60)]) }
        index.save()
        return read.count
    }

    @Test func oneChangedFileIsReadAgainRatherThanTheIndexWritten() throws {
        let saved = try Saved()
        defer { saved.cache.remove() }
        let cache = saved.cache.url
        // A thousandth of 3,000 is 2 files: one changed file is not worth the index.
        let one = Self.changed(saved.listing, [17])
        #expect(Self.run(one, in: cache) == 1)
        #expect(saved.isAsSaved)
        // The next run reads it again, and still vouches for the others.
        #expect(Self.run(one, in: cache) == 1)
        // Two changed files are: written, and the run after reads nothing.
        let two = Self.changed(one, [2_500])
        #expect(Self.run(two, in: cache) == 2)
        #expect(!saved.isAsSaved)
        #expect(Self.run(two, in: cache) == 0)
    }

    @Test func filesChangedWithinTheRacyMarginAreNoReasonToWrite() throws {
        let saved = try Saved()
        defer { saved.cache.remove() }
        let racy = Self.changed(saved.listing, [1, 2, 3, 4, 5], racy: true)
        #expect(Self.run(racy, in: saved.cache.url) == 5)
        #expect(saved.isAsSaved)
        #expect(Self.run(racy, in: saved.cache.url) == 5)
    }

    @Test func aFileAddedOrRemovedIsWrittenAtOnce() throws {
        let saved = try Saved()
        defer { saved.cache.remove() }
        let fewer = Base.listing(names: Array(Self.names.dropLast()))
        #expect(Self.run(fewer, in: saved.cache.url) == 0)
        #expect(!saved.isAsSaved)
        let more = Base.listing(names: Self.names.dropLast() + ["g.ics"])
        #expect(Self.run(more, in: saved.cache.url) == 1)
        #expect(Self.run(more, in: saved.cache.url) == 0)
    }

    /// Entries are held back in bounded number: past the limit the index is written whatever
    /// they are worth, and it holds them (racy, so read again next time) and every other file.
    @Test func heldBackEntriesAreBounded() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let names = (0..<(ListingIndex.deferredLimit + 10)).map { String(format: "f%05d.ics", $0) }
        let listing = Base.listing(names: names)
        let first = ListingIndex(listing: listing, cacheFolder: cache.url, fingerprint: Base.fingerprint)
        for i in 0..<names.count { first.record(i, spans: nil) }
        first.save()
        let racy = Self.changed(listing, Array(0..<names.count), racy: true)
        let index = ListingIndex(listing: racy, cacheFolder: cache.url, fingerprint: Base.fingerprint)
        #expect(!index.needsWriting)
        for i in 0..<ListingIndex.deferredLimit { index.record(i, spans: []) }
        #expect(index.deferred.isEmpty && index.stream != nil)
        index.discardStream()
    }
}
