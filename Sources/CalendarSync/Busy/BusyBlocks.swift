import Crypto
import Foundation
import ICalendar
import Recurrence

/// The busy blocks one calendar object makes for a projection: its events' times and
/// recurrence, and nothing else of them (shared/CLI.md, "Busy time"). A series stays a series:
/// an override that blocks becomes the block's override, one that does not (declined, free,
/// cancelled, skipped) an EXDATE. A block is never projected again, and a task, a journal or
/// any other component makes none. Pure.
struct BusyBlocks {
    /// The projection.
    var settings: BusySettings
    /// The person's calendar addresses, normalised: their answer decides what blocks.
    var own: Set<String>
    /// The zone the projection's `hours` are in (the reader's).
    var zone: any ZoneRules
    /// Now, in seconds since the epoch, for the horizon.
    var now: Int64

    /// The block UID for the source `uid`: stable across runs and machines, and telling
    /// nothing of the source.
    static func uid(projection: String, source uid: String) -> String {
        let digest = SHA256.hash(data: Data("\(projection)\u{0}\(uid)".utf8))
        return "calgw-busy-" + ContentHash.hex(digest).prefix(40)
    }

    /// Whether `calendar` is a block (of any projection): never projected again.
    static func isBlock(_ calendar: Component) -> Bool {
        calendar.components.contains { $0["X-CALGW-BUSY"] != nil }
    }

    /// The blocks `calendar` makes, each a VCALENDAR by its UID; none for a block, for what
    /// does not block, and for what lies wholly outside the horizon.
    func blocks(of calendar: Component) -> [String: Component] {
        guard !Self.isBlock(calendar) else { return [:] }
        var byUID: [String: [Component]] = [:]
        for event in calendar.components where event.name == "VEVENT" {
            guard let uid = event["UID"]?.text else { continue }
            byUID[uid, default: []].append(event)
        }
        var out: [String: Component] = [:]
        for (uid, events) in byUID {
            let master = events.first { $0["RECURRENCE-ID"] == nil }
            let overrides = events.filter { $0["RECURRENCE-ID"] != nil }
            if let master, blocks(master) {
                let block = stripped(master, uid: Self.uid(projection: settings.name, source: uid))
                var made = [block]
                for override in overrides {
                    guard let rid = override["RECURRENCE-ID"] else { continue }
                    if blocks(override) {
                        made.append(stripped(override, uid: block["UID"]!.value))
                    } else {
                        made[0].properties.append(
                            Property(name: "EXDATE", parameters: rid.parameters, value: rid.value))
                    }
                }
                if let one = wrapped(made, from: calendar) { out[block["UID"]!.value] = one }
            } else {
                // The series blocks nothing; an occurrence the person takes part in still does,
                // as a block of its own.
                for override in overrides where blocks(override) {
                    let rid = override["RECURRENCE-ID"]!.value
                    let blockUID = Self.uid(projection: settings.name, source: "\(uid)\u{0}\(rid)")
                    var single = stripped(override, uid: blockUID)
                    single.properties.removeAll { $0.name == "RECURRENCE-ID" }
                    if let one = wrapped([single], from: calendar) { out[blockUID] = one }
                }
            }
        }
        return out
    }

    /// Whether `event` blocks time: not cancelled, not free, not declined, nor skipped.
    func blocks(_ event: Component) -> Bool {
        if event["STATUS"]?.value.uppercased() == "CANCELLED" { return false }
        if event["TRANSP"]?.value.uppercased() == "TRANSPARENT" { return false }
        if settings.skip.contains(.allDay), event["DTSTART"]?.dateTime?.isDate == true { return false }
        guard let answer = OwnPart.attendee(event, addresses: own)?.answer, !OwnPart.organizes(event, addresses: own)
        else { return true }
        switch answer {
        case "DECLINED": return false
        case "TENTATIVE": return !settings.skip.contains(.tentative)
        case "NEEDS-ACTION": return !settings.skip.contains(.needsAction)
        default: return true
        }
    }

    /// The event with its times, recurrence and nothing else; the projection's title and marks.
    func stripped(_ event: Component, uid: String) -> Component {
        let kept: Set<String> = ["DTSTART", "DTEND", "DURATION", "RRULE", "RDATE", "EXDATE", "RECURRENCE-ID"]
        var block = Component(name: "VEVENT")
        block.properties.append(Property(name: "UID", value: uid))
        // Stable: the source's stamp, so that an unchanged source makes the same block.
        let stamp = (event["LAST-MODIFIED"] ?? event["DTSTAMP"]).map(\.value) ?? "19700101T000000Z"
        block.properties.append(Property(name: "DTSTAMP", value: stamp))
        block.properties += event.properties.filter { kept.contains($0.name) }
        block.properties += [
            Property.text("SUMMARY", settings.title), Property(name: "CLASS", value: "PRIVATE"),
            Property(name: "TRANSP", value: "OPAQUE"), Property.text("X-CALGW-BUSY", settings.name),
        ]
        return block
    }

    /// The blocks as one VCALENDAR with the time zones they name; nil when none of them
    /// reaches into the horizon (or `hours` left nothing of them).
    func wrapped(_ events: [Component], from source: Component) -> Component? {
        let events = settings.hours.map { withinHours(events, hours: $0) } ?? events
        guard !events.isEmpty else { return nil }
        let tzids = Set(events.flatMap(\.properties).compactMap { $0[parameter: "TZID"] })
        var calendar = Component(
            name: "VCALENDAR",
            properties: [
                Property(name: "VERSION", value: "2.0"), Property(name: "PRODID", value: "-//calgw//busy//EN"),
            ])
        calendar.components =
            source.components.filter { $0.name == "VTIMEZONE" && tzids.contains($0["TZID"]?.value ?? "") } + events
        let resolver = TimeZoneResolver(calendar: calendar)
        let series = Series(components: events, resolver: resolver)
        guard series.reach().touches(from: now + settings.horizon.back, to: now + settings.horizon.ahead) else {
            return nil
        }
        return calendar
    }
}
