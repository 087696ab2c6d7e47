import CalgwTestSupport
import Foundation
import ICalendar
import Testing

@testable import CalendarSync

/// An item read plainly (`ItemContent.readPlainly`, no parse tree) must read as the parse reads
/// it: the same hash, or journals would see changes that are not; the same UID, LAST-MODIFIED,
/// SEQUENCE and span, or sync would pair and window items differently.
@Suite struct PlainItemReaderTests {
    /// The parse's reading of `data`, and the plain reading (nil when it leaves the item to the parse).
    private func both(_ data: Data) -> (parsed: ItemContent, plain: ItemContent?) {
        (ItemContent(data, inspecting: { _ in }), ItemContent.readPlainly(data))
    }

    private func expectSame(_ data: Data, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let (parsed, plain) = both(data)
        guard let plain else { return false }
        #expect(plain.parses, "\(label)", sourceLocation: sourceLocation)
        #expect(plain.hash == parsed.hash, "hash of \(label)", sourceLocation: sourceLocation)
        #expect(plain.uid == parsed.uid, "UID of \(label)", sourceLocation: sourceLocation)
        #expect(plain.lastModified == parsed.lastModified, "LAST-MODIFIED of \(label)", sourceLocation: sourceLocation)
        #expect(plain.sequence == parsed.sequence, "SEQUENCE of \(label)", sourceLocation: sourceLocation)
        #expect(plain.span == parsed.span, "span of \(label)", sourceLocation: sourceLocation)
        return true
    }

    /// Every corpus file as it is, with LF line ends, folded again every 40 octets with a tab,
    /// and with blank lines between its lines.
    @Test func everyCorpusFileReadsPlainlyAsItParses() throws {
        let files = CorpusFiles.icsFiles()
        try #require(files.count > 20, "the corpora under ../shared/corpora are missing")
        var plain = 0, left = 0
        for url in files {
            let data = try Data(contentsOf: url)
            let name = CorpusFiles.name(of: url)
            for (variant, bytes) in Self.variants(of: data) {
                if expectSame(bytes, "\(name) (\(variant))") { plain += 1 } else { left += 1 }
            }
        }
        #expect(plain > 100, "too few corpus files read plainly: \(plain)")
        #expect(left > 0, "no corpus file is left to the parse: that way is untested here")
    }

    /// What a first pull reads: events in zones with their VTIMEZONEs, all-day, series,
    /// descriptions with escapes, meetings, alarms, text beyond ASCII, a task and an unknown
    /// component; each read plainly, and as the parse reads it.
    @Test func theItemsOfAFirstPullReadPlainly() throws {
        for (label, text) in Self.plainItems {
            let data = Data(text.utf8)
            #expect(expectSame(data, label), "\(label) was left to the parse")
            #expect(expectSame(Data(text.replacingOccurrences(of: "\r\n", with: "\n").utf8), label + " (LF)"))
        }
    }

    /// What the parse mends or rewrites is left to it, and the parse's reading is the one used.
    @Test func whatTheParseMendsIsLeftToIt() throws {
        let event = Self.plainItems[0].1
        let cases: [(String, String)] = [
            ("a lower-case name", event.replacingOccurrences(of: "SUMMARY:", with: "summary:")),
            ("a TZID without its VTIMEZONE", Self.wrap("DTSTART;TZID=Europe/Paris:20260301T090000\r\n")),
            ("a combining mark", Self.wrap("SUMMARY:e\u{301}te\r\n")),
            ("a property after the root", event + "X-AFTER:1\r\n"),
            ("a second root", event + event),
            ("a byte-order mark", "\u{FEFF}" + event),
            ("BEGIN with a parameter", event.replacingOccurrences(of: "BEGIN:VEVENT", with: "BEGIN;X=1:VEVENT")),
            ("an END that does not match", event.replacingOccurrences(of: "END:VEVENT", with: "END:VTODO")),
            ("a line without a colon", Self.wrap("NOCOLON\r\n")),
            ("a root that is not a VCALENDAR", event.replacingOccurrences(of: "VCALENDAR", with: "VX")),
            ("an unclosed component", String(event.dropLast("END:VCALENDAR\r\n".count))),
        ]
        for (label, text) in cases {
            #expect(ItemContent.readPlainly(Data(text.utf8)) == nil, "\(label) was read plainly")
            // The item itself still reads (or fails) as the parse says.
            #expect(ItemContent(Data(text.utf8)) == ItemContent(Data(text.utf8), inspecting: { _ in }), "\(label)")
        }
        var latin1 = Data(Self.wrap("SUMMARY:caf\r\n").utf8)
        latin1.insert(0xE9, at: latin1.range(of: Data("caf".utf8))!.upperBound)
        #expect(ItemContent.readPlainly(latin1) == nil, "Latin-1 was read plainly")
        #expect(ItemContent(latin1).hash == ItemContent(latin1, inspecting: { _ in }).hash)
    }

