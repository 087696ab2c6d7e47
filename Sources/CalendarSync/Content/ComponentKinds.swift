import ICalendar

/// The kinds of calendar object an item holds (its VEVENTs, VTODOs, VJOURNALs), as a pair's
/// `item_types` names them. Empty when not known (an item the run did not read).
public struct ComponentKinds: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let event = ComponentKinds(rawValue: 1 << 0)
    public static let task = ComponentKinds(rawValue: 1 << 1)
    public static let journal = ComponentKinds(rawValue: 1 << 2)
    /// A component of another name (VFREEBUSY, VAVAILABILITY, an X- component).
    public static let other = ComponentKinds(rawValue: 1 << 3)

    /// The kind of the component named `name` (`VEVENT`, …).
    public init(componentName name: String) {
        if name.isName("VEVENT") {
            self = .event
        } else if name.isName("VTODO") {
            self = .task
        } else if name.isName("VJOURNAL") {
            self = .journal
        } else {
            self = .other
        }
    }

    /// The kinds of `calendar`'s objects (its VTIMEZONEs aside), or of the component itself.
    public static func of(_ calendar: Component) -> ComponentKinds {
        guard calendar.name.isName("VCALENDAR") else { return ComponentKinds(componentName: calendar.name) }
        var kinds: ComponentKinds = []
        for object in calendar.components where !object.name.isName("VTIMEZONE") {
            kinds.insert(ComponentKinds(componentName: object.name))
        }
        return kinds
    }

    /// The kinds `item_types` names: `["VTODO"]` and the like; nil for a name that is none.
    public static func named(_ names: [String]) -> ComponentKinds? {
        var kinds: ComponentKinds = []
        for name in names {
            guard ["VEVENT", "VTODO", "VJOURNAL"].contains(name) else { return nil }
            kinds.insert(ComponentKinds(componentName: name))
        }
        return kinds
    }
}
