import Foundation
import Testing
import CalgwTestSupport
@testable import VDir

@Suite struct VDirectoryTests {
    let event = Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)

    @Test func scanSeesOnlyItemFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for name in [
            "a.ics", "B.ICS", ".hidden.ics", ".#a.ics", ".a.ics.swp", "a.ics~", "notes.txt", "displayname", "a.ics.tmp",
            "color",
        ] {
            try event.write(to: folder.file(name))
        }
        try FileManager.default.createDirectory(at: folder.file("sub.ics"), withIntermediateDirectories: true)
        symlink("/nonexistent", folder.file("dangling.ics").path)
        let names = try VDirectory(url: folder.url).scan().map(\.name)
        #expect(names == ["B.ICS", "a.ics"])
    }

    /// A folder large enough to be stat'ed on every core lists exactly what one `stat` per
    /// path finds, in byte order: folders, dangling links and files that are not items left out.
    @Test func aLargeFolderIsListedAsEachFilesOwnStatSaysInByteOrder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let count = VDirectory.parallelStatMinimum + 1_000
        for i in 0..<count {
            #expect(
                FileManager.default.createFile(
                    atPath: folder.file("e\(i).ics").path, contents: Data(repeating: 65, count: i % 97)))
        }
        try FileManager.default.createDirectory(at: folder.file("sub.ics"), withIntermediateDirectories: true)
        symlink("/nonexistent", folder.file("dangling.ics").path)
        symlink(folder.file("e1.ics").path, folder.file("linked.ics").path)
        try event.write(to: folder.file("notes.txt"))
        let entries = try VDirectory(url: folder.url).scan()
        #expect(entries.count == count + 1)
        #expect(zip(entries, entries.dropFirst()).allSatisfy { VDirectory.precedes($0.name, $1.name) })
        for entry in entries {
            #expect(entry.signature == FileSignature.of(path: folder.file(entry.name).path), "\(entry.name)")
        }
    }

    @Test func itemNamesAreDecidedByTheirBytes() {
        for name in ["a.ics", "B.ICS", "x.Ics", "événement.ics", "a b.ics"] {
            #expect(ItemFileFilter.isItem(name), "\(name)")
        }
        for name in [
            ".ics", "ics", "a.ics~", ".a.ics", "a\u{0E}ics", "a\u{0E}ICS", "a_ics", "a.icss", "a/b.ics", "a.ics.tmp",
            "a.ic",
        ] {
            #expect(!ItemFileFilter.isItem(name), "\(name)")
        }
    }

    @Test func listingsAreOrderedByTheirBytes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let names = ["b.ics", "a.ics", "Z.ics", "é.ics", "e.ics", "aa.ics"]
        for name in names { try event.write(to: folder.file(name)) }
        let listed = try VDirectory(url: folder.url).scan().map(\.name)
        #expect(listed == names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        #expect(listed.first == "Z.ics" && listed.last == "é.ics")
    }

    /// A name that is not UTF-8 cannot be a `String`: the listing passes over it and keeps the rest.
    @Test func namesThatAreNotUTF8ArePassedOver() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try event.write(to: folder.file("a.ics"))
        let bad: [UInt8] = Array(folder.url.path.utf8) + [UInt8(ascii: "/"), 0xFF, 0xFE] + Array(".ics".utf8) + [0]
        let fd = bad.withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644)
        }
        #expect(fd >= 0)
        close(fd)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).count == 2)
        #expect(try VDirectory(url: folder.url).scan().map(\.name) == ["a.ics"])
        let listing = try VDirectory(url: folder.url).list()
        #expect(listing.count == 1 && listing.name(at: 0) == "a.ics")
    }

    /// The compact listing holds what the entries do, in their order, names not ASCII included.
    @Test func aListingHoldsTheEntriesOfAScan() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for name in ["b.ics", "a.ics", "é.ics", "日本.ics", "z z.ics"] { try event.write(to: folder.file(name)) }
        let directory = VDirectory(url: folder.url)
        let listing = try directory.list()
        let entries = try directory.scan()
        #expect(listing.count == 5)
        #expect((0..<listing.count).map(listing.entry(at:)) == entries)
        #expect(listing.signatures == entries.map(\.signature))
    }

    /// The etag's form is what journals hold: FNV-1a over the three numbers' little-endian
    /// bytes, written as 11 digits of 6 bits, lowest first.
    @Test func anEtagIsItsSignatureHashedIntoElevenDigits() {
        func reference(_ s: FileSignature) -> String {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for word in [UInt64(bitPattern: s.modificationNanoseconds), UInt64(bitPattern: s.size), s.inode] {
                for byte in withUnsafeBytes(of: word.littleEndian, Array.init) {
                    hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
                }
            }
            let digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            return String((0..<11).map { digits[Int((hash >> (6 * UInt64($0))) & 63)] })
        }
        #expect(
            FileSignature(modificationNanoseconds: 1_764_000_000_123_456_789, size: 742, inode: 1_234_567).etag
                == "xz3_ypN78LP")
        var random = SeededRandom(seed: 7)
        for _ in 0..<1_000 {
            let s = FileSignature(
                modificationNanoseconds: Int64(bitPattern: random.next()), size: Int64(random.next() % 1_000_000),
                inode: random.next())
            #expect(s.etag == reference(s))
        }
    }

    @Test func signatureChangesWithContent() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let dir = VDirectory(url: folder.url)
        let first = try dir.create("a.ics", data: event)
        #expect(FileSignature(legacyEtag: first.legacyEtag) == first)
        #expect(first.size == Int64(event.count))
        let second = try dir.replace("a.ics", data: event + Data("X".utf8), ifSignature: first)
        #expect(second != first)
        #expect(second.etag != first.etag)
        #expect(try dir.read("a.ics")?.signature == second)
        // The short etag is kept inline (at most 15 bytes) and matches only its signature; the
        // etag of earlier versions still matches, for journals written by them.
        #expect(second.etag.utf8.count <= 15)
        #expect(second.matches(etag: second.etag) && second.matches(etag: second.legacyEtag))
        #expect(!second.matches(etag: first.etag) && !second.matches(etag: first.legacyEtag))
        #expect(throws: VDirError.self) { try dir.replace("a.ics", data: event, ifEtag: first.etag) }
        let third = try dir.replace("a.ics", data: event, ifEtag: second.legacyEtag)
        #expect(throws: VDirError.self) { try dir.delete("a.ics", ifEtag: second.etag) }
        try dir.delete("a.ics", ifEtag: third.etag)
        #expect(try dir.read("a.ics") == nil)
    }

    /// Batched writes behave as immediate ones (same files, same refusals, no temporary files
    /// left), and `makeDurable` flushes them without error.
    @Test func batchedWritesLandLikeImmediateOnes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let dir = VDirectory(url: folder.url, durability: .batched)
        var signatures: [String: FileSignature] = [:]
        for i in 0..<20 { signatures["e\(i).ics"] = try dir.create("e\(i).ics", data: event) }
        let replaced = try dir.replace("e0.ics", data: event + Data("X".utf8), ifSignature: signatures["e0.ics"]!)
        try dir.delete("e1.ics", ifSignature: signatures["e1.ics"]!)
        #expect { try dir.create("e2.ics", data: event) } throws: { ($0 as? VDirError)?.code == .alreadyExists }
        #expect(
            dir.unsynced.files.withLock { $0.count == 20 && $0.paths.count == VDirectory.fileSyncLimit },
            "new files wait for makeDurable; past the limit their paths are not kept")
        try dir.makeDurable()
        #expect(dir.unsynced.files.withLock { $0.count == 0 && $0.paths.isEmpty })
        #expect(try dir.scan().count == 19)
        // A small batch (fsynced file by file), one of its files deleted before the flush.
        let small = try (0..<3).map { try dir.create("s\($0).ics", data: event) }
        try dir.delete("s1.ics", ifSignature: small[1])
        #expect(dir.unsynced.files.withLock { $0.count == 3 && $0.paths.count == 3 })
        try dir.makeDurable()
        #expect(dir.unsynced.files.withLock { $0.count == 0 && $0.paths.isEmpty })
        #expect(try dir.scan().count == 21)
        #expect(try dir.read("e0.ics")?.signature == replaced)
        #expect(try dir.read("e5.ics")?.data == event)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).allSatisfy { !$0.hasPrefix(".") })
        #expect(AtomicFile.canSyncFileSystem, "Linux flushes a batch with syncfs")
    }

    @Test func aWriterTakesAPath() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let writer = try AtomicFileWriter(replacingFileAt: folder.file("x.ics").path)
        try Array("abc".utf8).withUnsafeBufferPointer { try writer.write($0) }
        try writer.commitIfAbsent()
        #expect(try Data(contentsOf: folder.file("x.ics")) == Data("abc".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["x.ics"])
    }

    @Test func createNeverOverwrites() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let dir = VDirectory(url: folder.url)
        try Data("mine".utf8).write(to: folder.file("a.ics"))
        #expect { try dir.create("a.ics", data: event) } throws: { ($0 as? VDirError)?.code == .alreadyExists }
        #expect(try Data(contentsOf: folder.file("a.ics")) == Data("mine".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["a.ics"])
    }

    @Test func replaceAndDeleteRefuseAChangedFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let dir = VDirectory(url: folder.url)
        let old = try dir.create("a.ics", data: event)
        // Someone edits the file (new inode, as editors that save atomically do).
        try Data("edited by hand".utf8).write(to: folder.file("a.ics"), options: .atomic)
        #expect { try dir.replace("a.ics", data: event, ifSignature: old) } throws: {
            ($0 as? VDirError)?.code == .changedMeanwhile
        }
        #expect { try dir.delete("a.ics", ifSignature: old) } throws: { ($0 as? VDirError)?.code == .changedMeanwhile }
        #expect(try Data(contentsOf: folder.file("a.ics")) == Data("edited by hand".utf8))
        let current = try #require(try dir.read("a.ics")).signature
        try dir.delete("a.ics", ifSignature: current)
        #expect(try dir.read("a.ics") == nil)
        try dir.delete("a.ics", ifSignature: current)  // already gone: fine
    }

    @Test func namesThatLeaveTheFolderAreRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let dir = VDirectory(url: folder.file("vdir"))
        try dir.createIfMissing()
        for bad in ["../x.ics", "sub/x.ics", ".x.ics", "/etc/x.ics", "x.txt"] {
            #expect { try dir.create(bad, data: event) } throws: { ($0 as? VDirError)?.code == .unsafeName }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.ics").path))
    }

    /// Names keep exactly ASCII letters, digits and `-_.@+=`: every other byte is replaced.
    @Test func theBytesANameKeepsAreLettersDigitsAndSixMarks() {
        let kept = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.@+=".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(SafeFileName.isAllowed(byte) == kept.contains(byte), "byte \(byte)")
        }
        #expect(SafeFileName.isSafeStem("a-Z_0.9@b+c=d"))
        #expect(!SafeFileName.isSafeStem("a,b"))
        // The bit table a name is checked with says the same of every ASCII byte.
        for byte in UInt8(0)..<0x80 {
            let word = byte < 0x40 ? SafeFileName.allowedLow : SafeFileName.allowedHigh
            #expect(((word >> UInt64(byte & 0x3F)) & 1 == 1) == kept.contains(byte), "byte \(byte)")
            let name = "a" + String(UnicodeScalar(byte)) + "b"
            #expect((SafeFileName.stem(forUID: name) == name) == kept.contains(byte), "byte \(byte)")
        }
        #expect(SafeFileName.stem(forUID: "café") != "café")
    }

    @Test func safeFileNamesFromUIDs() {
        #expect(SafeFileName.stem(forUID: "abc-123@example.com") == "abc-123@example.com")
        let slash = SafeFileName.stem(forUID: "a/b")
        #expect(!slash.contains("/") && slash.hasPrefix("a_b-"))
        #expect(SafeFileName.stem(forUID: "a b") != SafeFileName.stem(forUID: "a_b"))
        #expect(SafeFileName.stem(forUID: "../../etc/passwd").allSatisfy { $0 != "/" })
        #expect(!SafeFileName.stem(forUID: "..").hasPrefix("."))
        let unicode = SafeFileName.stem(forUID: "Früh stück ☕")
        #expect(unicode.utf8.allSatisfy { $0 < 128 })
        #expect(SafeFileName.stem(forUID: "Früh stück ☕") == unicode, "stable")
        #expect(SafeFileName.stem(forUID: String(repeating: "x", count: 500)).utf8.count < 100)
        #expect(SafeFileName.stem(forUID: "") != "")
    }

    @Test func metadataFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let dir = VDirectory(url: folder.url)
        #expect(dir.metadata(.displayName) == nil)
        try dir.setMetadata(.displayName, "Work")
        try dir.setMetadata(.color, "#00ff00")
        #expect(dir.metadata(.displayName) == "Work")
        #expect(dir.metadata(.color) == "#00ff00")
        #expect(try dir.scan().isEmpty)
    }
}
