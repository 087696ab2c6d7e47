import ICalendar

/// A person `event add --attendee` invites: an address as people type it, bare
/// (`bob@example.org`), as a calendar address (`mailto:bob@example.org`) or as mail programs
/// write it (`Bob Lee <bob@example.org>`, whose name becomes the attendee's CN). Pure.
public struct Invitee: Sendable, Equatable {
    /// The calendar address, `mailto:…`.
    public var address: String
    /// The person's name, when given (`CN`).
    public var name: String?

    /// An invitee at `address` (`mailto:` added where missing), named `name`.
    public init(address: String, name: String? = nil) {
        self.address = address.lowercased().hasPrefix("mailto:") ? address : "mailto:" + address
        self.name = name
    }

    /// `text` read as one of the three forms; nil when it holds no address, or something a
    /// property value could not hold.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let address = /(?i:mailto:)?[^@\s"<>;:,]+@[^@\s"<>;:,]+/
        if trimmed.wholeMatch(of: address) != nil {
            self.init(address: trimmed)
        } else if let named = trimmed.wholeMatch(of: /([^<>"]*?)\s*<([^<>]+)>/),
            String(named.2).wholeMatch(of: address) != nil
        {
            let name = String(named.1).trimmingCharacters(in: .whitespaces)
            self.init(address: String(named.2), name: name.isEmpty ? nil : name)
        } else {
            return nil
        }
    }

    /// Each person once, in the order given, leaving out the organizer: addresses are compared
    /// as ``CalendarUser/normalized(_:)`` does, so `Bob@Example.org` is `bob@example.org`.
    public static func distinct(_ invitees: [Invitee], organizer: String) -> [Invitee] {
        var seen: Set<String> = [CalendarUser.normalized(organizer)]
        return invitees.filter { seen.insert(CalendarUser.normalized($0.address)).inserted }
    }

    /// The ATTENDEE line asking this person to answer.
    public var attendee: Property {
        var parameters = [
            Parameter(name: "PARTSTAT", values: ["NEEDS-ACTION"]), Parameter(name: "RSVP", values: ["TRUE"]),
        ]
        if let name { parameters.insert(Parameter(name: "CN", values: [name]), at: 0) }
        return Property(name: "ATTENDEE", parameters: parameters, value: address)
    }
}
