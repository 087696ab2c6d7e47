import Foundation
import ICalendar

/// Merges two versions of a calendar object against the version both started from, property
/// by property: what only one side changed is taken from it, what both changed the same way is
/// kept, and any other clash takes the newer side's value (LAST-MODIFIED, then SEQUENCE; local
/// on a tie). Properties that form a set (ATTENDEE, by person; CATEGORIES, EXDATE, RDATE and
/// the like, by line) are merged entry by entry against the base: an entry one side added is
/// kept, one a side removed stays removed unless the other side changed it, and for a person
/// both changed the newer side's entry wins. Components (an event's overrides, alarms) are
/// matched by name, UID and RECURRENCE-ID and merged the same way; one deleted on a side and
/// untouched on the other is dropped, one changed on the other side is kept.
public enum ThreeWayMerge {
    /// The merged object, nil when a version does not parse.
    /// - Parameter localWins: settle clashes for the local side whichever is newer (the
    ///   person's own answer to a meeting, against the server's copy); nil: the newer side.
    public static func merge(base: Data, local: Data, remote: Data, localWins: Bool? = nil) -> Data? {
        let parser = ICalendarParser()
        guard let b = try? parser.parse(base).calendar, let l = try? parser.parse(local).calendar,
            let r = try? parser.parse(remote).calendar
        else { return nil }
        let canonical = Canonicalizer()
        let merged = mergeComponent(
            base: canonical.canonicalize(b), local: canonical.canonicalize(l), remote: canonical.canonicalize(r),
            localIsNewer: localWins ?? localIsNewer(l, r))
        return ICalendarSerializer().data([merged])
    }

    /// True when the local version counts as newer: later LAST-MODIFIED, then higher SEQUENCE.
    static func localIsNewer(_ l: Component, _ r: Component) -> Bool {
        let lc = ItemContent(
            uid: nil, hash: ContentHash(""), lastModified: maxValue(l, "LAST-MODIFIED"),
            sequence: Int(maxValue(l, "SEQUENCE") ?? "") ?? 0)
        let rc = ItemContent(
            uid: nil, hash: ContentHash(""), lastModified: maxValue(r, "LAST-MODIFIED"),
            sequence: Int(maxValue(r, "SEQUENCE") ?? "") ?? 0)
        return ConflictResolver.localIsNewer(lc, rc)
    }

    static func maxValue(_ c: Component, _ name: String) -> String? {
        var values = c.properties(named: name).map(\.value)
        for child in c.components { if let v = maxValue(child, name) { values.append(v) } }
        if name == "SEQUENCE" {
            return values.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.max().map(String.init)
        }
        return values.max()
    }

    static func mergeComponent(base b: Component, local l: Component, remote r: Component, localIsNewer: Bool)
        -> Component
    {
        var out = Component(name: l.name)
        var names: [String] = []
        for p in l.properties + r.properties where !names.contains(p.name) { names.append(p.name) }
        var merged: Set<String> = []
        for name in names where !merged.contains(name) {
            if let group = valueGroup(of: name, in: l.name) {
                out.properties += mergeGroup(group, base: b, local: l, remote: r, localIsNewer: localIsNewer)
                merged.formUnion(group)
                continue
            }
            let lp = l.properties(named: name), rp = r.properties(named: name), bp = b.properties(named: name)
            switch name {
            case "LAST-MODIFIED", "DTSTAMP":
                if let newest = (lp + rp).max(by: { $0.value < $1.value }) { out.properties.append(newest) }
            case "SEQUENCE":
                if let highest = (lp + rp).max(by: { ($0.integer ?? 0) < ($1.integer ?? 0) }) {
                    out.properties.append(highest)
                }
            default:
                if lp == rp {
                    out.properties += lp
                } else if lp == bp {
                    out.properties += rp
                } else if rp == bp {
                    out.properties += lp
                } else if let key = setKey(name) {
                    out.properties += mergeSet(base: bp, local: lp, remote: rp, key: key, localIsNewer: localIsNewer)
                } else {
                    out.properties += localIsNewer ? lp : rp
                }
            }
        }
        out.components = mergeChildren(
            base: b.components, local: l.components, remote: r.components, localIsNewer: localIsNewer)
        return out
    }

    /// Properties whose lines form a set, and what identifies an entry: ATTENDEE the person,
    /// the others the whole line. Nil for properties merged as one value.
    static func setKey(_ name: String) -> ((Property) -> String)? {
        switch name {
        case "ATTENDEE": { CalendarUser($0).normalizedAddress }
        case "CATEGORIES", "RESOURCES", "EXDATE", "RDATE", "COMMENT", "CONTACT", "ATTACH", "RELATED-TO":
            { "\($0.parameterText):\($0.value)" }
        default: nil
        }
    }

