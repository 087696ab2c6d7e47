import CChecksum
import CalgwTestSupport
import Foundation
import Testing
@testable import CalendarSync

/// The listing index keeps, per file, the stamp it was read with and where its occurrences
/// can be; it vouches for a file only while the stamp is the same, and starts again from
/// nothing when its file is damaged or was written for other time-zone data.
@Suite struct ListingIndexTests {
    static let fingerprint = ZoneDataFingerprint(digest: Array(repeating: 7, count: 32))
    static let day: Int64 = 86_400

    /// Three listed files, stamped long before the listing began.
    static func listing(root: String = "/calendars/personal", names: [String] = ["a.ics", "b.ics", "c.ics"])
        -> ListedFiles
    {
        let old: Int64 = 1_700_000_000_000_000_000
        var listing = ListedFiles(
            root: root, folders: [ListedFiles.Folder(path: root, relative: "", calendar: nil)],
            startedAt: old + 3_600_000_000_000)
        for name in names {
            listing.append(
                folder: 0, name: name,
                stamp: FileStamp(
                    device: 1, inode: UInt64(10 + Int(name.utf8.first!)), size: 100, modified: old, changed: old))
        }
        return listing
    }

    /// `listing` with the stamp of the file at `index` changed by `change`.
    static func restamped(_ listing: ListedFiles, _ index: Int, _ change: (inout FileStamp) -> Void) -> ListedFiles {
        var copy = ListedFiles(root: listing.root, folders: listing.folders, startedAt: listing.startedAt)
        for i in 0..<listing.count {
            var stamp = listing.stamps[i]!
            if i == index { change(&stamp) }
            copy.append(folder: 0, name: listing.name(of: i), stamp: stamp)
        }
        return copy
    }

    /// An index of `listing` with a's occurrences in days 10–11, b's in days 20–21, c read
    /// every time; saved.
    static func saved(_ listing: ListedFiles, in cache: URL) -> ListingIndex {
        let index = ListingIndex(listing: listing, cacheFolder: cache, fingerprint: fingerprint)
        index.record(0, spans: [(10 * day)...(11 * day)])
        index.record(1, spans: [(20 * day)...(21 * day)])
        index.record(2, spans: nil)
        index.save()
        return index
    }

