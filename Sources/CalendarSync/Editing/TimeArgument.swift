import Foundation
import ICalendar

/// A date or time for an event (`--start`, `--end`, `--occurrence`) as the value an event
/// holds: a date stays a DATE, a wall-clock time takes the zone (`--tz`, the event's own, or
/// the system's), and an instant is shown in that zone.
public struct TimeArgument: Sendable {
    /// The zone a wall-clock time is read in, and an instant converted to: an IANA or
    /// Windows name, or nil for the system's zone. "floating" keeps times without a zone.
    public var zone: String?

    /// Times read in `zone` (nil: the system's zone).
    public init(zone: String?) { self.zone = zone }

    /// The system's zone name (from TZ or /etc/localtime), as Foundation reads it.
    public static var systemZone: String { TimeZone.current.identifier }

    /// The form a wall-clock time takes: zoned, UTC for UTC/GMT, or floating.
    public func wallClockForm() throws -> DateTimeValue.Form {
        let name = zone ?? Self.systemZone
        if name.lowercased() == "floating" { return .floating }
        if ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Z"].contains(name) { return .utc }
        guard TimeZoneResolver().zone(for: name) != nil else {
            throw EventCommandError(
                "unknown time zone \(name)", recovery: "give an IANA name such as Europe/Berlin, or UTC", kind: .usage)
        }
        return .zoned(tzid: name)
    }

    /// Parses `text` (see `DateArgument` for the forms); `option` names the flag in errors.
    public func parse(_ text: String, option: String) throws -> DateTimeValue {
        switch try DateArgument.parse(text, option: option).value {
        case .date(let date):
            return DateTimeValue(date: date)
        case .local(let local):
            return DateTimeValue(local, form: try wallClockForm())
        case .instant(let local, let offset):
            let utc = DateTimeValue(local.adding(seconds: Int64(-offset)), form: .utc)
            guard case .zoned(let tzid) = try wallClockForm(), let rules = TimeZoneResolver().zone(for: tzid) else {
                return utc
            }
            return DateTimeValue(rules.local(atUTC: utc.local.secondsSinceEpoch), form: .zoned(tzid: tzid))
        }
    }
}
