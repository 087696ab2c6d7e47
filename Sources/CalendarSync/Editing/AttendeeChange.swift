import ICalendar

/// What an attendee may change in their copy of a meeting: only what is theirs. The time,
/// recurrence, attendees, title and the rest belong to the organizer (RFC 5546 §3.2.2); an
/// attendee's server would send the organizer a confusing REPLY for them, and the two
/// calendars would disagree. Alarms, TRANSP (whether the time shows as busy) and categories
/// are the attendee's own and schedule nothing; their answer is given by `event reply`. Pure.
public enum AttendeeChange {
    /// The properties an attendee's copy may differ in from the organizer's, and those calgw
    /// stamps on every write.
    public static let ownProperties: Set<String> = ["TRANSP", "CATEGORIES", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE"]

    /// Why an attendee's change cannot be made.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// The meeting's UID.
        public var uid: String
        /// The organizer's address as written, nil when the meeting names none.
        public var organizer: String?
        /// What the change touches that is the organizer's (property names, `ATTENDEE` for
        /// the attendees and answers).
        public var organizersFields: [String]

        /// A refusal of a change to `organizersFields` of `uid`, which `organizer` organizes.
        public init(uid: String, organizer: String?, organizersFields: [String]) {
            self.uid = uid
            self.organizer = organizer
            self.organizersFields = organizersFields
        }

        /// The refusal, naming the meeting, the fields and who owns them.
        public var description: String {
            "you are invited to \(uid), which \(organizer.map { CalendarUser.normalized($0) } ?? "its organizer") organizes: "
                + "\(organizersFields.joined(separator: ", ")) \(organizersFields.count == 1 ? "is" : "are") the organizer's to change; nothing was written"
        }

        /// What the attendee can do instead.
        public var recovery: String {
            "answer with `calgw event reply \(uid) --accept | --decline | --tentative [--comment TEXT]` "
                + "(a comment can propose another time); your alarms, TRANSP and CATEGORIES are yours to change with `calgw event open`"
        }
    }

    /// The organizer's properties in which `after` differs from `before`, in the order found
    /// (`ATTENDEE` once for any change of the attendees or their answers); empty when the
    /// change is the attendee's own.
    public static func organizersFields(before: Component, after: Component) -> [String] {
        var fields: [String] = []
        func note(_ name: String) { if !fields.contains(name) { fields.append(name) } }
        let old = Dictionary(before.components.map { (OrganizerChange.key($0), $0) }, uniquingKeysWith: { a, _ in a })
        let new = Dictionary(after.components.map { (OrganizerChange.key($0), $0) }, uniquingKeysWith: { a, _ in a })
        for key in Set(old.keys).union(new.keys).sorted() {
            guard let a = old[key], let b = new[key] else {
                note(key.hasPrefix("VTIMEZONE") ? "VTIMEZONE" : "an occurrence of its own")
                continue
            }
            guard a.name != "VTIMEZONE" else { continue }
            let names = Set(a.properties.map(\.name)).union(b.properties.map(\.name)).subtracting(ownProperties)
            for name in names.sorted() where a.properties(named: name) != b.properties(named: name) {
                note(name == "COMMENT" ? "COMMENT (give yours with `event reply --comment`)" : name)
            }
            let aParts = a.components.filter { $0.name != "VALARM" },
                bParts = b.components.filter { $0.name != "VALARM" }
            if aParts != bParts {
                note(Set(aParts.map(\.name)).union(bParts.map(\.name)).sorted().joined(separator: ", "))
            }
        }
        return fields
    }

    /// `after` with the SEQUENCE of each event as `before` had it: an attendee's own change
    /// is no new version of the meeting.
    public static func keepingSequence(of before: Component, in after: Component) -> Component {
        let old = Dictionary(before.components.map { (OrganizerChange.key($0), $0) }, uniquingKeysWith: { a, _ in a })
        var result = after
        for i in result.components.indices {
            guard let previous = old[OrganizerChange.key(result.components[i])] else { continue }
            if let sequence = previous["SEQUENCE"] {
                result.components[i].set(sequence)
            } else {
                result.components[i].remove("SEQUENCE")
            }
        }
        return result
    }
}
