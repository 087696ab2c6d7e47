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
}
