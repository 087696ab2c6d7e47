import CalendarSync
import CalgwTestSupport
import Foundation
import ICalendar
import Testing

/// The listing's table pads and trims its lines as Foundation did (`padding(toLength:)`, a
/// regular expression for trailing white space), only faster: the same text for any text.
@Suite struct OccurrenceTableTests {
    static let pieces = [
        "a", "Z", " ", "  ", "\t", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{2028}", "\u{2029}",
        "\u{3000}", "é", "e\u{301}", "😀", "会议", "✈", "\u{200B}",
    ]

    static func randomText(_ random: inout SeededRandom) -> String {
        (0..<Int.random(in: 0...6, using: &random)).map { _ in
            pieces[Int.random(in: 0..<pieces.count, using: &random)]
        }.joined()
    }

    @Test func trailingWhiteSpaceIsTrimmedAsTheRegularExpressionTrimsIt() {
        var random = SeededRandom(seed: 55)
        for _ in 0..<3_000 {
            let text = Self.randomText(&random)
            #expect(
                OccurrenceListing.trimmingTrailingSpace(text)
                    == text.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression),
                "\(Array(text.unicodeScalars).map { String($0.value, radix: 16) })")
        }
    }

    @Test func cellsArePaddedAsFoundationPadsThem() {
        var random = SeededRandom(seed: 56)
        for _ in 0..<1_000 {
            let text = Self.randomText(&random)
            for width in 0...14 {
                #expect(
                    OccurrenceListing.padding(text, to: width)
                        == text.padding(toLength: width, withPad: " ", startingAt: 0))
            }
        }
    }

    /// A summary whose characters take two UTF-16 units (an emoji) or are two scalars (an
    /// accent after its letter) is shown whole, whichever is longest, and the next column starts
    /// where the widest summary ends.
    @Test func noSummaryIsCutShortAndTheLocationsLineUp() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let summaries = ["Party 🎉", "Cafe\u{301} 会议", "Lunch", "🎉🎉🎉"]
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n"
        for (i, summary) in summaries.enumerated() {
            text += "BEGIN:VEVENT\r\nUID:\(i)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:2026030\(i + 1)T100000Z\r\n"
            text += "DURATION:PT1H\r\nSUMMARY:\(summary)\r\nLOCATION:Room \(i)\r\nEND:VEVENT\r\n"
        }
        let file = folder.file("a.ics")
        try Data((text + "END:VCALENDAR\r\n").utf8).write(to: file)
        let listing = OccurrenceListing(
            files: [file], from: 1_772_323_200, to: 1_775_001_600, zone: FixedOffsetZone.utc, hrefs: false)
        let rows = listing.table(zone: FixedOffsetZone.utc)
        #expect(rows.count == summaries.count)
        for (row, summary) in zip(rows, summaries) { #expect(row.contains(summary + " "), "\(row)") }
        let starts = Set(rows.map { $0.utf16.count - $0.utf16.split(separator: 0x20).last!.count })
        #expect(starts.count == 1, "\(rows)")
    }

    /// A LOCATION or SUMMARY with line breaks stays one row: each break becomes a space.
    @Test func aCellWithLineBreaksStaysOnOneLine() {
        #expect(OccurrenceListing.oneLine("Room 4\nFloor 2") == "Room 4 Floor 2")
        #expect(OccurrenceListing.oneLine("Room 4\r\nFloor 2\rWing B") == "Room 4 Floor 2 Wing B")
        #expect(OccurrenceListing.oneLine("Room 4") == "Room 4")
        var random = SeededRandom(seed: 57)
        for _ in 0..<1_000 {
            let line = OccurrenceListing.oneLine(Self.randomText(&random))
            #expect(!line.contains("\n") && !line.contains("\r") && !line.contains("\r\n"), "\(line.debugDescription)")
        }
    }
}
