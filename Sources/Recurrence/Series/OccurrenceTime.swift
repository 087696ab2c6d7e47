import ICalendar

/// How an occurrence's start or end is written for people and scripts (CLI.md "Output"):
/// timed values as RFC 3339 with the offset in force at that instant, floating times without
/// an offset, dates as `YYYY-MM-DD`.
public enum OccurrenceTime {
    /// RFC 3339 text for `value` at `instant`, in `zone` (the value's own zone, or a display
    /// zone such as `--tz`). Floating values and dates keep their wall-clock fields.
    public static func rfc3339(_ value: DateTimeValue, instant: Int64, zone: (any ZoneRules)?) -> String {
        switch value.form {
        case .date: return value.date.isoString
        case .floating: return value.local.isoString
        case .utc, .zoned:
            let z = zone ?? FixedOffsetZone.utc
            let offset = z.offset(atUTC: instant)
            return LocalDateTime(secondsSinceEpoch: instant + Int64(offset)).isoString + offsetText(offset)
        }
    }

    /// `+02:00`, `-05:00`, `+00:00`.
    public static func offsetText(_ seconds: Int) -> String { UTCOffset(seconds: seconds).rfc3339 }

    /// The instant in UTC as `YYYY-MM-DDTHH:MM:SSZ` (for timed values), else as `rfc3339`.
    /// A zoned value whose TZID does not resolve is floating.
    public static func utcText(_ value: DateTimeValue, instant: Int64, resolver: TimeZoneResolver) -> String {
        switch value.form {
        case .date: return value.date.isoString
        case .floating: return value.local.isoString
        case .zoned(let tzid) where resolver.zone(for: tzid) == nil: return value.local.isoString
        case .utc, .zoned: return LocalDateTime(secondsSinceEpoch: instant).isoString + "Z"
        }
    }
}
