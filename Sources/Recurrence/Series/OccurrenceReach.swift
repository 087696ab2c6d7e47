/// Where the occurrences of a series (or of a whole calendar) can be: a few spans of instants
/// that hold every occurrence, whatever zone floating times and dates are read in, cancelled
/// ones included.
///
/// A reach answers one question cheaply: can this calendar have an occurrence in a window? When
/// ``touches(from:to:)`` says no, expanding the calendar over that window gives nothing, so a
/// listing may pass the calendar over without reading it. It never says no wrongly; it may say
/// yes for a window that holds nothing (a gap between a series' first occurrences, or the
/// stretch after the ones it counted, which it covers as one span).
///
/// ```swift
/// let reach = CalendarExpansion(calendar: calendar).reach()
/// if reach.touches(from: windowStart, to: windowEnd) { /* expand it */ }
/// ```
public struct OccurrenceReach: Hashable, Sendable {
    /// The spans, as closed ranges of seconds since the epoch (UTC), sorted and apart.
    /// `Int64.max` as an upper bound: no end.
    public private(set) var spans: [ClosedRange<Int64>]

    /// A reach of these spans, in any order, overlapping or not.
    public init(spans: [ClosedRange<Int64>]) {
        self.spans = []
        add(spans)
    }

    /// No occurrence anywhere.
    public static let nowhere = OccurrenceReach(spans: [])
    /// Occurrences may be anywhere: what a calendar gets when its reach cannot be bounded.
    public static let everywhere = OccurrenceReach(spans: [Int64.min...Int64.max])

    /// Spans closer than this (seconds) are kept as one, so a weekly series is a single span.
    public static let mergingGap: Int64 = 8 * 86_400

    /// Whether an occurrence may overlap the window [from, to).
    public func touches(from: Int64, to: Int64) -> Bool {
        // The first span ending at or after `from`, by bisection.
        var low = 0, high = spans.count
        while low < high {
            let mid = (low + high) / 2
            if spans[mid].upperBound < from { low = mid + 1 } else { high = mid }
        }
        return low < spans.count && spans[low].lowerBound < to
    }

    /// This reach and `other`'s.
    public func union(_ other: OccurrenceReach) -> OccurrenceReach {
        var result = self
        result.add(other.spans)
        return result
    }

    /// Adds spans, keeping them sorted and merging those closer than `mergingGap`.
    mutating func add(_ more: [ClosedRange<Int64>]) {
        guard !more.isEmpty else { return }
        let all = (spans + more).sorted { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<Int64>] = []
        merged.reserveCapacity(all.count)
        for span in all {
            if let last = merged.last,
                last.upperBound > Int64.max - Self.mergingGap || span.lowerBound <= last.upperBound + Self.mergingGap
            {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, span.upperBound)
            } else {
                merged.append(span)
            }
        }
        spans = merged
    }
}
