import ICalendar

/// Moves DATE and DATE-TIME values between forms and compares them, in the frame of one
/// series' DTSTART. Pure arithmetic over the calendar's time-zone rules.
public struct DateTimeFrame: Sendable {
    /// The calendar's time zones, by TZID.
    public let resolver: TimeZoneResolver

    /// A frame reading zoned values with `resolver`.
    public init(resolver: TimeZoneResolver) {
        self.resolver = resolver
    }

    /// The instant of `value` in seconds since the epoch. Floating times and dates are read
    /// as if in UTC: they compare with each other, which is all a single series needs.
    public func instant(_ value: DateTimeValue) -> Int64 {
        switch value.form {
        case .utc, .floating, .date: return value.local.secondsSinceEpoch
        case .zoned(let tzid):
            guard let zone = resolver.zone(for: tzid) else { return value.local.secondsSinceEpoch }
            return zone.utc(forLocal: value.local)
        }
    }

    /// `value` expressed in `form`: the same instant for timed values, the same day for dates.
    /// Floating values keep their wall-clock fields, as they have no instant of their own.
    public func convert(_ value: DateTimeValue, to form: DateTimeValue.Form) -> DateTimeValue {
        if value.form == form { return value }
        switch form {
        case .date:
            return DateTimeValue(date: value.date)
        case .floating:
            return DateTimeValue(value.local, form: .floating)
        case .utc:
            if value.form == .floating || value.isDate { return DateTimeValue(value.local, form: .utc) }
            return DateTimeValue(LocalDateTime(secondsSinceEpoch: instant(value)), form: .utc)
        case .zoned(let tzid):
            if value.form == .floating || value.isDate { return DateTimeValue(value.local, form: form) }
            guard let zone = resolver.zone(for: tzid) else { return DateTimeValue(value.local, form: form) }
            return DateTimeValue(zone.local(atUTC: instant(value)), form: form)
        }
    }

    /// Where an instance starting at `start` ends when its series runs from `seriesStart` to
    /// `seriesEnd` (DTSTART and DTEND), in `form` (by default `seriesEnd`'s).
    ///
    /// Timed values with instants keep the series' exact duration (RFC 5545 §3.8.5.3: DTEND
    /// gives "the same exact duration" to every instance), so an instance across a DST change,
    /// or one whose start was moved out of a gap, never ends before it starts. Floating values
    /// and dates keep the wall-clock distance.
    public func end(
        ofInstanceAt start: DateTimeValue, seriesStart: DateTimeValue, seriesEnd: DateTimeValue,
        in form: DateTimeValue.Form? = nil
    ) -> DateTimeValue {
        let form = form ?? seriesEnd.form
        if hasInstant(start) && hasInstant(seriesStart) && hasInstant(seriesEnd) {
            let endInstant = instant(start) + instant(seriesEnd) - instant(seriesStart)
            return convert(DateTimeValue(LocalDateTime(secondsSinceEpoch: endInstant), form: .utc), to: form)
        }
        return convert(shifted(start, bySeconds: wallClockSeconds(from: seriesStart, to: seriesEnd)), to: form)
    }

    /// Whether `value` names an instant: a UTC time, or a zoned one whose TZID resolves.
    func hasInstant(_ value: DateTimeValue) -> Bool {
        switch value.form {
        case .utc: return true
        case .zoned(let tzid): return resolver.zone(for: tzid) != nil
        case .floating, .date: return false
        }
    }

    /// Whether two values name the same moment (the same day for dates).
    public func same(_ a: DateTimeValue, _ b: DateTimeValue) -> Bool {
        if a.isDate || b.isDate { return a.date == b.date && a.isDate == b.isDate }
        return instant(a) == instant(b)
    }

    /// Whether `a` is at or after `b`.
    public func atOrAfter(_ a: DateTimeValue, _ b: DateTimeValue) -> Bool {
        if a.isDate || b.isDate { return a.date >= b.date }
        return instant(a) >= instant(b)
    }

    /// The wall-clock distance from `a` to `b` in seconds, measured in `a`'s zone when both share
    /// it (so a day across a DST change is 86,400), else between instants.
    public func wallClockSeconds(from a: DateTimeValue, to b: DateTimeValue) -> Int64 {
        if a.form == b.form || a.isDate || b.isDate { return b.local.secondsSinceEpoch - a.local.secondsSinceEpoch }
        return instant(b) - instant(a)
    }

    /// `value` moved by `seconds` of wall-clock time, keeping its form (whole days for dates).
    public func shifted(_ value: DateTimeValue, bySeconds seconds: Int64) -> DateTimeValue {
        if value.isDate { return DateTimeValue(date: value.date.adding(days: Int(seconds / 86_400))) }
        return DateTimeValue(value.local.adding(seconds: seconds), form: value.form)
    }

    /// The last moment a series may still start at when it must end just before `split`:
    /// a DATE the day before for all-day series, one second before for floating ones, and the
    /// UTC instant one second before for zoned and UTC ones (RFC 5545 §3.3.10 requires UNTIL
    /// in UTC when DTSTART is zoned or UTC).
    public func untilBefore(_ split: DateTimeValue) -> DateTimeValue {
        switch split.form {
        case .date: return DateTimeValue(date: split.date.adding(days: -1))
        case .floating: return DateTimeValue(split.local.adding(seconds: -1), form: .floating)
        case .utc, .zoned: return DateTimeValue(LocalDateTime(secondsSinceEpoch: instant(split) - 1), form: .utc)
        }
    }
}