    /// The UTF-8 check takes what RFC 3629 allows and refuses the rest.
    @Test func onlyWellFormedUTF8IsPlain() {
        let refused: [[UInt8]] = [
            [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF8], [0xC3],
            [0x80], [0xE2, 0x82],
        ]
        for bytes in refused {
            var data = Data(Self.wrap("SUMMARY:x\r\n").utf8)
            data.insert(contentsOf: bytes, at: data.range(of: Data("SUMMARY:x".utf8))!.upperBound)
            #expect(ItemContent.readPlainly(data) == nil, "\(bytes) was read plainly")
        }
        for text in ["é", "ÿ", "Zürich naïve café"] {
            #expect(expectSame(Data(Self.wrap("SUMMARY:\(text) and more text than eight bytes\r\n").utf8), text))
        }
        // Scalars from U+0300 on sort as strings, not bytes: the parse's way.
        for text in ["€", "𝄞"] {
            let data = Data(Self.wrap("SUMMARY:\(text) and more text than eight bytes\r\n").utf8)
            #expect(ItemContent.readPlainly(data) == nil, "\(text) was read plainly")
        }
    }

    /// A byte that may need escaping is found wherever it stands in a value, in the eight
    /// bytes read at once or in the bytes after them, and the value is written as the parse
    /// makes it; a value without one is written as it is.
    @Test func anEscapableByteIsFoundAnywhereInAValue() {
        for escapable in [",", ";", "\\x", "\\"] {
            for at in 0..<20 {
                let value = String(repeating: "a", count: at) + escapable + String(repeating: "b", count: 19 - at)
                for name in ["SUMMARY", "X-NOTE"] {
                    let data = Data(Self.wrap("\(name):\(value)\r\n").utf8)
                    #expect(expectSame(data, "\(name):\(value)"), "\(name):\(value) was left to the parse")
                }
            }
        }
        // Read after an item whose values needed escaping: nothing of it is carried over.
        #expect(expectSame(Data(Self.wrap("SUMMARY:plain text of twenty bytes\r\n").utf8), "plain"))
    }

    /// What a scheduling server keeps on a meeting's people (SCHEDULE-STATUS) and the mark a
    /// copy carries (SCHEDULE-AGENT) are left out as the item is read plainly, as the parse's
    /// hash leaves them out: alone, first, between, last, with several values, quoted, twice,
    /// on the organizer and in an override; other parameters, and other properties' and
    /// values' `SCHEDULE-`, stay.
    @Test func schedulingParametersAreLeftOutAsTheParseLeavesThem() {
        let lines = [
            "ATTENDEE;SCHEDULE-STATUS=1.2:mailto:b@example.com",
            "ATTENDEE;SCHEDULE-AGENT=CLIENT;PARTSTAT=NEEDS-ACTION:mailto:b@example.com",
            "ATTENDEE;CN=Bob;SCHEDULE-STATUS=1.2;PARTSTAT=ACCEPTED;RSVP=TRUE:mailto:b@example.com",
            "ATTENDEE;PARTSTAT=ACCEPTED;SCHEDULE-STATUS=\"2.0;x\":mailto:b@example.com",
            "ATTENDEE;SCHEDULE-STATUS=1.2,3.7;RSVP=TRUE:mailto:b@example.com",
            "ATTENDEE;SCHEDULE-STATUS=1.2;SCHEDULE-STATUS=2.0;CN=\"Lovelace, Ada\":mailto:a@example.com",
            "ATTENDEE;CN=\"SCHEDULE-STATUS=1;x\";PARTSTAT=ACCEPTED:mailto:b@example.com",
            "ATTENDEE;SCHEDULE-FORCE-SEND=REQUEST;SCHEDULE-AGENT=SERVER:mailto:b@example.com",
            "ORGANIZER;SCHEDULE-AGENT=CLIENT;CN=Ada:mailto:a@example.com",
            "X-OTHER;SCHEDULE-STATUS=1.2:value",
            "ATTENDEE:mailto:schedule-status@example.com",
        ]
        for line in lines {
            #expect(expectSame(Data(Self.wrap(line + "\r\n").utf8), line), "\(line) was left to the parse")
        }
        let override = Self.plainItems[0].1.replacingOccurrences(
            of: "SUMMARY:Moved\r\n",
            with: "SUMMARY:Moved\r\nATTENDEE;SCHEDULE-STATUS=3.7;PARTSTAT=DECLINED:mailto:c@x.example\r\n")
        #expect(expectSame(Data(override.utf8), "an override's attendee"))
        // What the person answered still counts.
        let accepted = ItemContent.readPlainly(Data(Self.wrap(lines[2] + "\r\n").utf8))
        let declined = ItemContent.readPlainly(
            Data(Self.wrap(lines[2].replacingOccurrences(of: "ACCEPTED", with: "DECLINED") + "\r\n").utf8))
        #expect(accepted != nil && declined != nil && accepted?.hash != declined?.hash)
        let kept = ItemContent.readPlainly(Data(Self.wrap(lines[2] + "\r\n").utf8))
        let without = ItemContent.readPlainly(
            Data(Self.wrap("ATTENDEE;CN=Bob;PARTSTAT=ACCEPTED;RSVP=TRUE:mailto:b@example.com\r\n").utf8))
        #expect(kept?.hash == without?.hash, "SCHEDULE-STATUS counted")
        // Names in lower case: read as the parse reads them, whichever way reads them.
        let lower = Data(Self.wrap("ATTENDEE;schedule-status=1.2;PARTSTAT=ACCEPTED:mailto:b@example.com\r\n").utf8)
        #expect(ItemContent(lower) == ItemContent(lower, inspecting: { _ in }))
    }

