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
}