    /// A set-like property merged entry by entry against the base: an entry on both sides is
    /// kept (the side that changed it wins, the newer side if both did); an entry on one side
    /// only is kept when that side added or changed it, dropped when the other side removed it
    /// unchanged. Local entries first, in their order, then the remote side's additions.
    static func mergeSet(
        base: [Property], local: [Property], remote: [Property], key: (Property) -> String,
        localIsNewer: Bool
    ) -> [Property] {
        func byKey(_ list: [Property]) -> [String: Property] {
            Dictionary(list.map { (key($0), $0) }, uniquingKeysWith: { a, _ in a })
        }
        let b = byKey(base), l = byKey(local), r = byKey(remote)
        var order: [String] = [], seen = Set<String>()
        for p in local + remote where seen.insert(key(p)).inserted { order.append(key(p)) }
        var out: [Property] = []
        for k in order {
            switch (l[k], r[k]) {
            case let (lp?, rp?):
                out.append(lp == rp || rp == b[k] ? lp : lp == b[k] ? rp : (localIsNewer ? lp : rp))
            case let (lp?, nil):
                if b[k] == nil || b[k] != lp { out.append(lp) }
            case let (nil, rp?):
                if b[k] == nil || b[k] != rp { out.append(rp) }
            case (nil, nil): break
            }
        }
        return out
    }

    static func childKey(_ c: Component) -> String {
        if c.name == "VTIMEZONE" { return "VTIMEZONE|\(c["TZID"]?.value ?? "")" }
        if let uid = c["UID"]?.value { return "\(c.name)|\(uid)|\(c["RECURRENCE-ID"]?.value ?? "")" }
        return "\(c.name)|"
    }

    /// Properties that say one thing together and so come from one side in a merge: a task's
    /// completion (STATUS, COMPLETED, PERCENT-COMPLETE: never completed at 60 %, nor open with
    /// a COMPLETED date), a component's times and its recurrence. Taken one by one, a clash
    /// would mix the two sides into a value neither wrote.
    static let valueGroups: [(components: Set<String>, names: [String])] = [
        (["VTODO"], ["STATUS", "COMPLETED", "PERCENT-COMPLETE"]),
        (["VEVENT", "VTODO", "VJOURNAL"], ["DTSTART", "DTEND", "DURATION", "DUE"]),
        (["VEVENT", "VTODO", "VJOURNAL"], ["RRULE", "RDATE", "EXDATE"]),
    ]

    /// The group `name` belongs to in a component called `component`, nil for a property
    /// merged on its own.
    static func valueGroup(of name: String, in component: String) -> [String]? {
        valueGroups.first { $0.components.contains(component) && $0.names.contains(name) }?.names
    }

    /// A group's properties from one side: the side that changed it when only one did, else the
    /// newer side. Where both changed only the set-like members (RDATE, EXDATE) and agree on
    /// the rest, those are merged entry by entry as on their own.
    static func mergeGroup(
        _ group: [String], base b: Component, local l: Component, remote r: Component,
        localIsNewer: Bool
    ) -> [Property] {
        let lg = group.map { l.properties(named: $0) }, rg = group.map { r.properties(named: $0) }
        let bg = group.map { b.properties(named: $0) }
        if lg == rg || rg == bg { return lg.flatMap { $0 } }
        if lg == bg { return rg.flatMap { $0 } }
        let sets = group.indices.filter { setKey(group[$0]) != nil }
        let others = group.indices.filter { !sets.contains($0) }
        if !sets.isEmpty && others.allSatisfy({ lg[$0] == rg[$0] }) {
            return group.indices.flatMap { index in
                guard sets.contains(index), lg[index] != rg[index], let key = setKey(group[index]) else {
                    return lg[index]
                }
                return mergeSet(
                    base: bg[index], local: lg[index], remote: rg[index], key: key, localIsNewer: localIsNewer)
            }
        }
        return (localIsNewer ? lg : rg).flatMap { $0 }
    }

    static func mergeChildren(base: [Component], local: [Component], remote: [Component], localIsNewer: Bool)
        -> [Component]
    {
        // Children without a UID (alarms) are compared as one list.
        let keyed = { (c: Component) in c.name == "VTIMEZONE" || c["UID"] != nil }
        let lu = local.filter { !keyed($0) }, ru = remote.filter { !keyed($0) }, bu = base.filter { !keyed($0) }
        let unkeyed: [Component] = lu == ru ? lu : lu == bu ? ru : ru == bu ? lu : (localIsNewer ? lu : ru)

        let bk = Dictionary(base.filter(keyed).map { (childKey($0), $0) }, uniquingKeysWith: { a, _ in a })
        let rk = Dictionary(remote.filter(keyed).map { (childKey($0), $0) }, uniquingKeysWith: { a, _ in a })
        let lk = Dictionary(local.filter(keyed).map { (childKey($0), $0) }, uniquingKeysWith: { a, _ in a })
        var order: [String] = []
        for c in (local + remote).filter(keyed) where !order.contains(childKey(c)) { order.append(childKey(c)) }
        var out: [Component] = []
        for key in order {
            let b = bk[key], l = lk[key], r = rk[key]
            switch (l, r) {
            case let (l?, r?):
                if l == r {
                    out.append(l)
                } else if let b {
                    out.append(mergeComponent(base: b, local: l, remote: r, localIsNewer: localIsNewer))
                } else {
                    out.append(localIsNewer ? l : r)
                }
            case let (l?, nil):
                // Removed remotely: drop it unless the local side changed it (or added it).
                if b == nil || b != l { out.append(l) }
            case let (nil, r?):
                if b == nil || b != r { out.append(r) }
            case (nil, nil): break
            }
        }
        // VTIMEZONEs first, as RFC 5545 recommends; then the objects; alarms after properties.
        return out.filter { $0.name == "VTIMEZONE" } + out.filter { $0.name != "VTIMEZONE" } + unkeyed
    }
}
