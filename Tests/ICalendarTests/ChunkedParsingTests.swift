import Foundation
import Testing
import CalgwTestSupport
@testable import ICalendar

/// Reading a file in chunks gives the same tree as reading it whole, wherever the chunks end:
/// inside a CRLF, inside a UTF-8 sequence, inside a BOM, between a line and its continuation.
@Suite struct ChunkedParsingTests {
    @Test(arguments: [1, 2, 3, 5, 7, 64, 4096])
    func chunkBoundariesDoNotMatter(chunkSize: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let files = CorpusFiles.icsFiles().filter { CorpusRoundTripTests.expectedErrors[$0.lastPathComponent] == nil }
        #expect(files.count > 100)
        for url in files.prefix(chunkSize < 8 ? 25 : files.count) {
            let whole = try ICalendarParser().parse(Data(contentsOf: url))
            let chunked = try ICalendarParser().parse(contentsOf: url, chunkSize: chunkSize)
            #expect(chunked.components == whole.components, "\(url.lastPathComponent) with \(chunkSize)-byte chunks")
            #expect(chunked.warnings == whole.warnings)
        }
        let tricky = folder.file("tricky.ics")
        try Data(
            [0xEF, 0xBB, 0xBF] + Array("BEGIN:VCALENDAR\r\nSUMMARY:caf\u{e9} 😀\r\n  folded\r\n\r\nEND:VCALENDAR".utf8)
        ).write(to: tricky)
        let c = try #require(try ICalendarParser().parse(contentsOf: tricky, chunkSize: chunkSize).calendar)
        #expect(c["SUMMARY"]?.value == "caf\u{e9} 😀 folded")
    }

    @Test func chunkedSerializationMatchesWholeSerialization() throws {
        for url in CorpusFiles.icsFiles() where CorpusRoundTripTests.expectedErrors[url.lastPathComponent] == nil {
            let parsed = try ICalendarParser().parse(Data(contentsOf: url))
            var chunks: [UInt8] = []
            ICalendarSerializer().serialize(parsed.components, chunkSize: 16) { chunks.append(contentsOf: $0) }
            #expect(chunks == ICalendarSerializer().serialize(parsed.components), "\(url.lastPathComponent)")
        }
    }
}
