import ICalendar

/// A series' instances as span edits ask about them (`SeriesInstanceIndex`), and the nearest
/// real occurrences to a time that is not one (for "not an occurrence; nearest are …").
///
/// Instances here are original starts: DTSTART, RRULE instances and RDATEs, EXDATEs ignored
/// for `isInstance` and `ruleInstanceCount` (as the protocol says), applied for `nearest`.
public struct SeriesExpansion: SeriesInstanceIndex {
    /// The series asked about.
    public let series: Series
    /// The zone floating times and dates are read in.
    public let floatingZone: any ZoneRules

    /// The instances of `series`, floating times and dates read in `floatingZone` (UTC by default).
    public init(series: Series, floatingZone: any ZoneRules = FixedOffsetZone.utc) {
        self.series = series
        self.floatingZone = floatingZone
    }

    /// The series with this UID in `calendar`, or nil when there is none.
    public init?(calendar: Component, uid: String, floatingZone: any ZoneRules = FixedOffsetZone.utc) {
        guard let s = CalendarExpansion(calendar: calendar).series.first(where: { $0.uid == uid }) else { return nil }
        self.init(series: s, floatingZone: floatingZone)
    }

    /// Whether `recurrenceID` is DTSTART, an RDATE or an RRULE instance (matched by instant, so
    /// a rule's time in a DST gap is found by the time after the gap and the other way round).
    public func isInstance(_ recurrenceID: DateTimeValue) -> Bool {
        guard let frame = series.frame else { return false }
        let key = frame.wall(of: recurrenceID)
        if key == series.startWall { return true }
        if series.rdates.contains(where: { $0.wall == key }) { return true }
        return firstRuleWall(withKey: key, frame: frame) != nil
    }

    /// The rule's own time for the instance: a time in a DST gap when the rule produces the
    /// instance there, else `recurrenceID`.
    public func ruleTime(of recurrenceID: DateTimeValue) -> DateTimeValue {
        guard let frame = series.frame, frame.isZoned, recurrenceID.form == frame.form else { return recurrenceID }
        let key = frame.wall(of: recurrenceID)
        guard let wall = firstRuleWall(withKey: key, frame: frame), wall != key else { return recurrenceID }
        return frame.value(wall: wall)
    }

    /// The first wall-clock time any RRULE produces whose key is `key`, or nil.
    func firstRuleWall(withKey key: Int64, frame: SeriesFrame) -> Int64? {
        let clock = frame.clock(floating: floatingZone)
        let from = LocalDateTime(secondsSinceEpoch: frame.earliestWall(withKey: key, clock: clock))
        let at = LocalDateTime(secondsSinceEpoch: key)
        var first: Int64? = nil
        for (i, rule) in series.rules.enumerated() {
            var iterator = RuleIterator(
                rule, from: from, stopAfter: at, isPastUntil: series.untilCheck(series.untils[i], clock: clock))
            while let v = iterator.nextSeconds() {
                if frame.canonical(v, clock: clock) == key { first = min(first ?? v, v); break }
                if v > key { break }
            }
        }
        return first
    }

    /// The number of instances the first RRULE produces before `recurrenceID`.
    public func ruleInstanceCount(before recurrenceID: DateTimeValue) -> Int {
        guard let frame = series.frame, let rule = series.rules.first else { return 0 }
        let key = frame.wall(of: recurrenceID)
        let clock = frame.clock(floating: floatingZone)
        var iterator = RuleIterator(
            rule, stopAfter: LocalDateTime(secondsSinceEpoch: key - 1),
            isPastUntil: series.untilCheck(series.untils.first ?? nil, clock: clock))
        // COUNT counts the rule's own instances (a DTSTART the rule does not produce is an
        // extra instance, as dateutil and recurring-ical-events read it), so this is the COUNT
        // that keeps exactly the instances before `recurrenceID`.
        var n = 0
        while let v = iterator.nextSeconds() {
            if frame.canonical(v, clock: clock) >= key { break }
            n += 1
        }
        return n
    }

    /// The real occurrences closest before and after `value` (original starts, EXDATEs and
    /// cancelled overrides left out), in the master DTSTART's form. Either is nil when the
    /// series has none on that side within 400 years.
    public func nearest(to value: DateTimeValue) -> (before: DateTimeValue?, after: DateTimeValue?) {
        guard let frame = series.frame else { return (nil, nil) }
        let key = frame.wall(of: value)
        let clock = frame.clock(floating: floatingZone)
        var before: Int64? = nil, after: Int64? = nil
        var span: Int64 = 86_400 * 8
        let cancelled = Set(
            series.overrides.compactMap { o -> Int64? in
                guard o["STATUS"]?.text.uppercased() == "CANCELLED", let rid = o["RECURRENCE-ID"]?.dateTime else {
                    return nil
                }
                return frame.wall(of: rid)
            })
        while span < 86_400 * 366 * 400 && (before == nil || after == nil) {
            let keys = series.instanceKeys(wallFrom: key - span, wallTo: key + span, limit: 100_000, clock: clock)
                .filter { !cancelled.contains($0) }
            if before == nil { before = keys.last { $0 < key } }
            if after == nil { after = keys.first { $0 > key } }
            span *= 8
        }
        return (before.map(frame.value(wall:)), after.map(frame.value(wall:)))
    }
}
