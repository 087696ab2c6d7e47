/// A PERIOD value (RFC 5545 §3.3.9): a start and either an end or a duration.
public struct Period: Hashable, Sendable, CustomStringConvertible {
    /// How a period ends.
    public enum Extent: Hashable, Sendable {
        /// At this date-time.
        case end(DateTimeValue)
        /// After this duration from the start.
        case duration(ICalDuration)
    }

    /// The start, a date-time.
    public var start: DateTimeValue
    /// The end or the duration.
    public var extent: Extent

    /// A period from `start` to `extent`.
    public init(start: DateTimeValue, extent: Extent) {
        self.start = start
        self.extent = extent
    }

    /// Parses `start/end` or `start/duration`; `tzid` applies to both date-times.
    public init?(parsing text: some StringProtocol, tzid: String? = nil) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let start = DateTimeValue(parsing: parts[0], tzid: tzid), !start.isDate else {
            return nil
        }
        if let end = DateTimeValue(parsing: parts[1], tzid: tzid), !end.isDate {
            self.init(start: start, extent: .end(end))
        } else if let duration = ICalDuration(parsing: parts[1]) {
            self.init(start: start, extent: .duration(duration))
        } else {
            return nil
        }
    }

    /// `start/end` or `start/duration`, the RFC 5545 form.
    public var description: String {
        switch extent {
        case .end(let end): return "\(start)/\(end)"
        case .duration(let d): return "\(start)/\(d)"
        }
    }
}
