import Foundation
import ICalendar

extension ItemContent {
    /// The content of an item written plainly, read from its bytes without a parse tree:
    /// its lines go straight to the hash's writer, and only what the UID, LAST-MODIFIED,
    /// SEQUENCE and span are read from is kept (``PlainItemReader``). Nil when the item must be
    /// parsed: it is not written plainly, names a time zone it does not define, or has text that
    /// sorts as strings. An ORGANIZER's or ATTENDEE's scheduling parameters are left out as its
    /// line is written, as the hash leaves them out. Whatever this reads, the parse reads the
    /// same (`PlainItemReaderTests` compares the two over the corpora).
    ///
    /// A first pull reads every item it fetches; the tree was half of what reading one cost.
    static func readPlainly(_ data: Data) -> ItemContent? {
        PlainReading.lend { readPlainly(data, in: $0) }
    }

    /// ``readPlainly(_:)`` without the hash: the outline only, the hash the pending stand-in
    /// of the bytes (``ContentHash/pending(for:)``). What a first pull copies into an empty
    /// folder is read so; the hash proper is made when a side of the item changes.
    static func readPlainlyPending(_ data: Data) -> ItemContent? {
        PlainReading.lend(hashing: false) { reading in
            data.withUnsafeBytes { bytes -> ItemContent? in
                let read = PlainItemReader.read(bytes, scratch: reading.scratch, keeps: keptForOutline) { _ in true }
                guard let read, definesItsZones(read) else { return nil }
                var content = ItemContent(uid: nil, hash: .pending(for: data))
                content.readOutline(read.outline)
                return content
            }
        }
    }

    /// ``readPlainly(_:)`` in `reading`'s room, which remembers the zones read before in it.
    static func readPlainly(_ data: Data, in reading: PlainReading) -> ItemContent? {
        defer { reading.writer.removeAll() }
        return data.withUnsafeBytes { bytes -> ItemContent? in
            let canonicalizer = Canonicalizer()
            let read = PlainItemReader.read(bytes, scratch: reading.scratch, keeps: keptForOutline) { line in
                switch line.kind {
                case .begin:
                    return reading.writer.begin(line.name, rememberedIn: line.slot)
                case .end:
                    reading.writer.end()
                    return true
                case .repeated:
                    reading.writer.repeat(line.slot!)
                    return true
                case .property:
                    if isMeetingParty(line.name), ByteSearch.contains("SCHEDULE-", in: line.parameterText) {
                        // Written without what a scheduling server keeps on it, as the hash is.
                        ContentHash.withoutSchedulingParameters(line.parameterText, into: &reading.parameters)
                        return reading.parameters.withUnsafeBufferPointer { parameters in
                            reading.writer.line(line, parameterText: parameters) {
                                canonicalizer.canonicalValue(
                                    line.value, name: line.name, parameterText: line.parameterText)
                            }
                        }
                    }
                    return reading.writer.line(line) {
                        canonicalizer.canonicalValue(line.value, name: line.name, parameterText: line.parameterText)
                    }
                }
            }
            guard let read, definesItsZones(read) else { return nil }
            var content = ItemContent(uid: nil, hash: ContentHash.ofWritten(reading.writer))
            content.readOutline(read.outline)
            return content
        }
    }

    /// Whether every TZID the item names is named so by one of its VTIMEZONEs; anything else is
    /// the parse's (`TimeZoneCompletion` completes it, and the hash is of what it completes).
    private static func definesItsZones(_ read: PlainItem) -> Bool {
        var checked: String?
        for tzid in read.tzids where tzid != checked {
            guard Self.defines(read.outline, tzid) else { return false }
            checked = tzid
        }
        return true
    }

    /// Whether the outline holds a VTIMEZONE whose (first) TZID is `tzid`.
    private static func defines(_ outline: Component, _ tzid: String) -> Bool {
        outline.components.contains { zone in
            zone.name.isName("VTIMEZONE") && zone.properties.first(where: { $0.name.isName("TZID") })?.value == tzid
        }
    }

    /// The properties the UID, LAST-MODIFIED, SEQUENCE and span are read from.
    private static func keptForOutline(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = name.first else { return false }
        switch first {
        case UInt8(ascii: "U"): return ByteSearch.equals(name, "UID")
        case UInt8(ascii: "L"): return ByteSearch.equals(name, "LAST-MODIFIED")
        case UInt8(ascii: "S"): return ByteSearch.equals(name, "SEQUENCE")
        case UInt8(ascii: "D"):
            return ByteSearch.equals(name, "DTSTART") || ByteSearch.equals(name, "DTEND")
                || ByteSearch.equals(name, "DUE") || ByteSearch.equals(name, "DURATION")
        case UInt8(ascii: "R"): return ByteSearch.equals(name, "RRULE") || ByteSearch.equals(name, "RDATE")
        default: return false
        }
    }

    /// ATTENDEE or ORGANIZER: the properties whose scheduling parameters the hash leaves out.
    private static func isMeetingParty(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        ByteSearch.equals(name, "ATTENDEE") || ByteSearch.equals(name, "ORGANIZER")
    }
}
