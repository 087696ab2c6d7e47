import CalgwTestSupport
import Foundation
import Testing
import VDir
@testable import CalendarSync

/// What `list` reads: a pair's vdir as its sync's scan finds it, and a folder given to
/// `list --local` as it always listed one, each file with its stamp.
@Suite struct ListedFilesTests {
    /// A folder holding what a vdir should and should not list: item files in any case, a
    /// dotfile, an editor's leftover, a subfolder, a folder named like an item, links to a
    /// file, to a folder and to nothing, a FIFO, and a name that is not UTF-8.
    static func awkwardFolder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let fm = FileManager.default
        for name in ["b.ics", "A.ICS", "c d.ics", ".hidden.ics", "x.ics~", "notes.txt", "sub/in.ics", "sub/.h.ics"] {
            try fm.createDirectory(
                at: folder.file(name).deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8).write(to: folder.file(name))
        }
        try fm.createDirectory(at: folder.file("dir.ics"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: folder.file("link.ics").path, withDestinationPath: "b.ics")
        try fm.createSymbolicLink(atPath: folder.file("folderlink").path, withDestinationPath: "sub")
        try fm.createSymbolicLink(atPath: folder.file("broken.ics").path, withDestinationPath: "nowhere.ics")
        #expect(mkfifo(folder.file("fifo.ics").path, 0o600) == 0)
        // "café.ics" in Latin-1.
        let latin1 = Array((folder.url.path + "/caf").utf8) + [0xE9] + Array(".ics".utf8) + [0]
        let fd = latin1.withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT, 0o600)
        }
        #expect(fd >= 0)
        close(fd)
        return folder
    }

    @Test func aVDirIsListedAsItsSyncScanFindsIt() throws {
        let folder = try Self.awkwardFolder()
        defer { folder.remove() }
        var listing = ListedFiles(root: folder.url.path)
        let added = listing.addVDir(folder.url.path, relative: "", calendar: nil)
        #expect(added)
        let scanned = try VDirectory(url: folder.url).scan()
        let names = (0..<listing.count).map(listing.name(of:))
        #expect(names == scanned.map(\.name))
        #expect(names == ["A.ICS", "b.ics", "c d.ics", "link.ics"])
        // Each stamp is the file's own (a link's is its target's).
        for i in 0..<listing.count {
            var info = stat()
            #expect(stat(listing.path(of: i), &info) == 0)
            #expect(listing.stamps[i]?.inode == UInt64(info.st_ino))
            #expect(
                listing.stamps[i]?.changed == Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
        }
    }

    /// `list --local` lists what it listed before it kept stamps: names in order, a
    /// subfolder's files where its name falls (a folder named like an item is a subfolder),
    /// links to folders not followed, whatever else an item's name names kept (to be
    /// reported when it cannot be read).
    @Test func aLocalFolderIsListedWithItsSubfolders() throws {
        let folder = try Self.awkwardFolder()
        defer { folder.remove() }
        let listing = ListedFiles.local(folder: folder.url)
        let paths = (0..<listing.count).map { String(listing.path(of: $0).dropFirst(folder.url.path.count + 1)) }
        #expect(
            paths == [
                "A.ICS", "b.ics", "broken.ics", "c d.ics", "caf\u{FFFD}.ics", "fifo.ics", "link.ics", "sub/in.ics",
            ])
        let stamped = (0..<listing.count).filter { listing.stamps[$0] != nil }.map(listing.name(of:))
        #expect(stamped == ["A.ICS", "b.ics", "c d.ics", "caf\u{FFFD}.ics", "link.ics", "in.ics"])
        #expect(listing.relativeFolder(of: listing.count - 1) == "sub/")
    }

    @Test func aSingleFileIsItsOwnRoot() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("all.ics")
        #expect(ListedFiles.single(file).count == 0)
        try Data("x".utf8).write(to: file)
        let listing = ListedFiles.single(file)
        #expect(listing.root == file.path)
        #expect(listing.count == 1)
        #expect(listing.path(of: 0) == file.path)
        #expect(listing.stamps[0]?.size == 1)
    }

    /// A vdir listed `seconds` after now (so that nothing changed now is within the racy
    /// margin), with the index in `cache`, saved.
    static func listed(_ folder: URL, cache: URL, startingIn seconds: Int64 = 10) -> ListedFiles {
        var listing = ListedFiles(root: folder.path, startedAt: FileStamp.now() + seconds * 1_000_000_000)
        listing.openIndex(ListingCache(folder: cache, fingerprint: ZoneDataFingerprint(digest: [1])))
        #expect(listing.addVDir(folder.path, relative: "", calendar: nil) == true)
        listing.checkIndex()
        listing.index?.save()
        return listing
    }

    /// A folder whose stamp is the same has the same names: they are taken from the index,
    /// not read again. Adding, removing or renaming a file changes the folder's stamp; editing
    /// one in place does not, and its own stamp tells.
    @Test func aFolderUnchangedIsNotReadAgain() throws {
        let folder = try TemporaryFolder()
        let cache = try TemporaryFolder()
        defer { folder.remove(); cache.remove() }
        for name in ["a.ics", "b.ics"] { try Data("x".utf8).write(to: folder.file(name)) }
        let first = Self.listed(folder.url, cache: cache.url)
        #expect(first.scanned.map(\.fromIndex) == [false])
        let second = Self.listed(folder.url, cache: cache.url)
        #expect(second.scanned.map(\.fromIndex) == [true])
        #expect((0..<second.count).map(second.name(of:)) == ["a.ics", "b.ics"])

        try Data("yy".utf8).write(to: folder.file("a.tmp"))
        #expect(rename(folder.file("a.tmp").path, folder.file("a.ics").path) == 0)
        let afterRewrite = Self.listed(folder.url, cache: cache.url)
        #expect(afterRewrite.scanned.map(\.fromIndex) == [false])
        let handle = try FileHandle(forWritingTo: folder.file("b.ics"))
        try handle.write(contentsOf: Data("z".utf8))
        try handle.close()
        let afterEdit = Self.listed(folder.url, cache: cache.url)
        #expect(afterEdit.scanned.map(\.fromIndex) == [true])
        #expect(afterEdit.stamps[1] != afterRewrite.stamps[1])

        try Data("x".utf8).write(to: folder.file("c.ics"))
        let afterAdd = Self.listed(folder.url, cache: cache.url)
        #expect(afterAdd.scanned.map(\.fromIndex) == [false])
        #expect((0..<afterAdd.count).map(afterAdd.name(of:)) == ["a.ics", "b.ics", "c.ics"])
        try FileManager.default.removeItem(at: folder.file("a.ics"))
        let afterRemove = Self.listed(folder.url, cache: cache.url)
        #expect((0..<afterRemove.count).map(afterRemove.name(of:)) == ["b.ics", "c.ics"])
    }

    /// A folder changed within the racy margin of the listing that read it is read again next
    /// time, though its stamp is the same.
    @Test func aFolderChangedAsItWasReadIsReadAgain() throws {
        let folder = try TemporaryFolder()
        let cache = try TemporaryFolder()
        defer { folder.remove(); cache.remove() }
        try Data("x".utf8).write(to: folder.file("a.ics"))
        let racy = Self.listed(folder.url, cache: cache.url, startingIn: 0)
        #expect(racy.scanned.map(\.isRacy) == [true])
        let next = Self.listed(folder.url, cache: cache.url)
        #expect(next.scanned.map(\.fromIndex) == [false])
        #expect(Self.listed(folder.url, cache: cache.url).scanned.map(\.fromIndex) == [true])
    }
}
