@testable import CalDAV
import Failures
import Foundation
import ICalendar
import Recurrence
import Testing
import VDir
@testable import CalendarSync
import HTTP

/// Every error that can reach a person is explained the same way: a code, a message, a
/// recovery where one helps, the error underneath, and the kind that picks the exit code.
@Suite struct ExplainedErrorTests {
    /// One error of each type the libraries throw at a person.
    static let samples: [any Error] = [
        ICalendarSyntaxError(line: 3, reason: "a line without a colon"),
        RecurrenceRuleError("INTERVAL=0 is not a positive number"),
        VDirError(.io, "cannot write /cal/a.ics", errno: ENOSPC, path: "/cal/a.ics"),
        AtomicFileError(path: "/cal/a.ics", step: "write", errno: EROFS),
        HTTPError(.notFound, "GET /cal/a.ics answered 404", status: 404),
        SpanEditError.notRecurring(uid: "a"),
        StorageError.notPermitted(href: "/cal/a.ics", reason: "No write permission"),
        EventEditError.notFound(uid: "a", folder: "/cal"),
        SyncError(.scanFailed, "cannot read the local side"),
        JournalError(.locked, "the journal is in use"),
        SingleFileError(.notAFile, "/cal is not a file"),
        SubscriptionError(.tooLarge, "the feed is too large"),
        RunStopped(reason: "SIGINT"),
    ]

    @Test func everyLibraryErrorIsExplained() {
        for error in Self.samples {
            let explained = error as? any ExplainedError
            #expect(explained != nil, "\(type(of: error)) is not an ExplainedError")
            guard let explained else { continue }
            #expect(!explained.errorCode.isEmpty && !explained.message.isEmpty, "\(type(of: error))")
            #expect(
                explained.description == explained.message || explained.message.contains(explained.description)
                    || explained.description.contains(explained.message), "\(type(of: error))")
        }
    }

    @Test func theKindComesFromTheErrorNotItsText() {
        #expect(SyncError(.massDeletion, "authentication failed").kind == .refusedForSafety)
        #expect(SyncError(.authenticationFailed, "x").kind == .authentication)
        #expect(SyncError(.unknownCollection, "x").kind == .usage)
        #expect(SyncError(.scanFailed, "refused for safety").kind == .failed)
        #expect(HTTPError(.authenticationFailed, "x").kind == .authentication)
        #expect(HTTPError(.forbidden, "the server refused the credentials").kind == .failed)
        #expect(SingleFileError(.notAFile, "x").kind == .usage)
        #expect(SpanEditError.noSuchOccurrence(uid: "a", recurrenceID: "x").kind == .usage)
        #expect(SpanEditError.noMaster(uid: "a").kind == .failed)
    }

    @Test func theCauseChainGoesDownToTheSystemCall() {
        let disk = AtomicFileError(path: "/cal/a.ics", step: "write", errno: ENOSPC)
        let scan = SyncError.scanFailed(.local, disk)
        let lines = CauseChain.lines(under: scan)
        // The scan's message quotes the file's error already: only the system call's is added.
        #expect(scan.message.contains(disk.message))
        #expect(lines == [SystemError(ENOSPC)?.description], "\(lines)")
        let journal = JournalError(.storage, "the journal cannot be written", cause: disk)
        #expect(CauseChain.lines(under: journal) == [disk.message, SystemError(ENOSPC)?.description ?? ""])
        #expect(scan.recovery == disk.recovery && disk.recovery?.contains("free space") == true)
    }

    @Test func aServersStatusAndReasonAreDetails() {
        let url = URL(string: "https://user:secret@example.com/cal/a.ics")!
        let error = HTTPError.status(
            403, method: "PUT", url: url,
            body: Data("<d:error xmlns:d=\"DAV:\"><d:need-privileges/></d:error>".utf8))
        let lines = CauseChain.lines(under: error)
        #expect(lines.count == 1)
        #expect(lines[0].hasPrefix("forbidden, HTTP 403, https://example.com/cal/a.ics"), "\(lines)")
        #expect(!lines[0].contains("secret"))
    }

    @Test func unreadableXMLKeepsTheReadersErrorAsItsCause() throws {
        let reader = try MultistatusReader { _ in }
        let error = #expect(throws: HTTPError.self) {
            try reader.feed(Data("<d:multistatus xmlns:d=\"DAV:\"><d:response></d:multistatus>".utf8))
            _ = try reader.finish()
        }
        #expect(error?.code == .invalidResponse)
        #expect(error?.cause != nil, "\(String(describing: error))")
        // The message quotes the reader's reason already: `-v` adds only the code and URL line.
        if let error { #expect(CauseChain.lines(under: error).count == 1, "\(CauseChain.lines(under: error))") }
    }
}