    /// The zone one item's parameters named is not another's: read one after the other, an
    /// item naming a zone it does not define is left to the parse, and one naming the zone it
    /// defines is read plainly, whatever the item before it named.
    @Test func aZoneReadForOneItemIsNotAnothers() {
        func item(defining zone: String, naming named: String) -> Data {
            let definition = Self.berlin.replacingOccurrences(of: "Europe/Berlin", with: zone)
            return Data(
                ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n" + definition
                    + "BEGIN:VEVENT\r\nUID:zone@example.com\r\nDTSTAMP:20260101T000000Z\r\n"
                    + "DTSTART;TZID=\(named):20260302T090000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").utf8)
        }
        for _ in 0..<2 {
            #expect(expectSame(item(defining: "Europe/Berlin", naming: "Europe/Berlin"), "Berlin"))
            #expect(ItemContent.readPlainly(item(defining: "Europe/Berlin", naming: "Europe/Paris")) == nil)
            #expect(expectSame(item(defining: "Europe/Paris", naming: "Europe/Paris"), "Paris"))
            #expect(ItemContent.readPlainly(item(defining: "Europe/Paris", naming: "Europe/Berlin")) == nil)
        }
    }

    /// Parameters of 5,000 bytes and an attachment of over a megabyte (the room read in is not
    /// kept after it) read as the parse reads them, and so does an item read after them.
    @Test func longParametersAndALargeItemReadAsTheParse() {
        let long = "X-NOTE;X-P=" + String(repeating: "a", count: 5_000) + ";X-Q=\"b:c\":v\r\n"
        #expect(expectSame(Data(Self.wrap(long).utf8), "parameters of 5,000 bytes"))
        let attachment = "ATTACH;ENCODING=BASE64;VALUE=BINARY:" + String(repeating: "QUJD", count: 300_000) + "\r\n"
        #expect(expectSame(Data(Self.wrap(attachment).utf8), "an attachment of 1.2 MB"))
        #expect(expectSame(Data(Self.wrap("SUMMARY:after\r\n").utf8), "an item after it"))
    }

    // MARK: Inputs

    /// `data` as it is, with LF line ends, unfolded and folded again every 40 octets with a tab,
    /// and with a blank line after each line.
    static func variants(of data: Data) -> [(String, Data)] {
        let text = String(decoding: data, as: UTF8.self)
        guard Data(text.utf8) == data else { return [("as it is", data)] }  // not UTF-8: as it is only
        let lf = text.replacingOccurrences(of: "\r\n", with: "\n")
        let unfolded = lf.replacingOccurrences(of: "\n ", with: "").replacingOccurrences(of: "\n\t", with: "")
        var refolded = [UInt8]()
        for line in unfolded.split(separator: "\n", omittingEmptySubsequences: false) {
            let bytes = Array(line.utf8)
            for (i, start) in stride(from: 0, to: max(bytes.count, 1), by: 40).enumerated() {
                if i > 0 { refolded.append(contentsOf: [0x0D, 0x0A, 0x09]) }
                refolded.append(contentsOf: bytes[start..<min(start + 40, bytes.count)])
            }
            refolded.append(contentsOf: [0x0D, 0x0A])
        }
        let blank = text.replacingOccurrences(of: "\r\n", with: "\r\n\r\n")
        return [
            ("as it is", data), ("LF", Data(lf.utf8)), ("folded at 40", Data(refolded)),
            ("blank lines", Data(blank.utf8)),
        ]
    }

    static func wrap(_ lines: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:w@example.com\r\n"
            + "DTSTAMP:20260101T000000Z\r\nDTSTART:20260301T090000Z\r\n" + lines + "END:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    static let berlin = """
        BEGIN:VTIMEZONE\r
        TZID:Europe/Berlin\r
        BEGIN:STANDARD\r
        DTSTART:19701025T030000\r
        TZOFFSETFROM:+0200\r
        TZOFFSETTO:+0100\r
        RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r
        END:STANDARD\r
        BEGIN:DAYLIGHT\r
        DTSTART:19700329T020000\r
        TZOFFSETFROM:+0100\r
        TZOFFSETTO:+0200\r
        RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r
        END:DAYLIGHT\r
        END:VTIMEZONE\r

        """

    static let plainItems: [(String, String)] = [
        (
            "a timed event in a zone, a weekly series with an exception",
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n" + berlin
                + "BEGIN:VEVENT\r\nUID:series-1@example.com\r\nDTSTAMP:20260101T000000Z\r\n"
                + "DTSTART;TZID=Europe/Berlin:20260302T090000\r\nDTEND;TZID=Europe/Berlin:20260302T100000\r\n"
                + "RRULE:FREQ=WEEKLY;UNTIL=20260601T070000Z\r\nEXDATE;TZID=Europe/Berlin:20260309T090000\r\n"
                + "SUMMARY:Planning review café\r\nSEQUENCE:3\r\nLAST-MODIFIED:20260102T101010Z\r\n"
                + "DESCRIPTION:Agenda:\\n1. budget\\, roadmap\\; notes\\\\ and a long line that is folded at s\r\n"
                + " eventy-five octets as RFC 5545 says it should be\\, with more text after it\r\n"
                + "ORGANIZER;CN=Ada Lovelace:mailto:ada@example.com\r\n"
                + "ATTENDEE;CN=\"Lovelace, Ada\";ROLE=CHAIR;PARTSTAT=ACCEPTED;RSVP=TRUE:mailto:ada@example.com\r\n"
                + "ATTENDEE;CN=Bob;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:bob@example.com\r\n"
                + "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Reminder\r\nTRIGGER:-PT15M\r\nEND:VALARM\r\n"
                + "END:VEVENT\r\n"
                + "BEGIN:VEVENT\r\nUID:series-1@example.com\r\nDTSTAMP:20260101T000000Z\r\n"
                + "RECURRENCE-ID;TZID=Europe/Berlin:20260316T090000\r\n"
                + "DTSTART;TZID=Europe/Berlin:20260316T110000\r\nDTEND;TZID=Europe/Berlin:20260316T120000\r\n"
                + "SUMMARY:Moved\r\nSEQUENCE:4\r\nLAST-MODIFIED:20260103T101010Z\r\nEND:VEVENT\r\n"
                + "END:VCALENDAR\r\n"
        ),
        (
            "an all-day event with categories",
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:allday@example.com\r\n"
                + "DTSTAMP:20260101T000000Z\r\nDTSTART;VALUE=DATE:20260310\r\nDTEND;VALUE=DATE:20260311\r\n"
                + "CATEGORIES:Work,Home\\,Garden\r\nSUMMARY:Day off\r\nTRANSP:TRANSPARENT\r\nEND:VEVENT\r\n"
                + "END:VCALENDAR\r\n"
        ),
        (
            "a monthly series with a duration and RDATEs",
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:monthly@example.com\r\n"
                + "DTSTAMP:20260101T000000Z\r\nDTSTART:20260105T120000Z\r\nDURATION:PT1H30M\r\n"
                + "RRULE:FREQ=MONTHLY;COUNT=6\r\nRDATE:20261224T120000Z,20261231T120000Z\r\nSUMMARY:Lunch\r\n"
                + "END:VEVENT\r\nEND:VCALENDAR\r\n"
        ),
        (
            "a task and an unknown component",
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VTODO\r\nUID:todo@example.com\r\n"
                + "DTSTAMP:20260101T000000Z\r\nDUE:20260401T170000Z\r\nSUMMARY:File taxes\r\nSTATUS:NEEDS-ACTION\r\n"
                + "END:VTODO\r\nBEGIN:X-THING\r\nX-ANY;X-P=\"a:b\":value;with;semis\r\nEND:X-THING\r\n"
                + "END:VCALENDAR\r\n"
        ),
    ]
}
