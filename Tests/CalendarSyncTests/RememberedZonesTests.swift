import CalgwTestSupport
import Foundation
import ICalendar
import Testing

@testable import CalendarSync

/// A VTIMEZONE read plainly is remembered, and the same bytes in a later item are handed on
/// whole (``PlainLine/Kind/repeated``) instead of line by line. Whatever is remembered, an item
/// must read exactly as the parse reads it: these read items one after another in one room, as
/// a first pull does, and compare each with the parse.
@Suite struct RememberedZonesTests {
    /// An event in `zone` (its VTIMEZONE `definition`, as written), numbered `n`.
    private static func event(_ n: Int, zone: String = "Europe/Berlin", definition: String? = nil) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n"
            + (definition ?? PlainItemReaderTests.berlin.replacingOccurrences(of: "Europe/Berlin", with: zone))
            + "BEGIN:VEVENT\r\nUID:zone-\(n)@example.com\r\nDTSTAMP:20260101T000000Z\r\n"
            + "DTSTART;TZID=\(zone):202603\(String(format: "%02d", 1 + n % 28))T090000\r\n"
            + "DTEND;TZID=\(zone):202603\(String(format: "%02d", 1 + n % 28))T100000\r\nSUMMARY:Event \(n)\r\n"
            + "END:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    /// Reads `texts` one after another in one room, each compared with the parse; gives how
    /// many zones were handed on whole and whether every item was read plainly.
    private func readInOneRoom(_ texts: [String], sourceLocation: SourceLocation = #_sourceLocation) -> (
        repeated: Int, allPlain: Bool
    ) {
        let reading = PlainReading()
        let scratch = PlainItemReader.Scratch()
        var repeated = 0, allPlain = true
        for (i, text) in texts.enumerated() {
            let data = Data(text.utf8)
            let parsed = ItemContent(data, inspecting: { _ in })
            if let plain = ItemContent.readPlainly(data, in: reading) {
                #expect(plain.hash == parsed.hash, "hash of item \(i)", sourceLocation: sourceLocation)
                #expect(plain.uid == parsed.uid, "UID of item \(i)", sourceLocation: sourceLocation)
                #expect(plain.span == parsed.span, "span of item \(i)", sourceLocation: sourceLocation)
                #expect(plain.kinds == parsed.kinds, "kinds of item \(i)", sourceLocation: sourceLocation)
            } else {
                allPlain = false
            }
            // The reader alone, in a room of its own read the same way: what it hands on whole.
            _ = data.withUnsafeBytes { bytes in
                PlainItemReader.read(bytes, scratch: scratch, keeps: { _ in true }) { line in
                    if line.kind == .repeated { repeated += 1 }
                    return true
                }
            }
        }
        return (repeated, allPlain)
    }

    @Test func aZoneComingAgainIsHandedOnWholeAndReadsAsTheParse() {
        let (repeated, allPlain) = readInOneRoom((0..<5).map { Self.event($0) })
        #expect(allPlain)
        #expect(repeated == 4, "the zone of items 2 to 5 is the first item's")
    }

    @Test func zonesOfOtherBytesAreReadLineByLine() {
        let berlin = PlainItemReaderTests.berlin
        let texts = [
            Self.event(0),
            // One offset changed: another zone, with another hash.
            Self.event(1, definition: berlin.replacingOccurrences(of: "TZOFFSETTO:+0200", with: "TZOFFSETTO:+0300")),
            // The same zone with LF line ends, and folded differently.
            Self.event(2).replacingOccurrences(of: "\r\n", with: "\n"),
            Self.event(
                3,
                definition: berlin.replacingOccurrences(
                    of: "TZID:Europe/Berlin\r\n", with: "TZID:Europe/\r\n Berlin\r\n")),
        ]
        let (repeated, allPlain) = readInOneRoom(texts)
        #expect(allPlain)
        #expect(repeated == 0)
        let first = ItemContent.readPlainly(Data(texts[0].utf8)), second = ItemContent.readPlainly(Data(texts[1].utf8))
        #expect(first?.hash != second?.hash, "a changed zone must change the hash")
    }

