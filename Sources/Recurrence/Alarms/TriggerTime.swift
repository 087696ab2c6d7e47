import ICalendar

/// How a trigger is counted from its anchor, as RFC 5545 §3.3.6 says of durations: weeks and
/// days on the wall clock of the anchor's zone (so `-P1D` is the same time the day before,
/// across a change to summer time), hours, minutes and seconds as elapsed time (so `-PT15M`
/// is a quarter of an hour before, even across one).
enum TriggerTime {
    /// The longest a trigger is taken to reach, either way: a hundred years. Longer durations
    /// (which no calendar means) are cut to it rather than overflow.
    static let longest: Int64 = 100 * 366 * 86_400

    /// `duration` as signed nominal days and exact seconds, each part cut to ``longest``.
    static func parts(_ duration: ICalDuration) -> (days: Int64, seconds: Int64) {
        let cap = longest / 86_400
        let sign: Int64 = duration.isNegative ? -1 : 1
        let days = min(Int64(clamping: duration.weeks), cap) * 7 + min(Int64(clamping: duration.days), cap)
        let seconds =
            min(Int64(clamping: duration.hours), cap * 24) * 3600
            + min(Int64(clamping: duration.minutes), cap * 1440) * 60 + min(Int64(clamping: duration.seconds), longest)
        return (sign * min(days, cap), sign * min(seconds, longest))
    }

    /// `instant` moved by `duration`, days counted on `zone`'s wall clock. A duration forward
    /// adds its days, then its time (`P1DT3H`: the same time tomorrow, then three hours on); one
    /// backward takes them off in the other order, so that going back undoes going forward
    /// (`-P1DT3H` from that time is where it started).
    static func shifted(_ instant: Int64, by duration: ICalDuration, in zone: any ZoneRules) -> Int64 {
        let (days, seconds) = parts(duration)
        guard days != 0 else { return instant + seconds }
        func addDays(_ t: Int64) -> Int64 {
            zone.utc(forLocal: LocalDateTime(secondsSinceEpoch: zone.local(atUTC: t).secondsSinceEpoch + days * 86_400))
        }
        return duration.isNegative ? addDays(instant + seconds) : addDays(instant) + seconds
    }

    /// How far `duration` moves an instant, in seconds, a nominal day taken as 86,400 (for
    /// widening a query window, which adds a margin for the changes of offset).
    static func approximate(_ duration: ICalDuration) -> Int64 {
        let (days, seconds) = parts(duration)
        return days * 86_400 + seconds
    }

    /// The zone a value of `form` is read in: its own, UTC, or for floating times and dates
    /// (and TZIDs that do not resolve) the reader's.
    static func zone(of form: DateTimeValue.Form, resolver: TimeZoneResolver, floating: any ZoneRules)
        -> any ZoneRules
    {
        switch form {
        case .utc: return FixedOffsetZone.utc
        case .zoned(let tzid): return resolver.zone(for: tzid) ?? floating
        case .floating, .date: return floating
        }
    }

    /// `instant` as a value of `form` read in `zone` (a date's instant as a floating time).
    static func value(_ instant: Int64, form: DateTimeValue.Form, zone: any ZoneRules) -> DateTimeValue {
        let local = form == .utc ? LocalDateTime(secondsSinceEpoch: instant) : zone.local(atUTC: instant)
        return DateTimeValue(local, form: form == .date ? .floating : form)
    }
}
