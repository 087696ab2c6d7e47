import Foundation
import Testing
import VDir
@testable import CalendarSync

/// A folder's names read again are compared, as they are read, with the names read before:
/// when the folder gives the same ones in the same order (a file replaced by a rename, as an
/// edit replaces one), their sorted order is taken over instead of sorting them again; any other
/// change is read and sorted anew. On real folders.
@Suite struct FolderNamesTests {
    /// A new folder holding empty files of these names.
    static func folder(_ names: [String]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("calgw-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for name in names { try Data().write(to: url.appendingPathComponent(name)) }
        return url
    }

    static func names(_ names: FolderNames) -> [String] { (0..<names.count).map(names.repairedName(at:)) }

    /// The names of `url` as a vdir's listing reads them, sorted unless they are `before`'s;
    /// `same` when they are (in the folder's order or another).
    static func read(_ url: URL, before: FolderNames?) throws -> (names: FolderNames, same: Bool) {
        let read = try #require(FolderNames.read(path: url.path, keep: isItemFile, before: before))
        var names = read.names
        if !read.same { names.sortByBytes() }
        return (names, read.same)
    }

    /// A vdir listing's filter: item files' names, of files (or links, or of a type unknown).
    static func isItemFile(_ name: UnsafeBufferPointer<UInt8>, _ type: UInt8) -> Bool {
        [UInt8(DT_REG), UInt8(DT_LNK), UInt8(DT_UNKNOWN)].contains(type) && ItemFileFilter.isItem(name)
    }

    static let names = (0..<40).map { "event-\(($0 * 7919) % 1000).ics" }

    @Test func aFileReplacedByARenameLeavesTheNamesAsTheyWere() throws {
        let url = try Self.folder(Self.names + ["displayname"])
        defer { try? FileManager.default.removeItem(at: url) }
        let first = try Self.read(url, before: nil)
        #expect(!first.same)
        #expect(Self.names(first.names) == Self.names.sorted())

        // An edit: a temporary file written beside, then renamed over the file it replaces.
        try Data("edited".utf8).write(to: url.appendingPathComponent(".event-9.ics.tmp"))
        let again = try #require(FolderNames.read(path: url.path, keep: Self.isItemFile, before: first.names))
        #expect(again.same, "a name the filter leaves out is passed over")
        #expect(Self.names(again.names) == Self.names.sorted())
        #expect(
            rename(url.appendingPathComponent(".event-9.ics.tmp").path, url.appendingPathComponent(Self.names[9]).path)
                == 0)
        let replaced = try Self.read(url, before: first.names)
        #expect(replaced.same)
        #expect(Self.names(replaced.names) == Self.names.sorted())
    }

    @Test func aNameAddedRemovedOrOfAnotherTypeIsReadAndSortedAnew() throws {
        let url = try Self.folder(Self.names)
        defer { try? FileManager.default.removeItem(at: url) }
        let first = try Self.read(url, before: nil)

        try Data().write(to: url.appendingPathComponent("000-first.ics"))
        let added = try Self.read(url, before: first.names)
        #expect(!added.same)
        #expect(Self.names(added.names) == (Self.names + ["000-first.ics"]).sorted())

        try FileManager.default.removeItem(at: url.appendingPathComponent("000-first.ics"))
        try FileManager.default.removeItem(at: url.appendingPathComponent(Self.names[0]))
        let removed = try Self.read(url, before: added.names)
        #expect(!removed.same)
        #expect(Self.names(removed.names) == Array(Self.names.dropFirst()).sorted())

        // The same name, now a folder: a vdir's listing leaves it out; a filter that takes it
        // finds a name of another type, and reads the folder's type anew.
        try FileManager.default.createDirectory(
            at: url.appendingPathComponent(Self.names[0]), withIntermediateDirectories: false)
        let folderNamed = try Self.read(url, before: first.names)
        #expect(!folderNamed.same)
        #expect(Self.names(folderNamed.names) == Array(Self.names.dropFirst()).sorted())
        let anyType = try #require(FolderNames.read(path: url.path, keep: { _, _ in true }, before: first.names))
        #expect(!anyType.same)
        var sorted = anyType.names
        sorted.sortByBytes()
        #expect(Self.names(sorted) == Self.names.sorted())
        #expect(sorted.isFolder(at: Self.names.sorted().firstIndex(of: Self.names[0])!, in: url.path))
        #expect(!sorted.isFolder(at: Self.names.sorted().firstIndex(of: Self.names[1])!, in: url.path))

        // The last name gone: the folder ends before the names held do.
        let fewer = try Self.read(url, before: added.names)
        #expect(!fewer.same)
    }

    @Test func theStoredFormKeepsTheFoldersOrderAndTheSortedOne() throws {
        let url = try Self.folder(Self.names)
        defer { try? FileManager.default.removeItem(at: url) }
        let first = try Self.read(url, before: nil)
        var stored: [UInt8] = []
        first.names.appendStoredForm(to: &stored)
        #expect(stored.count == first.names.storedLength)
        let decoded = try stored.withUnsafeBytes { raw in
            var reader = ListingIndex.Reader(data: raw)
            return try FolderNames.read(from: &reader)
        }
        #expect(Self.names(decoded) == Self.names.sorted())
        let again = try Self.read(url, before: decoded)
        #expect(again.same, "the decoded names are compared in the folder's order")

        // A position in the folder's order past the names, or twice, or a form cut short, is damage.
        var damaged = stored
        damaged.replaceSubrange((stored.count - 4)..<stored.count, with: [0xFF, 0xFF, 0xFF, 0x7F])
        var twice = stored
        twice.replaceSubrange((stored.count - 4)..<stored.count, with: stored[(stored.count - 8)..<(stored.count - 4)])
        for form in [damaged, twice, Array(stored.dropLast())] {
            #expect(throws: ListingIndex.Unusable.self) {
                try form.withUnsafeBytes { raw in
                    var reader = ListingIndex.Reader(data: raw)
                    _ = try FolderNames.read(from: &reader)
                }
            }
        }
    }

    @Test func aListingFromTheIndexAfterAReplacedFileListsWhatTheFolderHolds() throws {
        let url = try Self.folder(Self.names)
        let cacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "calgw-cache-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: url)
            try? FileManager.default.removeItem(at: cacheFolder)
        }
        let cache = ListingCache(folder: cacheFolder, fingerprint: ListingIndexTests.fingerprint)
        func listed() -> [String] {
            let listing = ListedFiles.vdir(url.path, cache: cache).listing
            listing.index?.save()
            return (0..<listing.count).map(listing.name(of:))
        }
        #expect(listed() == Self.names.sorted())
        try Data("edited".utf8).write(to: url.appendingPathComponent(".tmp"))
        #expect(rename(url.appendingPathComponent(".tmp").path, url.appendingPathComponent(Self.names[3]).path) == 0)
        #expect(listed() == Self.names.sorted())
        try Data().write(to: url.appendingPathComponent("000-first.ics"))
        #expect(listed() == (Self.names + ["000-first.ics"]).sorted())
    }
}
