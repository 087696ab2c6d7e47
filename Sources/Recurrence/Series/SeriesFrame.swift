import ICalendar

/// The wall clock a series counts in: DTSTART's zone, UTC, or (for floating times and dates)
/// the zone of whoever reads the calendar. Turns values of any form into wall-clock seconds in
/// that frame, and wall-clock seconds into instants.
struct SeriesFrame: Sendable {
    /// DTSTART's form.
    let form: DateTimeValue.Form
    /// The zone of a zoned DTSTART, when the TZID resolves.
    let zone: (any ZoneRules)?
    let resolver: TimeZoneResolver

    init(start: DateTimeValue, resolver: TimeZoneResolver) {
        form = start.form
        self.resolver = resolver
        if case .zoned(let tzid) = start.form { zone = resolver.zone(for: tzid) } else { zone = nil }
    }

    var isDate: Bool { form == .date }

    /// Whether wall-clock times of this frame depend on the reader's zone.
    var isFloating: Bool {
        switch form {
        case .date, .floating: return true
        case .utc: return false
        case .zoned: return zone == nil
        }
    }

    /// Whether wall-clock times of this frame belong to a known zone, so that each names an
    /// instant of its own and two of them (one in a DST gap) can name the same one.
    var isZoned: Bool {
        if case .zoned = form { return zone != nil }
        return false
    }

    /// The key of a wall-clock second of a zoned frame: the second itself, or for a time in a
    /// DST gap the time after the gap with the same instant (RFC 5545 §3.3.5), so that each
    /// instant has one key and duplicate instances fall together (§3.8.5.3). Other frames keep
    /// their wall times: floating ones have no instant of their own.
    /// - Parameter clock: the frame's zone, or a cached copy of it.
    func canonical(_ wall: Int64, clock: (any ZoneRules)? = nil) -> Int64 {
        guard isZoned, let z = clock ?? zone else { return wall }
        let utc = z.utc(forLocal: LocalDateTime(secondsSinceEpoch: wall))
        return utc + Int64(z.offset(atUTC: utc))
    }

    /// The earliest wall-clock second whose key is `key`: a time in the DST gap just before it
    /// when `key` is right after one, else `key` (for searching a rule's raw wall-clock times).
    func earliestWall(withKey key: Int64, clock: (any ZoneRules)? = nil) -> Int64 {
        guard isZoned, let z = clock ?? zone else { return key }
        let utc = z.utc(forLocal: LocalDateTime(secondsSinceEpoch: key))
        return min(key, utc + Int64(z.offset(atUTC: utc - 86_400)))
    }

    /// The zone wall-clock times are read in, given the reader's zone for floating times.
    func clock(floating: any ZoneRules) -> any ZoneRules {
        switch form {
        case .utc: return FixedOffsetZone.utc
        case .zoned: return zone ?? floating
        case .date, .floating: return floating
        }
    }

    /// The instant of any value, given the reader's zone for floating times and dates.
    func instant(of value: DateTimeValue, floating: any ZoneRules) -> Int64 {
        switch value.form {
        case .utc: return value.local.secondsSinceEpoch
        case .zoned(let tzid):
            return (resolver.zone(for: tzid) ?? floating).utc(forLocal: value.local)
        case .floating, .date: return floating.utc(forLocal: value.local)
        }
    }

    /// `value` as wall-clock seconds in this frame: the same instant for timed values in
    /// another zone, the same fields for floating values and dates. For a date frame, the
    /// value's day at midnight. Times of a zoned frame come out as keys (`canonical`).
    func wall(of value: DateTimeValue) -> Int64 {
        if isDate { return Int64(value.date.daysSinceEpoch) * 86_400 }
        switch (form, value.form) {
        case (_, .floating), (_, .date): return value.local.secondsSinceEpoch
        case (.floating, _): return value.local.secondsSinceEpoch
        default: break
        }
        if form == value.form { return canonical(value.local.secondsSinceEpoch) }
        let utc: Int64
        switch value.form {
        case .utc: utc = value.local.secondsSinceEpoch
        case .zoned(let tzid):
            guard let z = resolver.zone(for: tzid) else { return value.local.secondsSinceEpoch }
            utc = z.utc(forLocal: value.local)
        default: utc = value.local.secondsSinceEpoch
        }
        switch form {
        case .utc: return utc
        case .zoned: return zone.map { $0.local(atUTC: utc).secondsSinceEpoch } ?? value.local.secondsSinceEpoch
        default: return value.local.secondsSinceEpoch
        }
    }

    /// A wall-clock second of this frame as a value of DTSTART's form.
    func value(wall: Int64) -> DateTimeValue {
        let local = LocalDateTime(secondsSinceEpoch: wall)
        return isDate ? DateTimeValue(date: local.date) : DateTimeValue(local, form: form)
    }
}