    /// The same bytes followed by a line that continues the zone's last line, or after blank
    /// lines: they do not read alone as they did, and are read line by line (here the item is
    /// left to the parse, as it was without the memory).
    @Test func theSameBytesContinuedAreNotTheSameZone() {
        let continued = Self.event(1).replacingOccurrences(
            of: "END:VTIMEZONE\r\n", with: "END:VTIMEZONE\r\n X-MORE\r\n")
        let blank = Self.event(2).replacingOccurrences(of: "END:VTIMEZONE\r\n", with: "END:VTIMEZONE\r\n\r\n")
        // A blank line, then a continuation: the parse joins them across the blank line.
        let blankContinued = Self.event(4).replacingOccurrences(
            of: "END:VTIMEZONE\r\n", with: "END:VTIMEZONE\r\n\r\n X-MORE\r\n")
        let (repeated, _) = readInOneRoom([Self.event(0), continued, blank, blankContinued, Self.event(3)])
        #expect(repeated == 1, "only the last item's zone is the first's, read alone")
        let room = PlainReading()
        #expect(ItemContent.readPlainly(Data(Self.event(0).utf8), in: room) != nil)
        #expect(ItemContent.readPlainly(Data(continued.utf8), in: room) == nil)
        #expect(ItemContent.readPlainly(Data(blankContinued.utf8), in: room) == nil)
        let plainBlank = ItemContent.readPlainly(Data(blank.utf8)),
            parsedBlank = ItemContent(Data(blank.utf8), inspecting: { _ in })
        #expect(plainBlank?.hash == parsedBlank.hash)
    }

    /// More zones than are remembered, round after round: the oldest is forgotten, and every
    /// item still reads as the parse (a slot's reading and writing stay one zone's).
    @Test func moreZonesThanAreRememberedReadAsTheParse() {
        let zones = (0..<11).map { "Zone/Number\($0)" }
        let texts = (0..<3).flatMap { round in
            zones.enumerated().map { Self.event(round * 100 + $0.offset, zone: $0.element) }
        }
        let (repeated, allPlain) = readInOneRoom(texts + texts.suffix(4))
        #expect(allPlain)
        // Eleven zones in turn through eight slots: each is forgotten before it comes again,
        // and the eight read last (the third round's last eight) are remembered.
        #expect(repeated == 4, "the four items after the third round are of zones read in its last eight")
    }

    /// Items of a few zones in a random order, some with a byte of their zone changed (to
    /// another printable byte, a line end, a space, a byte of UTF-8 cut short), some with the
    /// line after the zone made a continuation or blank: read one after
    /// another in one room, each reads exactly as in a room that remembers nothing, and as the
    /// parse reads it whenever it is read plainly.
    @Test func rememberingNeverChangesAReading() {
        var random = SeededRandom(seed: 84)
        let names = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "Zone/Other"]
        let definitions = names.map { PlainItemReaderTests.berlin.replacingOccurrences(of: "Europe/Berlin", with: $0) }
        let replacements: [UInt8] = [0x41, 0x3A, 0x3B, 0x20, 0x0A, 0x0D, 0xC3, 0x7A]
        let reading = PlainReading()
        var plain = 0, repeated = 0
        for n in 0..<400 {
            let zone = Int(random.next() % UInt64(definitions.count))
            var definition = Array(definitions[zone].utf8)
            if random.next() % 5 == 0 {
                let at = Int(random.next() % UInt64(definition.count))
                definition[at] = replacements[Int(random.next() % UInt64(replacements.count))]
            }
            // The zone's bytes as they are (a byte cut short stays so, not mended by a String).
            var data = Data(Self.event(n, zone: names[zone], definition: "@ZONE@").utf8)
            let at = data.range(of: Data("@ZONE@".utf8))!
            data.replaceSubrange(at, with: definition)
            if random.next() % 10 == 0 {
                // The line after the zone made a continuation of its last line, or blank.
                data[at.lowerBound + definition.count] = [0x20, 0x09, 0x0D, 0x0A][Int(random.next() % 4)]
            }
            let remembered = ItemContent.readPlainly(data, in: reading)
            let fresh = ItemContent.readPlainly(data, in: PlainReading())
            #expect(remembered == fresh, "item \(n) read otherwise in a room that remembers zones")
            guard let remembered else { continue }
            plain += 1
            if n > 0, definition == Array(definitions[zone].utf8) { repeated += 1 }
            let parsed = ItemContent(data, inspecting: { _ in })
            #expect(remembered.hash == parsed.hash && remembered.span == parsed.span, "item \(n) against the parse")
        }
        #expect(
            plain > 300 && repeated > 250,
            "too few items read plainly (\(plain)) or with a zone seen before (\(repeated))")
    }

    /// An item that names a zone it defines by a remembered VTIMEZONE still reads plainly (the
    /// remembered outline holds the TZID); one naming another zone is still the parse's.
    @Test func aRememberedZoneStillDefinesItsTZID() {
        let reading = PlainReading()
        #expect(ItemContent.readPlainly(Data(Self.event(0).utf8), in: reading) != nil)
        #expect(ItemContent.readPlainly(Data(Self.event(1).utf8), in: reading) != nil)
        let other = Self.event(2).replacingOccurrences(
            of: "DTSTART;TZID=Europe/Berlin", with: "DTSTART;TZID=Europe/Paris")
        #expect(ItemContent.readPlainly(Data(other.utf8), in: reading) == nil)
    }
}
