import Foundation
import ICalendar
import Testing
import CalgwTestSupport
@testable import CalendarSync

/// The splitting of a feed into one calendar object per UID.
@Suite struct FeedSplitterTests {
    static let zone = TestEvent.centralEuropeanZone()

    /// Splits `text` in chunks of `chunk` bytes, as the network would hand it over.
    static func split(_ text: String, chunk: Int = 7, maxLineLength: Int = 4096) throws -> [FeedSplitter.Item] {
        var splitter = FeedSplitter(maxLineLength: maxLineLength)
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(start + chunk, bytes.count)
            try bytes[start..<end].withUnsafeBytes { try splitter.consume($0) }
            start = end
        }
        return try splitter.finish()
    }

    static func text(_ item: FeedSplitter.Item) -> String { String(decoding: item.data, as: UTF8.self) }

    @Test func overridesStayWithTheirSeriesAndZonesGoWhereUsed() throws {
        let feed =
            "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//Example//Feed//EN\nMETHOD:PUBLISH\nX-WR-CALNAME:Holidays\n"
            + "BEGIN:VEVENT\nUID:series\nDTSTART;TZID=Europe/Berlin:20260302T090000\nRRULE:FREQ=WEEKLY\nSUMMARY:Standup\nEND:VEVENT\n"
            + "BEGIN:VEVENT\nUID:plain\nDTSTART;VALUE=DATE:20260401\nSUMMARY:A long\n  folded summary\nEND:VEVENT\n"
            + "BEGIN:VTODO\nUID:task\nSUMMARY:Taxes\nEND:VTODO\n"
            + "BEGIN:VJOURNAL\nUID:note\nSUMMARY:Note\nEND:VJOURNAL\n"
            + "BEGIN:X-VENDOR-THING\nUID:odd\nX-WHAT:kept\nEND:X-VENDOR-THING\n"
            + Self.zone.replacingOccurrences(of: "\r", with: "")
            + "BEGIN:VEVENT\nUID:series\nRECURRENCE-ID;TZID=Europe/Berlin:20260309T090000\nDTSTART;TZID=Europe/Berlin:20260309T100000\n"
            + "SUMMARY:Standup moved\nBEGIN:VALARM\nACTION:DISPLAY\nTRIGGER:-PT5M\nEND:VALARM\nEND:VEVENT\n"
            + "END:VCALENDAR\n"
        let items = try Self.split(feed)
        #expect(items.map(\.uid) == ["series", "plain", "task", "note", "odd"])
        let series = Self.text(items[0])
        #expect(series.contains("SUMMARY:Standup\r\n") && series.contains("SUMMARY:Standup moved\r\n"), "\(series)")
        #expect(
            series.contains("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n"),
            "the zone the series uses goes with it: \(series)")
        #expect(series.contains("BEGIN:VALARM"), "\(series)")
        #expect(
            !series.contains("METHOD") && !series.contains("X-WR-CALNAME"),
            "calendar-level properties describe the feed")
        #expect(series.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Example//Feed//EN\r\n"), "\(series)")
        #expect(!Self.text(items[1]).contains("VTIMEZONE"), "no zone where none is used")
        #expect(
            Self.text(items[1]).contains("SUMMARY:A long\r\n  folded summary\r\n"), "folded lines are kept as written")
        #expect(Self.text(items[2]).contains("BEGIN:VTODO") && Self.text(items[3]).contains("BEGIN:VJOURNAL"))
        #expect(Self.text(items[4]).contains("BEGIN:X-VENDOR-THING\r\nUID:odd\r\nX-WHAT:kept\r\n"))
        for item in items {
            let parsed = try ICalendarParser().parse(item.data)
            #expect(parsed.components.count == 1, "\(item.uid) is one VCALENDAR")
        }
    }

    @Test func eventsWithoutUIDGetTheSameKeyOnEveryDownload() throws {
        func feed(stamp: String) -> String {
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n"
                + "BEGIN:VEVENT\r\nDTSTAMP:\(stamp)\r\nDTSTART;VALUE=DATE:20261225\r\nSUMMARY:Christmas\r\nEND:VEVENT\r\n"
                + "BEGIN:VEVENT\r\nDTSTAMP:\(stamp)\r\nDTSTART;VALUE=DATE:20260101\r\nSUMMARY:New Year\r\nEND:VEVENT\r\n"
                + "BEGIN:VEVENT\r\nDTSTAMP:\(stamp)\r\nDTSTART;VALUE=DATE:20260101\r\nSUMMARY:New Year\r\nEND:VEVENT\r\n"
                + "END:VCALENDAR\r\n"
        }
        let first = try Self.split(feed(stamp: "20260101T000000Z")),
            second = try Self.split(feed(stamp: "20260202T101010Z"), chunk: 3)
        #expect(first.count == 2, "an event listed twice is one event")
        #expect(first.map(\.uid) == second.map(\.uid))
        #expect(first.allSatisfy { $0.uid.hasPrefix("calgw-") && $0.uid.count == 38 })
        #expect(Set(first.map(\.uid)).count == 2)
        #expect(
            Self.text(first[0]).contains("BEGIN:VEVENT\r\nUID:\(first[0].uid)\r\n"), "the UID is written into the item")
    }

    @Test func aRestampedItemKeepsItsDigestAndAChangedOneDoesNot() throws {
        func feed(_ stamp: String, _ summary: String) -> String {
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:\(stamp)\r\nDTSTART;TZID=Europe/Berlin:20260302T090000\r\n"
                + "SUMMARY:\(summary)\r\nEND:VEVENT\r\n" + Self.zone + "END:VCALENDAR\r\n"
        }
        let first = try Self.split(feed("20260101T000000Z", "A"))[0]
        let restamped = try Self.split(feed("20260909T090909Z", "A"), chunk: 5)[0]
        let changed = try Self.split(feed("20260101T000000Z", "B"))[0]
        let otherZone = try Self.split(
            feed("20260101T000000Z", "A").replacingOccurrences(of: "TZOFFSETTO:+0200", with: "TZOFFSETTO:+0300"))[0]
        #expect(first.data != restamped.data && first.digest == restamped.digest)
        #expect(first.digest != changed.digest)
        #expect(first.digest != otherZone.digest, "the item's VTIMEZONE counts")
    }

    @Test(arguments: [
        ("", "the feed is empty"),
        ("  \r\n\r\n", "the feed is empty"),
        ("<!DOCTYPE html>\n<html><body>Sign in</body></html>\n", "the feed is a web page"),
        ("Not Found\n", "has no colon"),
        ("BEGIN:VCARD\nEND:VCARD\n", "where BEGIN:VCALENDAR should be"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nSUMMARY:cut", "the download was cut short"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nEND:VTODO\nEND:VCALENDAR\n", "END:VTODO where END:VEVENT should be"),
        (
            "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nDESCRIPTION:" + String(repeating: "x", count: 5000)
                + "\nEND:VEVENT\nEND:VCALENDAR\n", "longer than 4096 bytes"
        ),
        (
            "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nDESCRIPTION:x\n" + String(repeating: " folded\n", count: 800)
                + "END:VEVENT\nEND:VCALENDAR\n", "longer than 4096 bytes"
        ),
    ])
    func badFeedsAreRefusedWithTheReason(feed: String, reason: String) throws {
        #expect { _ = try Self.split(feed) } throws: { error in
            let message = (error as? SubscriptionError)?.message ?? ""
            return message.contains(reason)
        }
    }

    @Test func aLongLineIsRefusedWhateverTheChunks() throws {
        let feed =
            "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nDESCRIPTION:" + String(repeating: "x", count: 5000)
            + "\nEND:VEVENT\nEND:VCALENDAR\n"
        for chunk in [7, 1000, 100_000] {
            #expect(throws: SubscriptionError.self, "chunks of \(chunk)") { _ = try Self.split(feed, chunk: chunk) }
        }
    }

    @Test func aBOMAndBlankLinesAreTolerated() throws {
        let items = try Self.split(
            "\u{FEFF}BEGIN:VCALENDAR\r\n\r\nBEGIN:VEVENT\r\nUID:a\r\nEND:VEVENT\r\nEND:VCALENDAR")
        #expect(items.map(\.uid) == ["a"])
    }

    @Test func hrefsAreStableAndSafe() {
        #expect(SubscriptionStorage.href(forUID: "abc-123@example.com") == "abc-123@example.com.ics")
        let odd = SubscriptionStorage.href(forUID: "../x/y z")
        #expect(
            odd.value.hasPrefix("h-") && !odd.value.contains("/") && odd == SubscriptionStorage.href(forUID: "../x/y z")
        )
        #expect(SubscriptionStorage.href(forUID: "a b") != SubscriptionStorage.href(forUID: "a c"))
    }
}
