/// Where a component stands in the history of its event, for choosing among several versions
/// of one event (or of one changed instance) that a calendar holds side by side.
///
/// Some exports keep every version of an event: two or more VEVENTs with the same UID (and the
/// same RECURRENCE-ID, or none), each a later edit. The later version is the one with the
/// higher SEQUENCE (RFC 5545 §3.8.7.4), then the later DTSTAMP, then the later LAST-MODIFIED
/// (RFC 5546 §2.1.5). A missing SEQUENCE is 0, a missing time is older than any.
public struct EventVersion: Comparable, Sendable {
    /// SEQUENCE; 0 when absent.
    public let sequence: Int
    /// DTSTAMP as seconds since the epoch (a UTC value; any other form by its clock fields).
    public let stamp: Int64?
    /// LAST-MODIFIED, read like `stamp`.
    public let lastModified: Int64?

    /// The version of `component`, read from its SEQUENCE, DTSTAMP and LAST-MODIFIED.
    public init(_ component: Component) {
        sequence = component["SEQUENCE"]?.integer ?? 0
        stamp = component["DTSTAMP"]?.dateTime?.local.secondsSinceEpoch
        lastModified = component["LAST-MODIFIED"]?.dateTime?.local.secondsSinceEpoch
    }

    /// Older first: by SEQUENCE, then DTSTAMP, then LAST-MODIFIED, a missing time older than any.
    public static func < (a: EventVersion, b: EventVersion) -> Bool {
        if a.sequence != b.sequence { return a.sequence < b.sequence }
        if a.stamp != b.stamp { return (a.stamp ?? Int64.min) < (b.stamp ?? Int64.min) }
        return (a.lastModified ?? Int64.min) < (b.lastModified ?? Int64.min)
    }

    /// The position of the newest of `components`; of versions that compare equal, the first
    /// in file order (as recurring-ical-events keeps it). Nil for an empty list.
    public static func newest(of components: [Component]) -> Int? {
        var best: (index: Int, version: EventVersion)? = nil
        for (i, c) in components.enumerated() {
            let v = EventVersion(c)
            if let b = best, !(b.version < v) { continue }
            best = (i, v)
        }
        return best?.index
    }
}
