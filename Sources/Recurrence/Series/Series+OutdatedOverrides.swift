import ICalendar

extension Series {
    /// The overrides left out as changes to an older version of the series: each carries its
    /// own RRULE, RDATE or EXDATE (a copy of the master it was written against), has a lower
    /// SEQUENCE than the master (a missing one counting lowest), and its RECURRENCE-ID is no
    /// instance of the master, which a newer version ended earlier (UNTIL or COUNT).
    /// recurring-ical-events leaves these out, and so does calgw; an override without rules of
    /// its own keeps its place even when its instance is gone. Overrides whose instance an
    /// EXDATE removes are not listed (they are hidden for that).
    /// - Parameter floatingZone: the zone floating times and dates are read in.
    /// - Returns: the overrides, in file order.
    public func outdatedOverrides(floatingZone: any ZoneRules = FixedOffsetZone.utc) -> [Component] {
        guard !outdatedCandidates.isEmpty, let frame else { return [] }
        return overrides.filter { o in
            guard let rid = o["RECURRENCE-ID"]?.dateTime else { return false }
            let key = frame.wall(of: rid)
            return !isExcluded(key) && isOutdated(key, floatingZone: floatingZone)
        }
    }

    /// Whether the override of `key` (wall second of the frame) is a change to an older
    /// version: a candidate (`outdatedCandidates`) whose instance the series does not have.
    func isOutdated(_ key: Int64, floatingZone: any ZoneRules) -> Bool {
        guard !outdatedCandidates.isEmpty, outdatedCandidates.contains(key), let frame else { return false }
        // A rule time in a DST gap has the key of the time after it: look a day back for it.
        let clock = CachedClock(frame.clock(floating: floatingZone))
        return !instanceKeys(wallFrom: key - 86_400, wallTo: key, limit: 1_000_000, clock: clock).contains(key)
    }
}
