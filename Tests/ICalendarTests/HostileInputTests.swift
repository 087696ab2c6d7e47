import Foundation
import Testing
@testable import ICalendar

/// Input built to hurt a parser: huge counts, huge lines, deep nesting, bytes that do not
/// belong in text. Each is read, or refused with a clear error — never a crash — and what is
/// read round-trips. The memory the command holds for such files is measured, and bounded, in
/// `CLITests.HostileFileBoundsTests`.
@Suite struct HostileInputTests {
    func calendar(_ body: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//x//EN\r\n" + body + "END:VCALENDAR\r\n"
    }

    @Test func aMillionPropertiesAreReadAndWrittenBack() throws {
        var body = "BEGIN:VEVENT\r\nUID:many@calgw.test\r\n"
        body.reserveCapacity(24_000_000)
        for i in 0..<1_000_000 { body += "X-N:\(i)\r\n" }
        body += "END:VEVENT\r\n"
        let text = calendar(body)
        let parsed = try ICalendarParser().parse(text)
        let event = try #require(parsed.calendar?.components.first)
        #expect(event.properties.count == 1_000_001)
        #expect(event.properties.last?.value == "999999")
        #expect(ICalendarSerializer().string(try #require(parsed.calendar)) == text)
    }

    @Test func aTenMegabyteLineIsFoldedAndUnfoldedIntact() throws {
        let value = String(repeating: "abcdefghé", count: 1_000_000)  // 10 MB of UTF-8
        let text = calendar("BEGIN:VEVENT\r\nUID:long@calgw.test\r\nDESCRIPTION:\(value)\r\nEND:VEVENT\r\n")
        let parsed = try ICalendarParser().parse(text)
        let written = ICalendarSerializer().serialize(try #require(parsed.calendar))
        // Every physical line is at most 75 octets plus CRLF.
        var longest = 0, current = 0
        for byte in written {
            if byte == 0x0A { longest = max(longest, current - 1); current = 0 } else { current += 1 }
        }
        #expect(longest <= 75)
        let back = try ICalendarParser().parse(Data(written))
        #expect(back.calendar?.components.first?["DESCRIPTION"]?.value == value)
    }

    @Test func componentsNestedTenThousandDeepAreRefusedWithTheLine() {
        let depth = 10_000
        var text = ""
        for _ in 0..<depth { text += "BEGIN:X-NEST\r\n" }
        for _ in 0..<depth { text += "END:X-NEST\r\n" }
        #expect {
            try ICalendarParser().parse(text)
        } throws: { error in
            guard let error = error as? ICalendarSyntaxError else { return false }
            return error.line == 101 && error.reason.contains("deeper than 100")
        }
    }

    @Test func nulAndControlBytesInValuesSurviveARoundTrip() throws {
        let text = calendar("BEGIN:VEVENT\r\nUID:nul@calgw.test\r\nSUMMARY:a\u{0}b\u{1}c\r\nEND:VEVENT\r\n")
        let parsed = try ICalendarParser().parse(text)
        let event = try #require(parsed.calendar?.components.first)
        #expect(event["SUMMARY"]?.value == "a\u{0}b\u{1}c")
        #expect(ICalendarSerializer().string(try #require(parsed.calendar)) == text)
    }

    @Test func hugeRecurrenceNumbersParseWithoutOverflow() throws {
        let count = try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=1000000000")
        #expect(count.count == 1_000_000_000)
        let interval = try RecurrenceRule(parsing: "FREQ=SECONDLY;INTERVAL=1000000000")
        #expect(interval.interval == 1_000_000_000)
        // Beyond what any integer holds: refused, not wrapped.
        #expect(throws: RecurrenceRuleError.self) {
            try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=99999999999999999999999")
        }
        #expect(throws: RecurrenceRuleError.self) { try RecurrenceRule(parsing: "FREQ=DAILY;INTERVAL=0") }
        #expect(throws: RecurrenceRuleError.self) { try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=-3") }
    }

    @Test func unbalancedOrTruncatedFilesAreRefusedNotGuessed() {
        for text in [
            "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\n",  // cut off
            "BEGIN:VCALENDAR\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",  // END without BEGIN
            "UID:x\r\nBEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n",  // property before BEGIN
            "BEGIN:VCALENDAR\r\nno colon here\r\nEND:VCALENDAR\r\n",
        ] {  // not a content line
            #expect(throws: ICalendarSyntaxError.self, "\(text.debugDescription)") { try ICalendarParser().parse(text) }
        }
    }
}

/// Inputs the fuzzers found, kept as regression tests.
@Suite struct FuzzRegressionTests {
    @Test func anRRULEWithAControlCharacterPartRoundTrips() throws {
        let bytes: [UInt8] =
            Array("FREQ=YEARLY;\t\t\t\t\t".utf8) + [0xcd, 0xa5, 0xef, 0xbf, 0xbd] + Array(repeating: 0x09, count: 12)
            + Array("=\t\t".utf8) + [0xfb] + Array(repeating: 0x09, count: 12) + [0x0f]
            + Array(repeating: 0x09, count: 8) + Array("L=10200".utf8)
        let text = String(decoding: bytes, as: UTF8.self)
        // The control characters are white space around the parts: the rule reads.
        let rule = try RecurrenceRule(parsing: text)
        let again = try RecurrenceRule(parsing: rule.description)
        #expect(again == rule, "\(rule.description.debugDescription) reads back differently")
    }

    /// A parameter with no name whose value is a caret followed by a combining mark (U+05A1).
    @Test func aCaretBeforeACombiningMarkInAParameterRoundTrips() throws {
        let bytes: [UInt8] = Array("BEGIN:VCALENDAR\nR;=^".utf8) + [0xd6, 0xa1] + Array(":\nEND:VCALENDAR".utf8)
        let parsed = try ICalendarParser().parse(Data(bytes))
        let out = ICalendarSerializer().serialize(parsed.components)
        let again = try ICalendarParser().parse(Data(out))
        #expect(
            again.components == parsed.components,
            "\(String(decoding: out, as: UTF8.self).debugDescription) reads back as \(again.components.first?.properties.map { ($0.name, $0.parameterText, $0.value) } ?? []), was \(parsed.components.first?.properties.map { ($0.name, $0.parameterText, $0.value) } ?? [])"
        )
    }
}
