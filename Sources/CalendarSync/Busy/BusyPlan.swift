import ICalendar

/// What a projection's run does to its target: the blocks to make, to change and to remove,
/// from the blocks wanted and those the target holds. A block edited by hand differs from the
/// one wanted and is changed back; one deleted by hand is made again. Pure.
struct BusyPlan {
    var make: [(uid: String, calendar: Component)] = []
    var change: [(file: EventFile, calendar: Component)] = []
    var remove: [EventFile] = []
    var unchanged = 0

    /// The plan from `wanted` (block UID → VCALENDAR) and `held` (block UID → the file holding
    /// it).
    init(wanted: [String: Component], held: [String: EventFile]) {
        for uid in wanted.keys.sorted() {
            let calendar = wanted[uid]!
            if let file = held[uid] {
                if Self.same(file.calendar, calendar) { unchanged += 1 } else { change.append((file, calendar)) }
            } else {
                make.append((uid, calendar))
            }
        }
        remove = held.keys.sorted().filter { wanted[$0] == nil }.map { held[$0]! }
    }

    /// What a server adds to an object or changes when it stores it, and calgw's stamp: not a
    /// difference between a held block and the one wanted.
    static let incidental: Set<String> = ["DTSTAMP", "CREATED", "LAST-MODIFIED", "SEQUENCE"]

    /// Whether the held block says what the wanted one says: the same events (by
    /// RECURRENCE-ID), each with the same properties but the incidental ones and other
    /// programs' `X-` marks, and no components inside. A server's reordering, its stamps and
    /// the VTIMEZONEs it keeps are no change; a title, a time or a line added by hand is.
    static func same(_ held: Component, _ wanted: Component) -> Bool {
        func events(_ calendar: Component) -> [String: (Set<Property>, Int)] {
            var out: [String: (Set<Property>, Int)] = [:]
            for event in calendar.components where event.name == "VEVENT" {
                let kept = event.properties.filter {
                    !incidental.contains($0.name) && (!$0.name.hasPrefix("X-") || $0.name == "X-CALGW-BUSY")
                }
                out[event["RECURRENCE-ID"]?.value ?? ""] = (Set(kept), event.components.count)
            }
            return out
        }
        let a = events(held), b = events(wanted)
        return a.count == b.count && a.allSatisfy { key, value in b[key].map { $0 == value } ?? false }
    }
}
