import Foundation
import Testing
@testable import ICalendar

/// Folding, unfolding, parameters and escaping at their edges.
@Suite struct ContentLineTests {
    func roundTrip(_ component: Component) throws -> (text: String, back: Component) {
        let bytes = ICalendarSerializer().serialize(component)
        let back = try #require(try ICalendarParser().parse(Data(bytes)).components.first)
        return (String(decoding: bytes, as: UTF8.self), back)
    }

    func event(_ properties: [Property]) -> Component {
        Component(
            name: "VCALENDAR", properties: [Property(name: "VERSION", value: "2.0")],
            components: [Component(name: "VEVENT", properties: properties)])
    }

    @Test func aLineOfExactly75OctetsIsNotFolded() throws {
        let value = String(repeating: "x", count: 75 - "SUMMARY:".count)
        let (text, back) = try roundTrip(event([Property(name: "SUMMARY", value: value)]))
        #expect(text.contains("SUMMARY:\(value)\r\n"))
        #expect(back.components[0]["SUMMARY"]?.value == value)
        let longer = value + "y"
        let (text2, back2) = try roundTrip(event([Property(name: "SUMMARY", value: longer)]))
        #expect(text2.contains("SUMMARY:\(value)\r\n y\r\n"))
        #expect(back2.components[0]["SUMMARY"]?.value == longer)
    }

    @Test func foldingNeverSplitsAUTF8Sequence() throws {
        // A 4-byte emoji straddling octet 75 at every offset.
        for pad in 60...76 {
            let value = String(repeating: "a", count: pad) + "😀" + String(repeating: "b", count: 100) + "é😀"
            let (text, back) = try roundTrip(event([Property(name: "SUMMARY", value: value)]))
            for physical in text.components(separatedBy: "\r\n") {
                #expect(physical.utf8.count <= 75)
                #expect(String(validating: Array(physical.utf8), as: UTF8.self) != nil)
            }
            #expect(back.components[0]["SUMMARY"]?.value == value)
        }
    }

    @Test func parameterValuesWithSpecialCharactersAreQuotedAndCaretEscaped() throws {
        let tricky = "Doe: John; \"Jr\", ^boss^\nnext"
        let p = Property(
            name: "ATTENDEE",
            parameters: [Parameter("CN", tricky), Parameter(name: "MEMBER", values: ["mailto:a@x", "mailto:b@x"])],
            value: "mailto:j@x")
        let (text, back) = try roundTrip(event([p]))
        #expect(text.replacingOccurrences(of: "\r\n ", with: "").contains(#"CN="Doe: John; ^'Jr^', ^^boss^^^nnext""#))
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
        #expect(unfolded.contains(#"MEMBER="mailto:a@x","mailto:b@x""#))
        let attendee = try #require(back.components[0]["ATTENDEE"])
        #expect(attendee[parameter: "CN"] == tricky)
        #expect(attendee.parameterValues("MEMBER") == ["mailto:a@x", "mailto:b@x"])
        #expect(attendee.value == "mailto:j@x")
    }

    @Test func theValueStartsAfterTheFirstUnquotedColon() throws {
        let text = "BEGIN:VCALENDAR\r\nX-A;X-P=\"a:b\":c:d\r\nEND:VCALENDAR\r\n"
        let c = try #require(try ICalendarParser().parse(text).components.first)
        #expect(c["X-A"]?[parameter: "X-P"] == "a:b")
        #expect(c["X-A"]?.value == "c:d")
    }

    @Test func unfoldsSpaceAndTabContinuationsWithCRLFOrLF() throws {
        let text = "BEGIN:VCALENDAR\nDESCRIPTION:one\r\n two\n\tthree\r\nEND:VCALENDAR"
        let c = try #require(try ICalendarParser().parse(text).components.first)
        #expect(c["DESCRIPTION"]?.value == "onetwothree")
    }

