import Synchronization

/// Resolves the TZIDs of one calendar to zone rules.
///
/// In order: an IANA name the system knows (quotes and spaces trimmed); a path-prefixed name as
/// Mozilla and others write them (`/mozilla.org/20050126_1/Europe/Berlin`); a Windows name
/// ("W. Europe Standard Time") through CLDR's table; the calendar's own VTIMEZONE with that TZID.
/// Anything else is unresolved, and callers read such times as floating.
public struct TimeZoneResolver: Sendable {
    /// VTIMEZONE definitions of the calendar, by TZID.
    public let embedded: [String: VTimeZoneRules]
    /// The calendar-wide default zone from `X-WR-TIMEZONE`, used for floating times by readers
    /// that follow Google's and Apple's exports.
    public let calendarDefault: (any ZoneRules)?

    /// A resolver for the TZIDs used in `calendar` (a VCALENDAR, or any component tree).
    public init(calendar: Component? = nil) {
        var embedded: [String: VTimeZoneRules] = [:]
        for vtz in calendar?.components(named: "VTIMEZONE") ?? [] {
            if let rules = VTimeZoneRules(vtz) { embedded[rules.identifier] = rules }
        }
        self.embedded = embedded
        self.calendarDefault = calendar?["X-WR-TIMEZONE"].flatMap { Self.system($0.text) }
    }

    /// The rules for a TZID, or nil when it cannot be resolved.
    public func zone(for tzid: String) -> (any ZoneRules)? {
        if let iana = Self.ianaIdentifier(for: tzid), let zone = Self.system(iana) { return zone }
        return embedded[tzid] ?? embedded[Self.clean(tzid)]
    }

    /// The IANA identifier a TZID stands for, if it names one directly, by a known prefix, or by
    /// its Windows name. Nil for custom names.
    public static func ianaIdentifier(for tzid: String) -> String? {
        let name = clean(tzid)
        if name.isEmpty { return nil }
        if system(name) != nil { return name }
        if let iana = WindowsZones.ianaByWindowsName[name] { return iana }
        // Path-prefixed names: try the last two, then three, path components.
        if name.contains("/") {
            let parts = name.split(separator: "/")
            for length in [2, 3, 1] where parts.count >= length {
                let candidate = parts.suffix(length).joined(separator: "/")
                if candidate.contains("/") || length == 1, system(candidate) != nil, isRegion(candidate) {
                    return candidate
                }
            }
        }
        return nil
    }

    /// Quotes and surrounding white space removed.
    static func clean(_ tzid: String) -> String {
        var s = Substring(tzid)
        while let f = s.first, f == "\"" || f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == "\"" || l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }

    /// Only accept region-style single components (UTC, GMT) from a path suffix.
    private static func isRegion(_ candidate: String) -> Bool {
        candidate.contains("/") || candidate == "UTC" || candidate == "GMT"
    }

    private static let cache = Mutex<[String: SystemZone?]>([:])

    /// A system zone by exact identifier, cached (Foundation's lookup is slow).
    static func system(_ identifier: String) -> SystemZone? {
        if let hit = cache.withLock({ $0[identifier] }) { return hit }
        let zone = SystemZone(identifier: identifier)
        cache.withLock { $0[identifier] = zone }
        return zone
    }
}
