import CalgwTestSupport
import Failures
import Foundation
import Testing
import VDir
@testable import CalendarSync

/// The folders an account run makes for itself: a failure to make one is an explained error
/// naming the folder, with what to do, never Foundation's bare error.
@Suite struct AccountFolderTests {
    /// A file where the account's state folder should be: the run stops before asking the
    /// server, with an `io` error naming the folder, the system's reason and a recovery.
    @Test func aStateFolderThatCannotBeMadeIsExplained() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let blocker = folder.file("state")
        try Data("not a folder".utf8).write(to: blocker)
        let local = folder.file("calendars")
        try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
        // Nothing listens on port 1: the run must fail before it reaches the server.
        let pair = Pair(
            name: "acct", local: .vdir(local),
            remote: .server(URL(string: "http://127.0.0.1:1/dav/")!, server: ServerSettings()),
            collections: .all, journal: blocker.appendingPathComponent("acct.sqlite"))
        do {
            _ = try await PairRun(pair: pair).run()
            Issue.record("the run should have failed")
        } catch let error as any ExplainedError {
            #expect(error.errorCode == "io")
            #expect(error.message.contains("cannot make the account's state folder"), "\(error.message)")
            #expect(error.message.contains("Not a directory"), "\(error.message)")
            #expect(error.recovery?.isEmpty == false)
            #expect(error.kind == .failed)
        }
    }

    /// The POSIX number under Foundation's error is kept, so a full disk or a permission is
    /// told apart as for any file error.
    @Test func theSystemErrorNumberIsKept() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let blocker = folder.file("file")
        try Data().write(to: blocker)
        do {
            try FolderCreation.make(blocker.appendingPathComponent("sub"), what: "a test folder")
            Issue.record("making a folder under a file should fail")
        } catch let error as any FileSystemFailure {
            #expect(error.systemErrorNumber == ENOTDIR, "a file where a folder is to be made")
            #expect(error.failedPath == blocker.appendingPathComponent("sub").path)
        }
    }
}
