import Foundation

/// Makes a calendar's time zones complete as RFC 5545 §3.2.19 asks: every TZID used by a
/// property has a VTIMEZONE with that TZID in the same VCALENDAR.
///
/// For a TZID without its VTIMEZONE that calgw resolves to an IANA zone (see
/// `TimeZoneResolver.ianaIdentifier(for:)`): a Windows name (`W. Europe Standard Time`) or a
/// path-prefixed name (`/mozilla.org/20050126_1/Europe/Berlin`) is replaced by the IANA name
/// in every property that uses it, and a VTIMEZONE for the IANA zone from
/// `VTimeZoneGenerator` is added before the first VEVENT, VTODO, VJOURNAL or VFREEBUSY. A TZID
/// that has its VTIMEZONE is left as it is, and so is a custom name calgw cannot resolve.
public enum TimeZoneCompletion {
    /// The TZIDs used in `calendar` (outside its VTIMEZONEs) that no VTIMEZONE of it defines,
    /// in order of first use, each with the first property that uses it.
    public static func undefinedTZIDs(in calendar: Component) -> [(tzid: String, property: Property)] {
        let defined = definedTZIDs(in: calendar)
        var seen = Set<String>()
        var result: [(tzid: String, property: Property)] = []
        func walk(_ c: Component) {
            for p in c.properties where !p.parameterText.isEmpty {
                if let tzid = p.tzid, !defined.contains(tzid), seen.insert(tzid).inserted { result.append((tzid, p)) }
            }
            for child in c.components where child.name != "VTIMEZONE" { walk(child) }
        }
        walk(calendar)
        return result
    }

    /// Whether ``undefinedTZIDs(in:)`` finds any, without gathering them: false for nearly every
    /// calendar, whose zones are defined or which has none, so that hashing it need not copy
    /// its tree to complete it.
    public static func hasUndefinedTZIDs(in calendar: Component) -> Bool {
        var vtimezoneTZIDs: [String]?
        func isDefined(_ tzid: String) -> Bool {
            if vtimezoneTZIDs == nil {
                vtimezoneTZIDs = calendar.components.compactMap { $0.name == "VTIMEZONE" ? $0["TZID"]?.value : nil }
            }
            guard let defined = vtimezoneTZIDs else { return false }
            return defined.contains(tzid) || defined.contains { TimeZoneResolver.clean($0) == tzid }
        }
        func walk(_ c: Component) -> Bool {
            for p in c.properties where !p.parameterText.isEmpty {
                if let tzid = p.tzid, !isDefined(tzid) { return true }
            }
            for child in c.components where child.name != "VTIMEZONE" { if walk(child) { return true } }
            return false
        }
        return walk(calendar)
    }

    /// Completes `calendar` (a VCALENDAR) in place.
    /// - Parameter date: the date whose rules generated VTIMEZONEs state (default: now).
    /// - Returns: whether anything changed.
    @discardableResult
    public static func complete(_ calendar: inout Component, at date: Date = Date()) -> Bool {
        let missing = undefinedTZIDs(in: calendar)
        guard !missing.isEmpty else { return false }
        var defined = definedTZIDs(in: calendar)
        var renamed: [String: String] = [:]
        var added: [Component] = []
        for (tzid, _) in missing {
            guard let iana = TimeZoneResolver.ianaIdentifier(for: tzid) else { continue }
            if iana != tzid { renamed[tzid] = iana }
            guard !defined.contains(iana), let vtimezone = VTimeZoneGenerator.vtimezone(for: iana, at: date) else {
                continue
            }
            defined.insert(iana)
            added.append(vtimezone)
        }
        guard !renamed.isEmpty || !added.isEmpty else { return false }
        if !renamed.isEmpty { rename(&calendar, renamed) }
        let at =
            calendar.components.firstIndex { ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY"].contains($0.name) }
            ?? calendar.components.count
        calendar.components.insert(contentsOf: added, at: at)
        return true
    }

    /// The TZIDs the calendar's VTIMEZONEs define, as written and with quotes and spaces trimmed.
    static func definedTZIDs(in calendar: Component) -> Set<String> {
        var defined = Set<String>()
        for vtimezone in calendar.components where vtimezone.name == "VTIMEZONE" {
            guard let tzid = vtimezone["TZID"]?.value else { continue }
            defined.insert(tzid)
            defined.insert(TimeZoneResolver.clean(tzid))
        }
        return defined
    }

    /// Replaces TZID parameters by `names` in every component but VTIMEZONEs.
    static func rename(_ c: inout Component, _ names: [String: String]) {
        for i in c.properties.indices where !c.properties[i].parameterText.isEmpty {
            if let tzid = c.properties[i].tzid, let iana = names[tzid] { c.properties[i].setParameter("TZID", iana) }
        }
        for i in c.components.indices where c.components[i].name != "VTIMEZONE" { rename(&c.components[i], names) }
    }
}
