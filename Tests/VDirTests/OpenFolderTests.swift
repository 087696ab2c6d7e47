import Foundation
import Testing
import CalgwTestSupport
@testable import VDir

/// Files created in a folder held open: the same guarantees as by path, whichever way the
/// kernel lets the unnamed file be named.
@Suite(.serialized) struct OpenFolderTests {
    @Test(arguments: [true, false])
    func createsInTheOpenFolderAndNeverReplaces(byDescriptor: Bool) throws {
        let before = AtomicFile.linksByDescriptor.load(ordering: .relaxed)
        AtomicFile.linksByDescriptor.store(byDescriptor, ordering: .relaxed)
        defer { AtomicFile.linksByDescriptor.store(before, ordering: .relaxed) }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let open = try OpenFolder(path: folder.url.path)
        let content = Array("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8)

        let signature = try content.withUnsafeBufferPointer {
            try AtomicFile.create(named: "a.ics", in: open, bytes: $0, syncContent: false, syncFolder: true)
        }
        let path = folder.file("a.ics").path
        #expect(FileManager.default.contents(atPath: path) == Data(content))
        #expect(signature == FileSignature.of(path: path), "the signature is the file's")

        let taken = #expect(throws: AtomicFileError.self) {
            try Array("other".utf8).withUnsafeBufferPointer {
                try AtomicFile.create(named: "a.ics", in: open, bytes: $0, syncContent: true, syncFolder: false)
            }
        }
        #expect(taken?.code == EEXIST)
        #expect(taken?.path == path, "the error names the file")
        #expect(FileManager.default.contents(atPath: path) == Data(content), "an existing file is never replaced")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(names == ["a.ics"], "temporary files left behind: \(names)")
    }

    @Test func aMissingFolderSaysSo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let missing = #expect(throws: AtomicFileError.self) { try OpenFolder(path: folder.file("gone").path) }
        #expect(missing?.code == ENOENT)
    }

    @Test func aVDirCreatesThroughItsOpenFolderAndChecksNames() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let vdir = VDirectory(url: folder.url, durability: .batched)
        let open = try vdir.openFolder()
        let signature = try vdir.create("b.ics", data: Data("x".utf8), in: open)
        #expect(try vdir.scan().map(\.name) == ["b.ics"])
        #expect(try vdir.scan().first?.signature == signature)
        #expect(throws: VDirError.self) { try vdir.create("../escape.ics", data: Data("x".utf8), in: open) }
        #expect(throws: VDirError.self) { try vdir.create("b.ics", data: Data("y".utf8), in: open) }
        try vdir.makeDurable()
        #expect(FileManager.default.contents(atPath: folder.file("b.ics").path) == Data("x".utf8))
    }
}