    @Test func canonicalTextIsWrittenBackByteForByte() throws {
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calgw//EN\r\nBEGIN:VEVENT\r\nUID:a@b\r\nDTSTART;TZID=Europe/Berlin:20260329T100000\r\nSUMMARY:Caf\u{e9} \\, \\; \\n\r\nATTENDEE;CN=\"Doe, Jane\";PARTSTAT=ACCEPTED:mailto:jane@example.com\r\nX-UNKNOWN;X-P=1:keep me\r\nBEGIN:X-CUSTOM\r\nX-INNER:1\r\nEND:X-CUSTOM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let parsed = try ICalendarParser().parse(text)
        #expect(ICalendarSerializer().serialize(parsed.components) == Array(text.utf8))
        #expect(parsed.warnings.isEmpty)
    }
}

/// What real files contain: read with warnings, never refused.
@Suite struct ToleranceTests {
    func parse(_ bytes: [UInt8]) throws -> ParsedCalendar { try ICalendarParser().parse(Data(bytes)) }

    @Test func byteOrderMarkLowercaseBlankLinesAndNoFinalNewline() throws {
        let text =
            "\u{FEFF}begin:vcalendar\n\nversion:2.0\nbegin:vevent\nuid:1\ndtstart;value=date:20260101\nend:vevent\nend:vcalendar"
        let parsed = try parse(Array(text.utf8))
        let c = try #require(parsed.calendar)
        #expect(c.name == "VCALENDAR" && c.components.first?.name == "VEVENT")
        #expect(c.components[0]["DTSTART"]?[parameter: "VALUE"] == "date")
        #expect(parsed.warnings.contains { $0.message.contains("lower-case") })
    }

    @Test func latin1BytesAreDecodedWithAWarning() throws {
        let bytes = Array("BEGIN:VCALENDAR\r\nSUMMARY:Caf".utf8) + [0xE9] + Array("\r\nEND:VCALENDAR\r\n".utf8)
        let parsed = try parse(bytes)
        #expect(parsed.calendar?["SUMMARY"]?.value == "Café")
        #expect(parsed.warnings.contains { $0.message.contains("Latin-1") })
    }

    @Test func repeatedSingleValuePropertiesAreAllKept() throws {
        let parsed = try ICalendarParser().parse("BEGIN:VEVENT\r\nSUMMARY:a\r\nSUMMARY:b\r\nEND:VEVENT\r\n")
        #expect(parsed.calendar?.properties(named: "SUMMARY").map(\.value) == ["a", "b"])
    }

    @Test func dateWithoutValueDateIsReadAsADate() throws {
        let parsed = try ICalendarParser().parse("BEGIN:VEVENT\r\nDTSTART:20260101\r\nEND:VEVENT\r\n")
        #expect(parsed.calendar?["DTSTART"]?.dateTime?.isDate == true)
    }

    @Test func propertiesAfterTheLastEndAreKept() throws {
        let parsed = try ICalendarParser().parse("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\nX-COMMENT:cached\r\n")
        #expect(parsed.calendar?["X-COMMENT"]?.value == "cached")
        #expect(!parsed.warnings.isEmpty)
    }
}

/// Broken structure: refused with the line and the reason.
@Suite struct StructureErrorTests {
    @Test(arguments: [
        ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nEND:VCALENDAR\r\n", 3, "END:VCALENDAR closes BEGIN:VEVENT of line 2"),
        ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nEND:VEVENT\r\n", 1, "BEGIN:VCALENDAR has no END:VCALENDAR"),
        ("BEGIN:VCALENDAR\r\nSUMMARY\r\nEND:VCALENDAR\r\n", 2, "has no ':'"),
        ("END:VEVENT\r\n", 1, "without a matching BEGIN"),
        ("SUMMARY:x\r\nBEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", 1, "before any BEGIN"),
        ("BEGIN:VCALENDAR\r\nX-A;X-P=\"open:x\r\nEND:VCALENDAR\r\n", 2, "unclosed quote"),
    ])
    func refusesWithLineAndReason(_ text: String, _ line: Int, _ reason: String) {
        let error = #expect(throws: ICalendarSyntaxError.self) { try ICalendarParser().parse(text) }
        #expect(error?.line == line)
        #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
    }

    @Test func deepNestingIsRefusedNotRecursedInto() {
        let depth = 10_000
        let text = String(repeating: "BEGIN:X\r\n", count: depth) + String(repeating: "END:X\r\n", count: depth)
        let error = #expect(throws: ICalendarSyntaxError.self) { try ICalendarParser().parse(text) }
        #expect(error?.reason.contains("deeper than") == true)
    }
}
