import ICalendar

/// What an organizer's change to a meeting must carry for the attendees to hear of it
/// (RFC 5546 §2.1.4, §3.2.2). Pure: it compares the resource before and after the change.
///
/// - SEQUENCE: an attendee's server takes a REQUEST only when its SEQUENCE is newer than the
///   one it delivered. Cyrus delivers a meeting stored with `SEQUENCE:0` as sequence 1 (and
///   keeps 0 in the organizer's copy), so the usual bump to 1 reaches nobody: every component
///   the change bumps gets at least ``leastAnnouncedSequence``.
/// - Answers: a change of time or recurrence asks every attendee again; their answers were for
///   the old time, so each one but the organizer goes back to `PARTSTAT=NEEDS-ACTION;RSVP=TRUE`.
public struct OrganizerChange: Sendable {
    /// The lowest SEQUENCE an announced change carries: past the 1 a server may have
    /// delivered a meeting stored at 0 as.
    public static let leastAnnouncedSequence = 2
    /// The properties whose change moves a meeting in time (RFC 5546 §2.1.4 names them among
    /// the significant ones; EXDATE only takes occurrences away and asks nobody again).
    static let timing: Set<String> = ["DTSTART", "DTEND", "DURATION", "RRULE", "RDATE"]

    /// The resource as it was before the change.
    public var before: Component
    /// The organizer's addresses, normalised (``CalendarUser/normalized(_:)``): their own
    /// attendee line keeps its answer.
    public var organizer: Set<String>

    /// The change of `before` made by the organizer at `organizer`.
    public init(before: Component, organizer: Set<String>) {
        self.before = before
        self.organizer = organizer
    }

    /// `after` as the attendees must receive it: SEQUENCE raised on every event the change
    /// bumped, and the answers of every event moved in time asked again.
    /// - Parameter newSeriesMoved: for events whose UID `before` lacks (the new series of a
    ///   this-and-future split), whether the change moved them in time.
    public func announced(_ after: Component, newSeriesMoved: Bool = false) -> Component {
        let old = Dictionary(before.components.map { (Self.key($0), $0) }, uniquingKeysWith: { a, _ in a })
        let oldUIDs = Set(before.components.compactMap { $0["UID"]?.text })
        var result = after
        var movedSeries: Set<String> = []
        // Masters first, so their overrides follow a moved series.
        let order = after.components.indices.sorted {
            (after.components[$0]["RECURRENCE-ID"] == nil ? 0 : 1)
                < (after.components[$1]["RECURRENCE-ID"] == nil ? 0 : 1)
        }
        for i in order where after.components[i].name == "VEVENT" {
            var event = after.components[i]
            let uid = event["UID"]?.text ?? ""
            let previous = old[Self.key(event)]
            guard previous != event else { continue }
            let isOverride = event["RECURRENCE-ID"] != nil
            let moved: Bool
            if !oldUIDs.contains(uid) {
                moved = newSeriesMoved
            } else if let previous {
                moved = Self.timing(of: previous) != Self.timing(of: event) || (isOverride && movedSeries.contains(uid))
            } else if isOverride {
                let master = before.components.first { $0["UID"]?.text == uid && $0["RECURRENCE-ID"] == nil }
                moved =
                    movedSeries.contains(uid) || event["DTSTART"]?.value != event["RECURRENCE-ID"]?.value
                    || master.map { Self.length(of: $0) != Self.length(of: event) } ?? false
            } else {
                moved = false
            }
            if moved && !isOverride { movedSeries.insert(uid) }
            let was =
                previous?["SEQUENCE"]?.integer
                ?? before.components.first { $0["UID"]?.text == uid && $0["RECURRENCE-ID"] == nil }?["SEQUENCE"]?
                .integer
            if let sequence = event["SEQUENCE"]?.integer, oldUIDs.contains(uid), sequence > (was ?? 0),
                sequence < Self.leastAnnouncedSequence
            {
                event.set(Property(name: "SEQUENCE", value: String(Self.leastAnnouncedSequence)))
            }
            if moved { askAgain(&event) }
            result.components[i] = event
        }
        return result
    }

    /// Every attendee but the organizer (by ``organizer`` or the event's ORGANIZER) back to
    /// NEEDS-ACTION, asked to answer.
    func askAgain(_ event: inout Component) {
        let keep = organizer.union(event["ORGANIZER"].map { [CalendarUser.normalized($0.value)] } ?? [])
        for j in event.properties.indices where event.properties[j].name == "ATTENDEE" {
            guard !keep.contains(CalendarUser.normalized(event.properties[j].value)) else { continue }
            event.properties[j].setParameter("PARTSTAT", "NEEDS-ACTION")
            event.properties[j].setParameter("RSVP", "TRUE")
        }
    }

    /// The values that place the event in time; a rule only shortened (UNTIL, COUNT) moves
    /// no occurrence and is left out.
    static func timing(of event: Component) -> [String] {
        event.properties.filter { timing.contains($0.name) }.map { property in
            guard property.name == "RRULE" else { return "\(property.name)\(property.parameters)=\(property.value)" }
            let parts = property.value.split(separator: ";").filter {
                !$0.uppercased().hasPrefix("UNTIL=") && !$0.uppercased().hasPrefix("COUNT=")
            }
            return "RRULE=" + parts.joined(separator: ";")
        }.sorted()
    }

    /// DTEND or DURATION as written, to tell an override of another length from its series.
    static func length(of event: Component) -> String {
        if let duration = event["DURATION"]?.value { return duration }
        guard let start = event["DTSTART"]?.dateTime, let end = event["DTEND"]?.dateTime else { return "" }
        return String(end.local.secondsSinceEpoch - start.local.secondsSinceEpoch)
    }

    /// What tells the versions of one component apart from the others in a resource: its
    /// name, UID and RECURRENCE-ID as written.
    public static func key(_ component: Component) -> String {
        "\(component.name)|\(component["UID"]?.text ?? "")|\(component["RECURRENCE-ID"]?.value ?? "")"
    }
}