    @Test func aSavedIndexVouchesForUnchangedFilesOutsideTheirSpans() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let first = Self.saved(Self.listing(), in: cache.url)
        #expect(!first.isFresh(0))
        let index = ListingIndex(listing: Self.listing(), cacheFolder: cache.url, fingerprint: Self.fingerprint)
        #expect(index.discarded == nil)
        #expect((0..<3).allSatisfy(index.isFresh))
        #expect(index.canPassOver(0, from: 12 * Self.day, to: 19 * Self.day))
        #expect(!index.canPassOver(0, from: 11 * Self.day, to: 12 * Self.day))
        #expect(!index.canPassOver(1, from: 0, to: 20 * Self.day + 1))
        // Read every time: never passed over.
        #expect(!index.canPassOver(2, from: 12 * Self.day, to: 19 * Self.day))
        // Nothing changed: nothing to write.
        #expect(!index.needsWriting)
    }

    @Test func aFileWithAnotherStampIsReadAgain() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        _ = Self.saved(Self.listing(), in: cache.url)
        let changes: [(inout FileStamp) -> Void] = [
            { $0.changed += 1 }, { $0.modified -= 1 }, { $0.size += 1 }, { $0.inode += 1 }, { $0.device += 1 },
        ]
        for change in changes {
            let listing = Self.restamped(Self.listing(), 1, change)
            let index = ListingIndex(listing: listing, cacheFolder: cache.url, fingerprint: Self.fingerprint)
            #expect(index.isFresh(0) && !index.isFresh(1) && index.isFresh(2))
            #expect(!index.canPassOver(1, from: 0, to: Self.day))
        }
    }

    /// Files added, removed and listed in another order are each matched by name.
    @Test func filesAreMatchedByTheirPathBelowTheRoot() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        _ = Self.saved(Self.listing(), in: cache.url)
        // c.ics and a.ics, in another order; b.ics gone; new.ics new.
        var listing = Self.listing(names: ["c.ics", "a.ics", "new.ics"])
        listing = Self.restamped(listing, 2) { $0.inode = 99 }
        let index = ListingIndex(listing: listing, cacheFolder: cache.url, fingerprint: Self.fingerprint)
        #expect(index.isFresh(0) && index.isFresh(1) && !index.isFresh(2))
        #expect(index.canPassOver(1, from: 12 * Self.day, to: 19 * Self.day))  // a.ics
        #expect(index.needsWriting)
        index.save()
        let again = ListingIndex(listing: listing, cacheFolder: cache.url, fingerprint: Self.fingerprint)
        #expect(again.isFresh(0) && again.isFresh(1) && !again.isFresh(2))
    }

    /// A file changed within the racy margin of the listing that read it is read again next time.
    @Test func aFileChangedAsItWasReadIsReadAgain() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let started = Self.listing().startedAt
        let listing = Self.restamped(Self.listing(), 0) { $0.changed = started - 1_000_000 }
        _ = Self.saved(listing, in: cache.url)
        let index = ListingIndex(listing: listing, cacheFolder: cache.url, fingerprint: Self.fingerprint)
        #expect(!index.isFresh(0) && index.isFresh(1))
        #expect(FileStamp(device: 0, inode: 0, size: 0, modified: 0, changed: 5).isRacy(runStart: 5))
        #expect(!FileStamp(device: 0, inode: 0, size: 0, modified: 0, changed: 5).isRacy(runStart: 3_000_000_005))
    }

    @Test func aDamagedIndexIsStartedAgain() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let file = Self.saved(Self.listing(), in: cache.url).file!
        let good = try Data(contentsOf: file)
        var flipped = good
        flipped[flipped.count - 20] ^= 0x40
        for (bytes, reason) in [
            (flipped, "checksum"), (good.prefix(good.count - 9), "cut short"),
            (Data("junk, not an index".utf8), "not an index"),
            (good + Data([0]), "cut short"),
        ] {
            try bytes.write(to: file)
            let index = ListingIndex(listing: Self.listing(), cacheFolder: cache.url, fingerprint: Self.fingerprint)
            #expect(index.discarded == reason)
            #expect(!(0..<3).contains(where: index.isFresh))
        }
    }

    @Test func anIndexOfOtherZoneDataOrAnotherRootIsStartedAgain() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let file = Self.saved(Self.listing(), in: cache.url).file!
        let other = ZoneDataFingerprint(digest: Array(repeating: 8, count: 32))
        let index = ListingIndex(listing: Self.listing(), cacheFolder: cache.url, fingerprint: other)
        #expect(index.discarded == "another calgw or other time-zone data")
        #expect(!index.isFresh(0))
        // An index file found under another root's name (as a digest collision would give).
        let moved = ListingIndex.location(of: "/elsewhere", in: cache.url)
        try FileManager.default.copyItem(at: file, to: moved)
        let elsewhere = ListingIndex(
            listing: Self.listing(root: "/elsewhere"), cacheFolder: cache.url, fingerprint: Self.fingerprint)
        #expect(elsewhere.discarded == "another root")
    }

    @Test func anIndexThatCannotBeWrittenIsNoFailure() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        try Data("a file where the folder should be".utf8).write(to: cache.file("list"))
        let index = Self.saved(Self.listing(), in: cache.url)
        #expect(!FileManager.default.fileExists(atPath: index.file!.path))
    }

    /// The fingerprint moves with the files the zone rules can come from.
    @Test func theFingerprintFollowsTheZoneDataFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let icu = ["ICU_TIMEZONE_FILES_DIR": folder.url.path]
        let before = ZoneDataFingerprint.current(environment: icu)
        #expect(ZoneDataFingerprint.current(environment: icu) == before)
        try Data("zone rules".utf8).write(to: folder.file("zoneinfo64.res"))
        let written = ZoneDataFingerprint.current(environment: icu)
        #expect(written != before)
        try Data("zone rulez".utf8).write(to: folder.file("zoneinfo64.res"))
        #expect(ZoneDataFingerprint.current(environment: icu) != written)
        let tzdir = ["TZDIR": folder.url.path]
        let plain = ZoneDataFingerprint.current(environment: tzdir)
        try Data("# version 2099a".utf8).write(to: folder.file("tzdata.zi"))
        #expect(ZoneDataFingerprint.current(environment: tzdir) != plain)
    }

    /// The libraries whose rules the fingerprint stamps are the ones whose names hold
    /// "Foundation", or "icu" in any case.
    @Test func theLibrariesStampedAreFoundationsAndICUs() {
        for name in ["libFoundation.so", "libicuuc.so.72", "libICUData.so", "lib_FoundationICU.so", "icu"] {
            #expect(ZoneDataFingerprint.carriesZoneRules(ArraySlice(name.utf8)), "\(name)")
        }
        for name in ["libfoundation.so", "libxml2.so.2", "libic.so", "ic", "", "libsqlite3.so.0"] {
            #expect(!ZoneDataFingerprint.carriesZoneRules(ArraySlice(name.utf8)), "\(name)")
        }
        // Cut from a longer line, as `/proc/self/maps` is read.
        let line = Array("7f00-7f01 r--p 0 08:01 5 /usr/lib/libicuuc.so.72".utf8)
        #expect(ZoneDataFingerprint.carriesZoneRules(line[(line.count - 14)...]))
        #expect(!ZoneDataFingerprint.carriesZoneRules(line[(line.count - 8)...]))
    }

    /// An index's file is named by the first 32 hex digits of its folder's SHA-256, as the
    /// index files already on disk are.
    @Test func anIndexIsNamedByItsFoldersDigest() {
        let url = ListingIndex.location(of: "/calendars/personal", in: URL(fileURLWithPath: "/cache"))
        // printf %s /calendars/personal | sha256sum
        #expect(url.lastPathComponent == "b3d359ca376c67c5b44f333b7869e147.index")
    }

    /// The checksum taken piece by piece, as the index is written, is the one taken over the
    /// bytes whole, as the index is read, wherever the pieces break.
    @Test func theChecksumOfPiecesIsTheChecksumOfTheWhole() {
        var random = SeededRandom(seed: 61)
        for length in [0, 1, 7, 8, 9, 31, 32, 33, 63, 64, 65, 1000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let whole = bytes.withUnsafeBytes { ListingIndex.checksum($0) }
            for _ in 0..<20 {
                var checksum = ListingIndex.Checksum()
                var at = 0
                while at < length {
                    let end = min(length, at + Int.random(in: 0...40, using: &random))
                    bytes[at..<end].withUnsafeBytes { checksum.add($0) }
                    at = end
                }
                #expect(checksum.value == whole, "\(length) bytes")
            }
        }
    }

    /// The lanes by the processor's CRC32 instruction are the lanes by the table (so an index
    /// written on one machine reads on another), and are CRC-32C: the word "12345678" in lane 0,
    /// from the standard start and inverted at the end, gives its CRC-32C.
    @Test func theChecksumsLanesAreCRC32CWhateverComputesThem() {
        var random = SeededRandom(seed: 83)
        for blocks in [0, 1, 2, 3, 100, 1000] {
            let bytes = (0..<(32 * blocks)).map { _ in UInt8.random(in: 0...255, using: &random) }
            var fast: [UInt32] = [0xFFFF_FFFF, 1, 2, 3]
            var portable = fast
            bytes.withUnsafeBytes { cchecksum_lanes(&fast, $0.baseAddress, blocks) }
            bytes.withUnsafeBytes { cchecksum_lanes_portable(&portable, $0.baseAddress, blocks) }
            #expect(fast == portable, "\(blocks) blocks")
            #expect(blocks == 0 || fast != [0xFFFF_FFFF, 1, 2, 3])
        }
        // CRC-32C of "12345678" (one word, lane 0), with the usual inversions: 0x6087809A.
        var lanes: [UInt32] = [0xFFFF_FFFF, 0, 0, 0]
        let word = Array("12345678".utf8) + [UInt8](repeating: 0, count: 24)
        word.withUnsafeBytes { cchecksum_lanes(&lanes, $0.baseAddress, 1) }
        #expect(~lanes[0] == 0x6087_809A)
    }

    /// Any one byte changed anywhere changes the checksum.
    @Test func oneByteChangedChangesTheChecksum() {
        var random = SeededRandom(seed: 89)
        let bytes = (0..<1000).map { _ in UInt8.random(in: 0...255, using: &random) }
        let good = bytes.withUnsafeBytes { ListingIndex.checksum($0) }
        for at in 0..<bytes.count {
            var changed = bytes
            changed[at] ^= UInt8.random(in: 1...255, using: &random)
            #expect(changed.withUnsafeBytes { ListingIndex.checksum($0) } != good, "byte \(at)")
        }
    }
}
