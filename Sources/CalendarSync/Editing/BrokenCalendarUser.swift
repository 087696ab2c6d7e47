import ICalendar

/// An ORGANIZER or ATTENDEE line a hand edit broke so that it still parses, as no address:
/// `ATTENDEE;PARTSTAT=NEEDS-ACTION mailto:bob@example.org` (a space for the colon) reads as a
/// PARTSTAT of `NEEDS-ACTION mailto` and an address without its scheme. Reading commands name
/// its file and line instead of showing what it seems to say.
enum BrokenCalendarUser {
    /// The first such line among the events and tasks of `components`: its line and what is
    /// wrong, with how to write it.
    /// (A VCALENDAR among them is looked into.)
    static func first(in components: [Component]) -> (line: Int, reason: String)? {
        let items = components.flatMap { $0.name == "VCALENDAR" ? $0.components : [$0] }
        for component in items where component.name == "VEVENT" || component.name == "VTODO" {
            for property in component.properties where isCalendarUser(property) && !isAddress(property.value) {
                return (
                    property.line,
                    "\(property.name) '\(property.value.prefix(80))' is no calendar address "
                        + "(write it as \(property.name);…:mailto:name@example.org)"
                )
            }
        }
        return nil
    }

    /// Whether `property` names a person of the meeting.
    static func isCalendarUser(_ property: Property) -> Bool {
        property.name == "ATTENDEE" || property.name == "ORGANIZER"
    }

    /// Whether `value` is a calendar address: a URI with its scheme (`mailto:…`, `urn:…`), as
    /// `/[A-Za-z][A-Za-z0-9+.\-]*:\S+/` matches it whole, read by hand: a regular expression
    /// costs some 40 µs a value, and a listing of meetings asks this of every attendee.
    static func isAddress(_ value: String) -> Bool {
        if let ascii = isASCIIAddress(value.utf8) { return ascii }
        var characters = value.makeIterator()
        guard let first = characters.next(), first.isASCII, first.isLetter else { return false }
        while let c = characters.next() {
            if c == ":" {
                var rest = false
                while let after = characters.next() {
                    if after.isWhitespace { return false }
                    rest = true
                }
                return rest
            }
            guard c.isASCII, c.isLetter || c.isNumber || c == "+" || c == "." || c == "-" else { return false }
        }
        return false
    }

    /// ``isAddress(_:)`` of a value all in ASCII (nearly every address), read as bytes; nil
    /// for any other value, read by character.
    static func isASCIIAddress(_ bytes: String.UTF8View) -> Bool? {
        var index = 0, colon = -1
        for byte in bytes {
            defer { index += 1 }
            guard byte < 0x80 else { return nil }
            let letter = (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
            if colon >= 0 {
                if byte == 0x20 || (0x09...0x0D).contains(byte) { return false }
            } else if index == 0 {
                if !letter { return false }
            } else if byte == 0x3A {
                colon = index
            } else if !(letter || (0x30...0x39).contains(byte) || byte == 0x2B || byte == 0x2E || byte == 0x2D) {
                return false
            }
        }
        return colon > 0 && index > colon + 1
    }
}
