import Foundation
import Testing
import CalgwTestSupport
@testable import VDir

@Suite struct AtomicFileTests {
    @Test func replacesContentAndKeepsMode() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let target = folder.file("event.ics")
        try Data("old".utf8).write(to: target)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.path)

        try AtomicFile.write(Array("new content".utf8), to: target)

        #expect(try String(contentsOf: target, encoding: .utf8) == "new content")
        let mode = try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(leftovers == ["event.ics"], "temporary files left behind: \(leftovers)")
    }

    @Test func failureLeavesTargetUntouched() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let missingFolder = folder.file("no-such-folder/event.ics")
        #expect(throws: AtomicFileError.self) {
            try AtomicFile.write(Array("x".utf8), to: missingFolder)
        }
        #expect(!FileManager.default.fileExists(atPath: missingFolder.path))
    }

    @Test func createMakesANewFileAndNeverReplacesOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let target = folder.file("new.ics").path
        let content = Array("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8)
        let signature = try content.withUnsafeBufferPointer {
            try AtomicFile.create(at: target, bytes: $0, syncContent: false, syncFolder: false)
        }
        #expect(FileManager.default.contents(atPath: target) == Data(content))
        #expect(signature == FileSignature.of(path: target), "the signature is the file's")
        // 0644 less the umask (read from /proc: setting it to read it would race other tests).
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let umask = try #require(
            status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
                .flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) })
        let mode = try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int
        #expect(mode == 0o644 & ~umask)

        let taken = #expect(throws: AtomicFileError.self) {
            try Array("other".utf8).withUnsafeBufferPointer {
                try AtomicFile.create(at: target, bytes: $0, syncContent: true, syncFolder: true)
            }
        }
        #expect(taken?.code == EEXIST)
        #expect(FileManager.default.contents(atPath: target) == Data(content), "an existing file is never replaced")
        let missing = #expect(throws: AtomicFileError.self) {
            try Array("x".utf8).withUnsafeBufferPointer {
                try AtomicFile.create(
                    at: folder.file("gone/x.ics").path, bytes: $0, syncContent: false, syncFolder: false)
            }
        }
        #expect(missing?.code == ENOENT)
        let empty = try [UInt8]().withUnsafeBufferPointer {
            try AtomicFile.create(at: folder.file("empty.ics").path, bytes: $0, syncContent: true, syncFolder: true)
        }
        #expect(empty.size == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(names == ["empty.ics", "new.ics"], "temporary files left behind: \(names)")
    }
}
